"""Comparing a run's outputs with the spec's `check` expressions: per output, the largest absolute and relative
errors and the elements outside `atol + rtol * |expected|` (NaN matches NaN; integers compare exactly unless
the spec gives a tolerance)."""

from __future__ import annotations

import concurrent.futures as cf
import os
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


def _order(bits: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Float bits (int16 for float16, int32 for float32) as integers ordered as the values, or back: the
    magnitude bits of negative values flipped (-0.0 -> -1, +0.0 -> 0, NaNs beyond the infinities). It is its
    own inverse."""
    np.right_shift(bits, 8 * bits.itemsize - 1, out=out)  # 0 or -1
    np.bitwise_and(out, np.iinfo(bits.dtype).max, out=out)
    return np.bitwise_xor(out, bits, out=out)


def _accepts(v: np.ndarray, e: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """compare's test for output values v against expected e (float64): equal, or |v - e| <= tol in float64."""
    with np.errstate(all="ignore"):
        return (v == e) | (np.abs(v - e) <= tol)


class Reference:
    """An expected array prepared once for many comparisons (tt-tune checks every config against one reference).

    `within(got)` is the test tt-tune runs on every config's output. For a float16 or float32 output (the dtype
    given), the values that `compare` passes for an element (equal, or |got - e| <= atol + rtol * |e| in float64)
    are an interval of that dtype; its ends are found once here, as integer keys ordered as the values
    (`_order`), and checked to pass. The test is then, block by block (in cache), the output's bits as keys
    compared with the ends: integer passes over 2-byte elements, not float64 ones. Its answer is `compare`'s
    ok for every element whose expected value is a number; where it says False (a wrong config, NaN, an
    expected NaN or infinity, a value outside the dtype's range) `compare` decides and reports.

    `compare(name, got)` gives `compare`'s Result at a few float64 passes over the output (its scratch buffers are
    made on its first use); outputs out of tolerance (and integer, NaN or broadcast cases) go through `compare`
    itself, so every report is the same."""

    BLOCK = 1 << 16  # elements per block: the blocks of one pass stay in L2

    def __init__(self, want: np.ndarray, rtol: float, atol: float, out_dtype=None):
        self.want, self.rtol, self.atol = want, rtol, atol
        self.fast = want.dtype.kind in "biuf" and not (want.dtype.kind in "biu" and rtol == 0 and atol == 0)
        self.e = None
        self.dtype = np.dtype(out_dtype) if out_dtype is not None else None
        if self.dtype not in (np.float16, np.float32) or not self.fast or not want.ndim:
            self.dtype = None
            return
        bits = np.dtype(f"int{8 * self.dtype.itemsize}")
        wide = np.int32 if self.dtype == np.float16 else np.int64  # keys +- 1 without overflow
        top = int(_order(np.array([np.inf], self.dtype).view(bits), np.empty(1, bits))[0])  # +inf's key
        if self.dtype == np.float16:  # every float16 value by key, for the search below
            every = np.arange(-(1 << 15), 1 << 15).astype(np.int16)
            table = _order(every, np.empty_like(every)).view(np.float16).astype(np.float64)
            values = lambda k: table[k + (1 << 15)]  # noqa: E731
        else:
            values = lambda k: _order(k.astype(bits), np.empty(k.size, bits)).view(self.dtype).astype(np.float64)  # noqa: E731
        flat = want.reshape(-1)
        self.lo, self.hi = np.empty(flat.size, bits), np.empty(flat.size, bits)
        clip = lambda k: np.clip(k, -top - 1, top)  # noqa: E731 - between -inf's and +inf's keys

        def block(i: int) -> None:
            e = flat[i:i + self.BLOCK].astype(np.float64)
            ends = []
            with np.errstate(all="ignore"):
                tol = self.atol + self.rtol * np.abs(e)  # as compare computes it
                for end, inward in ((e + tol, -1), (e - tol, 1)):
                    k = clip(self._near(end).astype(wide))  # within an ulp or two of the end
                    ok = _accepts(values(k), e, tol)
                    for _ in range(3):  # inward while not passing (few elements: only those)
                        j = np.flatnonzero(~ok)
                        if not j.size:
                            break
                        k[j] = clip(k[j] + inward)
                        ok[j] = _accepts(values(k[j]), e[j], tol[j])
                    j = np.arange(e.size)
                    for _ in range(3):  # outward while the next passes
                        out = clip(k[j] - inward)
                        step = ok[j] & _accepts(values(out), e[j], tol[j])
                        j, out = j[step], out[step]
                        if not j.size:
                            break
                        k[j] = out
                    ends.append((k, ok))
            (hi, hi_ok), (lo, lo_ok) = ends
            valid = hi_ok & lo_ok & (lo <= hi) & ~np.isnan(e)
            self.lo[i:i + self.BLOCK] = np.where(valid, lo, np.iinfo(bits).max)  # empty: compare decides
            self.hi[i:i + self.BLOCK] = np.where(valid, hi, np.iinfo(bits).min)

        starts = range(0, flat.size, self.BLOCK)
        if len(starts) > 8:  # NumPy releases the GIL in its loops: blocks on several threads
            with cf.ThreadPoolExecutor(min(8, os.cpu_count() or 1)) as pool:
                list(pool.map(block, starts))
        else:
            for i in starts:
                block(i)
        self.scratch = (np.empty(self.BLOCK, bits), np.empty(self.BLOCK, bool))

    def _near(self, x: np.ndarray) -> np.ndarray:
        """The key of a value of the output's dtype within an ulp or two of float64 x (NaN: anything)."""
        if self.dtype == np.float32:
            return _order(x.astype(np.float32).view(np.int32), np.empty(x.size, np.int32))
        a = np.abs(x).astype(np.float32)  # float16 magnitude bits from float32's, truncated; below 2^-14 scaled
        m = np.where(a < 2.0 ** -14, np.floor(np.nan_to_num(a, nan=0.0) * 2.0 ** 24).astype(np.int32),
                     (a.view(np.int32) >> 13) - (112 << 10))
        bits = (np.clip(m, 0, 0x7C00) | np.where(np.signbit(x), 0x8000, 0)).astype(np.uint16).view(np.int16)
        return _order(bits, np.empty(x.size, np.int16))

    def within(self, got: np.ndarray) -> bool:
        """True when every element of `got` is within tolerance; False: `compare` decides (see the class)."""
        if self.dtype is None or got.dtype != self.dtype or got.shape != self.want.shape:
            return False
        g = np.ascontiguousarray(got).reshape(-1)
        k, ok = self.scratch
        bits = g.view(k.dtype)
        for i in range(0, g.size, self.BLOCK):
            n = min(self.BLOCK, g.size - i)
            _order(bits[i:i + n], k[:n])
            if not (np.greater_equal(k[:n], self.lo[i:i + n], out=ok[:n]).all()
                    and np.less_equal(k[:n], self.hi[i:i + n], out=ok[:n]).all()):
                return False
        return True

    def compare(self, name: str, got: np.ndarray) -> Result:
        if not self.fast or got.shape != self.want.shape or (got.dtype.kind in "biu" and self.want.dtype.kind in "biu"
                                                              and self.rtol == 0 and self.atol == 0):
            return compare(name, got, self.want, self.rtol, self.atol)
        if self.e is None:
            e = self.want.astype(np.float64)
            self.e = e
            self.tol = self.atol + self.rtol * np.abs(e)
            self.denom = np.where(e == 0, np.inf, np.abs(e))
            self.d, self.within_ = np.empty_like(e), np.empty(e.shape, dtype=bool)  # reused: no page faults
        d = self.d
        with np.errstate(all="ignore"):  # inf - inf: NaN, out of tolerance, reported by compare
            np.subtract(got, self.e, out=d, casting="unsafe")  # exact: got is at most float64, as e
        np.abs(d, out=d)
        if not np.less_equal(d, self.tol, out=self.within_).all():  # a mismatch, or NaN/inf somewhere: the full comparison reports it
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


def bit_differences(a: np.ndarray, b: np.ndarray) -> tuple[int, float]:
    """How many elements of two outputs of one shape and dtype differ bit for bit (NaNs with the same bits are
    the same; 0.0 and -0.0 differ), and the largest absolute difference among them (NaN where either is NaN)."""
    bits = f"u{a.dtype.itemsize}" if a.dtype.itemsize in (1, 2, 4, 8) else None
    differ = a.view(bits) != b.view(bits) if bits else a != b
    n = int(np.count_nonzero(differ))
    if not n:
        return 0, 0.0
    x, y = a[differ], b[differ]
    if x.dtype.kind in "iub":
        x, y = x.astype(np.int64), y.astype(np.int64)
    else:
        x, y = x.astype(np.float64), y.astype(np.float64)
    return n, float(np.max(np.abs(x - y)))


def same_bits_text(name: str, a: np.ndarray, b: np.ndarray, a_from: str) -> str:
    """One line: output `name` (b) is the same bit for bit as `a_from`'s (a), or how many elements differ."""
    n, largest = bit_differences(a, b)
    if not n:
        return f"{name}: the same bits as {a_from}'s"
    return f"{name}: {n} of {a.size} elements differ from {a_from}'s (largest difference {largest:.3g})"
