"""The heuristic team with the Dark Matter module (agents/heuristic_dark_matter.py):
it destroys a Dark Curse when it holds the Dark Matter (section 4.7), casts the Black Book with
spare Dark Matter (section 4.8, right page first), keeps Dark Matter at Recuperation while a Dark
Curse waits (DP-36), buys Dark Matter (section 4.6), and only ever returns legal moves."""

from __future__ import annotations

import pytest
from builders import Scenario

from agents.heuristic_agent import HeuristicAgent
from agents.heuristic_dark_matter import keep_dark_matter
from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import DARK_MATTER
from bbom_env.modules.dark_matter.module import NAME, dm_state


def game(**config: object) -> Scenario:
    return Scenario(num_players=2, modules=(NAME,), **config)


def give(sc: Scenario, seat: int, n: int) -> Scenario:
    dm_state(sc.s).supply -= n
    sc.p(seat).hand[DARK_MATTER] += n
    sc.s.legal_cache = None
    return sc


def test_it_destroys_a_dark_curse_it_can_pay_for() -> None:
    """Section 4.7: 4 Dark Matter in hand and a face-up Dark Curse: destroy it first."""
    sc = give(game().curse(0, "dark_curse_04").hand(0, "fire-1"), 0, 4).action_phase(0)
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move).block == "DESTROY_CURSE" and sc.s.track[0][-1].curse == "dark_curse_04"


def test_it_casts_the_black_book_with_spare_dark_matter() -> None:
    """Section 4.8: no Dark Curse waits, Dark Matter to spare: the right page (cast once) first."""
    sc = give(game().hand(0, "fire-1"), 0, 5).action_phase(0)
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move, (NAME,)).block == "BLACK_BOOK_RIGHT"


def test_it_keeps_the_dark_matter_a_dark_curse_needs() -> None:
    """4 Dark Matter, a Dark Curse on the track: no Black Spell would leave 4 (section 4.7 first)."""
    sc = give(game().curse(0, "dark_curse_04").hand(0, "fire-1"), 0, 3).action_phase(0)
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move, (NAME,)).block not in ("BLACK_BOOK_LEFT", "BLACK_BOOK_RIGHT")
    assert keep_dark_matter(sc.s)


@pytest.mark.parametrize("players", [2, 4])
def test_seeded_games_use_the_module_and_stay_legal(players: int) -> None:
    """Whole games: every move legal; across the seeds the team buys Dark Matter and a Dark Curse
    reaches the track (the module is played, not ignored by setup)."""
    stats: dict[str, int] = {}
    placed = 0
    for seed in range(12):
        state = new_game(GameConfig(seed=seed, num_players=players, modules=(NAME,)))
        agent = HeuristicAgent(seed)
        while not state.over:
            move = agent.act(state)
            assert move in state.legal_actions()
            state.apply_action(move)
        for k, v in state.stats.items():
            stats[k] = stats.get(k, 0) + v
        placed += sum(1 for e in state.log if e[1] == "curse_placed" and str(e[3]).startswith("dark_curse"))
    assert placed > 0 and stats.get("dark_matter_acquired", 0) > 0, (placed, stats)


def test_without_the_module_it_plays_the_base_game() -> None:
    state = new_game(GameConfig(seed=3))
    assert not keep_dark_matter(state)
