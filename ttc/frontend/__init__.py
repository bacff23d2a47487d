"""tt-frontend: compile unmodified `@triton.jit` Python kernels to TTIR, without Triton.

The kernel file is read as source (never executed); the kernel language (`triton.language`) is
reimplemented here with Triton's semantics, so that the module built is the one Triton's own frontend
builds, op for op. `compile_file(path, kernel, signature)` is the entry point.

Its names are imported when first used: `import ttc.frontend.signature` (what tt-tune and the spec reader need)
does not import the whole frontend.
"""

__all__ = ["Options", "compile_file", "compile_source"]


def __getattr__(name: str):
    if name in ("compile_file", "compile_source"):
        from ttc.frontend import driver

        return getattr(driver, name)
    if name == "Options":
        from ttc.frontend.options import Options

        return Options
    raise AttributeError(f"module 'ttc.frontend' has no attribute '{name}'")
