"""Running passes, as mlir-opt / triton-opt do: the pass manager with options, pipelines, IR dumps and timing
(`passmanager.py`), the greedy pattern-rewrite driver (`greedy_rewrite.py`), `-verify-diagnostics`
(`expected_diagnostics.py`), crash reproducers (`reproducer.py`) and `--print-source-map` (`source_map.py`)."""
