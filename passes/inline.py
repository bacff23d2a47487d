"""inline: replace each `tt.call` to a `tt.func` of the module with a copy of the callee's body (MLIR's
`-inline` with Triton's inliner interface).

Functions are processed bottom-up over the call graph (callees before their callers), so a callee is
copied once its own calls are already inlined. The copy maps the callee's entry-block arguments to the
call's operands, and its ops get MLIR's inlined locations: `callsite(<callee loc> at <call loc>)`, with
callee locations that are call sites themselves re-stacked (`callsite(a at callsite(b at call))`) as
MLIR's `stackLocations` does.

- A callee with a single block: its ops go right before the call and the `tt.return` operands replace
  the call's results.
- A callee with several blocks (`cf.br` / `cf.cond_br`, several returns): the caller's block is split
  after the call; the callee's entry block joins the caller's block, its other blocks go between the two
  halves, each `tt.return` becomes `cf.br ^continuation(values)`, and the continuation block takes the
  results as arguments.

Only the blocks reachable from the callee's entry are copied: the `^bb1:  // no predecessors` blocks the
frontend leaves after a `tt.return` are dead (MLIR's inliner canonicalizes callees before inlining them,
which removes those blocks).

Private functions (with a body) that nothing refers to are erased, as MLIR's inliner erases dead callables:
one nothing refers to when its turn comes (bottom-up), and one inlined at its last reference (MLIR moves its
body into that caller). References count from every function body, so a private function referred to only by
another function erased this way stays (for `-symbol-dce`). Public functions and declarations always stay.

Calls left in place: calls to declarations, to functions marked `noinline = true`, to functions on a
call-graph cycle (recursion, direct or mutual), calls whose operand or result types differ from the
callee's signature, and calls of a multi-block callee from inside a region that must keep a single block
(`scf.for`, `scf.if`, `scf.while`, `tt.reduce`, ...): like MLIR, which would need `scf.execute_region`
there, such a call stays. The regions of a `ttg.warp_specialize` (its default region and its partitions,
which are isolated from above) may hold several blocks: calls in them are inlined like calls at function
level, and constants the default pipeline makes in a partition stay in that partition.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.dialects.builtin import CallSiteLoc, IntegerAttr, UnknownLoc, i1
from xdsl.ir import Attribute, Block, Operation, SSAValue, SSAValues
from xdsl.traits import SymbolOpInterface, SymbolTable

from ttc.ir import tt
from ttc.ir.dialects import prebuilt
from ttc.ir.warp_specialize import WarpSpecializeOp, WarpSpecializePartitionsOp
from ttc.opt.passmanager import Pass, option


def stack_location(callee: Attribute, caller: Attribute) -> Attribute:
    """The location of an op inlined from `callee` at a call located at `caller` (both locations already, so
    the call sites are made without xDSL's parameter checks: `prebuilt`)."""
    frames = []
    while isinstance(callee, CallSiteLoc):
        frames.append(callee.callee)
        callee = callee.caller
    loc = prebuilt(CallSiteLoc, callee, caller)
    for frame in reversed(frames):
        loc = prebuilt(CallSiteLoc, frame, loc)
    return loc


def _stacked(loc: Attribute, caller: Attribute, memo: dict) -> Attribute:
    """`stack_location(loc, caller)`, made once per location at a call: `memo` maps id(loc) to (loc, the stacked
    location) (holding loc keeps its id its own). Call-site frames stack one at a time
    (`callsite(a at rest)` -> `callsite(a at <rest stacked>)`), so the frames the ops of a callee share
    (those of the calls it inlined) are stacked once; equal attributes print the same."""
    hit = memo.get(id(loc))
    if hit is not None:
        return hit[1]
    new = _new_callsite(CallSiteLoc)
    if loc.__class__ is CallSiteLoc:
        _set(new, "callee", loc.callee)
        _set(new, "caller", _stacked(loc.caller, caller, memo))
    else:
        _set(new, "callee", loc)
        _set(new, "caller", caller)
    memo[id(loc)] = (loc, new)
    return new


# `prebuilt(CallSiteLoc, callee, caller)` spelled out for `_stacked`, which makes one per op and inlining level
# (sort: ~27 M instructions of its make-ttir over calling `prebuilt`); test_inline_schedule checks that both make
# the same locations
_new_callsite, _set = CallSiteLoc.__new__, object.__setattr__


def _relocate(op: Operation, caller: Attribute, memo: dict) -> None:
    """Stack the locations of `op`, its nested ops and their block arguments on `caller` (`_stacked`)."""
    def stacked(loc: Attribute) -> Attribute:
        return _stacked(loc, caller, memo)

    for child in op.walk():
        child.location = stacked(child.location)
        for region in child.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.location = stacked(arg.location)


def _splice_before(first: Operation, last: Operation, anchor: Operation) -> None:
    """Move the ops `first`..`last` of one block before `anchor` in another, as MLIR's block splice does: the
    two linked lists are re-linked once (xDSL moves an op at a time, each insertion walking up from the block
    to the module to check that the op is no ancestor of it; a callee's body never is one of its caller).
    The ops' `parent` is left to the caller to set (it walks them anyway)."""
    src = first.parent
    before, after = first._prev_op, last._next_op
    if before is None:
        src._first_op = after
    else:
        before._next_op = after
    if after is None:
        src._last_op = before
    else:
        after._prev_op = before
    prev = anchor._prev_op
    first._prev_op = prev
    if prev is None:
        anchor.parent._first_op = first
    else:
        prev._next_op = first
    last._next_op = anchor
    anchor._prev_op = last


def _reset_operands(op: Operation, values: dict) -> None:
    """`op.operands = [values.get(v, v) for v in op.operands]`, `values` keyed by id (xDSL's SSAValue hashes
    through a Python method): each use leaves its value's use list and joins
    the front of its new value's, in operand order, as the setter does (which drops every use and then adds
    new ones: the lists end in the same order, a value's own uses being re-added in the same order either way);
    the op's Use objects are kept."""
    old = op._operands
    if not old:
        return
    new = SSAValues([values.get(id(v), v) for v in old])
    for v, w, use in zip(old, new, op._operand_uses):
        v.remove_use(use)
        w.add_use(use)
    op._operands = new


def resolve_callee(call: tt.CallOp, tables: dict | None = None) -> tt.FuncOp | None:
    """The `tt.func` a call refers to, or None when the symbol is missing or is something else. `tables`, when
    given, caches each symbol table's {name: first op of that name} (xDSL's lookup scans the table's ops on every
    call): the pass adds and removes no symbol while it looks them up."""
    callee = call.callee
    if tables is None or callee.nested_references.data:
        try:
            found = SymbolTable.lookup_symbol(call, callee)
        except ValueError:
            return None
        return found if isinstance(found, tt.FuncOp) else None
    anchor = call
    while anchor is not None and not anchor.has_trait(SymbolTable):
        anchor = anchor.parent_op()
    if anchor is None:
        return None
    table = tables.get(id(anchor))
    if table is None:
        table = tables[id(anchor)] = {}  # the anchor stays in the IR: its id stays its
        for o in anchor.regions[0].block.ops:
            if (sym := o.get_trait(SymbolOpInterface)) is not None and (name := sym.get_sym_attr_name(o)) is not None:
                table.setdefault(name.data, o)
    found = table.get(callee.root_reference.data)
    return found if isinstance(found, tt.FuncOp) else None


def _enclosing_func(op: Operation) -> tt.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, tt.FuncOp):
        parent = parent.parent_op()
    return parent


# ----------------------------------------------------------------------------- call graph


def _call_graph(funcs: list[tt.FuncOp], tables: dict | None = None) -> dict[tt.FuncOp, list[tt.FuncOp]]:
    """Each function -> the functions it calls, in first-call order."""
    graph: dict[tt.FuncOp, list[tt.FuncOp]] = {f: [] for f in funcs}
    for f in funcs:
        for op in f.walk():
            if isinstance(op, tt.CallOp):
                callee = resolve_callee(op, tables)
                if callee is not None and callee in graph and callee not in graph[f]:
                    graph[f].append(callee)
    return graph


def recursive_functions(graph: dict[tt.FuncOp, list[tt.FuncOp]]) -> set[tt.FuncOp]:
    """Functions on a call-graph cycle: in a strongly connected component of several functions, or calling
    themselves (Tarjan's algorithm, iterative)."""
    index: dict[tt.FuncOp, int] = {}
    low: dict[tt.FuncOp, int] = {}
    on_stack: set[tt.FuncOp] = set()
    stack: list[tt.FuncOp] = []
    found: set[tt.FuncOp] = set()
    for root in graph:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(graph[root]))]
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.update(component)
    return found


def bottom_up(graph: dict[tt.FuncOp, list[tt.FuncOp]]) -> list[tt.FuncOp]:
    """The functions in post-order of the call graph: callees before callers."""
    order: list[tt.FuncOp] = []
    seen: set[tt.FuncOp] = set()
    for root in graph:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter(graph[root]))]
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in seen:
                    seen.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
            else:
                work.pop()
                order.append(node)
    return order


# ----------------------------------------------------------------------------- inlining one call


def reachable_blocks(entry: Block) -> list[Block]:
    """The blocks reachable from `entry`, in reverse post-order (every block after its dominators)."""
    post: list[Block] = []
    seen = {entry}
    work = [(entry, iter(entry.last_op.successors if entry.last_op is not None else ()))]
    while work:
        block, succs = work[-1]
        for nxt in succs:
            if nxt not in seen:
                seen.add(nxt)
                work.append((nxt, iter(nxt.last_op.successors if nxt.last_op is not None else ())))
                break
        else:
            work.pop()
            post.append(block)
    return post[::-1]


def _is_noinline(func: tt.FuncOp) -> bool:
    attr = func.attributes.get("noinline")
    return isinstance(attr, IntegerAttr) and attr.type == i1 and bool(attr.value.data)


def inlinable_callee(call: tt.CallOp, recursive: set[tt.FuncOp], tables: dict | None = None) -> tt.FuncOp | None:
    """The callee to inline at `call`, or None when the call must stay (see the module docstring)."""
    callee = resolve_callee(call, tables)
    if callee is None or callee.is_declaration or callee in recursive or _is_noinline(callee):
        return None
    ft = callee.function_type
    if tuple(v.type for v in call.operands_) != tuple(ft.inputs.data):
        return None
    if tuple(r.type for r in call.results_) != tuple(ft.outputs.data):
        return None
    blocks = reachable_blocks(callee.body.blocks.first)
    if len(blocks) == 1:
        return callee if isinstance(blocks[0].last_op, tt.ReturnOp) else None
    # several blocks need a region that may hold a CFG: a function body or a region of a ttg.warp_specialize
    # (its default region, its partitions), not an scf/tt.reduce region
    return callee if isinstance(call.parent_op(), (tt.FuncOp, WarpSpecializeOp, WarpSpecializePartitionsOp)) else None


def inline_call(call: tt.CallOp, callee: tt.FuncOp, move: bool = False) -> bool:
    """Replace `call` with a copy of `callee`'s reachable blocks. With `move` (the callee's last reference, its
    body a single block), the ops themselves move, as MLIR moves the body of a callable inlined at its last
    use, and the callee is left with a bare `tt.return`: it must be erased. The moved ops get their operands
    anew in walk order, so every use list ends up as a copy's would (the greedy driver's worklists follow
    use lists). Returns whether the copy holds a `tt.call`."""
    loc = call.location
    remap = not isinstance(loc, UnknownLoc)
    blocks = reachable_blocks(callee.body.blocks.first)
    entry = blocks[0]
    values: dict[SSAValue, SSAValue] = dict(zip(entry.args, call.operands_))
    caller_block = call.parent_block()
    assert caller_block is not None
    block_map: dict[Block, Block] = {entry: caller_block}
    memo: dict = {}
    calls = False

    def relocate(op: Operation) -> None:
        """`op`'s locations (its nested ops' too) stacked on the call's."""
        if op.regions:
            _relocate(op, loc, memo)
        else:  # most ops: no walk
            op.location = _stacked(op.location, loc, memo)

    def copy(op: Operation) -> Operation:
        nonlocal calls
        new = op.clone(values, block_map)
        calls = calls or (any(isinstance(c, tt.CallOp) for c in new.walk()) if new.regions
                          else isinstance(new, tt.CallOp))
        if remap:
            relocate(new)
        return new

    if len(blocks) == 1:
        ret = entry.last_op
        if move and len(callee.body.blocks) == 1:
            results = [values.get(v, v) for v in ret.operands]
            ret.operands = ()
            by_id = {id(a): v for a, v in zip(entry.args, call.operands_)}
            op = entry.first_op
            if op is ret:  # nothing but the return
                op = call
            else:
                _splice_before(op, ret.prev_op, call)
            while op is not call:
                op.parent = caller_block
                if remap:
                    relocate(op)
                for child in op.walk() if op.regions else (op,):
                    _reset_operands(child, by_id)
                    calls = calls or isinstance(child, tt.CallOp)
                op = op._next_op
        else:
            for op in entry.ops:
                if op is ret:
                    break
                caller_block.insert_op_before(copy(op), call)
            results = [values.get(v, v) for v in ret.operands]
        for old, new in zip(call.results, results):
            old.replace_all_uses_with(new)
        caller_block.erase_op(call)
        return calls

    cont = caller_block.split_before(call.next_op, arg_types=[r.type for r in call.results])
    for old, new in zip(call.results, cont.args):
        old.replace_all_uses_with(new)
    region = caller_block.parent
    # new blocks (with their arguments) first, so that branches can refer to any of them
    for block in callee.body.blocks:
        if block is entry or block not in blocks:
            continue
        new_block = Block(arg_types=[a.type for a in block.args])
        for arg, new_arg in zip(block.args, new_block.args):
            new_arg.location = stack_location(arg.location, loc) if remap else arg.location
            new_arg.name_hint = arg.name_hint
            values[arg] = new_arg
        region.insert_block_before(new_block, cont)
        block_map[block] = new_block
    # then the ops, dominators first, so every value is copied before its uses
    returns = []
    for block in blocks:
        target = block_map[block]
        for op in block.ops:
            new = copy(op)
            if block is entry:
                target.insert_op_before(new, call)
            else:
                target.add_op(new)
            if isinstance(new, tt.ReturnOp):
                returns.append(new)
    caller_block.erase_op(call)
    for ret in returns:
        br = cf.BranchOp(cont, *ret.srcs)
        br.location = ret.location
        ret.parent_block().insert_op_before(br, ret)
        ret.parent_block().erase_op(ret)
    return calls


# ----------------------------------------------------------------------------- the pass


def _references(op: Operation, funcs: dict[str, tt.FuncOp]) -> list[tt.FuncOp]:
    """The functions the ops nested in `op` name (calls and any other symbol reference), once per reference."""
    from xdsl.dialects.builtin import SymbolRefAttr

    out = []
    for region in op.regions:
        for o in region.walk():
            for attrs in (o.properties, o.attributes):
                for a in attrs.values():
                    if isinstance(a, SymbolRefAttr) and not a.nested_references.data and a.root_reference.data in funcs:
                        out.append(funcs[a.root_reference.data])
    return out


def _forwarding_call(func: tt.FuncOp) -> tt.CallOp | None:
    """The call of a function whose body is one block of `%r... = tt.call @f(<its arguments, in order>)` and
    `tt.return %r...`, else None."""
    entry = func.body.blocks.first
    if entry is None or entry.next_block is not None:
        return None
    call = entry.first_op
    if not isinstance(call, tt.CallOp):
        return None
    ret = call.next_op
    args, results = entry.args, call.results
    if not isinstance(ret, tt.ReturnOp) or ret.next_op is not None or len(call.operands) != len(args) \
            or len(ret.operands) != len(results):
        return None
    if all(a is b for a, b in zip(call.operands, args)) and all(a is b for a, b in zip(ret.operands, results)):
        return call
    return None


def _discardable(func: tt.FuncOp) -> bool:
    """A private function with a body: MLIR's inliner erases it when nothing refers to it any more."""
    return func.sym_visibility is not None and func.sym_visibility.data == "private" and not func.is_declaration


def inline_calls(root: Operation, simplify=None, settled: dict | None = None) -> int:
    """Inline every inlinable call under `root`, callees first; returns how many calls were inlined.
    `simplify(func)`, when given, runs on each function before calls are inlined into it and again after, when
    any was (MLIR's inliner runs its default pipeline, the canonicalizer, around inlining, and not again where
    nothing was inlined) or when the first run did not say it reached a fixed point (its truthy result): a
    canonicalizer at its fixed point changes nothing in a function nothing touched since. Nor is it run again on
    a function that only forwards its arguments to one call and returns its results (`_forwarding_call`, as
    `tl.sort` and `tl.topk` do) once the callee, at its fixed point, is inlined there: the function's body is
    then the callee's op for op (its arguments for the callee's), which the canonicalizer, reading neither
    locations nor the enclosing function, leaves as it is. `settled`, when given, gets each function
    simplified (or so skipped): whether its final state is a fixed point. Dead private functions are erased at the
    end, as MLIR's inliner does (see the module docstring)."""
    funcs = [op for op in root.walk() if isinstance(op, tt.FuncOp)]
    tables: dict = {}
    graph = _call_graph(funcs, tables)
    recursive = recursive_functions(graph)
    by_name = {f.sym_name.data: f for f in funcs}
    uses = dict.fromkeys(funcs, 0)  # MLIR's CGUseList: references from function bodies
    for f in funcs:
        for g in _references(f, by_name):
            uses[g] += 1
    dead: list[tt.FuncOp] = []
    refs: dict[tt.FuncOp, list[tt.FuncOp]] = {}
    fixed_points = settled if settled is not None else {}  # function -> whether its final state is one
    count = 0
    for func in bottom_up(graph):
        if _discardable(func) and uses[func] == 0:
            dead.append(func)  # its own references still count: it goes at the end
            continue
        fixed = simplify(func) if simplify is not None else True
        forward = _forwarding_call(func) if simplify is not None else None
        forwarded = False  # whether `forward` was inlined with a callee at its fixed point, of one block
        before = count
        # a copied callee body holds only calls that could not be inlined in the callee; looping catches
        # any that can be inlined here anyway, and ends because no function on a cycle is ever copied. A call
        # left in place stays so (what decides it does not change), so the walk is repeated only when a copy
        # brought calls.
        rewalk = True
        while rewalk:
            calls = [op for op in func.walk() if isinstance(op, tt.CallOp)]
            done = 0
            rewalk = False
            for call in calls:
                callee = inlinable_callee(call, recursive, tables)
                if callee is None or callee is func:
                    continue
                body = refs.get(callee)
                if body is None:  # a callee's body is final once its turn (bottom-up) has passed
                    body = refs[callee] = _references(callee, by_name)
                if call is forward:
                    forwarded = bool(fixed_points.get(callee)) and len(reachable_blocks(callee.body.blocks.first)) == 1
                rewalk |= inline_call(call, callee, move=_discardable(callee) and uses[callee] == 1)
                done += 1
                uses[callee] -= 1
                for g in body:  # the copy refers to what the callee refers to
                    uses[g] += 1
                if _discardable(callee) and uses[callee] == 0:  # inlined at its last use: MLIR moves the body
                    dead.append(callee)
                    for g in body:
                        uses[g] -= 1
            count += done
        if simplify is not None and (count > before or not fixed):
            if count == before + 1 and forwarded:
                fixed = True  # the callee's body at its fixed point (see the docstring)
            else:
                fixed = simplify(func)
        if simplify is not None:
            fixed_points[func] = fixed
    for f in dead:
        f.detach()
        f.erase()
    return count


@dataclass(frozen=True)
class Inliner(Pass):
    """Inline calls to functions of the module."""

    name = "inline"
    display = "Inliner"
    summary = "Inline function calls"

    default_pipeline: str = option("canonicalize", "The pipeline run on each function around inlining: canonicalize, or empty for none")

    def __post_init__(self):
        if self.default_pipeline not in ("canonicalize", ""):
            raise ValueError(f"option 'default-pipeline' must be 'canonicalize' or empty, got '{self.default_pipeline}'")

    def apply(self, ctx, op) -> None:
        self.inline(op)

    def inline(self, op) -> bool:
        """`apply`; True when the default pipeline left every function still in the module at the
        canonicalizer's fixed point (its last run on it reached one), so that `canonicalize` right after
        changes nothing there."""
        if self.default_pipeline != "canonicalize":
            inline_calls(op)
            return False
        from ttc.passes.canonicalize import Canonicalize

        last: dict = {}
        inline_calls(op, lambda func: Canonicalize().run(func), last)
        # every function is simplified at its turn but those erased as dead (detached)
        return all(settled for func, settled in last.items() if func.parent is not None)
