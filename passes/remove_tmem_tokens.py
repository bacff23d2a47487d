"""triton-nvidia-gpu-remove-tmem-tokens: drop the async tokens of tensor-memory accesses once no pass needs them
(Triton's RemoveTMEMTokens).

In each `tt.func` of the module, `ttng.tmem_alloc`, `ttng.tmem_load`, `ttng.tmem_store` and the MMA v5 ops
(`ttng.tc_gen5_mma[_scaled]`) lose their token dependency and their token result. What used a token result
(loop arguments, if results, yields) takes a `ub.poison : !ttg.async.token` made at the start of the function
instead, left for canonicalize to clean up.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import ub
from xdsl.ir import Operation

from ttc.ir.inserter import set_operand_group
from ttc.ir.types import AsyncTokenType
from ttc.opt.passmanager import Pass

_DEP = {"ttng.tc_gen5_mma": "acc_dep", "ttng.tc_gen5_mma_scaled": "acc_dep", "ttng.tmem_store": "dep",
        "ttng.tmem_load": "dep", "ttng.tmem_alloc": None}


def remove_token(op: Operation, dummy) -> None:
    dep = _DEP[op.name]
    if dep is not None:
        set_operand_group(op, dep, [])
    if op.token is None:
        return
    kept = [r for r in op.results if r is not op.token]
    new = type(op).create(operands=list(op.operands), result_types=[r.type for r in kept],
                          properties=dict(op.properties), attributes=dict(op.attributes))
    new.location = op.location
    op.parent.insert_op_before(new, op)
    for old, r in zip(kept, new.results):
        old.replace_all_uses_with(r)
    op.token.replace_all_uses_with(dummy)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class RemoveTMEMTokens(Pass):
    """Remove the dependency tokens of tensor-memory ops."""

    name = "triton-nvidia-gpu-remove-tmem-tokens"
    display = "TritonNvidiaGPURemoveTMEMTokensPass"
    summary = "remove TMEM tokens"

    def apply(self, ctx, module) -> None:
        for func in [o for o in module.body.block.ops if o.name == "tt.func"]:
            body = func.body.blocks.first
            dummy = ub.PoisonOp(AsyncTokenType())
            dummy.location = func.location
            body.insert_op_before(dummy, body.first_op)
            for op in [o for o in func.walk() if o.name in _DEP]:
                remove_token(op, dummy.result)
