"""Scenario builder for rule tests (in the spirit of fireplace's ``prepare_game()`` / ``give()``).

A ``Scenario`` starts from ``new_game(GameConfig(pack="test", ...))`` (the engine fixture pack,
every card of which is reconstructed, not game content), then sets zones directly. Every setter
keeps the engine invariant that each card is in exactly one zone: cards leaving a zone go back to
their "bank" (value-1 cards to the value-1 reserve, value-2/3 to the supply, Madness to the box)
and cards entering a zone come from the box first, then from the reserve / supply / Madness pile.
Curses and Library Spells are moved between their piles, the track, players' rows and the box in
the same way. ``check()`` runs ``bbom_env.engine.io.invariants.check_invariants``.

Cards are named as ``move_to_string`` names them: ``"fire-1"`` .. ``"air-3"``, ``"madness"``.
Decks are listed top first (the first card listed is drawn first).

Typical use::

    sc = Scenario().hand(0, "fire-1", "fire-1").action_phase(0)
    sc.do("ACQUIRE(fire-2)")
    assert sc.p(0).discard[code("fire-2")] == 1
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from bbom_env.engine import Decision, GameConfig, GameState, describe, move_to_string, new_game, pending
from bbom_env.engine.core.moves import NUM_BASE_MOVES, layout, num_moves
from bbom_env.engine.core.resolver import run
from bbom_env.engine.core.state import PlayerState
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.scenario import resolve_effect, start_action_phase
from bbom_env.engine.model.constants import MADNESS, NUM_CODES, NUM_ELEMENT_CODES, code_name
from bbom_env.engine.model.records import CurseOnTrack, SpellSlot, SupportSlot

CODE_BY_NAME: dict[str, int] = {code_name(c): c for c in range(NUM_ELEMENT_CODES)} | {"madness": MADNESS}
MOVE_BY_NAME: dict[str, int] = {move_to_string(m): m for m in range(NUM_BASE_MOVES)}
ELEMENT_INDEX = {"fire": 0, "water": 1, "earth": 2, "air": 3}
# Magicians with few side effects first: the Fire Magician's activated ability keeps the Action
# menu from ever holding END alone (which skip_forced_decisions would play automatically).
DEFAULT_MAGICIANS = ("test_mag_fire", "test_mag_earth", "test_mag_air", "test_mag_water", "test_mag_mixed")


def code(name: str | int) -> int:
    """Card code of ``"fire-2"`` / ``"madness"`` (ints pass through)."""
    if isinstance(name, int):
        return name
    try:
        return CODE_BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown card name {name!r}; known: {sorted(CODE_BY_NAME)}") from None


def move_names(modules: tuple[str, ...] = ()) -> dict[str, int]:
    """Move id by ``move_to_string`` name in the layout of a module set (the base's ids first)."""
    if not modules:
        return MOVE_BY_NAME
    return _names(modules, layout(modules))  # a module registered again gets a new layout object


@cache
def _names(modules: tuple[str, ...], _layout: object) -> dict[str, int]:
    return {move_to_string(m, modules): m for m in range(num_moves(modules))}


def move(name: str | int, modules: tuple[str, ...] = ()) -> int:
    """Move id of a ``move_to_string`` name, e.g. ``"ACQUIRE(fire-2)"``, in the layout of
    ``modules`` (a game's ``config.modules``: a module's blocks come after the base's)."""
    if isinstance(name, int):
        return name
    try:
        return move_names(modules)[name]
    except KeyError:
        where = f" in the layout of modules {modules}" if modules else ""
        raise ValueError(f"unknown move name {name!r}{where}") from None


def counts(*cards: str | int) -> list[int]:
    """A count vector (as hands and discard piles are stored) of the named cards."""
    out = [0] * NUM_CODES
    for c in cards:
        out[code(c)] += 1
    return out


def names(vec: list[int]) -> list[str]:
    """Sorted card names of a count vector (for readable assertions)."""
    return [code_name(c) for c in range(NUM_CODES) for _ in range(vec[c])]


class Scenario:
    """A game of the test pack whose zones a test sets directly (see the module docstring)."""

    def __init__(
        self,
        num_players: int = 2,
        magicians: tuple[str, ...] | None = None,
        seed: int = 0,
        clear: bool = True,
        **config: Any,
    ) -> None:
        mags = magicians or DEFAULT_MAGICIANS[:num_players]
        cfg = GameConfig(pack="test", num_players=num_players, magicians=tuple(mags), seed=seed, **config)
        self.state: GameState = new_game(cfg)
        self._log0 = 0
        if clear:
            self.clear()

    # -- access ----------------------------------------------------------------------------------

    @property
    def s(self) -> GameState:
        return self.state

    def p(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    def legal_names(self) -> list[str]:
        return [move_to_string(m, self.state.config.modules) for m in self.state.legal_actions()]

    def pending(self) -> Decision:
        return pending(self.state)

    def describe(self) -> str:
        return describe(self.state)

    def spell_move(self, seat: int, sid: str, x: int = 1) -> str:
        """The ACTIVATE move name of a held Spell with power X."""
        return f"ACTIVATE(spell#{self.p(seat).spell_index(sid)} X={x})"

    def clone(self) -> GameState:
        return self.state.clone()

    def check(self) -> Scenario:
        check_invariants(self.state)
        return self

    def mark(self) -> Scenario:
        """Start a new event window for ``events`` (``clear`` sets one)."""
        self._log0 = len(self.state.log)
        return self

    def events(self, kind: str) -> list[tuple]:
        """Logged events of one kind since the last ``mark``, without the turn and kind fields."""
        return [e[2:] for e in self.state.log[self._log0 :] if e[1] == kind]

    # -- card banks --------------------------------------------------------------------------------

    def _bank_out(self, c: int) -> None:
        """Take one card of code c from the box, else its reserve / supply / the Madness pile."""
        s = self.state
        if s.box[c] > 0:
            s.box[c] -= 1
            return
        if c == MADNESS:
            if not s.madness_pile:
                raise ValueError("no Madness card left in the box or the Madness pile")
            s.madness_pile.pop()
            return
        e, v = divmod(c, 3)
        if v == 0:
            if s.reserve1[e] <= 0:
                raise ValueError(f"no {code_name(c)} left in the value-1 reserve")
            s.reserve1[e] -= 1
        else:
            if s.supply[e][v - 1] <= 0:
                raise ValueError(f"no {code_name(c)} left in the supply")
            s.supply[e][v - 1] -= 1

    def _bank_in(self, c: int) -> None:
        s = self.state
        if c == MADNESS or c >= NUM_ELEMENT_CODES:
            s.box[c] += 1
            return
        e, v = divmod(c, 3)
        if v == 0:
            s.reserve1[e] += 1
        else:
            s.supply[e][v - 1] += 1

    def _touch(self) -> Scenario:
        self.state.legal_cache = None
        return self

    # -- player zones ------------------------------------------------------------------------------

    def hand(self, seat: int, *cards: str | int) -> Scenario:
        pl = self.p(seat)
        for c in range(NUM_CODES):
            for _ in range(pl.hand[c]):
                self._bank_in(c)
        pl.hand = [0] * NUM_CODES
        for c in cards:
            self._bank_out(code(c))
            pl.hand[code(c)] += 1
        return self._touch()

    def discard(self, seat: int, *cards: str | int) -> Scenario:
        pl = self.p(seat)
        for c in range(NUM_CODES):
            for _ in range(pl.discard[c]):
                self._bank_in(c)
        pl.discard = [0] * NUM_CODES
        for c in cards:
            self._bank_out(code(c))
            pl.discard[code(c)] += 1
        return self._touch()

    def deck(self, seat: int, *cards: str | int) -> Scenario:
        """The deck, top card first."""
        pl = self.p(seat)
        for c in pl.deck:
            self._bank_in(c)
        pl.deck = []
        for c in reversed(cards):
            self._bank_out(code(c))
            pl.deck.append(code(c))
        return self._touch()

    def support(self, seat: int, *cards: str | int) -> Scenario:
        pl = self.p(seat)
        for slot in pl.support:
            self._bank_in(slot.card)
        pl.support = []
        for c in cards:
            self._bank_out(code(c))
            pl.support.append(SupportSlot(code(c)))
        return self._touch()

    def madness_pile(self, n: int) -> Scenario:
        """Move Madness cards between the pile and the box so the pile holds n."""
        s = self.state
        while len(s.madness_pile) > n:
            s.madness_pile.pop()
            s.box[MADNESS] += 1
        while len(s.madness_pile) < n:
            if s.box[MADNESS] <= 0:
                raise ValueError(f"not enough Madness cards in the box for a pile of {n}")
            s.box[MADNESS] -= 1
            s.madness_pile.append(MADNESS)
        return self._touch()

    def supply(self, element: str, value: int, n: int) -> Scenario:
        """Set a value-2/3 supply pile to n cards (the difference goes to / comes from the box)."""
        s = self.state
        e = ELEMENT_INDEX[element]
        c = e * 3 + value - 1
        diff = n - s.supply[e][value - 2]
        if diff > s.box[c]:
            raise ValueError(f"only {s.box[c]} {code_name(c)} in the box to refill the supply")
        s.supply[e][value - 2] = n
        s.box[c] -= diff
        return self._touch()

    # -- Spells ------------------------------------------------------------------------------------

    def _pull_spell(self, sid: str) -> None:
        s = self.state
        for pile in s.library:
            if sid in pile:
                pile.remove(sid)
                return
        for pl in s.players:
            i = pl.spell_index(sid)
            if i >= 0 and not s.pack.spells[sid].basic:
                pl.spells.pop(i)
                return
        if sid in s.box_spells:
            s.box_spells.remove(sid)
            return
        raise ValueError(f"Spell {sid!r} is nowhere to take it from")

    def spells(self, seat: int, *ids: str, exhausted: tuple[str, ...] = ()) -> Scenario:
        """Replace a player's Spell row (ready, face up unless listed in ``exhausted``)."""
        pl = self.p(seat)
        self.state.box_spells += [sp.spell for sp in pl.spells]
        pl.spells = []
        for sid in ids:
            self._pull_spell(sid)
            pl.spells.append(SpellSlot(sid, sid in exhausted))
        return self._touch()

    def spell_state(
        self, seat: int, sid: str, exhausted: bool | None = None, neutralized: str | None = None
    ) -> Scenario:
        """Set a held Spell's exhausted flag and/or neutralized duration ("" = face up)."""
        spells = self.p(seat).spells
        i = self.p(seat).spell_index(sid)
        if exhausted is not None:
            spells[i] = spells[i]._replace(exhausted=exhausted)
        if neutralized is not None:
            spells[i] = spells[i]._replace(neutralized=neutralized)
        return self._touch()

    def library(self, element: str, *ids: str) -> Scenario:
        """Set a Library pile, top first (its old Spells go to the box)."""
        pile = self.state.library[ELEMENT_INDEX[element]]
        self.state.box_spells += pile
        pile.clear()
        for sid in ids:
            self._pull_spell(sid)
        pile.extend(reversed(ids))
        return self._touch()

    # -- board -------------------------------------------------------------------------------------

    def clear_track(self) -> Scenario:
        s = self.state
        for slot in s.track:
            while slot:
                curse = slot.pop()
                for e in range(4):
                    s.tokens[e] += curse.tokens[e]
                s.madness_pile[:0] = [MADNESS] * curse.madness
                s.curse_piles[s.pack.curses[curse.curse].type].insert(0, curse.curse)
        return self._touch()

    def curse(
        self,
        slot: int,
        cid: str,
        neutralized: bool | int = False,
        tokens: tuple[int, int, int, int] = (0, 0, 0, 0),
        under: int = 0,
    ) -> Scenario:
        """Put Curse ``cid`` (taken from its pile) on top of track slot 0..4 (S2, S3L, S3R, S4, S5).
        ``neutralized=True`` marks it neutralized on the current turn; ``under`` Madness cards come
        from the Madness pile (Sorcerer, A-43); tokens come from the pool."""
        s = self.state
        pile = s.curse_piles[s.pack.curses[cid].type]
        if cid not in pile:
            raise ValueError(f"Curse {cid!r} is not in its pile (already on the track?)")
        pile.remove(cid)
        for e in range(4):
            if s.tokens[e] < tokens[e]:
                raise ValueError("not enough Element tokens in the pool")
            s.tokens[e] -= tokens[e]
        for _ in range(under):
            s.madness_pile.pop()
        turn = s.turn if neutralized is True else (-1 if neutralized is False else int(neutralized))
        s.track[slot].append(CurseOnTrack(cid, turn, tuple(tokens), under))
        return self._touch()

    def curse_pile_top(self, ctype: str, *ids: str) -> Scenario:
        """Put these Curses on top of their pile, the first listed on top (drawn first)."""
        pile = self.state.curse_piles[ctype]
        for cid in reversed(ids):
            pile.remove(cid)
            pile.append(cid)
        return self._touch()

    def grimoire(self, *pages: str) -> Scenario:
        """Set the Grimoire's page order: cover, five inside pages, end page (ids)."""
        assert len(pages) == 7, "a Grimoire has 7 pages: cover, 5 inside pages, end"
        self.state.grimoire = list(pages)
        return self._touch()

    def at(
        self,
        round: int | None = None,
        marker: int | None = None,
        active: int | None = None,
        turn: int | None = None,
    ) -> Scenario:
        s = self.state
        if round is not None:
            s.round = round
        if marker is not None:
            s.marker = marker
        if active is not None:
            s.active = active
        if turn is not None:
            s.turn = turn
        return self._touch()

    def clear(self) -> Scenario:
        """Empty every player's zones, the track and temporary modifiers; the Madness pile back to
        its setup size; everyone holds the 4 Basic Spells, ready. The Action phase of the Active
        Player is pending (``action_phase``)."""
        s = self.state
        basics = [sp.id for sp in sorted(s.pack.basic_spells, key=lambda sp: sp.element)]
        for i, pl in enumerate(s.players):
            self.hand(i).discard(i).deck(i).support(i)
            pl.mods = []
            pl.ability_used = False
            self.spells(i, *basics)
        self.clear_track()
        self.madness_pile(5 * len(s.players) + 10)
        return self.mark().action_phase(s.active)

    # -- flow --------------------------------------------------------------------------------------

    def action_phase(self, seat: int) -> Scenario:
        """Make it ``seat``'s turn, in the Action phase with the Action menu pending (the
        Concentration and Monster phases are skipped)."""
        start_action_phase(self.state, seat)
        return self

    def begin_turn(self, seat: int) -> Scenario:
        """Start ``seat``'s turn from its Concentration phase and run until the first decision
        (normally the Action menu, after the Monster phase)."""
        s = self.state
        n = len(s.players)
        prev = (seat - 1) % n
        while s.players[prev].eliminated and prev != seat:
            prev = (prev - 1) % n
        s.active = prev
        s.stack = []
        s.turn = max(s.turn, 1)
        self._touch()
        run(s)
        return self

    def do(self, *moves: str | int) -> Scenario:
        """Apply moves by name (``"ACQUIRE(fire-2)"``) or id; an illegal one raises
        IllegalActionError."""
        for m in moves:
            self.state.apply_action(move(m, self.state.config.modules))
        return self

    def end_turn(self) -> Scenario:
        return self.do("END")

    def effect(self, src: str, part: str = "effect", controller: int | None = None, x: int = 1) -> Scenario:
        """Resolve card ``src``'s effect ``part`` (effect / arrival / bonus / failure / activated)
        for a controller with power X, on top of whatever is pending, until the next decision."""
        resolve_effect(self.state, src, part, -1 if controller is None else controller, x)
        return self


def random_decisions(config: GameConfig, play_seed: int) -> Iterator[GameState]:
    """Each decision of one game of uniform random legal moves (drawn by ``Random(play_seed)``),
    the live state: a test that keeps one clones it; one that changes it puts back what it changed
    before the game goes on."""
    state = new_game(config)
    moves = random.Random(play_seed)
    while not state.over:
        yield state
        legal = state.legal_actions()
        state.apply_action(legal[moves.randrange(len(legal))])
