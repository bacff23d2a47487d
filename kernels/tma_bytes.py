"""TMA copies through unswizzled shared buffers: blocks whose rows are 16 bytes (16 x u8) and 5-d blocks of two
rows (the shape of the scale blocks of Triton's block-scaled matmul tutorial) get `#ttg.nvmma_shared` layouts
without swizzling (row-major in shared memory, one TMA box); a 3-d block with 32-byte rows gets 32-byte
swizzling over its rows (the outer dimensions flattened). y = x + 1, w = v * 2, b = a + 3 (u8, wrapping)."""
import triton
import triton.language as tl


@triton.jit
def tma_bytes_kernel(x_desc, y_desc, v_desc, w_desc, a_desc, b_desc):
    pid = tl.program_id(0)
    y_desc.store([pid * 16, 0], x_desc.load([pid * 16, 0]) + 1)
    if pid < 2:
        w_desc.store([pid, 0, 0, 0, 0], v_desc.load([pid, 0, 0, 0, 0]) * 2)
        b_desc.store([pid * 2, 0, 0], a_desc.load([pid * 2, 0, 0]) + 3)
