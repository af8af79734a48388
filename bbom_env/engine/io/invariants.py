"""Engine invariants: facts that hold at every decision of every game (design decision 10).

``check_invariants(state)`` raises AssertionError naming the broken fact. The property tests run it
after every decision of random games; it is also a debugging aid (call it after a suspicious move).
It reads the state only and never changes it.

What is checked:

* card conservation: every Element card of each Element and value (18 / 10 / 6, docs/rules.md section
  1.1) and the 35 Madness cards are in exactly one zone: a player's deck, hand, discard pile or
  support; the value-2/3 supply or the value-1 reserve (A-41); the Madness pile; under a Curse
  (Sorcerer, A-43); destroyed; or the box (unused Madness, eliminated players, section 5.4);
* no count is negative (zones, supply, reserve, token pool, tokens on Curses);
* Curses are conserved: the piles (the "out" pile of A-08 included) and the track hold each Curse
  of the pack exactly once;
* the 16 Element tokens (4 per Element, section 1.1) are in the pool or on Curses;
* Spells: each Library Spell dealt at setup is in exactly one place (Library pile, a player's row,
  the box); each player holds each Basic Spell at most once, and each Basic Spell exists once per
  player (rows + box);
* the decision: a game that is not over has a decider with a non-empty, sorted, duplicate-free
  list of legal moves inside the layout; a finished game has none;
* ranges: round, marker, phase, Curse stack depth, Spell row length, eliminated players' empty
  zones, the Active Player alive while the game runs.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from bbom_env.engine.core.moves import num_moves
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.constants import (
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_CODES,
    ELEMENT_TOKENS_PER_ELEMENT,
    IDENTITY_MADNESS_BASE,
    LAST_SPACE,
    LIBRARY_LEVELS,
    MADNESS,
    MADNESS_IN_BOX,
    MAX_SPELLS,
    MAX_STACK,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_TRACK_SLOTS,
    ROUNDS,
    code_name,
    code_value,
)
from bbom_env.engine.model.records import NO_CARD

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

# Library Spells dealt at setup: one per Element and level (setup step 8).
LIBRARY_SPELLS_DEALT = NUM_ELEMENTS * LIBRARY_LEVELS


def expected_totals() -> dict[int, int]:
    """The fixed number of copies of every card code in a base game (section 1.1)."""
    out = {c: ELEMENT_CARDS_PER_VALUE[code_value(c)] for c in range(NUM_ELEMENT_CODES)}
    return {c: out.get(c, 0) for c in range(NUM_CODES)} | {MADNESS: MADNESS_IN_BOX}


def card_totals(state: GameState) -> dict[int, int]:
    """Copies of every card code over every zone of the game (see the module docstring)."""
    tot = [0] * NUM_CODES
    for pl in state.players:
        for c in pl.deck:
            tot[c] += 1
        for sup in pl.support:
            tot[sup.card] += 1
            if sup.crushed != NO_CARD:
                tot[sup.crushed] += 1
        for c in range(NUM_CODES):
            tot[c] += pl.hand[c] + pl.discard[c]
    for e in range(NUM_ELEMENTS):
        value1, value2, value3 = ELEMENT_CODES[e]
        tot[value1] += state.reserve1[e]
        tot[value2] += state.supply[e][0]
        tot[value3] += state.supply[e][1]
    for c in state.madness_pile:
        tot[c] += 1
    for slot in state.track:
        for curse in slot:
            tot[MADNESS] += curse.madness
    for c in range(NUM_CODES):
        tot[c] += state.destroyed[c] + state.box[c]
    return dict(enumerate(tot))


def _fail(state: GameState, msg: str) -> AssertionError:
    return AssertionError(
        f"invariant broken: {msg} (turn {state.turn}, round {state.round}, "
        f"after {len(state.history)} decisions, seed {state.config.seed})"
    )


def _check_counts(state: GameState) -> None:
    zones = ("hand", "discard")
    named = [(f"players[{i}].{k}", getattr(pl, k)) for i, pl in enumerate(state.players) for k in zones]
    named += [(k, getattr(state, k)) for k in ("destroyed", "box", "reserve1", "tokens")]
    named += [(f"supply[{e}]", s) for e, s in enumerate(state.supply)]
    for name, vec in named:
        for i, v in enumerate(vec):
            if v < 0:
                raise _fail(state, f"{name}[{i}] = {v} is negative")
    for s, slot in enumerate(state.track):
        for curse in slot:
            if min(curse.tokens) < 0 or curse.madness < 0:
                raise _fail(state, f"Curse {curse.curse} on slot {s} has negative tokens/Madness: {curse}")


def _check_cards(state: GameState) -> None:
    got = card_totals(state)
    want = expected_totals()
    for c in range(NUM_CODES):
        if got[c] != want[c] and not _module_counted(state, c):
            raise _fail(state, f"{want[c]} copies of {code_name(c)} exist, the zones hold {got[c]}")


def _module_counted(state: GameState, code: int) -> bool:
    """A card code a module of this game adds (``rules.Module.card_codes``: Dark Matter) is
    conserved by that module's own invariant: its supply is in the module's state."""
    return code in state.rules.card_codes[len(ruleset(()).card_codes) :]


def _check_curses(state: GameState) -> None:
    seen = Counter(cid for pile in state.curse_piles.values() for cid in pile)
    seen.update(curse.curse for slot in state.track for curse in slot)
    want = Counter(list(state.pack.curses))
    if seen != want:
        extra = sorted((seen - want).elements())
        missing = sorted((want - seen).elements())
        raise _fail(state, f"Curses not conserved: duplicated/unknown {extra}, missing {missing}")
    rules = state.rules.curse_rules
    for s, slot in enumerate(state.track):
        if len(slot) > MAX_STACK:
            raise _fail(state, f"track slot {s} stacks {len(slot)} Curses (max {MAX_STACK})")
        for curse in slot[1:]:  # V-09: only a type that stacks lies on another Curse (a Dark Curse)
            rule = rules.get(state.pack.curses[curse.curse].type)
            if rule is None or not rule.stacks:
                raise _fail(state, f"track slot {s}: Curse {curse.curse} is stacked, yet does not stack")


def crushed_fault(card: int, crushed: int) -> str:
    """Why ``crushed`` cannot lie crushed under ``card`` in a support slot ("" when it can, or when
    it is NO_CARD: nothing crushed). Only a Madness card that keeps its identity (a module's: the
    Phobias) crushes the card it is placed on, and never another one (section 9.2, V-21, V-19): a
    base game, which has none, has no crushed card."""
    if crushed != NO_CARD and card < IDENTITY_MADNESS_BASE:
        why = "which is no Madness card that keeps its identity (only one crushes, section 9.2)"
        return f"{code_name(crushed)} lies crushed under {code_name(card)}, {why}"
    if crushed != NO_CARD and crushed >= IDENTITY_MADNESS_BASE:
        return f"{code_name(crushed)} is a Madness card that keeps its identity, never crushed (V-21, V-19)"
    return ""


def _check_crushed(state: GameState) -> None:
    for i, pl in enumerate(state.players):
        for j, slot in enumerate(pl.support):
            if why := crushed_fault(slot.card, slot.crushed):
                raise _fail(state, f"players[{i}].support[{j}]: {why}")


def _check_tokens(state: GameState) -> None:
    for e in range(NUM_ELEMENTS):
        n = state.tokens[e] + sum(curse.tokens[e] for slot in state.track for curse in slot)
        if n != ELEMENT_TOKENS_PER_ELEMENT:
            raise _fail(
                state, f"{n} Element tokens of Element {e} exist (expected {ELEMENT_TOKENS_PER_ELEMENT})"
            )


def _check_spells(state: GameState) -> None:
    spells = state.pack.spells
    library = Counter(sid for pile in state.library for sid in pile)
    basic: Counter[str] = Counter()
    for i, pl in enumerate(state.players):
        if len(pl.spells) > MAX_SPELLS:
            raise _fail(state, f"player {i} holds {len(pl.spells)} Spells (layout max {MAX_SPELLS})")
        row = [sp.spell for sp in pl.spells]
        if len(set(row)) != len(row):
            raise _fail(state, f"player {i} holds a Spell twice: {row}")
        for sp in pl.spells:
            (basic if spells[sp.spell].basic else library)[sp.spell] += 1
            if sp.neutralized not in ("", "until_next_monster", "this_turn"):
                raise _fail(state, f"player {i} Spell {sp.spell} has neutralized duration {sp.neutralized!r}")
    for sid in state.box_spells:
        (basic if spells[sid].basic else library)[sid] += 1
    twice = sorted(sid for sid, n in library.items() if n > 1)
    if twice:
        raise _fail(state, f"Library Spell(s) {twice} appear twice")
    if sum(library.values()) != LIBRARY_SPELLS_DEALT:
        raise _fail(state, f"{sum(library.values())} Library Spells in play (dealt {LIBRARY_SPELLS_DEALT})")
    n = len(state.players)
    for s in state.pack.basic_spells:
        if basic[s.id] != n:
            raise _fail(state, f"Basic Spell {s.id} exists {basic[s.id]} times (once per player: {n})")


def _check_decision(state: GameState) -> None:
    legal = state.legal_actions()
    who = state.current_player()
    if state.over:
        if legal or who != -1 or state.outcome not in ("win", "loss"):
            raise _fail(state, f"finished game has decider {who}, legal {legal}, outcome {state.outcome!r}")
        return
    if not legal:
        raise _fail(state, f"the game is not over but decider {who} has no legal move")
    if not 0 <= who < len(state.players) or state.players[who].eliminated:
        raise _fail(state, f"decider {who} is not a seat of a player in the game")
    if legal != sorted(set(legal)):
        raise _fail(state, f"legal moves not sorted and unique: {legal}")
    size = num_moves(state.config.modules)
    if legal[0] < 0 or legal[-1] >= size:
        raise _fail(state, f"legal moves outside the layout 0..{size - 1}: {legal}")


def _check_ranges(state: GameState) -> None:
    if not 0 <= state.round <= ROUNDS or not 0 <= state.marker <= LAST_SPACE:
        raise _fail(state, f"round {state.round} / marker {state.marker} out of range")
    if len(state.track) != NUM_TRACK_SLOTS or len(state.grimoire) != ROUNDS + 1:
        raise _fail(state, f"track has {len(state.track)} slots, Grimoire {len(state.grimoire)} pages")
    for i, pl in enumerate(state.players):
        if pl.eliminated and (pl.deck or pl.support or pl.spells or any(pl.hand) or any(pl.discard)):
            raise _fail(state, f"eliminated player {i} still holds cards or Spells")
    # Base game: a player is eliminated only at the end of their own Recuperation (section 5.4
    # cause 1), so the Active Player is alive at every decision; [PH] A-73 will relax this.
    if not state.over and not state.config.modules and state.players[state.active].eliminated:
        raise _fail(state, f"the Active Player {state.active} is eliminated")


def check_invariants(state: GameState) -> None:
    """Raise AssertionError with a message naming the broken invariant; return None otherwise."""
    _check_counts(state)
    _check_cards(state)
    _check_curses(state)
    _check_crushed(state)
    _check_tokens(state)
    _check_spells(state)
    _check_ranges(state)
    _check_decision(state)
    for check in state.rules.invariants:  # the modules' own (rules.Module)
        check(state)
