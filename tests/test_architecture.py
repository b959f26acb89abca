"""No import cycle anywhere in the project (core, gui and main.py).

The import graph comes from grimp (the library behind import-linter): every ``import`` in
the source, including imports inside functions (lazy imports still make a cycle for a
reader, and for the import-linter layers). A package importing its own submodule and the
submodule importing the package is a cycle too. The layer and purity rules themselves are
import-linter contracts (pyproject.toml, ``lint-imports``); this test covers what those
contracts do not: cycles inside one layer or package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")  # installed with import-linter (requirements-dev.txt)

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "gui")


def module_imports(path: Path, project: Iterable[str]) -> set[str]:
    """Project modules imported anywhere in the file ``path`` (absolute imports)."""
    roots = tuple(project)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(n for n in names if n.split(".")[0] in roots)
    return found


def build_graph():
    """grimp's graph of core and gui, plus main.py's imports."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    graph.add_module("main")
    for name in module_imports(REPO / "main.py", PACKAGES):
        if name in graph.modules:  # `from core.x import func` also names core.x.func
            graph.add_import(importer="main", imported=name)
    return graph


def cycles(graph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_project_has_no_import_cycle() -> None:
    graph = build_graph()
    assert {"core.views", "gui.app", "gui.cli", "main"} <= graph.modules
    assert graph.find_modules_directly_imported_by("main") >= {"gui.app", "gui.cli"}
    found = cycles(graph)
    assert found == [], "import cycles (strongly connected modules): " + "; ".join(
        " <-> ".join(c) for c in found
    )


def test_nothing_imports_main() -> None:
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            assert "main" not in module_imports(path, ["main"]), path


def test_cycle_finder_sees_function_level_and_package_cycles() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a")  # a -> b -> c -> a
    graph.add_import(importer="pkg", imported="pkg.d")
    graph.add_import(importer="pkg.d", imported="pkg")  # package <-> its submodule
    assert cycles(graph) == [["pkg", "pkg.d"], ["pkg.a", "pkg.b", "pkg.c"]]
    graph.remove_import(importer="pkg.c", imported="pkg.a")
    graph.remove_import(importer="pkg.d", imported="pkg")
    assert cycles(graph) == []
