"""The heuristic team with the Dark Matter module (agents/heuristic_dark_matter.py):
it destroys a Dark Curse when it holds the Dark Matter (section 4.7), casts the Black Spell worth
its cost with spare Dark Matter (section 4.8), keeps Dark Matter while a Dark Curse waits (DP-36),
buys Dark Matter for the last Monster's Dark Curse and moves it into the support pool (sections
4.0, 4.6), reads the last Monster's odds from the public Grimoire, and only ever returns legal
moves."""

from __future__ import annotations

import pytest
from builders import Scenario

from agents.heuristic_agent import HeuristicAgent
from agents.heuristic_dark_matter import final_dark_odds, keep_dark_matter, reach
from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.move_args import SpellPower
from bbom_env.modules.dark_matter.module import NAME, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER


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


BASICS = ("test_growth", "test_ice", "test_combustion", "test_telepathy")


def spread(sc: Scenario, right: str) -> Scenario:
    """Show ``right``'s front on the open spread's right page (the left page: the Cover's back)."""
    st = dm_state(sc.s)
    st.book[st.spread + 1] = right
    sc.s.legal_cache = None
    return sc


def test_it_casts_the_black_book_with_spare_dark_matter() -> None:
    """Section 4.8: no Dark Curse waits, Dark Matter to spare: the Black Spell worth its cost (each
    player draws 1, for 3), not the Cover's (put a card back on the deck, for 1)."""
    sc = spread(give(game().hand(0, "fire-1"), 0, 5), "black_page_inside_05").action_phase(0)
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move, (NAME,)).block == "BLACK_BOOK_RIGHT"


def test_it_leaves_a_black_spell_worth_less_than_its_cost() -> None:
    """Every player refreshes a Spell, for 4 Dark Matter, while no Spell is exhausted: not cast."""
    sc = spread(give(game().hand(0, "fire-1"), 0, 5), "black_page_inside_09").action_phase(0)
    st = dm_state(sc.s)
    st.book[st.spread] = "black_page_cover_3"  # its back: "You may put 1 card ... on your deck"
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move, (NAME,)).block not in ("BLACK_BOOK_LEFT", "BLACK_BOOK_RIGHT")


def last_round(sc: Scenario) -> Scenario:
    """Round 6 (the last Monster), a Dark Curse on the track, every Spell of seat 0 exhausted but
    Ice."""
    sc.at(round=6, marker=2).curse(0, "dark_curse_04")
    return sc.spells(0, *BASICS, exhausted=("test_growth", "test_combustion", "test_telepathy"))


def test_in_the_last_round_it_buys_dark_matter_for_the_dark_curse() -> None:
    """Section 4.6: a Dark Curse in the last round loses the game; 1 of its 4 Dark Matter held and
    Element cards of 4 Elements: buy (Ice exhausted too, so nothing moves first)."""
    sc = last_round(game().hand(0, "fire-1", "water-1", "earth-1", "air-1"))
    sc = give(sc.spell_state(0, "test_ice", exhausted=True), 0, 1).action_phase(0)
    move = HeuristicAgent(0).act(sc.s)
    assert M.decode(move, (NAME,)).block == "ACQUIRE_DARK_MATTER"


def test_it_moves_dark_matter_into_the_support_pool() -> None:
    """Section 4.0: Dark Matter in the support pool is within every teammate's reach: Ice takes
    the Dark Matter card, not the Element card."""
    sc = give(last_round(game().hand(0, "water-1", "fire-1")), 0, 2).action_phase(0)
    agent = HeuristicAgent(0)
    move = agent.act(sc.s)
    assert move == M.encode("ACTIVATE", SpellPower(sc.p(0).spell_index("test_ice"), 1))
    sc.s.apply_action(move)
    while sc.s.stack[-1]["kind"] == "pay":
        sc.s.apply_action(agent.act(sc.s))
    sc.s.apply_action(agent.act(sc.s))  # the place_in_support choice
    assert [slot.card for slot in sc.p(0).support] == [DARK_MATTER] and reach(sc.s) == 2


@pytest.mark.parametrize("seed", range(6))
def test_the_last_monsters_odds_come_from_the_public_grimoire(seed: int) -> None:
    """Section 2.2, A-40: 3 of the 5 Inside pages are Dark Monsters at level 1. With 4 of them
    seen (turned or previewed), the odds say whether the last one is dark; at round 1, 3 of 5
    minus those seen."""
    state = new_game(GameConfig(seed=seed, num_players=2, modules=(NAME,)))
    dark = [state.pack.pages[pid].module == NAME for pid in state.grimoire[1:6]]
    state.round = 4
    assert final_dark_odds(state) == (1.0 if dark[4] else 0.0)
    state.round = 1
    assert final_dark_odds(state) == pytest.approx((3 - dark[0]) / 4)


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
