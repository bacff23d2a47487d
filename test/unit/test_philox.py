"""ttc's NumPy Philox (ttc/runtime/philox.py) against real Triton: test/fixtures/random_reference.json holds what
Triton 3.6's interpreter returned for tl.randint/randint4x/rand/rand4x/randn/randn4x over several seeds (i32,
u32, i64 and u64 values), int32 and int64 offsets and two round counts, and for tl.philox with 64-bit counters
(test/fixtures/make_random_reference.py made it). Integers and uniforms must be bit-exact; normals too (both
sides use NumPy's float32 log/sqrt/cos/sin)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ttc.runtime import philox
from ttc.runtime.expr import evaluate

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = json.loads((ROOT / "test" / "fixtures" / "random_reference.json").read_text())
CASES = REFERENCE["cases"]


def _bits(result) -> np.ndarray:
    """uint32 words: the integers themselves, floats' float32 bits."""
    rows = result if isinstance(result, tuple) else (result,)
    return np.stack([r.view(np.uint32) if r.dtype == np.float32 else r for r in rows])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['fn']}-seed{c['seed']}-{c['offset_dtype']}-r{c['n_rounds']}")
def test_matches_triton_bit_for_bit(case):
    fn = philox.FUNCTIONS[case["fn"]]
    got = _bits(fn(case["seed"], np.array(case["offsets"], dtype=case["offset_dtype"]), case["n_rounds"]))
    np.testing.assert_array_equal(got, np.array(case["result"], dtype=np.uint32))


@pytest.mark.parametrize("case", REFERENCE["philox64"], ids=lambda c: f"seed{c['seed']}")
def test_philox_with_64_bit_words_matches_triton(case):
    counters = np.array(case["counters"], dtype=np.uint64)
    got = philox.philox(case["seed"], *counters)
    np.testing.assert_array_equal(np.stack(got), np.array(case["result"], dtype=np.uint64))
    uniform = philox.uint_to_uniform_float(got[0]).view(np.uint32)
    np.testing.assert_array_equal(uniform, np.array(case["uniform"], dtype=np.uint32))


@pytest.mark.parametrize("counter, key, expected", [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
])
def test_philox_4x32_10_known_answers(counter, key, expected):
    # the known-answer vectors of Random123, the reference Philox (Salmon et al., SC'11)
    got = philox.philox_impl(*[np.array([c], np.uint32) for c in counter], *[np.uint32(k) for k in key])
    assert tuple(int(r[0]) for r in got) == expected


def test_seed_zero_offset_zero_is_the_zero_counter_under_the_zero_key():
    assert [int(r[0]) for r in philox.randint4x(0, np.zeros(1, np.int32))] == [
        0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


def test_uniforms_are_in_range_and_distinct_streams_differ():
    u = philox.rand(7, np.arange(100000, dtype=np.int32))
    assert u.dtype == np.float32 and u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    assert not np.array_equal(philox.rand(8, np.arange(16, dtype=np.int32)), u[:16])
    n = philox.randn(7, np.arange(100000, dtype=np.int32))
    assert abs(n.mean()) < 0.02 and abs(n.std() - 1) < 0.02


def test_check_expressions_can_call_it():
    offsets = np.arange(8, dtype=np.int32)
    got = evaluate("np.stack(randint4x(seed, offs)) ^ randint(seed, offs)", {"seed": 3, "offs": offsets})
    np.testing.assert_array_equal(got[0], 0)
    np.testing.assert_array_equal(evaluate("rand(3, offs)", {"offs": offsets}), philox.rand(3, offsets))


@pytest.mark.parametrize("seed", [1.5, np.float32(2), "3", None])
def test_seed_must_be_an_integer(seed):
    with pytest.raises(TypeError, match="seed must be an integer"):
        philox.rand(seed, np.arange(4, dtype=np.int32))


def test_offsets_must_be_integers():
    with pytest.raises(TypeError, match="offsets must be integers"):
        philox.randint(0, np.arange(4, dtype=np.float32))


@pytest.mark.parametrize("x", [np.zeros(4, np.float32), np.zeros(4, np.int16)])
def test_uniform_float_takes_32_or_64_bit_integers(x):
    with pytest.raises(TypeError, match="expected 32- or 64-bit integers"):
        philox.uint_to_uniform_float(x)
