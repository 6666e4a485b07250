"""The house rules of the package tree, read from the source with ``ast``:

- no import circle between modules, counting imports inside functions too
  (a lazy import hides a circle from Python, not from a reader);
- no import from a higher layer. The layers, lowest first, as
  docs/architecture.md lists them: a module may import its own layer and any
  layer below it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: lowest first: engine (pure rules) < replays (the event store and its chain)
#: < leagues (pure league logic, ratings, the archive check) < workers (the RQ
#: jobs) < service (the HTTP API, the CLI that starts everything)
LAYERS = ("engine", "replays", "leagues", "workers", "service")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules() -> dict[str, Path]:
    return {module_name(p): p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))}


def compiled_modules() -> set[str]:
    """Extension modules (the Jogledor solvers' core), imported but not read."""
    return {module_name(p.with_name(p.name.split(".")[0] + ".py"))
            for layer in LAYERS for ext in ("*.so", "*.pyd") for p in (ROOT / layer).rglob(ext)}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its text: ``from a
    import b`` is a.b where that is a module, else a."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # import a.b.c of a name in a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


@functools.cache  # the tree does not change during a run; read once, not by each of its three tests (0.9 s each)
def import_graph() -> dict[str, set[str]]:
    modules = package_modules()
    known = set(modules) | compiled_modules()
    graph = {name: imports_of(name, path, known) for name, path in modules.items()}
    return {name: {t for t in targets if t in modules} for name, targets in graph.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_the_walk_sees_the_imports_it_must_judge():
    graph = import_graph()
    assert "engine.match" in graph["service.matches"]  # from engine import match as M
    assert "service.matches" in graph["service.api"]  # from .matches import MatchService
    assert "replays.store" in graph["replays.audit"]  # from .store import …
    assert "engine.jogledor.cards" in graph["engine.twaalven.game"]  # from ..jogledor.cards import …
    assert "workers.queue" in graph["service.app"]  # an import inside a function counts
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_no_import_from_a_higher_layer():
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in targets
        if layer(target) > layer(module)
    )
    assert not upward, f"layers, lowest first: {' < '.join(LAYERS)}; upward imports: " + "; ".join(upward)


def test_the_docs_list_the_layers_in_this_order():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert " < ".join(f"`{n}/`" for n in LAYERS) in text
