"""What the GPU launch needs to know about a kernel binary, read without a GPU: the `.entry` functions of PTX
with their parameter sizes and thread counts (`.reqntid`/`.maxntid`), and Triton's compile metadata (a JSON
object with name, num_warps, shared, global_scratch_size, ...) next to the binary.

The metadata file is `<binary>.json` (k.cubin.json) or, as in Triton's cache, `<stem>.json` (k.json); a
candidate is used only if it is not the spec itself and is a JSON object with a "name".
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

_ENTRY = re.compile(r"\.entry\s+([\w$.]+)\s*\((.*?)\)\s*([^{]*)\{", re.S)
_PARAM = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.([busf])(\d+)(?:\s+\.ptr(?:\s+\.\w+)*(?:\s+\.align\s+\d+)?)?\s+[\w$.]+(?:\[(\d+)\])?")
_NTID = re.compile(r"\.(reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?")


@dataclass
class Entry:
    name: str
    param_sizes: list  # bytes per parameter, in order
    threads: int | None  # threads per block from .reqntid / .maxntid


def ptx_entries(text: str) -> list[Entry]:
    entries = []
    for m in _ENTRY.finditer(text):
        sizes = [int(bits) // 8 * int(count or 1) for _, bits, count in _PARAM.findall(m.group(2))]
        threads = None
        if (t := _NTID.search(m.group(3))) is not None:
            threads = math.prod(int(v) for v in t.groups()[1:] if v)
        entries.append(Entry(m.group(1), sizes, threads))
    return entries


def metadata(binary: str, spec_path) -> dict:
    """Triton's metadata for `binary`, or {} when there is none."""
    path = Path(binary)
    spec = Path(spec_path).resolve()
    for candidate in (Path(str(path) + ".json"), path.with_suffix(".json")):
        if not candidate.is_file() or candidate.resolve() == spec:
            continue
        try:
            data = json.loads(candidate.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            return data
    return {}
