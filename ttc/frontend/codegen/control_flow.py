"""Control flow: `if` (folded when the condition is a constexpr, `scf.if` otherwise, or branches between blocks
when a branch returns), conditional expressions, `for` over `range`/`tl.range` (`scf.for`, loop-carried
variables found by a dry run of the body, as Triton does), `tl.static_range` (unrolled) and `while`
(`scf.while`).
"""

from __future__ import annotations

import ast
import contextlib

from xdsl.dialects.builtin import IntegerAttr, UnitAttr, i32
from xdsl.ir import Block, Region

from ttc.frontend import dtypes as T
from ttc.frontend.errors import LanguageError, UnsupportedError
from ttc.frontend.language.iterators import PY_RANGE, TL_RANGE, TL_STATIC_RANGE, RangeIterator, StaticRangeIterator
from ttc.frontend.values import Constexpr, LangTuple, Tensor, handles_of, rebuild, unwrap


def _contains_return(node: ast.If) -> bool:
    for stmt in node.body + node.orelse:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Return):
                return True
    return False


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _is_value(v) -> bool:
    return isinstance(v, (Tensor, LangTuple, Constexpr))


def _merge_block_before(src: Block, dst: Block):
    """Move `src`'s ops to the start of `dst` and drop `src` (Triton's merge_block_before)."""
    anchor = dst.first_op
    for op in list(src.ops):
        src.detach_op(op)
        if anchor is None:
            dst.add_op(op)
        else:
            dst.insert_op_before(op, anchor)
    if src.parent is not None:
        src.parent.detach_block(src)


class ControlFlowMixin:
    @contextlib.contextmanager
    def sub_region(self):
        """Triton's enter_sub_region: remember the scope and the insertion point, restore them on exit."""
        liveins = dict(self.lscope)
        prev_defs = dict(self.local_defs)
        self.local_defs = {}
        block = self.builder.block
        point = self.builder.save()
        try:
            yield liveins, block
        finally:
            self.builder.restore(point)
            self.lscope = liveins
            self.local_defs = prev_defs

    # ------------------------------------------------------------------ if

    def visit_If(self, node: ast.If):
        cond = self.visit(node.test)
        if isinstance(cond, Tensor):
            if cond.is_block():
                if cond.numel != 1:
                    raise LanguageError("Boolean value of Tensor with more than one value is ambiguous")
                raise UnsupportedError("an `if` on a one-element tensor is not supported; compare a scalar instead")
            cond = self.semantic.cast(cond, T.int1)
            if _contains_return(node):
                if self.scf_stack:
                    raise UnsupportedError("Cannot have `return` statements inside `while` or `for` statements in triton.")
                self._if_with_branches(cond, node)
            else:
                self._if_scf(cond, node)
            return
        cond = unwrap(cond)
        if type(cond) not in (bool, int, type(None)):
            raise LanguageError(
                "`if` conditionals can only accept values of type {bool, int, NoneType}, not objects of type "
                + type(cond).__name__
            )
        self.visit_compound_statement(node.body if cond else node.orelse)

    def _then_else(self, node, liveins, then_block, else_block):
        b = self.builder
        b.set_insertion_point_to_start(then_block)
        self.visit_compound_statement(node.body)
        then_block = b.block
        then_defs, then_vals = dict(self.local_defs), dict(self.lscope)
        else_defs, else_vals = {}, dict(liveins)
        if node.orelse:
            b.set_insertion_point_to_start(else_block)
            self.lscope = dict(liveins)
            self.local_defs = {}
            self.visit_compound_statement(node.orelse)
            else_defs, else_block, else_vals = dict(self.local_defs), b.block, dict(self.lscope)
        names = []
        for name, value in liveins.items():
            if not _is_value(value):
                continue
            if _same(handles_of(then_vals[name]), handles_of(else_vals[name])):
                continue
            names.append(name)
            then_defs[name], else_defs[name] = then_vals[name], else_vals[name]
            for defs, which in ((then_defs, "then"), (else_defs, "else")):
                if type(defs[name]) is not type(value) or _type(defs[name]) != _type(value):
                    raise LanguageError(
                        f"initial value for `{name}` is of type {_type(value)}, but the {which} block redefines it "
                        f"as {_type(defs[name])}"
                    )
        for name in sorted(then_defs.keys() & else_defs.keys()):
            if name in names:
                continue
            a, b_ = then_defs[name], else_defs[name]
            if type(a) is not type(b_) or _type(a) != _type(b_) or not _is_value(a):
                raise LanguageError(
                    f"Mismatched type for {name} between then block ({_type(a)}) and else block ({_type(b_)})"
                )
            names.append(name)
        return then_defs, else_defs, then_block, else_block, names

    def _if_scf(self, cond: Tensor, node: ast.If):
        b = self.builder
        with self.sub_region() as (liveins, _):
            point, loc = b.save(), b.loc
            then_block = b.create_block()
            else_block = b.create_block() if node.orelse else None
            then_defs, else_defs, then_block, else_block, names = self._then_else(node, liveins, then_block, else_block)
            then_handles = handles_of(LangTuple([then_defs[n] for n in names]))
            for name, h in zip(names, then_handles):
                self.set_name_loc(h, name)
            b.restore(point)
            b.loc = loc
            if_op = self._create_if([h.type for h in then_handles], cond)
            then_target, else_target = if_op.regions[0].blocks.first, if_op.regions[1].blocks.first
            _merge_block_before(then_block, then_target)
            b.set_insertion_point_to_end(then_target)
            if names:
                b.create("scf.yield", [then_handles], [])
            if node.orelse:
                _merge_block_before(else_block, else_target)
            b.set_insertion_point_to_end(else_target)
            if names:
                else_handles = handles_of(LangTuple([else_defs[n] for n in names]))
                for name, h in zip(names, else_handles):
                    self.set_name_loc(h, name)
                b.create("scf.yield", [else_handles], [])
        new_values = rebuild(LangTuple([then_defs[n] for n in names]), list(if_op.results))
        for name, value in zip(names, new_values.values):
            self.set_value(name, value)

    def _create_if(self, result_types: list, cond: Tensor):
        op = self.builder.create("scf.if", [cond.handle], [result_types], regions=[Region(Block()), Region(Block())])
        if not result_types:
            for region in op.regions:
                self._terminate(region.blocks.first, op.location)
        return op

    def _terminate(self, block: Block, loc):
        from ttc.frontend.builder import op_class

        y = op_class("scf.yield").build(operands=[[]])
        y.location = loc
        block.add_op(y)

    def _if_with_branches(self, cond: Tensor, node: ast.If):
        """An `if` with a `return` inside: blocks and branches (`cf.cond_br`, `cf.br`) in the function body."""
        b = self.builder
        with self.sub_region() as (liveins, ip_block):
            then_block = b.create_block()
            else_block = b.create_block()
            b.set_insertion_point_to_end(ip_block)
            b.create("cf.cond_br", [cond.handle, [], []], [], successors=[then_block, else_block])
            then_defs, else_defs, then_block, else_block, names = self._then_else(node, liveins, then_block, else_block)
            endif_block = b.create_block()
            b.set_insertion_point_to_end(then_block)
            then_handles = handles_of(LangTuple([then_defs[n] for n in names]))
            b.create("cf.br", [then_handles], [], successors=[endif_block])
            b.set_insertion_point_to_end(else_block)
            else_handles = handles_of(LangTuple([else_defs[n] for n in names]))
            b.create("cf.br", [else_handles], [], successors=[endif_block])
            for h in then_handles:
                endif_block.insert_arg(h.type, len(endif_block.args))
        b.set_insertion_point_to_start(endif_block)
        new_values = rebuild(LangTuple([then_defs[n] for n in names]), list(endif_block.args))
        for name, value in zip(names, new_values.values):
            self.set_value(name, value)

    def visit_IfExp(self, node: ast.IfExp):
        cond = self.visit(node.test)
        if not isinstance(cond, Tensor):
            cond = unwrap(cond)
            if type(cond) not in (bool, int, type(None)):
                raise LanguageError(
                    "`if` conditionals can only accept values of type {bool, int, NoneType}, not objects of type "
                    + type(cond).__name__
                )
            return self.visit(node.body if cond else node.orelse)
        cond = self.semantic.cast(cond, T.int1)
        b = self.builder
        with self.sub_region():
            point, loc = b.save(), b.loc
            then_block = b.create_block()
            b.set_insertion_point_to_start(then_block)
            then_val = self.semantic.to_tensor(self.visit(node.body))
            then_block = b.block
            else_block = b.create_block()
            b.set_insertion_point_to_start(else_block)
            else_val = self.semantic.to_tensor(self.visit(node.orelse))
            else_block = b.block
            b.restore(point)
            b.loc = loc
            if then_val.type != else_val.type:
                raise LanguageError(
                    f"Ternary expression with dynamic condition has inconsistent types {then_val.type} and {else_val.type}"
                )
            if_op = self._create_if([then_val.type.to_ir()], cond)
            then_target, else_target = if_op.regions[0].blocks.first, if_op.regions[1].blocks.first
            _merge_block_before(then_block, then_target)
            b.set_insertion_point_to_end(then_target)
            b.create("scf.yield", [[then_val.handle]], [])
            b.set_insertion_point_to_end(then_target)
            _merge_block_before(else_block, else_target)
            b.set_insertion_point_to_end(else_target)
            b.create("scf.yield", [[else_val.handle]], [])
            return Tensor(if_op.results[0], then_val.type)

    # ------------------------------------------------------------------ loops

    def _find_carries(self, node, liveins: dict, ignore=frozenset()):
        """Compile the body once in a scratch block to see which variables it changes (Triton's dry run)."""
        b = self.builder
        block = b.create_block()
        b.set_insertion_point_to_start(block)
        self.scf_stack.append(node)
        self.visit_compound_statement(node.body)
        self.scf_stack.pop()
        block.parent.detach_block(block)
        block.erase(safe_erase=False)
        names, init_handles, templates = [], [], []
        for name, live in liveins.items():
            if name in ignore:
                continue
            if _is_value(live):
                loop = self.lscope[name]
                self._check_carried(name, loop, live)
                if not _same(handles_of(live), handles_of(loop)):
                    names.append(name)
                    templates.append(live)
                    init_handles.extend(handles_of(live))
            elif name in self.local_defs:
                raise LanguageError(f"Loop carried variable {name} is not a triton value")
        self.lscope = dict(liveins)
        self.local_defs = {}
        return names, init_handles, templates

    def _check_carried(self, name, loop, live):
        if not _is_value(loop) or not _is_value(live):
            raise LanguageError(f"cannot reassign constexpr {name} in the loop")
        if type(loop) is not type(live):
            raise LanguageError(
                f"Loop carried variable {name} changed type, was {_kind(live)} but is now {_kind(loop)}"
            )
        if isinstance(loop, Tensor) and loop.type != live.type:
            raise LanguageError(
                f"Loop-carried variable {name} has initial type {live.type} but is re-assigned to {loop.type} in "
                "loop! Please make sure that the type stays consistent."
            )

    def visit_For(self, node: ast.For):
        if not isinstance(node.iter, ast.Call):
            raise UnsupportedError("for loops must iterate over range(...), tl.range(...) or tl.static_range(...)")
        if not isinstance(node.target, ast.Name):
            raise UnsupportedError("the target of a for loop must be a single name")
        if node.orelse:
            raise UnsupportedError("`for ... else` is not supported")
        kind = unwrap(self.visit(node.iter.func))
        iter_args = [self.visit(a) for a in node.iter.args]
        iter_kwargs = dict(self.visit(k) for k in node.iter.keywords)
        target = node.target.id
        if kind is TL_STATIC_RANGE:
            it = _make_iterator(StaticRangeIterator, iter_args, iter_kwargs)
            try:
                values = range(unwrap(it.start), unwrap(it.end), unwrap(it.step))
            except TypeError:
                raise LanguageError("tl.static_range bounds must be integer constexprs") from None
            for i in values:
                self.lscope[target] = Constexpr(i)
                self.visit_compound_statement(node.body)
            return
        attrs = {}
        if kind is TL_RANGE:
            it = _make_iterator(RangeIterator, iter_args, iter_kwargs)
            lb, ub, step = it.start, it.end, it.step
            if unwrap(it.num_stages) is not None:
                attrs["tt.num_stages"] = IntegerAttr(unwrap(it.num_stages), i32)
            if unwrap(it.loop_unroll_factor) is not None:
                attrs["tt.loop_unroll_factor"] = IntegerAttr(unwrap(it.loop_unroll_factor), i32)
            for flag, attr in ((it.disallow_acc_multi_buffer, "tt.disallow_acc_multi_buffer"),
                               (it.flatten, "tt.flatten"), (it.warp_specialize, "tt.warp_specialize")):
                if unwrap(flag):
                    attrs[attr] = UnitAttr()
        elif kind is PY_RANGE:
            if iter_kwargs or not 1 <= len(iter_args) <= 3:
                raise LanguageError("range() takes 1 to 3 positional arguments")
            lb = iter_args[0] if len(iter_args) > 1 else self.visit(ast.Constant(0))
            ub = iter_args[1] if len(iter_args) > 1 else self.visit(node.iter.args[0])
            step = iter_args[2] if len(iter_args) > 2 else self.visit(ast.Constant(1))
        else:
            raise UnsupportedError("Only `range` and `static_range` iterators are currently supported")
        self._scf_for(node, target, lb, ub, step, attrs)

    def _scf_for(self, node, target: str, lb, ub, step, attrs: dict):
        s, b = self.semantic, self.builder
        negative_step = False
        if isinstance(step, Constexpr) and isinstance(step.value, int) and step.value < 0:
            step = Constexpr(-step.value)
            negative_step = True
            lb, ub = ub, lb
        lb, ub, step = s.to_tensor(lb), s.to_tensor(ub), s.to_tensor(step)
        if not lb.dtype.is_int() or not ub.dtype.is_int() or not step.dtype.is_int():
            raise LanguageError(f"For loop bounds and step must all be ints, are ({lb.dtype}, {ub.dtype}, {step.dtype})")
        for what, v in (("lower bound", lb), ("upper bound", ub), ("step", step)):
            if v.is_block() and v.numel != 1:
                raise LanguageError(f"For {what} must be a scalar, got {v.type}")
        iv_type = s.integer_promote(s.integer_promote(lb.dtype, ub.dtype), step.dtype)
        iv_ir = iv_type.to_ir()
        signed = iv_type.is_int_signed()
        lb_h = s.int_cast(lb.handle, iv_ir, signed)
        ub_h = s.int_cast(ub.handle, iv_ir, signed)
        step_h = s.int_cast(step.handle, iv_ir, signed)
        placeholder = b.poison(iv_ir)
        self.set_value(target, Tensor(placeholder, iv_type))
        with self.sub_region() as (liveins, _):
            point, loc = b.save(), b.loc
            names, init_handles, templates = self._find_carries(node, liveins, ignore={target})
            b.restore(point)
            b.loc = loc
            body = Block(arg_types=[iv_ir] + [h.type for h in init_handles])
            for_op = b.create("scf.for", [lb_h, ub_h, step_h, init_handles], [[h.type for h in init_handles]],
                              attributes=attrs, regions=[Region(body)])
            for arg in body.args:
                arg.location = for_op.location
            if not init_handles:
                self._terminate(body, for_op.location)
            self.scf_stack.append(node)
            b.set_insertion_point_to_start(body)
            carried = rebuild(LangTuple(templates), list(body.args[1:]))
            for name, value in zip(names, carried.values):
                self.set_name_loc_of(value, name)
                self.set_value(name, value)
            self.visit_compound_statement(node.body)
            self.scf_stack.pop()
            yields = handles_of(LangTuple([self.lscope[n] for n in names]))
            if yields:
                b.create("scf.yield", [yields], [])
            b.set_insertion_point_to_start(body)
            iv = body.args[0]
            if negative_step:
                iv = b.value("arith.subi", [ub_h, iv], iv_ir)
                iv = b.value("arith.addi", [iv, lb_h], iv_ir)
            placeholder.replace_all_uses_with(iv)
            self.set_value(target, Tensor(iv, iv_type))
            self.set_name_loc(iv, target)
        results = rebuild(LangTuple(templates), list(for_op.results))
        for name, value in zip(names, results.values):
            self.set_value(name, value)
            self.set_name_loc_of(value, name)

    def visit_While(self, node: ast.While):
        if node.orelse:
            raise UnsupportedError("`while ... else` is not supported")
        b = self.builder
        with self.sub_region() as (liveins, _):
            point, loc = b.save(), b.loc
            names, init_handles, templates = self._find_carries(node, liveins)
            b.restore(point)
            b.loc = loc
            types = [h.type for h in init_handles]
            while_op = b.create("scf.while", [init_handles], [types], regions=[Region(), Region()])
            before = Block(arg_types=types)
            while_op.regions[0].add_block(before)
            b.block, b.before = before, None
            b.set_insertion_point_to_start(before)
            values = rebuild(LangTuple(templates), list(before.args))
            for name, value in zip(names, values.values):
                self.lscope[name] = value
                self.local_defs[name] = value
                self.set_name_loc_of(value, name)
            cond = self.visit(node.test)
            if not isinstance(cond, Tensor) or cond.is_block() or cond.dtype != T.int1:
                raise LanguageError(f"the condition of a while loop must be a scalar boolean tensor, got {cond!r}")
            b.set_insertion_point_to_end(before)
            b.create("scf.condition", [cond.handle, list(before.args)], [])
            after = Block(arg_types=types)
            while_op.regions[1].add_block(after)
            b.block, b.before = after, None
            b.set_insertion_point_to_start(after)
            values = rebuild(LangTuple(templates), list(after.args))
            for name, value in zip(names, values.values):
                self.lscope[name] = value
                self.local_defs[name] = value
                self.set_name_loc_of(value, name)
            self.scf_stack.append(node)
            self.visit_compound_statement(node.body)
            self.scf_stack.pop()
            yields = handles_of(LangTuple([self.lscope[n] for n in names]))
            b.create("scf.yield", [yields], [])
        results = rebuild(LangTuple(templates), list(while_op.results))
        for name, value in zip(names, results.values):
            self.lscope[name] = value
            self.local_defs[name] = value
            self.set_name_loc_of(value, name)


def _make_iterator(cls, args, kwargs):
    try:
        return cls(*args, **kwargs)
    except TypeError as e:
        raise LanguageError(f"bad loop iterator arguments: {e}") from None


def _type(v):
    if isinstance(v, Tensor):
        return v.type
    if isinstance(v, LangTuple):
        return tuple(_type(x) for x in v.values)
    if isinstance(v, Constexpr):
        return ("constexpr", repr(v.value))
    return type(v).__name__


def _kind(v) -> str:
    return {Tensor: "a tensor", LangTuple: "a tuple", Constexpr: "a constexpr"}.get(type(v), type(v).__name__)
