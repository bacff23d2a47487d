"""The `tt` (Triton) dialect: ops with Triton's syntax, traits and verifiers.

Syntax is given as Triton's TableGen `assemblyFormat` strings (see `ttc.ir.format`); enums are stored as
i32 integer attributes, as Triton does, and spelled as keywords in the custom form.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    CallableOpInterface,
    ConditionallySpeculatable,
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, register, same_as
from ttc.ir.verify_errors import LocatedVerifyException
from ttc.ir.dot_interface import verify_dot_interface
from ttc.ir.scaled import DotScaledOp
from ttc.ir.types import (
    PointerType,
    elt,
    encoding,
    i1_like,
    is_float,
    is_int,
    is_ptr,
    is_tensor,
    like,
    pointee_like,
    shape_of,
)

# Triton's enums (TritonAttrDefs.td), keyword -> stored i32 value: ttc.ir.enums, named here as the ops use them.
from ttc.ir.enums import (  # noqa: E402,F401
    CACHE, EVICT, INPUT_PRECISION, PADDING, PROGRAM_DIM, PROPAGATE_NAN, RMW, ROUNDING, SCOPE, SEM,
)


class LoadEffects(MemoryEffect):
    """tt.load reads memory; a volatile load also writes (it must be neither merged nor removed), as in
    Triton's LoadOp::getEffects."""

    @classmethod
    def get_effects(cls, op):
        effects = {EffectInstance(MemoryEffectKind.READ)}
        volatile = op.properties.get("isVolatile")
        if volatile is not None and volatile.value.data:
            effects.add(EffectInstance(MemoryEffectKind.WRITE))
        return effects


class PureIfMarked(MemoryEffect):
    """Ops with a `pure` flag (extern_elementwise, elementwise_inline_asm): no effects when pure, else
    reads and writes."""

    @classmethod
    def get_effects(cls, op):
        pure = op.properties.get("pure")
        if pure is not None and pure.value.data:
            return set()
        return {EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)}


class SpeculatableIfPure(ConditionallySpeculatable):
    @classmethod
    def is_speculatable(cls, op) -> bool:
        pure = op.properties.get("pure")
        return pure is not None and bool(pure.value.data)


def _i32(v: int) -> IntegerAttr:
    return IntegerAttr(v, i32)


def _err(op, msg: str):
    """MLIR's emitOpError: the message after "'name' op"."""
    raise VerifyException(f"'{op.name}' op {msg}")


def _emit(*messages: str):
    """MLIR's emitError at the op: each message as it is (several: several diagnostics)."""
    from ttc.ir.verify_errors import OpDiagnostics

    raise OpDiagnostics(*messages)


def _q(t) -> str:
    """A type as MLIR streams it into a diagnostic: quoted, in full (no aliases)."""
    from ttc.ir.attr_printer import attr_text

    return f"'{attr_text(t)}'"


def _dims(shape) -> str:
    return ", ".join(map(str, shape))


def _traits(op, *names: str):
    """MLIR's (and Triton's) shape, element type and encoding traits, checked in the order given, with their
    messages: `same_shape`, `same_operands_shape`, `same_element_type`, `same_type_operands`, `same_type`,
    `same_encoding`, `same_operands_encoding`."""
    ins = [v.type for v in op.operands]
    both = ins + [r.type for r in op.results]
    for name in names:
        if name == "same_shape" and not _compatible_shapes(both):
            _err(op, "requires the same shape for all operands and results")
        if name == "same_operands_shape" and not _compatible_shapes(ins):
            _err(op, "requires the same shape for all operands")
        if name == "same_element_type" and len({elt(t) for t in both}) > 1:
            _err(op, "requires the same element type for all operands and results")
        if name == "same_type_operands" and len(set(ins)) > 1:
            _err(op, "requires all operands to have the same type")
        if name == "same_type" and len(set(both)) > 1:
            _err(op, "requires the same type for all operands and results")
        if name == "same_operands_encoding" and not _same_encodings(ins[:1], ins[1:]):
            _err(op, "requires the same encoding for all operands")
        if name == "same_encoding" and not (_same_encodings(ins[:1], both[len(ins):]) and _same_encodings(ins[:1], ins[1:])):
            _err(op, "requires the same encoding for all operands and results" if op.results
                 else "requires the same encoding for all operands")


def _compatible_shapes(types) -> bool:
    return len({shape_of(t) if is_tensor(t) else None for t in types}) <= 1


def _same_encodings(first, others) -> bool:
    """Triton's verifySameEncoding: tensors with layouts must agree; a type without one agrees with anything."""
    if not first or encoding(first[0]) is None:
        return True
    return all(encoding(t) is None or encoding(t) == encoding(first[0]) for t in others)


def _ptr_same_shape(t):
    """Triton's getPointerTypeSameShape: `!tt.ptr<elt(t)>` (global), a tensor of them for a tensor."""
    return like(t, PointerType(elt(t)))


def _layouts_equivalent(shape, a, b) -> bool:
    """Triton's areLayoutsEquivalent: the same layout, or layouts whose linear layouts for `shape` agree."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    from ttc.ir.linear_layout import UnsupportedLayout, layout_for

    try:
        la, lb = layout_for(tuple(shape), a), layout_for(tuple(shape), b)
    except (UnsupportedLayout, KeyError, ValueError, ZeroDivisionError, IndexError):
        return False
    return (la.reg, la.lane, la.warp) == (lb.reg, lb.lane, lb.warp)


def _equivalent_types(a, b) -> bool:
    """Triton's verifyEquivalentType for tensors: same shape and element type, equivalent layouts."""
    if not (is_tensor(a) and is_tensor(b)):
        return a == b
    return (shape_of(a) == shape_of(b) and elt(a) == elt(b)
            and _layouts_equivalent(shape_of(a), encoding(a), encoding(b)))


def _check_inferred(op, inferred, compatible=None):
    """MLIR's verifyInferredResultTypes (at the end of the op's verification): the result types the op infers
    (a list, or the messages of its failure) against its own, exact unless `compatible` says otherwise."""
    failed = f"'{op.name}' op failed to infer returned types"
    if isinstance(inferred, str):
        _emit(inferred, failed)
    have = [r.type for r in op.results]
    same = compatible or (lambda x, y: x == y)
    if len(inferred) != len(have) or not all(same(x, y) for x, y in zip(inferred, have)):
        _emit(f"'{op.name}' op inferred type(s) {', '.join(map(_q, inferred))} are incompatible with return "
              f"type(s) of operation {', '.join(map(_q, have))}", failed)


# ----------------------------------------------------------------------------- functions


class FuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op):
        return op.body

    @classmethod
    def get_argument_types(cls, op):
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op):
        return op.function_type.outputs.data


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`tt.func`: a kernel or device function."""

    name = "tt.func"
    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), FuncCallable())

    def verify_(self):
        """MLIR's FunctionOpInterface check of the entry block against the signature."""
        ft = self.function_type
        if self.body.blocks:
            args, want = self.body.blocks.first.args, ft.inputs.data
            if len(args) != len(want):
                _err(self, f"entry block must have {len(want)} arguments to match function signature")
            for i, (a, t) in enumerate(zip(args, want)):
                if a.type != t:
                    _err(self, f"type of entry block argument #{i}({_q(a.type)[1:-1]}) must match the type of the "
                               f"corresponding argument in function signature({_q(t)[1:-1]})")

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks


def _parse_func(op_type, parser):
    from xdsl.dialects.utils import parse_func_op_like

    visibility = parser.parse_optional_visibility_keyword()
    reserved = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
    name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
        parser, reserved_attr_names=reserved
    )
    props = {"sym_name": StringAttr(name), "function_type": FunctionType.from_lists(inputs, outputs)}
    if visibility is not None:
        props["sym_visibility"] = visibility
    if arg_attrs is not None:
        props["arg_attrs"] = arg_attrs
    if res_attrs is not None:
        props["res_attrs"] = res_attrs
    return op_type.create(
        properties=props,
        attributes=dict(extra.data) if extra is not None else {},
        regions=[region if region is not None else Region()],
    )


def _print_func(op, p) -> str:
    out = []
    if op.sym_visibility is not None:
        out.append(" " + op.sym_visibility.data)
    out.append(" " + p.symbol(op.sym_name))
    ft = op.function_type
    arg_attrs = op.arg_attrs.data if op.arg_attrs is not None else [None] * len(ft.inputs.data)
    args = []
    entry = op.body.blocks.first
    for i, t in enumerate(ft.inputs.data):
        text = (p.value(entry.args[i]) + ": " if entry else "") + p.type(t)
        a = arg_attrs[i]
        if a is not None and a.data:
            text += p.attr_dict(dict(a.data), set())
        if entry is not None:
            text += p.trailing_loc(entry.args[i].location, inline=True)
        args.append(text)
    out.append("(" + ", ".join(args) + ")")
    outs = ft.outputs.data
    if outs:
        res_attrs = op.res_attrs.data if op.res_attrs is not None else [None] * len(outs)
        items = [p.type(t) + (p.attr_dict(dict(a.data), set()) if a is not None and a.data else "") for t, a in zip(outs, res_attrs)]
        if len(outs) == 1 and not (res_attrs[0] is not None and res_attrs[0].data) and not isinstance(outs[0], FunctionType):
            out.append(" -> " + items[0])
        else:
            out.append(" -> (" + ", ".join(items) + ")")
    extra = dict(op.attributes)
    if extra:
        out.append(" attributes" + p.attr_dict(extra, set()))
    if entry is not None:
        out.append(" " + p.region(op.body, entry_args=False))
    return "".join(out)


register("tt.func", Custom(_parse_func, _print_func))


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "tt.return"
    srcs = var_operand_def()
    traits = traits_def(IsTerminator(), ReturnLike(), Pure(), HasParent(FuncOp))

    def verify_(self):
        func = self.parent_op()
        if isinstance(func, FuncOp):
            want, name = tuple(func.function_type.outputs.data), func.sym_name.data
            if len(self.srcs) != len(want):
                _err(self, f"has {len(self.srcs)} operands, but enclosing function (@{name}) returns {len(want)}")
            for i, (v, t) in enumerate(zip(self.srcs, want)):
                if v.type != t:
                    _emit(f"type of return operand {i} ({_q(v.type)}) doesn't match function result type ({_q(t)}) "
                          f"in function @{name}")


register("tt.return", "attr-dict ($srcs^ `:` type($srcs))?")


@irdl_op_definition
class CallOp(IRDLOperation):
    name = "tt.call"
    callee = prop_def(SymbolRefAttr)
    operands_ = var_operand_def()
    results_ = var_result_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])


register("tt.call", "$callee `(` $operands_ `)` attr-dict `:` functional-type($operands_, results)")


# ----------------------------------------------------------------------------- program ids, ranges


@irdl_op_definition
class GetProgramIdOp(IRDLOperation):
    name = "tt.get_program_id"
    axis = prop_def(IntegerAttr)
    result = result_def(i32)
    traits = traits_def(Pure())


@irdl_op_definition
class GetNumProgramsOp(IRDLOperation):
    name = "tt.get_num_programs"
    axis = prop_def(IntegerAttr)
    result = result_def(i32)
    traits = traits_def(Pure())


for _n in ("tt.get_program_id", "tt.get_num_programs"):
    register(_n, "$axis attr-dict `:` type($result)", enums={"axis": PROGRAM_DIM})


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    name = "tt.make_range"
    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        s, e = self.start.value.data, self.end.value.data
        t = self.result.type
        if not is_int(t):
            _err(self, f"result #0 must be ranked tensor of integer values, but got {_q(t)}")
        if s >= e:
            _err(self, "start must be less than end")
        if len(shape_of(t)) != 1:
            _err(self, "return type must be a 1D tensor")
        if shape_of(t)[0] != e - s:
            _err(self, f"number of elements in returned tensor, {shape_of(t)[0]}, must match size of range [{s}, {e}), "
                       f"which has {e - s} elements")
        if elt(t) != i32:
            _err(self, "returned tensor must have i32 elements")


register("tt.make_range", "attr-dict `:` type($result)")


# ----------------------------------------------------------------------------- shape ops


class _ShapeOp(IRDLOperation):
    traits = traits_def(Pure())


@irdl_op_definition
class SplatOp(_ShapeOp):
    name = "tt.splat"
    src = operand_def()
    result = result_def(TensorType)

    def verify_(self):  # a 0-d tensor operand is taken, as in Triton
        _traits(self, "same_element_type", "same_encoding")


@irdl_op_definition
class BroadcastOp(_ShapeOp):
    name = "tt.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self):
        _traits(self, "same_element_type", "same_encoding")
        a, b = shape_of(self.src.type), shape_of(self.result.type)
        if len(a) != len(b):
            _emit("rank of source must be same as rank of result")
        for i, (x, y) in enumerate(zip(a, b)):
            if x != 1 and x != y:
                _emit(f"Different dimensions at index {i} between source and result.  Broadcast requires the source "
                      "dimension to be 1.")


@irdl_op_definition
class ExpandDimsOp(_ShapeOp):
    name = "tt.expand_dims"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)

    def verify_(self):
        _traits(self, "same_element_type")

    def verify_regions_(self):
        """The result type Triton infers: a 1 inserted at `axis`, the layout the operand's slice layout's parent."""
        from ttc.ir.types import tensor

        shape, ax, enc = list(shape_of(self.src.type)), self.axis.value.data, encoding(self.src.type)
        if not 0 <= ax <= len(shape):
            _emit(f"'tt.expand_dims' op axis {ax} is out of range for a rank-{len(shape)} operand",
                  "'tt.expand_dims' op failed to infer returned types")
        shape.insert(ax, 1)
        if enc is not None:
            from ttc.ir.layouts import SliceEncoding  # here: TTIR carries no layout (5.7 M instructions to import)

            if not isinstance(enc, SliceEncoding):
                problem = "ExpandDimsOp operand encoding must be SliceEncodingAttr"
            elif enc["dim"] != ax:
                problem = "Incompatible slice dimension for ExpandDimsOp operand"
            else:
                problem, enc = None, enc["parent"]
            if problem:
                _emit(problem, "failed to infer layout for ExpandDimsOp", "'tt.expand_dims' op failed to infer returned types")
        _check_inferred(self, [tensor(shape, elt(self.src.type), enc)])


@irdl_op_definition
class ReshapeOp(_ShapeOp):
    name = "tt.reshape"
    src = operand_def(TensorType)
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    def verify_(self):
        import math

        _traits(self, "same_element_type")
        src, dst = self.src.type, self.result.type
        if math.prod(shape_of(src)) != math.prod(shape_of(dst)):
            _emit("number of src and dst elements of reshape must be the same")
        if (encoding(src) is None) != (encoding(dst) is None):
            _emit("Op requires that either (a) src and dst both have encodings, or (b) neither does.")
        if encoding(src) is None or self.allow_reorder is not None:
            return
        from ttc.ir.attr_printer import attr_text
        from ttc.ir.reshape_layout import infer_reshape_encoding  # after the return: TTIR carries no layout

        want = infer_reshape_encoding(shape_of(src), encoding(src), shape_of(dst))
        if want is not None and not _layouts_equivalent(shape_of(dst), want, encoding(dst)):
            _emit(f"Expected result encoding {attr_text(want)} but was {attr_text(encoding(dst))}")


@irdl_op_definition
class TransOp(_ShapeOp):
    name = "tt.trans"
    src = operand_def(TensorType)
    order = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    def verify_(self):
        order = list(self.order.get_values())
        a = shape_of(self.src.type)
        if len(order) != len(a):  # Triton's TransposeOpInterface
            _emit("order must have the same size as the rank of the operand and result")
        if sorted(order) != list(range(len(order))):
            _emit("order must be a permutation of [0, ..., rank - 1]")
        _traits(self, "same_element_type")
        if tuple(a[i] for i in order) != shape_of(self.result.type):
            _emit("result shape must match the permutation of the source shape")

    def verify_regions_(self):
        from ttc.ir.types import tensor

        order = list(self.order.get_values())
        enc = trans_layout(encoding(self.src.type), order, shape_of(self.src.type))
        if enc is False:
            return  # a layout whose transpose is not known here: Triton's check is not made
        shape = [shape_of(self.src.type)[i] for i in order]
        _check_inferred(self, [tensor(shape, elt(self.src.type), enc)], _equivalent_types)


def trans_layout(enc, order, shape):
    """Triton's inferTransOpEncoding for the layouts ttc knows (False for others): blocked and swizzled shared
    layouts permuted field by field, nvmma_shared transposed by [1, 0], others through their linear layout."""
    if enc is None or order == sorted(order):
        return enc
    from ttc.ir.layout_utils import trans_encoding  # after the return: TTIR carries no layout
    from ttc.ir.layouts import BlockedEncoding, NVMMASharedEncoding, SwizzledSharedEncoding

    inv = [order.index(i) for i in range(len(order))]
    cga = tuple(tuple(b[o] for o in order) for b in enc.get("CGALayout", ())) if hasattr(enc, "get") else ()
    if isinstance(enc, BlockedEncoding):
        return BlockedEncoding.make(**{k: [enc[k][o] for o in order] for k in ("sizePerThread", "threadsPerWarp",
                                                                              "warpsPerCTA")},
                                    order=[inv[o] for o in enc["order"]], CGALayout=cga or None)
    if isinstance(enc, SwizzledSharedEncoding):
        return SwizzledSharedEncoding.make(vec=enc["vec"], perPhase=enc["perPhase"], maxPhase=enc["maxPhase"],
                                           order=[inv[o] for o in enc["order"]], CGALayout=cga or None)
    if isinstance(enc, NVMMASharedEncoding) and order == [1, 0]:
        return NVMMASharedEncoding.make(**{**dict(enc.data), "transposed": not enc["transposed"], "CGALayout": cga or None})
    return trans_encoding(enc, order, shape) or False


@irdl_op_definition
class CatOp(_ShapeOp):
    name = "tt.cat"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self):
        _traits(self, "same_type_operands", "same_element_type")


@irdl_op_definition
class JoinOp(_ShapeOp):
    name = "tt.join"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self):
        _traits(self, "same_type_operands")
        src, res = self.lhs.type, self.result.type
        want = shape_of(src) + (2,)
        if shape_of(res) != want:
            _err(self, f"result shape must be ({_dims(want)}), but got {_dims(shape_of(res))}")
        if elt(res) != elt(src):
            _err(self, "result element type must match the input element type")
        if encoding(res) is None:
            if encoding(src) is not None:
                _err(self, "result encoding must be specified")
            return
        inferred = split_layout(encoding(res), want)
        if isinstance(inferred, str):
            _emit(inferred)
        if inferred is not None and not _layouts_equivalent(shape_of(src), inferred, encoding(src)):
            _err(self, "incompatible join layout")


@irdl_op_definition
class SplitOp(_ShapeOp):
    name = "tt.split"
    src = operand_def(TensorType)
    outLHS = result_def(TensorType)
    outRHS = result_def(TensorType)

    def verify_(self):
        if self.outLHS.type != self.outRHS.type:
            _err(self, "failed to verify that outLHS and outRHS types match")

    def verify_regions_(self):
        from ttc.ir.types import tensor

        shape = shape_of(self.src.type)
        if not shape or shape[-1] != 2:
            _emit("last dimension of input tensor must be 2", "'tt.split' op failed to infer returned types")
        enc = encoding(self.src.type)
        if enc is not None:
            enc = split_layout(enc, shape)
            if isinstance(enc, str):
                _emit(enc, "'tt.split' op failed to infer returned types")
            if enc is None:
                return  # a layout whose split is not known here: Triton's check is not made
        t = tensor(shape[:-1], elt(self.src.type), enc)
        _check_inferred(self, [t, t], _equivalent_types)


def split_layout(enc, shape):
    """Triton's inferSplitOpEncoding: a blocked layout with 2 elements of the last dimension in each thread loses
    that dimension; others through ttc's linear-layout transfer (None when unknown, a message when impossible)."""
    from ttc.ir.layout_utils import split_encoding
    from ttc.ir.layouts import BlockedEncoding

    if (isinstance(enc, BlockedEncoding) and enc["sizePerThread"][-1] == 2 and enc["threadsPerWarp"][-1] == 1
            and enc["warpsPerCTA"][-1] == 1 and not any(b[-1] for b in enc.get("CGALayout", ()))):
        rank = len(enc["order"])
        return BlockedEncoding.make(**{k: enc[k][:-1] for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA")},
                                    order=[o for o in enc["order"] if o != rank - 1],
                                    CGALayout=tuple(b[:-1] for b in enc.get("CGALayout", ())) or None)
    if not shape or shape[-1] != 2:
        return "SplitOp input shape should have 2 in the last dim"
    return split_encoding(enc, shape)


register("tt.splat", "$src attr-dict `:` type($src) `->` type($result)")
register("tt.broadcast", "$src attr-dict `:` type($src) `->` type($result)")
register("tt.expand_dims", "$src attr-dict `:` type($src) `->` type($result)")
register(
    "tt.reshape",
    "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` type($src) `->` type($result)",
)
register("tt.trans", "$src attr-dict `:` type($src) `->` type($result)")
register("tt.cat", "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", infer={"rhs": same_as("lhs")})
register("tt.join", "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", infer={"rhs": same_as("lhs")})
register("tt.split", "$src attr-dict `:` type($src) `->` type($outLHS)", infer={"outRHS": same_as("outLHS")})


# ----------------------------------------------------------------------------- pointers and memory


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    name = "tt.addptr"
    ptr = operand_def()
    offset = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if not is_ptr(self.ptr.type):
            _err(self, f"operand #0 must be ptr or ranked tensor of ptr values, but got {_q(self.ptr.type)}")
        if not is_int(self.offset.type):
            _err(self, f"operand #1 must be integer or ranked tensor of integer values, but got {_q(self.offset.type)}")
        if self.result.type != self.ptr.type:
            _err(self, "failed to verify that result type matches ptr type")
        _traits(self, "same_shape", "same_encoding")


register("tt.addptr", "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)", infer={"ptr": same_as("result")})


@irdl_op_definition
class LoadOp(IRDLOperation):
    name = "tt.load"
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(IntegerAttr)
    cache = prop_def(IntegerAttr, default_value=_i32(1))
    evict = prop_def(IntegerAttr, default_value=_i32(1))
    isVolatile = prop_def(BoolAttr, default_value=BoolAttr(False, i1))
    result = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(LoadEffects())

    def verify_(self):
        if not is_ptr(self.ptr.type):
            _err(self, f"operand #0 must be ptr or ranked tensor of ptr values or ptr, but got {_q(self.ptr.type)}")
        if pointee_like(self.ptr.type) != self.result.type:
            _err(self, "failed to verify that result matches ptr type")
        if self.mask is not None and self.mask.type != i1_like(pointee_like(self.ptr.type)):
            _err(self, "failed to verify that mask type matches ptr type")
        if self.other is not None and self.other.type != pointee_like(self.ptr.type):
            _err(self, "failed to verify that other matches ptr type")


register(
    "tt.load",
    "$ptr (`,` $mask^)? (`,` $other^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
    "attr-dict `:` type($ptr)",
    infer={"mask": lambda T: i1_like(T["ptr"]), "other": lambda T: pointee_like(T["ptr"]), "result": lambda T: pointee_like(T["ptr"])},
    enums={"cache": CACHE, "evict": EVICT},
)


@irdl_op_definition
class StoreOp(IRDLOperation):
    name = "tt.store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    cache = prop_def(IntegerAttr, default_value=_i32(1))
    evict = prop_def(IntegerAttr, default_value=_i32(1))
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        if not is_ptr(self.ptr.type):
            _err(self, f"operand #0 must be ptr or ranked tensor of ptr values or ptr, but got {_q(self.ptr.type)}")
        if pointee_like(self.ptr.type) != self.value.type:
            _err(self, "failed to verify that value type matches ptr type")
        if self.mask is not None and self.mask.type != i1_like(pointee_like(self.ptr.type)):
            _err(self, "failed to verify that mask type matches ptr type")


register(
    "tt.store",
    "$ptr `,` $value (`,` $mask^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
    "attr-dict `:` type($ptr)",
    infer={"value": lambda T: pointee_like(T["ptr"]), "mask": lambda T: i1_like(T["ptr"])},
    enums={"cache": CACHE, "evict": EVICT},
)


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    name = "tt.atomic_rmw"
    atomic_rmw_op = prop_def(IntegerAttr)
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        if self.ptr.type != _ptr_same_shape(self.val.type):
            _err(self, "failed to verify that ptr type matches value type")
        if self.mask is not None and self.mask.type != i1_like(self.val.type):
            _err(self, "failed to verify that mask type matches value type")
        _traits(self, "same_shape", "same_encoding")


register(
    "tt.atomic_rmw",
    "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` functional-type(operands, $result)",
    enums={"atomic_rmw_op": RMW, "sem": SEM, "scope": SCOPE},
)


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    name = "tt.atomic_cas"
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        if self.ptr.type != _ptr_same_shape(self.cmp.type):
            _err(self, "failed to verify that ptr type matches cmp type")
        if self.ptr.type != _ptr_same_shape(self.val.type):
            _err(self, "failed to verify that ptr type matches value type")
        _traits(self, "same_shape", "same_encoding")


register(
    "tt.atomic_cas",
    "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)",
    enums={"sem": SEM, "scope": SCOPE},
)


@irdl_op_definition
class MakeTensorPtrOp(IRDLOperation):
    name = "tt.make_tensor_ptr"
    base = operand_def()
    shape = var_operand_def()
    strides = var_operand_def()
    offsets = var_operand_def()
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self):
        rank = len(self.shape)
        if not (len(self.strides) == len(self.offsets) == rank == len(self.order.get_values())):
            _err(self, "shape, strides, offsets and order must have the same length")


register(
    "tt.make_tensor_ptr",
    "$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` stype($result)",
    infer={
        "__stype__result": PointerType,
        "base": lambda T: PointerType(elt(T["result"].pointee), T["result"].address_space.data),
        "shape": lambda T: i64,
        "strides": lambda T: i64,
        "offsets": lambda T: i32,
    },
)


@irdl_op_definition
class AdvanceOp(IRDLOperation):
    name = "tt.advance"
    ptr = operand_def(PointerType)
    offsets = var_operand_def()
    result = result_def(PointerType)
    traits = traits_def(Pure())


register(
    "tt.advance",
    "$ptr `,` `[` $offsets `]` attr-dict `:` stype($result)",
    infer={"__stype__result": PointerType, "ptr": same_as("result"), "offsets": lambda T: i32},
)


# ----------------------------------------------------------------------------- reductions and scans


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`tt.reduce` (printed in generic form, as Triton does): reduce along `axis` with a combiner region."""

    name = "tt.reduce"
    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def()
    traits = traits_def(Pure())  # as in Triton: the combiner region is pure

    def verify_(self):
        _traits(self, "same_operands_shape", "same_operands_encoding")
        _verify_reduce_scan(self)

    def verify_regions_(self):
        """The result types Triton infers (the operands' without the axis, with the reduced layout), then the
        combine region (Triton's ReduceOp::verifyRegions)."""
        from ttc.ir.types import tensor

        ax, inferred = self.axis.value.data, []
        for v in self.srcs:
            shape = list(shape_of(v.type))
            del shape[ax]
            enc = encoding(v.type)
            if shape and enc is not None:
                from ttc.ir.layout_utils import slice_of  # here: TTIR carries no layout

                enc = slice_of(ax, enc)
            inferred.append(tensor(shape, elt(v.type), enc) if shape else elt(v.type))
        _check_inferred(self, inferred)
        _verify_combine_region(self, ReduceReturnOp)


def _verify_reduce_scan(op):
    """Triton's verifyReduceScan."""
    if not op.srcs:
        _err(op, "must have at least 1 operand")
    if len(op.srcs) != len(op.result):
        _err(op, "must have the same number of inputs as outputs")
    ax, first = op.axis.value.data, 0
    for v in op.srcs:
        rank = len(shape_of(v.type))
        if not 0 <= ax < rank:
            _err(op, f"axis out of bounds for operand rank {rank}")
        if first and rank != first:
            _err(op, f"all operands must have the same rank, but got ranks {first} and {rank}")
        first = first or rank
    for v, r in zip(op.srcs, op.result):
        if elt(v.type) != elt(r.type):
            _err(op, "operand types and result types must agree")


def _verify_combine_region(op, return_op):
    """Triton's verifyRegionsImpl: the combine block's arguments and terminator against the operands."""
    from ttc.ir.diagnostics import op_text

    types = [elt(v.type) for v in op.srcs]
    block = op.combineOp.blocks.first
    n = 2 * len(types)
    if len(block.args) != n:
        _err(op, f"nested block must take {n} arguments, but given block with {len(block.args)} arguments")
    for i, a in enumerate(block.args):
        if a.type != types[i % len(types)]:
            _err(op, f"type mismatch on combine operation. Expected argument {i} to have type "
                     f"{_q(types[i % len(types)])} but got {_q(a.type)}")
    term = block.last_op
    if not isinstance(term, return_op):
        _err(op, f"combine operation must be terminated with a ReduceReturnOp but got {op_text(term)}")
    if len(term.result) != len(types):
        _err(op, f"expected combine operation to return {len(types)} values but got {len(term.result)}")
    for i, v in enumerate(term.result):
        if v.type != types[i]:
            _err(op, f"type mismatch on combine operation. Expected argument {i} to have type {_q(types[i])} but "
                     f"got {_q(v.type)}")


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    name = "tt.reduce.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), ReturnLike(), Pure(), HasParent(ReduceOp))


@irdl_op_definition
class ScanOp(IRDLOperation):
    name = "tt.scan"
    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    reverse = prop_def(BoolAttr)
    result = var_result_def()
    combineOp = region_def()
    traits = traits_def(Pure())  # as in Triton: the combiner region is pure

    def verify_(self):
        _traits(self, "same_encoding", "same_shape")
        _verify_reduce_scan(self)

    def verify_regions_(self):
        _check_inferred(self, [v.type for v in self.srcs])
        _verify_combine_region(self, ScanReturnOp)


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    name = "tt.scan.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), ReturnLike(), Pure(), HasParent(ScanOp))


register("tt.reduce.return", "$result attr-dict `:` type($result)")
register("tt.scan.return", "$result attr-dict `:` type($result)")


# ----------------------------------------------------------------------------- math


@irdl_op_definition
class DotOp(IRDLOperation):
    name = "tt.dot"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    inputPrecision = prop_def(IntegerAttr, default_value=_i32(2))  # ieee
    maxNumImpreciseAcc = prop_def(IntegerAttr, default_value=_i32(0))
    d = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.types import bitwidth

        if self.d.type != self.c.type:
            _err(self, "failed to verify that result's type matches accumulator's type")
        verify_dot_interface(self, self.a.type, self.b.type, self.c.type)
        if bitwidth(self.a.type) != bitwidth(self.b.type):
            _emit("element types of operands A and B must have same bit width")
        a_enc, b_enc = encoding(self.a.type), encoding(self.b.type)
        if a_enc is None and b_enc is None:
            return
        if a_enc is None or b_enc is None:
            _emit("mismatching encoding between A and B operands")
        if encoding(self.c.type) is None:
            _emit("miss encoding of C operand")
        _verify_dot_encodings(self, a_enc, b_enc)

    def verify_regions_(self):
        """Triton's inferDotOpEncoding of each operand against the result's layout."""
        ret = encoding(self.c.type)
        for idx, v in enumerate((self.a, self.b)):
            enc = encoding(v.type)
            if enc is None:
                continue
            from ttc.ir.layouts import DotOperandEncoding, NVMMASharedEncoding, NvidiaMmaEncoding  # TTIR: never

            problem = None
            if isinstance(ret, NvidiaMmaEncoding) and ret["versionMajor"] == 3:
                if not isinstance(enc, NVMMASharedEncoding) and not (
                        idx == 0 and isinstance(enc, DotOperandEncoding) and enc["opIdx"] == 0
                        and isinstance(enc["parent"], NvidiaMmaEncoding)):
                    problem = "unexpected operand layout for NvidiaMmaEncodingAttr v3"
            elif isinstance(enc, DotOperandEncoding):
                if enc["opIdx"] != idx:
                    problem = "Wrong opIdx"
                elif enc["parent"] != ret:
                    problem = "Incompatible parent encoding"
            else:
                problem = "Dot's a/b's encoding should be of DotOperandEncodingAttr"
            if problem:
                _emit(problem, "'tt.dot' op failed to infer returned types")


def _verify_dot_encodings(op, a_enc, b_enc):
    """TritonGPU's verifyDotOpEncodingCompatibility."""
    from ttc.ir.layout_checks import support_mma
    from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding

    if not isinstance(a_enc, DotOperandEncoding) and not isinstance(b_enc, DotOperandEncoding):
        return
    if not isinstance(a_enc, DotOperandEncoding) or not isinstance(b_enc, DotOperandEncoding):
        _emit("mismatching encoding between A and B operands")
    if a_enc.get("kWidth", 0) != b_enc.get("kWidth", 0):
        _emit("mismatching kWidth between A and B operands")
    mmas = [e if isinstance(e, NvidiaMmaEncoding) else None for e in (a_enc["parent"], b_enc["parent"], encoding(op.d.type))]
    if any(mmas):
        if not all(mmas):
            _emit("mismatching MMA encoding")
        if len({m["versionMajor"] for m in mmas}) != 1:
            _emit("mismatched MMA version.")
        if not _support_mma_dot(op, mmas[2]["versionMajor"], support_mma):
            _emit("unsupported MMA version")


def _support_mma_dot(op, version: int, support_mma) -> bool:
    """Triton's supportMMA(DotOp, version)."""
    from ttc.ir.layout_checks import num_warps_context
    from ttc.ir.layouts import shape_per_cta
    from ttc.ir.attr_printer import attr_text
    from ttc.ir.types import bitwidth

    a_elt, b_elt = attr_text(elt(op.a.type)), attr_text(elt(op.b.type))
    if version == 3:
        shape = shape_per_cta(shape_of(op.d.type), encoding(op.d.type))
        warps = num_warps_context(op) or 4
        if shape_of(op.a.type)[-1] < 256 // bitwidth(op.a.type) or len(shape) == 3:
            return False
        if not (warps % 4 == 0 and shape[-2] % 64 == 0 and shape[-1] % 16 == 0
                and a_elt in ("f8E5M2", "f8E4M3FN", "i8", "f16", "bf16", "f32")):
            return False
        if (op.maxNumImpreciseAcc.value.data < 32 and a_elt in ("f8E5M2", "f8E4M3FN")
                and attr_text(elt(op.d.type)) == "f32"):
            return False
    if a_elt == "f32" and b_elt == "f32":
        return op.inputPrecision.value.data == INPUT_PRECISION["tf32"] and version >= 2
    return support_mma(elt(op.a.type), version) and support_mma(elt(op.b.type), version)


register(
    "tt.dot",
    "$a`,` $b`,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)",
    infer={"c": same_as("d")},
    enums={"inputPrecision": INPUT_PRECISION},
)


@irdl_op_definition
class BitcastOp(IRDLOperation):
    name = "tt.bitcast"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.types import bitwidth

        _traits(self, "same_shape", "same_encoding")
        src, dst = elt(self.src.type), elt(self.result.type)
        if isinstance(src, PointerType) or isinstance(dst, PointerType):
            if not (isinstance(src, PointerType) and isinstance(dst, PointerType)):
                _emit("Cannot bitcast pointer to non-pointer type")
            if src.address_space != dst.address_space:
                _emit("Cannot bitcast pointer between different address spaces")
            return
        if bitwidth(src) != bitwidth(dst):
            _emit(f"Cannot bitcast data-type of size {bitwidth(src)} to data-type of size {bitwidth(dst)}")


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    name = "tt.fp_to_fp"
    src = operand_def()
    rounding = opt_prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.types import bitwidth

        for what, t in (("operand", self.src.type), ("result", self.result.type)):
            if not is_float(t):
                _err(self, f"{what} #0 must be floating-point or ranked tensor of floating-point values, but got {_q(t)}")
        _traits(self, "same_shape", "same_encoding")
        if bitwidth(self.result.type) < bitwidth(self.src.type) and self.rounding is None:
            _emit("Rounding mode is required for FP downcast")


@irdl_op_definition
class IntToPtrOp(IRDLOperation):
    name = "tt.int_to_ptr"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())


@irdl_op_definition
class PtrToIntOp(IRDLOperation):
    name = "tt.ptr_to_int"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())


register("tt.bitcast", "$src attr-dict `:` type($src) `->` type($result)")
register(
    "tt.fp_to_fp",
    "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)",
    enums={"rounding": ROUNDING},
)
register("tt.int_to_ptr", "$src attr-dict `:` type($src) `->` type($result)")
register("tt.ptr_to_int", "$src attr-dict `:` type($src) `->` type($result)")


class _Elementwise(IRDLOperation):
    traits = traits_def(Pure())

    def verify_(self):
        _traits(self, "same_type")


@irdl_op_definition
class ClampFOp(_Elementwise):
    name = "tt.clampf"
    x = operand_def()
    min = operand_def()
    max = operand_def()
    propagateNan = prop_def(IntegerAttr)
    result = result_def()


@irdl_op_definition
class PreciseSqrtOp(_Elementwise):
    name = "tt.precise_sqrt"
    x = operand_def()
    result = result_def()


@irdl_op_definition
class PreciseDivFOp(_Elementwise):
    name = "tt.precise_divf"
    x = operand_def()
    y = operand_def()
    result = result_def()


@irdl_op_definition
class MulhiUIOp(_Elementwise):
    """The high half of the full unsigned product of two integers (Philox's `tl.umulhi`)."""

    name = "tt.mulhiui"
    x = operand_def()
    y = operand_def()
    result = result_def()

    def verify_(self):
        if not is_int(self.x.type):
            _err(self, f"operand #0 must be integer or ranked tensor of integer values, but got {_q(self.x.type)}")
        super().verify_()


register("tt.clampf", "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)",
         infer={"x": same_as("result"), "min": same_as("result"), "max": same_as("result")},
         enums={"propagateNan": PROPAGATE_NAN})
register("tt.precise_sqrt", "$x attr-dict `:` type($x)", infer={"result": same_as("x")})
register("tt.precise_divf", "$x `,` $y attr-dict `:` type($x)", infer={"y": same_as("x"), "result": same_as("x")})
register("tt.mulhiui", "$x `,` $y attr-dict `:` type($x)", infer={"y": same_as("x"), "result": same_as("x")})


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    name = "tt.extern_elementwise"
    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    result = result_def()
    traits = traits_def(PureIfMarked(), SpeculatableIfPure())

    @property
    def is_pure(self) -> bool:
        return bool(self.pure.value.data)


register("tt.extern_elementwise", "operands attr-dict `:` functional-type(operands, $result)")


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    name = "tt.elementwise_inline_asm"
    args = var_operand_def()
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    packed_element = prop_def(IntegerAttr)
    result = var_result_def()
    traits = traits_def(PureIfMarked(), SpeculatableIfPure())

    def verify_(self):
        """MLIR's Elementwise trait, Triton's SameOperandsAndResultEncoding, and the packing."""
        import math

        types = [v.type for v in self.args] + [r.type for r in self.result]
        if any(is_tensor(t) for t in types):
            if not all(is_tensor(t) for t in types):
                _err(self, "if a result is non-scalar, then at least one operand must be non-scalar"
                     if any(is_tensor(r.type) for r in self.result)
                     else "if an operand is non-scalar, then there must be at least one non-scalar result")
            if len({shape_of(t) for t in types}) != 1:
                _err(self, "all non-scalar operands/results must have the same shape and base type")
        _traits(self, "same_encoding")
        if self.args:
            n = math.prod(shape_of(self.args[0].type)) if is_tensor(self.args[0].type) else 0
            if n % self.packed_element.value.data:
                _emit(f"number of input elements {n} must be a multiple of the op's packed_element attribute, "
                      f"{self.packed_element.value.data}")


register(
    "tt.elementwise_inline_asm",
    "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)",
)


# ----------------------------------------------------------------------------- debugging


@irdl_op_definition
class AssertOp(IRDLOperation):
    name = "tt.assert"
    condition = operand_def()
    message = prop_def(StringAttr)
    traits = traits_def(MemoryWriteEffect())


register("tt.assert", "$condition `,` $message attr-dict `:` type($condition)")


@irdl_op_definition
class PrintOp(IRDLOperation):
    name = "tt.print"
    args = var_operand_def()
    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    isSigned = prop_def(DenseArrayBase)
    traits = traits_def(MemoryWriteEffect())


register("tt.print", "$prefix attr-dict (`:` $args^ `:` type($args))?")


@irdl_op_definition
class HistogramOp(IRDLOperation):
    name = "tt.histogram"
    src = operand_def(TensorType)
    mask = opt_operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        for what, t in (("operand", self.src.type), ("result", self.result.type)):
            if not is_int(t):
                _err(self, f"{what} #0 must be ranked tensor of integer values, but got {_q(t)}")
        if self.mask is not None and self.mask.type != i1_like(self.src.type):
            _err(self, "failed to verify that mask type matches src type")


register("tt.histogram", "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)",
         infer={"mask": lambda T: i1_like(T["src"])})


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`tt.gather %src[%indices] {axis}`: result[i] = src[i with i[axis] replaced by indices[i]]; the result
    has the indices' shape and layout. `efficient_layout` marks layouts chosen so that no data leaves a warp."""

    name = "tt.gather"
    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        src, idx, res = self.src.type, self.indices.type, self.result.type
        if shape_of(idx) != shape_of(res):
            _err(self, "indices and output shapes must match")
        if encoding(idx) != encoding(res):
            _err(self, "indices and output encodings must match")
        if elt(src) != elt(res):
            _err(self, "input and output element types must match")
        if len(shape_of(src)) != len(shape_of(idx)):
            _err(self, "input and indices ranks must match")
        axis = self.axis.value.data
        if axis >= len(shape_of(src)):
            _err(self, "gather dimension must be less than the input rank")
        for d, (a, b) in enumerate(zip(shape_of(idx), shape_of(src))):
            if d != axis and a != b:
                _err(self, f"indices dimension {d} must match the corresponding input dimension")


register("tt.gather", "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)")


# ----------------------------------------------------------------------------- unsplat, map_elementwise


@irdl_op_definition
class UnsplatOp(IRDLOperation):
    """`tt.unsplat %t : tensor<1x1xf32>`: the one element of a one-element tensor, as a scalar."""

    name = "tt.unsplat"
    src = operand_def(TensorType)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if math.prod(shape_of(self.src.type)) != 1:
            raise LocatedVerifyException(self, "source tensor must have exactly one element")
        if self.result.type != elt(self.src.type):
            _err(self, f"inferred type(s) '{_type_text(elt(self.src.type))}' are incompatible with return type(s) "
                       f"of operation '{_type_text(self.result.type)}'")


register("tt.unsplat", "$src attr-dict `:` type($src)", infer={"result": lambda T: elt(T["src"])})


def _writes_memory(op) -> bool:
    """MLIR's `MemoryEffectOpInterface::hasEffect<Write>`: the op's own effects (not its regions') write."""
    for t in op.get_traits_of_type(MemoryEffect):
        if isinstance(t, RecursiveMemoryEffect):
            continue
        effects = t.get_effects(op)
        if effects and any(e.kind == MemoryEffectKind.WRITE for e in effects):
            return True
    return False


@irdl_op_definition
class MapElementwiseOp(IRDLOperation):
    """`tt.map_elementwise` (generic form, as Triton prints it): its scalar region maps `pack` consecutive
    elements of each operand (block arguments operand by operand, each repeated `pack` times) to `pack` elements
    of each result; stores are not allowed in it."""

    name = "tt.map_elementwise"
    srcs = var_operand_def(TensorType)
    pack = prop_def(IntegerAttr)
    result = var_result_def(TensorType)
    scalarOp = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self):
        types = [v.type for v in self.srcs] + [r.type for r in self.result]
        if len({shape_of(t) for t in types}) > 1:
            _err(self, "requires the same shape for all operands and results")
        if len({encoding(t) for t in types}) > 1:
            _err(self, "requires the same encoding for all operands and results")
        if not self.srcs:
            _err(self, "MapElementwiseOp must have at least 1 operand")
        pack = self.pack.value.data
        if pack <= 0 or pack & (pack - 1):
            _err(self, "Pack must be a power of 2")
        block = self.scalarOp.blocks.first
        if block is None or len(block.args) != len(self.srcs) * pack:
            _err(self, "region has wrong number of arguments")
        if [a.type for a in block.args] != [elt(v.type) for v in self.srcs for _ in range(pack)]:
            raise LocatedVerifyException(self, "argument types did not match")
        want = [elt(r.type) for r in self.result for _ in range(pack)]
        for op in self.scalarOp.walk():
            if _writes_memory(op):
                raise LocatedVerifyException(op, f"'{op.name}' op Stores are not supported inside map_elementwise")
            if isinstance(op, MapElementwiseReturnOp) and [v.type for v in op.result] != want:
                raise LocatedVerifyException(op, "region return does not match map_elementwise result")


@irdl_op_definition
class MapElementwiseReturnOp(IRDLOperation):
    name = "tt.map_elementwise.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), ReturnLike(), Pure(), HasParent(MapElementwiseOp))


register("tt.map_elementwise.return", "attr-dict ($result^ `:` type($result))?")


def _type_text(t) -> str:
    from ttc.ir.attr_printer import attr_text

    return attr_text(t)


from ttc.ir.tensordesc import DESCRIPTOR_OPS, TensorDescType  # noqa: E402 (it uses the enums above)

TT_OPS = [
    FuncOp, ReturnOp, CallOp, GetProgramIdOp, GetNumProgramsOp, MakeRangeOp, SplatOp, BroadcastOp,
    ExpandDimsOp, ReshapeOp, TransOp, CatOp, JoinOp, SplitOp, AddPtrOp, LoadOp, StoreOp, AtomicRMWOp,
    AtomicCASOp, MakeTensorPtrOp, AdvanceOp, ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp, DotOp,
    BitcastOp, FpToFpOp, IntToPtrOp, PtrToIntOp, ClampFOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp,
    ExternElementwiseOp, ElementwiseInlineAsmOp, AssertOp, PrintOp, HistogramOp, GatherOp, *DESCRIPTOR_OPS, DotScaledOp,
    UnsplatOp, MapElementwiseOp, MapElementwiseReturnOp,
]

TT = Dialect("tt", TT_OPS, [PointerType, TensorDescType])
