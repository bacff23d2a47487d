"""The host side of descriptor arguments: what cuTensorMapEncodeTiled gets for a spec's buffer and the kernel's
tensordesc_meta (checked against the PTX ISA's tensor-map rules, without a GPU)."""

import pytest

from ttc.runtime.tensormap import tensormap_args

F16_64x64 = {"swizzle": 3, "elem_size": 2, "elem_type": 6, "block_size": [64, 64], "fp4_padded": False}


def test_row_major_tensor_innermost_first():
    a = tensormap_args(0x1000, (200, 184), 2, F16_64x64)
    assert a.data_type == 6 and a.rank == 2 and a.address == 0x1000
    assert a.global_dim == (184, 200)
    assert a.global_strides == (368,)  # bytes between rows; the innermost stride is implicit
    assert a.box_dim == (64, 64) and a.element_strides == (1, 1) and a.swizzle == 3


def test_box_is_one_swizzle_row_wide():
    meta = dict(F16_64x64, block_size=[128, 128])  # 256-byte rows, 128-byte swizzle: two boxes per block
    assert tensormap_args(0, (256, 256), 2, meta).box_dim == (64, 128)
    meta = dict(F16_64x64, swizzle=0, block_size=[4, 128])  # no swizzle: the whole row
    assert tensormap_args(0, (8, 128), 2, meta).box_dim == (128, 4)


def test_three_dimensions_and_host_enum():
    meta = {"swizzle": 3, "elem_size": 2, "elem_type": 10, "block_size": [2, 16, 64], "fp4_padded": False}
    a = tensormap_args(0, (4, 32, 64), 2, meta)
    assert a.data_type == 9  # bf16: PTX's 10 is the host's 9
    assert a.global_dim == (64, 32, 4) and a.global_strides == (128, 4096) and a.box_dim == (64, 16, 2)


def test_mismatches_are_reported():
    with pytest.raises(ValueError, match="2-d block"):
        tensormap_args(0, (100,), 2, F16_64x64)
    with pytest.raises(ValueError, match="2-byte elements"):
        tensormap_args(0, (64, 64), 4, F16_64x64)


def test_given_strides():
    a = tensormap_args(0, (200, 184), 2, F16_64x64, strides=(192, 1))
    assert a.global_dim == (184, 200) and a.global_strides == (384,)


def test_encode_passes_cuda_bindings_types():
    """cuTensorMapEncodeTiled takes cuuint64_t/cuuint32_t lists, not ints (a TypeError at the first GPU launch
    otherwise); checked here with the real binding's argument conversion, without a driver."""
    from cuda.bindings import driver as d

    from ttc.runtime.tensormap import encode

    class Driver:
        def __init__(self):
            self.d = d

        def __call__(self, name, *args):
            assert name == "cuTensorMapEncodeTiled"
            assert all(isinstance(x, d.cuuint64_t) for x in args[3] + args[4])
            assert all(isinstance(x, d.cuuint32_t) for x in args[5] + args[6])
            try:
                getattr(d, name)(*args)
            except TypeError:
                raise
            except Exception:  # noqa: BLE001  (no driver here: the arguments were accepted)
                pass
            return d.CUtensorMap()

    assert len(encode(Driver(), tensormap_args(0x1000, (200, 184), 2, F16_64x64))) == 16
