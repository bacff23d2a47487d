"""`@triton.autotune` and `@triton.heuristics` as Triton evaluates them, with no Triton installed, for tt-tune
and `tt-compile --autotuned`.

The kernel file is executed as Python (its top-level statements one by one, `__name__` its stem) with a stand-in
`triton` package on the import path: `triton.Config`, `autotune`, `heuristics` and `jit` record what they are
given, `cdiv` and `next_power_of_2` compute, and any other `triton.*` name is a placeholder that is an error only
when called. Kernel bodies never run. A top-level statement that fails (`import torch` with no torch,
`DEVICE = triton.runtime.driver.active...`) leaves its names as placeholders that say why when used, so only the
decorators that really need them fail, as a located `file:line:col: error:`.

`variants` applies, for each config after pruning (`prune_configs_by`: early_config_prune, then perf_model and
top_k, as Triton's Autotuner does), the decorator layers from the outside in: heuristics see the named
arguments (host stand-ins: scalars as numbers, pointers as `HostTensor`s, descriptors as `HostDescriptor`s)
and what the outer layers set. The kernel's signature for a config is its parameters in order: the config's and
heuristics' values, else the spec's signature entries, else the constexpr parameters' defaults.

The autotune cache file is Triton's: `<cache>/<base32 sha256>/<kernel>.autotune.json` holding
`{"key": [...], "configs_timings": [[config.__dict__, [p50, p20, p80]], ...]}` (infinity for a config that
failed or gave wrong results), plus ttc's per-config results under "ttc_results". The hash covers ttc's
compiler key, the target, the kernel file's text, the kernel's name, the spec's text, the tuning key and the
configs, so that any change of them is a miss.
"""

from __future__ import annotations

import ast
import base64
import builtins
import hashlib
import importlib.abc
import importlib.machinery
import json
import math
import os
import sys
import traceback
import types
from pathlib import Path

from ttc.ir.diagnostics import CompileError, Diagnostic

OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "maxnreg")


class TuneError(Exception):
    """A problem with the decorators or the configs, at a line of the kernel file (0 when unknown)."""

    def __init__(self, message: str, line: int = 0, col: int = 0):
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


# ----------------------------------------------------------------------------- the stand-in triton package


class Config:
    """triton.Config: a config's constexpr values and compile options."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self) -> dict:
        options = {k: getattr(self, k) for k in (*OPTION_NAMES, "ir_override") if getattr(self, k) is not None}
        return {**self.kwargs, **options}

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}",
                  f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__

    def __hash__(self):
        return hash((*self.all_kwargs().items(), self.pre_hook))

    def __eq__(self, other):
        return isinstance(other, Config) and (tuple(self.all_kwargs().items()), self.pre_hook) == (
            tuple(other.all_kwargs().items()), other.pre_hook)

    def as_dict(self) -> dict:
        """The config as tt-tune's JSON and `--configs` files write it."""
        d = {"kwargs": self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}
        if self.num_ctas != 1:
            d["num_ctas"] = self.num_ctas
        if self.maxnreg is not None:
            d["maxnreg"] = self.maxnreg
        return d


class Jit:
    """What `@triton.jit` gives: the Python function (never called) and its parameter names."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        code = fn.__code__
        self.arg_names = list(code.co_varnames[: code.co_argcount])

    def __call__(self, *args, **kwargs):
        raise TuneError(f"'{self.__name__}' is a @triton.jit function: tt-tune never runs it on the host")

    def __getitem__(self, grid):
        return self


class Heuristics:
    def __init__(self, fn, values: dict):
        self.fn, self.values, self.arg_names = fn, dict(values), fn.arg_names
        self.__name__ = fn.__name__


class Autotuned:
    def __init__(self, fn, configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
                 cache_results=False):
        self.fn, self.arg_names = fn, fn.arg_names
        self.__name__ = fn.__name__
        self.configs = list(configs) if configs else [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        self.key = list(key)
        prune = prune_configs_by or {}
        self.early_config_prune = prune.get("early_config_prune")
        self.perf_model = prune.get("perf_model")
        self.top_k = prune.get("top_k", 1.0)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.pre_hook, self.post_hook = pre_hook, post_hook
        self.warmup, self.rep = warmup, rep
        self.use_cuda_graph, self.do_bench = use_cuda_graph, do_bench
        self.cache_results = cache_results


def _jit(fn=None, **options):
    return Jit(fn) if fn is not None else Jit


def _autotune(configs, key, **kwargs):
    return lambda fn: Autotuned(fn, configs, key, **kwargs)


def _heuristics(values):
    return lambda fn: Heuristics(fn, values)


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


class Absent:
    """A name tt-tune cannot give a value (a Triton or torch runtime object, a failed global): attributes give
    more placeholders, calling one or computing with it is an error saying which name it was."""

    def __init__(self, name: str, why: str = ""):
        self._name, self._why = name, why

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Absent(f"{self._name}.{attr}", self._why)

    def _fail(self, *args, **kwargs):
        why = f" ({self._why})" if self._why else ""
        raise TuneError(f"'{self._name}' is not available to tt-tune{why}")

    __call__ = __bool__ = __int__ = __float__ = __index__ = __iter__ = __len__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __floordiv__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __getitem__ = _fail

    def __repr__(self):
        return f"<{self._name}: not available to tt-tune>"


class _constexpr:
    """tl.constexpr: an annotation, and a wrapper of a value in host code."""

    def __init__(self, value=None):
        self.value = value.value if isinstance(value, _constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value}]"


class _Module(types.ModuleType):
    """A stand-in module: its own names, and placeholders for the rest."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Absent(f"{self.__name__}.{attr}", "tt-tune runs without Triton")


def _stand_in(fullname: str) -> types.ModuleType:
    m = _Module(fullname)
    m.__path__ = []  # a package: `import triton.language.extra.cuda` finds its submodules here too
    if fullname == "triton":
        m.Config, m.autotune, m.heuristics, m.jit = Config, _autotune, _heuristics, _jit
        m.cdiv, m.next_power_of_2 = cdiv, next_power_of_2
        m.constexpr = _constexpr
    elif fullname == "triton.language":
        m.constexpr, m.cdiv = _constexpr, cdiv
    elif fullname == "triton.runtime":
        m.Config, m.autotune, m.heuristics, m.jit = Config, _autotune, _heuristics, _jit
    elif fullname == "triton.tools.tensor_descriptor":
        m.TensorDescriptor = HostDescriptor
    return m


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "triton" or fullname.startswith("triton."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _stand_in(spec.name)

    def exec_module(self, module):
        parent, _, child = module.__name__.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)


# ----------------------------------------------------------------------------- host stand-ins of arguments

_TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64", "i1": "bool",
                 "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
                 "u32": "uint32", "u64": "uint64", "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


class HostDType:
    def __init__(self, spec_type: str, itemsize: int):
        self.name = _TORCH_DTYPES.get(spec_type, spec_type)
        self.itemsize = itemsize
        self.is_floating_point = spec_type.startswith(("fp", "bf"))

    def __str__(self):
        return f"torch.{self.name}"

    __repr__ = __str__

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class HostTensor:
    """A pointer argument as heuristics and prune functions see it (a torch tensor's host-side surface). Its values
    (`array`) are drawn only when read: the decorators' functions read shapes, strides and dtypes, and drawing
    the spec's random inputs (2 x 16M values for a 4096^2 matmul) costs the parent most of a second."""

    def __init__(self, array, spec_type: str, shape=None, host=None, draw=None):
        self._array, self._draw = array, draw
        host = array.dtype if array is not None else host
        self.dtype = HostDType(spec_type, host.itemsize if spec_type != "bf16" else 2)
        self.shape = tuple(array.shape if array is not None else shape)
        self.ndim = len(self.shape)

    @property
    def array(self):
        if self._array is None:
            self._array = self._draw()
        return self._array

    def element_size(self):
        return self.dtype.itemsize

    def numel(self):
        return math.prod(self.shape)

    def dim(self):
        return self.ndim

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]

    def stride(self, d=None):
        st = tuple(math.prod(self.shape[i + 1:]) for i in range(self.ndim))  # the spec's values are row-major
        return st if d is None else st[d]


class HostDescriptor:
    """A tensor descriptor argument (triton.tools.tensor_descriptor.TensorDescriptor's fields); a config's pre_hook
    may set its block_shape."""

    def __init__(self, base, shape, strides, block_shape, padding="zero"):
        self.base, self.shape, self.strides = base, list(shape), list(strides)
        self.block_shape, self.padding = list(block_shape), padding

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        return HostDescriptor(tensor, tensor.shape, tensor.stride(), block_shape, padding)


def named_args(spec, draw) -> dict:
    """The spec's arguments as the decorators' functions see them, by name; `draw()` gives the spec's initial
    values (all of them), called only when a function reads a pointer argument's values."""
    out = {}
    for a in spec.args:
        if not a.is_ptr:
            out[a.name] = a.value
            continue
        base = a.type[len("tensordesc<"):].split("[")[0].strip() if a.is_desc else a.type.lstrip("*")
        if a.shape is None:  # an init file gives the shape
            t = HostTensor(draw()[a.name], base)
        else:
            t = HostTensor(None, base, a.shape, a.host, draw=lambda n=a.name: draw()[n])
        out[a.name] = HostDescriptor(t, a.shape, a.strides, a.block) if a.is_desc else t
    return out


# ----------------------------------------------------------------------------- reading the file


class Tunable:
    """A kernel with its decorator layers (outermost first) and what they say."""

    def __init__(self, path: str, text: str, name: str, obj, module: dict):
        self.path, self.text, self.name, self.module = path, text, name, module
        self.layers = []
        while not isinstance(obj, Jit):
            self.layers.append(obj)
            obj = obj.fn
        self.jit = obj
        tuners = [layer for layer in self.layers if isinstance(layer, Autotuned)]
        if len(tuners) > 1:
            raise TuneError(f"'{name}' has {len(tuners)} @triton.autotune decorators; tt-tune handles one",
                            self.def_line)
        self.autotuned = tuners[0] if tuners else None
        fn = obj.fn
        self.params = obj.arg_names
        annotations = getattr(fn, "__annotations__", {})
        self.constexpr = {p for p in self.params if _is_constexpr(annotations.get(p))}
        defaults = fn.__defaults__ or ()
        self.defaults = dict(zip(self.params[len(self.params) - len(defaults):], defaults))

    @property
    def def_line(self) -> int:
        return getattr(self.jit.fn, "__code__").co_firstlineno

    @property
    def configs(self) -> list:
        return self.autotuned.configs if self.autotuned else [Config({})]

    def error(self, e: Exception, line: int | None = None) -> CompileError:
        return _located(self, e, line)


def _is_constexpr(annotation) -> bool:
    if annotation is _constexpr:
        return True
    if isinstance(annotation, str):
        return annotation.split(".")[-1] == "constexpr"
    return False


def _failing_line(path: str, tb) -> int:
    """The line of the kernel file where an exception was raised (its innermost frame in the file)."""
    line = 0
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == path:
            line = lineno
    return line


def _located(t, e: Exception, line: int | None = None) -> CompileError:
    path = t.path if isinstance(t, Tunable) else t
    if isinstance(e, TuneError):
        message = e.message
        line = line if line is not None else (e.line or _failing_line(path, e.__traceback__))
    else:
        message = f"{type(e).__name__}: {e}"
        line = line if line is not None else _failing_line(path, e.__traceback__)
    if not line and isinstance(t, Tunable):  # raised by tt-tune itself about the kernel: at its decorators
        line = t.def_line
    text = Path(path).read_text(encoding="utf-8") if os.path.isfile(path) else ""
    lines = text.split("\n")
    source = lines[line - 1] if 0 < line <= len(lines) else None
    col = (len(source) - len(source.lstrip()) + 1) if source else 0
    return CompileError(Diagnostic(path, line, col, message, "error", source))


def _assigned_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names if a.name != "*"]
    names = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
    return names


def read(path: str, kernel: str, text: str | None = None) -> Tunable:
    """Execute the kernel file with the stand-in triton and return `kernel` with its decorators."""
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        lines = text.split("\n")
        source = lines[e.lineno - 1] if e.lineno and 0 < e.lineno <= len(lines) else None
        raise CompileError(Diagnostic(path, e.lineno or 0, e.offset or 1, f"invalid syntax: {e.msg}", "error",
                                      source)) from None
    # a copy first (one C call): tt-tune's other threads import while this runs
    saved = {k: v for k, v in dict(sys.modules).items() if k == "triton" or k.startswith("triton.")}
    for k in saved:
        del sys.modules[k]
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    namespace = {"__name__": Path(path).stem, "__file__": os.path.abspath(path), "__builtins__": builtins}
    kernel_error = None
    try:
        for stmt in tree.body:
            code = compile(ast.Module([stmt], []), path, "exec")
            try:
                exec(code, namespace)
            except Exception as e:  # noqa: BLE001 - the file's own code may raise anything
                why = f"line {stmt.lineno} failed: {type(e).__name__}: {e}"
                if kernel in _assigned_names(stmt):
                    kernel_error = _located(path, e)
                for n in _assigned_names(stmt):
                    namespace.setdefault(n, Absent(n, why))
    finally:
        sys.meta_path.remove(finder)
        for k in [k for k in dict(sys.modules) if k == "triton" or k.startswith("triton.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    if kernel_error is not None:
        raise kernel_error
    obj = namespace.get(kernel)
    if not isinstance(obj, (Jit, Heuristics, Autotuned)):
        found = sorted(n for n, v in namespace.items() if isinstance(v, (Jit, Heuristics, Autotuned)))
        raise CompileError(Diagnostic(path, 0, 0, f"no @triton.jit function named '{kernel}' (found: "
                                      f"{', '.join(found) or 'none'})"))
    try:
        return Tunable(path, text, kernel, obj, namespace)
    except TuneError as e:
        raise _located(path, e) from None


def configs_from_file(path: str) -> list[Config]:
    """`--configs FILE`: a JSON list of {"kwargs": {...}, "num_warps": N, "num_stages": S, "maxnreg": R}."""
    where = lambda i, k="": f"[{i}]{'.' + k if k else ''}"  # noqa: E731
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise CompileError(Diagnostic(path, 0, 0, f"cannot read the configs: {e.strerror}")) from None
    except json.JSONDecodeError as e:
        raise CompileError(Diagnostic(path, e.lineno, e.colno, f"invalid JSON: {e.msg}")) from None
    if not isinstance(data, list) or not data:
        raise CompileError(Diagnostic(path, 0, 0, "the configs file must hold a non-empty JSON list of configs"))
    configs = []
    for i, c in enumerate(data):
        if not isinstance(c, dict) or not isinstance(c.get("kwargs", {}), dict):
            raise CompileError(Diagnostic(path, 0, 0, f"{where(i)}: a config is an object with a 'kwargs' object"))
        unknown = set(c) - {"kwargs", *OPTION_NAMES}
        if unknown:
            raise CompileError(Diagnostic(path, 0, 0, f"{where(i)}: unknown key '{sorted(unknown)[0]}'"))
        for k in OPTION_NAMES:
            v = c.get(k)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
                raise CompileError(Diagnostic(path, 0, 0, f"{where(i, k)}: {json.dumps(v)} is not a positive integer"))
        if c.get("num_warps") is not None and c["num_warps"] & (c["num_warps"] - 1):
            raise CompileError(Diagnostic(path, 0, 0, f"{where(i, 'num_warps')}: {c['num_warps']} is not a power of two"))
        configs.append(Config(c.get("kwargs", {}), num_warps=c.get("num_warps") or 4,
                              num_stages=c.get("num_stages") or 3, num_ctas=c.get("num_ctas") or 1,
                              maxnreg=c.get("maxnreg")))
    return configs


# ----------------------------------------------------------------------------- configs -> compiles


class Variant:
    """One config as compiled: every constexpr's value (the config's, heuristics', the spec's, defaults; what grid
    and check expressions see), the compile options and the kernel's signature."""

    def __init__(self, config: Config, constexprs: dict, options: dict, signature: str):
        self.config, self.constexprs, self.options, self.signature = config, constexprs, options, signature


def tuning_key(t: Tunable, nargs: dict) -> tuple:
    """Triton's tuning key: the values of the `key` arguments (positional or keyword), then the dtype of every
    argument that has one."""
    if t.autotuned is None:
        return ()
    key = [nargs[k] for k in t.autotuned.key if k in nargs]
    key += [str(v.dtype) for v in nargs.values() if hasattr(v, "dtype")]
    return tuple(key)


def prune(t: Tunable, configs: list, nargs: dict, kwargs: dict) -> list:
    """Triton's Autotuner.prune_configs: early_config_prune(configs, named_args, **kwargs), then the perf_model's
    top_k (a fraction of the configs when a float <= 1)."""
    at = t.autotuned
    if at is None:
        return configs
    pruned = configs
    try:
        if at.early_config_prune:
            pruned = list(at.early_config_prune(configs, nargs, **kwargs))
            if not pruned:
                raise TuneError("early_config_prune returned no config; it must keep at least one")
        if at.perf_model:
            top_k = at.top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(pruned) * top_k))
            elif not isinstance(top_k, int):
                raise TuneError("top_k must be a float <= 1.0 or an int")
            if len(pruned) > top_k:
                est = {c: at.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in pruned}
                pruned = sorted(est, key=lambda c: est[c])[:top_k]
    except Exception as e:  # noqa: BLE001
        raise t.error(e) from None
    return pruned


def _literal(v) -> str:
    if isinstance(v, _constexpr):
        v = v.value
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return f"'{v}'"
    raise TuneError(f"constexpr value {v!r} cannot be written in a signature")


def _spec_entries(spec) -> list[str]:
    from ttc.frontend.signature import split_signature

    if spec.signature is not None:
        return split_signature(spec.signature)
    return [a.type for a in spec.args]


def listed_parameters(t: Tunable, spec, configs: list) -> dict:
    """The parameters the spec's signature lists (those no config, heuristic or constexpr default sets), in
    order, each with its entry."""
    set_by = {k for c in configs for k in c.kwargs} | {k for layer in t.layers if isinstance(layer, Heuristics)
                                                      for k in layer.values}
    listed = [p for p in t.params if p not in set_by and not (p in t.constexpr and p in t.defaults)]
    entries = _spec_entries(spec)
    if len(entries) != len(listed):
        names = ", ".join(listed) or "none"
        raise TuneError(f"the signature has {len(entries)} entries but '{t.name}' has {len(listed)} parameters "
                        f"that no config, heuristic or default sets ({names})")
    return dict(zip(listed, entries))


def _entry_value(entry: str):
    from ttc.frontend.signature import _literal

    return _literal(entry.partition(":")[0])


def variants(t: Tunable, spec, nargs: dict, configs: list | None = None) -> tuple[list[Variant], tuple]:
    """The configs to compile (pruned) and the tuning key. Constexpr values that the spec's signature fixes are
    keyword arguments of the call: prune functions get them as **kwargs, heuristics see them."""
    configs = t.configs if configs is None else configs
    listed = listed_parameters(t, spec, configs)
    fixed = {p: _entry_value(e) for p, e in listed.items() if p in t.constexpr}
    outer = dict(fixed)  # the Autotuner's **kwargs: the call's keywords, then what outer heuristics set
    layers = t.layers
    split = layers.index(t.autotuned) if t.autotuned else len(layers)
    for layer in layers[:split]:
        outer.update(_heuristics_values(t, layer, nargs, outer))
    key = tuning_key(t, {**nargs, **fixed})
    chosen = prune(t, configs, nargs, outer) if t.autotuned else configs
    out = []
    for c in chosen:
        kwargs = dict(outer)
        if t.autotuned:
            conflicts = set(outer) & set(c.kwargs)
            if conflicts:
                raise t.error(TuneError(f"conflicting meta-parameters: {', '.join(sorted(conflicts))} are set by "
                                        "both the call (or a heuristic) and the config"), t.def_line)
            kwargs.update(c.all_kwargs())
        for layer in layers[split + 1:]:
            kwargs.update(_heuristics_values(t, layer, nargs, kwargs))
        if c.pre_hook is not None:
            try:
                c.pre_hook({**nargs, **kwargs})
            except Exception as e:  # noqa: BLE001
                raise t.error(e) from None
        out.append(_variant(t, c, kwargs, nargs, listed))
    return out, key


def _heuristics_values(t: Tunable, layer, nargs: dict, kwargs: dict) -> dict:
    values = {}
    for name, fn in layer.values.items():
        try:
            values[name] = fn({**nargs, **kwargs, **values})
        except Exception as e:  # noqa: BLE001
            raise t.error(e) from None
    return values


def _variant(t: Tunable, c: Config, kwargs: dict, nargs: dict, listed: dict) -> Variant:
    options = {"num_warps": c.num_warps, "num_stages": c.num_stages, "num_ctas": c.num_ctas, "maxnreg": c.maxnreg}
    for k in OPTION_NAMES:
        if kwargs.get(k) is not None:
            options[k] = kwargs[k]
    values = {k: (v.value if isinstance(v, _constexpr) else v) for k, v in kwargs.items()
              if k not in OPTION_NAMES and k != "ir_override"}
    for k in values:
        if k not in t.params:
            raise t.error(TuneError(f"config sets '{k}', which is not a parameter of '{t.name}'"), t.def_line)
    sig = []
    for p in t.params:
        if p in listed:
            entry = listed[p]
            if entry.startswith("tensordesc") and isinstance(nargs.get(p), HostDescriptor):  # a pre_hook may set it
                base = entry[len("tensordesc<"):].split("[")[0].strip()
                entry = f"tensordesc<{base}[{', '.join(str(int(b)) for b in nargs[p].block_shape)}]>"
            sig.append(entry)
            continue
        if p not in values and p in t.defaults:
            values[p] = t.defaults[p].value if isinstance(t.defaults[p], _constexpr) else t.defaults[p]
        if p not in values:
            raise t.error(TuneError(f"config {c} sets no value for '{p}', which another config or a heuristic "
                                    "sets"), t.def_line)
        try:
            sig.append(_literal(values[p]))
        except TuneError as e:
            raise t.error(e, t.def_line) from None
    return Variant(c, values, options, ",".join(sig))


class Prepared:
    """A kernel's decorators read and its configs expanded for a spec (what tt-tune and tt-compile share)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def initial(self) -> dict:
        """The spec's initial values as the autotuner's launches see them (`reset_to_zero` buffers zero), drawn
        on the first call: only a decorator function or a grid that reads a pointer argument's values needs them.
        They are tt-tune's draw (`spec.fast_initial_values`), the values its workers run and check the configs
        with."""
        import numpy as np

        from ttc.runtime import spec as specs

        if self.drawn is None:
            at = self.tunable.autotuned
            self.drawn = specs.fast_initial_values(self.spec)
            for n in at.reset_to_zero if at else []:
                self.drawn[n] = np.zeros_like(self.drawn[n])
        return self.drawn


def prepare(path: str, kernel: str, spec_path: str, configs_file: str | None = None) -> Prepared:
    """Read the kernel's decorators and the spec; prune and expand the configs (or those of `configs_file`). The
    spec's random values are not drawn (see `Prepared.initial`)."""
    from ttc.runtime import spec as specs
    from ttc.runtime.errors import SpecError

    t = read(path, kernel)
    spec = specs.load(spec_path)
    spec_text = Path(spec_path).read_text(encoding="utf-8")
    at = t.autotuned
    for what, names in (("reset_to_zero", at.reset_to_zero if at else []),
                        ("restore_value", at.restore_value if at else [])):
        for n in names:
            a = spec.arg(n)
            if a is None or not a.is_ptr:
                raise t.error(TuneError(f"{what} names '{n}', which is not a pointer argument of the spec"), t.def_line)
    if at is not None and (at.pre_hook is not None or at.post_hook is not None):
        raise t.error(TuneError("@triton.autotune's pre_hook/post_hook cannot run around GPU launches in tt-tune; "
                                "use reset_to_zero / restore_value"), t.def_line)
    p = Prepared(tunable=t, spec=spec, spec_text=spec_text, raw=json.loads(spec_text), drawn=None)
    p.nargs = named_args(spec, p.initial)
    configs = configs_from_file(configs_file) if configs_file else None
    try:
        p.variants, p.key = variants(t, spec, p.nargs, configs)
    except TuneError as e:
        raise specs.diagnostic(spec.path, SpecError(e.message, "signature")) from None
    return p


def cached_winner(path: str, kernel: str, spec_path: str, target: str, configs_file: str | None = None) -> Variant:
    """The winner that tt-tune stored for this kernel, spec, configs and target (`tt-compile --autotuned`)."""
    p = prepare(path, kernel, spec_path, configs_file)
    where = cache_path(p.tunable, p.spec_text, target, p.key, [v.config for v in p.variants])
    data = load_cached(where)
    if data is None:
        raise CompileError(Diagnostic(spec_path, 0, 0, f"no autotune result for '{kernel}' with this spec, its "
                                      f"configs and target {target} (looked for {where}): run tt-tune first"))
    best = best_cached(data)
    if best is None:
        raise CompileError(Diagnostic(spec_path, 0, 0, f"the autotune result {where} has no config that ran"))
    for v in p.variants:
        if v.config == best:
            return v
    raise CompileError(Diagnostic(spec_path, 0, 0, f"the autotune result {where} names a config that is not "
                                  "among the kernel's"))


# ----------------------------------------------------------------------------- Triton's autotune cache file


def cache_path(t: Tunable, spec_text: str, target: str, key: tuple, configs: list) -> str:
    from ttc.driver import cache

    parts = [cache.compiler_key(), target, hashlib.sha256(t.text.encode()).hexdigest(), t.name,
             hashlib.sha256(spec_text.encode()).hexdigest(), str(key)] + [str(c) for c in configs]
    digest = hashlib.sha256("-".join(parts).encode("utf-8")).hexdigest()
    name = base64.b32encode(bytes.fromhex(digest)).decode().rstrip("=")
    return os.path.join(cache.cache_dir(), name, f"{t.name[:150]}.autotune.json")


def load_cached(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("configs_timings"), list):
        return None
    return data


def store(path: str, key: tuple, results: list) -> None:
    """Write the autotune cache file (atomically) from tt-tune's results (dicts with "config" and "ms")."""
    from ttc.driver import cache

    timings = [[r["config"].__dict__ | {"pre_hook": None}, r["ms"] if r["ms"] else [math.inf] * 3] for r in results
               if r["config"].pre_hook is None]
    extra = [{k: v for k, v in r.items() if k != "config"} for r in results if r["config"].pre_hook is None]
    text = json.dumps({"key": list(key), "configs_timings": timings, "ttc_results": extra})
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        cache._put(os.path.dirname(path), os.path.basename(path), text)
    except OSError as e:
        sys.stderr.write(f"warning: cannot write the autotune cache '{path}': {e.strerror}\n")


def best_cached(data: dict) -> Config | None:
    """The config with the smallest timing of a cache file (lists compare as Triton's min does), or None."""
    timings = [(Config(**{k: v for k, v in c.items() if k in ("kwargs", *OPTION_NAMES)}), t)
               for c, t in data["configs_timings"]]
    timings = [(c, t) for c, t in timings if t and math.isfinite(t[0])]
    return min(timings, key=lambda ct: ct[1])[0] if timings else None
