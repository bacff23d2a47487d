"""A small evaluator for the PTX that kernels put in `tt.elementwise_inline_asm`, so that the interpreter can run
them. It is not a PTX emulator: it knows the common single-instruction forms, on 8/16/32/64-bit integers and
f16/bf16/f32/f64 (no predicates, branches or special registers):

  add sub mul(.lo .hi .wide) mad(.lo .hi .wide) fma min max neg abs  (integers and floats)
  shl shr and or xor not                                             (bit widths)
  cvt (integer <-> integer, float <-> float, float <-> integer with PTX's rounding modifiers), mov
  .reg declarations, `{ }` scopes, vector operands `{a, b}` of mov (packing and unpacking registers)
  griddepcontrol.wait / griddepcontrol.launch_dependents (no-ops: the interpreter runs one grid at a time)

Anything else is refused before the kernel runs, naming the instruction.

Registers hold raw bits (uint64 arrays, one element per asm call). Operands follow the constraint string:
outputs first, `$0 ...`, then inputs; elements narrower than 32 bits are packed `pack` to a register as the LLVM
lowering packs them (element k in bits k*w and up). The calls group consecutive elements in row-major order;
Triton leaves unspecified which elements one call receives, so asm whose result depends on that (mixing the
elements of a pack) may differ from a GPU run. Float arithmetic rounds to nearest even; `fma`/`mad` on f32 are
computed in f64 (exact product) and rounded once more to f32.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ttc.runtime.errors import Unsupported

_TYPES = {f"{k}{w}": (k, w) for k in "sub" for w in (8, 16, 32, 64)}
_TYPES.update({"f16": ("f", 16), "bf16": ("bf", 16), "f32": ("f", 32), "f64": ("f", 64), "pred": ("b", 1)})
_ROUND_INT = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}
_IGNORED = {"rn", "ftz"}  # round-to-nearest is NumPy's own rounding; flush-to-zero: see _flush
_WIDTH = {"h": 16, "r": 32, "l": 64, "f": 32, "d": 64, "c": 8, "b": 1}
SUPPORTED = ("add sub mul mad fma min max neg abs shl shr and or xor not cvt mov griddepcontrol.wait "
             "griddepcontrol.launch_dependents")


class PtxUnsupported(Unsupported):
    pass


@dataclass
class Instr:
    text: str      # as written, for errors
    name: str      # add, cvt, ...
    mods: list     # the opcode's other dot-parts, types included
    operands: list


def _mask(w: int) -> np.uint64:
    return np.uint64((1 << w) - 1) if w < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)


def _strip_comments(asm: str) -> str:
    asm = re.sub(r"/\*.*?\*/", " ", asm, flags=re.S)
    return re.sub(r"//[^\n]*", " ", asm)


def _split_operands(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(asm: str) -> tuple[dict, list[Instr]]:
    """(declared registers: name -> bit width, instructions); raises PtxUnsupported naming what it cannot read."""
    regs, prog = {}, []
    for stmt in _strip_comments(asm).split(";"):
        stmt = stmt.strip()
        while stmt[:1] in ("{", "}"):  # scopes: names are flat here
            stmt = stmt[1:].strip()
        if not stmt:
            continue
        text = " ".join(stmt.split())
        if stmt.startswith(".reg"):
            parts = stmt.split(None, 2)
            if len(parts) < 3 or parts[1][1:] not in _TYPES:
                raise PtxUnsupported(f"cannot read the register declaration `{text}`")
            w = _TYPES[parts[1][1:]][1]
            for name in (n.strip() for n in parts[2].split(",")):
                m = re.fullmatch(r"([A-Za-z_%][\w$]*)(?:<(\d+)>)?", name)
                if not m:
                    raise PtxUnsupported(f"cannot read the register declaration `{text}`")
                for i in range(int(m.group(2))) if m.group(2) else [None]:
                    regs[m.group(1) + ("" if i is None else str(i))] = w
            continue
        if stmt.startswith(("@", ".")) or re.match(r"^[\w$]+:", stmt):
            raise PtxUnsupported(f"cannot evaluate `{text}` (predicates, directives and labels are not supported)")
        opcode, _, rest = stmt.partition(" ")
        if opcode.startswith("griddepcontrol."):
            if opcode not in ("griddepcontrol.wait", "griddepcontrol.launch_dependents"):
                raise PtxUnsupported(f"cannot evaluate the instruction `{text}`")
            prog.append(Instr(text, opcode, [], []))
            continue
        name, *mods = opcode.split(".")
        if name not in SUPPORTED.split() or not any(m in _TYPES for m in mods):
            raise PtxUnsupported(f"cannot evaluate the instruction `{text}` (it evaluates {SUPPORTED})")
        prog.append(Instr(text, name, mods, _split_operands(rest)))
    return regs, prog


def _from_bits(bits, kind: str, w: int):
    """Raw bits (uint64) as values: s -> int64, u/b -> uint64, f/bf -> float64."""
    bits = np.asarray(bits, dtype=np.uint64) & _mask(w)
    if kind == "s":
        sign = np.uint64(1 << (w - 1))
        return ((bits ^ sign).astype(np.int64) - np.int64(1 << (w - 1))) if w < 64 else bits.view(np.int64)
    if kind in ("u", "b"):
        return bits
    if kind == "bf":
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    view = {16: (np.uint16, np.float16), 32: (np.uint32, np.float32), 64: (np.uint64, np.float64)}[w]
    return bits.astype(view[0]).view(view[1]).astype(np.float64)


def _to_bits(values, kind: str, w: int):
    """Values (ints wrap to w bits; floats round to nearest even) as raw bits."""
    values = np.asarray(values)
    if kind in ("f", "bf"):
        if kind == "bf":
            from ttc.runtime.dtypes import round_bf16

            return (round_bf16(values.astype(np.float32)).view(np.uint32) >> np.uint32(16)).astype(np.uint64)
        ft, it = {16: (np.float16, np.uint16), 32: (np.float32, np.uint32), 64: (np.float64, np.uint64)}[w]
        return values.astype(ft).view(it).astype(np.uint64)
    if values.dtype.kind == "f":
        values = values.astype(np.int64)
    return values.astype(np.int64).view(np.uint64) & _mask(w) if values.dtype.kind == "i" else \
        values.astype(np.uint64) & _mask(w)


def _flush(x, w: int):
    """Flush f32 subnormals to sign-preserving zero (`.ftz`)."""
    if w != 32:
        return x
    tiny = np.float64(np.finfo(np.float32).tiny)
    return np.where((x != 0) & (np.abs(x) < tiny), np.copysign(0.0, x), x)


class Machine:
    def __init__(self, regs: dict, n: int):
        self.width = dict(regs)
        self.bits = {name: np.zeros(n, dtype=np.uint64) for name in regs}
        self.n = n

    def read(self, operand: str, kind: str, w: int, ins: Instr):
        """An operand's bits (registers) or its value read as `kind`/`w` (immediates)."""
        if operand in self.bits:
            return _from_bits(self.bits[operand], kind, w)
        if re.fullmatch(r"0[fF][0-9A-Fa-f]{8}", operand):
            v = np.float64(np.uint32(int(operand[2:], 16)).view(np.float32))
        elif re.fullmatch(r"0[dD][0-9A-Fa-f]{16}", operand):
            v = np.uint64(int(operand[2:], 16)).view(np.float64)
        elif re.fullmatch(r"-?(0[xX][0-9A-Fa-f]+|0[bB][01]+|\d+)[uU]?", operand):
            v = int(operand.rstrip("uU"), 0)
            if kind in ("f", "bf"):
                raise PtxUnsupported(f"integer immediate {operand} in the float instruction `{ins.text}`")
            return _from_bits(_to_bits(np.full(self.n, v % (1 << 64), dtype=np.uint64), "u", w), kind, w)
        elif re.fullmatch(r"-?\d+\.\d*([eE][-+]?\d+)?", operand):
            v = float(operand)
        else:
            raise PtxUnsupported(f"cannot read the operand `{operand}` of `{ins.text}`")
        if kind not in ("f", "bf"):
            raise PtxUnsupported(f"float immediate {operand} in the integer instruction `{ins.text}`")
        return _from_bits(_to_bits(np.full(self.n, v), kind, w), kind, w)

    def write(self, operand: str, values, kind: str, w: int, ins: Instr):
        if operand not in self.bits:
            raise PtxUnsupported(f"cannot write the operand `{operand}` of `{ins.text}`")
        self.bits[operand] = _to_bits(values, kind, w) & _mask(self.width[operand])

    def run(self, prog: list[Instr]):
        for ins in prog:
            if ins.name.startswith("griddepcontrol."):
                continue
            getattr(self, "_" + ins.name)(ins)

    # ------------------------------------------------------------------ instructions

    @staticmethod
    def _type(ins: Instr, index: int = -1):
        types = [m for m in ins.mods if m in _TYPES]
        return _TYPES[types[index]]

    def _check(self, ins: Instr, allowed: set, count: int):
        other = [m for m in ins.mods if m not in _TYPES and m not in allowed and m not in _IGNORED]
        if other:
            mods = ", ".join("." + m for m in other)
            raise PtxUnsupported(f"cannot evaluate the instruction `{ins.text}` (modifier {mods})")
        if len(ins.operands) != count:
            raise PtxUnsupported(f"cannot evaluate the instruction `{ins.text}` ({count} operands expected)")

    def _args(self, ins: Instr, kind: str, w: int, ftz: bool):
        xs = [self.read(o, kind, w, ins) for o in ins.operands[1:]]
        return [_flush(x, w) for x in xs] if ftz and kind == "f" else xs

    def _arith(self, ins: Instr, count: int, fn_int, fn_float, allowed=frozenset()):
        kind, w = self._type(ins)
        self._check(ins, set(allowed), count)
        ftz = "ftz" in ins.mods
        xs = self._args(ins, kind, w, ftz)
        if kind in ("f", "bf"):
            out = fn_float(*xs)
            out = _flush(out, w) if ftz else out
            self.write(ins.operands[0], out, kind, w, ins)
        else:
            out = fn_int(ins, kind, w, *[x.astype(object) for x in xs])
            out, dst_w = out if isinstance(out, tuple) else (out, w)
            self.write(ins.operands[0], out, "u", dst_w, ins)

    @staticmethod
    def _wrap(values, kind, w):
        return np.array([v % (1 << w) for v in values], dtype=np.uint64) if len(values) else np.zeros(0, np.uint64)

    def _add(self, ins):
        self._arith(ins, 3, lambda i, k, w, a, b: self._wrap(a + b, k, w), lambda a, b: _round(a + b, ins))

    def _sub(self, ins):
        self._arith(ins, 3, lambda i, k, w, a, b: self._wrap(a - b, k, w), lambda a, b: _round(a - b, ins))

    def _mul(self, ins):
        self._arith(ins, 3, lambda i, k, w, a, b: self._mul_int(i, k, w, a * b),
                    lambda a, b: _round(a * b, ins), {"lo", "hi", "wide"})

    def _mad(self, ins):
        self._arith(ins, 4, lambda i, k, w, a, b, c: self._mul_int(i, k, w, a * b, c),
                    lambda a, b, c: _fma(a, b, c, ins), {"lo", "hi", "wide"})

    def _fma(self, ins):
        self._arith(ins, 4, None, lambda a, b, c: _fma(a, b, c, ins))

    def _mul_int(self, ins, kind, w, prod, add=None):
        mode = next((m for m in ins.mods if m in ("lo", "hi", "wide")), None)
        if mode is None:
            raise PtxUnsupported(f"integer `{ins.text}` needs .lo, .hi or .wide")
        if mode == "hi":
            prod = np.array([p >> w for p in prod], dtype=object)
        if add is not None:
            prod = prod + add
        if mode == "wide":
            return self._wrap(prod, kind, 2 * w), 2 * w
        return self._wrap(prod, kind, w)

    def _minmax(self, ins, int_fn, float_fn):
        nan = "NaN" in ins.mods
        self._arith(ins, 3, lambda i, k, w, a, b: self._wrap(int_fn(a, b), k, w),
                    lambda a, b: (np.minimum if float_fn is np.fmin else np.maximum)(a, b) if nan else float_fn(a, b),
                    {"NaN"})

    def _min(self, ins):
        self._minmax(ins, lambda a, b: np.where(a < b, a, b), np.fmin)

    def _max(self, ins):
        self._minmax(ins, lambda a, b: np.where(a > b, a, b), np.fmax)

    def _neg(self, ins):
        self._arith(ins, 2, lambda i, k, w, a: self._wrap(-a, k, w), np.negative)

    def _abs(self, ins):
        self._arith(ins, 2, lambda i, k, w, a: self._wrap(abs(a), k, w), np.abs)

    def _bits(self, ins, fn, count):
        kind, w = self._type(ins)
        self._check(ins, set(), count)
        if kind == "f":
            raise PtxUnsupported(f"cannot evaluate the instruction `{ins.text}`")
        xs = [self.read(o, "u", w, ins) for o in ins.operands[1:]]
        self.write(ins.operands[0], fn(*xs) & _mask(w), "u", w, ins)

    def _and(self, ins):
        self._bits(ins, np.bitwise_and, 3)

    def _or(self, ins):
        self._bits(ins, np.bitwise_or, 3)

    def _xor(self, ins):
        self._bits(ins, np.bitwise_xor, 3)

    def _not(self, ins):
        self._bits(ins, np.invert, 2)

    def _shl(self, ins):
        kind, w = self._type(ins)
        self._check(ins, set(), 3)
        a, s = self.read(ins.operands[1], "u", w, ins), self.read(ins.operands[2], "u", 32, ins)
        out = np.where(s >= w, np.uint64(0), a << np.minimum(s, np.uint64(63)))
        self.write(ins.operands[0], out & _mask(w), "u", w, ins)

    def _shr(self, ins):
        kind, w = self._type(ins)
        self._check(ins, set(), 3)
        s = np.minimum(self.read(ins.operands[2], "u", 32, ins), np.uint64(w - 1 if kind == "s" else 63))
        if kind == "s":
            a = self.read(ins.operands[1], "s", w, ins)
            self.write(ins.operands[0], a >> s.astype(np.int64), "s", w, ins)
        else:
            a = self.read(ins.operands[1], "u", w, ins)
            self.write(ins.operands[0], np.where(s >= w, np.uint64(0), a >> s), "u", w, ins)

    def _mov(self, ins):
        kind, w = self._type(ins)
        self._check(ins, set(), 2)
        dst, src = ins.operands
        if src.startswith("{"):  # pack registers into one, the first in the low bits
            parts = _split_operands(src[1:-1])
            pw = w // len(parts)
            out = np.zeros(self.n, dtype=np.uint64)
            for i, p in enumerate(parts):
                out |= (self.read(p, "u", pw, ins) & _mask(pw)) << np.uint64(i * pw)
            self.write(dst, out, "u", w, ins)
        elif dst.startswith("{"):
            parts = _split_operands(dst[1:-1])
            pw = w // len(parts)
            x = self.read(src, "u", w, ins)
            for i, p in enumerate(parts):
                self.write(p, (x >> np.uint64(i * pw)) & _mask(pw), "u", pw, ins)
        else:
            k = kind if kind in ("f", "bf") else "u"
            self.write(dst, self.read(src, k, w, ins), k, w, ins)

    def _cvt(self, ins):
        types = [m for m in ins.mods if m in _TYPES]
        if len(types) != 2:
            raise PtxUnsupported(f"cannot evaluate the instruction `{ins.text}`")
        (dk, dw), (sk, sw) = _TYPES[types[0]], _TYPES[types[1]]
        rnd = [m for m in ins.mods if m in _ROUND_INT or m in ("rn", "rz", "rm", "rp")]
        self._check(ins, {"rni", "rzi", "rmi", "rpi", "sat"}, 2)
        x = self.read(ins.operands[1], sk, sw, ins)
        sat = "sat" in ins.mods
        if "ftz" in ins.mods and sk == "f":
            x = _flush(x, sw)
        if dk in ("f", "bf"):
            if sk in ("f", "bf"):
                if rnd and rnd[0] in _ROUND_INT:
                    x = _ROUND_INT[rnd[0]](x)
                elif (dw < sw or dk != sk) and dw != 64 and rnd != ["rn"] and not (sk == "f" and dk == "f" and dw > sw):
                    raise PtxUnsupported(f"`{ins.text}`: only .rn rounding is evaluated")
            else:
                if rnd != ["rn"]:
                    raise PtxUnsupported(f"`{ins.text}`: only .rn rounding is evaluated")
                x = x.astype(np.float64)
            if sat:
                x = np.where(np.isnan(x), 0.0, np.clip(x, 0.0, 1.0))
            self.write(ins.operands[0], x, dk, dw, ins)
            return
        if sk in ("f", "bf"):  # float -> integer: rounds as told, saturates, NaN -> 0
            if not rnd or rnd[0] not in _ROUND_INT:
                raise PtxUnsupported(f"`{ins.text}`: float to integer conversion needs .rni, .rzi, .rmi or .rpi")
            lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if dk == "s" else (0, (1 << dw) - 1)
            r = _ROUND_INT[rnd[0]](np.where(np.isnan(x), 0.0, x))
            vals = [int(min(max(v, lo), hi)) if np.isfinite(v) else (hi if v > 0 else lo) for v in r]
            self.write(ins.operands[0], self._wrap(np.array(vals, dtype=object), dk, dw), "u", dw, ins)
            return
        vals = x.astype(object)  # integer -> integer: extend as the source type says, then wrap or saturate
        if sat:
            lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if dk == "s" else (0, (1 << dw) - 1)
            vals = np.array([min(max(int(v), lo), hi) for v in vals], dtype=object)
        self.write(ins.operands[0], self._wrap(vals, dk, dw), "u", dw, ins)


def _round(x, ins):
    if any(m in ins.mods for m in ("rz", "rm", "rp", "sat")):
        raise PtxUnsupported(f"`{ins.text}`: only round-to-nearest without .sat is evaluated")
    return x


def _fma(a, b, c, ins):
    _round(a, ins)
    kind = [m for m in ins.mods if m in _TYPES][-1]
    if kind == "f64":
        from fractions import Fraction

        return np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) if np.isfinite([x, y, z]).all() else x * y + z
                         for x, y, z in zip(a, b, c)], dtype=np.float64)
    return a * b + c  # f32/f16 operands: exact product in f64, then rounded to the result type


def run(asm: str, constraints: str, inputs: list, in_bits: list[int], out_bits: list[int], pack: int,
        n: int) -> list:
    """Evaluate `asm` for `n` calls. `inputs[i]` is a flat array of element bits (uint64, n * pack of them),
    `in_bits`/`out_bits` the element widths; returns per result a flat uint64 array of element bits."""
    from ttc.ir.inline_asm import per_register

    regs, prog = parse(asm)
    parts = [p.strip() for p in constraints.split(",") if p.strip() and not p.strip().startswith("~")]
    outs = [p for p in parts if p.startswith("=")]
    ins = [p for p in parts if not p.startswith("=")]
    names = [f"${i}" for i in range(len(parts))]
    for name, c in zip(names, outs + ins):
        letter = c.lstrip("=&")
        if letter not in _WIDTH:
            raise PtxUnsupported(f"cannot evaluate the constraint '{c}'")
        regs[name] = _WIDTH[letter]
    m = Machine(regs, n)
    k = 0
    for vals, w in zip(inputs, in_bits):  # pack elements into the input registers
        per = per_register(w, pack)
        vals = np.asarray(vals, dtype=np.uint64).reshape(n, pack)
        for start in range(0, pack, per):
            reg = np.zeros(n, dtype=np.uint64)
            for j in range(per):
                reg |= (vals[:, start + j] & _mask(w)) << np.uint64(j * w)
            m.bits[names[len(outs) + k]] = reg
            k += 1
    m.run(prog)
    results, k = [], 0
    for w in out_bits:
        per = per_register(w, pack)
        cols = []
        for _ in range(0, pack, per):
            reg = m.bits[names[k]]
            cols += [(reg >> np.uint64(j * w)) & _mask(w) for j in range(per)]
            k += 1
        results.append(np.stack(cols[:pack], axis=1).reshape(-1))
    return results


def check_op(op) -> None:
    """Raise PtxUnsupported when the interpreter cannot evaluate a `tt.elementwise_inline_asm`: a run of one
    call on zeros reaches every instruction, operand and constraint."""
    from ttc.runtime.dtypes import bit_width
    from ttc.ir.types import elt

    pack = op.packed_element.value.data
    in_bits = [bit_width(elt(v.type)) for v in op.operands]
    out_bits = [bit_width(elt(r.type)) for r in op.results]
    run(op.asm_string.data, op.constraints.data, [np.zeros(pack, np.uint64) for _ in in_bits], in_bits, out_bits,
        pack, 1)
