"""A played game as a file, and the states it went through (what the replay viewer steps through).

Two kinds of file are read (``load_game``):

* a **game file** (``save_game``; ``python -m bbom_env.play --save``, ``agents.evaluate
  --save-games``): JSON ``{"format": "bbom-game/1", "config": {GameConfig fields}, "moves": [move
  ids], "seats": [who played each seat], "title": "...", "pack_sha256": [...]}``: the config and the
  move list of ``engine.replay(config, moves)``, who played, and the card pack's fingerprint;
* a **state save** (``state.to_json()``): its config and its history are the game.

Either is replayed from its config (the seed included: a game replays exactly) and checked: a move
that is not legal where it was taken, a config that is not valid, or a card pack changed since the
game was recorded raises ``GameFileError`` naming the file and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bbom_env.engine import GameConfig, GameState, from_json, new_game
from bbom_env.engine.cards.pack import pack_mismatch, pack_sha256
from bbom_env.engine.core.rules import pack_spec

GAME_FORMAT = "bbom-game/1"


class GameFileError(ValueError):
    """A game file that cannot be read or replayed (the message names the file and the field)."""


@dataclass(frozen=True)
class GameRecord:
    """A game: its config, the move ids in the order they were taken, who played each seat (labels
    such as "heuristic" or "you"; may be empty) and a title."""

    config: GameConfig
    moves: tuple[int, ...]
    seats: tuple[str, ...] = ()
    title: str = ""

    def steps(self) -> Iterator[tuple[GameState, int | None]]:
        """(state, move taken there) for every decision of the game, then (final state, None): each
        state a copy. Raises ``GameFileError`` naming the move that is not legal where it was taken."""
        state = new_game(self.config)
        for i, move in enumerate(self.moves):
            yield state.clone(), move
            if move not in state.legal_actions():
                raise GameFileError(f"moves[{i}]: move {move} is not legal there (the game does not replay)")
            state.apply_action(move)
        yield state, None


def record_of(state: GameState, seats: Sequence[str] = (), title: str = "") -> GameRecord:
    """The record of a game played so far: ``state``'s config and history."""
    return GameRecord(state.config, tuple(state.history), tuple(seats), title)


def game_dict(record: GameRecord) -> dict[str, Any]:
    """The JSON form of a record (``save_game`` writes it)."""
    return {
        "format": GAME_FORMAT,
        "title": record.title,
        "config": record.config.to_dict(),
        "moves": list(record.moves),
        "seats": list(record.seats),
        "pack_sha256": pack_sha256(*pack_spec(record.config)),
    }


def save_game(path: str | Path, state: GameState, seats: Sequence[str] = (), title: str = "") -> Path:
    """Write the game ``state`` was played through (config and moves) as a game file; returns the
    path. Parent folders are made."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(game_dict(record_of(state, seats, title))) + "\n", encoding="utf-8")
    return out


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise GameFileError(f"{where}: field {key!r} must be a {kind.__name__}, got {type(value).__name__}")
    return value


def record_from_dict(data: Any, where: str = "game") -> GameRecord:
    """A record from a game file's JSON (``GameFileError`` naming ``where`` and the field)."""
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        fmt = data.get("format") if isinstance(data, dict) else None
        raise GameFileError(f"{where}: not a game file (format {fmt!r}, expected {GAME_FORMAT!r})")
    try:
        config = GameConfig.from_dict(_field(data, "config", dict, where))
    except (TypeError, ValueError) as exc:
        raise GameFileError(f"{where}: field 'config': {exc}") from None
    moves = _field(data, "moves", list, where)
    bad = next((i for i, m in enumerate(moves) if type(m) is not int), None)
    if bad is not None:
        raise GameFileError(f"{where}: moves[{bad}] = {moves[bad]!r} is not a move id (an int)")
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise GameFileError(f"{where}: field 'seats' must be a list of strings")
    recorded = data.get("pack_sha256")
    if recorded is not None:
        why = pack_mismatch(*pack_spec(config), recorded)
        if why is not None:
            raise GameFileError(f"{where}: field 'pack_sha256': {why}")
    return GameRecord(config, tuple(moves), tuple(seats), str(data.get("title", "")))


def load_game(path: str | Path) -> GameRecord:
    """The game in a game file or a state save (module docstring); ``GameFileError`` (a ValueError)
    naming the file when it is neither, or is not valid."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as exc:
        raise GameFileError(f"{p}: cannot read it: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise GameFileError(f"{p}: not JSON ({exc})") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    if isinstance(fmt, str) and fmt.startswith("bbom-state/"):
        try:
            state = from_json(text)
        except ValueError as exc:
            raise GameFileError(f"{p}: {exc}") from None
        return record_of(state, title=p.name)
    record = record_from_dict(data, str(p))
    return record if record.title else GameRecord(record.config, record.moves, record.seats, p.name)
