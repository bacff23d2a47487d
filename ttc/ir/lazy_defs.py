"""xDSL's op and attribute definitions built on first use (installed by `ttc`'s import hooks, see `install`): a
command uses a few dozen of the ~300 ops and ~50 attributes it imports, and building every op's OpDef and
accessors and every attribute's ParamAttrDef at class definition was start-up work it did not need (bench/NOTES.md,
branch lazy6). Each class, once built, is what xDSL's decorators make of it (test_startup compares every op's and
attribute's dict and definition with the eager ones)."""


def install(module):
    """Run on `xdsl.irdl.operations` (its `irdl_op_definition`) or `xdsl.irdl.attributes` (its
    `irdl_param_attr_definition`) right after the module's code."""
    if module.__name__ == "xdsl.irdl.operations":
        _lazy_op_definitions(module)
    else:
        _lazy_attr_definitions(module)


class _LazyOpDef:
    """Stands, on an xDSL op class, in each attribute that `irdl_op_definition` sets (the accessors of its
    operands, results, regions, successors, attributes and properties; `traits`, `get_irdl_definition`,
    `verify_`, and `parse`/`print` with an assembly format) until one of them is first read, set or deleted on
    the class or an instance: then `_build_op` runs xDSL's decorator on the class as it stood at decoration.
    A data descriptor, as the accessors (properties) are."""

    __slots__ = ("cls", "name")

    def __init__(self, cls, name):
        self.cls, self.name = cls, name

    def __get__(self, obj, owner=None):
        _build_op(self.cls)
        return getattr(owner, self.name) if obj is None else getattr(obj, self.name)

    def __set__(self, obj, value):
        _build_op(self.cls)
        setattr(obj, self.name, value)

    def __delete__(self, obj):
        _build_op(self.cls)
        delattr(obj, self.name)


_PENDING_OPS = {}  # op class -> {name: its own dict's value before the stand-in, or _PENDING_OPS where none}
_EAGER_OP_DEFINITION = None  # xDSL's irdl_op_definition
_OP_FIELD_DEF = None  # xDSL's base class of operand_def(), result_def(), ... values
_OP_BASES = ()  # IRDLOperation and its bases, which define no fields


def _lazy_op_definition(cls):
    """`irdl_op_definition` with the work deferred (`_LazyOpDef`): the stand-ins go on every name the decorator
    could set (a superset: each is put back as it was before the decorator runs)."""
    for base in cls.__mro__[1:]:
        if base in _PENDING_OPS:  # the candidates below are read from the bases' built dicts
            _build_op(base)
    names = ["traits", "get_irdl_definition", "verify_"]
    if getattr(cls, "assembly_format", None) is not None:
        names += ["parse", "print"]
    for base in cls.__mro__:
        if base not in _OP_BASES:
            names += [k for k, v in vars(base).items() if isinstance(v, _OP_FIELD_DEF)]
    own, saved = vars(cls), {}
    for name in names:
        if name not in saved:
            saved[name] = own.get(name, _PENDING_OPS)
            type.__setattr__(cls, name, _LazyOpDef(cls, name))
    _PENDING_OPS[cls] = saved
    return cls


def _build_op(cls):
    """Runs xDSL's `irdl_op_definition` on a class `_lazy_op_definition` deferred: its dict put back as it was
    (names the stand-ins added removed, so the decorator adds them in its own order), then what was assigned to
    the class since, in place of a stand-in, assigned again after the decorator (as it would have been)."""
    saved = _PENDING_OPS.pop(cls, None)
    if saved is None:
        return
    own, later = vars(cls), {}
    for name, value in saved.items():
        current = own.get(name, _PENDING_OPS)
        if not (type(current) is _LazyOpDef and current.cls is cls):
            later[name] = current
        if value is _PENDING_OPS:
            if current is not _PENDING_OPS:
                type.__delattr__(cls, name)
        else:
            type.__setattr__(cls, name, value)
    _EAGER_OP_DEFINITION(cls)
    for name, value in later.items():
        if value is _PENDING_OPS:
            if name in vars(cls):
                type.__delattr__(cls, name)
        else:
            type.__setattr__(cls, name, value)


def op_arg_names(cls) -> tuple[list[str], list[str]]:
    """The names of an xDSL op class's operands and results, in its OpDef's order, without building a deferred
    one (`_LazyOpDef`): read from its fields as `OpDef.from_pyrdl` reads them (the first definition of a name
    along the MRO)."""
    saved = _PENDING_OPS.get(cls)
    if saved is None:
        d = cls.get_irdl_definition()
        return [n for n, _ in d.operands], [n for n, _ in d.results]
    from xdsl.irdl.operations import _OperandFieldDef, _ResultFieldDef

    seen, operands, results = set(), [], []
    for base in cls.__mro__:
        for name, value in vars(base).items() if base not in _OP_BASES else ():
            if base is cls and name in saved:
                value = saved[name]
            if isinstance(value, _OP_FIELD_DEF) and name not in seen:
                seen.add(name)
                if isinstance(value, _OperandFieldDef):
                    operands.append(name)
                elif isinstance(value, _ResultFieldDef):
                    results.append(name)
    return operands, results


def _lazy_op_definitions(module):
    """Run on `xdsl.irdl.operations` once imported: its `irdl_op_definition` deferred (`_LazyOpDef`)."""
    global _EAGER_OP_DEFINITION, _OP_FIELD_DEF, _OP_BASES
    _EAGER_OP_DEFINITION, _OP_FIELD_DEF = module.irdl_op_definition, module._OpDefField
    _OP_BASES = frozenset(module.IRDLOperation.__mro__)
    module.irdl_op_definition = _lazy_op_definition




def _lazy_attr_definitions(module):
    """Run on `xdsl.irdl.attributes` once imported: its `irdl_param_attr_definition` with the attribute's
    `ParamAttrDef` (`from_pyrdl`: the class's annotations evaluated, each parameter's constraint built) made at
    the first `get_irdl_definition` (an instance's verification, a parser's or printer's read of its parameters)
    rather than at the class's definition: a command uses a few dozen of the attributes it imports. The
    class's dict is what it was: `from_pyrdl` reads its non-dunder values and annotations, which the dataclass
    and runtime_final steps after it do not change (they add dunders only). A TypedAttribute (its type
    parameter's index is read at definition) is built at once, as before."""
    eager, from_pyrdl, typed = module.irdl_param_attr_definition, module.ParamAttrDef.from_pyrdl, module.TypedAttribute
    dataclass, runtime_final = module.dataclass, module.runtime_final

    def irdl_param_attr_definition(cls):
        if issubclass(cls, typed):
            return eager(cls)
        built = []

        @classmethod
        def get_irdl_definition(c):
            if not built:
                built.append(from_pyrdl(cls))
            return built[0]

        cls.get_irdl_definition = get_irdl_definition
        return runtime_final(dataclass(frozen=True, init=False)(cls))

    module.irdl_param_attr_definition = irdl_param_attr_definition
