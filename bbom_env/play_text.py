"""Text for people, derived from the engine, behind ``python -m bbom_env.play``: each move by name
with what it points at (``move_label``), the pending decision in words (``decision_text``,
``source_text``), what a move set off (``event_lines``, from the state's event log), the board
(``board_text``) and card look-up (``find_cards``). The input loop is in ``play_session``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from bbom_env.engine import GameState, decode, move_to_string, pending
from bbom_env.engine.actions.base import cure_req, curse_req, spell_req
from bbom_env.engine.core.moves import Move
from bbom_env.engine.model.constants import ELEMENT_NAMES, code_name
from bbom_env.engine.modifiers.hooks import adjust_cost
from bbom_env.engine.payment.cost import left_text

if TYPE_CHECKING:
    from .play_session import Seat

MARKS_LEGEND = "marks: * reconstructed card (not the real one), ~ partly known (card NAME says which part)"

# A sentence per decision kind, where the kind's name alone does not say what to do.
KIND_HINTS = {
    "action": "choose an Action, or END to end your Action phase",
    "granted_action": "take a granted Action, or END to stop",
    "payment": "pick the cards to pay with, then PAY_CONFIRM (PAY_CANCEL: back to the Actions)",
    "recuperation_discard": "discard down to your hand size (Madness cannot be discarded)",
    "spell_to_box": "you are at your Spell limit: choose a Spell to put back in the box",
    "destroy_reward": "Curse destroyed: take a value-2 Element card as a reward (or DECLINE)",
    "choose_player": "choose the player the effect applies to",
    "may": "use the optional effect (ACCEPT) or not (DECLINE)",
}


def card_label(state: GameState, card_id: str) -> str:
    """A card's name, marked ``*`` when reconstructed and ``~`` when partial (only partly the real
    card): never passed off as the real card."""
    return state.pack.marked_name(card_id)  # card ids are unique across the pack's tables


_REQ_PARTS = ELEMENT_NAMES + ("any",)  # a requirement: 4 Elements, then "any" (section 4.0)


def _cost_text(req: tuple[int, ...]) -> str:
    if len(req) > len(_REQ_PARTS):  # a module's cost parts (payment.Cost): Dark Matter, V-17
        return left_text((), req)
    return ", ".join(f"{n} {_REQ_PARTS[e]}" for e, n in enumerate(req) if n) or "nothing"


class _At(NamedTuple):
    """Who a gloss is read for: the decider ``p`` of ``n`` players, and ``owner``, whose card an
    effect picks (the effect's player when the frame names one)."""

    p: int
    n: int
    owner: int
    detail: bool


def _gloss(state: GameState, move: int, detail: bool) -> str:
    """What a move's arguments point at now (the spell, Curse, player or card), for people:
    ``ACTIVATE(spell#1 X=1)`` says which slot, this says "Ice". With ``detail``, add the cost and
    the card text (for the list of choices). Empty when there is nothing to add."""
    mv = decode(move, state.config.modules)  # a module's move ids follow the base game's
    p = state.current_player()
    frame = state.stack[-1] if state.stack else {}
    owner = frame["player"] if isinstance(frame.get("player"), int) else p
    gloss = _GLOSSES.get(mv.block)
    return gloss(state, mv, _At(p, len(state.players), owner, detail)) if gloss is not None else ""


def _activate(state: GameState, mv: Move, at: _At) -> str:
    sid = state.players[at.p].spells[mv.args.spell].spell
    if not at.detail:
        return card_label(state, sid)
    req = spell_req(state, at.p, sid, mv.args.x)
    return f"{card_label(state, sid)}, pay {_cost_text(req)}: {state.pack.spells[sid].text}"


def _learn(state: GameState, mv: Move, at: _At) -> str:
    e = mv.args.element
    sid = state.library[e][-1]
    if not at.detail:
        return card_label(state, sid)
    sp = state.pack.spells[sid]
    base = [0] * len(_REQ_PARTS)
    base[e] = sp.learning_cost
    req = adjust_cost(state, at.p, "learn", e, tuple(base))
    return f"{card_label(state, sid)}, pay {_cost_text(req)}: {sp.text}"


def _curse(state: GameState, mv: Move, at: _At) -> str:
    stack = state.track[mv.args.slot]
    curse = stack[len(stack) - 1 - mv.args.pos]
    text = card_label(state, curse.curse)
    if at.detail and mv.block == "DESTROY_CURSE":
        text += f", pay {_cost_text(curse_req(state, at.p, curse))}"
    if at.detail:
        text += f": {state.pack.curses[curse.curse].text}"
    return text


def _cure(state: GameState, mv: Move, at: _At) -> str:
    if not at.detail:
        return _support_card(state, mv, at) if mv.block == "CURE_SUPPORT" else ""
    cure = f"pay {_cost_text(adjust_cost(state, at.p, 'cure', None, cure_req(state)))}"
    return cure if mv.block == "CURE_HAND" else f"{_support_card(state, mv, at)}, {cure}"


def _support_card(state: GameState, mv: Move, at: _At) -> str:
    q = (at.p + mv.args.offset) % at.n
    return f"{code_name(state.players[q].support[mv.args.slot].card)} in P{q}'s support"


def _pick_support(state: GameState, mv: Move, at: _At) -> str:
    return f"{code_name(state.players[at.owner].support[mv.args.slot].card)} in P{at.owner}'s support"


def _pick_spell(state: GameState, mv: Move, at: _At) -> str:
    return f"P{at.owner}'s {card_label(state, state.players[at.owner].spells[mv.args.spell].spell)}"


def _pick_player(state: GameState, mv: Move, at: _At) -> str:
    q = (at.p + mv.args.offset) % at.n
    return f"P{q}" + (" (yourself)" if q == at.p and at.detail else "")


def _ability(state: GameState, mv: Move, at: _At) -> str:
    mag = state.players[at.p].magician
    return card_label(state, mag) + (f": {state.pack.magicians[mag].ability_text}" if at.detail else "")


def _acquire(state: GameState, mv: Move, at: _At) -> str:
    if not at.detail:
        return ""
    e, v = mv.args
    cost = adjust_cost(state, at.p, "acquire", e, tuple(v if i == e else 0 for i in range(len(_REQ_PARTS))))
    return f"pay {_cost_text(cost)}; the card goes to your discard pile"


# The gloss of each move block (a block without one has none).
_GLOSSES: dict[str, Callable[[GameState, Move, _At], str]] = {
    "ACTIVATE": _activate,
    "LEARN": _learn,
    "DESTROY_CURSE": _curse,
    "PICK_CURSE": _curse,
    "CURE_HAND": _cure,
    "CURE_SUPPORT": _cure,
    "PAY_SUPPORT": _support_card,
    "PICK_SUPPORT": _pick_support,
    "PICK_SPELL": _pick_spell,
    "PICK_PLAYER": _pick_player,
    "ABILITY": _ability,
    "ACQUIRE": _acquire,
}


def move_label(state: GameState, move: int, detail: bool = False) -> str:
    """``move_to_string`` plus what it points at, read from ``state`` before the move is applied."""
    text = move_to_string(move, state.config.modules)
    try:
        gloss = _gloss(state, move, detail)
    except (IndexError, KeyError, ValueError, TypeError):  # a layout the gloss does not know
        gloss = ""
    return f"{text} - {gloss}" if gloss else text


def decision_text(state: GameState) -> str:
    """The pending decision in words: kind, source card, what is left to pay or pick."""
    d = pending(state)
    if d.kind == "none":
        return "none"
    text = d.kind
    if d.kind == "payment":
        act = state.stack[-1].get("action", "")
        what = d.source
        if what[:1].isdigit():  # acquire pays for "element-value"
            e, v = what.split("-")
            what = f"{ELEMENT_NAMES[int(e)]}-{v}"
        elif what:
            what = card_label(state, what)
        text += f" ({act} {what})".replace(" )", ")") if act else ""
    elif d.source:
        text += f" (from {source_text(state)[0]})"
    if d.kind == "payment":
        picked = ", ".join(code_name(c) for c in d.picks) or "nothing"
        text += f"; left to pay: {left_text(d.picks, state.stack[-1]['cost'])}; picked: {picked}"
    elif d.remaining > 1:
        text += f"; {d.remaining} {'Actions' if d.kind == 'granted_action' else 'picks'} left"
    return text


def source_text(state: GameState) -> tuple[str, str]:
    """(name, printed text) of the card whose effect asks the pending decision; ("", "") if none.
    A Grimoire page's Bonus / Failure is named as such (its card name is the Monster on its back)."""
    f = state.stack[-1] if state.stack else {}
    src, part = f.get("source", ""), f.get("part", "")
    pack = state.pack
    if not isinstance(src, str) or not src:
        return "", ""
    if src in pack.spells:
        return card_label(state, src), pack.spells[src].text
    if src in pack.curses:
        return card_label(state, src), pack.curses[src].text
    if src in pack.magicians:
        return card_label(state, src), pack.magicians[src].ability_text
    if src in pack.pages:
        page = pack.pages[src]
        if part == "bonus":
            return "the Grimoire's Bonus", page.bonus_text
        if part == "failure":
            return "the Grimoire's Failure", page.failure_text
        return card_label(state, src), page.monster.text if page.monster else ""
    return src, ""


def _event_text(state: GameState, ev: tuple) -> str | None:
    """One event of ``state.log`` as a sentence; None for events not worth a line."""
    kind, a = ev[1], ev[2:]
    c = lambda cid: card_label(state, cid)  # noqa: E731
    texts: dict[str, Callable[[], str | None]] = {
        "setup": lambda: None,
        "turn": lambda: f"--- turn {ev[0]}: P{a[0]} is the Active Player ---",
        "monster": lambda: f"Monster {c(a[1])} arrives (round {a[0]})",
        "curse_placed": lambda: f"Curse {c(a[1])} is placed on slot {a[0]}",
        "curse_triggers": lambda: f"Curse {c(a[0])} triggers",
        "marker": lambda: f"the Invocation marker moves to {a[0]}",
        "madness": lambda: f"P{a[0]} receives a Madness card (to their {a[1].replace('_', ' ')})",
        "pay": lambda: f"P{a[0]} pays {', '.join(code_name(x) for x in a[3]) or 'nothing'}",
        "cancel": lambda: f"P{a[0]} cancels the Action",
        "activate": lambda: f"P{a[0]} casts {c(a[1])} (X={a[2]})",
        "learn": lambda: f"P{a[0]} learns {c(a[1])}",
        "spell_to_box": lambda: f"P{a[0]} puts {c(a[1])} back in the box",
        "spell_lost": lambda: f"P{a[0]} loses {c(a[1])}",
        "acquire": lambda: f"P{a[0]} acquires {ELEMENT_NAMES[a[1]]}-{a[2]}",
        "destroy": lambda: f"P{a[0]} destroys Curse {c(a[1])}",
        "destroyed": lambda: f"P{a[0]} destroys card {code_name(a[1])}",
        "reward": lambda: f"P{a[0]} takes {ELEMENT_NAMES[a[1]]}-2 as a reward",
        "cure": lambda: f"P{a[0]} cures a Madness" + (f" from P{a[1]}'s support" if a[1] >= 0 else ""),
        "gain": lambda: f"P{a[0]} gains {code_name(a[1])}",
        "upgrade": lambda: f"P{a[0]} upgrades {code_name(a[1])} to {code_name(a[1] + 1)}",
        "grant": lambda: f"P{a[0]} is granted {a[1]} Action(s)",
        "reshuffle": lambda: f"P{a[0]} reshuffles {a[1]} cards into a new deck",
        "neutralize_curse": lambda: f"Curse {c(a[0])} is neutralized",
        "ability": lambda: f"P{a[0]} uses the ability of {c(a[1])}",
        "eliminated": lambda: f"P{a[0]} is eliminated",
        "failure": lambda: "the Monster is not vanquished: its Failure effect applies",
        "bonus": lambda: "the Monster is vanquished: its Bonus applies",
        "game_over": lambda: f"game over: {a[0]} ({a[1]})",
    }
    try:
        return texts[kind]() if kind in texts else f"{kind} {' '.join(map(str, a))}"
    except (IndexError, KeyError, TypeError, AttributeError):  # an event shape this does not know
        return f"{kind} {' '.join(map(str, a))}"


def event_lines(state: GameState, start: int) -> list[str]:
    """Sentences for ``state.log[start:]`` (what the last move set off), indented under it."""
    out = []
    for ev in state.log[start:]:
        text = _event_text(state, ev)
        if text is not None:
            out.append(text if text.startswith("---") else f"    {text}")
    return out


def board_text(state: GameState, seats: list[Seat]) -> str:
    """The engine's rendering (card names, reconstructed ones marked ``*``, partial ones ``~``) with
    who plays which seat and what the marks mean; its closing "decision:" line is left to the
    decision header."""
    lines = str(state).splitlines()
    if lines and lines[-1].startswith("decision:"):
        lines.pop()
    lines.append("seats: " + ", ".join(f"P{i} {s.label}" for i, s in enumerate(seats)))
    lines.append(MARKS_LEGEND)
    return "\n".join(lines)


def find_cards(state: GameState, query: str) -> list[str]:
    """Card ids whose id or name (without a ``*``/``~`` mark) is ``query``, case-insensitively."""
    q = query.strip().rstrip("*~").lower()
    pack = state.pack
    ids = [*pack.magicians, *pack.spells, *pack.curses, *pack.pages]
    return [cid for cid in ids if q in (cid.lower(), pack.card_name(cid).lower())]
