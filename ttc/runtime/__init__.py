"""Running kernels: the JSON spec of a launch (`spec`), the NumPy interpreter of TTIR/TTGIR (`interpreter` and
the `ops_*` modules it dispatches to), the CUDA driver launch of `.cubin`/`.ptx` (`cuda`), and the comparison
of outputs with the spec's expectations (`check`). `tt-run` (tools/tt_run.py) puts them together.
"""
