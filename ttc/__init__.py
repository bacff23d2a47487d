"""ttc: a Triton-style GPU kernel compiler whose stages are separate opt-style commands over Triton's textual IR.

`ttc.compile(path, kernel, signature, options)` runs every stage in one process, with Triton's kernel cache (see
`ttc.driver.compiler`); `ttc.Options` are its options. Importing `ttc` loads nothing else; it installs `_LazyXdslFormats` (below).
"""

import sys


class _LazyXdslFormats:
    """Makes xDSL parse an op's declarative assembly format when the op is first parsed or printed with it,
    rather than when its class is defined: importing xDSL's arith, scf, cf and builtin parsed about fifty
    formats (10-15% of their import) that ttc never uses, since `ttc.ir.format` reads and writes those ops.
    A meta-path finder that patches `xdsl.irdl.declarative_assembly_format` once it is imported (xDSL is
    pinned; `FormatProgram.from_str` is its one entry to the format parser), so that `import ttc` imports no
    part of xDSL."""

    NAME = "xdsl.irdl.declarative_assembly_format"

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != cls.NAME:
            return None
        sys.meta_path.remove(cls)
        import importlib.util

        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.FormatProgram.from_str = staticmethod(_LazyFormat)

        spec.loader.exec_module = exec_module
        return spec


class _LazyFormat:
    """A FormatProgram parsed on first use (xDSL calls only `parse` and `print` on it)."""

    __slots__ = ("text", "op_def", "program")

    def __init__(self, text, op_def):
        self.text, self.op_def, self.program = text, op_def, None

    def _program(self):
        if self.program is None:
            from xdsl.irdl.declarative_assembly_format_parser import FormatParser

            self.program = FormatParser(self.text, self.op_def).parse_format()
        return self.program

    def parse(self, parser, op_type):
        return self._program().parse(parser, op_type)

    def print(self, printer, op):
        return self._program().print(printer, op)


if "xdsl.irdl.declarative_assembly_format" not in sys.modules:
    sys.meta_path.insert(0, _LazyXdslFormats)


def compile(*args, **kwargs):
    from ttc.driver.compiler import compile as compile_kernel

    return compile_kernel(*args, **kwargs)


def __getattr__(name):
    if name == "Options":
        from ttc.driver.compiler import Options

        return Options
    raise AttributeError(f"module 'ttc' has no attribute '{name}'")
