"""tt-frontend: compile unmodified `@triton.jit` Python kernels to TTIR, without Triton.

The kernel file is read as source (never executed); the kernel language (`triton.language`) is
reimplemented here with Triton's semantics, so that the module built is the one Triton's own frontend
builds, op for op. `compile_file(path, kernel, signature)` is the entry point.
"""

from ttc.frontend.driver import compile_file, compile_source
from ttc.frontend.options import Options

__all__ = ["Options", "compile_file", "compile_source"]
