"""Validation of a parsed save (``from_json``) before it becomes a ``GameState``.

A save is untrusted text: it may be hand-edited, truncated, from another version, or made with a
pack that has changed. ``check_save`` checks the structure (every field, its type and range), the
ids against the pack (cards, Spells, Curses, pages, effect paths, modifiers), the seats against the
player count and the frames of the decision stack against what the engine builds; ``check_state``
then runs the engine invariants (card, Curse, token and Spell conservation; a live decider with
legal moves). Every refusal is a ``SaveError`` whose message starts with the field path, e.g.
``players[1].deck[3]: unknown card code 999``. What a game never reads back (the event log's data,
the progress counters' names) is checked for type only.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

from .cards import CURSE_TYPES, Pack, PackError, load_pack
from .config import ConfigError, GameConfig
from .constants import (
    COST_PARTS,
    LAST_SPACE,
    MADNESS,
    MAX_POWER,
    MAX_SPELLS,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_TRACK_SLOTS,
    ROUNDS,
    Phase,
)
from .frames import FRAME_TYPES, frame_schema
from .moves import num_moves
from .pack_checks import check_module_kinds, check_module_sections
from .pack_hash import pack_mismatch
from .records import NO_CARD, CurseOnTrack, HandSource, SpellSlot, SupportSlot, SupportSource, TempModifier
from .rules import Ruleset, ruleset
from .state import GameState, PlayerState, SaveError
from .typed_fields import JSONShapeError, check_json, saved_fields

CONFIG_FIELDS = frozenset(f.name for f in dataclasses.fields(GameConfig))
PLAYER_FIELDS = frozenset(saved_fields(PlayerState))
# Saved only when not empty (typed_fields.SAVED_IF_SET): the module states of GameState.ext.
IF_SET = frozenset(f.name for f in dataclasses.fields(GameState) if f.metadata.get("if_set"))
DURATIONS = ("until_next_monster", "this_turn")
OUTCOMES = ("", "win", "loss")
ACTS = ("activate", "learn", "acquire", "destroy", "cure")

# The frame schema (keys, value kinds, optional keys) is read from the frame types of frames.py
# (FRAME_TYPES, frame_schema), so that a module's frame kinds are checked like the base game's.


def _name(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _int(v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int:  # bool is not an int here, nor is 3.0
        raise SaveError(f"{where}: expected an int, got {_name(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        if hi is None and lo == 0:
            raise SaveError(f"{where}: a count cannot be negative, got {v}")
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SaveError(f"{where}: {v} is out of range ({span})")
    return v


def _seat(v: Any, where: str, n: int, lo: int = 0) -> int:
    if type(v) is not int:
        raise SaveError(f"{where}: expected a seat (an int), got {_name(v)}")
    if not lo <= v < n:
        raise SaveError(f"{where}: seat {v} does not exist ({n} players: seats 0..{n - 1})")
    return v


def _bool(v: Any, where: str) -> bool:
    if type(v) is not bool:
        raise SaveError(f"{where}: expected true or false, got {_name(v)}")
    return v


def _str(v: Any, where: str, allowed: tuple[str, ...] | None = None) -> str:
    if type(v) is not str:
        raise SaveError(f"{where}: expected a string, got {_name(v)}")
    if allowed is not None and v not in allowed:
        raise SaveError(f"{where}: {v!r} is not one of {list(allowed)}")
    return v


def _list(v: Any, where: str, length: int | None = None, most: int | None = None) -> list | tuple:
    # Lists arrive as lists from JSON, as tuples inside frames (from_dict tuplifies those).
    if type(v) not in (list, tuple):
        raise SaveError(f"{where}: expected a list, got {_name(v)}")
    if length is not None and len(v) != length:
        raise SaveError(f"{where}: expected {length} items, got {len(v)}")
    if most is not None and len(v) > most:
        raise SaveError(f"{where}: at most {most} items, got {len(v)}")
    return v


def _dict(v: Any, where: str, keys: set[str] | frozenset[str], optional: frozenset = frozenset()) -> dict:
    if type(v) is not dict:
        raise SaveError(f"{where}: expected an object, got {_name(v)}")
    missing = sorted(keys - optional - set(v))
    if missing:
        raise SaveError(f"{where}: missing field(s) {missing}")
    extra = sorted(map(str, set(v) - keys))
    if extra:
        raise SaveError(f"{where}: unknown field(s) {extra}; known: {sorted(keys)}")
    return v


def _record(v: Any, where: str, cls: type) -> dict:
    """A record (``records.py``) as a save writes it: an object of exactly its field names."""
    return _dict(v, where, frozenset(cls._fields))  # type: ignore[attr-defined]


def _code(v: Any, where: str) -> int:
    # Base game: Element cards and Madness. Dark Matter and Phobias (codes 13+) come with the Vth
    # Element modules, which GameConfig refuses for now.
    if type(v) is not int or not 0 <= v <= MADNESS:
        raise SaveError(f"{where}: unknown card code {_name(v)} (card codes are 0..{MADNESS})")
    return v


def _counts(v: Any, where: str) -> None:
    for i, n in enumerate(_list(v, where, NUM_CODES)):
        _int(n, f"{where}[{i}]", 0)


def _id(v: Any, table: dict, where: str, what: str) -> str:
    if type(v) is not str or v not in table:
        raise SaveError(f"{where}: unknown {what} id {_name(v)} (not in the pack)")
    return v


# ---------------------------------------------------------------------------------------------


def check_save(data: Any, keys: frozenset[str], hashed: bool) -> tuple[GameConfig, Pack]:
    """Check everything a save holds; return its config and (freshly checked) pack."""
    _dict(data, "save", keys, optional=IF_SET)
    config = _config(data["config"])
    if hashed:
        recorded = _list(data["pack_sha256"], "pack_sha256")
        for i, h in enumerate(recorded):
            _str(h, f"pack_sha256[{i}]")
        why = pack_mismatch(config.pack, config.pack_overrides, list(recorded))
        if why is not None:
            raise SaveError(f"pack_sha256: {why}")
    rules = ruleset(config.modules)
    try:
        pack = load_pack(config.pack, config.pack_overrides)
        check_module_kinds(pack, config.modules, rules.modifier_kinds)  # as setup does
        check_module_sections(pack, rules.pack_sections)
    except (PackError, OSError) as exc:
        raise SaveError(f"config.pack: the save's card pack cannot be loaded: {exc}") from None
    _rng(data["rng"])
    n = config.num_players
    players = _list(data["players"], "players", n)
    known = _modifiers(pack)
    for i, d in enumerate(players):
        _player(d, f"players[{i}]", pack, known)
    _magicians(config, players)
    _progress(data, n, num_moves(config.modules))
    _board(data, pack, n)
    _zones(data)
    stack = _list(data["stack"], "stack")
    for i, f in enumerate(stack):
        _frame(f, f"stack[{i}]", pack, data, top=i == len(stack) - 1)
    _module_states(data.get("ext", {}), rules)
    return config, pack


def _module_states(ext: Any, rules: Ruleset) -> None:
    """``ext``: exactly one state per module of the game that has one (``Module.state_type``), each
    of the shape its type declares (``typed_fields.check_json``); its values are then checked by
    the module's invariants (``check_state``)."""
    want = dict(rules.state_types)
    if type(ext) is not dict:
        raise SaveError(f"ext: expected an object (module name -> module state), got {_name(ext)}")
    for name in ext:
        if name not in want:
            raise SaveError(
                f"ext.{name}: no module of this game keeps a state named {name!r} "
                f"(config.modules {list(rules.modules)}; with a state: {sorted(want)})"
            )
    for name, cls in want.items():
        if name not in ext:
            raise SaveError(f"ext.{name}: missing: module {name!r} keeps a state ({cls.__name__})")
        try:
            check_json(cls, ext[name], f"ext.{name}")
        except JSONShapeError as exc:
            raise SaveError(str(exc)) from None


def _config(d: Any) -> GameConfig:
    _dict(d, "config", CONFIG_FIELDS)  # all of them: a missing field must not fall back to a default
    for i, o in enumerate(_list(d["pack_overrides"], "config.pack_overrides")):
        _str(o, f"config.pack_overrides[{i}]")
    _list(d["modules"], "config.modules")  # GameConfig takes any empty container there
    try:
        return GameConfig.from_dict(d)
    except (ConfigError, TypeError) as exc:
        raise SaveError(f"config: {exc}") from None


def _rng(v: Any) -> None:
    version, internal, gauss = _list(v, "rng", 3)
    _int(version, "rng[0]", random.Random.VERSION, random.Random.VERSION)
    words = _list(internal, "rng[1]", 625)  # Mersenne Twister: 624 words and a position
    for i, w in enumerate(words):
        if type(w) is not int or not 0 <= w < 2**32:  # inline: 625 words per load
            _int(w, f"rng[1][{i}]", 0, 2**32 - 1)
    if gauss is not None and type(gauss) is not float:
        raise SaveError(f"rng[2]: expected null or a float, got {_name(gauss)}")
    try:
        random.Random().setstate((version, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError) as exc:
        raise SaveError(f"rng: not a state of Python's random.Random: {exc}") from None


def _player(d: Any, where: str, pack: Pack, known: set[tuple[str, str, str]]) -> None:
    _dict(d, where, PLAYER_FIELDS)
    _id(d["magician"], pack.magicians, f"{where}.magician", "Magician")
    for i, c in enumerate(_list(d["deck"], f"{where}.deck")):
        _code(c, f"{where}.deck[{i}]")
    _counts(d["hand"], f"{where}.hand")
    _counts(d["discard"], f"{where}.discard")
    for i, slot in enumerate(_list(d["support"], f"{where}.support", most=MAX_SUPPORT_SLOTS)):
        w = f"{where}.support[{i}]"
        _record(slot, w, SupportSlot)
        _code(slot["card"], f"{w}.card")
        if type(slot["crushed"]) is not int or slot["crushed"] != NO_CARD:
            _code(slot["crushed"], f"{w}.crushed")  # a card code, or NO_CARD (-1): nothing crushed
    for i, sp in enumerate(_list(d["spells"], f"{where}.spells", most=MAX_SPELLS)):
        w = f"{where}.spells[{i}]"
        _record(sp, w, SpellSlot)
        _id(sp["spell"], pack.spells, f"{w}.spell", "Spell")
        _bool(sp["exhausted"], f"{w}.exhausted")
        _str(sp["neutralized"], f"{w}.neutralized", ("",) + DURATIONS)
    for key in ("eliminated", "ability_used", "ability_lost"):
        _bool(d[key], f"{where}.{key}")
    for i, m in enumerate(_list(d["mods"], f"{where}.mods")):
        w = f"{where}.mods[{i}]"
        _record(m, w, TempModifier)
        mod, duration, src = m["modifier"], m["duration"], m["source"]
        if type(mod) is not dict:
            raise SaveError(f"{w}.modifier: expected an object (a modifier), got {_name(mod)}")
        _str(duration, f"{w}.duration", DURATIONS)
        _str(src, f"{w}.source")
        if (src, json.dumps(mod, sort_keys=True), duration) not in known:
            raise SaveError(f"{w}: no card effect of {src!r} gives the modifier {_name(mod)} ({duration})")


def _modifiers(pack: Pack) -> set[tuple[str, str, str]]:
    """(source card, modifier as canonical JSON, duration) of every "modifier" op of the pack."""
    out: set[tuple[str, str, str]] = set()

    def walk(src: str, ops: Any) -> None:
        for op in ops:
            if op.get("op") == "modifier":
                out.add((src, json.dumps(op["mod"], sort_keys=True), op["duration"]))
            if "ops" in op:
                walk(src, op["ops"])

    for (src, _part), ops in pack.effects.items():
        walk(src, ops)
    return out


def _magicians(config: GameConfig, players: list | tuple) -> None:
    mags = [p["magician"] for p in players]
    if len(set(mags)) != len(mags):
        raise SaveError(f"players: a Magician sits at two seats: {mags}")
    if config.magicians != "random" and tuple(mags) != config.magicians:
        raise SaveError(f"players: Magicians {mags} are not config.magicians {list(config.magicians)}")


def _board(data: dict, pack: Pack, n: int) -> None:
    _books(data, pack)
    _curse_piles(data, pack)
    _track(data, pack)
    _seat(data["active"], "active", n)
    _round_and_marker(data)


def _books(data: dict, pack: Pack) -> None:
    """The Grimoire (its pages' kinds in order), the Library piles, the boxed Spells."""
    grimoire = _list(data["grimoire"], "grimoire", ROUNDS + 1)
    kinds = ["cover"] + ["inside"] * (ROUNDS - 1) + ["end"]
    for i, (pid, kind) in enumerate(zip(grimoire, kinds, strict=True)):
        _id(pid, pack.pages, f"grimoire[{i}]", "Grimoire page")
        if pack.pages[pid].kind != kind:
            raise SaveError(f"grimoire[{i}]: page {pid!r} is a {pack.pages[pid].kind} page, expected {kind}")
    for e, pile in enumerate(_list(data["library"], "library", NUM_ELEMENTS)):
        for i, sid in enumerate(_list(pile, f"library[{e}]")):
            _id(sid, pack.spells, f"library[{e}][{i}]", "Spell")
            if pack.spells[sid].basic or pack.spells[sid].element != e:
                raise SaveError(f"library[{e}][{i}]: {sid!r} is not a Library Spell of Element {e}")
    for i, sid in enumerate(_list(data["box_spells"], "box_spells")):
        _id(sid, pack.spells, f"box_spells[{i}]", "Spell")


def _curse_piles(data: dict, pack: Pack) -> None:
    piles = _dict(data["curse_piles"], "curse_piles", set(CURSE_TYPES) | {"out"}, optional=frozenset({"out"}))
    for t, pile in piles.items():
        for i, cid in enumerate(_list(pile, f"curse_piles.{t}")):
            _id(cid, pack.curses, f"curse_piles.{t}[{i}]", "Curse")
            if t != "out" and pack.curses[cid].type != t:
                raise SaveError(f"curse_piles.{t}[{i}]: {cid!r} is a {pack.curses[cid].type} Curse")


def _track(data: dict, pack: Pack) -> None:
    """The Curses on the track (and the turn, which bounds when one was neutralized)."""
    turn = _int(data["turn"], "turn", 0)
    for s, slot in enumerate(_list(data["track"], "track", NUM_TRACK_SLOTS)):
        for j, curse in enumerate(_list(slot, f"track[{s}]", most=MAX_STACK)):
            w = f"track[{s}][{j}]"
            _record(curse, w, CurseOnTrack)
            _id(curse["curse"], pack.curses, f"{w}.curse", "Curse")
            # -1 face up, else the turn it was neutralized
            _int(curse["neutralized_at"], f"{w}.neutralized_at", -1, turn)
            for e, t in enumerate(_list(curse["tokens"], f"{w}.tokens", NUM_ELEMENTS)):
                _int(t, f"{w}.tokens[{e}]", 0)
            _int(curse["madness"], f"{w}.madness", 0)


def _round_and_marker(data: dict) -> None:
    """The round, the Invocation marker (fitting the round and the stack) and the phase."""
    rnd = _int(data["round"], "round", 0, ROUNDS)
    marker = _int(data["marker"], "marker", 0, LAST_SPACE)
    # In a running game marker 0 (the Invocation space) is held only before the first Monster phase
    # and between the end of a round and its New Monster; elsewhere the next advance finds no space.
    pending_page = any(
        type(f) is dict and f.get("kind") == "newmonster" for f in _list(data["stack"], "stack")
    )
    if not data["over"] and ((rnd == 0 and marker != 0) or (rnd > 0 and marker == 0 and not pending_page)):
        raise SaveError(f"marker: {marker} does not fit round {rnd} (marker 0 only before a New Monster)")
    _int(data["phase"], "phase", min(Phase), max(Phase))


def _zones(data: dict) -> None:
    supply = _list(data["supply"], "supply", NUM_ELEMENTS)
    for e, pile in enumerate(supply):
        for v, c in enumerate(_list(pile, f"supply[{e}]", 2)):  # values 2 and 3
            _int(c, f"supply[{e}][{v}]", 0)
    for key in ("reserve1", "tokens"):
        for e, c in enumerate(_list(data[key], key, NUM_ELEMENTS)):
            _int(c, f"{key}[{e}]", 0)
    for i, c in enumerate(_list(data["madness_pile"], "madness_pile")):
        if _code(c, f"madness_pile[{i}]") != MADNESS:
            raise SaveError(f"madness_pile[{i}]: card code {c} is not Madness ({MADNESS})")
    _counts(data["destroyed"], "destroyed")
    _counts(data["box"], "box")


def _progress(data: dict, n: int, moves: int) -> None:
    over = _bool(data["over"], "over")
    outcome = _str(data["outcome"], "outcome", OUTCOMES)
    if over != (outcome != ""):
        raise SaveError(f"outcome: {outcome!r} does not fit over={over}")
    _str(data["reason"], "reason")
    stats = data["stats"]
    _dict(stats, "stats", set(stats) if type(stats) is dict else set())  # open set of counter names
    for k, v in stats.items():
        _int(v, f"stats.{k}", 0)
    history = _list(data["history"], "history")
    movers = _list(data["movers"], "movers", len(history))
    # The long lists (hundreds of moves, thousands of events) test inline and explain only a failure.
    for i, (m, p) in enumerate(zip(history, movers, strict=True)):
        if type(m) is not int or not 0 <= m < moves or type(p) is not int or not 0 <= p < n:
            _int(m, f"history[{i}]", 0, moves - 1)  # the layout of config.modules
            _seat(p, f"movers[{i}]", n)
    for i, e in enumerate(_list(data["log"], "log")):
        if type(e) is list and len(e) >= 2 and type(e[0]) is int and e[0] >= 0 and type(e[1]) is str:
            continue
        entry = _list(e, f"log[{i}]")
        if len(entry) < 2:
            raise SaveError(f"log[{i}]: expected [turn, kind, data...], got {_name(entry)}")
        _int(entry[0], f"log[{i}][0]", 0)
        _str(entry[1], f"log[{i}][1]")


# -- the decision stack --------------------------------------------------------------------------


def _frame(f: Any, where: str, pack: Pack, data: dict, top: bool) -> None:
    kind, schema = _frame_keys(f, where)
    players = data["players"]
    n = len(players)
    for key, (value_kind, _type) in schema.keys.items():
        if key in f:
            _frame_value(f[key], value_kind, f"{where}.{key}", pack, n)
    _card_there(f, where, data)
    if "source" in f:
        _effect(f, where, pack)
    if f.get("decider") is not None:
        _decider(f, where, players, top)
    if kind == "pay":
        _picks_held(f, where, players)


def _frame_keys(f: Any, where: str) -> tuple[str, Any]:
    """A frame is an object of a known kind with exactly its kind's keys (some optional)."""
    if type(f) is not dict:
        raise SaveError(f"{where}: expected an object, got {_name(f)}")
    kind = f.get("kind")
    if type(kind) is not str or kind not in FRAME_TYPES:
        raise SaveError(f"{where}.kind: unknown frame kind {_name(kind)}; known: {sorted(FRAME_TYPES)}")
    schema = frame_schema(kind)
    for key in schema.keys:
        if key not in f and key not in schema.optional:
            raise SaveError(f"{where}.{key}: missing (a {kind} frame has {sorted(schema.keys)})")
    for key in f:
        if key != "kind" and key not in schema.keys:
            raise SaveError(f"{where}.{key}: unknown field of a {kind} frame; known: {sorted(schema.keys)}")
    return kind, schema


def _decider(f: dict, where: str, players: list | tuple, top: bool) -> None:
    """Only the top frame waits, for its player (or controller), who is still in the game."""
    w = f["decider"]
    if not top:
        raise SaveError(f"{where}.decider: only the top frame of the stack waits for a decision")
    if w not in (f.get("player"), f.get("controller")):
        raise SaveError(f"{where}.decider: seat {w} is not the frame's player")
    if players[w]["eliminated"]:
        raise SaveError(f"{where}.decider: player {w} is eliminated and cannot decide")


# Value kinds of frame fields that are plain int ranges (None: no upper bound).
_RANGES: dict[str, tuple[int, int | None]] = {
    "grants": (-1, None),  # -1: the turn's own Action phase, else granted Actions left
    "count": (0, None),
    "step": (0, None),  # refined by _effect (at most the length of the op list)
    "element": (0, NUM_ELEMENTS - 1),
    "value": (2, 3),
    "power": (1, MAX_POWER),
    "stage": (0, 1),
    "slot": (0, MAX_SUPPORT_SLOTS - 1),
}


def _frame_value(v: Any, kind: str, where: str, pack: Pack, n: int) -> None:
    if kind in _RANGES:
        _int(v, where, *_RANGES[kind])
    elif kind in _VALUE_CHECKS:
        _VALUE_CHECKS[kind](v, where, pack, n)
    elif kind != "effect":  # "effect" (source / part / path) is checked as a whole by _effect
        raise SaveError(f"{where}: the engine has no check for value kind {kind!r} (frames.py)")


def _decider_value(v: Any, where: str, pack: Pack, n: int) -> None:
    if v is not None:
        _seat(v, where, n)


def _madness_value(v: Any, where: str, pack: Pack, n: int) -> None:
    if _code(v, where) != MADNESS:
        raise SaveError(f"{where}: card code {v} is not a Madness card")


def _cost_value(v: Any, where: str, pack: Pack, n: int) -> None:
    for i, r in enumerate(_list(v, where, COST_PARTS)):
        _int(r, f"{where}[{i}]", 0)


def _picks_value(v: Any, where: str, pack: Pack, n: int) -> None:
    for i, s in enumerate(_list(v, where)):
        w = f"{where}[{i}]"
        if type(s) is dict and set(s) == set(HandSource._fields):
            _int(s["code"], f"{w}.code", 0, NUM_ELEMENT_CODES - 1)
        elif type(s) is dict and set(s) == set(SupportSource._fields):
            _seat(s["seat"], f"{w}.seat", n)
            _int(s["slot"], f"{w}.slot", 0, MAX_SUPPORT_SLOTS - 1)
        else:
            raise SaveError(
                f"{w}: expected a payment source, {{'code': card code}} (hand) or "
                f"{{'seat': seat, 'slot': slot}} (support), got {_name(s)}"
            )


# Checks of the other value kinds of frame fields: (value, path, pack, player count).
_VALUE_CHECKS: dict[str, Callable[[Any, str, Pack, int], object]] = {
    "seat": lambda v, where, pack, n: _seat(v, where, n),
    "decider": _decider_value,
    "owner": lambda v, where, pack, n: _seat(v, where, n, -1),  # -1: the curer's own hand
    "madness": _madness_value,
    "spell": lambda v, where, pack, n: _id(v, pack.spells, where, "Spell"),
    "curse": lambda v, where, pack, n: _id(v, pack.curses, where, "Curse"),
    "action": lambda v, where, pack, n: _str(v, where, ACTS),
    "text": lambda v, where, pack, n: _str(v, where),
    "cost": _cost_value,
    "picks": _picks_value,
}


def _effect(f: dict, where: str, pack: Pack) -> None:
    """source / part / path name an op list (seq) or an op (tgt, op) of the pack; counts fit it."""
    key = (_str(f["source"], f"{where}.source"), _str(f["part"], f"{where}.part"))
    if key not in pack.effects:
        raise SaveError(f"{where}: no effect {f['part']!r} of card {_name(f['source'])} in the pack")
    path = _list(f["path"], f"{where}.path")
    ops: Any = pack.effects[key]
    op: dict | None = None
    for depth, idx in enumerate(path):
        if op is not None:
            if "ops" not in op:
                raise SaveError(f"{where}.path[{depth}]: op {op.get('op')!r} has no nested ops")
            ops = op["ops"]
        _int(idx, f"{where}.path[{depth}]", 0, len(ops) - 1)
        op = ops[idx]
    if f["kind"] == "seq":
        if op is not None:
            if "ops" not in op:
                raise SaveError(f"{where}.path: op {op.get('op')!r} has no nested ops")
            ops = op["ops"]
        _int(f["step"], f"{where}.step", 0, len(ops))
        return
    if op is None:
        raise SaveError(f"{where}.path: a {f['kind']} frame names one op; the path is empty")
    if f["kind"] == "op":
        from .ops import OPS

        if op["op"] not in OPS:
            raise SaveError(f"{where}.path: op {op['op']!r} is not one the engine runs")
        base, per_x = op.get("count", (1, 0))
        _int(f["count"], f"{where}.count", 0, max(0, base + per_x * f["x"]))


def _card_there(f: dict, where: str, data: dict) -> None:
    """The card an Action frame takes is still there (its payment comes first and never takes it)."""
    kind = f["kind"]
    if kind == "cure":
        if (f["owner"] >= 0) != ("slot" in f):
            raise SaveError(f"{where}: a cure frame has a slot exactly when it cures a support card")
        held = data["players"][f["player"]]["hand"][f["code"]] if f["owner"] < 0 else None
        support = [] if held is not None else [s["card"] for s in data["players"][f["owner"]]["support"]]
        if held == 0 or (held is None and f["code"] not in support):
            raise SaveError(f"{where}: the Madness card to cure ({f['code']}) is not where the frame says")
    elif kind == "learn" and not data["library"][f["element"]]:
        raise SaveError(f"{where}.element: the Library pile of Element {f['element']} is empty")
    elif kind == "acquire" and data["supply"][f["element"]][f["value"] - 2] < 1:
        raise SaveError(
            f"{where}: no card of Element {f['element']} and value {f['value']} is left in the supply"
        )


def _picks_held(f: dict, where: str, players: list | tuple) -> None:
    """Cards picked for a payment are still where they were picked (the payment is not made yet)."""
    hand = players[f["player"]]["hand"]
    used = [0] * NUM_CODES
    slots = set()
    for i, s in enumerate(f["picks"]):
        if "code" in s:
            used[s["code"]] += 1
            if used[s["code"]] > hand[s["code"]]:
                raise SaveError(f"{where}.picks[{i}]: the payer's hand holds no more card {s['code']}")
        else:
            q, k = s["seat"], s["slot"]
            support = players[q]["support"]
            # A slot with a crushed card pays with neither card (payment.usable_support).
            slot = support[k] if k < len(support) and (q, k) not in slots else None
            if slot is None or slot["card"] >= NUM_ELEMENT_CODES or slot["crushed"] != NO_CARD:
                raise SaveError(f"{where}.picks[{i}]: slot {k} of player {q} holds no card to pay with")
            slots.add((q, k))


def check_state(state: GameState) -> None:
    """The engine invariants of a state built from a checked save (SaveError when one fails)."""
    from .invariants import check_invariants

    try:
        check_invariants(state)
    except AssertionError as exc:
        raise SaveError(f"inconsistent save: {exc}") from None
    # A fact the structure check missed makes a rule handler fail while evaluating the pending
    # decision; that is still a bad save, never a crash of the loader.
    except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
        raise SaveError(f"inconsistent save: the pending decision cannot be evaluated ({exc!r})") from None
