"""xDSL's CSE driver (`xdsl.transforms.common_subexpression_elimination`) with each op's key hashed once.

xDSL's `KnownOps` wraps the op in a new `OperationInfo` at every lookup, whose hash covers the op's attributes,
properties, operands and result types (tensor types hash their shape, element type and layout, recursively), and
whose `__eq__` hashes both sides again. Here one key per op serves its lookup and its insertion, and the key keeps
its hash, which leaves out the result types of ops with operands. The result is the same (but for commutative ops,
whose operands are compared in any order, as MLIR's CSE does): an op stored as a key is never changed during the
run (its results' users, whose operands a replacement changes, come after it in the walk and are not stored yet),
and keys whose fields are equal have equal hashes, so comparing the kept hashes first decides what comparing fresh
ones did.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, Operation, Region
from xdsl.traits import IsolatedFromAbove, MemoryEffectKind, is_side_effect_free, only_has_effect
from xdsl.transforms.common_subexpression_elimination import (CSEDriver, KnownOps, OperationInfo,
                                                              has_other_side_effecting_op_in_between)
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from ttc.opt.greedy_rewrite import COMMUTATIVE, is_terminator


_UNREGISTERED: dict[type, bool] = {}  # op class -> whether it is xDSL's UnregisteredOp


class _Key(OperationInfo):
    """`OperationInfo` with its hash computed once, and the operands of a commutative op compared as a multiset
    (MLIR's OperationEquivalence: `andi %a, %b` and `andi %b, %a` are the same expression)."""

    name = ""  # shadows OperationInfo's property (an isinstance against UnregisteredOp per call): set once below

    def __init__(self, op: Operation):
        self.op = op
        cls = op.__class__
        unregistered = _UNREGISTERED.get(cls)
        if unregistered is None:
            unregistered = _UNREGISTERED[cls] = issubclass(cls, UnregisteredOp)
        self.name = op.op_name.data if unregistered else op.name
        self.operands = tuple(sorted(op._operands, key=id)) if op.name in COMMUTATIVE else tuple(op._operands)
        # the result types (hashed recursively, most of a key's cost) only where no operand tells ops apart: keys
        # that are equal still hash alike, and `__eq__` compares the types
        self.hash = hash((self.name, sum(hash(i) for i in op.attributes.items()),
                          sum(hash(i) for i in op.properties.items()),
                          hash(self.operands) if self.operands else hash(op.result_types)))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        a, b = self.op, getattr(other, "op", None)
        return (isinstance(other, _Key) and self.hash == other.hash and self.name == other.name
                and self.operands == other.operands and a.attributes == b.attributes
                and a.properties == b.properties and a.result_types == b.result_types
                and all(s.is_structurally_equivalent(o) for s, o in zip(a.regions, b.regions, strict=True)))


class _KnownOps(KnownOps):
    """`KnownOps` keyed by `_Key`."""

    def __getitem__(self, k: Operation):
        return self._known_ops[_Key(k)]

    def __setitem__(self, k: Operation, v: Operation):
        self._known_ops[_Key(k)] = v

    def __contains__(self, k: Operation):
        return _Key(k) in self._known_ops

    def get(self, k: Operation, default=None):
        return self._known_ops.get(_Key(k), default)

    def pop(self, k: Operation):
        return self._known_ops.pop(_Key(k))


class Driver(CSEDriver):
    """`CSEDriver` whose scopes are `_KnownOps` and whose `_simplify_operation` looks an op up and stores it under
    one key (xDSL's steps otherwise, in the same order)."""

    def __init__(self):
        super().__init__(_known_ops=_KnownOps())
        self.replaced = False  # whether `_replace_and_delete` ran (it may have replaced uses)

    def _replace_and_delete(self, op: Operation, existing: Operation):
        self.replaced = True
        super()._replace_and_delete(op, existing)

    def _simplify_operation(self, op: Operation):
        if is_terminator(op):  # `op.has_trait(IsTerminator)`, cached per op class
            return
        if is_trivially_dead(op):
            self._mark_erasure(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        key = _Key(op)
        known = self._known_ops._known_ops
        if not is_side_effect_free(op):
            if not only_has_effect(op, MemoryEffectKind.READ):
                return
            if existing := known.get(key):
                if (op.parent_block() is existing.parent_block()
                        and not has_other_side_effecting_op_in_between(existing, op)):
                    self._replace_and_delete(op, existing)
                    return
            known[key] = op
            return
        if existing := known.get(key):
            self._replace_and_delete(op, existing)
            return
        known[key] = op

    def _simplify_block(self, block: Block):
        for op in block.ops:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    old_scope = self._known_ops
                    self._known_ops = _KnownOps()
                    for region in op.regions:
                        self._simplify_region(region)
                    self._known_ops = old_scope
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region):
        if len(region.blocks) == 1:
            old_scope = self._known_ops
            self._known_ops = _KnownOps(self._known_ops)
            self._simplify_block(region.block)
            self._known_ops = old_scope


def cse(thing: Operation | Block | Region) -> bool:
    """xDSL's `cse(thing)`, through `Driver`; False when it changed nothing (no op replaced or erased)."""
    driver = Driver()
    driver.simplify(thing)
    return driver.replaced or bool(driver._to_erase)
