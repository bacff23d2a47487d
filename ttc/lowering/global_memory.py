"""Global memory: `tt.addptr`, `tt.load` and `tt.store`, vectorized and predicated as Triton does.

Pointer arithmetic is a `getelementptr` on the pointee type. Loads and stores are inline PTX
(`@%p ld.global.v4.b32 {...}, [addr + 0];`), one instruction per group of registers that hold consecutive
addresses: the group's width is what the axis analysis proves (contiguity and divisibility of the pointers
along the layout's fastest dimension, at most 128 bits), as in Triton's `getVectorSize`. Elements narrower than
32 bits are packed into 32-bit words (`v4.b32` carries eight f16). Masked-off elements of a load take `other`
(zero without it) through `mov`s ahead of the predicated load.

As Triton, the width is also narrowed to the mask's constancy (a `n` without a divisibility hint gives 32-bit
accesses), so one compare predicates each access. Stores are made by one owner of each element only (replicated
layouts hold copies), and a scalar store by thread 0.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ttc.analysis.axis_info import access_width, mask_width
from ttc.ir.layout_utils import get_order
from ttc.ir.tt import CACHE, EVICT
from ttc.ir.types import elt, encoding, shape_of
from ttc.lowering import nvvm
from ttc.lowering.context import map_elementwise
from ttc.lowering.convert import rearrange_bytes
from ttc.lowering.registry import lower_op, lowering
from ttc.lowering.types import bits_of, i8, i32, llvm_type

_LOAD_CACHE = {CACHE["ca"]: ".ca", CACHE["cg"]: ".cg", CACHE["cs"]: ".cs", CACHE["cv"]: ".cv"}
_STORE_CACHE = {CACHE["wb"]: ".wb", CACHE["cg"]: ".cg", CACHE["cs"]: ".cs", CACHE["wt"]: ".wt"}
_EVICT = {EVICT["evict_first"]: ".L1::evict_first", EVICT["evict_last"]: ".L1::evict_last"}
_REG = {8: "h", **nvvm.REG}  # 8-bit values in 16-bit registers


def pointee_type(ptr_type) -> ir.Type:
    return llvm_type(elt(ptr_type).pointee)


@lowering("tt.addptr")
def _addptr(ctx, op):
    t = pointee_type(op.ptr.type)
    if isinstance(t, ir.IntType) and t.width == 1:
        t = i8
    map_elementwise(ctx, op, lambda p, off: ctx.b.gep(p, [off], source_etype=t))


# ---------------------------------------------------------------------------- packing elements into words


def _to_int(b, v: ir.Value) -> ir.Value:
    t = v.type
    if isinstance(t, ir.IntType):
        return b.zext(v, i8) if t.width == 1 else v
    if isinstance(t, ir.PointerType):
        return b.ptrtoint(v, ir.IntType(64))
    return b.bitcast(v, ir.IntType(bits_of(t)))


def _from_int(b, v: ir.Value, t: ir.Type) -> ir.Value:
    if isinstance(t, ir.IntType):
        return b.icmp_unsigned("!=", v, ir.Constant(v.type, 0)) if t.width == 1 else v
    if isinstance(t, ir.PointerType):
        return b.inttoptr(v, t)
    return b.bitcast(v, t)


def _word_shape(n: int, bits: int) -> tuple[int, int]:
    """(words, bits per word) for an access of `n` elements of `bits` bits."""
    total = n * bits
    width = max(32, bits) if total >= 32 else total
    return total // width, width


def _pack(b, elems: list[ir.Value], bits: int, width: int) -> list[ir.Value]:
    per = width // bits
    if bits == 16 and width == 32:  # a <2 x half> (bfloat, i16) vector: two f32 -> f16 truncations become one
        vt = ir.VectorType(elems[0].type, 2)  # cvt.rn.f16x2.f32, as Triton's packed conversions
        words = []
        for w in range(len(elems) // 2):
            vec = b.insert_element(ir.Constant(vt, ir.Undefined), elems[2 * w], ir.Constant(i32, 0))
            words.append(b.bitcast(b.insert_element(vec, elems[2 * w + 1], ir.Constant(i32, 1)), i32))
        return words
    ints = [_to_int(b, e) for e in elems]
    wt = ir.IntType(width)
    words = []
    for w in range(len(ints) // per):
        word = None
        for j in range(per):
            x = ints[w * per + j]
            x = b.zext(x, wt) if x.type.width < width else x
            if j:
                x = b.shl(x, ir.Constant(wt, j * bits))
            word = x if word is None else b.or_(word, x)
        words.append(word)
    if width == 8:  # bytes travel in 16-bit registers
        words = [b.zext(w, ir.IntType(16)) for w in words]
    return words


def _unpack(b, words: list[ir.Value], bits: int, width: int, t: ir.Type) -> list[ir.Value]:
    per = width // bits
    if bits == 16 and width == 32:  # one `mov.b32 {lo, hi}` per word, not a shift and two truncations
        vt = ir.VectorType(t, 2)
        return [b.extract_element(b.bitcast(w, vt), ir.Constant(i32, j)) for w in words for j in range(2)]
    et = ir.IntType(bits)
    out = []
    for word in words:
        if width == 8:
            word = b.trunc(word, i8)
        for j in range(per):
            x = b.lshr(word, ir.Constant(word.type, j * bits)) if j else word
            x = b.trunc(x, et) if word.type.width > bits else x
            out.append(_from_int(b, x, t))
    return out


def _reg_type(width: int) -> ir.IntType:
    return ir.IntType(16 if width == 8 else width)


# ---------------------------------------------------------------------------- vector width


def vector_width(ctx, ptr_value, ll, bits: int) -> tuple[int, int]:
    """(elements per access allowed by the pointers, the fastest dimension) for a tensor of pointers."""
    order0 = get_order(encoding(ptr_value.type))[0]
    return access_width(ctx.axis, ptr_value, order0, ll.contiguous_regs(order0), bits), order0


# ---------------------------------------------------------------------------- what loads and stores share


def _mods(op, caches: dict) -> str:
    """The state space and cache modifiers of a load (`_LOAD_CACHE`) or store (`_STORE_CACHE`)."""
    if op.name == "tt.load" and op.isVolatile.value.data:
        return ".volatile.global"
    cache, evict = op.cache.value.data, op.evict.value.data
    return ".global" + (caches[cache] if cache in caches else _EVICT.get(evict, ""))


def _operands(ctx, op, value, what: str):
    """(element type, its bits, pointers, mask bits) of a load or store."""
    if isinstance(elt(op.ptr.type).pointee, TensorType):
        raise ctx.error(op, f"{what} through block pointers are not supported (run the rewrite-tensor-pointer pass)")
    t = ctx.type_of(value.type, op)
    ptrs, masks = ctx.get(op.ptr), ctx.get(op.mask) if op.mask is not None else None
    if isinstance(op.ptr.type, TensorType) and not isinstance(ptrs, list):
        # a tensor kernel parameter is one value for every element (test kernels use them as opaque inputs)
        raise ctx.error(op, f"{what} through a tensor of pointers that is a kernel parameter: the pointers have no "
                            "per-element values (make them in the kernel with tt.splat and tt.addptr)")
    if masks is not None and isinstance(op.mask.type, TensorType) and not isinstance(masks, list):
        masks = [masks] * len(ptrs)
    return t, bits_of(t), ptrs, masks


def _vector_groups(ctx, op, ll, bits: int, masks):
    """The accesses of a load or store, a group of registers holding consecutive addresses at a time:
    `(r, n, pred)` for the `n` registers from `r`, `pred` their mask bit (None when unmasked). As Triton's
    `getVectorSize` with the mask's alignment: a group is no wider than the mask is provably uniform, so its first
    element's compare is the group's predicate (one compare per group; the others are dead)."""
    vec, order0 = vector_width(ctx, op.ptr, ll, bits)
    if masks is not None:
        vec = mask_width(ctx.axis, op.mask, order0, vec)
    for r in ll.unique_regs:
        if r % vec == 0:
            yield r, vec, masks[r] if masks is not None else None


# ---------------------------------------------------------------------------- loads


def _load_asm(ctx, ptr: ir.Value, n: int, bits: int, pred: ir.Value | None, other_words, mods: str):
    """Words loaded by one predicated `ld.global` of `n` elements (masked off: `other_words`, or zeros)."""
    words, width = _word_shape(n, bits)
    rt = _reg_type(width)
    reg = _REG[width]
    outs = ", ".join(f"${i}" for i in range(words))
    lines = []
    args = [ptr]
    cons = [f"={reg}"] * words + ["l"]
    if pred is not None:
        args.append(pred)
        cons.append("b")
        for i in range(words):
            if other_words is not None:
                lines.append(f"mov.b{width if width > 8 else 16} ${i}, ${words + 2 + i};")
            else:
                lines.append(f"mov.b{width if width > 8 else 16} ${i}, 0;")
        if other_words is not None:
            args += other_words
            cons += [reg] * words
    vec = f".v{words}" if words > 1 else ""
    guard = f"@${words + 1} " if pred is not None else ""
    lines.append(f"{guard}ld{mods}{vec}.b{width} {{ {outs} }}, [ ${words} + 0 ];")
    ret = rt if words == 1 else ir.LiteralStructType([rt] * words)
    res = nvvm.asm(ctx.b, "\n\t".join(lines), ",".join(cons), ret, args)
    return [res] if words == 1 else [ctx.b.extract_value(res, i) for i in range(words)]


@lowering("tt.load")
def _load(ctx, op):
    t, bits, ptrs, masks = _operands(ctx, op, op.result, "loads")
    b = ctx.b
    mods = _mods(op, _LOAD_CACHE)
    others = ctx.get(op.other) if op.other is not None else None

    def load(i: int, n: int, pred) -> list[ir.Value]:
        """`n` elements from register `i` under `pred()` (made after `others` are packed)."""
        _, width = _word_shape(n, bits)
        oth = _pack(b, others[i:i + n], bits, width) if others is not None else None
        return _unpack(b, _load_asm(ctx, ptrs[i], n, bits, pred(), oth, mods), bits, width, t)

    if not isinstance(op.result.type, TensorType):
        ptrs, others = [ptrs], None if others is None else [others]
        ctx.set(op.result, load(0, 1, lambda: masks)[0])
        return
    ll = ctx.layout(op.ptr.type, op)
    n = ll.num_regs
    if others is not None and not isinstance(others, list):
        others = [others] * n
    out: list = [None] * n
    for r, vec, pred in _vector_groups(ctx, op, ll, bits, masks):
        out[r:r + vec] = load(r, vec, lambda: pred)
    for r in range(n):  # replicated registers repeat the first register holding their element
        if out[r] is None:
            out[r] = out[ll.first_reg[ll.reg_coords[r]]]
    ctx.set(op.result, out)


# ---------------------------------------------------------------------------- stores


def _store_asm(ctx, ptr, elems: list[ir.Value], bits: int, pred: ir.Value | None, mods: str) -> None:
    words, width = _word_shape(len(elems), bits)
    if width == 8:  # a byte as it is ("c": an i8 in a 16-bit register, as Triton's), not widened by an `and`
        packed, reg = [_to_int(ctx.b, e) for e in elems], "c"
    else:
        packed, reg = _pack(ctx.b, elems, bits, width), _REG[width]
    vals = ", ".join(f"${i}" for i in range(words))
    guard = f"@${words + 1} " if pred is not None else ""
    vec = f".v{words}" if words > 1 else ""
    text = f"{guard}st{mods}{vec}.b{width} [ ${words} + 0 ], {{ {vals} }};"
    args = packed + [ptr] + ([pred] if pred is not None else [])
    cons = [reg] * words + ["l"] + (["b"] if pred is not None else [])
    nvvm.asm(ctx.b, text, ",".join(cons), ir.VoidType(), args)


def _and(b, a, c):
    if a is None:
        return c
    if c is None:
        return a
    return b.and_(a, c)


_INDEX_OPS = {"tt.splat", "tt.expand_dims", "tt.broadcast", "arith.cmpi", "arith.addi", "arith.subi", "arith.muli",
              "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrui", "arith.shrsi", "arith.divsi",
              "arith.divui", "arith.remsi", "arith.remui", "arith.extsi", "arith.extui", "arith.trunci"}
# A store mask's index chain whose last tt.make_range is this many ops or more before the store is recomputed at
# it (sort_i32's top-k store: ~750 ops; 0 for every store helps libdevice_mod, 72 -> 56 registers, but takes matmul
# to 63 against Triton's 60). Stores fewer than _REMAT_SHARE ops after the last such store share its tid.x read
# (so their chains merge: sort's two adjacent stores); a longer gap gets its own (sort_i32: 57 registers shared
# with the stores before the top-k sort, 48 not). bench/NOTES.md, sort8.
_REMAT_AFTER = 200
_REMAT_SHARE = 20


def _rearranges(d) -> bool:
    """Whether a tt.expand_dims / tt.broadcast moves elements between threads (more than a register rename)."""
    if d.name == "tt.expand_dims":
        a = d.axis.value.data
        return bool(rearrange_bytes(d, d.src.type, d.result.type, lambda c: tuple(c[:a]) + tuple(c[a + 1:])))
    if d.name == "tt.broadcast":
        s, t = shape_of(d.src.type), shape_of(d.result.type)
        keep = [not (s[i] == 1 and t[i] != 1) for i in range(len(t))]
        return bool(rearrange_bytes(d, d.src.type, d.result.type,
                                    lambda c: tuple(x if k else 0 for x, k in zip(c, keep))))
    return False


def _index_chain(op, v, positions: dict) -> tuple | None:
    """The ops of `v`'s thread-index chain (from `tt.make_range`s through register-only shape ops and integer
    arithmetic, every one in `op`'s block) in block order, when its last `tt.make_range` is at least
    `_REMAT_AFTER` ops before `op`, with the block and `op`'s index in it; else None. The walk is iterative and
    decides each op once (shared subexpressions, deep chains); `positions` keeps each block's op indices, built
    once per block (once per store made the lowering quadratic in the block's length)."""
    block = op.parent_block()
    on_chain: dict = {}  # op (or a block argument's owner) -> whether a tt.make_range is above it in the chain
    stack = [(v.owner, False)]
    while stack:
        d, expanded = stack.pop()
        if d in on_chain:
            continue
        if (not isinstance(d, Operation) or d.parent_block() is not block
                or d.name not in _INDEX_OPS and d.name != "tt.make_range" or _rearranges(d)):
            on_chain[d] = False
        elif d.name == "tt.make_range":
            on_chain[d] = True
        elif not expanded:
            stack.append((d, True))
            stack.extend((o.owner, False) for o in d.operands if o.owner not in on_chain)
        else:
            on_chain[d] = any(on_chain[o.owner] for o in d.operands)
    if not on_chain[v.owner]:
        return None
    chain = [d for d, yes in on_chain.items() if yes]
    at = positions.get(block)
    if at is None:
        at = positions[block] = {o: i for i, o in enumerate(block.ops)}
    if at[op] - max(at[d] for d in chain if d.name == "tt.make_range") < _REMAT_AFTER:
        return None
    return sorted(chain, key=at.__getitem__), block, at[op]


def _rematerialized(ctx, op, v, lowered):
    """`v`'s lowered value (`lowered`, as the op's operands gave it), recomputed here from a fresh read of tid.x
    when it is a thread-index chain made long before `op` (`_index_chain`): the chain computed from `ctx.tid()`
    at the top of the kernel shares its intermediates with the code in between, so LLVM keeps them live until
    `op` (sort_i32: 9 registers)."""
    found = _index_chain(op, v, ctx.op_positions) if isinstance(v.owner, Operation) else None
    if found is None:
        return lowered
    chain, block, at = found
    last_block, last_at, key = ctx.fresh_reads
    if last_block is not block or at - last_at >= _REMAT_SHARE:
        key += 1
    ctx.fresh_reads = block, at, key
    saved = {r: ctx.values[r] for d in chain for r in d.results}
    ctx.tid_read = ctx.fresh_tid(key)
    try:
        for d in chain:
            lower_op(ctx, d)
        return ctx.get(v)
    finally:
        ctx.tid_read = None
        ctx.values.update(saved)


@lowering("tt.store")
def _store(ctx, op):
    _, bits, ptrs, masks = _operands(ctx, op, op.value, "stores")
    if op.mask is not None and isinstance(op.mask.type, TensorType):
        masks = _rematerialized(ctx, op, op.mask, masks)
    b = ctx.b
    mods = _mods(op, _STORE_CACHE)
    vals = ctx.get(op.value)
    if not isinstance(op.value.type, TensorType):
        first = b.icmp_unsigned("==", ctx.tid(), ir.Constant(i32, 0))
        _store_asm(ctx, ptrs, [vals], bits, _and(b, masks, first), mods)
        return
    ll = ctx.layout(op.ptr.type, op)
    if not isinstance(vals, list):
        vals = [vals] * ll.num_regs
    owner = ctx.owner_pred(ll)

    def store(i: int, n: int, pred) -> None:
        _store_asm(ctx, ptrs[i], vals[i:i + n], bits, _and(b, pred, owner), mods)

    for r, vec, pred in _vector_groups(ctx, op, ll, bits, masks):
        store(r, vec, pred)
