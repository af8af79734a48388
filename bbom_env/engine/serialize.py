"""JSON save/load of a full state (design decision 3), and replay from config + moves.

A save names its card pack by the config (path and overrides) and records the sha256 of every
pack file (``pack_sha256``), so that loading it against an edited pack is refused. ``from_json``
trusts nothing: ``save_check`` validates the structure, the ids and the invariants, and every
refusal is a ``SaveError`` naming the field path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .cards import Pack
from .config import GameConfig
from .pack_hash import pack_sha256
from .resolver import IllegalActionError
from .state import GameState, SaveError
from .typed_fields import decoder, encoder, saved_fields

FORMAT = "bbom-state/2"
# Saves of version 1 (before the pack hash) still load; they cannot tell an edited pack.
OLD_FORMATS = ("bbom-state/1",)
# Every saved field of GameState, with its JSON codecs derived from its declared type
# (``typed_fields.py``): a new field needs no edit here. The config is read by ``check_save``.
_FIELDS = saved_fields(GameState)
_ENCODE = tuple((name, encoder(h, f"GameState.{name}")) for name, h in _FIELDS.items())
_DECODE = tuple((name, decoder(h, f"GameState.{name}")) for name, h in _FIELDS.items() if name != "config")
_V1_KEYS = frozenset(("format", *_FIELDS))
SAVE_KEYS = _V1_KEYS | {"pack_sha256"}


def to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-ready dict of everything in the state (the pack is named by the config and
    fingerprinted by ``pack_sha256``)."""
    try:
        hashes = pack_sha256(state.config.pack, state.config.pack_overrides)
    except OSError as exc:
        raise SaveError(f"cannot save the state: its card pack file cannot be read: {exc}") from None
    d = state.__dict__
    out: dict[str, Any] = {"format": FORMAT, "pack_sha256": hashes}
    for name, enc in _ENCODE:
        out[name] = d[name] if enc is None else enc(d[name])
    return out


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: Any) -> GameState:
    """The state of a parsed save; ``SaveError`` (naming the field) when the save is not valid."""
    from .save_check import check_save, check_state

    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise SaveError(f"not a saved bbom state (format {fmt!r}, expected {FORMAT!r})")
    config, pack = check_save(data, SAVE_KEYS if fmt == FORMAT else _V1_KEYS, hashed=fmt == FORMAT)
    state = decode_fields(data, config, pack)
    check_state(state)  # the invariants; this also computes the legal moves of the decision
    return state


def decode_fields(data: dict[str, Any], config: GameConfig, pack: Pack) -> GameState:
    """The state a save's fields hold, decoded by their declared types, with no check at all:
    ``from_dict`` calls it once ``check_save`` has passed (tests call it on states that are not
    games, to test the codec alone)."""
    values = {name: data[name] if dec is None else dec(data[name]) for name, dec in _DECODE}
    return GameState(config=config, pack=pack, **values)


def from_json(text: str | bytes) -> GameState:
    """Load a save made by ``to_json``. Raises ``SaveError`` (a ValueError) naming the field path
    for anything that is not a valid save, or when its card pack has changed since."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveError(f"from_json expects the text of a save (str or bytes), got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and bad UTF-8 are ValueErrors
        raise SaveError(f"not a saved bbom state: not valid JSON ({exc})") from None
    return from_dict(data)


def replay(config: GameConfig, actions: Iterable[int]) -> GameState:
    """The state reached by applying ``actions`` to a new game of ``config`` (its seed included).

    A bad move raises the error ``apply_action`` raises (``IllegalActionError``, or
    ``MoveTypeError`` for a non-integer), its message prefixed with its index in ``actions``."""
    from .setup import new_game

    if not isinstance(config, GameConfig):
        raise TypeError(f"replay: config must be a GameConfig, got {type(config).__name__}")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Iterable):
        raise TypeError(f"replay: actions must be a sequence of move ids, got {type(actions).__name__}")
    state = new_game(config)
    for i, a in enumerate(actions):
        try:
            state.apply_action(a)
        except IllegalActionError as exc:
            raise type(exc)(f"replay: actions[{i}]: {exc}") from None
    return state
