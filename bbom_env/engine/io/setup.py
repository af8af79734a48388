"""Setup (docs/rules.md section 2.1, steps 1-12, and the game modes of section 2.4).

Setup step 6, the Magicians (docs/rules.md section 2.1 step 6, "Magicians whose decks can be
dealt"): a fixed list is checked against the game's Magician choice; a random draw gives Magicians
whose starting decks the Element cards can deal.

Why a draw can fail without the check: every starting deck comes out of the Element cards (18 /
10 / 6 of each Element by value, section 1.1), and Nightmare deals a value-1 card for each value-2
one (A-39). The base game's 8 Magicians, two per Element, always fit; with the Dark Matter
module's 4 (V-18) three Magicians of one Element can sit at a 5-player table, and in Nightmare their
decks then need more value-1 cards of that Element than exist. A random draw keeps its first
Magicians whenever they can be dealt (so every game that could start before is dealt exactly as
before); otherwise it draws again among the sets of Magicians that can be dealt.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import NamedTuple

from bbom_env.engine.cards.pack import CURSE_TYPES, Pack, PackIndex
from bbom_env.engine.core.config import ConfigError, GameConfig
from bbom_env.engine.core.rules import (
    MODULES,
    check_game_pack,
    game_pack,
    offered_magicians,
    ruleset,
    switch_defaults,
)
from bbom_env.engine.core.state import GameState, PlayerState
from bbom_env.engine.model.constants import (
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_NAMES,
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
    magicians = draw_magicians(config, pack, rng)  # step 6 (draw_magicians, below)
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
        state.curse_piles[t] = pile = list(lists.curses[t])
        rng.shuffle(pile)
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
    for pl in state.players:
        if config.fear:
            pl.deck.append(state.madness_pile.pop())
        state.rng.shuffle(pl.deck)


def _grimoire_and_library(state: GameState) -> None:
    """Steps 7-8: the Grimoire (a Cover, ROUNDS - 1 random Inside pages, the End page) and the
    Library (one random Spell per Element and level, level 1 on top)."""
    lists, rng = _LISTS(state.pack), state.rng
    state.grimoire = [rng.choice(lists.covers), *rng.sample(lists.insides, ROUNDS - 1), *lists.end]
    for e in range(NUM_ELEMENTS):
        state.library.append(
            [rng.choice(lists.library[(e, level)]) for level in range(LIBRARY_LEVELS, 0, -1)]
        )


def draw_magicians(config: GameConfig, pack: Pack, rng: random.Random) -> list[str]:
    """Step 6: ``config.magicians`` checked (each offered in this game, their decks dealable), or
    ``config.num_players`` Magicians drawn with ``rng``."""
    offered = offered_magicians(config, pack)
    if config.magicians != "random":
        for i, mid in enumerate(config.magicians):
            if mid not in offered:
                why = _why_not_offered(config, pack, mid)
                raise ConfigError(f"GameConfig.magicians[{i}]={mid!r} is {why}; allowed: {offered}")
        short = shortage(pack, config.magicians, config.nightmare)
        if short:
            raise ConfigError(f"GameConfig.magicians={list(config.magicians)}: {short}")
        return list(config.magicians)
    n = config.num_players
    first = rng.sample(offered, n)
    if not shortage(pack, first, config.nightmare):
        return first
    # The rare draw whose decks cannot be dealt: a set drawn uniformly among those that can, seated in
    # a random order (the same law as drawing again until a draw can be dealt, in a bounded time).
    fits = [c for c in combinations(offered, n) if not shortage(pack, c, config.nightmare)]
    if not fits:
        why = shortage(pack, first, config.nightmare)
        raise ConfigError(
            f"GameConfig.magicians='random': no {n} of the Magicians {offered} have starting decks that "
            f"can be dealt (the first drawn: {why})"
        )
    return rng.sample(rng.choice(fits), n)


def shortage(pack: Pack, magicians: tuple[str, ...] | list[str], nightmare: bool) -> str:
    """What the starting decks of ``magicians`` need beyond the Element cards that exist ("" when
    they can be dealt): Nightmare turns each value-2 card into a value-1 card (A-39)."""
    need = [[0, 0, 0, 0] for _ in range(NUM_ELEMENTS)]  # [Element][value]
    for mid in magicians:
        for code in pack.magicians[mid].starting_deck:
            v = code_value(code)
            need[code_element(code)][1 if v == 2 and nightmare else v] += 1
    for e in range(NUM_ELEMENTS):
        for v in (1, 2, 3):
            if need[e][v] > ELEMENT_CARDS_PER_VALUE[v]:
                mode = " in Nightmare mode (A-39: a value-1 card for each value-2 one)" if nightmare else ""
                return (
                    f"their starting decks need {need[e][v]} value-{v} {ELEMENT_NAMES[e]} cards{mode}; "
                    f"{ELEMENT_CARDS_PER_VALUE[v]} exist"
                )
    return ""


def _why_not_offered(config: GameConfig, pack: Pack, mid: str) -> str:
    """Why a Magician id is not in this game's Magician choice, naming the setting to change."""
    magician = pack.magicians.get(mid)
    if magician is None:
        owner = _module_of(config, mid)
        if owner:
            return (
                f"a Magician of module {owner!r}, which this game does not play "
                f"(GameConfig.modules={config.modules}: add {owner!r})"
            )
        return f"not a Magician of pack {pack.id!r}"
    # The settings that bring it into the choice: a module switch back to its default (V-18), a
    # module the game lacks (V-19), or both.
    moved = dict(config.switches)  # the switches off their defaults
    reset = {name: switch_defaults()[name] for name in moved}
    tries = [({name: reset[name]}, "") for name in moved]
    others = [m for m in sorted(MODULES) if m != "base" and m not in config.modules]
    tries += [({"modules": (*config.modules, m)}, m) for m in others]
    tries += [({**reset, "modules": (*config.modules, m)}, m) for m in others if reset]
    for change, added in tries:
        try:
            wider = config.replace(**change)
            if mid not in offered_magicians(wider, game_pack(wider) if added else pack):
                continue
        except (ConfigError, ValueError, OSError):  # that setting cannot make this game: not the reason
            continue
        why = [f"left out by GameConfig.{k}={moved[k]!r}" for k in change if k in moved]
        if added:
            why.append(f"offered only with module {added!r} too (GameConfig.modules={config.modules})")
        return f"a Magician of module {magician.module!r} " + ", and ".join(why)
    return f"a Magician of module {magician.module!r} that it leaves out of this game's Magician choice"


def _module_of(config: GameConfig, mid: str) -> str:
    """The registered module whose cards hold the Magician ``mid`` ("" for none)."""
    for name in sorted(MODULES):
        if name == "base" or name in config.modules:
            continue
        try:
            other = GameConfig(pack=config.pack, pack_overrides=config.pack_overrides, modules=(name,))
            if mid in game_pack(other).magicians:
                return name
        except (ConfigError, ValueError, OSError):  # its cards do not load with this pack: not it
            continue
    return ""
