"""The Dark Matter module's skeleton: not available by default, its state
(``state.ext["dark_matter"]``), setup after the base setup (docs/rules.md section 2.2, V-01), its
invariants (Dark Matter conserved: 28 cards, section 1.2) and saves."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.cards.vocab import PackError
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.core.moves import NUM_BASE_MOVES
from bbom_env.engine.core.resolver import run
from bbom_env.engine.core.rules import MODULES, ruleset
from bbom_env.engine.core.state import SaveError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.setup import setup
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.modules.dark_matter.module import (
    DARK_MATTER_CARDS,
    DARK_MATTER_MODULE,
    NAME,
    PACK,
    DarkMatterState,
    dark_matter_count,
    dm_state,
    spread_spells,
    used_this_turn,
)
from bbom_env.modules.dark_matter.state import DARK_MATTER


def dm_config(**kw: object) -> GameConfig:
    return GameConfig(modules=(NAME,), pack_overrides=(PACK,), **kw)  # type: ignore[arg-type]


def test_the_module_is_available_by_default() -> None:
    """``import bbom_env`` registers the module (``bbom_env.modules``): a config names it."""
    assert MODULES[NAME] is DARK_MATTER_MODULE
    assert GameConfig(modules=(NAME,)).modules == (NAME,)


def test_setup_makes_the_module_state(dm: None) -> None:
    """Section 2.2: the Dark Curse pile (12, shuffled), the 9th supply pile of 28 Dark Matter cards,
    the 5 tokens (V-05); V-01: the Black Book from 1 Cover, 3 Inside pages, 1 Back page, open on
    its first spread (the Cover's back | Inside page 1's front), not yet used, not closed."""
    state = new_game(dm_config(seed=7))
    st = dm_state(state)
    assert type(st) is DarkMatterState and (st.supply, st.tokens) == (28, 5)
    # Section 9.1: the Dark Curse pile beside the other Curse piles (a Curse type of its own).
    assert sorted(state.curse_piles["dark_matter"]) == sorted(state.pack.sections["dark_curse"])
    assert all(state.pack.curses[c].type == "dark_matter" for c in state.curse_piles["dark_matter"])
    pages = state.pack.sections["black_page"]
    assert [pages[p].kind for p in st.book] == ["cover", "inside", "inside", "inside", "back"]
    assert (st.spread, st.closed, used_this_turn(state)) == (0, False, False)
    left, right = spread_spells(state)
    assert left is pages[st.book[0]].back and right is pages[st.book[1]].front
    assert "Black Book spread 1/4" in str(state)
    # Different seeds give different piles and books (the module draws from the game's RNG).
    other = dm_state(new_game(dm_config(seed=8)))
    other_pile = new_game(dm_config(seed=8)).curse_piles["dark_matter"]
    assert (other_pile, other.book) != (state.curse_piles["dark_matter"], st.book)


BASE_FIELDS = [
    f.name
    for f in dataclasses.fields(new_game(GameConfig(seed=1)))
    if f.name not in ("config", "pack", "rng", "ext", "log", "rules", "cache_legal", "cache_views")
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_base_deal_is_unchanged_with_the_module(dm: None, players: int) -> None:
    """The module's setup steps draw from the RNG after every base draw: the same seed deals the
    same base game (Magicians, decks, hands, Library, Curses, first player). The new Magicians
    left out (``vth_magicians=False``, V-18): they change the Magician choice itself. The Grimoire
    is the module's to rebuild (section 2.2 step 7, V-16): its End page is the base one, and its
    base Inside pages are the first ones the base setup drew (grimoire.py reuses them). So the
    deal is compared before the first Monster phase (``setup``: the first Monster differs); with
    the base Grimoire put back, the first decision is the base game's too."""
    for seed in range(5):
        base = setup(GameConfig(seed=seed, num_players=players))
        game = setup(dm_config(seed=seed, num_players=players, vth_magicians=False))
        assert game.grimoire[-1] == base.grimoire[-1] == "grimoire_end_page"
        kept = [p for p in game.grimoire[1:-1] if not game.pack.pages[p].module]
        assert kept and sorted(kept) == sorted(base.grimoire[1 : 1 + len(kept)])
        game.grimoire = list(base.grimoire)
        run(base)
        run(game)
        for name in BASE_FIELDS:
            if name == "curse_piles":  # the base piles, and the module's Dark Curse pile beside them
                assert {t: p for t, p in game.curse_piles.items() if t != "dark_matter"} == base.curse_piles
                continue
            assert getattr(game, name) == getattr(base, name), name
        # The same decision, with the module's Actions (ids after the base's) added to it.
        assert [m for m in game.legal_actions() if m < NUM_BASE_MOVES] == base.legal_actions()
        added = [e[1] for e in game.log if e[1] in ("black_book", "dark_grimoire")]
        assert added == ["black_book", "dark_grimoire"]  # the module's setup events (V-01, 2.2 step 7)
        assert [e for e in game.log if e[1] not in added] == base.log
        assert base.ext == {}


def test_a_base_game_accepts_the_module_pack_and_ignores_it(dm: None) -> None:
    state = new_game(GameConfig(seed=3, pack_overrides=(PACK,)))
    assert state.ext == {} and state.players[0].magician in state.pack.magicians
    # Its cards stay in their sections: no Dark Curse, Dark Monster page or new Magician in play.
    assert not any(
        c.module for t in (state.pack.curses, state.pack.pages, state.pack.magicians) for c in t.values()
    )
    assert "dark_matter" not in state.curse_piles


def test_the_module_brings_its_cards(dm: None) -> None:
    """Section 1.2, 2.2: GameConfig(modules=("dark_matter",)) alone plays with the module's cards
    (its pack file is read before the config's overrides); Dark Curses are Curses of type
    "dark_matter" (section 9.1), the Vth Grimoire cards Grimoire pages, the new Magicians Magicians."""
    state = new_game(GameConfig(seed=3, modules=(NAME,)))
    kinds = {
        t: {c.id for c in table.values() if c.module == NAME}
        for t, table in (
            ("curse", state.pack.curses),
            ("page", state.pack.pages),
            ("magician", state.pack.magicians),
        )
    }
    assert kinds["curse"] == set(state.pack.sections["dark_curse"])
    assert kinds["page"] == set(state.pack.sections["dark_grimoire"])
    assert kinds["magician"] == set(state.pack.sections["vth_magician"])
    assert {state.pack.curses[c].type for c in kinds["curse"]} == {"dark_matter"}


def test_the_new_magicians_join_the_choice_v18(dm: None) -> None:
    """V-18: with the module the 4 new Magicians join the 8 base ones in the Magician choice;
    ``vth_magicians=False`` leaves them out, and naming one then is refused."""
    seen = {
        m
        for seed in range(40)
        for m in (p.magician for p in new_game(dm_config(seed=seed, num_players=5)).players)
    }
    vth = set(new_game(dm_config(seed=0)).pack.sections["vth_magician"])
    assert vth & seen
    without = {
        p.magician
        for seed in range(40)
        for p in new_game(dm_config(seed=seed, num_players=5, vth_magicians=False)).players
    }
    assert not vth & without
    one = sorted(vth)[0]
    with pytest.raises(ConfigError, match=r"magicians\[0\]=.* left out by GameConfig\.vth_magicians=False"):
        new_game(dm_config(seed=0, vth_magicians=False, magicians=(one, "magician_fire_m")))
    assert new_game(dm_config(seed=0, magicians=(one, "magician_fire_m"))).players[0].magician == one


def _played(config: GameConfig, moves: int, seed: int):  # noqa: ANN202
    state = new_game(config)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize(("players", "payment"), [(2, "auto"), (3, "manual"), (5, "auto")])
def test_random_playouts_keep_the_invariants(dm: None, players: int, payment: str) -> None:
    """Dark Matter conserved and the module state valid after every move (module alone); random
    play acquires Dark Matter (V-17) in these games."""
    acquired = 0
    for seed in range(2):
        n = 0
        config = dm_config(seed=seed, num_players=players, payment=payment)
        for state in _played(config, 400, seed):
            check_invariants(state)
            assert dark_matter_count(state) == DARK_MATTER_CARDS
            n += 1
        assert n > 100
        acquired += state.stats.get("dark_matter_acquired", 0)
    assert acquired > 0


def _in_lists(state) -> bool:  # noqa: ANN001
    """Whether a Dark Matter card is in a deck or a support slot (saves refuse that for now)."""
    return any(
        DARK_MATTER in pl.deck or any(DARK_MATTER in (s.card, s.crushed) for s in pl.support)
        for pl in state.players
    )


def test_state_survives_clone_pickle_and_json(dm: None) -> None:
    """With Dark Matter acquired (in hands and discard piles)."""
    states = [s.clone() for s in _played(dm_config(seed=4), 300, 4) if not _in_lists(s)]
    state = next(s for s in reversed(states) if s.stats.get("dark_matter_acquired", 0) >= 2)
    text = state.to_json()
    assert json.loads(text)["ext"]["dark_matter"]["supply"] == dm_state(state).supply < 28
    for copy in (state.clone(), pickle.loads(pickle.dumps(state)), from_json(text)):
        assert copy == state and type(copy.ext[NAME]) is DarkMatterState
        assert copy.ext[NAME] is not state.ext[NAME] and copy.ext[NAME].book is not state.ext[NAME].book
        assert copy.legal_actions() == state.legal_actions()
    c = state.clone()
    c.curse_piles["dark_matter"].pop()
    assert len(c.curse_piles["dark_matter"]) == len(state.curse_piles["dark_matter"]) - 1


def test_a_save_with_dark_matter_in_a_deck_loads(dm: None) -> None:
    """Section 1.2: Dark Matter is a card of a game with the module (``Ruleset.card_codes``), so a
    save holding one in a deck, a discard pile, a support slot or the box loads."""
    state = new_game(dm_config(seed=1))
    dm_state(state).supply -= 4
    state.players[0].deck.append(DARK_MATTER)
    state.players[1].discard[DARK_MATTER] += 1
    state.players[1].support.append(SupportSlot(DARK_MATTER, NO_CARD))
    state.box[DARK_MATTER] += 1
    assert from_json(state.to_json()) == state


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
            lambda d: d["curse_piles"]["dark_matter"].__setitem__(0, "curse_fire_01"),
            r"curse_piles\.dark_matter\[0\]: 'curse_fire_01' is a fire Curse",
        ),
        (
            lambda d: d["curse_piles"]["dark_matter"].__setitem__(1, d["curse_piles"]["dark_matter"][0]),
            r"dark_curse_\w+",
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


def test_a_module_op_in_a_base_game_is_refused(tmp_path) -> None:  # noqa: ANN001
    """A base card whose effect uses the module's op (V-04's gain_dark_matter) needs the module:
    without it the op would run with no Dark Matter supply; the game is refused, naming the card."""
    over = tmp_path / "dm_growth.toml"
    over.write_text(
        '[[spell]]\nid = "spell_growth"\nname = "Growth"\nkind = "basic"\nelement = "earth"\n'
        'activation_cost = 1\ntext = "Gain Dark Matter."\neffect = [{ op = "gain_dark_matter" }]\n'
        'provenance = "reconstructed"\n'
    )
    with pytest.raises(
        PackError, match=r"card 'spell_growth'\.effect\[0\]\.op: op 'gain_dark_matter' comes with a module"
    ):
        new_game(GameConfig(seed=1, pack_overrides=(str(over),)))
    state = new_game(GameConfig(seed=1, modules=(NAME,), pack_overrides=(str(over),)))
    assert state.pack.spells["spell_growth"].effect[0]["op"] == "gain_dark_matter"
