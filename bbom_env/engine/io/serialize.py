"""JSON save/load of a full state (design decision 3), and replay from config + moves.

A save names its card pack by the config (path and overrides) and records the sha256 of every
pack file (``pack_sha256``), so that loading it against an edited pack is refused. ``from_json``
trusts nothing: ``save_check`` validates the structure, the ids and the invariants, and every
refusal is a ``SaveError`` naming the field path.

Format 3 writes every field by its declared type (``typed.py``): the decision stack with
the named keys of ``frames.py``, records (``records.py``) as objects of their field names. Saves
of formats 1 and 2 (one-letter frame keys, records as positional lists) are upgraded to format 3's
form, checked as any save, and refused unless replaying their config and history gives the same
state, field by field (a seeded game replays exactly); the ``SaveError`` names the field.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable
from typing import Any

from bbom_env.engine.cards.pack import Pack, pack_mismatch, pack_sha256
from bbom_env.engine.core.config import GameConfig
from bbom_env.engine.core.resolver import IllegalActionError
from bbom_env.engine.core.rules import pack_spec, switch_defaults
from bbom_env.engine.core.state import GameState, PlayerState, SaveError
from bbom_env.engine.io.save_check import IF_SET, check_save, check_state
from bbom_env.engine.model.records import NO_CARD, HandSource, SupportSlot, SupportSource, is_record_type
from bbom_env.engine.model.typed import codecs, saved_fields

FORMAT = "bbom-state/6"
# Saves of versions 1 (before the pack hash; it cannot tell an edited pack), 2 (one-letter frame
# keys, records as positional lists) and 3 (a config without the Dark Matter module's switches)
# still load, and 4 (a config without the Phobia module's spell_surcharge_element, A-50) and 5
# (without its cure_cost_mode, V-37): upgraded to format 6, then checked against a replay of their
# history (from_dict).
OLD_FORMATS = ("bbom-state/1", "bbom-state/2", "bbom-state/3", "bbom-state/4", "bbom-state/5")
# Every saved field of GameState, with its JSON codecs derived from its declared type
# (``typed.py``): a new field needs no edit here. The config is read by ``check_save``.
_FIELDS = saved_fields(GameState)
_CODECS = {name: codecs(h, f"GameState.{name}") for name, h in _FIELDS.items()}
_ENCODE = tuple((name, c[0]) for name, c in _CODECS.items())
_DECODE = tuple((name, c[1]) for name, c in _CODECS.items() if name != "config")
_V1_KEYS = frozenset(("format", *_FIELDS))
SAVE_KEYS = _V1_KEYS | {"pack_sha256"}


def to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-ready dict of everything in the state (the pack is named by the config and
    fingerprinted by ``pack_sha256``)."""
    try:
        hashes = pack_sha256(*pack_spec(state.config))
    except OSError as exc:
        raise SaveError(f"cannot save the state: its card pack file cannot be read: {exc}") from None
    d = state.__dict__
    out: dict[str, Any] = {"format": FORMAT, "pack_sha256": hashes}
    for name, enc in _ENCODE:
        if name not in IF_SET or d[name]:  # the module states, written only when set
            out[name] = d[name] if enc is None else enc(d[name])
    return out


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: Any) -> GameState:
    """The state of a parsed save; ``SaveError`` (naming the field) when the save is not valid."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise SaveError(f"not a saved bbom state (format {fmt!r}, expected {FORMAT!r})")
    if fmt != FORMAT:
        # Upgraded to format 6's form, checked as one (a format-1 save has no pack hash) and against
        # a replay of its history (see the module docstring).
        v1, why = fmt == "bbom-state/1", f"a {fmt} save loads by replaying its history"
        return _load(_upgrade(data), _V1_KEYS if v1 else SAVE_KEYS, not v1, (f"the {fmt} save", why, ""))
    mods = data["config"].get("modules") if type(data.get("config")) is dict else None
    if type(mods) is list and all(type(m) is str for m in mods) and mods != sorted(mods):
        return _from_relabelled(data)  # not in the canonical order (``moves.canonical_modules``)
    return _load(data)


def _load(data: dict, keys: frozenset = SAVE_KEYS, hashed: bool = True, replays: tuple = ()) -> GameState:
    """The state of a save in format 6's form, checked (``check_save``, then the invariants, which
    also compute the legal moves of the decision); ``replays``: it loads only if replaying its
    history gives it (the arguments of ``_check_replays``)."""
    config, pack = check_save(data, keys, hashed)
    state = decode_fields(data, config, pack)
    if replays:
        _check_replays(state, *replays)
    check_state(state)
    return state


def decode_fields(data: dict[str, Any], config: GameConfig, pack: Pack) -> GameState:
    """The state a save's fields hold, decoded by their declared types, with no check at all:
    ``from_dict`` calls it once ``check_save`` has passed (tests call it on states that are not
    games, to test the codec alone)."""
    values = {name: data[name] if dec is None else dec(data[name]) for name, dec in _DECODE if name in data}
    return GameState(config=config, pack=pack, **values)


# Formats 1 and 2 -> format 3. Frame keys (frames.py); "n" meant the grants of a menu, the Spells
# left of a refresh_choice and the picks left of an op.
_OLD_KEYS = {
    "k": "kind", "w": "decider", "p": "player", "c": "controller", "e": "element", "v": "value",
    "s": "spell", "q": "owner", "cid": "curse", "i": "step", "X": "x", "src": "source",
    "req": "cost", "act": "action", "what": "target",
}  # fmt: skip
_OLD_N = {"menu": "grants", "refresh_choice": "left", "op": "count"}


def _records(h: Any, v: Any) -> Any:
    """``v`` of declared type ``h`` with its records written as positional lists (formats 1-2; a
    support slot as its card alone) as the objects format 3 writes; anything else is left for the
    check to refuse."""
    if h is SupportSlot and type(v) is int:
        v = [v, NO_CARD]
    if is_record_type(h) and type(v) is list and len(v) == len(h._fields):
        return dict(zip(h._fields, v, strict=True))
    if typing.get_origin(h) is list and type(v) is list:
        return [_records(typing.get_args(h)[0], x) for x in v]
    if h is PlayerState and type(v) is dict:
        return {k: _records(_PLAYER_FIELDS.get(k), x) for k, x in v.items()}
    return v


_PLAYER_FIELDS = saved_fields(PlayerState)


def _old_source(v: Any) -> Any:
    if type(v) is list and len(v) == 2 and v[0] == "h":
        return _records(HandSource, v[1:])
    if type(v) is list and len(v) == 3 and v[0] == "s":
        return _records(SupportSource, v[1:])
    return v


def _old_frame(f: Any) -> Any:
    if type(f) is not dict:
        return f
    n = _OLD_N.get(str(f.get("k")), "n")
    out = {(n if k == "n" else _OLD_KEYS.get(k, k)): v for k, v in f.items()}
    if type(out.get("picks")) is list:
        out["picks"] = [_old_source(v) for v in out["picks"]]
    return out


def _with_switch_defaults(data: dict) -> dict:
    """The save's config as format 6 writes it: the switches of its modules, with the defaults of
    those it lacks (saved before they existed: a switch only ever changes a game with its module,
    so its default is what such a game played), and no other module's switch at its default."""
    config = data.get("config")
    if type(config) is not dict:
        return data
    named = config.get("modules")
    ours = switch_defaults(named if type(named) is list else ())
    others = {k: v for k, v in switch_defaults().items() if k not in ours}
    kept = {k: v for k, v in config.items() if k not in others or v != others[k]}
    return {**data, "config": {**kept, **{k: v for k, v in ours.items() if k not in kept}}}


def _upgrade(data: dict) -> dict:
    """An old save's data in format 6's form (the checks then read it as any save)."""
    # Formats 1-5: saved before some module switches (a switch missing played at its default).
    out = _with_switch_defaults(dict(data))
    out["format"] = FORMAT
    if data.get("format") in ("bbom-state/3", "bbom-state/4", "bbom-state/5"):
        return out
    for name in ("players", "track"):
        if name in data:
            out[name] = _records(_FIELDS[name], data[name])
    if type(data.get("stack")) is list:
        out["stack"] = [_old_frame(f) for f in data["stack"]]
    return out


def _check_replays(state: GameState, what: str, why: str, note: str = "") -> None:
    """SaveError unless replaying the state's config and history gives the state, field by field
    (``why`` explains a move that cannot be replayed, ``note`` a field that differs)."""
    from bbom_env.engine.io.setup import new_game

    replayed = new_game(state.config)
    for i, move in enumerate(state.history):  # ints in range: checked by check_save
        try:
            replayed.apply_action(move)
        except ValueError as exc:  # IllegalActionError, or an id a message cannot name
            raise SaveError(f"history[{i}]: {exc} ({why})") from None
    mine, theirs = to_dict(state), to_dict(replayed)
    for key in mine:
        a, b = mine[key], theirs[key]
        if a != b:
            if type(a) is list and type(b) is list and len(a) == len(b):  # name the first item that differs
                key += f"[{next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)}]"
            raise SaveError(f"{key}: {what}'s {key} is not what replaying its history gives{note}")


def _hashes_in_order(config: GameConfig, order: tuple[str, ...], hashes: list) -> list:
    """A save written in its own module order recorded its pack hashes in that order (a relabelled
    one, in the canonical order): the hashes in the canonical order when they match that way."""
    mine, theirs = pack_spec(config, order)[1], pack_spec(config)[1]
    if len(hashes) != 1 + len(mine) or set(mine) != set(theirs):
        return hashes
    by_file = dict(zip(mine, hashes[1:], strict=True))
    reordered = [hashes[0], *(by_file[f] for f in theirs)]
    if pack_mismatch(*pack_spec(config), hashes) and not pack_mismatch(*pack_spec(config), reordered):
        return reordered
    return hashes


def _from_relabelled(data: dict) -> GameState:
    """A save whose config names its modules in a non-canonical order. Its config is read in the
    canonical order (a module set is a set), and the save loads only if replaying its history in
    that order gives its state, field by field: a save written before the order was canonical had
    other move ids and another deal, and is refused rather than replayed wrong."""
    mods = list(data["config"]["modules"])
    canonical = sorted(mods)
    data = {**data, "config": {**data["config"], "modules": canonical}}
    hashes = data.get("pack_sha256")
    try:
        read = GameConfig.from_dict(data["config"])
    except (ValueError, TypeError):
        read = None  # check_save names what is wrong with the config
    if read is not None and type(hashes) is list:
        data["pack_sha256"] = _hashes_in_order(read, tuple(mods), hashes)
    why = (
        f"its modules are read in the canonical order {canonical}; a save written in the order {mods} "
        "before module order was canonical has other move ids and another deal, and cannot be loaded"
    )
    return _load(data, replays=(f"the save with config.modules {mods}", why, f" ({why})"))


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
    from bbom_env.engine.io.setup import new_game

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
