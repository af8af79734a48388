"""Layering of ``bbom_env`` (issue 8, part 7): no runtime import cycle, and every module imports only
from its own layer or a lower one, per the tables below.

The graph holds the imports that run when a module is imported: at module level, in class bodies and
in ``try``/``if`` blocks, but not those under ``if TYPE_CHECKING:`` (never run) nor those inside
functions (run on call, once every module has loaded: the engine defers a few imports that way on
purpose, e.g. ``state.py`` -> ``serialize``/``render``, ``resolver.py`` -> ``flow``). That the engine
imports and plays with the RL libraries blocked is checked at run time by
tests/engine/test_import_boundary.py (one game's code path); here the engine's files are read, at
every depth, so a deferred import of an RL library on a path that game never takes is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The engine's layers, lowest first (docs/engine.md): plain data, the interpreter core (run loop,
# state, registries of move blocks and modules), the rules (turn flow, effect ops, payment, Actions;
# the base game's module), the API facade and the tools built on it. A module may import, at import
# time, from its own layer and the ones below. A new engine module must be placed here.
ENGINE_LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "data",
        frozenset(
            {
                "constants",
                "move_args",
                "vocab",
                "pack_checks",
                "pack_module_checks",
                "card_types",
                "cards",
                "config",
                "pack_hash",
                "frames",
                "records",
                "typed_fields",
                "typed_checks",
            }
        ),
    ),
    ("core", frozenset({"resolver", "state", "moves", "rules"})),
    (
        "rules",
        frozenset(
            {
                "hooks",
                "cost_mods",
                "mod_sources",
                "cost_transforms",
                "zones",
                "decision",
                "flow",
                "ops",
                "ops_board",
                "ops_cards",
                "payment_search",
                "payment",
                "payment_auto",
                "payment_irreducible",
                "payment_counted",
                "payment_frame",
                "limits",
                "menu",
                "menu_closed_forms",
                "mod_reading",
                "actions",
                "action_rulings",
                "destroy_menu",
                "base_module",
            }
        ),
    ),
    (
        "api",
        frozenset(
            {
                "__init__",
                "setup",
                "serialize",
                "save_check",
                "save_check_stack",
                "save_values",
                "invariants",
                "scenario",
                "render",
                "resample",
            }
        ),
    ),
)

# The package's layers, lowest first: a module belongs to the entry with the longest matching name
# (a package's entry covers its submodules). The engine is rules only (design decision 1); views and
# helpers read it (observations, text, catalogue, CLI argument types); applications combine them.
PACKAGE_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("bbom_env.engine",)),
    # Rules modules (the Vth Element's): built on the engine's seams, read by the views.
    ("modules", ("bbom_env.modules",)),
    ("views", ("bbom_env.rl", "bbom_env.cards", "bbom_env.play_text", "bbom_env.cli")),
    ("apps", ("bbom_env.play_session", "bbom_env.play", "bbom_env.rllib")),
    ("entry", ("bbom_env", "bbom_env.__main__")),
)

# The RL stack the engine never imports (design decision 1); nor does it import the agents package or
# anything of bbom_env outside the engine (checked below).
RL_IMPORTS = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray")


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package`` under ``root``."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_nodes(body: list[ast.stmt]):
    """The import statements of ``body`` that run when the module is imported."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _import_time_nodes(node.orelse)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                sub = getattr(node, field, None)
                if isinstance(sub, list):
                    yield from _import_time_nodes([s for s in sub if isinstance(s, ast.AST)])


def _all_import_nodes(tree: ast.Module):
    return (n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


def _resolve(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute module a ``from ... import`` reads from (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    base = (name if is_package else name.rpartition(".")[0]).split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path, package: str, *, deferred: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports at import time (every import when ``deferred``).
    ``from pkg import x`` counts as importing the submodule ``pkg.x`` when there is one, else ``pkg``."""
    files = module_files(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        nodes = _all_import_nodes(tree) if deferred else _import_time_nodes(tree.body)
        edges: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in files)
                continue
            mod = _resolve(node, name, path.name == "__init__.py")
            subs = [f"{mod}.{a.name}" for a in node.names]
            edges.update(s for s in subs if s in files)
            if mod in files and not all(s in files for s in subs):
                edges.add(mod)
        graph[name] = edges - {name}
    return graph


def external_imports(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the top-level names of every absolute import in it, at any depth."""
    out = {}
    for name, path in module_files(root, package).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        tops = set()
        for node in _all_import_nodes(tree):
            if isinstance(node, ast.Import):
                tops.update(a.name.split(".")[0] for a in node.names)
            elif not node.level and node.module:
                tops.add(node.module.split(".")[0])
        out[name] = tops
    return out


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (``[a, b, ..., a]``) per back edge of a depth-first walk: empty iff acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                cycles.append(path[path.index(w) :] + [w])
            elif w not in state:
                visit(w)
        path.pop()
        state[v] = 2

    for v in sorted(graph):
        if v not in state:
            visit(v)
    return cycles


def _layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...]) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(layers):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    return rank


def upward_imports(graph: dict[str, set[str]], rank: dict[str, int], names: list[str]) -> list[str]:
    return sorted(
        f"{src} ({names[rank[src]]}) imports {dst} ({names[rank[dst]]})"
        for src, dsts in graph.items()
        for dst in dsts
        if src in rank and dst in rank and rank[dst] > rank[src]
    )


# --- the package -------------------------------------------------------------------------------------


def test_no_runtime_import_cycle() -> None:
    cycles = find_cycles(import_graph(ROOT, "bbom_env"))
    assert cycles == [], "import cycles at import time: " + "; ".join(" -> ".join(c) for c in cycles)


def test_engine_modules_are_placed_in_exactly_one_layer() -> None:
    files = module_files(ROOT, "bbom_env/engine")
    present = {n.rpartition(".")[2] if n != "bbom_env.engine" else "__init__" for n in files}
    placed = [m for _, mods in ENGINE_LAYERS for m in mods]
    twice = sorted({m for m in placed if placed.count(m) > 1})
    assert not twice, f"engine modules in more than one layer of ENGINE_LAYERS: {twice}"
    assert not present - set(placed), (
        f"engine modules missing from ENGINE_LAYERS: {sorted(present - set(placed))}"
    )
    assert not set(placed) - present, (
        f"ENGINE_LAYERS names modules that do not exist: {sorted(set(placed) - present)}"
    )


def test_engine_imports_only_its_own_layer_or_below() -> None:
    graph = import_graph(ROOT, "bbom_env")
    rank = {}
    for i, (_, mods) in enumerate(ENGINE_LAYERS):
        for m in mods:
            rank["bbom_env.engine" if m == "__init__" else f"bbom_env.engine.{m}"] = i
    engine_graph = {k: v for k, v in graph.items() if k in rank}
    names = [n for n, _ in ENGINE_LAYERS]
    assert upward_imports(engine_graph, rank, names) == []


def test_package_imports_only_its_own_layer_or_below() -> None:
    graph = import_graph(ROOT, "bbom_env")
    rank = {m: _layer_of(m, PACKAGE_LAYERS) for m in graph}
    assert [m for m, r in rank.items() if r < 0] == [], "modules in no entry of PACKAGE_LAYERS"
    names = [n for n, _ in PACKAGE_LAYERS]
    assert upward_imports(graph, rank, names) == []


def test_engine_imports_nothing_of_the_rl_stack_at_any_depth() -> None:
    """Deferred imports included: the engine never reaches the RL libraries nor the package's other
    parts (design decision 1)."""
    everything = import_graph(ROOT, "bbom_env", deferred=True)
    outside = sorted(
        f"{src} imports {dst}"
        for src, dsts in everything.items()
        if src.startswith("bbom_env.engine")
        for dst in dsts
        if not (dst == "bbom_env.engine" or dst.startswith("bbom_env.engine."))
    )
    assert outside == [], "the engine imports the rest of bbom_env"
    external = external_imports(ROOT, "bbom_env/engine")
    bad = sorted(f"{m} imports {t}" for m, tops in external.items() for t in tops if t in RL_IMPORTS)
    bad += sorted(f"{m} imports agents" for m, tops in external.items() if "agents" in tops)
    assert bad == [], "the engine imports the RL stack"


# --- the checker itself ------------------------------------------------------------------------------

_TOY = {
    "toy/__init__.py": "from . import a\n",
    "toy/a.py": "from .b import thing\nclass K:\n    from . import c\n",
    "toy/b.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import K\n"
        "try:\n    from toy import d\nexcept ImportError:\n    pass\n"
        "def f():\n    from .a import K\n"
    ),
    "toy/c.py": "import os\n",
    "toy/d.py": "import toy.sub.e\n",
    "toy/sub/__init__.py": "",
    "toy/sub/e.py": "from .. import c\nfrom ..b import thing\n",
}


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    for rel, text in _TOY.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_graph_keeps_import_time_imports_only(toy: Path) -> None:
    g = import_graph(toy, "toy")
    assert g["toy"] == {"toy.a"}
    assert g["toy.a"] == {"toy.b", "toy.c"}  # class bodies run at import
    assert g["toy.b"] == {"toy.d"}  # try: counts; TYPE_CHECKING and the function's import do not
    assert g["toy.d"] == {"toy.sub.e"}
    assert g["toy.sub.e"] == {"toy.c", "toy.b"}
    deferred = import_graph(toy, "toy", deferred=True)
    assert deferred["toy.b"] == {"toy.a", "toy.d"}


def test_cycle_finder_names_the_cycle(toy: Path) -> None:
    g = import_graph(toy, "toy")
    assert find_cycles(g) == [["toy.b", "toy.d", "toy.sub.e", "toy.b"]]
    g["toy.sub.e"].discard("toy.b")
    assert find_cycles(g) == []


def test_upward_imports_are_reported() -> None:
    graph = {"p.low": {"p.high"}, "p.high": {"p.low"}}
    layers = (("low", ("p.low",)), ("high", ("p.high",)))
    rank = {m: _layer_of(m, layers) for m in graph}
    assert upward_imports(graph, rank, ["low", "high"]) == ["p.low (low) imports p.high (high)"]
