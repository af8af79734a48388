"""Moving a Phobia: the Dark Matter module's new Water Magician, with the Phobia module too
(V-19; docs/rules.md 4.11, 9.2; the sample sheet of [VthRB]): "During your turn, you spend 1 Dark
Matter to move 1 Phobia from a support slot to any other support slot."

The sheet (``bbom_env/data/vth_dark_matter.toml``) carries a modifier of kind ``move_phobia``
(declared by the Dark Matter module, whose card it is, so that a Dark-Matter-only pack loads; the
Dark Matter module offers this Magician only in a game with both modules). This module reads it:

* the Action ``MOVE_PHOBIA`` (a menu Action of its own, one id): the owner's own Action phase
  only (not a granted Action), once per turn (the Magician's ability, ``ability_used``, A-35), not
  while the ability is lost (V-10, V-27), with a Phobia in some support and 1 Dark Matter card to
  pay with (hand or any support pool: ``payment.Cost(currency=1)``, the engine's payment frame);
* then the owner picks the Phobia (``phobia_move_from``: ``PICK_SUPPORT`` by seat offset and
  slot, any player's support) and where it goes (``phobia_move_to``: ``PICK_SUPPORT``; a slot
  holding a card crushes that card, never a Phobia; the slot just past a support's cards is that
  support's free slot, offered while it has one). V-19: onto a non-Phobia card even when free
  slots exist.
* The move is not a placement (V-19): no elimination check. The crushed card under the moved
  Phobia is freed in place (A-74, ``PlayerState.take_support``). The Phobia's text changes owner
  at once: its constraint now binds the new owner (the module's modifier source reads supports),
  and a Phobia that takes an ability away shrinks the new owner's limits (V-27:
  ``flow.react`` for both players).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import (
    PICK_SUPPORT,
    BlockSpec,
    Cost,
    Decision,
    MenuAction,
    Move,
    PackIndex,
    block_start,
    decode,
    done,
    frame,
    pay_frame,
    push,
    react,
    support_arg,
    support_capacity,
)
from bbom_env.engine.model.constants import MAX_SUPPORT_SLOTS
from bbom_env.engine.model.frames import Decider, Frame, Seat, Slot
from bbom_env.engine.model.move_args import NO_ARG
from bbom_env.engine.model.records import NO_CARD, SupportSlot

from .state import PHOBIA_BASE

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack, SeatView

KIND = "move_phobia"  # the modifier kind on the Magician's sheet (the Dark Matter module declares it)
ACTION = "move_phobia"  # the payment's Action name (rules.Module.pay_actions)
BLOCK = "MOVE_PHOBIA"
FROM, TO = "phobia_move_from", "phobia_move_to"  # frame kinds and decision kinds
COST = Cost(currency=1)  # V-19: 1 Dark Matter card, from the hand or a support pool


class MoveFromFrame(Frame):
    """``player`` has paid: they pick the Phobia to move (any player's support)."""

    player: Seat
    decider: Decider


class MoveToFrame(Frame):
    """``player`` moves the Phobia of ``seat``'s support slot ``slot``: they pick where it goes."""

    player: Seat
    seat: Seat
    slot: Slot
    decider: Decider


def has_move(state: GameState, p: int) -> bool:
    """Whether player p's Magician sheet has the ability (a ``move_phobia`` modifier): the
    Magician in a per-pack set (``legal_move`` reads the same set inline)."""
    return state.players[p].magician in _MOVERS(state.pack)


def _mover_ids(pack: Pack) -> frozenset[str]:
    """Ids of the pack's Magicians whose sheet has a ``move_phobia`` modifier (once per pack)."""
    return frozenset(mid for mid, m in pack.magicians.items() if any(x["kind"] == KIND for x in m.mods))


_MOVERS: PackIndex[frozenset[str]] = PackIndex(_mover_ids)


def _sources(state: GameState, p: int) -> list[int]:
    """``PICK_SUPPORT`` ids (seat offset from p, slot) of every Phobia in a living player's support."""
    n = len(state.players)
    out = []
    for off in range(n):
        q = state.players[(p + off) % n]
        if q.eliminated:
            continue
        out += [
            PICK_SUPPORT + support_arg(off, s)
            for s, slot in enumerate(q.support)
            if slot.card >= PHOBIA_BASE and s < MAX_SUPPORT_SLOTS
        ]
    return out


def _destinations(state: GameState, f: MoveToFrame) -> list[int]:
    """V-19: a non-Phobia card of any living player's support (crushed), or a support's free slot
    (the slot just past its cards); never a Phobia, never the Phobia's own slot. A free slot of the
    Phobia's own support is offered only when the Phobia crushes a card (moving it frees that card;
    otherwise the move would change nothing)."""
    p, a, s = f["player"], f["seat"], f["slot"]
    n = len(state.players)
    lifted = state.players[a].support[s].crushed != NO_CARD
    out = []
    for off in range(n):
        b = (p + off) % n
        q = state.players[b]
        if q.eliminated:
            continue
        for t, slot in enumerate(q.support):
            if slot.card < PHOBIA_BASE and t < MAX_SUPPORT_SLOTS and (b, t) != (a, s):
                out.append(PICK_SUPPORT + support_arg(off, t))
        free = len(q.support) < support_capacity(state, b) and len(q.support) < MAX_SUPPORT_SLOTS
        if free and (b != a or lifted):
            out.append(PICK_SUPPORT + support_arg(off, len(q.support)))
    return sorted(set(out))


# -- the menu Action ---------------------------------------------------------------------------------


def legal_move(state: GameState, view: SeatView) -> list[int]:
    """The Action's one id: the owner's own Action phase (4.11, A-35: not a granted Action), once
    per turn, the ability not lost, a Phobia to move and 1 Dark Matter to pay with."""
    p = view.p
    if view.frame["grants"] >= 0 or p != state.active:
        return []
    if state.players[p].magician not in _MOVERS(state.pack):
        return []
    if state.players[p].ability_used or view.currency < 1 or not _any_movable(state):
        return []
    if view.ability_lost:  # ability_lost, the query's modifiers read first
        return []
    return [block_start(BLOCK, state.config.modules)]


def _any_movable(state: GameState) -> bool:
    """``bool(_movable(state, p))`` without building the lists: a Phobia of a living player's
    support (``_sources``) with somewhere to go (``_destinations``, V-19): a non-Phobia card of a
    living support (never the Phobia's own slot), else a free slot of another living support, or
    of its own when it crushes a card."""
    phobias = []
    crushable = False
    for q in state.players:
        if q.eliminated:
            continue
        for t, slot in enumerate(q.support):
            if t >= MAX_SUPPORT_SLOTS:
                break
            if slot.card >= PHOBIA_BASE:
                phobias.append((q, slot))
            else:
                crushable = True
    if not phobias:
        return False
    if crushable:
        return True
    for a, slot in phobias:
        lifted = slot.crushed != NO_CARD
        for b, q in enumerate(state.players):
            if q.eliminated or (q is a and not lifted):
                continue
            if len(q.support) < MAX_SUPPORT_SLOTS and len(q.support) < support_capacity(state, b):
                return True
    return False


def _to_frame(state: GameState, p: int, move: int) -> MoveToFrame:
    ref = decode(move, state.config.modules).args
    seat = (p + ref.offset) % len(state.players)
    return {"kind": TO, "player": p, "seat": seat, "slot": ref.slot, "decider": None}


def _movable(state: GameState, p: int) -> list[int]:
    """The Phobias (``PICK_SUPPORT`` ids) that have somewhere to go."""
    return [m for m in _sources(state, p) if _destinations(state, _to_frame(state, p, m))]


def choose_move(state: GameState, f: dict, mv: Move) -> None:
    p = f["player"]
    pick: MoveFromFrame = {"kind": FROM, "player": p, "decider": None}
    push(state, pay_frame(p, COST, ACTION, ""), pick)


# -- the frames --------------------------------------------------------------------------------------


def run_from(state: GameState, f: MoveFromFrame) -> None:
    """Paid (a cancelled payment drops this frame: the ability stays unused this turn)."""
    p = f["player"]
    state.players[p].ability_used = True  # once per turn (4.11)
    if state.players[p].eliminated or not _movable(state, p):
        done(state, f)  # nothing to move any more (the payment cannot take the last target)
        return
    f["decider"] = p


def legal_from(state: GameState, f: MoveFromFrame) -> list[int]:
    return _movable(state, f["player"])


def answer_from(state: GameState, f: MoveFromFrame, move: int) -> None:
    done(state, f)
    push(state, _to_frame(state, f["player"], move))


def run_to(state: GameState, f: MoveToFrame) -> None:
    f["decider"] = f["player"]


def legal_to(state: GameState, f: MoveToFrame) -> list[int]:
    return _destinations(state, f)


def answer_to(state: GameState, f: MoveToFrame, move: int) -> None:
    done(state, f)
    p, a, s = f["player"], f["seat"], f["slot"]
    ref = decode(move, state.config.modules).args
    b, t = (p + ref.offset) % len(state.players), ref.slot
    src, dst = state.players[a], state.players[b]
    crushing = t < len(dst.support)
    if b == a and src.support[s].crushed == NO_CARD and crushing and t > s:
        t -= 1  # the Phobia's slot closes up below the target card
    code = src.take_support(s)  # a card it crushed is freed in place
    if crushing:
        dst.support[t] = SupportSlot(code, crushed=dst.support[t].card)
        state.stat("cards_crushed")
    else:
        dst.support.append(SupportSlot(code))
    state.stat("phobias_moved")
    state.event("phobia_moved", p, code, a, b)
    # V-19, V-27: the text changes owner at once; a shrunk limit reacts (new owner first).
    for q in dict.fromkeys((b, a)):
        react(state, q)


def describe(state: GameState, f: dict) -> Decision:
    kind = FROM if f["kind"] == FROM else TO
    return Decision(kind, f["player"], state.players[f["player"]].magician, 1, (0,) * 5, ())


frame(FROM, run_from, legal_from, answer_from, typed=MoveFromFrame)
frame(TO, run_to, legal_to, answer_to, typed=MoveToFrame)

BLOCKS: tuple[BlockSpec, ...] = (BlockSpec(BLOCK, NO_ARG, "move a Phobia for 1 Dark Matter (V-19)"),)
ACTIONS: tuple[MenuAction, ...] = (MenuAction(ACTION, (BLOCK,), legal_move, choose_move),)
FRAMES: tuple[str, ...] = (FROM, TO)
DECISION_KINDS: tuple[str, ...] = (FROM, TO)
DECISIONS = ((FROM, describe), (TO, describe))
PAY_ACTIONS: tuple[str, ...] = (ACTION,)
