"""The compiler driver: `ttc.compile`'s stages (`compiler.py`), Triton's dump and override directories
(`stages.py`), Triton's kernel cache (`cache.py`), `@triton.autotune` for tt-tune (`autotune.py`), and what every
command shares: errors without tracebacks, exit codes, `-o` written only on success (`cli.py`)."""
