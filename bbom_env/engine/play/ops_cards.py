"""Effect ops on players' cards without a board target (docs/rules.md sections 5.2, 5.3, 7, 4.12):
draw, discard from the deck top, cure by effect, receive Madness, gain a card, grant Actions,
temporary modifiers, reshuffle, exchange (A-37) and "may" (DP-E15). The op framework and the
hand/discard/support pickers are in ``ops.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, push
from bbom_env.engine.model.constants import (
    ELEMENT_NAMES,
    IDENTITY_MADNESS_BASE,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    element_code,
    is_madness,
)
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.play import flow
from bbom_env.engine.play.ops import OPS, _support_options, _support_room, _take, auto_op, choice_op
from bbom_env.engine.play.zones import arrived, draw, put, receive_madness, return_madness, seq

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


# Players' cards without choices -------------------------------------------------------------


auto_op("draw", lambda s, f, op: draw(s, f["player"], f["count"]))


auto_op("discard_deck_top", lambda s, f, op: draw(s, f["player"], f["count"], "discard"))


def _cure(state: GameState, f: dict, op: dict) -> None:
    """Cure by effect: identical Madness cards, so no choice (section 7, A-67)."""
    pl = state.players[f["player"]]
    n = f["count"]
    zone = op["from"]
    if zone == "hand":
        n = _cure_counts(state, pl.hand, n)
    if zone == "support":
        for s in range(len(pl.support) - 1, -1, -1):
            if n and is_madness(pl.support[s].card):
                return_madness(state, pl.take_support(s))
                n -= 1
    if zone in ("discard", "discard_and_deck"):
        n = _cure_counts(state, pl.discard, n)
    if zone in ("deck", "discard_and_deck"):
        keep = []
        for c in pl.deck:
            if n and is_madness(c):
                return_madness(state, c)
                n -= 1
            else:
                keep.append(c)
        pl.deck = keep


def _cure_counts(state: GameState, counts: list[int], n: int) -> int:
    """Return up to n Madness cards of a zone kept as counts by card code (hand, discard pile);
    how many are still to cure."""
    for c in range(NUM_ELEMENT_CODES, NUM_CODES):
        while n and counts[c] and is_madness(c):
            counts[c] -= 1
            return_madness(state, c)
            n -= 1
    return n


def _run_cure(state: GameState, f: dict, op: dict) -> None:
    if state.config.modules and not state.players[f["player"]].eliminated and _cure_options(state, f, op):
        f["decider"] = f["player"]  # V-28: the owner chooses which Madness card
        return
    done(state, f)
    if not state.players[f["player"]].eliminated:
        _cure(state, f, op)


def _cure_options(state: GameState, f: dict, op: dict) -> list[int]:
    """V-28: with Madness cards that keep their identity (Phobias), the owner of the zone chooses
    which Madness card(s) a cure by effect takes, one pick at a time, while the choice matters:
    the zone holds Madness cards of two or more codes and the cure takes fewer than all of them
    ("all" needs no choice). Moves: ``PICK_HAND`` / ``PICK_DISCARD`` + card code, ``PICK_SUPPORT``
    + slot (crushed cards are never cured: V-40), and for the deck ``PICK_DISCARD`` + card code
    (a plain Madness taken from the discard pile first, as without a choice). Empty when the
    choice does not matter: the cure then takes the cards without asking (section 7, A-67)."""
    pl = state.players[f["player"]]
    zone, n = op["from"], f["count"]
    if n <= 0:
        return []
    if zone == "support":
        slots = [s for s, slot in enumerate(pl.support) if is_madness(slot.card) and s < MAX_SUPPORT_SLOTS]
        codes = {pl.support[s].card for s in slots}
        if len(codes) < 2 or n >= len(slots):
            return []
        return [M.PICK_SUPPORT + M.support_arg(0, s) for s in slots]
    counts = [0] * NUM_CODES if zone == "deck" else list(pl.hand if zone == "hand" else pl.discard)
    if zone in ("deck", "discard_and_deck"):
        for c in pl.deck:
            counts[c] += 1
    held = [c for c in range(NUM_ELEMENT_CODES, NUM_CODES) if counts[c] and is_madness(c)]
    if len(held) < 2 or n >= sum(counts[c] for c in held):
        return []
    base = M.PICK_HAND if zone == "hand" else M.PICK_DISCARD
    return [base + c for c in held]


def _answer_cure(state: GameState, f: dict, op: dict, move: int) -> None:
    pl = state.players[f["player"]]
    f["count"] -= 1
    code = move - M.PICK_DISCARD
    if op["from"] == "deck" or (op["from"] == "discard_and_deck" and not pl.discard[code]):
        pl.deck.remove(code)
    else:
        code = _take(state, f, move)
    return_madness(state, code)


OPS["cure"] = (_run_cure, _cure_options, _answer_cure)


def _run_receive(state: GameState, f: dict, op: dict) -> None:
    """Receive Madness one card at a time, so that the frames a card pushes in a game with modules
    (a Phobia's placement, V-21, V-22: its crush choice) resolve before the next card (this frame
    runs again after them). The bagpipe's "replace" into a full support (a Monster ruling, Madness
    by Madness: a free slot takes it; a full support discards one of its cards, and the Madness
    takes its place; no card the Madness could replace (none, or only Phobias, which stay: V-26):
    A-26) asks which card to discard only for a plain Madness: a Phobia on top of the face-up pile
    is placed by the placement procedure instead (V-21: a free slot, else the owner crushes the
    card of their choice, which stays under it, else the owner is eliminated), so the chosen card
    is crushed, not discarded."""
    p = f["player"]
    pl = state.players[p]
    replace = op["to"] == "support" and op["full_support"] == "replace"
    while f["count"] > 0 and not pl.eliminated:
        pile = state.madness_pile
        plain = not pile or pile[-1] < IDENTITY_MADNESS_BASE  # not a card that keeps its identity
        if replace and plain and not _support_room(state, p) and _support_options(state, f, op):
            f["decider"] = p
            return
        f["count"] -= 1
        depth = len(state.stack)
        if not receive_madness(state, p, op["to"]):
            return  # the pile ran out: the game is lost (section 6)
        if len(state.stack) > depth:
            return  # a placement waits: it runs first, then this frame again
    done(state, f)


def _answer_receive(state: GameState, f: dict, op: dict, move: int) -> None:
    state.players[f["player"]].discard[_take(state, f, move)] += 1
    f["count"] -= 1
    receive_madness(state, f["player"], "support")


OPS["receive_madness"] = (_run_receive, _support_options, _answer_receive)  # (it has no filter)


def _gain_options(state: GameState, f: dict, op: dict) -> list[int]:
    v = op["value"]
    return [M.PICK_ELEMENT + e for e in range(NUM_ELEMENTS) if _gain_available(state, e, v)]


def _gain_available(state: GameState, e: int, v: int) -> bool:
    return state.reserve1[e] > 0 if v == 1 else state.supply[e][v - 2] > 0


def _gain_one(state: GameState, p: int, e: int, v: int, to: str) -> None:
    if not _gain_available(state, e, v):
        return  # an empty pile gives nothing
    if v == 1:
        state.reserve1[e] -= 1
    else:
        state.supply[e][v - 2] -= 1
    code = element_code(e, v)
    put(state.players[p], code, to)
    state.event("gain", p, code)


def _gain(state: GameState, f: dict, op: dict) -> None:
    if op["element"] == "spell":
        src = state.pack.spells.get(f["source"])
        e = src.element if src else state.pack.magicians[state.players[f["controller"]].magician].element
    else:
        e = ELEMENT_NAMES.index(op["element"])
    for _ in range(f["count"]):
        _gain_one(state, f["player"], e, op["value"], op["to"])


choice_op(
    "gain",
    _gain_options,
    lambda s, f, op, m: _gain_one(s, f["player"], m - M.PICK_ELEMENT, op["value"], op["to"]),
    auto=(lambda op: op["element"] != "choose", _gain),
)


def _grant(state: GameState, f: dict, op: dict) -> None:
    """Section 4.12: the player takes up to n Actions now; they may stop early ([FAQ])."""
    if f["count"] > 0:
        push(state, {"kind": "menu", "player": f["player"], "grants": f["count"], "decider": None})
        state.event("grant", f["player"], f["count"])


auto_op("grant_actions", _grant)


def _modifier(state: GameState, f: dict, op: dict) -> None:
    state.players[f["player"]].mods.append(TempModifier(op["mod"], op["duration"], f["source"]))
    if op["mod"]["kind"] == "lose_ability":  # V-10, V-27: the Magician's raised limits drop at once
        flow.react(state, f["player"])


auto_op("modifier", _modifier)


def _reshuffle(state: GameState, f: dict, op: dict) -> None:
    """Shuffle the discard pile into the deck; never gives a Madness (section 7 "Shuffle")."""
    pl = state.players[f["player"]]
    cards = pl.deck + [c for c in range(NUM_CODES) for _ in range(pl.discard[c])]
    pl.discard = [0] * NUM_CODES
    state.rng.shuffle(cards)
    pl.deck = cards


auto_op("reshuffle", _reshuffle)


# Exchange: the controller gives a card to the target, then the target gives one back.


def _exchange_giver(f: dict) -> int:
    return f["controller"] if f["stage"] == 0 else f["player"]


def _run_exchange(state: GameState, f: dict, op: dict) -> None:
    while True:
        if f["count"] <= 0 or f["player"] == f["controller"] or state.players[f["player"]].eliminated:
            done(state, f)
            return
        giver = _exchange_giver(f)
        if any(state.players[giver].hand):
            f["decider"] = giver
            return
        _next_exchange_stage(f)


def _next_exchange_stage(f: dict) -> None:
    f["stage"] += 1
    if f["stage"] == 2:
        f["stage"] = 0
        f["count"] -= 1


def _legal_exchange(state: GameState, f: dict, op: dict) -> list[int]:
    hand = state.players[_exchange_giver(f)].hand
    return [M.PICK_HAND + c for c in range(NUM_CODES) if hand[c]]


def _answer_exchange(state: GameState, f: dict, op: dict, move: int) -> None:
    giver = _exchange_giver(f)
    taker = f["player"] if giver == f["controller"] else f["controller"]
    code = move - M.PICK_HAND
    state.players[giver].hand[code] -= 1
    state.players[taker].hand[code] += 1
    _next_exchange_stage(f)
    if state.config.modules:  # V-22: an exchange gives the card directly into the hand
        arrived(state, taker, code, "hand")


OPS["exchange"] = (_run_exchange, _legal_exchange, _answer_exchange)


# "may": the affected player chooses; the nested ops run with them as controller (DP-E15).


def _run_may(state: GameState, f: dict, op: dict) -> None:
    f["decider"] = f["player"]


def _answer_may(state: GameState, f: dict, op: dict, move: int) -> None:
    done(state, f)
    if move == M.ACCEPT:
        push(state, seq(f["source"], f["part"], f["player"], f["x"], f["path"]))


OPS["may"] = (_run_may, lambda state, f, op: [M.ACCEPT, M.DECLINE], _answer_may)
