"""The long random sweep over every module set: random games with the invariants checked
after every decision (``test_random_playouts.play_checked``: the engine's and the modules' own,
clone / pickle / JSON and replay at intervals), every module set at 2 to 5 players, every level,
mode and payment mode, with the modules' switches varied from game to game. Slow suite."""

from __future__ import annotations

import itertools
import random

import pytest

from bbom_env.engine import GameConfig
from tests.test_random_playouts import play_checked

MODULE_SETS = [("dark_matter",), ("phobias",), ("dark_matter", "phobias")]
SETTINGS = list(
    itertools.product((1, 2, 3), ("normal", "fear", "nightmare", "fear+nightmare"), ("auto", "manual"))
)


def _switches(modules: tuple[str, ...], rng: random.Random) -> dict[str, object]:
    out: dict[str, object] = {}
    if "dark_matter" in modules:
        out |= {
            "black_book_inside_pages": rng.choice([1, 3, 5, 12]),
            "dark_curse_destroy_by_effect": rng.random() < 0.3,
            "vth_magicians": rng.random() < 0.8,
        }
    if "phobias" in modules:
        out |= {
            "phobia_elimination": rng.choice(["no_slot", "literal_second_phobia"]),
            "phobia_leaves_support": rng.random() < 0.3,
            "phobia_dealing": rng.choice(["round_robin", "by_player"]),
        }
    return out


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("modules", MODULE_SETS, ids=["dark_matter", "phobias", "both"])
def test_random_module_games_keep_their_invariants(modules: tuple[str, ...], players: int) -> None:
    """12 games per module set and player count, 144 in all: each of the 24 (level, mode, payment)
    settings at two player counts of every module set (about 45 s on one core)."""
    reasons: dict[str, int] = {}
    mine = [(i, s) for i, s in enumerate(SETTINGS) if (i + players) % 2 == 0]
    for i, (level, mode, payment) in mine:
        seed = 70_000 + 1_000 * players + 100 * len(modules) + i
        config = GameConfig(
            num_players=players,
            difficulty=level,
            mode=mode,
            payment=payment,
            modules=modules,
            seed=seed,
            **_switches(modules, random.Random(seed)),  # type: ignore[arg-type]
        )
        state = play_checked(config, agent_seed=seed, full_every=60)
        reasons[state.reason] = reasons.get(state.reason, 0) + 1
    assert sum(reasons.values()) == len(mine) == len(SETTINGS) // 2
