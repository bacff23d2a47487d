"""Compilation options that change what the frontend emits, with the defaults of Triton's CUDA backend.

* `debug`: emit `tt.assert` for `device_assert`/`assert` and for integer overflow checks (Triton's `debug`).
* `sanitize_overflow`: compute the i64 overflow checks of `+`, `-` and `*` on 32-bit integers (Triton does
  by default; without `debug` the check is computed but not asserted, and later passes delete it).
* `default_dot_input_precision` / `allowed_dot_input_precisions`: `tl.dot`'s `input_precision`.
* `arch`: the compute capability (fp8 support and the fp8 `max_num_imprecise_acc` default depend on it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    debug: bool = False
    sanitize_overflow: bool = True
    arch: int = 90
    default_dot_input_precision: str = "tf32"
    allowed_dot_input_precisions: tuple = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")

    @property
    def supported_fp8_dtypes(self) -> tuple:
        return ("fp8e4b15", "fp8e4nv", "fp8e5") if self.arch >= 89 else ("fp8e4b15", "fp8e5")

    @property
    def max_num_imprecise_acc_default(self) -> int:
        return 2**30 if self.arch == 90 else 0

    def check_dtype(self, dtype) -> None:
        """Triton refuses fp8 types the target does not have (fp8e4nv needs sm_89 or newer)."""
        from ttc.frontend.errors import LanguageError

        scalar = dtype.scalar
        while scalar.is_ptr():
            scalar = scalar.element.scalar
        if scalar.is_fp8() and scalar.name not in self.supported_fp8_dtypes:
            raise LanguageError(
                f"type {scalar} not supported in this architecture. The supported fp8 dtypes are "
                f"{tuple(sorted(self.supported_fp8_dtypes))}"
            )
