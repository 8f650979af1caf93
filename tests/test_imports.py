"""Dependencies point one way: core (sim/core) <- games (sim/<game>) <- strategies (strategies/*).

The import graph is read from the sources with :mod:`ast` (nothing is imported): every
``.py`` file under ``sim/`` and ``strategies/`` is a module; ``import a.b`` and
``from a.b import c`` (also relative, ``from . import x``) give an edge to ``a.b``, or to
``a.b.c`` when ``c`` is itself a module (``from pkg import submodule``). Only edges
between modules of these two trees count. Importing a submodule runs its parent
package's ``__init__`` too, but that implicit edge is not recorded (every package whose
``__init__`` imports its own submodules would be a "cycle").

Which imports count:

* Every import statement in a file is recorded, with whether it runs when the module is
  imported (module level: top level, also inside top-level ``if``/``try``/``with``) or
  only when a function or method is called (function level).
* ``if TYPE_CHECKING:`` blocks never run and are skipped.
* The first cycle test uses **module-level imports only** (those can break module
  initialisation) and allows no exception.
* The second cycle test counts **function-level imports too**: a function-level import
  is the sanctioned way for an engine to look a strategy name up lazily (through
  ``strategies.<game>`` inside ``run``), so no strategy may import that engine back, even
  lazily. Its only exceptions are the entries of :data:`ALLOWED_CYCLES`.
* A third test forbids any module in ``sim/`` importing ``strategies`` at module level
  (function-level lookups are allowed there), and a fourth keeps ``sim/core`` free of the
  games and strategies.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("sim", "strategies")

# Known cycles (through function-level imports) that belong to work in progress
# elsewhere, each the set of modules of one strongly connected component. Remove an
# entry when its cycle is gone: the test fails on an entry that no longer matches.
ALLOWED_CYCLES: list[frozenset[str]] = []


def module_files() -> dict[str, Path]:
    mods = {}
    for tree in TREES:
        for f in sorted((ROOT / tree).rglob("*.py")):
            rel = f.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            mods[".".join(parts)] = f
    return mods


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """(node, module_level) for every Import/ImportFrom, skipping ``if TYPE_CHECKING:``."""
    out = []

    def visit(node, module_level):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append((child, module_level))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for n in child.orelse:
                    visit_stmt(n, module_level)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            else:
                visit(child, module_level)

    def visit_stmt(stmt, module_level):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.append((stmt, module_level))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            visit(stmt, False)
        else:
            visit(stmt, module_level)

    visit(tree, True)
    return out


def import_graph() -> dict[str, dict[str, bool]]:
    """module -> {imported module: True if some import of it is at module level}."""
    mods = module_files()
    graph: dict[str, dict[str, bool]] = {}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        edges: dict[str, bool] = {}

        def add(target, level):
            if target in mods and target != name:
                edges[target] = edges.get(target, False) or level

        for node, level in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    add(a.name, level)
                continue
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                base_name = ".".join(base + ([node.module] if node.module else []))
            else:
                base_name = node.module
            for a in node.names:
                sub = f"{base_name}.{a.name}"
                add(sub if sub in mods else base_name, level)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """The strongly connected components with more than one module (Tarjan), each with
    one concrete cycle through its members."""
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return [(frozenset(comp), _one_cycle(graph, comp)) for comp in sccs]


def _one_cycle(graph, comp):
    """A path start -> ... -> start inside the component (breadth first)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & members):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp  # pragma: no cover


def module_level(graph):
    return {m: {t for t, lvl in edges.items() if lvl} for m, edges in graph.items()}


def test_graph_sees_the_tree():
    g = import_graph()
    assert "sim.core.rng" in g and "strategies.looper.player" in g
    assert "sim.core.rng" in g["strategies.looper.player"]  # `from sim.core.rng import ...`


def _show(found):
    return "\n".join(f"{' -> '.join(path)}   (component: {', '.join(sorted(comp))})" for comp, path in found)


def test_no_import_cycles_at_module_level():
    found = cycles(module_level(import_graph()))
    assert not found, "import cycles (module-level imports):\n" + _show(found)


def test_no_import_cycles_counting_function_level_imports():
    found = cycles({m: set(edges) for m, edges in import_graph().items()})
    bad = [(comp, path) for comp, path in found if comp not in ALLOWED_CYCLES]
    assert not bad, "import cycles (module- and function-level imports):\n" + _show(bad)
    stale = [sorted(a) for a in ALLOWED_CYCLES if a not in {comp for comp, _ in found}]
    assert not stale, f"allow-listed cycles that no longer exist (remove them from ALLOWED_CYCLES): {stale}"


def test_sim_does_not_import_strategies_at_module_level():
    g = import_graph()
    bad = sorted(f"{m} -> {t}" for m, edges in g.items() if m.split(".")[0] == "sim"
                 for t, lvl in edges.items() if lvl and t.split(".")[0] == "strategies")
    assert not bad, "engines import strategies at module level (look them up inside a function):\n" + \
        "\n".join(bad)


def test_core_does_not_import_games_or_strategies():
    g = import_graph()
    games = {"sim.looper", "sim.werewolf", "sim.trpg"}
    bad = sorted(f"{m} -> {t}" for m, edges in g.items() if m.startswith("sim.core")
                 for t, lvl in edges.items()
                 if lvl and (t.split(".")[0] == "strategies" or ".".join(t.split(".")[:2]) in games))
    assert not bad, "\n".join(bad)
