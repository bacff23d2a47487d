"""`ttg.warp_specialize`: code run at the same time by warp groups of their own (Triton 3.6's TritonGPUOps.td).

    %r = ttg.warp_specialize(%a, %b) attributes {requestedRegisters = array<i32: 32>}
    default {
      ...                               // the current warps; may use values from above
      ttg.warp_yield %x : i32           // the op's results
    }
    partition0(%arg2: i32, %arg3: i32) num_warps(4) {
      ...                               // another warp group: sees only its arguments (the captures %a, %b)
      ttg.warp_return
    } : (i32, i32) -> i32

The partition regions live in a `ttg.warp_specialize.partitions` op, the only op of the second region: that op
is IsolatedFromAbove (the partitions are different layout domains, with their own number of warps), while the
default region may capture. `partitionNumWarps` holds each partition's `num_warps(N)`; a partition's ops take
their number of warps from it (`partition_num_warps`, Triton's lookupNumWarps). Verifier rules and messages are
Triton's (WarpSpecializeOp::verify, WarpYieldOp::verify) and MLIR's (region constraints, isolation).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, i32
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsolatedFromAbove, IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, register

OPTIONAL_ARRAYS = ("warpGroupStartIds", "requestedRegisters", "actualRegisters")


def _type_text(t) -> str:
    from ttc.ir.attr_printer import attr_text

    return attr_text(t)


@irdl_op_definition
class WarpSpecializeOp(IRDLOperation):
    name = "ttg.warp_specialize"
    explicitCaptures = var_operand_def()
    partitionNumWarps = prop_def(DenseArrayBase)
    warpGroupStartIds = opt_prop_def(DenseArrayBase)
    requestedRegisters = opt_prop_def(DenseArrayBase)
    actualRegisters = opt_prop_def(DenseArrayBase)
    defaultPassthrough = var_result_def()
    defaultRegion = region_def()
    partitionOpHolder = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def partitions(self) -> WarpSpecializePartitionsOp | None:
        block = self.partitionOpHolder.blocks.first
        op = block.first_op if block is not None else None
        return op if isinstance(op, WarpSpecializePartitionsOp) else None

    def partition_regions(self) -> list[Region]:
        holder = self.partitions
        return list(holder.regions) if holder is not None else []

    def capture_bytes(self) -> int:
        """WarpSpecializeOp::getCaptureSizeAlign's size (the alignment is 8): the explicit captures packed like a
        struct in shared memory; a shared-memory descriptor takes 8 bytes and 4 per dimension."""
        from xdsl.dialects.builtin import AnyFloat, IntegerType

        from ttc.ir.layouts import SharedMemorySpace
        from ttc.ir.types import bitwidth
        from ttc.ir.memdesc import MemDescType

        size = 0
        for v in self.explicitCaptures:
            t = v.type
            if isinstance(t, MemDescType):
                size += 8 + 4 * len(t.get_shape()) if isinstance(t.memory_space, SharedMemorySpace) else 8
            elif isinstance(t, (IntegerType, AnyFloat)):
                size += (bitwidth(t) + 7) // 8
            else:  # pointers, tensor descriptors
                size += 8
        return size

    def total_partition_warps(self) -> int:
        return sum(self.partitionNumWarps.get_values())

    def verify_(self):
        def fail(msg):
            raise VerifyException(f"'ttg.warp_specialize' op {msg}")

        if not self.defaultRegion.blocks:
            fail("region #0 ('defaultRegion') failed to verify constraint: region with at least 1 blocks")
        holder = self.partitions
        if holder is None:
            fail("expected to find only a `ttg.warp_specialize.partitions` op inside its second region")
        regions, warps = list(holder.regions), self.partitionNumWarps.get_values()
        if len(regions) != len(warps):
            fail(f"has {len(regions)} partitions but `partitionNumWarps` has {len(warps)} elements")
        for i, n in enumerate(warps):
            if n <= 0 or n & (n - 1):
                fail(f"partition #{i} number of warps ({n}) must be a power of 2")
        if self.warpGroupStartIds is not None and len(self.warpGroupStartIds.get_values()) != len(warps):
            fail(f"has {len(self.warpGroupStartIds.get_values())} warp group start IDs but expected {len(warps)}")
        captures = [v.type for v in self.explicitCaptures]
        for i, region in enumerate(regions):
            args = list(region.blocks.first.args) if region.blocks else []
            if len(args) != len(captures):
                fail(f"partition region #{i} has {len(args)} arguments but expected {len(captures)}")
            for j, (arg, cap) in enumerate(zip(args, captures)):
                if arg.type != cap:
                    fail(f"partition region #{i} argument #{j} has type '{_type_text(arg.type)}' but corresponding "
                         f"capture has type '{_type_text(cap)}'")
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, WarpSpecializeOp):
                fail("cannot be nested inside another `ttg.warp_specialize` op")
            parent = parent.parent_op()
        n = lookup_num_warps(self)
        if n is not None and n % 4:
            from ttc.ir.verify_errors import OpDiagnostics

            raise OpDiagnostics("warp-specialized kernels requires num_warps to be a multiple of 4")


class _IsolatedFromAbove(IsolatedFromAbove):
    """xDSL's trait (which ttc.ir.fold and the passes look for), with MLIR's message."""

    def verify(self, op: Operation) -> None:
        for region in op.regions:
            for child in region.walk():
                for v in child.operands:
                    owner = v.owner if isinstance(v.owner, Block) else v.owner.parent_block()
                    if owner is None or not op.is_ancestor(owner):
                        raise VerifyException(f"'{child.name}' op using value defined outside the region")


@irdl_op_definition
class WarpSpecializePartitionsOp(IRDLOperation):
    """The holder of the partition regions (IsolatedFromAbove), the only op of `ttg.warp_specialize`'s second
    region."""

    name = "ttg.warp_specialize.partitions"
    partitionRegions = var_region_def()
    traits = traits_def(_IsolatedFromAbove(), RecursiveMemoryEffect(), IsTerminator())

    def verify_(self):
        parent = self.parent_op()
        if not isinstance(parent, WarpSpecializeOp):
            raise VerifyException("'ttg.warp_specialize.partitions' op expects parent op 'ttg.warp_specialize'")
        for i, region in enumerate(self.regions):
            if not region.blocks:
                raise VerifyException(f"'ttg.warp_specialize.partitions' op region #{i} ('partitionRegions') failed "
                                      "to verify constraint: region with at least 1 blocks")


@irdl_op_definition
class WarpYieldOp(IRDLOperation):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def verify_(self):
        parent = self.parent_op()
        if not isinstance(parent, WarpSpecializeOp) or self.parent_region() is not parent.defaultRegion:
            raise VerifyException("'ttg.warp_yield' op expects parent op 'ttg.warp_specialize'")
        want = [r.type for r in parent.results]
        if len(self.values) != len(want):
            raise VerifyException(f"'ttg.warp_yield' op has {len(self.values)} operands but parent op expected "
                                  f"{len(want)}")
        for i, (v, t) in enumerate(zip(self.values, want)):
            if v.type != t:
                raise VerifyException(f"'ttg.warp_yield' op operand #{i} has type '{_type_text(v.type)}' but "
                                      f"parent op expected '{_type_text(t)}'")


@irdl_op_definition
class WarpReturnOp(IRDLOperation):
    name = "ttg.warp_return"
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def verify_(self):
        if not isinstance(self.parent_op(), WarpSpecializePartitionsOp):
            raise VerifyException("'ttg.warp_return' op expects parent op 'ttg.warp_specialize.partitions'")


register("ttg.warp_yield", "($values^)? attr-dict (`:` type($values)^)?")
register("ttg.warp_return", "attr-dict")


def partition_num_warps(op: Operation) -> int | None:
    """The `num_warps(N)` of the partition region `op` is directly in, or None when it is in none."""
    region = op.parent_region()
    holder = region.parent_op() if region is not None else None
    if not isinstance(holder, WarpSpecializePartitionsOp):
        return None
    ws = holder.parent_op()
    if not isinstance(ws, WarpSpecializeOp):
        return None
    index = list(holder.regions).index(region)
    warps = ws.partitionNumWarps.get_values()
    return warps[index] if index < len(warps) else None


def lookup_num_warps(op: Operation) -> int | None:
    """Triton's maybeLookupNumWarps: the `ttg.num-warps` of the nearest enclosing function or module, unless a
    partition region of a `ttg.warp_specialize` is nearer (its `num_warps(N)`)."""
    from xdsl.dialects.builtin import IntegerAttr

    while op is not None:
        a = op.attributes.get("ttg.num-warps")
        if isinstance(a, IntegerAttr):
            return a.value.data
        n = partition_num_warps(op)
        if n is not None:
            return n
        op = op.parent_op()
    return None


# ----------------------------------------------------------------------------- canonicalization


def canonicalize(op: Operation, rw) -> bool:
    """Triton's WarpSpecializeOp::canonicalize (a -canonicalize pattern): captures that no partition uses and
    repeated captures (their uses moved to the first) are dropped, with the partitions' arguments; results
    nothing uses are dropped, with the values `ttg.warp_yield` passes them."""
    if not isinstance(op, WarpSpecializeOp) or op.partitions is None:
        return False
    entries = [r.blocks.first for r in op.partition_regions()]
    if any(b is None for b in entries):
        return False
    drop_args, first = set(), {}
    for i, cap in enumerate(op.explicitCaptures):
        if all(b.args[i].first_use is None for b in entries):
            drop_args.add(i)
            continue
        j = first.setdefault(cap, i)
        if j != i:
            for b in entries:
                rw.replace_value(b.args[i], b.args[j])
            drop_args.add(i)
    drop_results = {r.index for r in op.results if r.first_use is None}
    if not drop_args and not drop_results:
        return False
    if drop_args:
        for b in entries:
            for i in sorted(drop_args, reverse=True):
                b.erase_arg(b.args[i])
        rw.set_operands(op, [v for i, v in enumerate(op.operands) if i not in drop_args])
    if drop_results:
        for block in op.defaultRegion.blocks:
            term = block.last_op
            if isinstance(term, WarpYieldOp):
                rw.set_operands(term, [v for i, v in enumerate(term.operands) if i not in drop_results])
        new = WarpSpecializeOp.create(operands=list(op.operands),
                                      result_types=[r.type for r in op.results if r.index not in drop_results],
                                      properties=dict(op.properties), attributes=dict(op.attributes),
                                      regions=[Region(), Region()])
        op.defaultRegion.move_blocks(new.defaultRegion)
        op.partitionOpHolder.move_blocks(new.partitionOpHolder)
        new.location = op.location
        rw.insert_before(new, op)
        kept = iter(new.results)
        rw.replace_op(op, [r if r.index in drop_results else next(kept) for r in op.results])
    return True


# ----------------------------------------------------------------------------- syntax


def _parse(op_type, parser):
    at = parser._current_token.span.start
    operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
    attrs = parser.parse_optional_attr_dict_with_keyword()
    attrs = dict(attrs.data) if attrs is not None else {}
    parser.parse_keyword("default")
    default = parser.parse_region()
    holder_at = parser._current_token.span.start
    regions, warps = [], []

    def argument():
        arg = parser.parse_argument()
        arg.location = parser.parse_optional_location()
        return arg

    while parser.parse_optional_keyword(f"partition{len(warps)}"):
        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
        parser.parse_keyword("num_warps")
        parser.parse_punctuation("(")
        warps.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
        parser.parse_punctuation(")")
        regions.append(parser.parse_region(args or None))
    parser.parse_punctuation(":")
    ft = parser.parse_type()
    if not isinstance(ft, FunctionType):
        parser.raise_error("expected a function type", at)
    ins = list(ft.inputs.data)
    if len(ins) != len(operands):
        parser.raise_error(f"{len(operands)} operands present, but expected {len(ins)}", at)
    values = [parser.resolve_operand(u, t) for u, t in zip(operands, ins)]
    holder = WarpSpecializePartitionsOp.create(regions=regions)
    parser.positions[holder] = holder_at
    holder.location = parser._default_loc(holder_at)
    props = {"partitionNumWarps": DenseArrayBase.from_list(i32, warps)}
    for name in ("partitionNumWarps",) + OPTIONAL_ARRAYS:
        if name in attrs:
            props[name] = attrs.pop(name)
    return op_type.create(operands=values, result_types=list(ft.outputs.data), properties=props, attributes=attrs,
                          regions=[default, Region(Block([holder]))])


def _print(op: WarpSpecializeOp, p) -> str:
    attrs = {**{k: v for k, v in op.properties.items() if k != "partitionNumWarps"}, **op.attributes}
    pad = "\n" + " " * p._indent
    text = "(" + ", ".join(p.value(v) for v in op.explicitCaptures) + ")"
    if attrs:
        text += " attributes" + p.attr_dict(attrs, set())
    text += pad + "default " + p.region(op.defaultRegion, entry_args=False)
    for i, (region, n) in enumerate(zip(op.partition_regions(), op.partitionNumWarps.get_values())):
        args = region.blocks.first.args if region.blocks else ()
        arg_text = ", ".join(f"{p.value(a)}: {p.type(a.type)}{p.trailing_loc(a.location, inline=True)}" for a in args)
        text += f"{pad}partition{i}({arg_text}) num_warps({n}) " + p.region(region, entry_args=False)
    return text + " : " + p.function_type([v.type for v in op.explicitCaptures], [r.type for r in op.results])


register("ttg.warp_specialize", Custom(_parse, _print))

WARP_SPECIALIZE_OPS = [WarpSpecializeOp, WarpSpecializePartitionsOp, WarpYieldOp, WarpReturnOp]
