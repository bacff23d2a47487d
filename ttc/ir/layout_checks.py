"""Parse-time checks of the TritonGPU layout attributes' fields, so that a bad hand-written layout is an error
at the attribute (`file:line:col: error: ...`) instead of a failure deep in a pass or the lowering.

The rules are Triton's attribute verifiers (`NVMMASharedEncodingAttr::verify`, `DotOperandEncodingAttr::verify`
in lib/Dialect/TritonGPU/IR/Dialect.cpp) plus what Triton asserts when it turns an `#ttg.nvidia_mma` into a
linear layout and what the MMA instructions admit (Triton itself has no verifier for `#ttg.nvidia_mma`):

- `#ttg.nvidia_mma`: versionMajor 1, 2 or 3; warpsPerCTA of rank 2 or 3, powers of two; instrShape of rank 2
  or 3 (v2: [16, 8] after batch 1s, mma.sync m16n8), v3 [16, N, K] (wgmma m64nNkK per warp group: N a multiple
  of 8 from 8 to 256, K 8, 16 or 32 for 32-, 16- and 8-bit operands) with rank-2 warpsPerCTA whose M count is a
  multiple of 4 (whole warp groups); CTAsPerCGA, CTASplitNum, CTAOrder of warpsPerCTA's rank.
- `#ttg.nvmma_shared`: swizzlingByteWidth 0, 32, 64 or 128; elementBitWidth given and non-zero (8, 16, 32 or
  64: the element sizes the buffers hold); transposed / fp4Padded booleans.
- `#ttg.dot_op`: opIdx 0 or 1; kWidth required (positive) for MMA v2/v3 parents, absent for `#ttg.blocked`
  ones; an MMA v3 parent only with opIdx 0 (wgmma reads B from shared memory).

That K matches the operands' element type (v3) and that the layout's warps match the module's are checked with
the ops (ttc/ir/__init__.py, ttc/ir/ttg.py), where the types are known. Each check returns (field, message) for
the first problem, or None.
"""

from __future__ import annotations


def _pow2(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x > 0 and x & (x - 1) == 0


def _ints(v) -> bool:
    return isinstance(v, tuple) and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)


def check_nvidia_mma(f: dict) -> tuple[str, str] | None:
    for key in ("versionMajor", "warpsPerCTA", "instrShape"):
        if key not in f:
            return "", f"#ttg.nvidia_mma needs '{key}'"
    version, warps, instr = f["versionMajor"], f["warpsPerCTA"], f["instrShape"]
    if version not in (1, 2, 3) or isinstance(version, bool):
        return "versionMajor", f"versionMajor must be 1 (mma.sync m8n8k4), 2 (mma.sync m16n8) or 3 (wgmma), got {version}"
    if not _ints(warps) or len(warps) not in (2, 3) or not all(_pow2(w) for w in warps):
        return "warpsPerCTA", f"warpsPerCTA must be 2 or 3 powers of two, got {_text(warps)}"
    if not _ints(instr):
        return "instrShape", f"instrShape must be a list of integers, got {_text(instr)}"
    for key in ("CTAsPerCGA", "CTASplitNum", "CTAOrder"):
        if key in f and (not _ints(f[key]) or len(f[key]) != len(warps)):
            return key, f"{key} must have warpsPerCTA's rank {len(warps)}, got {_text(f[key])}"
    if version == 2:
        if len(instr) != len(warps) or instr[-2:] != (16, 8) or any(x != 1 for x in instr[:-2]):
            want = "[" + "1, " * (len(warps) - 2) + "16, 8]"
            return "instrShape", f"MMA v2 (mma.sync m16n8) needs instrShape = {want}, got {_text(instr)}"
    if version == 3:
        if len(instr) != 3 or instr[0] != 16 or instr[1] % 8 or not 8 <= instr[1] <= 256 or instr[2] not in (8, 16, 32):
            return "instrShape", ("MMA v3 (wgmma) needs instrShape = [16, N, K] with N a multiple of 8 from 8 to 256 "
                                  f"and K 8, 16 or 32 (32-, 16-, 8-bit operands), got {_text(instr)}")
        if len(warps) != 2 or warps[0] % 4:
            return "warpsPerCTA", ("MMA v3 (wgmma) needs a rank-2 warpsPerCTA with whole warp groups (a multiple of 4 "
                                   f"warps) along M, got {_text(warps)}")
    return None


def check_nvmma_shared(f: dict) -> tuple[str, str] | None:
    swizzle, bits = f.get("swizzlingByteWidth"), f.get("elementBitWidth")
    if swizzle not in (0, 32, 64, 128) or isinstance(swizzle, bool):
        return "swizzlingByteWidth", f"swizzlingByteWidth must be 0, 32, 64, or 128, got {_text(swizzle)}"
    if bits is None or bits == 0:
        return "elementBitWidth", "elementBitWidth must be non-zero"
    if bits not in (8, 16, 32, 64) or isinstance(bits, bool):
        return "elementBitWidth", f"elementBitWidth must be 8, 16, 32 or 64, got {_text(bits)}"
    for key in ("transposed", "fp4Padded"):
        if key in f and not isinstance(f[key], bool):
            return key, f"{key} must be true or false, got {_text(f[key])}"
    return None


def check_dot_operand(f: dict) -> tuple[str, str] | None:
    from ttc.ir.layouts import BlockedEncoding, NvidiaMmaEncoding

    op_idx, parent, k_width = f.get("opIdx"), f.get("parent"), f.get("kWidth", 0)
    if op_idx not in (0, 1) or isinstance(op_idx, bool):
        return "opIdx", f"ttg.dot_op opIdx parameter can be 0 or 1, got: {_text(op_idx)}"
    if parent is None:
        return "", "ttg.dot_op parent parameter cannot be null"
    if hasattr(parent, "dot_operand_problem"):  # AMD's MFMA / WMMA (ttc/ir/amd_layouts.py)
        problem = parent.dot_operand_problem(op_idx, k_width)
        return ("", problem) if problem else None
    if isinstance(parent, NvidiaMmaEncoding) and parent.get("versionMajor") in (2, 3):
        if not k_width:
            return "", "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent"
        if op_idx != 0 and parent["versionMajor"] == 3:
            return "opIdx", ("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only "
                             "allows first operand to be in registers")
    elif isinstance(parent, NvidiaMmaEncoding) and k_width:
        return "kWidth", "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent"
    elif isinstance(parent, BlockedEncoding) and k_width:
        return "kWidth", "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout"
    return None


def _text(v) -> str:
    if isinstance(v, tuple):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def check_warp_group_dot(op) -> str | None:
    """`ttng.warp_group_dot`'s layouts against its types (Triton's WarpGroupDotOp::verify, plus the instruction
    shape and shared-buffer element width wgmma needs): the first problem, or None."""
    from ttc.ir.layouts import DotOperandEncoding, NVMMASharedEncoding, NvidiaMmaEncoding
    from ttc.ir.types import MemDescType, bitwidth, encoding, shape_of

    mma = encoding(op.d.type)
    if not isinstance(mma, NvidiaMmaEncoding) or mma["versionMajor"] != 3:
        return "WGMMA result layout must be Hopper NVMMA"
    def enc_of(t):
        return t.encoding if isinstance(t, MemDescType) else encoding(t)

    a_enc, b_enc = enc_of(op.a.type), enc_of(op.b.type)
    if not isinstance(a_enc, (NVMMASharedEncoding, DotOperandEncoding)):
        return "WGMMA A operand must have NVMMA shared or dot layout"
    if not isinstance(b_enc, NVMMASharedEncoding):
        return "WGMMA B operand must have NVMMA shared layout"
    shape = shape_of(op.d.type)
    if len(shape) != 2:
        return "WGMMA result shape must be 2D"
    if shape[0] % 64:
        return "WGMMA result M dimension must be divisible by 64"
    if shape[1] % 8:
        return "WGMMA result N dimension must be divisible by 8"
    bits = bitwidth(op.a.type.element_type if isinstance(op.a.type, MemDescType) else op.a.type)
    k = mma["instrShape"][2]
    if k * bits != 256:
        return (f"the #ttg.nvidia_mma instrShape K = {k} does not match {bits}-bit operands (wgmma takes K = "
                f"{256 // bits} of them)")
    for v, enc in ((op.a, a_enc), (op.b, b_enc)):
        if isinstance(enc, NVMMASharedEncoding) and enc["elementBitWidth"] != bitwidth(v.type.element_type):
            return (f"#ttg.nvmma_shared elementBitWidth = {enc['elementBitWidth']} does not match the "
                    f"{bitwidth(v.type.element_type)}-bit elements of its buffer")
    if isinstance(a_enc, DotOperandEncoding) and a_enc.get("kWidth") != 32 // bits:
        return f"in-register LHS operand must have a kWidth of {32 // bits} but got {a_enc.get('kWidth')}"
    return None
