"""The layers import one way (bot -> render -> engine), no package imports itself in a circle, and
no folder holds more than 15 modules directly (packages show the architecture, issue #22).

The import graph is read from the source with :mod:`ast`: every ``import`` counts, at module
level or inside a function, except those under ``if TYPE_CHECKING:`` (type-only, never run). A
circle is a strongly connected component of more than one module (or a module importing itself).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "render", "bot")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs, skipping the bodies of ``if TYPE_CHECKING:``."""
    out: list[ast.Import | ast.ImportFrom] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                walk(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return out


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` (at ``path``) imports (not its own parent packages, which
    Python has loaded before it)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # "from pkg import sub" imports the module pkg.sub; "from mod import name" the module mod
            targets = [
                f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in known else prefix
                for alias in node.names
            ]
        for target in targets:
            # the deepest project module the import names ("engine.titles.registry.title_info" -> the module)
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and not (name + ".").startswith(target + "."):  # its own packages are loaded first
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    return {name: imported(name, path, known) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
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
                    out.append(sorted(component))
    return out


def _within(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    inside = {m for m in graph if m == package or m.startswith(package + ".")}
    return {m: graph[m] & inside for m in inside}


def _upward(graph: dict[str, set[str]], package: str, forbidden: tuple[str, ...]) -> list[str]:
    """The imports from ``package`` into the ``forbidden`` packages, as "module -> module"."""
    return sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m.split(".")[0] == package
        for t in targets
        if t.split(".")[0] in forbidden
    )


def test_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_function_level_imports_count_and_type_checking_ones_do_not(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot import commands\n"
        "def f():\n    from bot.storage.store import Store\n"
    )
    path = tmp_path / "x.py"
    path.write_text(source)
    assert imported("bot.x", path, {"bot", "bot.commands", "bot.storage.store", "bot.x"}) == {"bot.storage.store"}


def test_engine_imports_neither_render_nor_bot() -> None:
    assert _upward(import_graph(), "engine", ("render", "bot")) == []


def test_render_does_not_import_bot() -> None:
    assert _upward(import_graph(), "render", ("bot",)) == []


def test_no_import_circles_in_bot() -> None:
    assert cycles(_within(import_graph(), "bot")) == []


def test_no_import_circles_in_render() -> None:
    assert cycles(_within(import_graph(), "render")) == []


def test_no_import_circles_in_engine() -> None:
    assert cycles(_within(import_graph(), "engine")) == []


# Start a game from a title's name: these may look the title up; the rules themselves never do
# (a title gives the game what differs, e.g. Game.choice_overrides).
TITLE_LOOKUP = ("engine.replay", "engine.selfplay", "engine.titles")


def test_the_rules_never_look_up_the_title_registry() -> None:
    graph = import_graph()
    lookups = sorted(
        f"{m} -> engine.titles.registry"
        for m, targets in graph.items()
        if m.startswith("engine") and "engine.titles.registry" in targets
        and not any(m == t or m.startswith(t + ".") for t in TITLE_LOOKUP)
    )
    assert lookups == []


MAX_MODULES_PER_FOLDER = 15


def test_no_folder_holds_more_than_15_modules_directly() -> None:
    folders = {p.parent for top in (*PACKAGES, "bench", "tests") for p in (ROOT / top).rglob("*.py")}
    crowded = {
        str(f.relative_to(ROOT)): n
        for f in folders
        if (n := len(list(f.glob("*.py")))) > MAX_MODULES_PER_FOLDER
    }
    assert crowded == {}
