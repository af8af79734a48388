"""Layering of ``bbom_env``: no import cycle, and every module imports only from its own layer or a
lower one, per the tables below.

The engine (``bbom_env/engine/``) is ranked folders, lowest first (docs/engine.md). Its graph holds
every import that can run: at module level, in class bodies, in ``try``/``if`` blocks and inside
functions (a deferred import runs on call and is as much a dependency as one at the top); only
those under ``if TYPE_CHECKING:`` (never run) are left out. A short named whitelist (at most three
edges, each a convenience of ``GameState``) may point up. The Vth Element's modules
(``bbom_env/modules/``) import only the engine's public API (``bbom_env.engine``), its module SDK
(``bbom_env.engine.ext``) and the value types (``bbom_env.engine.model``). For the package as a whole
the graph holds the imports that run at import time. That the engine imports and plays with the RL
libraries blocked is checked at run time by tests/engine/test_import_boundary.py; here the engine's
files are read, at every depth, so a deferred import of an RL library is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The engine's folders, lowest first. A module may import (at any depth) from its own folder and the
# ones below, never from one above, and no two modules may import each other through any path. The
# top rank holds the public API (the package's ``__init__``) and the module SDK (``ext``).
ENGINE_RANKS: tuple[tuple[str, str], ...] = (
    ("model", "value types: constants, records, frames, typed fields, move arguments"),
    ("cards", "the card pack: vocabulary, card kinds, loader and its checks"),
    ("core", "config, the move layout, the module registry, the interpreter loop, the state"),
    ("modifiers", "standing rule changes read fresh: hooks, module sources, cost transforms"),
    ("payment", "costs and paying them: the solver, auto payment, the payment frame"),
    ("play", "the turn, zones, effect ops, limits, the pending decision"),
    ("actions", "the Action menu and the Actions; the base game's module"),
    ("io", "setup, saves, invariants, scenarios, text"),
    ("api", "the public API (bbom_env.engine) and the module SDK (bbom_env.engine.ext)"),
)
API_MODULES = ("bbom_env.engine", "bbom_env.engine.ext")

# The only edges that may point up: GameState's conveniences, which read a higher layer on call.
UPWARD_WHITELIST: dict[tuple[str, str], str] = {
    ("bbom_env.engine.core.state", "bbom_env.engine.io.serialize"): "GameState.to_json and ==",
    ("bbom_env.engine.core.state", "bbom_env.engine.io.render"): "str(GameState)",
    ("bbom_env.engine.core.state", "bbom_env.engine.play.decision"): (
        "GameState.apply_action's error names the pending decision"
    ),
}

# What a rules module (bbom_env/modules/) may import of the engine.
MODULE_SDK = ("bbom_env.engine", "bbom_env.engine.ext", "bbom_env.engine.model")


def engine_rank(module: str) -> int:
    """The rank of an engine module in ENGINE_RANKS (-1: not in a ranked folder)."""
    if module in API_MODULES:
        return len(ENGINE_RANKS) - 1
    parts = module.split(".")
    names = [n for n, _ in ENGINE_RANKS[:-1]]
    if len(parts) >= 4 and parts[:2] == ["bbom_env", "engine"] and parts[2] in names:
        return names.index(parts[2])
    return -1


# The package's layers, lowest first: a module belongs to the entry with the longest matching name
# (a package's entry covers its submodules). The engine is rules only (design decision 1); views and
# helpers read it (observations, text, catalogue, CLI argument types); applications combine them.
PACKAGE_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("bbom_env.engine",)),
    # Rules modules (the Vth Element's): built on the engine's seams, read by the views.
    ("modules", ("bbom_env.modules",)),
    ("views", ("bbom_env.rl", "bbom_env.cards", "bbom_env.play_text", "bbom_env.cli", "bbom_env.view")),
    ("apps", ("bbom_env.play_session", "bbom_env.play", "bbom_env.rllib", "bbom_env.replay")),
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


def _runtime_import_nodes(node: ast.AST):
    """Every import that can run, at any depth (function and class bodies too), but not those
    under ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for s in child.orelse:
                yield from _runtime_import_nodes(ast.Module(body=[s], type_ignores=[]))
        else:
            yield from _runtime_import_nodes(child)


def _resolve(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute module a ``from ... import`` reads from (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    base = (name if is_package else name.rpartition(".")[0]).split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(
    root: Path, package: str, *, deferred: bool = False, runtime: bool = False
) -> dict[str, set[str]]:
    """Module -> the package's modules it imports at import time (every import when ``deferred``;
    every import but the ``TYPE_CHECKING`` ones when ``runtime``).
    ``from pkg import x`` counts as importing the submodule ``pkg.x`` when there is one, else ``pkg``."""
    files = module_files(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if deferred:
            nodes = _all_import_nodes(tree)
        elif runtime:
            nodes = _runtime_import_nodes(tree)
        else:
            nodes = _import_time_nodes(tree.body)
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


def _engine_runtime_graph() -> dict[str, set[str]]:
    graph = import_graph(ROOT, "bbom_env", runtime=True)
    return {
        src: {d for d in dsts if engine_rank(d) >= 0 and (src, d) not in UPWARD_WHITELIST}
        for src, dsts in graph.items()
        if engine_rank(src) >= 0
    }


def test_every_engine_module_sits_in_a_ranked_folder() -> None:
    files = module_files(ROOT, "bbom_env/engine")
    loose = sorted(
        m for m in files if engine_rank(m) < 0 and m.rpartition(".")[2] not in {n for n, _ in ENGINE_RANKS}
    )
    assert loose == [], f"engine modules outside the ranked folders of ENGINE_RANKS: {loose}"


def test_engine_has_no_cycle_at_any_depth() -> None:
    cycles = find_cycles(_engine_runtime_graph())
    assert cycles == [], "engine import cycles (any depth): " + "; ".join(" -> ".join(c) for c in cycles)


def test_engine_imports_only_its_own_folder_or_below_at_any_depth() -> None:
    graph = _engine_runtime_graph()
    names = [n for n, _ in ENGINE_RANKS]
    up = sorted(
        f"{src} ({names[engine_rank(src)]}) imports {dst} ({names[engine_rank(dst)]})"
        for src, dsts in graph.items()
        for dst in dsts
        if engine_rank(dst) > engine_rank(src)
    )
    assert up == []


def test_upward_whitelist_is_short_and_current() -> None:
    assert len(UPWARD_WHITELIST) <= 3
    graph = import_graph(ROOT, "bbom_env", runtime=True)
    stale = [edge for edge in UPWARD_WHITELIST if edge[1] not in graph.get(edge[0], set())]
    assert stale == [], f"whitelisted edges that no longer exist (remove them): {stale}"
    for src, dst in UPWARD_WHITELIST:
        assert engine_rank(dst) > engine_rank(src), f"{src} -> {dst} does not point up"


def _sdk_allows(mod: str, names: list[str]) -> bool:
    if mod == "bbom_env.engine":  # the public API's names, not its folders
        folders = {n for n, _ in ENGINE_RANKS} | {"ext"}
        return not folders.intersection(names)
    return any(mod == s or mod.startswith(s + ".") for s in MODULE_SDK[1:])


def _sdk_violations(root: Path) -> list[str]:
    bad = []
    for name, path in module_files(root, "bbom_env/modules").items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _all_import_nodes(tree):  # TYPE_CHECKING imports too: the SDK names the types
            if isinstance(node, ast.Import):
                pairs = [(a.name, []) for a in node.names]
            else:
                pairs = [(_resolve(node, name, path.name == "__init__.py"), [a.name for a in node.names])]
            for mod, names in pairs:
                if mod.startswith("bbom_env.engine") and not _sdk_allows(mod, names):
                    bad.append(f"{name} imports {mod}")
    return sorted(bad)


def test_modules_import_only_the_sdk() -> None:
    """bbom_env/modules/** import the public API, ``ext`` and ``model``, nothing else of the engine."""
    assert _sdk_violations(ROOT) == []


def test_sdk_check_catches_an_engine_import(tmp_path: Path) -> None:
    pkg = tmp_path / "bbom_env" / "modules" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "ok.py").write_text(
        "from bbom_env.engine import GameConfig\nfrom bbom_env.engine.ext import Module\n"
        "from bbom_env.engine.model.constants import MADNESS\n"
    )
    (pkg / "bad.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bbom_env.engine.core.state import S\n"
        "def f():\n    from bbom_env.engine.modifiers import hooks\n"
    )
    assert _sdk_violations(tmp_path) == [
        "bbom_env.modules.toy.bad imports bbom_env.engine.core.state",
        "bbom_env.modules.toy.bad imports bbom_env.engine.modifiers",
    ]


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


# -- the engine names no module ----------------------------------------------------------------


def _module_words() -> set[str]:
    """The words of the registered modules' names and card names ("dark", "phobia", ...)."""
    import bbom_env  # noqa: F401  (registers the package's modules)
    from bbom_env.engine.core.moves import BASE
    from bbom_env.engine.core.rules import MODULES

    words: set[str] = set()
    for m in MODULES.values():
        if m.name != BASE:
            for name in (m.name, *m.card_names):
                words |= {w.rstrip("s") for w in name.lower().replace("-", "_").split("_") if w.isalpha()}
    return words


def _named_modules(root: Path, words: set[str]) -> list[str]:
    """Identifiers and string constants (docstrings left out: they cite rules, which name cards)
    of the engine's code that contain one of ``words``."""
    bad = []
    for name, path in module_files(root, "bbom_env/engine").items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
                text = n.value
            else:
                text = getattr(n, "id", None) or getattr(n, "attr", None) or getattr(n, "arg", None) or ""
                if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.alias)):
                    text = n.name
            if any(w in text.lower() for w in words):
                bad.append(f"{name}:{getattr(n, 'lineno', 0)} {text[:60]!r}")
    return sorted(bad)


def test_the_engine_code_names_no_module() -> None:
    """A module's card codes and names, Actions, cost parts and switches are declared by the module
    (rules.Module): the engine's code (comments and docstrings aside) names none of them."""
    words = _module_words()
    assert {"dark", "phobia"} <= words
    assert _named_modules(ROOT, words) == []


def test_the_module_name_check_catches_a_name(tmp_path: Path) -> None:
    pkg = tmp_path / "bbom_env" / "engine" / "play"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text(
        '"""Phobias in a docstring are fine."""\nPHOBIA_BASE = 14\n\ndef f():\n    """Dark Matter."""\n'
        '    return "dark-matter"\n'
    )
    assert _named_modules(tmp_path, {"dark", "phobia"}) == [
        "bbom_env.engine.play.x:2 'PHOBIA_BASE'",
        "bbom_env.engine.play.x:6 'dark-matter'",
    ]
