"""Setup (docs/rules.md section 2.1 steps 1-12, section 2.4 game modes, A-38, A-39, A-41) and the first
turn opening the Grimoire (section 3.3.6, A-04). Test pack cards are reconstructed fixtures."""

from __future__ import annotations

import pytest
from builders import DEFAULT_MAGICIANS

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.io.invariants import card_totals, expected_totals
from bbom_env.engine.io.setup import setup
from bbom_env.engine.model.constants import MADNESS, Phase


def _cfg(n: int = 2, **kw) -> GameConfig:
    return GameConfig(pack="test", num_players=n, magicians=DEFAULT_MAGICIANS[:n], **kw)


@pytest.mark.parametrize(("n", "size"), [(2, 20), (3, 25), (4, 30), (5, 35)])
def test_madness_pile_size_per_player_count(n: int, size: int) -> None:
    """2.1 step 2 / 1.3: 20 / 25 / 30 / 35 Madness; the rest of the 35 stay in the box."""
    s = setup(_cfg(n))
    assert len(s.madness_pile) == size
    assert all(c == MADNESS for c in s.madness_pile)
    assert s.box[MADNESS] == 35 - size


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_player_draws_six_and_holds_four_basic_spells(n: int) -> None:
    """2.1 steps 5 and 12: 4 Basic Spells (one per Element, ready) and an opening hand of 6."""
    s = setup(_cfg(n))
    basics = {sp.id for sp in s.pack.basic_spells}
    for pl in s.players:
        assert sum(pl.hand) == 6
        assert len(pl.deck) + sum(pl.hand) == len(s.pack.magicians[pl.magician].starting_deck)
        assert {sp.spell for sp in pl.spells} == basics
        assert all(sp.exhausted is False and sp.neutralized == "" for sp in pl.spells)
        assert {s.pack.spells[sp.spell].element for sp in pl.spells} == {0, 1, 2, 3}


def test_library_three_piles_level_one_on_top() -> None:
    """2.1 step 8: one Spell per Element and level; level 1 on top, level 3 at the bottom."""
    s = setup(_cfg())
    assert len(s.library) == 4
    for e, pile in enumerate(s.library):
        levels = [s.pack.spells[sid].level for sid in pile]
        assert levels == [3, 2, 1]  # top = last
        assert all(s.pack.spells[sid].element == e and not s.pack.spells[sid].basic for sid in pile)


def test_supply_and_value1_reserve_pay_for_starting_decks() -> None:
    """2.1 steps 4 and 6, A-41: starting value-2/3 cards come out of the supply, value-1 cards out
    of the reserve; every Element card exists exactly 18/10/6 times."""
    s = setup(_cfg())
    starting = [c for pl in s.players for c in s.pack.magicians[pl.magician].starting_deck]
    for e in range(4):
        assert s.reserve1[e] == 18 - starting.count(e * 3)
        assert s.supply[e] == [10 - starting.count(e * 3 + 1), 6 - starting.count(e * 3 + 2)]
    assert card_totals(s) == expected_totals()


def test_board_at_setup_grimoire_closed_markers_on_start() -> None:
    """2.1 steps 7, 9-11: Grimoire of cover + 5 inside + end page, closed; Invocation marker on the
    Invocation space; round 0 (before the first Monster); 4 tokens per Element; empty track."""
    s = setup(_cfg())
    kinds = [s.pack.pages[p].kind for p in s.grimoire]
    assert kinds == ["cover"] + ["inside"] * 5 + ["end"]
    assert len(set(s.grimoire[1:6])) == 5
    assert (s.round, s.marker) == (0, 0)
    assert s.tokens == [4, 4, 4, 4]
    assert s.curses_on_track() == 0
    assert s.phase == Phase.CONCENTRATION
    for t, pile in s.curse_piles.items():
        assert sorted(pile) == sorted(c.id for c in s.pack.curses.values() if c.type == t)


def test_starting_player_is_random_and_setup_is_deterministic() -> None:
    """2.1 step 12: a random starting player; everything follows from the seed (decision 3)."""
    starts = {setup(_cfg(3, seed=seed)).active for seed in range(30)}
    assert starts == {0, 1, 2}
    a, b = new_game(_cfg(3, seed=7)), new_game(_cfg(3, seed=7))
    assert a == b
    assert new_game(_cfg(3, seed=8)) != a


def test_fear_mode_one_madness_shuffled_into_each_deck() -> None:
    """2.4 Fear, A-39: each player takes 1 Madness from the pile into their deck before the draw."""
    s = setup(_cfg(3, mode="fear"))
    assert len(s.madness_pile) == 25 - 3
    for pl in s.players:
        assert pl.deck.count(MADNESS) + pl.hand[MADNESS] == 1
    assert card_totals(s) == expected_totals()


def test_nightmare_mode_replaces_value2_starting_cards_by_value1() -> None:
    """2.4 Nightmare, A-39: value-2 starting cards become value-1 of the same Element (deck, 1 for
    1); the value-2 cards stay in the supply, the value-1 cards come from the reserve."""
    s = setup(_cfg(2, mode="nightmare"))
    normal = setup(_cfg(2))
    for i, pl in enumerate(s.players):
        cards = pl.deck + [c for c in range(12) for _ in range(pl.hand[c])]
        start = s.pack.magicians[pl.magician].starting_deck
        assert not [c for c in cards if c % 3 == 1]  # no value-2 left
        assert len(cards) == len(start)
        for e in range(4):
            v1 = start.count(e * 3) + start.count(e * 3 + 1)
            assert sum(1 for c in cards if c == e * 3) == v1
        assert s.players[i].magician == normal.players[i].magician
    for e in range(4):
        assert s.supply[e][0] == 10  # no value-2 card was taken from the supply
    assert card_totals(s) == expected_totals()
    assert len(s.madness_pile) == 20  # Nightmare does not include Fear


def test_fear_and_nightmare_combined_flags() -> None:
    """A-38: fear and nightmare are independent flags; the combined preset applies both."""
    s = setup(_cfg(2, mode="fear+nightmare"))
    assert len(s.madness_pile) == 18
    for pl in s.players:
        cards = pl.deck + [c for c in range(13) for _ in range(pl.hand[c])]
        assert cards.count(MADNESS) == 1
        assert not [c for c in cards if c < 12 and c % 3 == 1]


def test_first_turn_opens_the_grimoire_without_moving_the_round_marker() -> None:
    """3.3.6, A-04: the first Monster phase puts the marker on space 1 and opens the Cover: the
    Round marker stays in column 1, the Cover's Monster's Curses are placed (difficulty 1: no
    Multi-Element Curse in round 1 of the test round track) and no end-of-round check happens."""
    s = new_game(_cfg(2, seed=3))
    assert (s.round, s.marker, s.turn) == (1, 1, 1)
    monster = s.pack.pages[s.grimoire[0]].monster
    placed = [s.pack.curses[slot[0].curse].type for slot in s.track if slot]
    assert placed == list(monster.curse_symbols)
    assert [len(slot) for slot in s.track] == [1, 1, 1, 0, 0]  # later slots stay empty
    assert not [e for e in s.log if e[1] in ("bonus", "failure")]
    assert s.stats.get("monsters_failed", 0) == 0 and s.stats.get("monsters_defeated", 0) == 0
    assert s.phase == Phase.ACTION


def test_first_turn_arrival_effect_resolves_after_placement() -> None:
    """3.3.5, A-03: the Cover's arrival effect resolves (Test Swarm: each player discards the top
    2 cards of their deck) for every player, Active Player first."""
    for seed in range(40):
        s = new_game(_cfg(2, seed=seed))
        if s.grimoire[0] == "test_cover_a":
            break
    else:
        pytest.skip("no seed opened test_cover_a")
    for pl in s.players:
        assert sum(pl.discard) == 2
        assert len(pl.deck) == len(s.pack.magicians[pl.magician].starting_deck) - 6 - 2
