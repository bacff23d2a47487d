"""Triton's kernel cache, for `tt-compile` and `ttc.compile`.

`$TRITON_CACHE_DIR` (default `~/.triton/cache`) holds one directory per compile key, named as Triton names them
(the base32 sha256 of the key), with the kernel's stages as TRITON_KERNEL_DUMP writes them and Triton's group
file, which lists them and is written last:

    <dir>/<KEY>/<kernel>.ttir .ttgir .llir .ptx .cubin .json    __grp__<kernel>.json {"child_paths": {...}}

The key is a sha256 of the kernel file's text and name, the kernel, its signature, every compile option and the
target, and the compiler itself: a sha256 of ttc's own sources and the names of the installed llvmlite, xDSL,
cuda-bindings and nvJitLink distributions (versions included). The frontend reads kernels from one file (helpers
are jit functions of the same file or of ttc's standard library), so the file covers the jit functions a kernel
calls. Every file is written to a temporary name in the entry's directory and renamed into place, the group file
last: a reader that finds the group file finds complete files, however many processes compile at once.
`TRITON_ALWAYS_COMPILE=1` compiles even on a hit (and stores the result).
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache

from ttc.driver.cli import env_on

VERSION = "ttc-cache-1"
EXTENSIONS = ("ttir", "ttgir", "llir", "ptx", "cubin", "json")
DEPENDENCIES = ("llvmlite", "xdsl", "cuda_bindings", "nvidia_nvjitlink")  # distributions whose code changes output


def cache_dir() -> str:
    return os.path.expanduser(os.environ.get("TRITON_CACHE_DIR") or "~/.triton/cache")


def always_compile() -> bool:
    return env_on("TRITON_ALWAYS_COMPILE")


@lru_cache(maxsize=1)
def compiler_key() -> str:
    """A sha256 of what the compiler is: ttc's sources (the `ttc` package, with `ttc.passes`) and the installed
    distributions it compiles with."""
    h = hashlib.sha256(VERSION.encode())
    for path in source_files():
        with open(path, "rb") as f:
            h.update(path.encode() + b"\0" + f.read() + b"\0")
    for dist in _distributions():
        h.update(dist.encode() + b"\0")
    return h.hexdigest()


def source_files() -> list[str]:
    """Every source of the `ttc` package and of `ttc.passes` (installed from its own folder), sorted."""
    import importlib.util

    roots = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}  # ttc/ (this is ttc/driver/cache.py)
    passes = importlib.util.find_spec("ttc.passes")
    if passes is not None and passes.submodule_search_locations:
        roots.update(os.path.abspath(p) for p in passes.submodule_search_locations)
    files = []
    for root in sorted(roots):
        for directory, subdirs, names in os.walk(root):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            files += [os.path.join(directory, n) for n in sorted(names) if n.endswith((".py", ".json"))]
    return files


def _distributions() -> list[str]:
    """The `name-version.dist-info` directories of DEPENDENCIES, found beside their packages (importing none)."""
    import importlib.util

    found = []
    for name in DEPENDENCIES:
        top = name.split("_")[0] if name.startswith(("cuda_", "nvidia_")) else name
        spec = importlib.util.find_spec(top)
        places = list(spec.submodule_search_locations or []) if spec is not None else []
        for place in places:
            found += sorted(os.path.basename(d) for d in glob.glob(os.path.join(os.path.dirname(place), f"{name}-*.dist-info")))
    return sorted(set(found))


def file_identity(path: str | None) -> list | None:
    """What identifies an external tool for the key (its path, size and modification time), or None."""
    if not path:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return [path]
    return [path, st.st_size, st.st_mtime_ns]


def key(**parts) -> str:
    """The cache key (a directory name, as Triton makes it) of a compile described by `parts`, with the
    compiler's own key."""
    text = json.dumps({"compiler": compiler_key(), **parts}, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return base64.b32encode(digest).decode().rstrip("=")


def _group_file(key: str, kernel: str) -> str:
    return os.path.join(cache_dir(), key, f"__grp__{kernel}.json")


def lookup(key: str, kernel: str) -> dict[str, str] | None:
    """{extension: path} of a complete entry for `kernel`, or None."""
    try:
        with open(_group_file(key, kernel), encoding="utf-8") as f:
            children = json.load(f).get("child_paths")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(children, dict):
        return None
    files = {}
    for ext in EXTENSIONS:
        path = children.get(f"{kernel}.{ext}")
        if not isinstance(path, str) or not os.path.isfile(path):
            return None
        files[ext] = path
    return files


def read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def store(key: str, kernel: str, files: dict[str, str | bytes]) -> str | None:
    """Write an entry (every file atomically, then the group file); returns its directory, or None (with a
    warning on stderr) when the cache cannot be written: the compile itself succeeded."""
    directory = os.path.join(cache_dir(), key)
    try:
        os.makedirs(directory, exist_ok=True)
        children = {}
        for ext in EXTENSIONS:
            children[f"{kernel}.{ext}"] = _put(directory, f"{kernel}.{ext}", files[ext])
        _put(directory, f"__grp__{kernel}.json", json.dumps({"child_paths": children}))
    except OSError as e:
        sys.stderr.write(f"warning: cannot write to the kernel cache '{directory}': {e.strerror} (set TRITON_CACHE_DIR)\n")
        return None
    return directory


def _put(directory: str, name: str, data: str | bytes) -> str:
    path = os.path.join(directory, name)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".tmp.{name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
