"""Passes, their options, pipelines, and the pass manager with MLIR's instrumentation.

A pass is a frozen dataclass subclassing `Pass` (an xDSL `ModulePass`) with `name` (its flag, `cse`),
`summary` (one line), `display` (the class name MLIR shows in dump headers, `CSE`) and typed option fields;
the option `num-warps` on the command line is the field `num_warps`. Pipelines are written as mlir-opt does:
`builtin.module(canonicalize{max-iterations=3},cse)`, or as flags `-cse -convert-triton-to-tritongpu='num-warps=4'`.
The pass manager runs passes, verifies after each, and provides IR printing before/after passes
(`--mlir-print-ir-*`, `MLIR_ENABLE_DUMP`) and the timing report (`--mlir-timing`, `MLIR_ENABLE_TIMING`).
"""

from __future__ import annotations

import dataclasses
import gc
import sys
import time
import typing
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.passes import ModulePass


class PassError(Exception):
    """A bad pass name, option or pipeline (reported as `tt-opt: error: ...`)."""


class Pass(ModulePass):
    summary: ClassVar[str] = ""
    display: ClassVar[str] = ""

    @classmethod
    def options(cls) -> list[tuple[str, type, object, str]]:
        """(cli name, type, default, help) for each option."""
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else None
            out.append((f.name.replace("_", "-"), hints[f.name], default, f.metadata.get("help", "")))
        return out


def option(default, help: str):
    return field(default=default, metadata={"help": help})


def _convert(pass_name: str, key: str, typ, text: str):
    try:
        if typ is bool:
            if text in ("", "true", "1"):
                return True
            if text in ("false", "0"):
                return False
            raise ValueError
        if typ is int:
            return int(text, 0)
        if typ is float:
            return float(text)
        return text
    except ValueError:
        tname = {bool: "a boolean", int: "an integer", float: "a number"}.get(typ, "a string")
        raise PassError(f"option '{key}' of pass '{pass_name}' expects {tname}, got '{text}'") from None


def split_options(text: str) -> list[tuple[str, str]]:
    """`'a=1 b=2'` or `'a=1,b=2'` (quotes and braces respected) -> [(a, 1), (b, 2)]."""
    items, cur, depth, quote = [], "", 0, None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
            else:
                cur += ch
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "{[(":
            depth += 1
            cur += ch
        elif ch in "}])":
            depth -= 1
            cur += ch
        elif ch in " ," and depth == 0:
            if cur:
                items.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        items.append(cur)
    out = []
    for it in items:
        k, _, v = it.partition("=")
        out.append((k.strip(), v.strip()))
    return out


def make_pass(name: str, options_text: str = "") -> Pass:
    from ttc.passes import get_pass

    cls = get_pass(name)
    if cls is None:
        raise PassError(f"'{name}' does not refer to a registered pass")
    known = {n: (typ, f.name) for (n, typ, _, _), f in zip(cls.options(), dataclasses.fields(cls))}
    kwargs = {}
    for key, value in split_options(options_text):
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise PassError(f"pass '{name}' has no option '{key}' (options: {names})")
        typ, field_name = known[key]
        kwargs[field_name] = _convert(name, key, typ, value)
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as e:
        raise PassError(f"pass '{name}': {e}") from None


def parse_pipeline(text: str) -> list[Pass]:
    """`builtin.module(p1{k=v},p2)` (the anchor may be omitted) -> passes."""
    text = text.strip()
    if text.startswith("builtin.module(") or text.startswith("module("):
        if not text.endswith(")"):
            raise PassError(f"unbalanced parentheses in pipeline '{text}'")
        text = text[text.index("(") + 1 : -1]
    passes, depth, cur = [], 0, ""
    for ch in text + ",":
        if ch == "," and depth == 0:
            cur = cur.strip()
            if cur:
                name, brace, rest = cur.partition("{")
                if brace and not rest.endswith("}"):
                    raise PassError(f"expected '}}' in pipeline element '{cur}'")
                if "(" in name:
                    raise PassError(f"nested pipelines on '{name.split('(')[0]}' are not supported; anchor passes on builtin.module")
                passes.append(make_pass(name.strip(), rest[:-1] if brace else ""))
            cur = ""
            continue
        depth += ch in "{(["
        depth -= ch in "})]"
        cur += ch
    if depth:
        raise PassError(f"unbalanced brackets in pipeline '{text}'")
    return passes


def pipeline_text(passes: list[Pass]) -> str:
    def one(p: Pass) -> str:
        opts = [f"{n}={_fmt(getattr(p, f.name))}" for (n, _, d, _), f in zip(p.options(), dataclasses.fields(p))]
        return p.name + ("{" + " ".join(opts) + "}" if opts else "")

    return "builtin.module(" + ",".join(one(p) for p in passes) + ")"


def _fmt(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@dataclass
class Instrumentation:
    """What to print around passes, and where."""

    before: set[str] = field(default_factory=set)  # pass names, or "*" for all
    after: set[str] = field(default_factory=set)
    after_change: bool = False
    timing: bool = False
    dump_filter: str | None = None  # a kernel name: only modules holding that tt.func are dumped
    stream: typing.TextIO = sys.stderr
    debuginfo: bool = False
    module_scope: bool = False  # MLIR's --mlir-print-ir-module-scope: name the operation in headers


class PassManager:
    """Runs passes in order, verifying after each (unless `verify` is off: ttc.compile's make-ttir, compiled again
    with it on when a later pipeline fails), except after a pass whose `apply` returned False (it left the IR as
    it was) where that IR is known valid: verified after an earlier pass, or `input_verified` (tt-opt's parser
    verified it). MLIR likewise skips the verifier after a pass that preserved all analyses, as its cse does when
    it changed nothing. With `stage_hash` (the dump/override directories are on:
    see `ttc.driver.stages`), the passes that produce a stage (`-make-ttir`, `-make-ttgir`) dump their result, or are
    replaced by the override file; `stage_hash` identifies IR that carries no `ttc.source_hash`."""

    def __init__(self, passes: list[Pass], instr: Instrumentation | None = None, source=None, stage_hash: str = "",
                 tool: str = "tt-opt", verify: bool = True, input_verified: bool = False):
        self.passes, self.instr, self.source, self.verify = passes, instr or Instrumentation(), source, verify
        self.input_verified = input_verified
        self.stage_hash, self.tool = stage_hash, tool  # the tool names itself in "overriding ..." lines
        self.times: list[tuple[str, float]] = []
        self.current: Pass | None = None  # the pass running; after run() raised, the one that failed
        self.overridden = False  # whether an override file replaced the module

    def _wanted(self, which: set[str], p: Pass) -> bool:
        return "*" in which or p.name in which

    def _dumps(self, module) -> bool:
        k = self.instr.dump_filter
        if not k:
            return True
        return any(getattr(op, "sym_name", None) is not None and op.sym_name.data == k for op in module.walk())

    def _print(self, when: str, p: Pass, module):
        from ttc.ir.printer import print_ir

        scope = " ('builtin.module' operation)" if self.instr.module_scope else ""
        header = f"// -----// IR Dump {when} {p.display or p.name} ({p.name}){scope} //----- //"
        text = print_ir(module, debuginfo=self.instr.debuginfo, name_locs=self.instr.debuginfo)
        self.instr.stream.write(header + "\n" + text + "\n\n")
        self.instr.stream.flush()

    def run(self, module, ctx):
        """Run the passes over `module`; returns the module (another one where an override file replaced it).

        The module lives through every pass, so Python's cycle collector is told so (`gc.freeze`): its full
        collections then scan only what the passes allocate, not the whole module each time, which made large
        modules superlinear. Frozen objects go back to the collector when the passes end."""
        from ttc.driver import stages
        from ttc.ir.verifier import verify_module
        from ttc.ir.printer import print_ir

        gc.freeze()
        try:
            instr = self.instr
            dumping = self._dumps(module)
            valid = self.input_verified  # whether the module as it is now was verified
            for p in self.passes:
                stage = stages.PASS_STAGES.get(p.name) if self.stage_hash else None
                if stage:
                    kernel = stages.module_kernel(module, self.stage_hash)
                    replaced = stages.override_module(self.tool, kernel, stage)
                    if replaced is not None:
                        module, self.source = replaced
                        self.overridden = valid = True  # parsed, so verified
                        stages.dump_module(kernel, stage, module)
                        continue
                if dumping and self._wanted(instr.before, p):
                    self._print("Before", p, module)
                before_text = print_ir(module) if instr.after_change else None
                t0 = time.perf_counter()
                self.current = p
                touched = p.apply(ctx, module)
                self.times.append((p.display or p.name, time.perf_counter() - t0))
                if self.verify and (touched is not False or not valid):
                    verify_module(module, self.source)
                    valid = True
                self.current = None
                if dumping and self._wanted(instr.after, p):
                    if not instr.after_change or print_ir(module) != before_text:
                        self._print("After", p, module)
                if stage:
                    stages.dump_module(kernel, stage, module)
            return module
        finally:
            gc.unfreeze()

    def timing_report(self, total: float, extra: list[tuple[str, float]] | None = None) -> str:
        """MLIR's execution time report; `extra` adds entries such as Parser and Output around the passes."""
        entries = list(extra[:1] if extra else []) + self.times + list(extra[1:] if extra else [])
        rest = max(0.0, total - sum(t for _, t in entries))
        lines = [
            "===" + "-" * 73 + "===",
            " " * 25 + "... Execution time report ...",
            "===" + "-" * 73 + "===",
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for name, t in entries + [("Rest", rest)]:
            lines.append(f"  {t:8.4f} ({100 * t / total if total else 0:5.1f}%)  {name}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


def dump_enabled() -> bool:
    """Whether MLIR_ENABLE_DUMP asks for the IR before every pass (1, or a kernel name)."""
    import os

    return os.environ.get("MLIR_ENABLE_DUMP", "0").lower() not in ("", "0", "false", "off")


def instrumentation(flags: dict) -> Instrumentation:
    """The IR printing that tt-opt's flags (`mlir-print-ir-*`, `mlir-print-debuginfo`) and MLIR_ENABLE_DUMP ask for
    (MLIR_DUMP_PATH, which needs a file opened for the whole run, is the caller's)."""
    import os

    instr = Instrumentation(debuginfo=bool(flags.get("mlir-print-debuginfo")))
    if flags.get("mlir-print-ir-before-all"):
        instr.before.add("*")
    if flags.get("mlir-print-ir-after-all"):
        instr.after.add("*")
    for key, target in (("mlir-print-ir-before", instr.before), ("mlir-print-ir-after", instr.after)):
        if flags.get(key):
            target.update(n.strip() for n in flags[key].split(",") if n.strip())
    instr.after_change = bool(flags.get("mlir-print-ir-after-change"))
    instr.module_scope = bool(flags.get("mlir-print-ir-module-scope"))
    if dump_enabled():  # Triton's MLIR_ENABLE_DUMP: before every pass, module scope, with locations
        dump = os.environ["MLIR_ENABLE_DUMP"]
        instr.before.add("*")
        instr.debuginfo = instr.module_scope = True
        if dump.lower() not in ("1", "true", "on"):
            instr.dump_filter = dump
    return instr
