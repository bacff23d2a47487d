"""Triton's enum attributes (TritonAttrDefs.td) as keyword -> stored i32 value: cache modifiers, eviction
policies, padding, atomic RMW kinds, memory semantics and scopes, rounding, NaN propagation, dot input precision
and program-id axes. The ops of `tt`, `ttg`, `ttng` and the frontend read and write these numbers."""

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
