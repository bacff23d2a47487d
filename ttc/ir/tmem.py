"""Blackwell's tensor memory and the rest of Triton 3.6's `ttng` ops, as IR (parse, verify, print; no lowering).

Attributes: `#ttng.tensor_memory` (the memory space of TMEM memdescs), `#ttng.tensor_memory_encoding<blockM = ..,
blockN = .., colStride = ..[, CTASplitM, CTASplitN, twoCTAs]>` (alias `#tmem`) and
`#ttng.tensor_memory_scales_encoding<[CTASplitM, CTASplitN]>` (alias `#tmem_scales`), written as MLIR's
`struct(params)` writes them (parameters at their default value left out).
Ops: TMEM `tmem_alloc`, `tmem_load`, `tmem_store`, `tmem_copy`, `tmem_subslice`; the fifth-generation tensor core
`tc_gen5_mma`, `tc_gen5_mma_scaled`, `tc_gen5_commit`; mbarriers `arrive_barrier`, `async_copy_mbarrier_arrive`;
clusters `cluster_arrive`, `cluster_wait`; and `ttg.memdesc_reinterpret`. The TMEM ops take and give Triton 3.6's
optional `!ttg.async.token`s (`%buf[%tok]`, `[]`: a token result without a dependency). Verifiers follow Triton's
Ops.cpp, Dialect.cpp and MemDescType::verify with its messages; whether a register layout fits TMEM is
`ttc.ir.tmem_layout`. Memory effects are Triton's: an immutable `tmem_alloc` has none (CSE/DCE treat it as a value),
an MMA reads its accumulator unless `useD` is the constant false.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (BFloat16Type, Float8E4M3FNType, Float8E5M2Type, Float16Type, Float32Type,
                                   IntegerAttr, IntegerType, TensorType, UnitAttr, i1, i32)
from xdsl.ir import Attribute
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def,
                       opt_operand_def, opt_prop_def, opt_result_def, prop_def, result_def, traits_def, var_operand_def)
from xdsl.traits import (EffectInstance, MemoryEffect, MemoryEffectKind, MemoryReadEffect, MemoryWriteEffect,
                         Pure)
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, op_info, register
from ttc.ir.printer import RESULT_NAMES
from ttc.ir.layouts import Layout, NVMMASharedEncoding, SharedMemorySpace
from ttc.ir.scaled import ELEM_TYPE_NAME, SCALE_DOT_ELEM_TYPE
from ttc.ir.tmem_attrs import TMEM_ENCODINGS, TensorMemoryEncoding, TensorMemoryScalesEncoding, TensorMemorySpace, _dims_text
from ttc.ir.types import AsyncTokenType, bitwidth, elt, encoding, shape_of
from ttc.ir.memdesc import MemDescType

# ----------------------------------------------------------------------------- helpers


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


def _text(t: Attribute) -> str:
    from ttc.ir.attr_printer import attr_text

    return attr_text(t)


def _num_ctas(op) -> int:
    from ttc.ir.layout_utils import module_int

    return module_int(op, "ttg.num-ctas", 1)


def check_barrier(op, t) -> None:
    """Triton's verifyBarrierType."""
    if not (isinstance(t, MemDescType) and isinstance(t.element_type, IntegerType) and t.element_type.width.data == 64
            and len(t.get_shape()) == 1 and t.get_shape()[0] <= _num_ctas(op)):
        _err(op, "barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs")


def max_registers(op) -> int:
    """Triton's getContextualMaxNReg: 256, or the module's `ttg.maxnreg` if lower."""
    from ttc.ir.layout_utils import module_int

    return min(256, module_int(op, "ttg.maxnreg", 256))


def layout_fits_tmem(op, t, memdesc) -> bool:
    """Triton's isDistributedLayoutTMemCompatible: whether tcgen05.ld/st can move tensor type `t` (in `op`'s
    register budget) to or from the TMEM buffer type `memdesc`."""
    from ttc.ir.tmem_layout import tmem_problem

    return tmem_problem(t, memdesc, max_registers(op)) is None


def _check_tmem_operand(op, t, memdesc, what: str) -> None:
    """Triton's verifyTMEMOperand: a 2D tensor whose layout (if any) tcgen05.ld/st can move."""
    if len(shape_of(t)) != 2:
        _err(op, f"{what} must be a 2D tensor")
    if encoding(t) is not None and not layout_fits_tmem(op, t, memdesc):
        _err(op, what)


def _check_memory_types(op, src, dst) -> None:
    """Triton's verifyMemoryOpTypes."""
    from ttc.ir.memdesc import MemDescType as M

    def shape(t):
        return t.get_shape() if isinstance(t, M) else shape_of(t)

    def element(t):
        return t.element_type if isinstance(t, M) else elt(t)

    if element(src) != element(dst):
        _err(op, f"source element type '{_text(src)}' must match destination element type '{_text(element(dst))}'")
    if tuple(shape(src)) != tuple(shape(dst)):
        _err(op, f"source shape [{_dims_text(shape(src))}] must match [destination shape {_dims_text(shape(dst))}]")


def _check_alloc(op, src, t: MemDescType) -> None:
    """Triton's verifyAllocOp."""
    if t.get_shape() != t.get_alloc_shape():
        _err(op, "result shape and its alloc shape must match")
    if src is None:
        if not t.mutable.data:
            _err(op, "uninitialized alloc must have a mutable memdesc type")
        return
    _check_memory_types(op, src.type, t)


def _is_const_false(v) -> bool:
    from ttc.ir.fold import constant_attr

    a = constant_attr(v)
    return isinstance(a, IntegerAttr) and a.value.data == 0


# ----------------------------------------------------------------------------- custom syntax pieces


def _build(op_type, operands: list[list], results: list[list], attrs: dict):
    """The op from one list of values per operand group and of types per result group."""
    info = op_info(op_type)
    props = {k: v for k, v in attrs.items() if k in info.properties}
    rest = {k: v for k, v in attrs.items() if k not in info.properties}
    return info.create(op_type, operands, results, props, rest)


def _parse_token(parser):
    """Triton's custom<Token>: `[%dep]`, `[]` (a token result without a dependency) or nothing.
    Returns (the dependency or None, whether the op gives a token)."""
    if not parser.parse_optional_punctuation("["):
        return None, False
    if parser.parse_optional_punctuation("]"):
        return None, True
    dep = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return dep, True


def _print_token(p, dep, token) -> str:
    if token is None:
        return ""
    return "[" + (p.value(dep) if dep is not None else "") + "]"


def _parse_barriers(parser):
    """Triton's custom<BarriersAndPreds>: (`,` %barrier `[` %pred `]`)*."""
    bars, preds = [], []
    while parser.parse_optional_punctuation(","):
        bars.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("[")
        preds.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("]")
    return bars, preds


def _print_barriers(p, bars, preds) -> str:
    return "".join(f", {p.value(b)}[{p.value(q)}]" for b, q in zip(bars, preds))


def _attrs(op, p) -> str:
    d = {**op.properties, **op.attributes}
    return p.attr_dict(d, {"operandSegmentSizes"})


def _type_list(parser) -> list:
    out = [parser.parse_type()]
    while parser.parse_optional_punctuation(","):
        out.append(parser.parse_type())
    return out


def _resolve(parser, units, types, what: str, start):
    if len(units) != len(types):
        parser.raise_error(f"{len(units)} {what} present, but expected {len(types)}", start)
    return [parser.resolve_operand(u, t) for u, t in zip(units, types)]


# ----------------------------------------------------------------------------- TMEM ops


class _AllocEffects(MemoryEffect):
    """TMEMAllocOp::getEffects: none for an immutable buffer until TMEM is allocated (it is then a value CSE and
    DCE may merge or drop); else an allocation, and a write when it has a source."""

    @classmethod
    def get_effects(cls, op):
        if not op.result.type.mutable.data and "tensor_memory_col_offset" not in op.attributes:
            return set()
        out = {EffectInstance(MemoryEffectKind.ALLOC, op.result)}
        if op.src is not None:
            out.add(EffectInstance(MemoryEffectKind.WRITE, op.result))
        return out


@irdl_op_definition
class TMEMAllocOp(IRDLOperation):
    name = "ttng.tmem_alloc"
    src = opt_operand_def(TensorType)
    result = result_def(MemDescType)
    token = opt_result_def(AsyncTokenType)
    traits = traits_def(_AllocEffects())

    def verify_(self):
        t = self.result.type
        if not isinstance(t.encoding, TMEM_ENCODINGS):
            _err(self, "should use tensor memory encoding")
        if self.src is not None:
            _check_tmem_operand(self, self.src.type, t, "source")
        _check_alloc(self, self.src, t)


register("ttng.tmem_alloc", "($src^)? attr-dict `:` functional-type(operands, results)")


@irdl_op_definition
class TMEMLoadOp(IRDLOperation):
    name = "ttng.tmem_load"
    src = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    token = opt_result_def(AsyncTokenType)
    traits = traits_def(MemoryReadEffect())

    def verify_(self):
        t = self.src.type
        if not isinstance(t.memory_space, TensorMemorySpace):
            _err(self, "source must be a tensor memory buffer.")
        if not isinstance(t.encoding, TensorMemoryEncoding):
            _err(self, "should use tensor memory encoding.")
        _check_tmem_operand(self, self.result.type, t, "result")
        _check_memory_types(self, t, self.result.type)


def _parse_tmem_load(op_type, parser):
    src = parser.parse_unresolved_operand()
    dep, tok = _parse_token(parser)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    src_t = parser.parse_type()
    parser.parse_punctuation("->")
    res_t = parser.parse_type()
    deps = [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else []
    return _build(op_type, [[parser.resolve_operand(src, src_t)], deps],
                  [[res_t], [AsyncTokenType()] if tok else []], attrs)


def _print_tmem_load(op, p) -> str:
    return (f" {p.value(op.src)}{_print_token(p, op.dep, op.token)}{_attrs(op, p)} : {p.type(op.src.type)} -> "
            f"{p.type(op.result.type)}")


register("ttng.tmem_load", Custom(_parse_tmem_load, _print_tmem_load))


@irdl_op_definition
class TMEMStoreOp(IRDLOperation):
    name = "ttng.tmem_store"
    dst = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    src = operand_def(TensorType)
    pred = operand_def(i1)
    token = opt_result_def(AsyncTokenType)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        t = self.dst.type
        if not isinstance(t.encoding, TMEM_ENCODINGS):
            _err(self, "should use tensor memory encoding.")
        if not t.mutable.data:
            _err(self, "Cannot store into an immutable alloc")
        _check_tmem_operand(self, self.src.type, t, "source")
        _check_memory_types(self, self.src.type, t)


def _parse_tmem_store(op_type, parser):
    src = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    dst = parser.parse_unresolved_operand()
    dep, tok = _parse_token(parser)
    parser.parse_punctuation(",")
    pred = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    src_t = parser.parse_type()
    parser.parse_punctuation("->")
    dst_t = parser.parse_type()
    deps = [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else []
    return _build(op_type, [[parser.resolve_operand(dst, dst_t)], deps, [parser.resolve_operand(src, src_t)],
                            [parser.resolve_operand(pred, i1)]], [[AsyncTokenType()] if tok else []], attrs)


def _print_tmem_store(op, p) -> str:
    return (f" {p.value(op.src)}, {p.value(op.dst)}{_print_token(p, op.dep, op.token)}, {p.value(op.pred)}"
            f"{_attrs(op, p)} : {p.type(op.src.type)} -> {p.type(op.dst.type)}")


register("ttng.tmem_store", Custom(_parse_tmem_store, _print_tmem_store))


@irdl_op_definition
class TMEMSubSliceOp(IRDLOperation):
    """A view of columns [N, N + width) of a 2D TMEM buffer."""

    name = "ttng.tmem_subslice"
    src = operand_def(MemDescType)
    N = prop_def(IntegerAttr)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        enc = self.src.type.encoding
        if not isinstance(enc, TensorMemoryEncoding):
            _err(self, "The source must be a tensor memory buffer.")
        if enc["blockM"] not in (64, 128):
            _err(self, "The source tensor memory descriptor must have a 128xN or 64xN layout, got "
                       f"block_m={enc['blockM']}")
        dst = self.result.type.encoding
        if not isinstance(dst, TensorMemoryEncoding):
            _err(self, "The destination must be a tensor memory buffer.")
        if any(dst[k] != enc[k] for k in ("blockM", "CTASplitM", "CTASplitN", "colStride")):
            _err(self, "The destination must have the same block size and CTASplit size as the source.")


register("ttng.tmem_subslice", "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))")


def _alignment(enc) -> int:
    """SharedEncodingTrait::getAlignment, as far as the 16-byte check needs it: at least 128 for nvmma_shared
    (128 * maxPhase), a shared_linear layout's own, 16 for the others."""
    if isinstance(enc, NVMMASharedEncoding):
        return 128
    return enc.get("alignment", 16) if isinstance(enc, Layout) else 16


@irdl_op_definition
class TMEMCopyOp(IRDLOperation):
    """tcgen05.cp: an asynchronous copy from shared memory into TMEM."""

    name = "ttng.tmem_copy"
    src = operand_def(MemDescType)
    dst = operand_def(MemDescType)
    barrier = opt_operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        src, dst = self.src.type, self.dst.type
        if not isinstance(src.memory_space, SharedMemorySpace):
            _err(self, "The source must be a shared memory buffer")
        if src.get_shape() != dst.get_shape():
            _err(self, f"source shape {_dims_text(src.get_shape())} must match destination shape "
                       f"{_dims_text(dst.get_shape())}")
        if self.barrier is not None and not isinstance(self.barrier.type.memory_space, SharedMemorySpace):
            _err(self, "The optional barrier should be a shared memory buffer")
        if not dst.mutable.data:
            _err(self, "Cannot copy into an immutable alloc")
        if _alignment(src.encoding) < 16:
            _err(self, "Source must have at least 16-byte alignment to be representable in a matrix descriptor.")
        if _num_ctas(self) != 1:
            _err(self, "NYI: Only one CTA is supported for now.")
        nvmma = src.encoding if isinstance(src.encoding, NVMMASharedEncoding) else None
        if nvmma is not None and (nvmma.get("transposed") or nvmma.get("fp4Padded")):
            _err(self, "The source should not be transposed or padded")
        if isinstance(dst.encoding, TensorMemoryScalesEncoding):
            if nvmma is not None and nvmma["swizzlingByteWidth"] != 0:
                _err(self, "The source should not be swizzled for now")
            return
        if not isinstance(dst.encoding, TensorMemoryEncoding):
            _err(self, "Incorrect tmem layout.")
        if dst.encoding["blockM"] != 128:
            _err(self, "Tmem layout must have blockM=128.")
        if nvmma is not None and nvmma["swizzlingByteWidth"] == 0:
            _err(self, "Source layout should be swizzled.")
        if bitwidth(src.element_type) != 32:
            _err(self, "Source element type should be 32-bit.")


register("ttng.tmem_copy", "$src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))")


# ----------------------------------------------------------------------------- tcgen05 MMA


class _MMAEffects(MemoryEffect):
    """TCGen5MMAOp::getEffects: the accumulator is read unless `useD` is the constant false, and written; A
    (shared or tensor memory), B (and the scaled op's scales) are read."""

    @classmethod
    def get_effects(cls, op):
        out = {EffectInstance(MemoryEffectKind.WRITE, op.d)}
        if not _is_const_false(op.useD):
            out.add(EffectInstance(MemoryEffectKind.READ, op.d))
        for v in (op.a, op.b) + ((op.a_scale, op.b_scale) if hasattr(op, "a_scale") else ()):
            out.add(EffectInstance(MemoryEffectKind.READ, v))
        return out


# tcgen05.mma's kinds: operand element type -> (kind, the accumulator types it takes)
def _mma_kind(t):
    if isinstance(t, Float32Type):
        return "tf32", ("f32",)
    if isinstance(t, Float16Type):
        return "f16", ("f16", "f32")
    if isinstance(t, BFloat16Type):
        return "f16", ("f32",)
    if isinstance(t, (Float8E4M3FNType, Float8E5M2Type)) or isinstance(t, IntegerType) and t.width.data == 8:
        return "f8f6f4", ("f16", "f32")
    return None


def _check_mma_types(op, a, b, d) -> None:
    """Triton's verifyMMADType."""
    ka, kb = _mma_kind(a), _mma_kind(b)
    if ka is None:
        _err(op, f"unsupported LHS operand dtype: '{_text(a)}'")
    if kb is None:
        _err(op, f"unsupported RHS operand dtype: '{_text(b)}'")
    if ka[0] != kb[0]:
        _err(op, f"LHS and RHS operand dtypes kinds don't match: LHS kind is {ka[0]} but RHS kind is {kb[0]}")
    dt = _text(d)
    if dt not in ka[1] or dt not in kb[1]:
        allowed = ", ".join(f"'{x}'" for x in ka[1])
        _err(op, f"unsupported accumulator dtype for operand types '{_text(a)}' and '{_text(b)}', accumulator "
                 f"dtype is '{dt}' but must be one of [{allowed}]")


def _cta_split(enc) -> tuple[int, ...]:
    """getCTASplitNum of an operand's layout: a TMEM encoding's CTASplitM/N, else how many CTAs its CGALayout
    spreads each dimension over."""
    if isinstance(enc, TensorMemoryEncoding):
        return enc["CTASplitM"], enc["CTASplitN"]
    cga = enc.get("CGALayout") if isinstance(enc, Layout) else None
    return tuple(2 ** sum(1 for b in cga if b[d]) for d in range(2)) if cga else (1, 1)


def _check_dot(op) -> None:
    """Triton's DotOpInterface verifier (ranks, K, the output shape; the scaled op counts packed e2m1 pairs twice
    along their packed dimension)."""
    a, b, d = op.a.type.get_shape(), op.b.type.get_shape(), op.d.type.get_shape()
    if len(a) not in (2, 3):
        _err(op, "expected operands to be 2d or 3d")
    if not len(a) == len(b) == len(d):
        _err(op, "expected all operands to have the same rank")
    am, ak, bk, bn = a[-2], a[-1], b[len(a) - 2], b[-1]
    if isinstance(op, TCGen5MMAScaledOp):
        a_enc, b_enc = op.a.type.encoding, op.b.type.encoding
        trans_a = isinstance(a_enc, NVMMASharedEncoding) and bool(a_enc.get("transposed"))
        trans_b = isinstance(b_enc, NVMMASharedEncoding) and not b_enc.get("transposed")
        if ELEM_TYPE_NAME.get(op.a_type.value.data) == "e2m1":
            am, ak = (am * 2, ak) if trans_a else (am, ak * 2)
        if ELEM_TYPE_NAME.get(op.b_type.value.data) == "e2m1":
            bk, bn = (bk, bn * 2) if trans_b else (bk * 2, bn)
    if ak != bk:
        _err(op, "expected the last dimension of the first operand to be equal to the second-to-last dimension of "
                 "the second operand")
    if len(a) == 3 and (a[0] != d[0] or b[0] != d[0]):
        _err(op, "expected the first dimension of the first operand to be equal to the first dimension of the result")
    if d[-2] != am or d[-1] != bn:
        _err(op, "expected the output shape to be the concatenation of the last dimension of the first operand and "
                 "the last dimension of the second ")


def _check_mmav5(op) -> None:
    """MMAv5OpInterface's verifier: blockM = 64 TMEM layouts with interleaved blocks on both A and D."""
    from ttc.ir.tmem_layout import tmem_alloc_rows_cols

    def interleaved(t):
        return (isinstance(t.encoding, TensorMemoryEncoding) and t.encoding["blockM"] == 64
                and tmem_alloc_rows_cols(t)[0] != 64)

    if interleaved(op.a.type) and interleaved(op.d.type):
        _err(op, "does not support blockM=64 with interleaved blocks in TMEM layout")


@irdl_op_definition
class TCGen5MMAOp(IRDLOperation):
    """`d += a @ b` on the fifth-generation tensor core (tcgen05.mma): a in shared or tensor memory, b in shared
    memory, d in tensor memory; asynchronous with `is_async`, arriving on `barriers` (each when its predicate
    holds)."""

    name = "ttng.tc_gen5_mma"
    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    useD = operand_def(i1)
    pred = operand_def(i1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(i1)
    is_async = opt_prop_def(UnitAttr)
    two_ctas = opt_prop_def(UnitAttr)
    token = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_MMAEffects())

    def verify_(self):
        _check_dot(self)
        _check_mmav5(self)
        if self.is_async is None and self.barriers:
            _err(self, "The op is synchronous but a barrier is present.")
        a, b, d = self.a.type, self.b.type, self.d.type
        _check_mma_types(self, a.element_type, b.element_type, d.element_type)
        if not isinstance(a.encoding, (NVMMASharedEncoding, TensorMemoryEncoding)) \
                and a.encoding.name != "ttg.shared_linear":
            _err(self, "LHS operand must have a NVMMAShared or TensorMemory encoding")
        if not isinstance(b.encoding, NVMMASharedEncoding) and b.encoding.name != "ttg.shared_linear":
            _err(self, "RHS operand must have a NVMMAShared encoding")
        ret = d.encoding
        if not isinstance(ret, TensorMemoryEncoding):
            _err(self, "Return operand must have a TensorMemory encoding")
        if isinstance(a.encoding, TensorMemoryEncoding) and a.encoding["colStride"] != 1:
            _err(self, "The col stride of the LHS operand must be 1")
        bits = bitwidth(d.element_type)
        if ret["colStride"] != 32 // bits:
            _err(self, f"The col stride of the return operand must be 32 / {bits} but got {ret['colStride']}")
        if ret["blockN"] > 256:
            _err(self, "The block size of the return operand must be less than or equal to 256")
        a_split, b_split = _cta_split(a.encoding), _cta_split(b.encoding)
        if a_split[1] != 1:
            _err(self, f"LHS CTASplit along K should be 1, but got {a_split[1]}")
        if b_split[0] != 1:
            _err(self, f"RHS CTASplit along K should be 1, but got {b_split[0]}")
        if self.two_ctas is None:
            return
        ret_m, ret_n = _cta_split(ret)
        if d.get_shape()[1] // ret_n > 256:
            _err(self, "We don't allow to emit more than one mma instruction along N. Reduce the block or increase "
                       "the number of warps or CTAs along N")
        if a_split[0] != ret_m:
            _err(self, "twoCTA mode expects the LHS split along M to match the result split along M. Expected "
                       f"{ret_m} but got {a_split[0]}")
        if b_split[1] != 2 * ret_n:
            _err(self, "twoCTA mode expects the RHS split along N to be twice the result split along N. Expected "
                       f"{2 * ret_n} but got {b_split[1]}")
        if not ret["twoCTAs"]:
            _err(self, "The returned value's encoding must have twoCTA=true to be used in a twoCTA matmul")
        if isinstance(a.encoding, TensorMemoryEncoding) and not a.encoding["twoCTAs"]:
            _err(self, "The LHS operand's encoding must have twoCTA=true to be used in a twoCTA matmul")


def _parse_mma(op_type, parser):
    start = parser.pos
    scaled = op_type is TCGen5MMAScaledOp
    a = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    b = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    d = parser.parse_unresolved_operand()
    dep, tok = _parse_token(parser)
    scales = []
    for _ in range(2 if scaled else 0):
        parser.parse_punctuation(",")
        scales.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(",")
    use_d = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    pred = parser.parse_unresolved_operand()
    kinds = {}
    for side, key in (("lhs", "a_type"), ("rhs", "b_type")) if scaled else ():
        parser.parse_keyword(side)
        parser.parse_punctuation("=")
        word = parser.parse_keyword_in(list(SCALE_DOT_ELEM_TYPE), f" for '{key}'")
        kinds[key] = IntegerAttr(SCALE_DOT_ELEM_TYPE[word], i32)
    bars, preds = _parse_barriers(parser)
    attrs = {**parser.parse_optional_attr_dict(), **kinds}
    parser.parse_punctuation(":")
    types = _type_list(parser)
    n = 5 if scaled else 3
    mem = _resolve(parser, [a, b, d] + scales, types[:n], "operands", start)
    bar_vals = _resolve(parser, bars, types[n:], "barrier types", start)
    deps = [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else []
    flags = [[parser.resolve_operand(use_d, i1)], [parser.resolve_operand(pred, i1)]]
    groups = [[v] for v in mem[:3]] + [deps] + [[v] for v in mem[3:]] + flags + \
        [bar_vals, [parser.resolve_operand(q, i1) for q in preds]]
    return _build(op_type, groups, [[AsyncTokenType()] if tok else []], attrs)


def _print_mma(op, p) -> str:
    scaled = isinstance(op, TCGen5MMAScaledOp)
    text = f" {p.value(op.a)}, {p.value(op.b)}, {p.value(op.d)}{_print_token(p, op.acc_dep, op.token)}"
    mem = [op.a, op.b, op.d]
    if scaled:
        text += f", {p.value(op.a_scale)}, {p.value(op.b_scale)}"
        mem += [op.a_scale, op.b_scale]
    text += f", {p.value(op.useD)}, {p.value(op.pred)}"
    if scaled:
        text += f" lhs = {ELEM_TYPE_NAME[op.a_type.value.data]} rhs = {ELEM_TYPE_NAME[op.b_type.value.data]}"
    text += _print_barriers(p, op.barriers, op.barrier_preds)
    d = {k: v for k, v in {**op.properties, **op.attributes}.items() if k not in ("a_type", "b_type")}
    text += p.attr_dict(d, {"operandSegmentSizes"}) + " : "
    return text + ", ".join(p.type(v.type) for v in mem + list(op.barriers))


register("ttng.tc_gen5_mma", Custom(_parse_mma, _print_mma))


@irdl_op_definition
class TCGen5MMAScaledOp(IRDLOperation):
    """`d += scale(a, a_scale) @ scale(b, b_scale)` (tcgen05.mma with block scales in tensor memory)."""

    name = "ttng.tc_gen5_mma_scaled"
    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    a_scale = operand_def(MemDescType)
    b_scale = operand_def(MemDescType)
    a_type = prop_def(IntegerAttr)
    b_type = prop_def(IntegerAttr)
    useD = operand_def(i1)
    pred = operand_def(i1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(i1)
    is_async = opt_prop_def(UnitAttr)
    token = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_MMAEffects())

    def verify_(self):
        _check_dot(self)
        _check_mmav5(self)
        _check_mma_types(self, self.a.type.element_type, self.b.type.element_type, self.d.type.element_type)
        enc = self.d.type.encoding
        if not isinstance(enc, TensorMemoryEncoding):
            _err(self, "expected accumulator layout to be a TensorMemoryLayout")
        if enc["blockM"] != 128:
            _err(self, "only supports instruction shape blockM=128")


register("ttng.tc_gen5_mma_scaled", Custom(_parse_mma, _print_mma))


@irdl_op_definition
class TCGen5CommitOp(IRDLOperation):
    """Make an mbarrier track the completion of all earlier asynchronous tcgen05 ops (tcgen05.commit)."""

    name = "ttng.tc_gen5_commit"
    barrier = operand_def(MemDescType)
    pred = opt_operand_def(i1)
    two_ctas = opt_prop_def(UnitAttr)
    traits = traits_def(MemoryWriteEffect())


register("ttng.tc_gen5_commit", "$barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))",
         infer={"pred": lambda T: i1})


# ----------------------------------------------------------------------------- barriers and clusters


@irdl_op_definition
class ArriveBarrierOp(IRDLOperation):
    name = "ttng.arrive_barrier"
    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr)
    pred = opt_operand_def(i1)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.alloc.type)
        if self.count.value.data < 1:
            _err(self, "count must be greater than or equal to 1")


register("ttng.arrive_barrier", "$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))",
         infer={"__int__count": i32, "pred": lambda T: i1})


@irdl_op_definition
class AsyncCopyMbarrierArriveOp(IRDLOperation):
    """Arrive on an mbarrier once all earlier `cp.async` copies of the thread are complete."""

    name = "ttng.async_copy_mbarrier_arrive"
    barrier = operand_def(MemDescType)
    noIncrement = opt_prop_def(UnitAttr)
    traits = traits_def(MemoryWriteEffect())


register("ttng.async_copy_mbarrier_arrive", "$barrier attr-dict `:` qualified(type($barrier))")


@irdl_op_definition
class ClusterArriveOp(IRDLOperation):
    name = "ttng.cluster_arrive"
    relaxed = prop_def(IntegerAttr)  # no effect trait: unknown effects, as Triton's


@irdl_op_definition
class ClusterWaitOp(IRDLOperation):
    name = "ttng.cluster_wait"


register("ttng.cluster_arrive", "attr-dict")
register("ttng.cluster_wait", "attr-dict")


# ----------------------------------------------------------------------------- ttg.memdesc_reinterpret


@irdl_op_definition
class MemDescReinterpretOp(IRDLOperation):
    """A view of a (contiguous) buffer with another shape and element type; folds away when the types agree."""

    name = "ttg.memdesc_reinterpret"
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())


register("ttg.memdesc_reinterpret", "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))")

# MLIR names the results of ops with several ODS results after them (`%result, %token = ttng.tmem_alloc`)
RESULT_NAMES.update({n: lambda op: ["result", "token"][:len(op.results)] for n in ("ttng.tmem_alloc", "ttng.tmem_load")})

TMEM_ATTRS = [TensorMemorySpace, TensorMemoryEncoding, TensorMemoryScalesEncoding]
TMEM_TTNG_OPS = [
    TMEMAllocOp, TMEMLoadOp, TMEMStoreOp, TMEMSubSliceOp, TMEMCopyOp, TCGen5MMAOp, TCGen5MMAScaledOp,
    TCGen5CommitOp, ArriveBarrierOp, AsyncCopyMbarrierArriveOp, ClusterArriveOp, ClusterWaitOp,
]
TMEM_TTG_OPS = [MemDescReinterpretOp]
UNLOWERED = frozenset(op.name for op in TMEM_TTNG_OPS + TMEM_TTG_OPS)  # the LLVM lowering takes none of them yet
