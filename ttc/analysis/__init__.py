"""Analyses over Triton IR that passes query: `axis_info` (contiguity, divisibility and constancy of integer and
pointer values, Triton's AxisInfoAnalysis), `alias` (which buffers a memory descriptor may view, Triton's
SharedMemoryAliasAnalysis and BufferRegionAnalysis), `scratch` (shared memory each op needs while it runs),
`allocation` (shared-memory offsets, Triton's Allocation), `membar` (where barriers must separate
shared-memory accesses, Triton's Membar analysis) and `order` (program order of ops while a pass inserts and
erases them, MLIR's `isBeforeInBlock`), `slices` (def-use slices, MLIR's getSlice).

`remark` reports what an analysis found about an op, as the test passes of triton-opt do (`-test-print-*`)."""

from __future__ import annotations

import sys


def remark(op, message: str) -> None:
    """A remark at `op`'s location: to `--verify-diagnostics` when it listens, else on stderr (as mlir-opt prints
    every diagnostic of a test pass, whatever MLIR_ENABLE_DIAGNOSTICS says)."""
    from ttc.ir.diagnostics import at_op, emit, reported

    diag = at_op(op, None, message, "remark")
    if reported("remark"):
        emit(diag)  # collected, or printed because MLIR_ENABLE_DIAGNOSTICS asks for remarks
    else:
        sys.stderr.write(diag.render() + "\n")
