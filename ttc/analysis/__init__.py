"""Analyses over Triton IR that passes query: `axis_info` (contiguity, divisibility and constancy of integer and
pointer values, Triton's AxisInfoAnalysis) and `allocation` (shared-memory scratch needed by each op, Triton's
Allocation analysis)."""
