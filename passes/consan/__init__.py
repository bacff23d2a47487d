"""The concurrency sanitizer's parts (Triton's lib/Dialect/TritonInstrument/IR/), used by
passes/concurrency_sanitizer.py: the auxiliary state it keeps per kernel and per warp-specialize partition, with
the builder that places ops and the scratch-memory loads and stores (`aux.py`), and the cached helper functions
that read and update that state, with their call sites (`helpers.py`)."""
