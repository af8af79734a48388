"""The Dark Matter module's skeleton (issue 11, part A): not available by default, its state
(``state.ext["dark_matter"]``), setup after the base setup (RULES.md section 2.2, V-01), its
invariants (Dark Matter conserved: 28 cards, section 1.2) and saves."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.config import ConfigError
from bbom_env.engine.constants import DARK_MATTER
from bbom_env.engine.invariants import check_invariants
from bbom_env.engine.rules import MODULES, ruleset
from bbom_env.engine.state import SaveError
from bbom_env.modules.dark_matter.module import (
    DARK_MATTER_CARDS,
    NAME,
    PACK,
    DarkMatterState,
    dark_matter_count,
    dm_state,
    spread_spells,
    used_this_turn,
)


def dm_config(**kw: object) -> GameConfig:
    return GameConfig(modules=(NAME,), pack_overrides=(PACK,), **kw)  # type: ignore[arg-type]


def test_the_module_is_not_available_by_default() -> None:
    """Issue 11 is in progress: nothing registers the module, so a config naming it is refused."""
    assert NAME not in MODULES
    with pytest.raises(ConfigError, match="not implemented yet"):
        GameConfig(modules=(NAME,))


def test_setup_makes_the_module_state(dm: None) -> None:
    """Section 2.2: the Dark Curse pile (12, shuffled), the 9th supply pile of 28 Dark Matter cards,
    the 5 tokens (V-05); V-01: the Black Book from 1 Cover, 3 Inside pages, 1 Back page, open on
    its first spread (the Cover's back | Inside page 1's front), not yet used, not closed."""
    state = new_game(dm_config(seed=7))
    st = dm_state(state)
    assert type(st) is DarkMatterState and (st.supply, st.tokens) == (28, 5)
    assert sorted(st.curse_pile) == sorted(state.pack.sections["dark_curse"])
    pages = state.pack.sections["black_page"]
    assert [pages[p].kind for p in st.book] == ["cover", "inside", "inside", "inside", "back"]
    assert (st.spread, st.closed, used_this_turn(state)) == (0, False, False)
    left, right = spread_spells(state)
    assert left is pages[st.book[0]].back and right is pages[st.book[1]].front
    assert "Black Book spread 1/4" in str(state)
    # Different seeds give different piles and books (the module draws from the game's RNG).
    other = dm_state(new_game(dm_config(seed=8)))
    assert (other.curse_pile, other.book) != (st.curse_pile, st.book)


BASE_FIELDS = [
    f.name
    for f in dataclasses.fields(new_game(GameConfig(seed=1)))
    if f.name not in ("config", "pack", "rng", "ext", "log")
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_base_deal_is_unchanged_with_the_module(dm: None, players: int) -> None:
    """The module's setup steps draw from the RNG after every base draw: the same seed deals the
    same base game (Magicians, decks, hands, Grimoire, Library, Curses, first player)."""
    for seed in range(5):
        base = new_game(GameConfig(seed=seed, num_players=players))
        game = new_game(dm_config(seed=seed, num_players=players))
        for name in BASE_FIELDS:
            assert getattr(game, name) == getattr(base, name), name
        book = [e for e in game.log if e[1] == "black_book"]
        assert [e for e in game.log if e[1] != "black_book"] == base.log and len(book) == 1
        assert base.ext == {}


def test_a_base_game_accepts_the_module_pack_and_ignores_it(dm: None) -> None:
    state = new_game(GameConfig(seed=3, pack_overrides=(PACK,)))
    assert state.ext == {} and state.players[0].magician in state.pack.magicians


def _played(config: GameConfig, moves: int, seed: int):  # noqa: ANN202
    state = new_game(config)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 5])
def test_random_playouts_keep_the_invariants(dm: None, players: int) -> None:
    """Dark Matter conserved and the module state valid after every move (module alone)."""
    for seed in range(2):
        n = 0
        for state in _played(dm_config(seed=seed, num_players=players), 400, seed):
            check_invariants(state)
            assert dark_matter_count(state) == DARK_MATTER_CARDS
            n += 1
        assert n > 100


def test_state_survives_clone_pickle_and_json(dm: None) -> None:
    *_, state = _played(dm_config(seed=4), 150, 4)
    text = state.to_json()
    assert json.loads(text)["ext"]["dark_matter"]["supply"] == dm_state(state).supply
    for copy in (state.clone(), pickle.loads(pickle.dumps(state)), from_json(text)):
        assert copy == state and type(copy.ext[NAME]) is DarkMatterState
        assert copy.ext[NAME] is not state.ext[NAME] and copy.ext[NAME].book is not state.ext[NAME].book
        assert copy.legal_actions() == state.legal_actions()
    c = state.clone()
    dm_state(c).curse_pile.pop()
    assert len(dm_state(c).curse_pile) == len(dm_state(state).curse_pile) - 1


def test_same_seed_same_game(dm: None) -> None:
    a = list(s.history[-1] for s in _played(dm_config(seed=9, num_players=3), 200, 1))
    b = list(s.history[-1] for s in _played(dm_config(seed=9, num_players=3), 200, 1))
    assert a == b and dm_state(new_game(dm_config(seed=9))) == dm_state(new_game(dm_config(seed=9)))


def _tampered(state, edit) -> str:  # noqa: ANN001
    data = json.loads(state.to_json())
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["ext"]["dark_matter"].update(supply=27), r"27 Dark Matter cards in play, expected 28"),
        (lambda d: d["ext"]["dark_matter"].update(supply="x"), r"^ext\.dark_matter\.supply: expected an int"),
        (lambda d: d["ext"]["dark_matter"].update(tokens=6), r"ext\.dark_matter\.tokens: 6 is not 0\.\.5"),
        (
            lambda d: d["ext"]["dark_matter"]["curse_pile"].__setitem__(0, "curse_fire_01"),
            r"ext\.dark_matter\.curse_pile\[0\]: 'curse_fire_01' is not a Dark Curse",
        ),
        (
            lambda d: d["ext"]["dark_matter"]["curse_pile"].__setitem__(
                1, d["ext"]["dark_matter"]["curse_pile"][0]
            ),
            r"curse_pile holds a Dark Curse twice",
        ),
        (
            lambda d: d["ext"]["dark_matter"]["book"].__setitem__(0, "black_page_inside_01"),
            r"ext\.dark_matter\.book\[0\]: 'black_page_inside_01' is not a cover page",
        ),
        (lambda d: d["ext"]["dark_matter"].update(spread=4), r"ext\.dark_matter\.spread: 4 is not 0\.\.3"),
    ],
)
def test_a_tampered_module_state_is_refused(dm: None, edit, message: str) -> None:  # noqa: ANN001
    state = new_game(dm_config(seed=2))
    from_json(state.to_json())
    with pytest.raises(SaveError, match=message):
        from_json(_tampered(state, edit))


def test_dark_matter_is_counted_in_every_zone(dm: None) -> None:
    """Supply + hands, decks, discard piles, supports + box + destroyed = 28 (section 1.2)."""
    state = new_game(dm_config(seed=5))
    st, pl = dm_state(state), state.players[1]
    st.supply -= 4
    pl.hand[DARK_MATTER] += 1
    pl.discard[DARK_MATTER] += 1
    pl.deck.append(DARK_MATTER)
    state.destroyed[DARK_MATTER] += 1
    assert dark_matter_count(state) == DARK_MATTER_CARDS
    st.supply -= 1
    with pytest.raises(AssertionError, match="27 Dark Matter cards in play, expected 28"):
        ruleset(state.config.modules).invariants[-1](state)
