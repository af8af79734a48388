"""The terminal play loop behind ``python -m bbom_env.play``: people and agents share one game.

Everything a person needs is text derived from the engine: the board (``str(state)``), the pending
decision (``engine.pending``), each move by name (``engine.move_to_string``) with the card it
concerns, and what the move set off (the state's event log). Input and output go through an
``input_fn`` (``input``'s signature) and an ``out`` stream so tests can drive a whole session
without a terminal. Bad input never raises: it gets a one-line message and the prompt again.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from .cards import card_lines, mark
from .engine import GameState, decode, move_to_string, pending
from .engine.actions import CURE_REQ, curse_req, spell_req
from .engine.constants import ELEMENT_NAMES, MAX_STACK, MAX_SUPPORT_SLOTS, code_name
from .engine.hooks import adjust_cost
from .engine.moves import BLOCKS

InputFn = Callable[[str], str]

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

HELP = """\
Answer with one of:
  a number        the move with that number in the list (0 is the first)
  a move name     e.g. END, ACQUIRE(fire-2); a block name alone (LEARN) when only one move has it;
                  or the card a move names (Ashes), when only one move names it. Case does not matter.
  #ID             a move id of the env's action space, e.g. #0 for END
Commands: moves (list the moves again), board (show the board), card NAME (a card's text),
          help, quit (or Ctrl-D / Ctrl-C)."""


class AgentError(RuntimeError):
    """An agent could not answer a decision (not a rules error: those propagate as they are)."""


@dataclass
class Seat:
    """Who plays a seat: ``spec`` is "human", "random", "heuristic" or a model path; ``agent`` is
    the object answering ``act(state)`` (None for a person); ``label`` is how the seat is named."""

    spec: str
    agent: Any = None
    label: str = ""

    @property
    def human(self) -> bool:
        return self.agent is None


@dataclass
class SessionResult:
    """How the session ended: ``status`` is "over", "quit", "interrupted" or "max_steps"."""

    status: str
    steps: int
    state: GameState


# -- text ----------------------------------------------------------------------------------------


def card_label(state: GameState, card_id: str) -> str:
    """A card's name, marked ``*`` when reconstructed (never passed off as the real card)."""
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
    name, arg = decode(move)
    p = state.current_player()
    n = len(state.players)
    frame = state.stack[-1] if state.stack else {}
    owner = frame["p"] if isinstance(frame.get("p"), int) else p  # whose card an effect picks
    if name == "ACTIVATE":
        sid = state.players[p].spells[arg // 3][0]
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
        text = card_label(state, curse[0])
        if detail and name == "DESTROY_CURSE":
            text += f", pay {_cost_text(curse_req(state, p, curse))}"
        if detail:
            text += f": {state.pack.curses[curse[0]].text}"
        return text
    if name in ("CURE_HAND", "CURE_SUPPORT") and detail:
        cure = f"pay {_cost_text(adjust_cost(state, p, 'cure', None, CURE_REQ))}"
        return cure if name == "CURE_HAND" else f"{_gloss(state, move, False)}, {cure}"
    if name in ("CURE_SUPPORT", "PAY_SUPPORT"):
        off, slot = divmod(arg, MAX_SUPPORT_SLOTS)
        q = (p + off) % n
        return f"{code_name(state.players[q].support[slot])} in P{q}'s support"
    if name == "PICK_SUPPORT":
        return f"{code_name(state.players[owner].support[arg % MAX_SUPPORT_SLOTS])} in P{owner}'s support"
    if name == "PICK_SPELL":
        return f"P{owner}'s {card_label(state, state.players[owner].spells[arg][0])}"
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
    """The engine's rendering (card names, reconstructed ones marked ``*``) with who plays which
    seat; its closing "decision:" line is left to the decision header."""
    lines = str(state).splitlines()
    if lines and lines[-1].startswith("decision:"):
        lines.pop()
    lines.append("seats: " + ", ".join(f"P{i} {s.label}" for i, s in enumerate(seats)))
    return "\n".join(lines)


def find_cards(state: GameState, query: str) -> list[str]:
    """Card ids whose id or name (without the ``*`` mark) is ``query``, case-insensitively."""
    q = query.strip().rstrip("*").lower()
    pack = state.pack
    ids = [*pack.magicians, *pack.spells, *pack.curses, *pack.pages]
    return [cid for cid in ids if q in (cid.lower(), pack.card_name(cid).lower())]


# -- human input ---------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return "".join(text.split()).upper().rstrip("*")


def parse_choice(state: GameState, text: str, legal: list[int]) -> tuple[str, Any]:
    """Read one answer: ("move", id), ("command", (name, argument)) or ("error", message)."""
    raw = text.strip()
    if not raw:
        return "error", "empty answer: type a number from the list (or help)"
    word, _, rest = raw.partition(" ")
    if word.lower() in ("help", "?", "h"):
        return "command", ("help", "")
    if word.lower() in ("quit", "exit", "q"):
        return "command", ("quit", "")
    if word.lower() in ("board", "b"):
        return "command", ("board", "")
    if word.lower() in ("moves", "list", "m"):
        return "command", ("moves", "")
    if word.lower() == "card":
        return "command", ("card", rest.strip())
    if re.fullmatch(r"-?[0-9]+", raw):
        i = int(raw)
        if 0 <= i < len(legal):
            return "move", legal[i]
        return "error", f"no move numbered {i}: choose 0 to {len(legal) - 1} (#ID for a move id)"
    if raw.startswith("#"):
        body = raw[1:].strip()
        if not re.fullmatch(r"[0-9]+", body):
            return "error", f"{raw!r} is not a move id: # and digits, e.g. #0"
        if int(body) in legal:
            return "move", int(body)
        try:
            name = move_to_string(int(body))
        except ValueError:
            return "error", f"move id {body} is outside the action space"
        return "error", f"move {name} (#{body}) is not legal now"
    key = _norm(raw)
    exact = [m for m in legal if _norm(move_to_string(m)) == key]
    if exact:
        return "move", exact[0]
    by_block = [m for m in legal if decode(m)[0] == key]
    by_card = [m for m in legal if _norm(move_label(state, m).partition(" - ")[2]) == key]
    for found in (by_block, by_card):
        if len(found) == 1:
            return "move", found[0]
        if len(found) > 1:
            names = ", ".join(move_to_string(m) for m in found)
            return "error", f"{raw!r} matches {len(found)} moves ({names}): type its number"
    if key.partition("(")[0] in BLOCKS:
        return "error", f"{raw!r} is not legal now: type a number from the list, or help"
    return "error", f"{raw!r} is not a move or a command: type a number from the list, or help"


# -- the session ---------------------------------------------------------------------------------


class _Session:
    """State of one terminal session: the game, the seats and the streams."""

    def __init__(
        self,
        state: GameState,
        seats: list[Seat],
        input_fn: InputFn,
        out: TextIO,
        delay: float,
        step: bool,
        sleep: Callable[[float], None],
    ) -> None:
        self.state, self.seats, self.input_fn, self.out = state, seats, input_fn, out
        self.delay, self.step, self.sleep = delay, step, sleep
        self.watch = not any(s.human for s in seats)
        self.shown = ""  # the board as last printed before a person's decision
        self.stop: str | None = None  # why the session ends early: quit, interrupted, max_steps
        self.width = 100
        if out is sys.stdout and out.isatty():
            self.width = max(60, shutil.get_terminal_size((100, 24)).columns - 1)

    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def who(self, p: int) -> str:
        return f"P{p} ({self.seats[p].label})"

    def show_moves(self, legal: list[int]) -> None:
        """One numbered line per move; long card texts wrap under the text column."""
        width = max(len(move_to_string(m)) for m in legal)
        indent = " " * (8 + width)
        for i, m in enumerate(legal):
            name, _, gloss = move_label(self.state, m, detail=True).partition(" - ")
            line = f"  {i:>2}  {name:<{width}}  {gloss}".rstrip()
            self.say(*textwrap.wrap(line, self.width, subsequent_indent=indent) or [line])

    def show_decision(self, p: int, legal: list[int]) -> None:
        d = pending(self.state)
        self.say("", f"== {self.who(p)} to decide: {decision_text(self.state)} ==")
        if d.kind in KIND_HINTS:
            self.say(KIND_HINTS[d.kind])
        name, text = source_text(self.state)
        if text and d.kind != "payment":
            self.say(f"{name}: {text}")
        self.show_moves(legal)

    def read(self, prompt: str) -> str | None:
        """A line from the person, or None at end of input / Ctrl-C (sets ``self.stop``)."""
        try:
            return self.input_fn(prompt)
        except EOFError:
            self.say("", "end of input: leaving the game")
            self.stop = "quit"
        except KeyboardInterrupt:
            self.say("", "interrupted: leaving the game")
            self.stop = "interrupted"
        return None

    def ask(self, p: int) -> int | None:
        """The person's move for the pending decision, or None when they leave."""
        legal = self.state.legal_actions()
        board = board_text(self.state, self.seats)
        if board != self.shown:  # unchanged between the picks of a payment: not again
            self.say("", board)
            self.shown = board
        self.show_decision(p, legal)
        self.say(f"Type 0-{len(legal) - 1}, a move name, #ID, or help / board / quit.")
        while True:
            line = self.read(f"P{p}> ")
            if line is None:
                return None
            kind, value = parse_choice(self.state, line, legal)
            if kind == "move":
                return value
            if kind == "error":
                self.say(f"  {value}")
                continue
            cmd, arg = value
            if cmd == "quit":
                self.stop = "quit"
                return None
            if cmd == "help":
                self.say(HELP)
            elif cmd == "board":
                self.say(board_text(self.state, self.seats))
                self.show_decision(p, legal)
            elif cmd == "moves":
                self.show_decision(p, legal)
            else:
                self.show_card(arg)

    def show_card(self, query: str) -> None:
        if not query:
            self.say("  card NAME: the name (or id) of a card on the board, e.g. card Combustion")
            return
        ids = find_cards(self.state, query)
        if not ids:
            self.say(f"  no card named {query!r} in this pack")
        for cid in ids:
            title, lines = card_lines(self.state.pack, cid)
            self.say(f"  {title}  [{cid}]", *(f"  {line}" for line in lines))

    def pause(self) -> None:
        """After an agent's move: wait ``delay`` seconds, and for Enter with ``step``."""
        if self.delay > 0:
            self.sleep(self.delay)
        if self.step:
            line = self.read("[Enter: next move, q: quit] ")
            if line is not None and line.strip().lower() in ("q", "quit", "exit"):
                self.stop = "quit"

    def run(self, max_steps: int | None) -> SessionResult:
        state = self.state
        steps = 0
        self.say(*event_lines(state, 0))
        if self.watch:
            self.say(board_text(state, self.seats))
        while not state.is_terminal() and self.stop is None:
            if max_steps is not None and steps >= max_steps:
                self.stop = "max_steps"
                break
            p = state.current_player()
            seat = self.seats[p]
            kind = decision_text(state)
            if seat.human:
                move = self.ask(p)
                if move is None:
                    break
            else:
                try:
                    move = int(seat.agent.act(state))
                except (ValueError, RuntimeError) as e:  # e.g. a model trained on another pack
                    raise AgentError(f"the agent of P{p} ({seat.spec}) cannot play: {e}") from e
            label = move_label(state, move)
            start = len(state.log)
            state.apply_action(move)
            steps += 1
            self.say(f"{self.who(p)} [{kind}]: {label}" if not seat.human else f"{self.who(p)}: {label}")
            lines = event_lines(state, start)
            self.say(*lines)
            if self.watch and any(line.startswith("---") for line in lines) and not state.is_terminal():
                self.say(board_text(state, self.seats))
            if not seat.human and not state.is_terminal():
                self.pause()
        self.summary(self.stop, steps)
        return SessionResult(self.stop or "over", steps, state)

    def summary(self, stop: str | None, steps: int) -> None:
        state, stats = self.state, self.state.stats
        if stop not in ("quit", "interrupted"):  # a person leaving has just seen the board
            self.say("", board_text(state, self.seats))
        self.say("")
        if state.is_terminal():
            self.say(f"=== Outcome: {state.outcome.upper()} - {state.reason} ===")
        else:
            reasons = {"max_steps": "the step limit was reached", "quit": "quit before the end"}
            why = reasons.get(stop or "", stop)
            self.say(f"=== Outcome: none - game stopped at turn {state.turn}: {why} ===")
        self.say(
            f"Monsters defeated: {stats.get('monsters_defeated', 0)}",
            f"Curses destroyed: {stats.get('curses_destroyed', 0)}",
            f"Turns: {state.turn}, decisions: {steps}",
        )


def run_session(
    state: GameState,
    seats: list[Seat],
    input_fn: InputFn = input,
    out: TextIO | None = None,
    delay: float = 0.0,
    step: bool = False,
    max_steps: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> SessionResult:
    """Play ``state`` to the end (or until a person quits, or ``max_steps`` decisions), asking
    people through ``input_fn`` and agents through ``act``, printing everything to ``out``.

    Forced single-move decisions never reach here (the engine applies them, ``GameConfig``
    ``skip_forced_decisions``); their consequences show in the event lines."""
    if len(seats) != len(state.players):
        raise ValueError(f"{len(seats)} seats for a {len(state.players)}-player game")
    session = _Session(state, seats, input_fn, out or sys.stdout, delay, step, sleep)
    return session.run(max_steps)
