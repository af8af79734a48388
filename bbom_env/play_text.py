"""Text for people, derived from the engine, behind ``python -m bbom_env.play``: each move by name
with what it points at (``move_label``), the pending decision in words (``decision_text``,
``source_text``), what a move set off (``event_lines``, from the state's event log), the board
(``board_text``) and card look-up (``find_cards``). The input loop is in ``play_session``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import mark
from .engine import GameState, decode, move_to_string, pending
from .engine.actions import CURE_REQ, curse_req, spell_req
from .engine.constants import ELEMENT_NAMES, MAX_STACK, MAX_SUPPORT_SLOTS, code_name
from .engine.hooks import adjust_cost
from .engine.moves import BLOCKS

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
    pack = state.pack
    card = pack.spells.get(card_id) or pack.curses.get(card_id) or pack.magicians.get(card_id)
    card = card or pack.pages.get(card_id)
    return mark(pack.card_name(card_id), card.provenance) if card is not None else card_id


def _cost_text(req: tuple[int, ...]) -> str:
    names = ELEMENT_NAMES + ("any",)
    return ", ".join(f"{n} {names[e]}" for e, n in enumerate(req) if n) or "nothing"


def _gloss(state: GameState, move: int, detail: bool) -> str:
    """What a move's arguments point at now (the spell, Curse, player or card), for people:
    ``ACTIVATE(spell#1 X=1)`` says which slot, this says "Ice". With ``detail``, add the cost and
    the card text (for the list of choices). Empty when there is nothing to add."""
    name = decode(move).block
    arg = move - BLOCKS[name].start  # the flat index inside the block
    p = state.current_player()
    n = len(state.players)
    frame = state.stack[-1] if state.stack else {}
    owner = frame["p"] if isinstance(frame.get("p"), int) else p  # whose card an effect picks
    if name == "ACTIVATE":
        sid = state.players[p].spells[arg // 3].spell
        if not detail:
            return card_label(state, sid)
        req = spell_req(state, p, sid, arg % 3 + 1)
        return f"{card_label(state, sid)}, pay {_cost_text(req)}: {state.pack.spells[sid].text}"
    if name == "LEARN":
        sid = state.library[arg][-1]
        if not detail:
            return card_label(state, sid)
        sp = state.pack.spells[sid]
        req = [0] * 5
        req[arg] = sp.learning_cost
        req = adjust_cost(state, p, "learn", arg, tuple(req))
        return f"{card_label(state, sid)}, pay {_cost_text(req)}: {sp.text}"
    if name in ("DESTROY_CURSE", "PICK_CURSE"):
        slot, pos = divmod(arg, MAX_STACK)
        stack = state.track[slot]
        curse = stack[len(stack) - 1 - pos]
        text = card_label(state, curse.curse)
        if detail and name == "DESTROY_CURSE":
            text += f", pay {_cost_text(curse_req(state, p, curse))}"
        if detail:
            text += f": {state.pack.curses[curse.curse].text}"
        return text
    if name in ("CURE_HAND", "CURE_SUPPORT") and detail:
        cure = f"pay {_cost_text(adjust_cost(state, p, 'cure', None, CURE_REQ))}"
        return cure if name == "CURE_HAND" else f"{_gloss(state, move, False)}, {cure}"
    if name in ("CURE_SUPPORT", "PAY_SUPPORT"):
        off, slot = divmod(arg, MAX_SUPPORT_SLOTS)
        q = (p + off) % n
        return f"{code_name(state.players[q].support[slot].card)} in P{q}'s support"
    if name == "PICK_SUPPORT":
        slot = arg % MAX_SUPPORT_SLOTS
        return f"{code_name(state.players[owner].support[slot].card)} in P{owner}'s support"
    if name == "PICK_SPELL":
        return f"P{owner}'s {card_label(state, state.players[owner].spells[arg].spell)}"
    if name == "PICK_PLAYER":
        q = (p + arg) % n
        return f"P{q}" + (" (yourself)" if q == p and detail else "")
    if name == "ABILITY":
        mag = state.players[p].magician
        return card_label(state, mag) + (f": {state.pack.magicians[mag].ability_text}" if detail else "")
    if name == "ACQUIRE" and detail:
        e, v = divmod(arg, 2)
        cost = adjust_cost(state, p, "acquire", e, tuple(v + 2 if i == e else 0 for i in range(5)))
        return f"pay {_cost_text(cost)}; the card goes to your discard pile"
    return ""


def move_label(state: GameState, move: int, detail: bool = False) -> str:
    """``move_to_string`` plus what it points at, read from ``state`` before the move is applied."""
    text = move_to_string(move)
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
        act = state.stack[-1].get("act", "")
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
        text += f"; left to pay: {_cost_text(d.cost_left)}; picked: {picked}"
    elif d.remaining > 1:
        text += f"; {d.remaining} {'Actions' if d.kind == 'granted_action' else 'picks'} left"
    return text


def source_text(state: GameState) -> tuple[str, str]:
    """(name, printed text) of the card whose effect asks the pending decision; ("", "") if none.
    A Grimoire page's Bonus / Failure is named as such (its card name is the Monster on its back)."""
    f = state.stack[-1] if state.stack else {}
    src, part = f.get("src", ""), f.get("part", "")
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
