"""Comparing a run's outputs with the spec's `check` expressions: per output, the largest absolute and relative
errors and the elements outside `atol + rtol * |expected|` (NaN matches NaN; integers compare exactly unless
the spec gives a tolerance)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ttc.runtime import dtypes
from ttc.runtime.errors import SpecError
from ttc.runtime.expr import evaluate
from ttc.runtime.spec import Arg, Spec


@dataclass
class Result:
    name: str
    ok: bool
    max_abs: float
    max_rel: float
    rtol: float
    atol: float
    mismatches: int
    size: int
    first: tuple | None = None  # (index, got, expected) of the first mismatch

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("ok", "max_abs", "max_rel", "rtol", "atol", "mismatches", "size")}
        if self.first is not None:
            d["first_mismatch"] = {"index": list(self.first[0]), "got": self.first[1], "expected": self.first[2]}
        return _finite(d)

    def text(self) -> str:
        stats = f"max abs err {self.max_abs:.3g}, max rel err {self.max_rel:.3g}; rtol {self.rtol:g}, atol {self.atol:g}"
        if self.ok:
            return f"{self.name}: ok ({stats})"
        index, got, expected = self.first
        return (f"{self.name}: MISMATCH in {self.mismatches} of {self.size} elements ({stats}); "
                f"first at {list(index)}: got {got}, expected {expected}")


def _finite(d: dict) -> dict:
    """JSON has no NaN or infinity: write them as strings."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            v = _finite(v)
        elif isinstance(v, float) and not np.isfinite(v):
            v = str(v)
        out[k] = v
    return out


def default_tolerance(a: Arg) -> tuple[float, float]:
    """(rtol, atol) when the spec gives none: exact for integers and booleans, a few ulp-ish for floats."""
    if a.host.kind in "iub":
        return 0.0, 0.0
    if dtypes.is_bf16(a.elt):
        return 1e-2, 1e-2
    return {2: (1e-3, 1e-3), 4: (1e-5, 1e-6), 8: (1e-9, 1e-12)}[a.host.itemsize]


def expected(spec: Spec, name: str, initial: dict) -> np.ndarray:
    """The value of the check expression for output `name`, over the arguments' initial values."""
    names = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in initial.items()}
    try:
        value = evaluate(spec.checks[name], names)
    except SpecError as e:
        raise SpecError(e.message, f"check.{name}") from None
    try:
        return np.asarray(value)
    except Exception as e:  # a ragged list and the like
        raise SpecError(f"the expression does not give an array: {e}", f"check.{name}") from None


def compare(name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> Result:
    if want.dtype.kind not in "biuf":
        try:
            want = want.astype(np.float64)
        except (TypeError, ValueError):
            raise SpecError(f"the expression gives {want.dtype} values, not numbers", f"check.{name}") from None
    if want.shape != got.shape:
        if want.ndim:
            raise SpecError(f"the expression gives shape {list(want.shape)} but '{name}' has shape {list(got.shape)}",
                            f"check.{name}")
        want = np.broadcast_to(want, got.shape)
    g, e = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(e)
    if got.dtype.kind in "biu" and want.dtype.kind in "biu" and rtol == 0 and atol == 0:
        same = got.astype(np.int64) == want.astype(np.int64)
        within = same
    else:
        same = (g == e) | both_nan
        within = same | (np.abs(g - e) <= atol + rtol * np.abs(e))
    diff = np.where(same, 0.0, np.abs(g - e))
    rel = np.where(same, 0.0, diff / np.where(e == 0, np.inf, np.abs(e)))
    bad = np.flatnonzero(~within.reshape(-1))
    first = None
    if bad.size:
        i = int(bad[0])
        index = tuple(int(k) for k in np.unravel_index(i, got.shape)) if got.shape else ()
        first = (index, got.reshape(-1)[i].item(), want.reshape(-1)[i].item())
    max_abs = float(diff.max()) if diff.size else 0.0  # NaN when an output is NaN where a number was expected
    max_rel = float(rel.max()) if rel.size else 0.0
    return Result(name, not bad.size, max_abs, max_rel, rtol, atol, int(bad.size), int(got.size), first)


class Reference:
    """An expected array prepared once for many comparisons (tt-tune checks every config against one reference):
    its float64 values, the tolerance per element and the denominators of the relative error. `compare` with it
    gives `compare`'s Result at a few passes over the output; outputs out of tolerance (and integer, NaN or
    broadcast cases) go through `compare` itself, so every report is the same."""

    def __init__(self, want: np.ndarray, rtol: float, atol: float):
        self.want, self.rtol, self.atol = want, rtol, atol
        self.fast = want.dtype.kind in "biuf" and not (want.dtype.kind in "biu" and rtol == 0 and atol == 0)
        if self.fast:
            e = want.astype(np.float64)
            self.e = e
            self.tol = atol + rtol * np.abs(e)
            self.denom = np.where(e == 0, np.inf, np.abs(e))
            self.d, self.within = np.empty_like(e), np.empty(e.shape, dtype=bool)  # reused: no page faults

    def compare(self, name: str, got: np.ndarray) -> Result:
        if not self.fast or got.shape != self.want.shape or (got.dtype.kind in "biu" and self.want.dtype.kind in "biu"
                                                              and self.rtol == 0 and self.atol == 0):
            return compare(name, got, self.want, self.rtol, self.atol)
        d = self.d
        with np.errstate(all="ignore"):  # inf - inf: NaN, out of tolerance, reported by compare
            np.subtract(got, self.e, out=d, casting="unsafe")  # exact: got is at most float64, as e
        np.abs(d, out=d)
        if not np.less_equal(d, self.tol, out=self.within).all():  # a mismatch, or NaN/inf somewhere: the full comparison reports it
            return compare(name, got, self.want, self.rtol, self.atol)
        max_abs = float(d.max()) if d.size else 0.0  # equal elements have d == 0, as compare's `diff`
        np.divide(d, self.denom, out=d)
        max_rel = float(d.max()) if d.size else 0.0
        return Result(name, True, max_abs, max_rel, self.rtol, self.atol, 0, int(got.size), None)


def run_checks(spec: Spec, initial: dict, outputs: dict) -> list[Result]:
    results = []
    for name in spec.checks:
        a = spec.arg(name)
        rtol, atol = default_tolerance(a)
        rtol = spec.rtol if spec.rtol is not None else rtol
        atol = spec.atol if spec.atol is not None else atol
        results.append(compare(name, outputs[name], expected(spec, name, initial), rtol, atol))
    return results
