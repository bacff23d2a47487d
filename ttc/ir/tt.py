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

# Triton's enums (TritonAttrDefs.td), keyword -> stored i32 value.
PROGRAM_DIM = {"x": 0, "y": 1, "z": 2}
CACHE = {"none": 1, "ca": 2, "cg": 3, "wb": 4, "cs": 5, "wt": 6, "cv": 7}
EVICT = {"evict_normal": 1, "evict_first": 2, "evict_last": 3}
PADDING = {"zero": 1, "nan": 2}
RMW = {"and": 1, "or": 2, "xor": 3, "add": 4, "fadd": 5, "max": 6, "min": 7, "umax": 8, "umin": 9, "exch": 10}
SEM = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4}
SCOPE = {"gpu": 1, "cta": 2, "sys": 3}
ROUNDING = {"rtz": 0, "rtne": 1}
PROPAGATE_NAN = {"none": 0, "all": 0xFFFF}
INPUT_PRECISION = {"tf32": 0, "tf32x3": 1, "ieee": 2, "bf16x3": 3, "bf16x6": 4}


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
    raise VerifyException(f"'{op.name}' op {msg}")


def _shape_str(t) -> str:
    return "x".join(map(str, shape_of(t)))


def _same_element_type(op, *types):
    """MLIR's SameOperandsAndResultElementType, over the given operand and result types."""
    if len({elt(t) for t in types}) != 1:
        _err(op, "requires the same element type for all operands and results")


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
        ft = self.function_type
        if self.body.blocks:
            args = [a.type for a in self.body.blocks.first.args]
            if tuple(args) != tuple(ft.inputs.data):
                _err(self, "entry block argument types do not match the function signature")

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
            want = tuple(func.function_type.outputs.data)
            got = tuple(v.type for v in self.srcs)
            if want != got:
                _err(self, f"has {len(got)} operands, but enclosing function returns {len(want)}" if len(want) != len(got) else "operand types do not match the function's result types")


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
        n = e - s
        if len(shape_of(self.result.type)) != 1 or elt(self.result.type) != i32:
            _err(self, "result must be a 1D tensor of i32")
        if n <= 0:
            _err(self, "start must be less than end")
        if shape_of(self.result.type)[0] != n:
            _err(self, f"number of elements in returned tensor, {shape_of(self.result.type)[0]}, must match size of range, {n}")


register("tt.make_range", "attr-dict `:` type($result)")


# ----------------------------------------------------------------------------- shape ops


class _ShapeOp(IRDLOperation):
    traits = traits_def(Pure())


@irdl_op_definition
class SplatOp(_ShapeOp):
    name = "tt.splat"
    src = operand_def()
    result = result_def(TensorType)

    def verify_(self):
        if is_tensor(self.src.type):
            _err(self, "operand must be a scalar")
        if elt(self.result.type) != self.src.type:
            _err(self, "result element type must match the operand type")


@irdl_op_definition
class BroadcastOp(_ShapeOp):
    name = "tt.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self):
        a, b = shape_of(self.src.type), shape_of(self.result.type)
        if len(a) != len(b):
            _err(self, "requires the same rank for operand and result")
        if any(x != y and x != 1 for x, y in zip(a, b)):
            _err(self, f"cannot broadcast {_shape_str(self.src.type)} to {_shape_str(self.result.type)}")
        if elt(self.src.type) != elt(self.result.type):
            _err(self, "requires the same element type for operand and result")
        if encoding(self.src.type) != encoding(self.result.type):
            _err(self, "requires the same encoding for operand and result")


@irdl_op_definition
class ExpandDimsOp(_ShapeOp):
    name = "tt.expand_dims"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)

    def verify_(self):
        a = list(shape_of(self.src.type))
        ax = self.axis.value.data
        if not 0 <= ax <= len(a):
            _err(self, f"axis {ax} out of range for rank {len(a)}")
        a.insert(ax, 1)
        if tuple(a) != shape_of(self.result.type):
            _err(self, f"result shape must be {'x'.join(map(str, a))}")
        _same_element_type(self, self.src.type, self.result.type)


@irdl_op_definition
class ReshapeOp(_ShapeOp):
    name = "tt.reshape"
    src = operand_def(TensorType)
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    def verify_(self):
        import math

        if math.prod(shape_of(self.src.type)) != math.prod(shape_of(self.result.type)):
            _err(self, "number of src and dst elements of reshape must be the same")
        _same_element_type(self, self.src.type, self.result.type)


@irdl_op_definition
class TransOp(_ShapeOp):
    name = "tt.trans"
    src = operand_def(TensorType)
    order = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    def verify_(self):
        order = list(self.order.get_values())
        a = shape_of(self.src.type)
        if sorted(order) != list(range(len(a))):
            _err(self, "order must be a permutation of the dimensions")
        if tuple(a[i] for i in order) != shape_of(self.result.type):
            _err(self, "result shape must be the permuted operand shape")
        _same_element_type(self, self.src.type, self.result.type)


@irdl_op_definition
class CatOp(_ShapeOp):
    name = "tt.cat"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)


@irdl_op_definition
class JoinOp(_ShapeOp):
    name = "tt.join"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self):
        if self.lhs.type != self.rhs.type:
            _err(self, "operands must have the same type")
        if shape_of(self.result.type) != shape_of(self.lhs.type) + (2,):
            _err(self, "result shape must be the operand shape with a trailing 2")
        _same_element_type(self, self.lhs.type, self.rhs.type, self.result.type)


@irdl_op_definition
class SplitOp(_ShapeOp):
    name = "tt.split"
    src = operand_def(TensorType)
    outLHS = result_def(TensorType)
    outRHS = result_def(TensorType)

    def verify_(self):
        a = shape_of(self.src.type)
        if not a or a[-1] != 2:
            _err(self, "operand's last dimension must be 2")
        if shape_of(self.outLHS.type) != a[:-1]:
            _err(self, "result shape must be the operand shape without its last dimension")
        if self.outLHS.type != self.outRHS.type:
            _err(self, "results must have the same type")
        _same_element_type(self, self.src.type, self.outLHS.type)


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
            _err(self, "operand #0 must be a pointer or a tensor of pointers")
        if not is_int(self.offset.type):
            _err(self, "operand #1 must be an integer or a tensor of integers")
        if shape_of(self.ptr.type) != shape_of(self.offset.type):
            _err(self, "requires the same shape for all operands")
        if self.result.type != self.ptr.type:
            _err(self, "result type must match the pointer operand type")


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
            _err(self, "operand #0 must be a pointer, a tensor of pointers or a block pointer")
        if pointee_like(self.ptr.type) != self.result.type:
            _err(self, "result type must match the pointee type of the pointer operand")
        if self.mask is not None and self.mask.type != i1_like(self.ptr.type):
            _err(self, f"mask type must be {i1_like(self.ptr.type)}")
        if self.other is not None and self.other.type != self.result.type:
            _err(self, "other must have the result type")


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
            _err(self, "operand #0 must be a pointer, a tensor of pointers or a block pointer")
        if pointee_like(self.ptr.type) != self.value.type:
            _err(self, "value type must match the pointee type of the pointer operand")
        if self.mask is not None and self.mask.type != i1_like(self.ptr.type):
            _err(self, f"mask type must be {i1_like(self.ptr.type)}")


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
        if pointee_like(self.ptr.type) != self.val.type or self.val.type != self.result.type:
            _err(self, "value and result types must match the pointee type")


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
        if not pointee_like(self.ptr.type) == self.cmp.type == self.val.type == self.result.type:
            _err(self, "compare value, new value and result types must match the pointee type")


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
        ax = self.axis.value.data
        for s, r in zip(self.srcs, self.result):
            sh = list(shape_of(s.type))
            if not 0 <= ax < len(sh):
                _err(self, f"axis {ax} out of range for rank {len(sh)}")
            del sh[ax]
            if tuple(sh) != shape_of(r.type) or elt(s.type) != elt(r.type):
                _err(self, "result type must be the operand type without the reduced axis")
        if len(self.srcs) != len(self.result):
            _err(self, "must have as many results as operands")
        block = self.combineOp.blocks.first
        if block is None or len(block.args) != 2 * len(self.srcs):
            _err(self, "combine region must take two arguments per operand")


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
        for s, r in zip(self.srcs, self.result):
            if s.type != r.type:
                _err(self, "result types must match operand types")


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
        a, b, c = shape_of(self.a.type), shape_of(self.b.type), shape_of(self.c.type)
        if len(a) not in (2, 3) or len(a) != len(b) or len(a) != len(c):
            _err(self, "operands must be 2D (or 3D batched) tensors of the same rank")
        if a[-1] != b[-2]:
            _err(self, f"the K dimension of a ({a[-1]}) and b ({b[-2]}) must match")
        if c[-2:] != (a[-2], b[-1]):
            _err(self, f"accumulator shape must be {a[-2]}x{b[-1]}")
        if self.d.type != self.c.type:
            _err(self, "result type must match the accumulator type")


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

        if shape_of(self.src.type) != shape_of(self.result.type):
            _err(self, "operand and result must have the same shape")
        if is_ptr(self.src.type) != is_ptr(self.result.type):
            _err(self, "cannot bitcast between pointer and non-pointer types")
        if bitwidth(self.src.type) != bitwidth(self.result.type):
            _err(self, "operand and result element types must have the same bit width")


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    name = "tt.fp_to_fp"
    src = operand_def()
    rounding = opt_prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if not is_float(self.src.type) or not is_float(self.result.type):
            _err(self, "operand and result must be floating point")
        if shape_of(self.src.type) != shape_of(self.result.type):
            _err(self, "operand and result must have the same shape")


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
        types = {v.type for v in self.operands} | {r.type for r in self.results}
        if len(types) != 1:
            _err(self, "requires the same type for all operands and results")


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
        super().verify_()
        if not is_int(self.x.type):
            _err(self, "operand #0 must be an integer or a tensor of integers")


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
        if not is_int(self.src.type) or not is_int(self.result.type):
            _err(self, "operand and result must be integer tensors")


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


class LocatedVerifyException(VerifyException):
    """A verifier error reported at `op` (the op verified or one of its regions) with its message as written: MLIR's
    `op->emitError`, which has no "'name' op" prefix."""

    def __init__(self, op, msg: str):
        super().__init__(msg)
        self.op = op


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
    from ttc.ir.printer import attr_text

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
