"""JSON save/load of a full state (design decision 3), and replay from config + moves.

A save names its card pack by the config (path and overrides) and records the sha256 of every
pack file (``pack_sha256``), so that loading it against an edited pack is refused. ``from_json``
trusts nothing: ``save_check`` validates the structure, the ids and the invariants, and every
refusal is a ``SaveError`` naming the field path.

Format 3 writes the decision stack with the named keys of ``frames.py`` and loads it by the frame
types. Saves of formats 1 and 2 (frames with one-letter keys) load by replaying their config and
history (a seeded game replays exactly); every field the old save shares with format 3 must be
what the replay gives, else a ``SaveError`` names the field.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from .config import GameConfig
from .frames import frame_from_json, frame_to_json
from .pack_hash import pack_sha256
from .resolver import IllegalActionError
from .state import GameState, PlayerState, SaveError

FORMAT = "bbom-state/3"
# Saves of versions 1 (before the pack hash; it cannot tell an edited pack) and 2 (one-letter frame
# keys) still load, by replay (_from_replay).
OLD_FORMATS = ("bbom-state/1", "bbom-state/2")
# GameState fields that are plain JSON data as they are (saved and restored unchanged).
_PLAIN_FIELDS = (
    "active", "turn", "round", "marker", "phase", "grimoire", "library", "curse_piles", "supply",
    "reserve1", "tokens", "madness_pile", "destroyed", "box", "box_spells", "over", "outcome",
    "reason", "stats", "history", "movers",
)  # fmt: skip
_V1_KEYS = frozenset(("format", "config", "rng", "players", "track", "stack", "log") + _PLAIN_FIELDS)
SAVE_KEYS = _V1_KEYS | {"pack_sha256"}


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(v) for v in x) if isinstance(x, list) else x


def to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-ready dict of everything in the state (the pack is named by the config and
    fingerprinted by ``pack_sha256``)."""
    version, internal, gauss = state.rng.getstate()
    try:
        hashes = pack_sha256(state.config.pack, state.config.pack_overrides)
    except OSError as exc:
        raise SaveError(f"cannot save the state: its card pack file cannot be read: {exc}") from None
    return {
        "format": FORMAT,
        "pack_sha256": hashes,
        "config": state.config.to_dict(),
        "rng": [version, list(internal), gauss],
        "players": [
            {
                "magician": p.magician,
                "deck": p.deck,
                "hand": p.hand,
                "discard": p.discard,
                "support": p.support,
                "spells": p.spells,
                "eliminated": p.eliminated,
                "ability_used": p.ability_used,
                "ability_lost": p.ability_lost,
                "mods": [list(m) for m in p.mods],
            }
            for p in state.players
        ],
        **{k: getattr(state, k) for k in _PLAIN_FIELDS},
        "track": [[[c[0], c[1], list(c[2]), c[3]] for c in slot] for slot in state.track],
        "stack": [frame_to_json(f) for f in state.stack],
        "log": [list(e) for e in state.log],
    }


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: Any) -> GameState:
    """The state of a parsed save; ``SaveError`` (naming the field) when the save is not valid."""
    from .save_check import check_save, check_state

    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise SaveError(f"not a saved bbom state (format {fmt!r}, expected {FORMAT!r})")
    if fmt != FORMAT:
        return _from_replay(data, fmt)
    config, pack = check_save(data, SAVE_KEYS, hashed=True)
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    players = []
    for d in data["players"]:
        p = PlayerState(d["magician"])
        p.deck, p.hand, p.discard, p.support = d["deck"], d["hand"], d["discard"], d["support"]
        p.spells = d["spells"]
        p.eliminated, p.ability_used, p.ability_lost = d["eliminated"], d["ability_used"], d["ability_lost"]
        p.mods = [(m[0], m[1], m[2]) for m in d["mods"]]
        players.append(p)
    state = GameState(config=config, pack=pack, rng=rng, players=players)
    for k in _PLAIN_FIELDS:
        setattr(state, k, data[k])
    state.track = [[[c[0], c[1], tuple(c[2]), c[3]] for c in slot] for slot in data["track"]]
    state.stack = [frame_from_json(f) for f in data["stack"]]
    state.log = [tuple([_tuplify(v) if type(v) is list else v for v in e]) for e in data["log"]]
    check_state(state)  # the invariants; this also computes the legal moves of the decision
    return state


# Frame keys of formats 1 and 2 -> format 3 (frames.py); "n" meant the grants of a menu, the
# Spells left of a refresh_choice and the picks left of an op.
_OLD_KEYS = {
    "k": "kind", "w": "decider", "p": "player", "c": "controller", "e": "element", "v": "value",
    "s": "spell", "q": "owner", "cid": "curse", "i": "step", "X": "x", "src": "source",
    "req": "cost", "act": "action", "what": "target",
}  # fmt: skip
_OLD_N = {"menu": "grants", "refresh_choice": "left", "op": "count"}


def _old_frame(f: Any) -> Any:
    if type(f) is not dict:
        return f
    n = _OLD_N.get(str(f.get("k")), "n")
    return {(n if k == "n" else _OLD_KEYS.get(k, k)): v for k, v in f.items()}


def _from_replay(data: dict, fmt: str) -> GameState:
    """A save of an old format: checked as far as it shares format 3's fields (its stack has
    other keys), rebuilt by replaying its config and history, and refused unless every shared
    field, and the stack read with the old keys, is what the replay gives."""
    from .save_check import check_save, check_state
    from .setup import new_game

    v2 = fmt == "bbom-state/2"
    config, _ = check_save(data, SAVE_KEYS if v2 else _V1_KEYS, hashed=v2, frames=False)
    state = new_game(config)
    for i, move in enumerate(data["history"]):  # ints in range: checked by check_save
        try:
            state.apply_action(move)
        except IllegalActionError as exc:
            raise SaveError(f"history[{i}]: {exc} (a {fmt} save loads by replaying its history)") from None
    replayed = json.loads(to_json(state))
    for key in ("rng", "players", "track", "log", *_PLAIN_FIELDS):
        if replayed[key] != data[key]:
            raise SaveError(
                f"{key}: the {fmt} save's {key} is not what replaying its config and history gives"
            )
    old = [_old_frame(f) for f in data["stack"]]
    new = replayed["stack"]
    if old != new:
        bad = next((j for j, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
        where = "stack" if bad is None else f"stack[{bad}]"
        raise SaveError(f"{where}: the {fmt} save's decision stack is not what replaying its history gives")
    check_state(state)
    return state


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
