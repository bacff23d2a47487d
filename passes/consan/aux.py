"""The concurrency sanitizer's auxiliary state (Triton's TritonInstrument Utility.cpp), made at the start of the
kernel and made again, or passed, to each warp-specialize partition:

| state            | kept in        | type            | what                                                        |
| buffers          | tensor         | B x i64         | descriptor `(length << 32) | offset` of each (sub)buffer used |
| barriers         | tensor         | K x i64         | descriptor of each mbarrier                                 |
| barrierStates    | global scratch | K x i32         | phase (bit 0), initial count (bits 1-8), current (bits 9-16) |
| waiting          | global scratch | K x i32         | per base thread: waiting flag (bit 2t), phase (bit 2t+1)    |
| writeVisibility  | global scratch | B x i64         | threads that see the buffer's last write                    |
| readVisibility   | global scratch | B x 64 x i64    | per thread: threads whose reads of the buffer it sees       |
| writeTracking    | global scratch | B x K x i8      | the barriers that track a buffer's writes                   |
| readTracking     | global scratch | B x K x i64     | the reads a barrier tracks, per buffer                      |
| commits (3 kinds)| global scratch | B x 16 x i8     | outstanding cp.async / wgmma / TMA-store commits per thread |
| alias matrix     | tensor         | B x B x i1      | which buffers overlap                                       |
| lock             | global scratch | i32             | the critical section's lock                                 |

B and K are the shared / tensor memory buffers and the mbarriers the buffer-region analysis finds used
(`ttc.analysis.alias`), padded with (0, 0) to a power of two. Tensors are made per region (the kernel's body and
each partition) with a blocked layout that gives every thread the whole tensor. Descriptors and alias matrices are
made again at the start of each partition; scratch pointers and the lock become partition arguments.

Also here: the `Builder` the pass and the helpers place ops with (an insertion point, a location, and an optional
list that records the ops it inserts, for critical sections), and the scratch-memory pointer tensors
(`load_scratch`, `store_scratch`).
"""

from __future__ import annotations

from xdsl.dialects import cf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, i1, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttc.analysis.alias import RegionError, buffer_regions, used_regions
from ttc.frontend.builder import op_class
from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.enums import RMW, SCOPE, SEM
from ttc.ir.format import build_op
from ttc.ir.layout_utils import module_int, slice_of
from ttc.ir.layouts import BlockedEncoding, SliceEncoding
from ttc.ir.std import CMPI
from ttc.ir.tt import FuncOp
from ttc.ir.types import PointerType, elt, encoding, i1_like, shape_of, tensor
from ttc.ir.warp_specialize import WarpSpecializeOp, WarpSpecializePartitionsOp, lookup_num_warps

NUM_THREADS = 16
TMA_THREAD_OFFSET = NUM_THREADS
TC_THREAD_OFFSET = TMA_THREAD_OFFSET + NUM_THREADS
THREADS_BITMASK_SIZE = 64  # the next power of two above the 48 threads
SHARED, TENSOR = 0, 1  # tti's MemType
ASYNC_CP, WGMMA, TMA_STORE = 0, 1, 2  # commit kinds


class ConsanError(Exception):
    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def signed(value: int, width: int) -> int:
    """`value` as an APInt of `width` bits holds it, read back signed (how MLIR prints it)."""
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >> (width - 1) else value


class Builder:
    """Inserts ops before `anchor` in `block` (at the end when `anchor` is None), located at `loc`; when `listener`
    is a list, each inserted op is appended to it."""

    def __init__(self, loc: Attribute):
        self.loc, self.block, self.anchor, self.listener = loc, None, None, None

    def before(self, op: Operation) -> Builder:
        self.block, self.anchor = op.parent_block(), op
        return self

    def after(self, op: Operation) -> Builder:
        self.block, self.anchor = op.parent_block(), op.next_op
        return self

    def at_start(self, block: Block) -> Builder:
        self.block, self.anchor = block, block.first_op
        return self

    def at_end(self, block: Block) -> Builder:
        self.block, self.anchor = block, None
        return self

    @property
    def region(self) -> Region:
        return self.block.parent

    def insert(self, op: Operation) -> Operation:
        op.location = self.loc
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)
        if self.listener is not None:
            self.listener.append(op)
        return op

    def op(self, name: str, operands: list, type_: Attribute | None = None, props: dict | None = None):
        """The op `name` (operands per definition: a value, None or a list), its result (or the op if none)."""
        op = self.insert(build_op(op_class(name), operands, [] if type_ is None else [type_], props or {}))
        return op.results[0] if op.results else op

    # ------------------------------------------------------------------ constants
    def const(self, value: int, width: int) -> SSAValue:
        """`arith.constant value : iW` (MLIR's ConstantIntOp)."""
        t = IntegerType(width)
        return self.op("arith.constant", [], t, {"value": IntegerAttr(signed(value, width), t)})

    def const_tensor(self, value: int, t: Attribute) -> SSAValue:
        """A splat integer tensor constant (Triton's createConstIntTensor)."""
        w = elt(t).width.data
        return self.op("arith.constant", [], t, {"value": DenseIntOrFPElementsAttr.from_list(t, [signed(value, w)])})

    # ------------------------------------------------------------------ arith and tt
    def binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(f"arith.{name}", [a, b], a.type)

    def cmpi(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op("arith.cmpi", [a, b], i1_like(a.type), {"predicate": IntegerAttr(CMPI[pred], i64)})

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op("arith.select", [cond, a, b], a.type)

    def cast(self, name: str, v: SSAValue, t: Attribute) -> SSAValue:
        return self.op(f"arith.{name}", [v], t)

    def splat(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self.op("tt.splat", [v], t)

    def make_range(self, t: Attribute) -> SSAValue:
        return self.op("tt.make_range", [], t, {"start": IntegerAttr(0, i32), "end": IntegerAttr(shape_of(t)[0], i32)})

    def convert(self, v: SSAValue, enc: Attribute) -> SSAValue:
        return self.op("ttg.convert_layout", [v], tensor(shape_of(v.type), elt(v.type), enc))

    def expand_outer_sliced_dim(self, v: SSAValue) -> SSAValue:
        """Triton's expandOuterSlicedDim: undo the outermost slice of `v`'s layout with `tt.expand_dims`."""
        enc = encoding(v.type)
        if isinstance(enc, SliceEncoding):
            shape, dim = list(shape_of(v.type)), enc["dim"]
            shape.insert(dim, 1)
            v = self.op("tt.expand_dims", [v], tensor(shape, elt(v.type), enc["parent"]),
                        {"axis": IntegerAttr(dim, i32)})
        return v

    def or_reduce(self, v: SSAValue, axis: int) -> SSAValue:
        """`tt.reduce` of `v` along `axis` with `arith.ori`."""
        from ttc.ir.tt import ReduceOp

        t, e = v.type, elt(v.type)
        shape = list(shape_of(t))
        del shape[axis]
        rt = tensor(shape, e, slice_of(axis, encoding(t))) if shape else e
        body = Block(arg_types=[e, e])
        op = self.insert(ReduceOp.create(operands=[v], result_types=[rt], properties={"axis": IntegerAttr(axis, i32)},
                                         regions=[Region(body)]))
        inner = Builder(self.loc).at_end(body)
        inner.op("tt.reduce.return", [[inner.binary("ori", body.args[0], body.args[1])]])
        return op.results[0]

    def call(self, name: str, args: list[SSAValue], results: list[Attribute]):
        from xdsl.dialects.builtin import SymbolRefAttr

        op = self.insert(build_op(op_class("tt.call"), [list(args)], [list(results)], {"callee": SymbolRefAttr(name)}))
        return op.results[0] if op.results else op

    def branch(self, dest: Block) -> None:
        self.insert(cf.BranchOp(dest))

    def cond_branch(self, cond: SSAValue, then: Block, other: Block) -> None:
        self.insert(cf.ConditionalBranchOp(cond, then, [], other, []))


# ----------------------------------------------------------------------------- types and scratch memory


def region_num_warps(region: Region) -> int:
    """Triton's lookupNumWarps(Region *): a partition region's `num_warps(N)`, else that of the op holding it."""
    holder = region.parent_op()
    if isinstance(holder, WarpSpecializePartitionsOp):
        ws = holder.parent_op()
        return ws.partitionNumWarps.get_values()[list(holder.regions).index(region)]
    n = lookup_num_warps(holder)
    if n is None:
        raise ConsanError(holder, "is not contained within a context that specifies the number of warps")
    return n


def int_tensor_type(region: Region, shape: list[int], bits: int) -> Attribute:
    """Triton's getIntTensorType: an integer tensor of `shape` (rank 1 or 2) held whole by every thread of the
    region's warps (sizePerThread = shape, the 32 lanes and the warps along the last dimension); with several
    CTAs, 1-D tensors are laid out over them along dim 0, 2-D ones along dim 1."""
    warps = region_num_warps(region)
    ctas = module_int(region.parent_op(), "ttg.num-ctas", 1)
    cga = None
    if ctas > 1:
        bits_ = [1 << i for i in range(ctas.bit_length() - 1)]
        cga = [[b] for b in bits_] if len(shape) == 1 else [[0, b] for b in bits_]
    if len(shape) == 1:
        enc = BlockedEncoding.make(sizePerThread=[shape[0]], threadsPerWarp=[32], warpsPerCTA=[warps], order=[0],
                                   CGALayout=cga)
    else:
        enc = BlockedEncoding.make(sizePerThread=list(shape), threadsPerWarp=[1, 32], warpsPerCTA=[1, warps],
                                   order=[0, 1], CGALayout=cga)
    return tensor(list(shape), IntegerType(bits), enc)


def single_dim_slice(enc: Attribute, dim: int) -> Attribute:
    """Triton's getSingleDimSliceEncoding: `enc` sliced along every dimension but `dim` (innermost slice first)."""
    out = enc
    for i in range(len(enc["order"])):
        if i != dim:
            out = slice_of(i, out)
    return out


def _pointer_tensor(b: Builder, base: SSAValue, t: Attribute) -> SSAValue:
    """Triton's createPointerTensor: `base` + the element offsets of a tensor of type `t`, dim 0 fastest."""
    shape, enc = list(shape_of(t)), encoding(t)
    ptrs = b.splat(base, tensor(shape, base.type, enc))
    offsets_t = tensor(shape, i32, enc)
    stride = 1
    for i, n in enumerate(shape):
        range_t = tensor([n], i32, single_dim_slice(enc, i))
        offs = b.binary("muli", b.make_range(range_t), b.const_tensor(stride, range_t))
        while isinstance(encoding(offs.type), SliceEncoding):
            offs = b.expand_outer_sliced_dim(offs)
        if list(shape_of(offs.type)) != shape:
            offs = b.op("tt.broadcast", [offs], offsets_t)
        ptrs = b.op("tt.addptr", [ptrs, offs], ptrs.type)
        stride *= n
    return ptrs


def store_scratch(b: Builder, base: SSAValue, value: SSAValue, t: Attribute) -> None:
    b.op("tt.store", [_pointer_tensor(b, base, t), value, None])


def load_scratch(b: Builder, base: SSAValue, t: Attribute) -> SSAValue:
    return b.op("tt.load", [_pointer_tensor(b, base, t), None, None], t)


# ----------------------------------------------------------------------------- the state, per region


class RegionMap(dict):
    """Region (the kernel's body or a partition) -> (value, type) of one piece of auxiliary state."""

    def at(self, op: Operation) -> tuple[SSAValue, Attribute]:
        return self[enclosing_region(op)]


def entry_point(module: Operation) -> FuncOp:
    """The kernel: the module's one public `tt.func`."""
    funcs = [op for op in module.body.block.ops if isinstance(op, FuncOp)
             and (op.sym_visibility is None or op.sym_visibility.data == "public")]
    if len(funcs) != 1:
        raise ConsanError(module, f"expected exactly one public function, found {len(funcs)}")
    return funcs[0]


def enclosing_region(op: Operation) -> Region:
    """Where `op`'s auxiliary state lives (Triton's getEnclosingParitionOrFunctionRegion): its partition region,
    or the kernel's body (a default region counts as the region around its `ttg.warp_specialize`)."""
    region = op.parent_region()
    while region is not None:
        holder = region.parent_op()
        if isinstance(holder, WarpSpecializeOp):
            return enclosing_region(holder) if region is holder.defaultRegion else region
        if isinstance(holder, WarpSpecializePartitionsOp):
            return region
        if isinstance(holder, FuncOp):
            module = holder.parent_op()
            if entry_point(module) is not holder:
                raise ConsanError(op, "Concurrency sanitizer supports only one instrumented function in the module")
            return region
        region = holder.parent_region()
    raise ConsanError(op, "expected to find an enclosing partition or function region")


def _padded(regions) -> list[tuple[int, int]]:
    """The sorted regions padded with (0, 0) to a power of two (llvm::NextPowerOf2(n - 1))."""
    out = sorted(regions)
    if out:
        out += [(0, 0)] * ((1 << (len(out) - 1).bit_length()) - len(out))
    return out


def _alias_matrix(regions) -> list[list[int]]:
    """m[i][j] = 1 when regions i and j (both non-empty) overlap."""
    n = len(regions)
    m = [[0] * n for _ in range(n)]
    for i, (si, li) in enumerate(regions):
        for j, (sj, lj) in enumerate(regions):
            if li and lj and si < sj + lj and sj < si + li:
                m[i][j] = 1
    return m


def _ops_present(module: Operation, names: tuple[str, ...]) -> bool:
    return any(op.name in names for op in module.walk())


class AuxData:
    """The auxiliary state of a module's kernel, per region (Triton's AuxDataMap)."""

    def __init__(self):
        self.buffers = [RegionMap(), RegionMap()]
        self.barriers, self.barrier_states, self.waiting, self.lock = RegionMap(), RegionMap(), RegionMap(), RegionMap()
        self.write_visibility = [RegionMap(), RegionMap()]
        self.read_visibility = [RegionMap(), RegionMap()]
        self.write_tracking = [RegionMap(), RegionMap()]
        self.read_tracking = [RegionMap(), RegionMap()]
        self.alias_matrices = [RegionMap(), RegionMap()]
        self.commits = [RegionMap(), RegionMap(), RegionMap()]

    def populate(self, module: Operation) -> None:
        """Make the state at the start of the kernel and hand it to its warp-specialize partitions (Triton's
        populateAndPassToWarpSpecialize), in Triton's order."""
        try:
            used = used_regions(module, buffer_regions(module))
        except RegionError as e:
            raise ConsanError(e.op, str(e)) from None
        bufs = [_padded(used["shared"]), _padded(used["tensor"])]
        bars = _padded(used["barrier"])
        func = entry_point(module)
        entry = func.body
        self.func = func
        b = Builder(func.location).at_start(entry.blocks.first)
        for mem in (SHARED, TENSOR):
            regions = bufs[mem]
            if not regions:
                continue
            self.buffers[mem][entry] = _descriptors(b, mem, regions)
            self._remake_in_partitions(self.buffers[mem], lambda pb, mem=mem, r=regions: _descriptors(pb, mem, r))
            matrix = _alias_matrix(regions)
            self.alias_matrices[mem][entry] = _alias_tensor(b, matrix)
            self._remake_in_partitions(self.alias_matrices[mem], lambda pb, m=matrix: _alias_tensor(pb, m))
            n = len(regions)
            self._state(b, self.write_visibility[mem], [n], 64)
            self._state(b, self.read_visibility[mem], [n, THREADS_BITMASK_SIZE], 64)
        if bars:
            self.barriers[entry] = _descriptors(b, SHARED, bars)
            self._remake_in_partitions(self.barriers, lambda pb: _descriptors(pb, SHARED, bars))
            k = len(bars)
            self._state(b, self.barrier_states, [k], 32)
            self._state(b, self.waiting, [k], 32)
            for mem in (SHARED, TENSOR):
                if bufs[mem]:
                    self._state(b, self.write_tracking[mem], [len(bufs[mem]), k], 8)
                    self._state(b, self.read_tracking[mem], [len(bufs[mem]), k], 64)
        ptr = PointerType(i32)
        lock = b.op("ttg.global_scratch_alloc", [], ptr, {"nbytes": IntegerAttr(4, i32), "alignment": IntegerAttr(4, i32)})
        zero = b.const(0, 32)
        b.op("tt.atomic_rmw", [lock, zero, None], i32, {"atomic_rmw_op": IntegerAttr(RMW["exch"], i32),
                                                         "sem": IntegerAttr(SEM["acq_rel"], i32),
                                                         "scope": IntegerAttr(SCOPE["gpu"], i32)})
        self.lock[entry] = (lock, ptr)
        self._pass_to_partitions(self.lock, lock, ptr)
        for kind, names in ((ASYNC_CP, ("ttg.async_copy_global_to_local", "ttg.async_commit_group", "ttg.async_wait")),
                            (WGMMA, ("ttng.warp_group_dot", "ttng.warp_group_dot_wait")),
                            (TMA_STORE, ("ttng.async_tma_copy_local_to_global", "ttng.async_tma_store_wait"))):
            if _ops_present(module, names) and bufs[SHARED]:
                self._state(b, self.commits[kind], [len(bufs[SHARED]), NUM_THREADS], 8)

    def _state(self, b: Builder, table: RegionMap, shape: list[int], bits: int) -> None:
        """A zero-initialised scratch table (Triton's createZeroInitStateTensor), passed to the partitions."""
        entry = self.func.body
        t = int_tensor_type(entry, shape, bits)
        zeros = b.const_tensor(0, t)
        nbytes = bits // 8
        for n in shape:
            nbytes *= n
        ptr_t = PointerType(IntegerType(bits))
        ptr = b.op("ttg.global_scratch_alloc", [], ptr_t, {"nbytes": IntegerAttr(nbytes, i32),
                                                           "alignment": IntegerAttr(bits // 8, i32)})
        store_scratch(b, ptr, zeros, t)
        table[entry] = (ptr, t)
        self._pass_to_partitions(table, ptr, t)

    def _ws_ops(self) -> list[WarpSpecializeOp]:
        return [op for op in self.func.walk() if isinstance(op, WarpSpecializeOp)]

    def _pass_to_partitions(self, table: RegionMap, value: SSAValue, t: Attribute) -> None:
        """Capture `value` in every `ttg.warp_specialize` of the kernel: a new argument of each partition, whose
        tensor type (of the table the pointer points to) is made for that partition's warps."""
        for ws in self._ws_ops():
            ws.operands = [*ws.operands, value]
            for region in ws.partition_regions():
                block = region.blocks.first
                arg = block.insert_arg(value.type, len(block.args))
                pt = int_tensor_type(region, list(shape_of(t)), elt(t).width.data) if shape_of(t) else t
                table[region] = (arg, pt)

    def _remake_in_partitions(self, table: RegionMap, make) -> None:
        """Make the value again at the start of every partition of the kernel's `ttg.warp_specialize` ops."""
        for ws in self._ws_ops():
            for region in ws.partition_regions():
                table[region] = make(Builder(ws.location).at_start(region.blocks.first))


def _descriptors(b: Builder, mem: int, regions) -> tuple[SSAValue, Attribute]:
    """`tti.experimental_buffer_descriptors` of `regions` (Triton's createBufferDescriptorsTensor)."""
    from xdsl.dialects.builtin import DenseArrayBase

    t = int_tensor_type(b.region, [len(regions)], 64)
    v = b.op("tti.experimental_buffer_descriptors", [], t, {
        "offsets": DenseArrayBase.from_list(i32, [signed(o, 32) for o, _ in regions]),
        "lengths": DenseArrayBase.from_list(i32, [signed(n, 32) for _, n in regions]),
        "memType": IntegerAttr(mem, i32)})
    return v, t


def _alias_tensor(b: Builder, matrix: list[list[int]]) -> tuple[SSAValue, Attribute]:
    t = int_tensor_type(b.region, [len(matrix), len(matrix)], 1)
    value = DenseIntOrFPElementsAttr.from_list(t, [x for row in matrix for x in row])
    return b.op("arith.constant", [], t, {"value": value}), t


def consan_error(e: ConsanError) -> CompileError:
    return CompileError(at_op(e.op, None, str(e)))
