"""The terminal play loop behind ``python -m bbom_env.play``: people and agents share one game.

Everything a person needs is text derived from the engine (written by ``play_text``): the board
(``str(state)``), the pending decision (``engine.pending``), each move by name
(``engine.move_to_string``) with the card it concerns, and what the move set off (the state's event
log). Input and output go through an ``input_fn`` (``input``'s signature) and an ``out`` stream so
tests can drive a whole session without a terminal. Bad input never raises: it gets a one-line
message and the prompt again.
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

from bbom_env.engine import GameState, decode, move_to_string, pending
from bbom_env.engine.core.moves import BLOCKS

from .cards import card_lines
from .play_text import (
    KIND_HINTS,
    board_text,
    decision_text,
    event_lines,
    find_cards,
    move_label,
    source_text,
)
from .play_text import card_label as card_label  # re-exported: the text helpers live in play_text

InputFn = Callable[[str], str]

HELP = """\
Answer with one of:
  a number        the move with that number in the list (0 is the first)
  a move name     e.g. END, ACQUIRE(fire-2); a block name alone (LEARN) when only one move has it;
                  or the card a move names (Ashes), when only one move names it. Case does not matter.
  #ID             a move id of the env's action space, e.g. #0 for END
Commands: moves (list the moves again), board (show the board), card NAME (a card's text),
          help, quit (or Ctrl-D / Ctrl-C).
Card names marked * are reconstructed (not the real card); ~ partly known (card NAME says which)."""


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


# -- human input ---------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return "".join(text.split()).upper().rstrip("*~")  # a card name may be typed with its mark


# The session's commands: what a person may type instead of a move, and the command it names.
_COMMANDS = {
    **dict.fromkeys(("help", "?", "h"), "help"),
    **dict.fromkeys(("quit", "exit", "q"), "quit"),
    **dict.fromkeys(("board", "b"), "board"),
    **dict.fromkeys(("moves", "list", "m"), "moves"),
}


def parse_choice(state: GameState, text: str, legal: list[int]) -> tuple[str, Any]:
    """Read one answer: ("move", id), ("command", (name, argument)) or ("error", message)."""
    raw = text.strip()
    if not raw:
        return "error", "empty answer: type a number from the list (or help)"
    word, _, rest = raw.partition(" ")
    if word.lower() in _COMMANDS:
        return "command", (_COMMANDS[word.lower()], "")
    if word.lower() == "card":
        return "command", ("card", rest.strip())
    if re.fullmatch(r"-?[0-9]+", raw):
        i = int(raw)
        if 0 <= i < len(legal):
            return "move", legal[i]
        return "error", f"no move numbered {i}: choose 0 to {len(legal) - 1} (#ID for a move id)"
    if raw.startswith("#"):
        return _parse_move_id(raw, legal)
    return _parse_move_name(state, raw, legal)


def _parse_move_id(raw: str, legal: list[int]) -> tuple[str, Any]:
    """``#ID``: a move by its id in the action space."""
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


def _parse_move_name(state: GameState, raw: str, legal: list[int]) -> tuple[str, Any]:
    """A move by name (``LEARN(fire)``), by block when one move of it is legal (``END``), or by
    the card it points at (``Ice``)."""
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
            f"Monsters defeated: {monsters_defeated(state)}",
            f"Curses destroyed: {stats.get('curses_destroyed', 0)}",
            f"Turns: {state.turn}, decisions: {steps}",
        )


def monsters_defeated(state: GameState) -> int:
    """Monsters defeated, as agents.evaluate counts them: every Monster whose Curses were all
    destroyed by the end of its round (the engine's ``monsters_defeated`` statistic, the Bonus
    rounds, RULES section 3.3.4), plus the last Monster on a win (vanquishing it wins the game:
    no Bonus round follows, so the statistic does not count it)."""
    return state.stats.get("monsters_defeated", 0) + int(state.outcome == "win")


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
