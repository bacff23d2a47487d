"""Reshape layout inference (ttc/ir/reshape_layout.py) against layouts Triton 3.6 infers (its TTGIR for the
sort kernel, and cases of its inferReshapeOpEncoding's comments)."""

from __future__ import annotations

from math import prod

import pytest

from ttc.ir.layouts import blocked, default_blocked
from ttc.ir.layouts import LinearEncoding
from ttc.ir.reshape_layout import infer_reshape_encoding, reshape_decomposition

ROW = blocked([1, 2], [1, 32], [4, 1], [1, 0])
CUBE = blocked([1] * 7 + [2], [1, 1, 2, 2, 2, 2, 2, 1], [2, 2, 1, 1, 1, 1, 1, 1], list(range(7, -1, -1)))


def test_decomposition():
    assert reshape_decomposition([4, 4, 4], [2, 2, 8, 2]) == [([0], [0, 1]), ([1, 2], [2, 3])]
    assert reshape_decomposition([4, 64], [2] * 8) == [([0], [0, 1]), ([1], [2, 3, 4, 5, 6, 7])]
    assert reshape_decomposition([2], [1, 1, 2, 1]) == [([0], [0, 1, 2, 3])]


def test_blocked_where_one_exists_and_back():
    # the sort kernel's 4x64 rows as a hypercube, as in Triton's TTGIR
    assert infer_reshape_encoding([4, 64], ROW, [2] * 8) == CUBE
    assert infer_reshape_encoding([2] * 8, CUBE, [4, 64]) == ROW
    # default layouts map to default layouts
    assert infer_reshape_encoding([32, 32], default_blocked([32, 32], 4, 32), [1024]) == default_blocked([1024], 4, 32)


def test_linear_where_no_blocked_layout_keeps_the_elements():
    # a 2-element range that becomes one dimension of the cube: lane 0 and 1 hold its elements
    got = infer_reshape_encoding([1, 1, 1, 1, 1, 1, 2, 1], CUBE, [2])
    assert got == LinearEncoding.make(register=[[0]], lane=[[1], [0], [0], [0], [0]], warp=[[0], [0]], block=[])
    # merging dimensions against the layout's order: 4x4 with order [0, 1] -> 16
    col = blocked([1, 1], [4, 8], [1, 4], [0, 1])
    got = infer_reshape_encoding([4, 4], col, [16])
    assert isinstance(got, LinearEncoding)
    assert got["lane"][:2] == ((4,), (8,)) and got["lane"][2:] == ((1,), (2,), (0,))


@pytest.mark.parametrize("shape,dst", [([8, 16], [128]), ([4, 64], [16, 16]), ([2, 2, 32], [4, 32])])
def test_inference_keeps_every_element_in_place(shape, dst):
    # reshaping there and back gives a layout that places every element where the original did
    from ttc.ir.linear_layout import layout_for

    enc = default_blocked(shape, 4, 32)
    two = blocked([1] * (len(shape) - 1) + [2], enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"])
    out = infer_reshape_encoding(shape, two, dst)
    a, b = layout_for(tuple(shape), two), layout_for(tuple(dst), out)
    flat = lambda ll, s: [[sum(c * p for c, p in zip(x, [prod(s[i + 1:]) for i in range(len(s))])) for x in g]
                          for g in (ll.reg, ll.lane, ll.warp)]
    assert flat(a, shape) == flat(b, dst)
    back = layout_for(tuple(shape), infer_reshape_encoding(dst, out, shape))
    assert (back.reg, back.lane, back.warp) == (a.reg, a.lane, a.warp)
