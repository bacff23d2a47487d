"""The source layout's rules (docs/architecture.md): no import circle among the modules of `ttc`, `ttc.passes`
and `ttc.tools` (imports inside functions count: a circle hidden in a function is still a circle), no loose
module at `ttc/`'s root, and a docstring saying what each file is for."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"ttc": ROOT / "ttc", "ttc.passes": ROOT / "passes", "ttc.tools": ROOT / "tools"}


def modules() -> dict[str, Path]:
    """Module name -> file, for every source of the three packages."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _exports(path: Path) -> dict[str, str]:
    """A package's lazily imported names (`EXPORTS = {name: submodule}`, as ttc.ir has): name -> submodule."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXPORTS" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its file (but under `if TYPE_CHECKING:`). A name
    imported from a package resolves to the submodule of that name, else to the module a lazy package names for
    it, else to the package itself."""
    mods = modules()
    exports = {name: _exports(path) for name, path in mods.items() if path.name == "__init__.py"}

    def resolve(module: str, name: str | None) -> str | None:
        if name is not None:
            if f"{module}.{name}" in mods:
                return f"{module}.{name}"
            if name in exports.get(module, {}):
                return f"{module}.{exports[module][name]}"
        while module and module not in mods:
            module = module.rpartition(".")[0]
        return module or None

    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        edges = graph.setdefault(name, set())
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def visit(node):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                    continue
                targets = []
                if isinstance(child, ast.Import):
                    targets = [resolve(a.name, None) for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        up = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join(up + ([child.module] if child.module else []))
                    targets = [resolve(base, a.name) for a in child.names]
                edges.update(t for t in targets if t is not None and t != name)
                visit(child)

        visit(ast.parse(path.read_text()))
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _cycle_path(graph, component: list[str]) -> str:
    """One circle through the component's first module, as `a -> b -> a`, for the failure message."""
    members, start = set(component), component[0]
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]] & members):
            if w == start:
                return " -> ".join(path + [start])
            if w not in seen:
                seen.add(w)
                paths.append(path + [w])
    return ", ".join(component)


def test_no_import_circles():
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(_cycle_path(graph, c) for c in found)


def test_the_walk_sees_imports_inside_functions_and_through_lazy_packages():
    graph = import_graph()
    assert "ttc.ir.verifier" in graph["ttc.ir.parser"]  # a top-level import
    assert "ttc.ir.tmem_layout" in graph["ttc.ir.memdesc"]  # an import inside a method
    assert _exports(ROOT / "ttc" / "ir" / "__init__.py")["parse"] == "parser"  # `from ttc.ir import parse`
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_loose_modules_at_the_package_root():
    assert sorted(p.name for p in (ROOT / "ttc").glob("*.py")) == ["__init__.py"]


@pytest.mark.parametrize("name", sorted(modules()))
def test_every_module_says_what_it_is_for(name):
    assert ast.get_docstring(ast.parse(modules()[name].read_text())), f"{modules()[name]} has no docstring"
