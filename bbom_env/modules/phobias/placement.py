"""Placing Phobias in a support (docs/rules.md 9.2, 10.8; V-21 to V-24; A-52 to A-55).

When: after the Recuperation draw (5.1: every Phobia in the hand, then the elimination check,
V-35), whenever a Phobia arrives directly in a hand by an effect (V-22: "into your hand", an
exchange; not a draw, A-54) or in a support (V-21), and in Fear mode right after the opening
draw (V-23, in ``module.setup_pile``). ``place_phobia``, per Phobia:

1. a free slot (fewer cards in the support than its capacity) takes it;
2. else the owner crushes one of their support cards that is not a Phobia (DP-34, A-55: the
   ``phobia_crush`` decision, a ``PICK_SUPPORT`` move of the owner's own support): the card stays
   under the Phobia, unavailable, until the Phobia leaves (A-74, ``PlayerState.take_support``);
3. else (every card there is a Phobia) the owner is eliminated (A-52; with
   ``GameConfig.phobia_elimination="literal_second_phobia"``, already when the support holds a
   Phobia).

A Phobia waiting for its owner's crush choice stays in their hand (one decision, nothing runs
in between). Several Phobias at once (DP-35, V-24) are placed one at a time in card-code order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import (
    PICK_SUPPORT,
    Decision,
    PackIndex,
    decode,
    done,
    eliminate,
    frame,
    hand_size,
    madness_in_hand,
    push,
    react,
    support_arg,
    support_capacity,
)
from bbom_env.engine.model.constants import MAX_SUPPORT_SLOTS, NUM_CODES
from bbom_env.engine.model.frames import Decider, Frame, MadnessCode, Seat
from bbom_env.engine.model.records import SupportSlot

from . import constraints
from .state import PHOBIA_BASE

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack

PLACE = "phobia_place"
RECUP_END = "phobia_recup_end"
CRUSH = "phobia_crush"  # the decision kind (DP-34)
DECISION_KINDS: tuple[str, ...] = (CRUSH,)


class PlaceFrame(Frame):
    """Place Phobia ``code`` from ``player``'s hand in their support (section 9.2)."""

    player: Seat
    code: MadnessCode
    decider: Decider


class RecupEndFrame(Frame):
    """The end of ``player``'s Recuperation after the Phobias are placed: the elimination check
    with the hand limit then in force (section 5.1, V-35)."""

    player: Seat


def _eliminated_by_rule(state: GameState, p: int) -> bool:
    """A-52's switch: read literally, a support that already holds a Phobia eliminates."""
    return state.config.switch("phobia_elimination") == "literal_second_phobia" and any(
        s.card >= PHOBIA_BASE for s in state.players[p].support
    )


def crushable(state: GameState, p: int) -> list[int]:
    """The support slots whose card a Phobia may crush: not a Phobia (A-55; a slot with a crushed
    card has a Phobia on top), within the layout's slots."""
    support = state.players[p].support
    return [s for s, slot in enumerate(support) if slot.card < PHOBIA_BASE and s < MAX_SUPPORT_SLOTS]


def place_if_free(state: GameState, p: int, code: int) -> bool:
    """Step 1 at once, with no decision: the Phobia (in p's hand) takes a free slot. False when
    there is none, or when A-52's literal switch eliminates."""
    pl = state.players[p]
    if _eliminated_by_rule(state, p) or len(pl.support) >= support_capacity(state, p):
        return False
    pl.hand[code] -= 1
    pl.support.append(SupportSlot(code))
    state.event("phobia_placed", p, code)
    _placed(state, p, code)
    return True


def _placed(state: GameState, p: int, code: int) -> None:
    """A Phobia now lies in p's support and constrains them (section 9.2): one that takes the
    Magician ability away shrinks a raised limit at once (V-27, A-75: the ``limits`` reaction, run
    next: the blue Magician discards non-Phobia support cards down to her printed slots, the green
    Magician boxes a Spell)."""
    if code in _LOSERS(state.pack):
        react(state, p)


def _losers(pack: Pack) -> frozenset[int]:
    return frozenset(c for c in range(PHOBIA_BASE, NUM_CODES) if _loses(pack, c))


def _loses(pack: Pack, code: int) -> bool:
    rows = constraints.constraint_table(pack).rows
    i = code - PHOBIA_BASE
    return i < len(rows) and any(m["kind"] == "lose_ability" for m in rows[i])


# The Phobia codes whose constraint takes the Magician ability away (V-27): a per-pack fact.
_LOSERS: PackIndex[frozenset[int]] = PackIndex(_losers)


def place_phobia(state: GameState, p: int, code: int) -> None:
    """Place Phobia ``code``, which is in p's hand: at once in a free slot, else a frame for the
    crush choice or the elimination (pushed on top: it runs next)."""
    if not place_if_free(state, p, code):
        frame_: PlaceFrame = {"kind": PLACE, "player": p, "code": code, "decider": None}
        push(state, frame_)


def run_place(state: GameState, f: PlaceFrame) -> None:
    p, code = f["player"], f["code"]
    pl = state.players[p]
    if pl.eliminated or not pl.hand[code]:
        done(state, f)  # the owner is out, or the Phobia is no longer in the hand
        return
    if place_if_free(state, p, code):
        done(state, f)
        return
    if crushable(state, p) and not _eliminated_by_rule(state, p):
        f["decider"] = p  # DP-34
        return
    done(state, f)
    state.stat("phobia_eliminations")
    eliminate(state, p)  # no slot can take it


def legal_place(state: GameState, f: PlaceFrame) -> list[int]:
    return [PICK_SUPPORT + support_arg(0, s) for s in crushable(state, f["player"])]


def answer_place(state: GameState, f: PlaceFrame, move: int) -> None:
    p, code = f["player"], f["code"]
    pl = state.players[p]
    slot = decode(move, state.config.modules).args.slot
    pl.hand[code] -= 1
    pl.support[slot] = SupportSlot(code, crushed=pl.support[slot].card)  # crushed until it leaves
    state.stat("cards_crushed")
    state.event("phobia_crushes", p, code, slot)
    done(state, f)
    _placed(state, p, code)


def describe_place(state: GameState, f: dict) -> Decision:
    return Decision(CRUSH, f["player"], "", 1, (0,) * 5, ())


def run_recup_end(state: GameState, f: RecupEndFrame) -> None:
    done(state, f)
    if _over_limit(state, f["player"]):
        eliminate(state, f["player"])  # section 5.1, V-35: the limit in force now


def _over_limit(state: GameState, p: int) -> bool:
    """Section 5.1, V-35: p (not out) holds as many Madness cards as the hand size in force now.
    The hand size is at least 1 (``hooks.hand_size``), so a hand without Madness is not read."""
    mad = madness_in_hand(state, p)
    return mad > 0 and not state.players[p].eliminated and mad >= hand_size(state, p)


frame(PLACE, run_place, legal_place, answer_place, typed=PlaceFrame)
frame(RECUP_END, run_recup_end, typed=RecupEndFrame)
FRAMES: tuple[str, ...] = (PLACE, RECUP_END)


# -- the engine's seams (rules.Module) ----------------------------------------------------------------


def recup_drawn(state: GameState, p: int) -> bool:
    """Section 5.1, 9.2: after the Recuperation draw, every Phobia of the hand goes to the support
    (DP-35: in card-code order), then the elimination check (V-35). No Phobia: the engine checks."""
    pl = state.players[p]
    hand = pl.hand
    if hand[PHOBIA_BASE:NUM_CODES] == _NO_PHOBIA:  # no Phobia drawn (most Recuperations)
        return False  # (a list compared in C: cheaper than any() of the slice)
    codes = [c for c in range(PHOBIA_BASE, NUM_CODES) if hand[c]]
    # What their frames (run_place, run_recup_end) would do, done at once while each Phobia takes
    # a free slot with nothing pushed (nothing runs in between: the same steps, no frame made).
    stack = state.stack
    for i, code in enumerate(codes):
        depth = len(stack)
        if not place_if_free(state, p, code):
            _push_rest(state, p, codes[i:])  # the crush choice (DP-34) or the elimination
            return True
        if len(stack) > depth:
            # The placement's limits reaction (V-27) runs first, then the rest: their frames go
            # under it, where run_place's frame left them.
            above = stack[depth:]
            del stack[depth:]
            _push_rest(state, p, codes[i + 1 :])
            stack += above
            return True
    if _over_limit(state, p):
        eliminate(state, p)  # run_recup_end's check (section 5.1, V-35)
    return True


_NO_PHOBIA = [0] * (NUM_CODES - PHOBIA_BASE)  # a hand's Phobia counts when it holds none (never changed)


def _push_rest(state: GameState, p: int, codes: list[int]) -> None:
    """The frames of the Phobias ``codes`` still to place (card-code order, DP-35), then the end
    of the Recuperation."""
    end: RecupEndFrame = {"kind": RECUP_END, "player": p}
    frames: list[PlaceFrame] = [{"kind": PLACE, "player": p, "code": c, "decider": None} for c in codes]
    push(state, *frames, end)


def madness_arrived(state: GameState, p: int, code: int, zone: str) -> None:
    """V-21, V-22: a Phobia received directly into a hand or a support is placed at once. One that
    the engine put in the support (``receive_madness``: its last slot, A-26 for plain Madness) is
    placed by the Phobia rule instead: it stays if a slot was free, else it goes through the hand."""
    if code < PHOBIA_BASE or state.players[p].eliminated:
        return
    pl = state.players[p]
    if zone == "support":
        last = len(pl.support) - 1
        if last < support_capacity(state, p) and not _eliminated_by_rule(state, p):
            state.event("phobia_placed", p, code)
            _placed(state, p, code)
            return  # a free slot took it (step 1)
        pl.support.pop(last)  # the card receive_madness appended
        pl.hand[code] += 1
    place_phobia(state, p, code)
