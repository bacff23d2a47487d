"""The launch spec of `tt-run`: reading and validating it (against spec.schema.json, then by meaning), building
the arguments' initial values, evaluating the grid, and lining the arguments up with the kernel's parameters.

Every problem is a `SpecError` naming the culprit by its JSON path ('args[2].init'); `diagnostic` turns it into
the one-line `spec.json: error: ...` that tt-run prints.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ttc.ir.diagnostics import CompileError, Diagnostic
from ttc.runtime import dtypes
from ttc.runtime.errors import SpecError
from ttc.runtime.expr import evaluate

SCHEMA_PATH = Path(__file__).with_name("spec.schema.json")


@dataclass
class Arg:
    index: int
    name: str
    type: str  # as written: '*fp32', 'i32'
    is_ptr: bool
    elt: Any  # the MLIR element type
    host: np.dtype  # the NumPy dtype of its host value (u32 -> uint32, bf16 -> float32)
    shape: tuple | None = None
    init: Any = "zeros"
    value: Any = None
    output: str | None = None
    block: tuple | None = None  # a tensor descriptor argument: the block shape of `tensordesc<T[...]>`
    decomposed: bool = False  # a descriptor of a kernel compiled below sm_90: pointer, shapes, strides, padding
    given_strides: tuple | None = None  # a descriptor's strides in elements, when not row-major
    section: str = "args"  # "buffers" for a buffer the kernel reaches through a table of addresses

    @property
    def where(self) -> str:
        return f"{self.section}[{self.index}]"

    @property
    def addresses(self) -> list | None:
        """The buffers whose device addresses an `{"addresses": [...]}` init fills this i64 buffer with."""
        return self.init["addresses"] if isinstance(self.init, dict) and "addresses" in self.init else None

    @property
    def is_desc(self) -> bool:
        return self.block is not None

    @property
    def row_major(self) -> tuple:
        return tuple(int(math.prod(self.shape[d + 1:])) for d in range(len(self.shape)))

    @property
    def strides(self) -> tuple:
        """A descriptor's strides, in elements: as given, else row-major."""
        return self.given_strides if self.given_strides is not None else self.row_major

    @property
    def padded(self) -> bool:
        """A descriptor whose buffer has gaps between its rows (strides wider than the shape)."""
        return self.given_strides is not None and self.given_strides != self.row_major

    @property
    def n_params(self) -> int:
        """How many kernel parameters the argument is: a descriptor is its handle, shape (i32) and strides (i64);
        below sm_90 the handle is itself a pointer, i64 shape and strides and an i1 padding flag."""
        if not self.is_desc:
            return 1
        r = len(self.block)
        return 2 + 4 * r if self.decomposed else 1 + 2 * r

    def parameter_values(self, handle) -> list:
        """The values of the argument's kernel parameters (for a descriptor, after its handle: the tensor map
        or the pointer)."""
        r = len(self.block)
        shape_i32 = [np.int32(d) for d in self.shape]
        strides = [np.int64(st) for st in self.strides]
        if self.decomposed:
            return [handle, *[np.int64(d) for d in self.shape], *strides, np.bool_(False), *shape_i32, *strides]
        assert r == len(shape_i32)
        return [handle, *shape_i32, *strides]


@dataclass
class Spec:
    path: Path
    kernel: str | None
    signature: str | None
    num_warps: int | None
    shared: int | None
    grid: list
    args: list[Arg]
    checks: dict
    rtol: float | None
    atol: float | None
    seed: int
    launch_pdl: bool | None = None  # programmatic dependent launch; None: as the binary's metadata says
    buffers: list = field(default_factory=list)  # allocated, not passed: reached through {"addresses"} tables

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args + self.buffers if a.name == name), None)


def diagnostic(path, err: SpecError) -> CompileError:
    """The one-line error for a wrong spec."""
    return CompileError(Diagnostic(str(path), 0, 0, f"{err.where}: {err.message}" if err.where else err.message))


# ----------------------------------------------------------------------------- reading


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text())
    return jsonschema.Draft202012Validator(schema)


def _json_path(parts) -> str:
    text = ""
    for p in parts:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    return text


def _schema_error(data) -> SpecError | None:
    from jsonschema.exceptions import best_match

    err = best_match(_validator().iter_errors(data))
    if err is None:
        return None
    message = err.message
    if err.validator in ("oneOf", "anyOf") and "description" in err.schema:
        message = f"{json.dumps(err.instance)} is not valid: {err.schema['description']}"
    elif err.validator == "additionalProperties":
        message = message.replace("Additional properties are not allowed", "unknown key")
    return SpecError(message, _json_path(err.absolute_path))


def load(path, validate: bool = True) -> Spec:
    """Read, validate and interpret the spec at `path` (`validate=False`: without the JSON schema, for a process
    whose parent has validated it: tt-tune's GPU workers do not import jsonschema)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CompileError(Diagnostic(str(path), 0, 0, f"cannot read the spec: {e.strerror}")) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CompileError(Diagnostic(str(path), e.lineno, e.colno, f"invalid JSON: {e.msg}")) from None
    try:
        return _interpret(path, data, validate)
    except SpecError as e:
        raise diagnostic(path, e) from None


def _interpret(path: Path, data, validate: bool = True) -> Spec:
    if validate and (err := _schema_error(data)) is not None:
        raise err
    args = []
    for i, raw in enumerate(data["args"]):
        args.append(_arg(i, raw))
    buffers = []
    for i, raw in enumerate(data.get("buffers", [])):
        buffers.append(_arg(i, raw, "buffers"))  # the schema makes them pointer types
    seen = set()
    for a in args + buffers:
        if a.name in seen:
            raise SpecError(f"argument name '{a.name}' is used more than once", f"{a.where}.name")
        seen.add(a.name)
    for a in args + buffers:
        if a.addresses is None:
            continue
        if a.host not in (np.int64, np.uint64) or a.shape != (len(a.addresses),):
            raise SpecError(f"'{a.name}' holds {len(a.addresses)} addresses: it must be *i64 or *u64 of shape "
                            f"[{len(a.addresses)}]", f"{a.where}.init")
        for n in a.addresses:
            if not any(b.name == n for b in buffers):
                raise SpecError(f"'{n}' is not one of the spec's buffers", f"{a.where}.init.addresses")
    args_and_buffers = args + buffers
    check = dict(data.get("check", {}))
    tol = check.pop("tolerance", {})
    for name in check:
        a = next((a for a in args_and_buffers if a.name == name), None)
        if a is None or not a.is_ptr:
            what = "a scalar argument" if a is not None else "not an argument"
            raise SpecError(f"'{name}' is {what}; checks name pointer arguments", f"check.{name}")
    grid = data["grid"] if isinstance(data["grid"], list) else [data["grid"]]
    spec = Spec(path, data.get("kernel"), data.get("signature"), data.get("num_warps"), data.get("shared"),
                grid, args, check, tol.get("rtol"), tol.get("atol"), data.get("seed", 0), data.get("launch_pdl"),
                buffers)
    if spec.signature is not None:
        parameters(spec, None)  # the signature must agree with the args
    return spec


def _int_range(a: Arg) -> tuple[int, int]:
    if a.host == np.bool_:
        return 0, 1
    info = np.iinfo(a.host)
    return int(info.min), int(info.max)


def _check_number(a: Arg, v, where: str) -> None:
    if a.host.kind in "iub":
        if isinstance(v, float) and not v.is_integer():
            raise SpecError(f"{v} is not an integer, but '{a.name}' is {a.type.lstrip('*')}", where)
        lo, hi = _int_range(a)
        if not lo <= int(v) <= hi:
            raise SpecError(f"{int(v)} does not fit in {a.type.lstrip('*')} ([{lo}, {hi}])", where)
    elif isinstance(v, bool):
        raise SpecError(f"a boolean for '{a.name}', which is {a.type.lstrip('*')}", where)


_DESC = re.compile(r"^tensordesc<\s*([a-z0-9]+)\s*\[([0-9,\s]+)\]\s*>$")


def _arg(i: int, raw: dict, section: str = "args") -> Arg:
    where = f"{section}[{i}]"
    desc = _DESC.match(raw["type"])
    if raw["type"].startswith("tensordesc"):
        return _desc_arg(i, raw, desc)
    parsed = dtypes.spec_type(raw["type"])
    if parsed is None:
        known = ", ".join(dtypes.SPEC_TYPES)
        raise SpecError(f"unknown type '{raw['type']}' (known: {known}, and '*' before one for a pointer)", f"{where}.type")
    is_ptr, elt, host = parsed
    a = Arg(i, raw["name"], raw["type"], is_ptr, elt, host, section=section)
    if not is_ptr:
        a.value = raw["value"]
        _check_number(a, a.value, f"{where}.value")
        return a
    a.init = raw.get("init", "zeros")
    a.output = raw.get("output")
    a.shape = tuple(raw["shape"]) if "shape" in raw else None
    if a.shape is None and not (isinstance(a.init, dict) and "file" in a.init):
        raise SpecError(f"pointer argument '{a.name}' needs a 'shape' (or an init file)", where)
    init = a.init
    if init in ("randn", "rand") and host.kind != "f":
        raise SpecError(f"init '{init}' needs a float type, but '{a.name}' is {a.type}; use randint", f"{where}.init")
    if isinstance(init, (int, float)) and not isinstance(init, bool):
        _check_number(a, init, f"{where}.init")
    if isinstance(init, dict) and "randint" in init:
        lo, hi = init["randint"]
        if lo >= hi:
            raise SpecError(f"randint needs low < high, got [{lo}, {hi}]", f"{where}.init.randint")
        if host.kind in "iub":
            rlo, rhi = _int_range(a)
            if lo < rlo or hi - 1 > rhi:
                raise SpecError(f"randint range [{lo}, {hi}) does not fit in {a.type}", f"{where}.init.randint")
    return a


def _desc_arg(i: int, raw: dict, m) -> Arg:
    """A tensor descriptor argument: a buffer (shape, init and output as for a pointer) and the descriptor over it
    (the tensor's shape, its strides as given or row-major, the type's block shape)."""
    where = f"args[{i}]"
    parsed = dtypes.spec_type("*" + m.group(1)) if m else None
    if parsed is None:
        raise SpecError(f"malformed descriptor type '{raw['type']}' (e.g. 'tensordesc<fp16[64, 64]>')", f"{where}.type")
    block = tuple(int(d) for d in m.group(2).split(","))
    a = _arg(i, {k: v for k, v in raw.items() if k != "strides"} | {"type": "*" + m.group(1)})
    a.type, a.block = raw["type"], block
    if a.shape is None or len(a.shape) != len(block):
        have = "no shape" if a.shape is None else f"shape {list(a.shape)}"
        raise SpecError(f"descriptor '{a.name}' has {have}; it needs a shape of rank {len(block)} (its block's)", where)
    if any(d & (d - 1) or d <= 0 for d in block):
        raise SpecError(f"descriptor block shape {list(block)} must be powers of 2", f"{where}.type")
    if "strides" in raw:
        st = tuple(raw["strides"])
        if len(st) != len(block) or st[-1] != 1:
            raise SpecError(f"descriptor '{a.name}': strides {list(st)} must have one stride per dimension, the "
                            "last 1 (rows are contiguous)", f"{where}.strides")
        for d in range(len(st) - 1):
            if st[d] < st[d + 1] * a.shape[d + 1]:
                raise SpecError(f"descriptor '{a.name}': stride {st[d]} of dimension {d} overlaps the "
                                f"{a.shape[d + 1]} x {st[d + 1]} elements of the next", f"{where}.strides")
        a.given_strides = st
    itemsize = dtypes.storage_dtype(a.elt).itemsize
    if any(st * itemsize % 16 for st in a.strides[:-1]):
        raise SpecError(f"descriptor '{a.name}': row strides must be multiples of 16 bytes (TMA), got strides "
                        f"{list(a.strides)} of {a.type}", f"{where}.{'strides' if a.given_strides else 'shape'}")
    return a


# ----------------------------------------------------------------------------- values


def kernel_source(path) -> Path:
    """The Python file that defines a spec's kernel: its 'source' key, else the spec's name with .py."""
    path = Path(path)
    source = json.loads(path.read_text(encoding="utf-8")).get("source")
    return path.parent / source if source else path.with_suffix(".py")


def initial_values(spec: Spec) -> dict:
    """name -> initial host value: arrays (of `Arg.host` dtype) for pointer arguments, Python numbers for scalars.
    Random inits draw from one generator seeded with `spec.seed`, argument by argument."""
    rng = np.random.default_rng(spec.seed)
    values = {}
    for a in spec.args + spec.buffers:
        values[a.name] = _initial(spec, a, rng) if a.is_ptr else a.value
    return values


DRAW_CHUNK = 1 << 20  # elements per independent random stream in `fast_initial_values`
DRAW_THREADS = min(8, os.cpu_count() or 1)


def fast_initial_values(spec: Spec, threads: int = DRAW_THREADS) -> dict:
    """`initial_values` with the same distributions, drawn faster (tt-tune's draw: 2 x 16M fp16 values for a
    4096^2 matmul): "randn" and "rand" arrays of 16- and 32-bit floats are drawn in float32, in chunks of
    `DRAW_CHUNK` elements each from its own stream (`SeedSequence(seed)` spawns one child per argument, each
    argument's child one per chunk), on `threads` threads, straight into the output array; other inits draw from
    their argument's stream as `initial_values` does. The values depend on the seed and the shapes alone, not
    on `threads`, but differ from `initial_values`'."""
    import concurrent.futures as cf

    args = spec.args + spec.buffers
    seeds = np.random.SeedSequence(spec.seed).spawn(len(args))
    values, chunks = {}, []
    for a, seed in zip(args, seeds):
        if not a.is_ptr:
            values[a.name] = a.value
        elif a.init in ("randn", "rand") and a.addresses is None and a.host.kind == "f" and a.host.itemsize <= 4:
            out = values[a.name] = np.empty(a.shape, dtype=a.host)
            flat = out.reshape(-1)
            n = flat.size
            chunks += [(a, flat[i * DRAW_CHUNK:(i + 1) * DRAW_CHUNK], s)
                       for i, s in enumerate(seed.spawn(-(-n // DRAW_CHUNK)))]
        else:
            values[a.name] = _initial(spec, a, np.random.Generator(np.random.PCG64(seed)))

    def draw(job) -> None:  # NumPy's generators and casts release the GIL
        a, dst, s = job
        g = np.random.Generator(np.random.PCG64(s))
        x = g.standard_normal(dst.size, dtype=np.float32) if a.init == "randn" else g.random(dst.size, dtype=np.float32)
        dst[...] = dtypes.round_bf16(x) if dtypes.is_bf16(a.elt) else x

    if threads > 1 and len(chunks) > 1:
        with cf.ThreadPoolExecutor(min(threads, len(chunks))) as pool:
            list(pool.map(draw, chunks))
    else:
        for job in chunks:
            draw(job)
    return values


def with_addresses(spec: Spec, values: dict, addresses: dict) -> dict:
    """`values` with every `{"addresses": [...]}` table filled with its buffers' device addresses."""
    out = dict(values)
    for a in spec.args + spec.buffers:
        if a.addresses is not None:
            out[a.name] = np.array([addresses[n] for n in a.addresses], dtype=a.host)
    return out


def _initial(spec: Spec, a: Arg, rng) -> np.ndarray:
    init, shape, where = a.init, a.shape, f"{a.where}.init"
    if isinstance(init, dict) and "file" in init:
        return _from_file(spec, a, init["file"])
    if init == "zeros" or a.addresses is not None:  # addresses are filled in when the buffers exist
        x = np.zeros(shape)
    elif init == "ones":
        x = np.ones(shape)
    elif init == "randn":
        x = rng.standard_normal(shape)
    elif init == "rand":
        x = rng.random(shape)
    elif init == "arange":
        x = np.arange(math.prod(shape)).reshape(shape)
    elif isinstance(init, dict) and "randint" in init:
        x = rng.integers(init["randint"][0], init["randint"][1], size=shape)
    elif isinstance(init, (bool, int, float)):
        x = np.full(shape, init)
    else:
        raise SpecError(f"unknown init {json.dumps(init)}", where)
    if a.host.kind in "iu" and init == "arange":
        x = x % (1 << (8 * a.host.itemsize))  # wrap, as the device type would
    out = x.astype(a.host)
    return dtypes.round_bf16(out) if dtypes.is_bf16(a.elt) else out


def _from_file(spec: Spec, a: Arg, name: str) -> np.ndarray:
    where = f"{a.where}.init.file"
    path = spec.path.parent / name
    try:
        x = np.load(path, allow_pickle=False)
    except OSError as e:
        raise SpecError(f"cannot read '{path}': {e.strerror or e}", where) from None
    except ValueError as e:
        raise SpecError(f"'{path}' is not a .npy array file: {e}", where) from None
    if not isinstance(x, np.ndarray):
        raise SpecError(f"'{path}' holds several arrays (an .npz); give one .npy", where)
    if x.dtype != a.host:
        raise SpecError(f"'{path}' holds {x.dtype}, but '{a.name}' ({a.type}) needs {a.host}", where)
    if a.shape is not None and tuple(x.shape) != a.shape:
        raise SpecError(f"'{path}' has shape {list(x.shape)}, but '{a.name}' has shape {list(a.shape)}", where)
    a.shape = tuple(x.shape)
    return dtypes.round_bf16(x) if dtypes.is_bf16(a.elt) else np.ascontiguousarray(x)


def grid(spec: Spec, values: dict) -> tuple[int, int, int]:
    """The grid (x, y, z) with its expressions evaluated over the arguments."""
    dims = []
    for i, d in enumerate(spec.grid):
        if isinstance(d, str):
            try:
                d = evaluate(d, values)
            except SpecError as e:
                raise SpecError(e.message, f"grid[{i}]") from None
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise SpecError(f"{spec.grid[i]!r} is {d!r}, not an integer", f"grid[{i}]")
        if d < 1:
            raise SpecError(f"{spec.grid[i]!r} is {d}; grid dimensions must be at least 1", f"grid[{i}]")
        if d >= 1 << 31:
            raise SpecError(f"{spec.grid[i]!r} is {d}, too many programs", f"grid[{i}]")
        dims.append(int(d))
    return tuple(dims + [1] * (3 - len(dims)))


# ----------------------------------------------------------------------------- kernel parameters


def _signature_entries(spec: Spec) -> list[tuple[str, bool]]:
    """(type, specialized to 1) for each non-constexpr entry of the signature."""
    from ttc.frontend.signature import split_signature

    entries = []
    for tok in split_signature(spec.signature):
        base, _, hint = tok.partition(":")
        if base.startswith("tensordesc"):
            entries.append((base, False))
            continue
        if dtypes.spec_type(base) is None:
            continue  # a constexpr value
        entries.append((base, hint.strip() == "1"))
    return entries


def parameters(spec: Spec, count: int | None) -> list[Arg]:
    """The arguments the compiled kernel takes, in order: all of 'args' except the integer arguments Triton
    specialized to 1 (':1' in the signature; without one, integer scalars equal to 1 when the kernel takes fewer
    parameters than 'args' lists). `count` is the kernel's parameter count when known."""
    args = spec.args
    if spec.signature is not None:
        entries = _signature_entries(spec)
        if len(entries) != len(args):
            extra = (f"; entry {len(args) + 1} ('{entries[len(args)][0]}') has no argument" if len(entries) > len(args)
                     else f"; argument '{args[len(entries)].name}' has no entry")
            raise SpecError(f"the signature lists {len(entries)} arguments but 'args' has {len(args)}{extra}", "args")
        for a, (t, _) in zip(args, entries):
            if t != a.type and not (a.is_desc and _same_desc(t, a.type)):
                raise SpecError(f"'{a.name}' is '{a.type}' but the signature says '{t}'", f"{a.where}.type")
        for a, (_, one) in zip(args, entries):
            if one and (a.is_ptr or a.value != 1):
                raise SpecError(f"the signature specializes '{a.name}' to 1 (':1') but its value is {a.value}", f"{a.where}.value")
        kept = [a for a, (_, one) in zip(args, entries) if not one]
    elif count is None or count == len(args):
        kept = list(args)
    else:
        kept = [a for a in args if a.is_ptr or a.host.kind == "f" or a.value != 1]
    choose_descriptor_form(kept, count)
    n = sum(a.n_params for a in kept)
    if count is not None and count != n:
        dropped = len(args) - len(kept)
        why = f" ({dropped} specialized to 1 left out)" if dropped else ""
        what = "parameters (a descriptor is 1 + 2 * rank of them)" if any(a.is_desc for a in kept) else "arguments"
        raise SpecError(f"the kernel takes {count} parameters but the spec gives {n} {what}{why}", "args")
    return kept


def choose_descriptor_form(kept: list[Arg], count: int | None, slack: int = 0) -> None:
    """Descriptors are passed decomposed (to a kernel compiled below sm_90) when the kernel's parameter count,
    up to `slack` trailing scratch pointers, fits that form and not the tensor-map one."""
    descs = [a for a in kept if a.is_desc]
    if not descs or count is None:
        return
    for a in descs:
        a.decomposed = False
    fits = lambda: count - slack <= sum(a.n_params for a in kept) <= count  # noqa: E731
    if fits():
        return
    for a in descs:
        a.decomposed = True
    if not fits():
        for a in descs:
            a.decomposed = False


def _same_desc(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def expand(kept: list[Arg]) -> list[tuple[Arg, int]]:
    """(argument, part) per kernel parameter: part 0 is the argument itself (a descriptor's handle), 1.. a
    descriptor's shape and strides."""
    return [(a, k) for a in kept for k in range(a.n_params)]


def check_parameter_types(kept: list[Arg], param_types: list, param_names: list[str]) -> None:
    """Each argument's type against the kernel parameter it is passed to (MLIR types)."""
    from ttc.ir.types import PointerType, elt

    from ttc.ir.tensordesc import TensorDescType
    from xdsl.dialects.builtin import i1, i32, i64

    for i, ((a, part), t, pname) in enumerate(zip(expand(kept), param_types, param_names)):
        if a.is_desc:
            r = len(a.block)
            if a.decomposed:  # pointer, i64 shape and strides, i1 padding, then the i32 shape and i64 strides
                want = "i1" if part == 1 + 2 * r else "i32" if 2 + 2 * r <= part < 2 + 3 * r else "i64"
                ok = (isinstance(t, PointerType) and t.pointee == a.elt if part == 0
                      else t == {"i1": i1, "i32": i32, "i64": i64}[want])
            else:
                want = "i32" if 1 <= part <= r else "i64"
                ok = (isinstance(t, TensorDescType) and t.shape == a.block and elt(t.value_type()) == a.elt
                      if part == 0 else t == (i32 if want == "i32" else i64))
            if not ok:
                what = a.type if part == 0 else f"{want} (its part {part})"
                raise SpecError(f"'{a.name}' is '{a.type}': its parameter {what} goes to kernel parameter {i} "
                                f"(%{pname}), which is {t}", f"{a.where}.type")
            continue
        if a.is_ptr:
            ok = isinstance(t, PointerType) and t.pointee == a.elt
        else:
            ok = t == a.elt
        if not ok:
            raise SpecError(f"'{a.name}' is '{a.type}' but kernel parameter {i} (%{pname}) is {t}", f"{a.where}.type")


# ----------------------------------------------------------------------------- device bytes


def to_device(a: Arg, host: np.ndarray) -> np.ndarray:
    """A host array as the bytes the kernel reads (bf16 as its 16 bits, i1 as bytes, u32 as i32 bits); a padded
    descriptor's buffer holds the elements at their strides, zeros between its rows."""
    out = dtypes.to_storage(host, a.elt) if dtypes.is_bf16(a.elt) or a.host == np.bool_ else np.ascontiguousarray(host)
    if a.is_desc and a.padded:
        flat = np.zeros(_extent(a), dtype=out.dtype)
        _strided(a, flat)[...] = out
        return flat
    return out


def _extent(a: Arg) -> int:
    return 1 + sum((n - 1) * st for n, st in zip(a.shape, a.strides))


def _strided(a: Arg, flat: np.ndarray) -> np.ndarray:
    """The elements of a padded descriptor's buffer as an array of its shape (a view)."""
    item = flat.dtype.itemsize
    return np.lib.stride_tricks.as_strided(flat, a.shape, tuple(st * item for st in a.strides))


def from_device(a: Arg, raw: np.ndarray) -> np.ndarray:
    """The bytes of a buffer after the run as a host array of the argument's dtype and shape."""
    values = dtypes.from_storage(raw.view(dtypes.storage_dtype(a.elt)), a.elt)
    if values.dtype != a.host:
        values = values.view(a.host) if values.dtype.itemsize == a.host.itemsize and a.host.kind in "iu" else values.astype(a.host)
    if a.is_desc and a.padded:
        return np.ascontiguousarray(_strided(a, values[: _extent(a)]))
    return values.reshape(a.shape)


def scalar_value(a: Arg):
    """A scalar argument as the kernel receives it (a NumPy value of its MLIR type)."""
    return dtypes.fit(np.asarray(a.value).astype(a.host), a.elt)
