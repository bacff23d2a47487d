"""Which kernel a module holds: its first public `tt.func`, and the hash of the source it was compiled from,
kept on the module as the `ttc.source_hash` attribute (the frontend sets it; the stages name their dump, override
and cache directories by it, as Triton names them by its kernel hash)."""

HASH_ATTRIBUTE = "ttc.source_hash"


def kernel_func(module):
    """The module's kernel: its first public tt.func, or None."""
    for op in module.body.ops:
        vis = getattr(op, "sym_visibility", None)
        if op.name == "tt.func" and (vis is None or vis.data == "public"):
            return op
    return None
