"""Views of multi-buffers in a pipelined loop: a `ttg.local_alloc` of a loaded value replaced by a view of the
buffer the load now writes (Triton's replaceUsesAndPropagateType), with its users' views rebuilt on it."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.ir import Operation, SSAValue

from ttc.ir import ttg
from ttc.ir.layouts import SharedMemorySpace
from ttc.ir.memdesc import MemDescType


def mutable_memdesc(shape, element_type, enc) -> MemDescType:
    """A mutable shared-memory descriptor of `shape`."""
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element_type, enc, SharedMemorySpace(), IntAttr(1), dims)


def as_mutable(t: MemDescType) -> MemDescType:
    return mutable_memdesc(t.get_shape(), t.element_type, t.encoding)


def use_view(alloc: Operation, view: SSAValue) -> None:
    """Replace `ttg.local_alloc %load` by a view of the multi-buffer (Triton's replaceUsesAndPropagateType): its
    users read the view, a mutable descriptor now; view ops among them (memdesc_trans, _index, _subslice) are
    rebuilt on it where they were (right after the view if they came before it), their users in turn; a
    `warp_group_dot_wait` reading it is rebuilt."""
    for use in list(alloc.results[0].uses):
        user = use.operation
        if user.name in ("ttg.memdesc_trans", "ttg.memdesc_index", "ttg.memdesc_subslice"):
            t = user.results[0].type
            if user.name == "ttg.memdesc_trans":
                t = as_mutable(t)
            else:
                t = MemDescType(t.shape, t.element_type, t.encoding, t.memory_space, IntAttr(1),
                                t.alloc_shape if user.name == "ttg.memdesc_subslice" else t.shape)
            new = type(user).build(operands=[view, *user.operands[1:]], result_types=[t],
                                   properties=dict(user.properties), attributes=dict(user.attributes))
            new.location = user.location
            v = view.owner
            if isinstance(v, Operation) and v.parent is user.parent and \
                    user.parent.get_operation_index(v) > user.parent.get_operation_index(user):
                v.parent.insert_op_after(new, v)
            else:
                user.parent.insert_op_before(new, user)
            use_view(user, new.results[0])
            continue
        if user.name == "ttng.warp_group_dot_wait":
            operands = [view if k == use.index else o for k, o in enumerate(user.operands)]
            new = ttg.WarpGroupDotWaitOp.build(operands=[operands], result_types=[[o.type for o in operands]],
                                               properties=dict(user.properties), attributes=dict(user.attributes))
            new.location = user.location
            user.parent.insert_op_after(new, user)
            for a, b in zip(user.results, new.results):
                a.replace_all_uses_with(b)
            user.detach()
            user.erase()
            continue
        user.operands[use.index] = view
    alloc.detach()
    alloc.erase()
