"""Analyses over Triton IR that passes query: `axis_info` (contiguity, divisibility and constancy of integer and
pointer values, Triton's AxisInfoAnalysis), `allocation` (shared-memory scratch needed by each op, Triton's
Allocation analysis) and `order` (program order of ops while a pass inserts and erases them, MLIR's
`isBeforeInBlock`)."""
