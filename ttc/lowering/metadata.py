"""Kernel metadata that travels with every stage (LLVM IR, PTX, CUBIN): the kernel's name, its warps, threads per
warp, dynamic shared memory bytes, the hash of its source and the target (`cuda:90`), and, for a kernel compiled
with `tt-compile --launch-pdl`, Triton's `launch_pdl` (tt-run then launches it with programmatic dependent launch).

It is written three ways so that no stage loses it:
- a sidecar `<output>.json` next to every `-o` file (read back from `<input>.json`);
- inside LLVM IR, as named metadata `!ttc.metadata = !{!{!"<json>"}}`;
- inside PTX, as a first line `// ttc.metadata: <json>` (a PTX comment).
"""

from __future__ import annotations

import hashlib  # while this module runs, ttc's stand-in (ttc._Sha256Hashlib): OpenSSL is not loaded
import json
import os
import re
from dataclasses import asdict, dataclass

PTX_PREFIX = "// ttc.metadata: "
KEYS = ("name", "num_warps", "threads_per_warp", "shared", "hash", "target")


@dataclass
class KernelMetadata:
    name: str
    num_warps: int
    threads_per_warp: int
    shared: int
    hash: str
    target: str
    launch_pdl: bool = False  # launch with programmatic dependent launch (Triton's option; written when true)
    tensordesc_meta: list | None = None  # per descriptor parameter, as Triton's (kept only when there are some)
    global_scratch_size: int | None = None  # bytes per program of the trailing global scratch pointer, if any

    def as_dict(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if v is not None}
        if not self.launch_pdl:
            del d["launch_pdl"]
        return d

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), sort_keys=False)

    @classmethod
    def from_dict(cls, d) -> KernelMetadata:
        if not isinstance(d, dict):
            raise ValueError("metadata is not a JSON object")
        missing = [k for k in KEYS if k not in d]
        if missing:
            raise ValueError(f"metadata lacks {', '.join(missing)}")
        ints = {k: d[k] for k in ("num_warps", "threads_per_warp", "shared")}
        bad = [k for k, v in ints.items() if isinstance(v, bool) or not isinstance(v, int)]
        if bad:
            raise ValueError(f"metadata's {', '.join(bad)} must be integers")
        if not isinstance(d.get("launch_pdl", False), bool):
            raise ValueError("metadata's launch_pdl must be true or false")
        descs = d.get("tensordesc_meta")
        if descs is not None and not (isinstance(descs, list) and all(isinstance(x, dict) for x in descs)):
            raise ValueError("metadata's tensordesc_meta must be a list of objects")
        scratch = d.get("global_scratch_size")
        if scratch is not None and (isinstance(scratch, bool) or not isinstance(scratch, int)):
            raise ValueError("metadata's global_scratch_size must be an integer")
        return cls(str(d["name"]), ints["num_warps"], ints["threads_per_warp"], ints["shared"], str(d["hash"]),
                   str(d["target"]), launch_pdl=d.get("launch_pdl", False), tensordesc_meta=descs,
                   global_scratch_size=scratch)

    @classmethod
    def _parse(cls, where: str, text: str) -> KernelMetadata:
        """From JSON text; bad metadata is the user's error, reported against `where`."""
        from ttc.driver.cli import UsageError

        try:
            return cls.from_dict(json.loads(text))
        except ValueError as e:
            raise UsageError(f"{where}: bad ttc.metadata: {e}") from None

    # ---------------------------------------------------------------- sidecar files

    def file_text(self) -> str:
        """As the `.json` files beside outputs and in dump directories hold it."""
        return json.dumps(self.as_dict(), indent=2) + "\n"

    def write_sidecar(self, output_path: str) -> None:
        from ttc.driver.cli import write_output

        write_output(sidecar_path(output_path), self.file_text())

    @classmethod
    def read_sidecar(cls, input_path: str | None) -> KernelMetadata | None:
        if input_path in (None, "-"):
            return None
        path = sidecar_path(input_path)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as f:
            return cls._parse(path, f.read())

    # ---------------------------------------------------------------- inside PTX

    def ptx_line(self) -> str:
        return PTX_PREFIX + self.to_json()

    @classmethod
    def from_ptx(cls, text: str, where: str = "PTX") -> KernelMetadata | None:
        for line in text.splitlines():
            if line.startswith(PTX_PREFIX):
                return cls._parse(where, line[len(PTX_PREFIX):])
        return None

    def into_ptx(self, text: str) -> str:
        """`text` with its metadata line replaced by this metadata's (prepended when it has none)."""
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line.startswith(PTX_PREFIX):
                lines[i] = self.ptx_line()
                return "\n".join(lines)
        return self.ptx_line() + "\n" + text

    # ---------------------------------------------------------------- inside LLVM IR

    def into_llvm_ir(self, text: str) -> str:
        """`text` with its `!ttc.metadata` string replaced by this metadata (appended when it has none); the
        other lines keep their numbers."""
        value = escape_llvm_string(self.to_json())
        m = re.search(r"^!ttc\.metadata = !\{\s*(![0-9]+)\s*\}", text, re.M)
        if m:
            node = re.compile(rf"^({re.escape(m.group(1))} = !\{{\s*!\")(?:[^\"\\]|\\[0-9A-Fa-f]{{2}}|\\\\)*(\"\s*\}})", re.M)
            new, n = node.subn(lambda mm: mm.group(1) + value + mm.group(2), text, count=1)
            if n:
                return new
        k = max((int(x) for x in re.findall(r"^!(\d+) = ", text, re.M)), default=-1) + 1
        return text.rstrip("\n") + f"\n\n!ttc.metadata = !{{!{k}}}\n!{k} = !{{!\"{value}\"}}\n"

    @classmethod
    def from_llvm_ir(cls, text: str, where: str = "LLVM IR") -> KernelMetadata | None:
        m = re.search(r"^!ttc\.metadata = !\{\s*(![0-9]+)\s*\}", text, re.M)
        if not m:
            return None
        node = re.search(rf"^{re.escape(m.group(1))} = !\{{\s*!\"((?:[^\"\\]|\\[0-9A-Fa-f]{{2}}|\\\\)*)\"\s*\}}", text, re.M)
        if not node:
            return None
        return cls._parse(where, unescape_llvm_string(node.group(1)))


def escape_llvm_string(s: str) -> str:
    """Text as the inside of an LLVM IR string (`"` and `\\` and non-printable bytes as `\\XX`)."""
    return "".join(chr(c) if 0x20 <= c < 0x7F and c not in (0x22, 0x5C) else f"\\{c:02X}" for c in s.encode("utf-8"))


def unescape_llvm_string(s: str) -> str:
    out = bytearray()
    i = 0
    raw = s.encode("utf-8")
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw) and raw[i + 1] == 0x5C:
            out.append(0x5C)
            i += 2
        elif c == 0x5C and i + 2 < len(raw):
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(c)
            i += 1
    return out.decode("utf-8")


_PTX_ENTRY = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)?\.entry\s+([A-Za-z_$%][\w$]*)\s*\(", re.M)


def ptx_entries(text: str) -> list[str]:
    """The names of the kernels (`.entry`) a PTX text defines."""
    return _PTX_ENTRY.findall(text)


def sidecar_path(path: str) -> str:
    return path + ".json"


def source_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
