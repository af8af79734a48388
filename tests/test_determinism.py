"""Same config + seed + moves -> the same game, whatever else happens (design decision 3).

Checked in this process, in fresh subprocesses (with different PYTHONHASHSEEDs, so no result may
depend on set or dict-of-str ordering), across pickling and cloning mid-game, and with the global
``random`` / ``numpy.random`` streams disturbed between decisions (RLCard's determinism test idea,
design decision 11). A source scan checks that the package never calls a global RNG function.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.state import GameState

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bbom_env"
CONFIGS = [
    GameConfig(num_players=2, pack="test", seed=11),
    GameConfig(num_players=5, pack="test", seed=12, mode="fear", difficulty=3, payment="manual"),
    GameConfig(num_players=3, pack="test", seed=13, mode="nightmare", difficulty=2),
    # The Vth Element's modules (their state in state.ext, their RNG draws after the base setup's).
    GameConfig(num_players=4, seed=14, mode="fear", modules=("phobias",)),
    GameConfig(num_players=3, seed=15, payment="manual", modules=("dark_matter", "phobias")),
]


def config_id(c: GameConfig) -> str:
    return f"{c.num_players}p-{c.mode}-{c.payment}" + "".join(f"-{m}" for m in c.modules)


def play(
    config: GameConfig, agent_seed: int, between: Callable[[GameState, int], GameState] | None = None
) -> GameState:
    """Seeded random play; ``between(state, step)`` may disturb things and returns the state to go on
    with (the same one, or a copy)."""
    rng = random.Random(agent_seed)
    state = new_game(config)
    step = 0
    while not state.over:
        if between is not None:
            state = between(state, step)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    return state


def fingerprint(state: GameState) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_same_seed_same_game(config: GameConfig) -> None:
    a = play(config, 5)
    b = play(config, 5)
    assert a.history == b.history and a == b and fingerprint(a) == fingerprint(b)
    assert len(a.history) > 20  # a real game, not a trivial one


def test_different_seeds_differ() -> None:
    """The seed matters (a test that could pass with a constant game would prove nothing)."""
    a = play(CONFIGS[0], 5)
    b = play(CONFIGS[0].replace(seed=99), 5)
    assert fingerprint(a) != fingerprint(b)


_CHILD = """
import hashlib, json, random, sys
from bbom_env.engine import GameConfig, new_game
out = []
for data in json.loads(sys.argv[1]):
    state = new_game(GameConfig.from_dict(data))
    rng = random.Random(5)
    while not state.over:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    out.append([hashlib.sha256(state.to_json().encode()).hexdigest(), state.history])
print(json.dumps(out))
"""


@pytest.mark.parametrize("hashseed", ["0", "4242"])
def test_same_game_in_a_subprocess(hashseed: str) -> None:
    arg = json.dumps([c.to_dict() for c in CONFIGS])
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, arg], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    for config, (digest, history) in zip(CONFIGS, got, strict=True):
        here = play(config, 5)
        assert history == here.history
        assert digest == fingerprint(here)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pickling_mid_game_changes_nothing(config: GameConfig) -> None:
    ref = play(config, 5)
    # Continue from a pickled copy at every 7th decision: the game goes on identically.
    got = play(config, 5, lambda s, i: pickle.loads(pickle.dumps(s)) if i % 7 == 3 else s)
    assert got == ref and got.history == ref.history


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_cloning_mid_game_changes_nothing(config: GameConfig) -> None:
    ref = play(config, 5)

    def swap(state: GameState, i: int) -> GameState:
        if i % 5:
            return state
        # Play on with the clone; also play the original a few moves its own way (shared data
        # between the two would show up as a difference).
        c = state.clone()
        r = random.Random(i)
        for _ in range(3):
            if state.over:
                break
            legal = state.legal_actions()
            state.apply_action(legal[r.randrange(len(legal))])
        return c

    got = play(config, 5, swap)
    assert got == ref and got.history == ref.history


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_global_rngs_do_not_matter(config: GameConfig) -> None:
    """Burn and reseed the global ``random`` and ``numpy.random`` streams between decisions."""
    ref = play(config, 5)

    def burn(state: GameState, i: int) -> GameState:
        random.seed(1000 + i)  # noqa: TID251 - deliberately disturbing the global stream
        np.random.seed(7 * i + 1)  # noqa: TID251
        for _ in range(i % 4):
            random.random()  # noqa: TID251
            np.random.rand()  # noqa: TID251
        return state

    got = play(config, 5, burn)
    assert got == ref and got.history == ref.history


def test_a_game_leaves_the_global_rngs_untouched() -> None:
    """A run that drew from a global stream would change its state."""
    before_py = random.getstate()
    before_np = np.random.get_state()
    for config in CONFIGS:
        play(config, 5)
    after_np = np.random.get_state()
    assert random.getstate() == before_py
    assert before_np[0] == after_np[0] and np.array_equal(before_np[1], after_np[1])
    assert before_np[2:] == after_np[2:]


# -- source scan: no global RNG calls anywhere in the package -----------------------------------

# Allowed attributes of the ``random`` / ``numpy.random`` modules: seeded generator constructors.
ALLOWED_RANDOM = {"Random"}
ALLOWED_NP_RANDOM = {"default_rng", "Generator", "PCG64", "SeedSequence", "BitGenerator"}


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def global_rng_uses(source: str) -> list[str]:
    """Uses of global RNG functions in a module's source: ``random.shuffle(...)``,
    ``np.random.choice(...)``, ``from random import shuffle`` and the like."""
    tree = ast.parse(source)
    np_names = {"np", "numpy"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("random", "numpy.random"):
            allowed = ALLOWED_RANDOM if node.module == "random" else ALLOWED_NP_RANDOM
            found += [
                f"line {node.lineno}: from {node.module} import {a.name}"
                for a in node.names
                if a.name not in allowed
            ]
        elif isinstance(node, ast.Attribute):
            name = _dotted(node)
            head, _, attr = name.rpartition(".")
            if head == "random" and attr not in ALLOWED_RANDOM:
                found.append(f"line {node.lineno}: {name}")
            elif head in {f"{n}.random" for n in np_names} and attr not in ALLOWED_NP_RANDOM:
                found.append(f"line {node.lineno}: {name}")
    return found


def test_scanner_finds_global_rng_calls() -> None:
    bad = (
        "import random\nimport numpy as np\nfrom random import shuffle\n"
        "random.shuffle(x)\nnp.random.choice(3)\nrng = random.Random(1)\ng = np.random.default_rng(2)\n"
        "rng.shuffle(x)\ng.integers(3)\n"
    )
    assert global_rng_uses(bad) == [
        "line 3: from random import shuffle",
        "line 4: random.shuffle",
        "line 5: np.random.choice",
    ]


def test_package_never_uses_global_rngs() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 10
    offenders = {}
    for path in files:
        uses = global_rng_uses(path.read_text(encoding="utf-8"))
        if uses:
            offenders[str(path.relative_to(ROOT))] = uses
    assert offenders == {}
