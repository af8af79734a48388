"""Determinization: a state drawn from one seat's information set (OpenSpiel's
``State.resample_from_infostate``), for search (PIMC, IS-MCTS) and for tests of what a seat sees.

``resample(state, seat, rng)`` returns a new state in which everything ``seat`` observes is exactly
as it is and everything hidden from ``seat`` is drawn uniformly among the arrangements consistent
with what the seat has seen. docs/search.md tables the hidden parts (A-66: the observation never
reads them) and how each is drawn: every deck's order; the other players' hands (unless
``observe_other_hands``), less the picks of a payment in progress; the Library piles below their
tops; the never-seen Curses' places in their piles (A-08); the Grimoire's face-down pages (A-40);
the Madness pile below its face-up top (A-66, A-67); module parts (``register_hidden``). It also
says which events reveal what, and what the sampler does not know (a card put on top of a deck, a
card known to be in another hand, inferences from past choices).

The new state's RNG is reseeded from ``rng`` and the log entries of hidden setup draws are
rewritten to the drawn values. It is a pure function of (what ``seat`` knows, ``rng``); its
``config.seed`` and ``history`` are the real game's: a sample is not replayable. A pending decision
of another seat constrains their hand: samples where the decider has no legal move are drawn again
(rejection keeps the draw uniform over the consistent arrangements).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import NUM_CODES, ROUNDS
from bbom_env.engine.model.records import HandSource

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

__all__ = ["Resampler", "register_hidden", "resample"]

# Tries before giving up on a sample whose pending decider has no legal move (a waiting choice
# reveals that the decider holds a card it can pick; rejection keeps the draw uniform).
MAX_TRIES = 1000

# module name -> function(real state, seat, new state, rng) that redraws that module's hidden parts
# of ``new`` (a clone of the real state); it must read only what ``seat`` knows.
HiddenPart = Callable[["GameState", int, "GameState", random.Random], None]
_HIDDEN: dict[str, HiddenPart] = {}


# Events (name, _, Curse id, ...) that show a Curse to everyone: the base's placement and the
# modules' own (``register_hidden``: a Curse a module adds to the track).
_CURSE_SHOWN = {"curse_placed"}


def register_hidden(module: str, fn: HiddenPart, curse_events: tuple[str, ...] = ()) -> None:
    """Register a rules module's hidden parts (called where the module is registered), and the
    names of its events that show a Curse (its id third, as ``curse_placed``)."""
    _HIDDEN[module] = fn
    _CURSE_SHOWN.update(curse_events)


def resample(
    state: GameState, seat: int, rng: random.Random | int, observe_other_hands: bool = False
) -> GameState:
    """A state drawn uniformly from ``seat``'s information set (see the module docstring).

    ``rng``: a ``random.Random`` (advanced) or an int seed. ``observe_other_hands``: the A-66 option
    of the observation (other hands are then public, only the decks' order is drawn)."""
    return Resampler(state, seat, observe_other_hands).sample(rng)


class Resampler:
    """What ``seat`` knows of ``state``, computed once; ``sample(rng)`` draws a state from it (a
    search draws many worlds at one decision)."""

    def __init__(self, state: GameState, seat: int, observe_other_hands: bool = False) -> None:
        n = len(state.players)
        if not 0 <= seat < n:
            raise ValueError(f"resample: seat {seat} is not a seat of this {n}-player game")
        self.state = state
        self.seat = seat
        self.observe_other_hands = observe_other_hands
        # Hand cards of another seat that the state shows: the picks of a payment in progress.
        shown: dict[int, list[int]] = {}
        for f in state.stack:
            if f.get("kind") == "pay" and f.get("player") != seat:
                for src in f.get("picks", ()):
                    if type(src) is HandSource:
                        shown.setdefault(f["player"], []).append(src.code)
        # Per player: (hand cards to keep, pool to deal from: sorted, hand size to deal).
        self.deals: list[tuple[list[int], list[int], int] | None] = []
        for p, pl in enumerate(state.players):
            if pl.eliminated:
                self.deals.append(None)
            elif p == seat or observe_other_hands:
                self.deals.append(([], sorted(pl.deck), 0))  # the order only
            else:
                pool = list(pl.hand)
                for c in pl.deck:
                    pool[c] += 1
                keep = sorted(shown.get(p, []))
                for c in keep:
                    pool[c] -= 1
                cards = [c for c in range(NUM_CODES) for _ in range(pool[c])]  # sorted
                self.deals.append((keep, cards, sum(pl.hand) - len(keep)))
        self.library = self._library()
        self.curse_piles = self._curse_piles()
        self.grimoire = self._grimoire()
        # The Madness pile: cards cured under it sit at the bottom where they went; the rest
        # below the face-up top are shuffled (a base game's pile is all plain Madness: no change).
        pile = state.madness_pile
        hidden = max(0, len(pile) - state.stats.get("madness_cured", 0))
        self.madness_lo = len(pile) - hidden
        self.madness_hidden = sorted(pile[self.madness_lo : len(pile) - 1])

    # -- what the seat knows -------------------------------------------------------------------

    def _library(self) -> list[list[list[str]]]:
        """Per Library pile, per hidden position (below the top): the candidates, sorted."""
        state = self.state
        spells = state.pack.spells
        seen = {sid for pile in state.library for sid in pile[-1:]}
        for pl in state.players:
            seen.update(s.spell for s in pl.spells)
        seen.update(state.box_spells)
        return [
            [
                sorted(s.id for s in state.pack.library(e, spells[sid].level) if s.id not in seen)
                for sid in pile[:-1]
            ]
            for e, pile in enumerate(state.library)
        ]

    def _curse_piles(self) -> dict[str, tuple[list[int], list[str]]]:
        """Per Curse pile: (positions of the never-seen Curses, those Curses sorted). A Curse seen
        on the track that went back under its pile (A-08) stays where it went."""
        seen = {e[3] for e in self.state.log if e[1] in _CURSE_SHOWN}
        out = {}
        for t, pile in self.state.curse_piles.items():
            if t == "out":
                continue
            pos = [i for i, cid in enumerate(pile) if cid not in seen]
            out[t] = (pos, sorted(pile[i] for i in pos))
        return out

    def _grimoire(self) -> tuple[list[int], dict[str, tuple[int, list[str]]]]:
        """(face-down positions, per module: (how many of them, candidate pages sorted)). The
        Cover (the book's front) and the End page are always visible; round r shows pages up to r
        (section 3.3; the observation's ``grimoire.*``)."""
        state = self.state
        g = state.grimoire
        first_hidden = max(1, state.round + 1)
        pos = list(range(first_hidden, min(ROUNDS, len(g))))
        seen = set(g[:first_hidden]) | set(g[ROUNDS:])
        pages = state.pack.pages
        need = Counter(pages[g[i]].module for i in pos)
        unseen = sorted(pid for pid, pg in pages.items() if pg.kind == "inside" and pid not in seen)
        by_module = {m: (k, [p for p in unseen if pages[p].module == m]) for m, k in sorted(need.items())}
        return pos, by_module

    # -- drawing -------------------------------------------------------------------------------

    def sample(self, rng: random.Random | int) -> GameState:
        """One state of the information set; ``rng`` is advanced (an int seeds a new one)."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        for _ in range(MAX_TRIES):
            new = self._draw(rng)
            if new.over or not new.stack or new.stack[-1].get("decider") is None or new.legal_actions():
                return new
        raise RuntimeError(
            f"resample: no arrangement in {MAX_TRIES} draws gives seat {new.current_player()} a legal move "
            "for its pending decision"
        )

    def _draw(self, rng: random.Random) -> GameState:
        state = self.state
        new = state.clone()
        new.legal_cache = None
        for p, deal in enumerate(self.deals):
            if deal is None:
                continue
            keep, pool, h = deal
            cards = list(pool)
            rng.shuffle(cards)
            pl = new.players[p]
            if p == self.seat or self.observe_other_hands:
                pl.deck = cards
                continue
            hand = [0] * NUM_CODES
            for c in keep + cards[:h]:
                hand[c] += 1
            pl.hand = hand
            pl.deck = cards[h:]
        for e, row in enumerate(self.library):
            pile = new.library[e]
            for i, candidates in enumerate(row):
                pile[i] = candidates[rng.randrange(len(candidates))] if candidates else pile[i]
        for t, (pos, cards_) in self.curse_piles.items():
            drawn = list(cards_)
            rng.shuffle(drawn)
            pile = new.curse_piles[t]
            for i, cid in zip(pos, drawn, strict=True):
                pile[i] = cid
        self._draw_grimoire(new, rng)
        if len(self.madness_hidden) > 1:
            drawn_m = list(self.madness_hidden)
            rng.shuffle(drawn_m)
            new.madness_pile[self.madness_lo : len(new.madness_pile) - 1] = drawn_m
        for m in state.config.modules:
            if m in _HIDDEN:
                _HIDDEN[m](state, self.seat, new, rng)
        new.rng = random.Random(rng.getrandbits(64))
        return new

    def _draw_grimoire(self, new: GameState, rng: random.Random) -> None:
        pos, by_module = self.grimoire
        if not pos:
            return
        pages: list[str] = []
        for k, candidates in by_module.values():
            pages += rng.sample(candidates, k)
        rng.shuffle(pages)
        g = new.grimoire
        for i, pid in zip(pos, pages, strict=True):
            g[i] = pid
        # The setup entry recorded the real pages: (turn, "setup", Magicians, Grimoire). A module
        # that logs the Grimoire too rewrites its own entry (its ``register_hidden`` sampler runs
        # after this draw).
        pages_now = tuple(g)
        rewrite_log(new, ("setup",), lambda e: e[:-1] + (pages_now,))


def rewrite_log(state: GameState, kinds: tuple[str, ...], fix: Callable[[tuple], tuple]) -> None:
    """Rewrite the log entries of ``kinds`` in a sample (its log is a copy of the real state's
    list: ``clone`` copies each list one level deep; the entries are immutable tuples). They are
    setup entries, near the start of the log: the scan stops at the first turn's entry."""
    log = state.log
    for i, e in enumerate(log):
        if e[1] in kinds:
            log[i] = fix(e)
        elif e[1] == "turn":
            return
