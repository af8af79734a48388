"""The replay viewer: one self-contained HTML page of a whole game (``python -m bbom_env.replay``).

``replay_html(record)`` replays the game (``game_file.GameRecord``) and writes, for every step (each
decision, then the final state): the board picture from every view (each seat's and the
spectator's: ``svg.board_parts``), the decision, the move taken there and by whom
(``svg_seats.move_text``: the move and the card it points at, read before it is applied), and the
events it set off until the next decision (``play_text.event_lines``, from ``state.log``). The page
(``replay_page.py``) steps through them: next / previous, jump to a step or a turn, play / pause,
switch the view. No server and no network: it opens from disk.

Size: a frame is a list of segment numbers and each distinct segment is stored once (from one
decision to the next most segments are unchanged, and most are the same in every view), so the
page grows by about the changed segments per step (docs/rendering.md gives a measured size).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from bbom_env.play_text import decision_text, event_lines

from .game_file import GameRecord
from .replay_page import CSS, PAGE, SCRIPT
from .svg import board_parts
from .svg_seats import move_text

SPECTATOR = "spectator"


class _Segments:
    """Each distinct SVG segment once; a frame is the list of their numbers."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.items: list[str] = []

    def frame(self, parts: list[str]) -> list[int]:
        out = []
        for part in parts:
            k = self.index.get(part)
            if k is None:
                k = self.index[part] = len(self.items)
                self.items.append(part)
            out.append(k)
        return out


def game_data(record: GameRecord, observe_other_hands: bool = False) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data: ``steps`` (per step: turn, round, marker,
    decider, decision, the move and its seat, the events until the next step), ``frames`` (per
    view: per step the segment numbers), ``segments``, and the turn index."""
    segments = _Segments()
    views: list[int | None] = [None, *range(record.config.num_players)]
    frames: dict[str, list[list[int]]] = {_key(v): [] for v in views}
    steps: list[dict[str, Any]] = []
    pending_step: dict[str, Any] | None = None
    for state, move in record.steps():
        if pending_step is not None:  # the events of the last move: from its log start to now
            pending_step["events"] = event_lines(state, pending_step.pop("log_start"))
        for v in views:
            frames[_key(v)].append(segments.frame(board_parts(state, v, observe_other_hands)))
        step = {
            "turn": state.turn,
            "round": state.round,
            "marker": state.marker,
            "decider": state.current_player(),
            "decision": _decision(state),
            "move": None if move is None else move_text(state, move),
            "move_id": move,
            "seat": state.current_player() if move is not None else None,
            "events": [],
            "log_start": len(state.log),
        }
        steps.append(step)
        pending_step = step if move is not None else None
    steps[-1].pop("log_start", None)
    turn_start: dict[int, int] = {}
    for i, s in enumerate(steps):
        turn_start.setdefault(s["turn"], i)
    return {
        "steps": steps,
        "frames": frames,
        "segments": segments.items,
        "turn_start": {str(t): i for t, i in turn_start.items()},
        "turn_of_step": [s["turn"] for s in steps],
    }


def _key(view: int | None) -> str:
    return SPECTATOR if view is None else str(view)


def _decision(state: Any) -> str:
    if state.over:
        return f"game over: {state.outcome} ({state.reason})"
    return f"P{state.current_player()} decides: {decision_text(state)}"


def _summary(record: GameRecord, steps: list[dict[str, Any]]) -> str:
    cfg = record.config
    modules = ", ".join(cfg.modules) if cfg.modules else "base game"
    seats = ", ".join(f"P{i} {s}" for i, s in enumerate(record.seats)) if record.seats else ""
    end = steps[-1]["decision"]
    parts = [
        f"{cfg.num_players} players, level {cfg.difficulty}, {cfg.mode}, {cfg.payment} payment, {modules}",
        f"seed {cfg.seed}",
        f"{len(steps) - 1} decisions",
        end,
    ]
    if seats:
        parts.insert(1, seats)
    return " \u00b7 ".join(parts)


def replay_html(record: GameRecord, observe_other_hands: bool = False) -> str:
    """The page of ``record`` (module docstring) as one HTML string."""
    from bbom_env import __version__

    payload = game_data(record, observe_other_hands)
    steps = payload["steps"]
    title = record.title or "The Big Book of Madness: replay"
    # "</" must not close the data's <script> element early (card texts could hold it).
    blob = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    turns = "".join(f'<option value="{t}">{t}</option>' for t in payload["turn_start"])
    views = [SPECTATOR, *(str(i) for i in range(record.config.num_players))]
    labels = {SPECTATOR: "spectator (everything)"}
    view_options = "".join(
        f'<option value="{v}">{html.escape(labels.get(v, _seat_label(record, int(v) if v.isdigit() else 0)))}'
        "</option>"
        for v in views
    )
    return PAGE.format(
        version=__version__,
        title=html.escape(title),
        summary=html.escape(_summary(record, steps)),
        css=CSS,
        last=len(steps) - 1,
        turn_options=turns,
        view_options=view_options,
        data=blob,
        script=SCRIPT,
    )


def _seat_label(record: GameRecord, seat: int) -> str:
    who = f" ({record.seats[seat]})" if seat < len(record.seats) else ""
    return f"P{seat}{who}"


def write_replay(record: GameRecord, out: str | Path, observe_other_hands: bool = False) -> Path:
    """Write the page of ``record`` to ``out`` (parent folders made); returns the path."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replay_html(record, observe_other_hands), encoding="utf-8")
    return path
