"""The values of a save (``save_check.py``). The primitive checks: each checks one JSON value and
raises a ``SaveError`` whose message starts with the value's field path. The decision stack: every
frame is an object of a known kind with exactly its kind's keys (read from the frame types of
``frames.py``, so a module's frame kinds are checked like the base game's), each value of the kind
its type declares, effect paths that exist in the pack, one waiting frame at the top, and the cards
an Action or a payment takes still there."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from bbom_env.engine.cards.pack import Pack
from bbom_env.engine.core.state import SaveError
from bbom_env.engine.model.constants import (
    COST_PARTS,
    CURRENCY,
    MADNESS,
    MAX_POWER,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    code_name,
    is_madness,
)
from bbom_env.engine.model.frames import FRAME_TYPES, frame_schema
from bbom_env.engine.model.records import NO_CARD, HandSource, SupportSource
from bbom_env.engine.model.typed import check_json
from bbom_env.engine.model.typed import shown as _name
from bbom_env.engine.payment.cost import Cost


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


# The base game's card codes: Element cards and Madness (``rules.ruleset(()).card_codes``).
BASE_CODES: frozenset[int] = frozenset(range(MADNESS + 1))


def _code(v: Any, where: str, codes: frozenset[int] = BASE_CODES) -> int:
    """A card code of this game: ``codes`` are its ruleset's (``rules.Ruleset.card_codes``: the
    base game's, plus Dark Matter with the Dark Matter module, Phobias with the Phobia module)."""
    if type(v) is not int or v not in codes:
        if type(v) is int and 0 <= v < NUM_CODES:
            raise SaveError(
                f"{where}: unknown card code {v} ({code_name(v)}): not a card of this game, whose card "
                f"codes are {_codes_text(codes)} (a module's cards need that module in config.modules)"
            )
        raise SaveError(f"{where}: unknown card code {_name(v)} (card codes are {_codes_text(codes)})")
    return v


def _codes_text(codes: frozenset[int]) -> str:
    lo, hi = min(codes), max(codes)
    rest = "" if len(codes) == hi - lo + 1 else " (some only)"
    return f"{lo}..{hi}{rest}"


def _amounts(v: Any, where: str, length: int) -> None:
    """``length`` counts (of cards, of tokens)."""
    for i, n in enumerate(_list(v, where, length)):
        _int(n, f"{where}[{i}]", 0)


def _counts(v: Any, where: str, codes: frozenset[int] = BASE_CODES) -> None:
    """Counts by card code; a card code that is not of this game (``_code``) counts 0."""
    _amounts(v, where, NUM_CODES)
    for i, n in enumerate(v):
        if n and i not in codes:
            _code(i, f"{where}[{i}]", codes)


def _id(v: Any, table: dict, where: str, what: str) -> str:
    if type(v) is not str or v not in table:
        raise SaveError(f"{where}: unknown {what} id {_name(v)} (not in the pack)")
    return v


# -- the decision stack ---------------------------------------------------------------------------


class Game(NamedTuple):
    """What the value checks need of the saved game: its pack, its player count and the Actions a
    payment can be for (the base game's and its modules': ``Ruleset.pay_actions``)."""

    pack: Pack
    n: int
    pay_actions: tuple[str, ...]
    codes: frozenset[int] = BASE_CODES  # its card codes (``Ruleset.card_codes``)


def _frame(f: Any, where: str, game: Game, data: dict, top: bool) -> None:
    kind, schema = _frame_keys(f, where)
    players = data["players"]
    for key, (value_kind, _type) in schema.keys.items():
        if key in f:
            _frame_value(f[key], value_kind, f"{where}.{key}", game)
    _card_there(f, where, data)
    if "source" in f:
        _effect(f, where, game.pack)
    if f.get("decider") is not None:
        _decider(f, where, players, top)
    if kind == "pay":
        _picks_held(f, where, players, game.codes)


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


def _frame_value(v: Any, kind: str, where: str, game: Game) -> None:
    if kind in _RANGES:
        _int(v, where, *_RANGES[kind])
    elif kind in _VALUE_CHECKS:
        _VALUE_CHECKS[kind](v, where, game)
    elif kind != "effect":  # "effect" (source / part / path) is checked as a whole by _effect
        raise SaveError(f"{where}: the engine has no check for value kind {kind!r} (frames.py)")


def _madness_value(v: Any, where: str, game: Game) -> None:
    if not is_madness(_code(v, where, game.codes)):  # Madness, or a Phobia of this game (9.2)
        raise SaveError(f"{where}: card code {v} is not a Madness card")


def _cost_value(v: Any, where: str, game: Game) -> None:
    """A cost's compact form (``payment.Cost.compact``): its first five numbers (the base game's
    Element parts and ``any``) and, for a module's cost, the fields after them up to the last one
    that is not at its default, each checked by the type ``Cost`` declares for it."""
    parts = _list(v, where)
    if not COST_PARTS <= len(parts) <= len(Cost._fields):
        raise SaveError(
            f"{where}: a cost has {COST_PARTS} to {len(Cost._fields)} parts (payment.Cost), got {_name(v)}"
        )
    for i, (name, x) in enumerate(zip(Cost._fields, parts, strict=False)):
        w = f"{where}[{i}]"
        check_json(_COST_TYPES[name], x, w)  # an int, a bool, or the Elements of a one-of-a-set surcharge
        if type(x) is int:
            _int(x, w, 0)
        for j, e in enumerate(x if type(x) is list else ()):
            _int(e, f"{w}[{j}]", 0, NUM_ELEMENTS - 1)


_COST_TYPES = typing.get_type_hints(Cost)


def _picks_value(v: Any, where: str, game: Game) -> None:
    for i, s in enumerate(_list(v, where)):
        w = f"{where}[{i}]"
        if type(s) is dict and set(s) == set(HandSource._fields):
            # An Element card, or the game's currency (Dark Matter, section 4.0) if it has one.
            if not (type(s["code"]) is int and s["code"] == CURRENCY and CURRENCY in game.codes):
                _int(s["code"], f"{w}.code", 0, NUM_ELEMENT_CODES - 1)
        elif type(s) is dict and set(s) == set(SupportSource._fields):
            _seat(s["seat"], f"{w}.seat", game.n)
            _int(s["slot"], f"{w}.slot", 0, MAX_SUPPORT_SLOTS - 1)
        else:
            raise SaveError(
                f"{w}: expected a payment source, {{'code': card code}} (hand) or "
                f"{{'seat': seat, 'slot': slot}} (support), got {_name(s)}"
            )


# Checks of the other value kinds of frame fields: (value, path, pack, player count).
_VALUE_CHECKS: dict[str, Callable[[Any, str, Game], object]] = {
    "seat": lambda v, where, game: _seat(v, where, game.n),
    "decider": lambda v, where, game: v is None or _seat(v, where, game.n),  # None: nobody waits
    "owner": lambda v, where, game: _seat(v, where, game.n, -1),  # -1: the curer's own hand
    "madness": _madness_value,
    "spell": lambda v, where, game: _id(v, game.pack.spells, where, "Spell"),
    "curse": lambda v, where, game: _id(v, game.pack.curses, where, "Curse"),
    "action": lambda v, where, game: _str(v, where, game.pay_actions),
    "text": lambda v, where, game: _str(v, where),
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
    # A seq frame names the op list below the op at its path: one step further down.
    for depth, idx in enumerate([*path, None] if f["kind"] == "seq" else path):
        if op is not None:
            if "ops" not in op:
                raise SaveError(f"{where}.path[{depth}]: op {op.get('op')!r} has no nested ops")
            ops = op["ops"]
        if idx is not None:
            op = ops[_int(idx, f"{where}.path[{depth}]", 0, len(ops) - 1)]
    if f["kind"] == "seq":
        _int(f["step"], f"{where}.step", 0, len(ops))
        return
    if op is None:
        raise SaveError(f"{where}.path: a {f['kind']} frame names one op; the path is empty")
    if f["kind"] == "op":
        from bbom_env.engine.play.ops import OPS

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


def _picks_held(f: dict, where: str, players: list | tuple, codes: frozenset[int] = BASE_CODES) -> None:
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
            card = slot["card"] if slot is not None else NO_CARD
            # An Element card, or the game's currency (Dark Matter, section 4.0) if it has one.
            payable = 0 <= card < NUM_ELEMENT_CODES or (card == CURRENCY and CURRENCY in codes)
            if slot is None or not payable or slot["crushed"] != NO_CARD:
                raise SaveError(f"{where}.picks[{i}]: slot {k} of player {q} holds no card to pay with")
            slots.add((q, k))
