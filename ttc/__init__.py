"""ttc: a Triton-style GPU kernel compiler whose stages are separate opt-style commands over Triton's textual IR.

`ttc.compile(path, kernel, signature, options)` runs every stage in one process, with Triton's kernel cache (see
`ttc.driver.compiler`); `ttc.Options` are its options. Importing `ttc` loads nothing else; it installs
import hooks (below): xDSL's lazily parsed op formats, its IRDL dialect finder imported only when an .irdl
file exists (`_Instead`), xDSL's op and attribute definitions built on first use (`ttc.ir.lazy_defs`), modules
imported on first use (`_LazyModule`: ctypes in xDSL's bitwise casts, inspect in `dataclasses`, importlib.resources
and platform in llvmlite, hashlib in ttc's source hashes), and on `dataclasses` `_DataclassCode` and
`_DataclassDoc`; and `_RegexCode` in `re`.
"""

import sys


class _Hooks:
    """The one meta-path finder of every hook below (`_AfterImport`), first on `sys.meta_path`: a dict lookup per
    import where a finder per hook (ten) asked each in turn cost ~1 M instructions per command and hook."""

    def __init__(self):
        self.hooks = {}

    def add(self, hook):
        self.hooks[hook.name] = hook
        if self not in sys.meta_path:
            sys.meta_path.insert(0, self)

    def remove(self, hook):
        if self.hooks.get(hook.name) is hook:
            del self.hooks[hook.name]

    def find_spec(self, name, path=None, target=None):
        hook = self.hooks.get(name)
        return None if hook is None else hook.find_spec(name, path, target)


_HOOKS = _Hooks()


class _AfterImport:
    """A hook (on `_HOOKS`) that runs `patch(module)` right after `name` is first imported, then leaves: a way
    to change a library's module without importing it at `import ttc`."""

    def __init__(self, name: str, patch):
        self.name, self.patch = name, patch

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        _HOOKS.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        spec.loader.exec_module = self._exec(spec.loader.exec_module)
        return spec

    def _exec(self, run):
        """The loader's `exec_module` for the module: its code (`run`), then the patch."""

        def exec_module(module):
            run(module)
            self.patch(module)

        return exec_module


def _lazy_xdsl_formats(module):
    """Makes xDSL parse an op's declarative assembly format when the op is first parsed or printed with it,
    rather than when its class is defined: importing xDSL's arith, scf, cf and builtin parsed about fifty
    formats (10-15% of their import) that ttc never uses, since `ttc.ir.format` reads and writes those ops.
    Run on `xdsl.irdl.declarative_assembly_format` once it is imported (xDSL is pinned; `FormatProgram.from_str`
    is its one entry to the format parser), so that `import ttc` imports no part of xDSL."""
    module.FormatProgram.from_str = staticmethod(_LazyFormat)


class _LazyFormat:
    """A FormatProgram parsed on first use (xDSL calls only `parse` and `print` on it)."""

    __slots__ = ("text", "op_def", "program")

    def __init__(self, text, op_def):
        self.text, self.op_def, self.program = text, op_def, None

    def _program(self):
        if self.program is None:
            from xdsl.irdl.declarative_assembly_format_parser import FormatParser

            self.program = FormatParser(self.text, self.op_def).parse_format()
        return self.program

    def parse(self, parser, op_type):
        return self._program().parse(parser, op_type)

    def print(self, printer, op):
        return self._program().print(printer, op)


if "xdsl.irdl.declarative_assembly_format" not in sys.modules:
    _HOOKS.add(_AfterImport("xdsl.irdl.declarative_assembly_format", _lazy_xdsl_formats))


class _IRDLFinder:
    """Stands in for xDSL's IRDLDialectFinder, which `xdsl.dialects` puts last on sys.meta_path to import a
    `<name>.irdl` dialect file as a module: the same search (the file next to where the module was looked for),
    with xDSL's finder and its module run only once such a file exists. That module imports importlib.abc, and
    with it importlib.resources, tempfile, shutil and random: ~2% of the instructions of a short tt-opt, for
    files ttc never reads. `xdsl.utils.dialect_loader` holds this class until anything else is asked of it
    (PEP 562's module `__getattr__`); then its code runs (see `_lazy_dialect_loader`)."""

    def __init__(self, get_all_dialects):
        self.get_all_dialects = get_all_dialects

    def find_spec(self, fullname, path=None, target=None):
        import os

        if fullname in sys.modules:
            return sys.modules[fullname].__spec__
        filename = fullname.rpartition(".")[2] + ".irdl"
        if not any(os.path.isfile(os.path.join(entry, filename)) for entry in path or [os.getcwd()]):
            return None
        module = sys.modules["xdsl.utils.dialect_loader"]
        if "__getattr__" in vars(module):  # its code has not run yet
            module.__getattr__("IRDLDialectLoader")
        return module.IRDLDialectFinder(self.get_all_dialects).find_spec(fullname, path, target)


def _lazy_dialect_loader(module, run):
    """`xdsl.utils.dialect_loader` with `_IRDLFinder` as its IRDLDialectFinder; `run(module)` (its code) when
    anything else is asked of it."""

    def __getattr__(name):
        if name.startswith("__"):  # the import system's probes (`__path__`): not the module's names
            raise AttributeError(name)
        del module.__getattr__
        run(module)
        return getattr(module, name)

    module.IRDLDialectFinder = _IRDLFinder
    module.__getattr__ = __getattr__


class _Instead(_AfterImport):
    """An `_AfterImport` whose `patch(module, run)` runs instead of the module's code (`run(module)` runs it)."""

    def _exec(self, run):
        return lambda module: self.patch(module, run)


if "xdsl.utils.dialect_loader" not in sys.modules:
    _HOOKS.add(_Instead("xdsl.utils.dialect_loader", _lazy_dialect_loader))


class _LazyModule:
    """What `import NAME [as BOUND]` binds in a module that `_lazy_imports` runs: NAME is imported, and put in
    the stand-in's place in that module, when an attribute is first read from it. For ctypes in
    `xdsl.utils.bitwise_casts` (its float <-> bits helpers, for FloatData's hash and the printer's hex floats:
    1% of a short tt-opt), inspect in `dataclasses` (its one use, the generated `__doc__`, is `_DataclassDoc`'s
    on first read; inspect with ast, dis and tokenize: ~8% of tt-as) and platform in llvmlite's execution
    engine (for MCJIT, which ttc does not use)."""

    def __init__(self, module, name, bound):
        self.__module, self.__name, self.__bound = module, name, bound

    def _real(self):
        import importlib

        real = importlib.import_module(self.__name)
        setattr(self.__module, self.__bound, real)
        return real

    def __getattr__(self, name):
        if name.startswith("__"):  # the import system's probes (`__spec__`): not the module's names
            raise AttributeError(name)
        return getattr(self._real(), name)


class _LlvmliteResources(_LazyModule):
    """importlib.resources as llvmlite.binding.ffi uses it, to find its library next to its own module:
    `as_file(files(package) / name)`, which is that file's path where the package is a folder of files (a
    FileLoader's: `pathlib.Path(loader.path).parent`, what importlib.resources' FileReader gives, and `as_file`
    of a Path yields it). importlib.resources, with typing, importlib.readers and zipfile, is ~6% of
    tt-translate --target=ptx; anything else asked of it imports it (`_LazyModule`)."""

    def files(self, package):
        import importlib.machinery

        loader = getattr(getattr(sys.modules.get(package), "__spec__", None), "loader", None)
        if not isinstance(loader, (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)):
            return self._real().files(package)
        import pathlib

        return pathlib.Path(loader.path).parent

    def as_file(self, path):
        import pathlib

        if type(path) is not pathlib.PosixPath and type(path) is not pathlib.WindowsPath:
            return self._real().as_file(path)
        import contextlib

        return contextlib.nullcontext(path)


class _Sha256Hashlib(_LazyModule):
    """hashlib as ttc's source hashes use it (`hashlib.sha256`, in `ttc.frontend.driver` and `ttc.lowering.metadata`):
    Python's own SHA-256 (`_sha256`; 3.12's `_sha2`), the digest OpenSSL's gives, without hashlib's import, which
    loads OpenSSL for its constructors (~12 M instructions: 2-4% of tt-frontend, tt-translate, tt-as); anything else
    asked of it imports hashlib (`_LazyModule`), as does `sha256` where neither module exists."""

    def sha256(self, *args, **kwargs):
        for name in ("_sha256", "_sha2"):
            try:
                return __import__(name).sha256(*args, **kwargs)
            except (ImportError, AttributeError):
                continue
        return self._real().sha256(*args, **kwargs)


def _lazy_imports(*stand_ins):
    """An `_Instead` patch that runs the module with `kind(module, name, bound)` as what `import name` finds in
    sys.modules, for each (name, bound, kind) not imported yet; taken out again right after."""

    def patch(module, run):
        placed = {}
        for name, bound, kind in stand_ins:
            if name not in sys.modules:
                sys.modules[name] = placed[name] = kind(module, name, bound)
        try:
            run(module)
        finally:
            for name, stand_in in placed.items():
                if sys.modules.get(name) is stand_in:
                    del sys.modules[name]

    return patch


for _name, _stand_ins in (("xdsl.utils.bitwise_casts", [("ctypes", "ctypes", _LazyModule)]),
                          ("llvmlite.binding.ffi", [("importlib.resources", "_impres", _LlvmliteResources)]),
                          ("llvmlite.binding.executionengine", [("platform", "platform", _LazyModule)]),
                          ("ttc.frontend.driver", [("hashlib", "hashlib", _Sha256Hashlib)]),
                          ("ttc.lowering.metadata", [("hashlib", "hashlib", _Sha256Hashlib)])):
    if _name not in sys.modules:
        _HOOKS.add(_Instead(_name, _lazy_imports(*_stand_ins)))


def _lazy_definitions(module):
    """Run on `xdsl.irdl.operations` and `xdsl.irdl.attributes` once imported: their decorators' work deferred
    to each op's and attribute's first use (`ttc.ir.lazy_defs`)."""
    from ttc.ir import lazy_defs

    lazy_defs.install(module)


for _name in ("xdsl.irdl.operations", "xdsl.irdl.attributes"):
    if _name not in sys.modules:
        _HOOKS.add(_AfterImport(_name, _lazy_definitions))


def _memo_any_of(module):
    """Run on `xdsl.irdl.constraints` once imported: `AnyOf.get` of three or more `BaseAttr`s gives, for the same
    classes in the same order, the object it gave the first time. xDSL's annotations name the same unions of
    ~20 float types again and again (`AnyFloat` in FloatAttr's, VectorType's, ... parameters), and each call
    merges its constraints pairwise (~20x20 comparisons): ~1 M instructions a call, ~2% of a short tt-opt.
    Exact: a BaseAttr is a frozen dataclass of one field, its class, and classes compare by identity, so equal
    keys are equal arguments, and `get` builds its (frozen) result from nothing but them."""
    get, base_attr, memo = module.AnyOf.get, module.BaseAttr, {}

    def get_memo(*attr_constrs):
        if len(attr_constrs) < 3 or any(type(c) is not base_attr for c in attr_constrs):
            return get(*attr_constrs)
        key = tuple(c.attr for c in attr_constrs)
        result = memo.get(key)
        if result is None:
            result = memo[key] = get(*attr_constrs)
        return result

    module.AnyOf.get = staticmethod(get_memo)


if "xdsl.irdl.constraints" not in sys.modules:
    _HOOKS.add(_AfterImport("xdsl.irdl.constraints", _memo_any_of))


class _DataclassCode:
    """Reuses the code objects `dataclasses` compiles for every generated method: Python 3.10-3.13 write one
    source text per `__init__`/`__repr__`/`__eq__`/... of each dataclass and compile it at class creation, about
    40% of importing xDSL's core, builtin and arith (bytecode does not cache it). This shadows the module-level
    `exec` that `dataclasses` calls with such a text: the text is the key, its code object (`compile` with the
    flags and file name `exec` would use, so the same object) the value, one marshal file per defining module
    under `ttc/__pycache__/dc/`, read when that module defines its first dataclass. Files are written at exit
    for modules that compiled something new (atomically; where the folder is not writable, not at all), also
    under PYTHONDONTWRITEBYTECODE: no install step can fill them (they need xDSL imported), and they hold
    xDSL's methods, not our bytecode. Only xDSL's and ttc's own modules are cached."""

    MODULES = ("xdsl.", "ttc.")
    folder = None  # set when installed; a test may point it elsewhere first

    def __init__(self, folder):
        self.folder, self.shards, self.dirty, self.hits, self.misses = folder, {}, set(), 0, 0

    def _shard(self, module):
        shard = self.shards.get(module)
        if shard is None:
            shard = self.shards[module] = _read_marshal(f"{self.folder}/{module}.{sys.implementation.cache_tag}.marshal")
        return shard

    def exec(self, source, globals=None, locals=None, /):
        module = globals.get("__name__", "") if type(globals) is dict else ""
        if type(source) is str and module.startswith(self.MODULES):
            shard = self._shard(module)
            code = shard.get(source)
            if code is None:
                code = shard[source] = _builtin_compile(source, "<string>", "exec", dont_inherit=True)
                self.dirty.add(module)
                self.misses += 1
            else:
                self.hits += 1
            source = code
        return _builtin_exec(source, globals, locals)

    def save(self):
        for module in sorted(self.dirty):
            _write_marshal(self.folder, f"{module}.{sys.implementation.cache_tag}.marshal", self.shards[module])
        self.dirty.clear()


def _read_marshal(path) -> dict:
    """The dict a cache file holds; {} where it is missing or damaged."""
    import marshal

    try:
        # The whole file, then loads: marshal.load(f) calls f.readinto for every byte, integer and string it
        # reads (93k calls for tt-opt's 46 dataclass files), which was 16% of a short tt-opt's instructions.
        with open(path, "rb") as f:
            table = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return table if type(table) is dict else {}


def _write_marshal(folder, name, table):
    """Writes a cache file atomically; not at all where the folder is not writable."""
    import marshal
    import os

    path, data = f"{folder}/{name}", marshal.dumps(table)
    try:
        os.makedirs(folder, exist_ok=True)
        with open(f"{path}.{os.getpid()}", "wb") as f:
            f.write(data)
        os.replace(f"{path}.{os.getpid()}", path)
    except OSError:
        pass


def _cache_dataclass_code(dataclasses):
    """Installs _DataclassCode in `dataclasses` where it builds methods from source texts (3.10-3.12's
    `_create_fn`, 3.13's `_FuncBuilder`); elsewhere leaves it alone."""
    if "exec" in vars(dataclasses) or not ("_create_fn" in vars(dataclasses) or "_FuncBuilder" in vars(dataclasses)):
        return
    import atexit

    cache = _DataclassCode(_DataclassCode.folder or f"{__path__[0]}/__pycache__/dc")
    dataclasses.exec = cache.exec
    atexit.register(cache.save)


class _DataclassDoc:
    """The `__doc__` that `dataclasses` gives a dataclass without a docstring (its name and `inspect.signature`,
    ~3% of a short tt-opt for xDSL's ~75 such classes), computed when first read rather than at class creation.
    It stands in the class's `__doc__` while `_process_class` runs (truthy, so that it skips its own), then
    computes, on first read, what that code would have: same class, same name, signature text or '' where
    inspect fails (3.11-3.13's `_process_class`; 3.10's lets the error out, so it is left alone there), and
    puts the text in the place of the stand-in. A class whose `__init__` or `__new__` is replaced after its
    decoration would read a different text; test_startup checks every dataclass tt-opt defines."""

    __slots__ = ("cls", "name", "text")

    def __init__(self, cls):
        self.cls, self.name, self.text = cls, None, None

    def __get__(self, obj, owner=None):
        if self.name is None:  # `_process_class` asking whether the class has a docstring
            return self
        if self.text is None:
            import inspect

            try:
                self.text = self.name + str(inspect.signature(self.cls)).replace(" -> None", "")
            except (TypeError, ValueError):
                self.text = self.name
        for cls in {self.cls, owner}:  # owner: a copy of the class (slots=True) whose dict holds this too
            if cls is not None and vars(cls).get("__doc__") is self:
                type.__setattr__(cls, "__doc__", self.text)
        return self.text


def _lazy_dataclass_docs(dataclasses):
    """Wraps 3.11-3.13's `dataclasses._process_class` so that a class without a docstring gets a
    `_DataclassDoc`; elsewhere leaves `dataclasses` alone."""
    if not (3, 11) <= sys.version_info[:2] <= (3, 13) or "_process_class" not in vars(dataclasses):
        return
    process = dataclasses._process_class

    def _process_class(cls, *args):
        if getattr(cls, "__doc__") or "__doc__" not in vars(cls):
            return process(cls, *args)
        doc = vars(cls)["__doc__"]
        cls.__doc__ = stand_in = _DataclassDoc(cls)
        try:
            result = process(cls, *args)
        except BaseException:
            cls.__doc__ = doc
            raise
        stand_in.name = cls.__name__
        return result

    dataclasses._process_class = _process_class


class _RegexCode:
    """Reuses what `re` compiles a pattern to (the SRE code list and group tables that `re._compiler.compile`
    hands to `_sre.compile`), so that a fresh process does not run the pattern parser and code generator again:
    xDSL's lexers and ttc's parser and printer compile ~30 patterns at import, ~1% of a short tt-opt. Only
    literal patterns (a constant of the calling code) of xDSL's and ttc's modules are kept, so the file holds
    the patterns of the source code, not ones built at run time; one marshal file next to _DataclassCode's,
    named by `re`'s code format (`_constants.MAGIC`) and the interpreter's cache tag, read at the first such
    compile and written at exit when something new was compiled. `_sre.compile` builds the same Pattern from
    the same arguments (Patterns compare equal by flags, pattern and code: test_startup checks every entry)."""

    def __init__(self, compiler, folder):
        self.compiler, self.compile_, self.folder, self.table = compiler, compiler.compile, folder, None
        self.name = f"re.{compiler.MAGIC}.{sys.implementation.cache_tag}.marshal"
        self.dirty, self.hits = False, 0

    def compile(self, p, flags=0):
        if type(p) is str and not flags & self.compiler.SRE_FLAG_DEBUG:
            f = sys._getframe(1)
            while f is not None and f.f_globals.get("__name__", "").partition(".")[0] == "re":
                f = f.f_back  # re.compile, re.match, ... and re._compile
            if f is not None and f.f_globals.get("__name__", "").startswith(_DataclassCode.MODULES) \
                    and p in f.f_code.co_consts:
                if self.table is None:
                    self.table = _read_marshal(f"{self.folder}/{self.name}")
                args = self.table.get((p, flags))
                if args is None:
                    args = self.table[p, flags] = _sre_args(self.compiler, p, flags)
                    self.dirty = True
                else:
                    self.hits += 1
                return self.compiler._sre.compile(p, *args)
        return self.compile_(p, flags)

    def save(self):
        if self.dirty:
            _write_marshal(self.folder, self.name, self.table)
            self.dirty = False


def _sre_args(compiler, p, flags):
    """The arguments after the pattern that `re._compiler.compile(p, flags)` gives `_sre.compile` (3.11-3.13)."""
    parsed = compiler._parser.parse(p, flags)
    code, state = compiler._code(parsed, flags), parsed.state
    indexgroup = [None] * state.groups
    for name, index in state.groupdict.items():
        indexgroup[index] = name
    # int(): the opcodes are re's _NamedIntConstant, which marshal cannot write; _sre reads both alike
    return flags | state.flags, [int(c) for c in code], state.groups - 1, state.groupdict, tuple(indexgroup)


def _cache_regex_code(re):
    """Installs _RegexCode as `re._compiler.compile` on 3.11-3.13 (whose `compile` is the one `_sre_args`
    follows); elsewhere leaves `re` alone."""
    compiler = getattr(re, "_compiler", None)
    if not (3, 11) <= sys.version_info[:2] <= (3, 13) or compiler is None \
            or type(getattr(compiler.compile, "__self__", None)) is _RegexCode:
        return
    import atexit

    cache = _RegexCode(compiler, _DataclassCode.folder or f"{__path__[0]}/__pycache__/dc")
    compiler.compile = cache.compile
    atexit.register(cache.save)


def _patch_dataclasses(dataclasses):
    _cache_dataclass_code(dataclasses)
    _lazy_dataclass_docs(dataclasses)


_builtin_exec, _builtin_compile = exec, compile  # before `compile` below shadows it
def _run_dataclasses(module, run):
    """`dataclasses` run with inspect imported on first use (`_LazyModule`), then patched."""
    _lazy_imports(("inspect", "inspect", _LazyModule))(module, run)
    _patch_dataclasses(module)


_DataclassHook = _Instead("dataclasses", _run_dataclasses)  # so that `import ttc` imports nothing
if "dataclasses" in sys.modules:
    _patch_dataclasses(sys.modules["dataclasses"])
else:
    _HOOKS.add(_DataclassHook)
if "re" in sys.modules:  # a console script imports it before ttc
    _cache_regex_code(sys.modules["re"])
else:
    _HOOKS.add(_AfterImport("re", _cache_regex_code))


def compile(*args, **kwargs):
    from ttc.driver.compiler import compile as compile_kernel

    return compile_kernel(*args, **kwargs)


def __getattr__(name):
    if name == "Options":
        from ttc.driver.compiler import Options

        return Options
    raise AttributeError(f"module 'ttc' has no attribute '{name}'")
