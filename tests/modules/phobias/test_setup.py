"""Setup with the Phobia module (docs/rules.md 1.3, 2.4, 9.2; A-77; V-23, V-24): the Madness pile's
composition by player count, a random subset of the Phobias, face up; the base deal unchanged;
Fear mode's starting Madness from that pile; the module's switches."""

from __future__ import annotations

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.io.invariants import card_totals, check_invariants
from bbom_env.engine.model.constants import MADNESS, MADNESS_IN_BOX
from bbom_env.engine.play.zones import receive_madness
from bbom_env.modules.phobias.module import COMPOSITION, phobia_totals
from bbom_env.modules.phobias.state import NUM_PHOBIAS, PHOBIA_BASE, ph_state
from modules.phobias.helpers import MODULES, game, phobias_in_pile

PHOBIAS = range(PHOBIA_BASE, PHOBIA_BASE + NUM_PHOBIAS)


@pytest.mark.parametrize(("players", "want"), [(2, (10, 10)), (3, (12, 13)), (4, (14, 16)), (5, (16, 19))])
def test_pile_composition_by_player_count(ph: None, players: int, want: tuple[int, int]) -> None:
    """Section 1.3: 10+10, 12+13, 14+16, 16+19 Phobias + Madness; the rest in the box (A-77)."""
    assert COMPOSITION[players] == want
    s = new_game(GameConfig(num_players=players, seed=7, modules=MODULES), pack=None)
    pile = s.madness_pile
    assert len(pile) == 5 * players + 10
    assert (sum(c >= PHOBIA_BASE for c in pile), pile.count(MADNESS)) == want
    assert s.box[MADNESS] == MADNESS_IN_BOX - want[1]
    assert sorted(phobias_in_pile(s)) == ph_state(s).chosen
    assert [s.box[c] for c in PHOBIAS] == [0 if c in ph_state(s).chosen else 1 for c in PHOBIAS]
    assert set(phobia_totals(s).values()) == {1}
    check_invariants(s)


def test_a_random_subset_of_the_phobias(ph: None) -> None:
    """A-77: shuffle all 16, take the number needed at random: the subsets differ across seeds and
    every Phobia can be in a game; the pile is shuffled (not sorted)."""
    subsets = {tuple(ph_state(game(2, seed)).chosen) for seed in range(12)}
    assert len(subsets) > 6
    assert set().union(*subsets) == set(PHOBIAS)
    assert any(game(2, seed).madness_pile != sorted(game(2, seed).madness_pile) for seed in range(3))


def test_the_pile_is_face_up_the_top_is_received(ph: None) -> None:
    """Section 9.2: the top card is public (``madness_pile[-1]``, in the render); receiving a
    Madness takes exactly that card, a Phobia to the discard pile like any Madness (5.3)."""
    s = game(3, 4)
    top = s.madness_pile[-1]
    assert f"Madness pile top {'madness' if top == MADNESS else f'phobia-{top - PHOBIA_BASE}'}" in str(s)
    while s.madness_pile[-1] == MADNESS:
        receive_madness(s, 1, "discard")
    top = s.madness_pile[-1]
    before = s.players[1].discard[top]
    assert receive_madness(s, 1, "discard")
    assert s.players[1].discard[top] == before + 1 and top >= PHOBIA_BASE
    check_invariants(s)


@pytest.mark.parametrize("players", [2, 5])
def test_the_base_deal_is_unchanged(ph: None, players: int) -> None:
    """The module's setup runs after every base draw: the same seed deals the same Magicians,
    decks, hands, Grimoire and first player with and without it."""
    from bbom_env.engine.io.setup import setup

    a = setup(GameConfig(num_players=players, seed=11))
    b = setup_only(players, 11)
    assert [p.magician for p in a.players] == [p.magician for p in b.players]
    assert a.grimoire == b.grimoire and a.active == b.active and a.library == b.library
    assert [(p.deck, p.hand) for p in a.players] == [(p.deck, p.hand) for p in b.players]
    assert a.madness_pile != b.madness_pile  # only the pile is the module's


def setup_only(players: int, seed: int):
    from bbom_env.engine.io.setup import setup

    return setup(GameConfig(num_players=players, seed=seed, modules=MODULES))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fear_madness_comes_from_the_phobia_pile(ph: None, players: int) -> None:
    """Section 2.4 with V-24: each deck's starting Madness is dealt from the pile (one at a time
    from the first player), so it may be a Phobia; one in the opening hand is placed at once
    (V-23), in a free slot. The composition of 1.3 counts these cards."""
    placed = 0
    for seed in range(8):
        s = setup_only_mode(players, seed, "fear")
        for pl in s.players:
            mine = [c for c in pl.deck if c == MADNESS or c >= PHOBIA_BASE]
            mine += [c for c in range(len(pl.hand)) if pl.hand[c] and (c == MADNESS or c >= PHOBIA_BASE)]
            mine += [sl.card for sl in pl.support]
            assert len(mine) == 1  # exactly the one Fear Madness
            assert all(c == MADNESS for c in range(len(pl.hand)) if pl.hand[c] and c >= MADNESS and c != 13)
            placed += len(pl.support)
        phobias_out = sum(c >= PHOBIA_BASE for pl in s.players for c in pl.deck) + sum(
            len(pl.support) for pl in s.players
        )
        assert len(phobias_in_pile(s)) + phobias_out == COMPOSITION[players][0]
        assert set(phobia_totals(s).values()) == {1} and card_totals(s)[MADNESS] == MADNESS_IN_BOX
    assert placed > 0


def setup_only_mode(players: int, seed: int, mode: str):
    from bbom_env.engine.io.setup import setup

    return setup(GameConfig(num_players=players, seed=seed, mode=mode, modules=MODULES))


def test_switches_need_the_module(ph: None) -> None:
    """A-52 and V-26 switches: refused off their defaults without the module, named."""
    with pytest.raises(ConfigError, match="phobia_elimination.*without module 'phobias'"):
        GameConfig(phobia_elimination="literal_second_phobia")
    with pytest.raises(ConfigError, match="phobia_leaves_support"):
        GameConfig(phobia_leaves_support=True)
    config = GameConfig(
        modules=MODULES, phobia_elimination="literal_second_phobia", phobia_leaves_support=True
    )
    assert config.switch("phobia_elimination") == "literal_second_phobia"
