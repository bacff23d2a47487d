"""ttc: a Triton-style GPU kernel compiler whose stages are separate opt-style commands over Triton's textual IR.

`ttc.compile(path, kernel, signature, options)` runs every stage in one process, with Triton's kernel cache (see
`ttc.compiler`); `ttc.Options` are its options. Importing `ttc` loads nothing else.
"""


def compile(*args, **kwargs):
    from ttc.compiler import compile as compile_kernel

    return compile_kernel(*args, **kwargs)


def __getattr__(name):
    if name == "Options":
        from ttc.compiler import Options

        return Options
    raise AttributeError(f"module 'ttc' has no attribute '{name}'")
