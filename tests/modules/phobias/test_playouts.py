"""Random playouts with the Phobia module: at 2-5 players, both payment modes,
Normal and Fear, alone and with the Dark Matter module, every decision checked with the
invariants (every Madness and Phobia conserved, crushed cards only under Phobias: section 9.2),
clone / pickle / JSON round trips and replay (``test_random_playouts.play_checked``); placement
and crushing happen; registering the module leaves base games as they were."""

from __future__ import annotations

import itertools
import random

import pytest
from test_random_playouts import play_checked

from bbom_env.engine import GameConfig, new_game
from bbom_env.modules.dark_matter.module import registered as dm_registered

SETTINGS = list(itertools.product(("auto", "manual"), ("normal", "fear")))  # 4 per player count


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_with_phobias(ph: None, players: int) -> None:
    """Section 9.2 with the module's invariants after every decision; Phobias get placed (some by
    crushing, A-55) across the games."""
    stats: dict[str, int] = {}
    for i, (payment, mode) in enumerate(SETTINGS):
        seed = 70_000 + players * 100 + i
        config = GameConfig(num_players=players, payment=payment, mode=mode, seed=seed, modules=("phobias",))
        state = play_checked(config, agent_seed=seed, full_every=1 if i == 0 else 10)
        for k, v in state.stats.items():
            stats[k] = stats.get(k, 0) + v
        assert state.over
    assert stats.get("madness_received", 0) > 0


def test_crushing_happens_in_random_games(ph: None) -> None:
    """Over a handful of random games the crush decision (DP-34) comes up and is answered."""
    crushed = 0
    for seed in range(6):
        config = GameConfig(num_players=3, seed=80_000 + seed, modules=("phobias",))
        crushed += play_checked(config, agent_seed=seed, full_every=50).stats.get("cards_crushed", 0)
    assert crushed > 0


@pytest.mark.parametrize("players", [2, 4])
def test_random_playouts_with_both_modules(ph: None, players: int) -> None:
    """Both Vth Element modules in one game: both modules' invariants hold (Dark Matter's 28 cards,
    every Phobia once)."""
    with dm_registered():
        for i, payment in enumerate(("auto", "manual")):
            seed = 90_000 + players * 10 + i
            config = GameConfig(
                num_players=players, payment=payment, seed=seed, modules=("dark_matter", "phobias")
            )
            assert play_checked(config, agent_seed=seed, full_every=10).over


def test_base_games_unchanged_by_the_registered_module(ph: None) -> None:
    """A base game never calls the module's seams: with the module registered, the same seed and
    moves give the same game as recorded without it (benchmarks/fingerprint.py proves it in full)."""
    config = GameConfig(num_players=3, seed=123)
    rng = random.Random(5)
    state = new_game(config)
    while not state.over:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.ext == {}
    from bbom_env.engine.core.rules import unregister

    unregister("phobias")
    try:
        again = new_game(config)
        for a in state.history:
            again.apply_action(a)
        assert again == state
    finally:
        from bbom_env.engine.core.rules import register
        from bbom_env.modules.phobias.module import PHOBIA_MODULE

        register(PHOBIA_MODULE)
