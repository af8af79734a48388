"""Setup (docs/rules.md section 2.1, steps 1-12, and the game modes of section 2.4)."""

from __future__ import annotations

import random
from typing import NamedTuple

from bbom_env.engine.cards.pack import CURSE_TYPES, Pack, PackIndex
from bbom_env.engine.core.config import ConfigError, GameConfig
from bbom_env.engine.core.rules import check_game_pack, game_pack, ruleset
from bbom_env.engine.core.state import GameState, PlayerState
from bbom_env.engine.io.setup_magicians import draw_magicians
from bbom_env.engine.model.constants import (
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_TOKENS_PER_ELEMENT,
    HAND_SIZE,
    LIBRARY_LEVELS,
    MADNESS,
    MADNESS_IN_BOX,
    NUM_ELEMENTS,
    ROUNDS,
    Phase,
    code_element,
    code_value,
    element_code,
    madness_pile_size,
)
from bbom_env.engine.model.records import SpellSlot
from bbom_env.engine.play.zones import draw


def new_game(config: GameConfig, pack: Pack | None = None) -> GameState:
    """A fresh game, advanced to its first decision. The only randomness is ``config.seed``."""
    from bbom_env.engine.core.resolver import run

    state = setup(config, pack)
    run(state)
    return state


def setup(config: GameConfig, pack: Pack | None = None) -> GameState:
    """The game of ``config`` set up, before its first decision. Every random draw comes from one
    ``random.Random(config.seed)``, in the order of the steps below (the deal of a seed is fixed)."""
    pack = pack or game_pack(config)
    rules = ruleset(config.modules)
    check_game_pack(pack, config.modules)  # a module's kinds, ops and sections need the module
    rng = random.Random(config.seed)
    magicians = draw_magicians(config, pack, rng)  # step 6 (setup_magicians.py)
    state = GameState(config=config, pack=pack, rng=rng, players=[PlayerState(m) for m in magicians])
    _piles(state)
    _starting_decks(state, magicians)
    _grimoire_and_library(state)
    # Steps 9-11: markers on their start spaces; Element tokens.
    state.tokens = [ELEMENT_TOKENS_PER_ELEMENT] * NUM_ELEMENTS
    # Step 12: a random starting player; everyone draws 6.
    state.active = rng.randrange(config.num_players)
    for p in range(config.num_players):
        draw(state, p, HAND_SIZE)
    state.phase = Phase.CONCENTRATION
    state.event("setup", tuple(magicians), tuple(state.grimoire))
    # Modules' setup steps come after every base draw from the RNG, so the base deal of a seed is
    # the same with and without them. Each module's own state exists before any
    # module step runs (a step may read another module's state).
    for name, state_type in rules.state_types:
        state.ext[name] = state_type()
    for step in rules.setup:
        step(state)
    return state


class _PackLists(NamedTuple):
    """What setup draws from, sorted by id (so that the pack file's order does not matter): a
    per-pack fact, built once per pack (``_LISTS``) instead of once per game. The draws from them
    are the same, in the same order."""

    curses: dict[str, tuple[str, ...]]  # Curse type -> its Curses' ids (step 3)
    basics: tuple[str, ...]  # the Basic Spells by Element (step 5)
    covers: tuple[str, ...]  # the base game's Cover and Inside pages (step 7), the End page(s)
    insides: tuple[str, ...]
    end: tuple[str, ...]
    library: dict[tuple[int, int], tuple[str, ...]]  # (Element, level) -> the Library Spells (step 8)


def _pack_lists(pack: Pack) -> _PackLists:
    pages = pack.pages.values()
    return _PackLists(
        curses={t: tuple(sorted(c.id for c in pack.curses.values() if c.type == t)) for t in CURSE_TYPES},
        basics=tuple(s.id for s in sorted(pack.basic_spells, key=lambda s: s.element)),
        # The base game's pages only: a module that brings pages builds its part of the Grimoire
        # in its own setup step (the Dark Matter module, section 2.2), after every base draw.
        covers=tuple(sorted(p.id for p in pages if p.kind == "cover" and not p.module)),
        insides=tuple(sorted(p.id for p in pages if p.kind == "inside" and not p.module)),
        end=tuple(p.id for p in pages if p.kind == "end"),
        library={
            (e, level): tuple(sorted(s.id for s in pack.library(e, level)))
            for e in range(NUM_ELEMENTS)
            for level in range(1, LIBRARY_LEVELS + 1)
        },
    )


_LISTS: PackIndex[_PackLists] = PackIndex(_pack_lists)


def _piles(state: GameState) -> None:
    """Steps 2-5: the Madness pile, the Curse piles, the Element supply and the Basic Spells."""
    lists, rng = _LISTS(state.pack), state.rng
    # Step 2: the Madness pile; the other Madness cards stay in the box.
    size = madness_pile_size(state.config.num_players)
    state.madness_pile = [MADNESS] * size
    state.box[MADNESS] = MADNESS_IN_BOX - size
    # Step 3: Curse piles, each shuffled (ids sorted first so file order does not matter).
    for t in CURSE_TYPES:
        pile = list(lists.curses[t])
        rng.shuffle(pile)
        state.curse_piles[t] = pile
    # Step 4: value-2 and value-3 supply piles; value-1 cards go to the box reserve.
    state.supply = [[ELEMENT_CARDS_PER_VALUE[2], ELEMENT_CARDS_PER_VALUE[3]] for _ in range(NUM_ELEMENTS)]
    state.reserve1 = [ELEMENT_CARDS_PER_VALUE[1]] * NUM_ELEMENTS
    # Step 5: Basic Spells, ready.
    for pl in state.players:
        pl.spells = [SpellSlot(sid) for sid in lists.basics]


def _starting_decks(state: GameState, magicians: list[str]) -> None:
    """Step 6: the starting decks, taken from the supply; Nightmare replaces value-2 cards by
    value-1 (A-39), Fear adds one Madness to each deck (section 2.4); each deck shuffled."""
    config = state.config
    for pl in state.players:
        deck = []
        for code in state.pack.magicians[pl.magician].starting_deck:
            e, v = code_element(code), code_value(code)
            if v == 2 and config.nightmare:
                v = 1
            if v == 1:
                state.reserve1[e] -= 1
            else:
                state.supply[e][v - 2] -= 1  # supply piles by value - 2 (values 2 and 3)
            deck.append(element_code(e, v))
        pl.deck = deck
    if any(x < 0 for x in state.reserve1) or any(x < 0 for pile in state.supply for x in pile):
        raise ConfigError(f"the starting decks of {magicians} need more Element cards than exist")
    # Fear (section 2.4): one Madness from the pile into each deck, before the opening draw.
    if config.fear:
        for pl in state.players:
            pl.deck.append(state.madness_pile.pop())
    for pl in state.players:
        state.rng.shuffle(pl.deck)


def _grimoire_and_library(state: GameState) -> None:
    """Steps 7-8: the Grimoire (a Cover, ROUNDS - 1 random Inside pages, the End page) and the
    Library (one random Spell per Element and level, level 1 on top)."""
    lists, rng = _LISTS(state.pack), state.rng
    covers = lists.covers
    state.grimoire = (
        [covers[rng.randrange(len(covers))]] + rng.sample(lists.insides, ROUNDS - 1) + [*lists.end]
    )
    for e in range(NUM_ELEMENTS):
        pile = []
        for level in range(LIBRARY_LEVELS, 0, -1):
            options = lists.library[(e, level)]
            pile.append(options[rng.randrange(len(options))])
        state.library.append(pile)
