"""The effect vocabulary: the verbs card effects are written in (docs/rules.md sections 7 and 10.5).

An effect is a list of ops; each op is a TOML table ``{op = "draw", target = "each", count = "X"}``.
This module holds the schema of every op and of the standing modifiers (Magician abilities and
"until the next Monster" effects) and normalises card data on load: every parameter gets its default,
so the interpreter (``ops.py``) never guesses. Validation errors name the file, card and field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bbom_env.engine.model.constants import (
    ELEMENT_NAMES,
    HAND_SIZE,
    MAX_SPELLS,
    NUM_TRACK_SLOTS,
    SPELL_LIMIT,
    SUPPORT_SLOTS,
)
from bbom_env.engine.model.typed import shown as show  # the one repr cut for error messages

TARGETS = ("you", "each", "each_other", "a_player", "another_player", "active")
DURATIONS = ("until_next_monster", "this_turn", "game")
ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "all")
EVENTS = ("turn_start", "action_phase_start", "reshuffle", "curse_destroyed")


class PackError(ValueError):
    """A card pack is invalid; the message names the file, the card id and the field."""


@dataclass(frozen=True)
class IntRange:
    """The kind of an int parameter: every value from ``lo`` to ``hi`` (both included). Every number
    of the vocabulary is bounded: an unbounded count or step would hang a game or exhaust memory."""

    lo: int
    hi: int

    def __str__(self) -> str:
        return f"{self.lo}..{self.hi}"


# Counts (docs/card_pack_format.md, "Numbers"): an int 0..MAX_COUNT, or "<k>X" with k 1..MAX_X_FACTOR
# (X is at most 3, so "<k>X" also stays within MAX_COUNT). "all" is stored as ALL_COUNT.
MAX_COUNT = 30
MAX_X_FACTOR = 10
ALL_COUNT = 99
_PER_X = re.compile(r"([0-9]*)X")
# ``may`` inside ``may``: a few levels say everything a card says; deeper nesting is refused before
# it can exhaust the interpreter's stack.
MAX_MAY_DEPTH = 3
# Rule points a "replace" modifier can change (hooks.RULE_POINTS says what each one counts).
RULE_POINT_NAMES = (
    "reshuffle_madness",
    "marker_steps",
    "concentration_refresh",
    "curse_part_times",
    "hand_size",
)

# Parameter spec: name -> (kind, default). kind is a tuple of allowed strings, an IntRange, or one
# of "count", "bool", "ops", "mod". Most ops start with a target ("you") and a count (1).
_TC: dict[str, tuple[Any, Any]] = {"target": (TARGETS, "you"), "count": ("count", 1)}
_OPTIONAL: dict[str, tuple[Any, Any]] = {"optional": ("bool", False)}
_FILTER = (("any", "element", "madness"), "any")
_HAND_OR_DISCARD = (("hand", "discard"), "hand")
OP_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "draw": {**_TC},
    "discard": {**_TC, "from": (("hand", "support"), "hand"), "filter": _FILTER, **_OPTIONAL},
    "destroy": {
        **_TC,
        "from": (("hand", "discard", "support", "deck_top"), "hand"),
        "filter": _FILTER,
        **_OPTIONAL,
    },
    "place_in_support": {**_TC, **_OPTIONAL},
    "receive_madness": {
        **_TC,
        "to": (("discard", "support", "deck_top", "hand"), "discard"),
        "full_support": (("exceed", "replace"), "exceed"),
    },
    "cure": {**_TC, "from": (("hand", "support", "discard", "deck", "discard_and_deck"), "hand")},
    "exchange": {"target": (TARGETS, "a_player"), "count": ("count", 1)},
    "neutralize_curse": {"count": ("count", 1)},
    "neutralize_spell": {**_TC, "duration": (("until_next_monster", "this_turn"), "until_next_monster")},
    "exhaust_spell": {**_TC},
    "refresh_spell": {**_TC},
    "lose_spell": {**_TC},
    "put_on_top": {**_TC, "from": _HAND_OR_DISCARD, **_OPTIONAL},
    "upgrade": {**_TC, "from": _HAND_OR_DISCARD, **_OPTIONAL},
    "grant_actions": {"target": (TARGETS, "another_player"), "count": ("count", 1)},
    "add_tokens": {
        "curse": (("choose", "slot", "all"), "choose"),
        "slot": (IntRange(0, NUM_TRACK_SLOTS - 1), 0),
        "count": ("count", 1),
        "element": (("random", "curse") + ELEMENT_NAMES, "random"),
    },
    "remove_tokens": {"curse": (("choose", "all"), "choose"), "count": ("count", 1)},
    "move_marker": {"steps": (IntRange(-5, 5), -1)},  # the track has 5 spaces after Invocation
    "gain": {
        **_TC,
        "element": (ELEMENT_NAMES + ("choose", "spell"), "choose"),
        "value": (IntRange(1, 3), 2),
        "to": (("discard", "hand", "deck_top"), "discard"),
    },
    "madness_under_curses": {},
    "discard_deck_top": {**_TC},
    "destroy_curse": {"count": ("count", 1), "reward": ("bool", False)},
    "modifier": {
        "target": (TARGETS, "you"),
        "mod": ("mod", None),
        "duration": (DURATIONS, "until_next_monster"),
    },
    "may": {"target": (TARGETS, "you"), "ops": ("ops", None)},
    "reshuffle": {"target": (TARGETS, "you")},
}

# Modifier amounts: a raised Spell limit must fit the action layout's MAX_SPELLS Spell slots; hand
# sizes stay 1..12 (the observation scales hand sizes by 1/12); costs move by at most 10 Elements.
MOD_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "support_slots": {"amount": (IntRange(-(SUPPORT_SLOTS + 2), 4), 1)},
    "spell_limit": {"amount": (IntRange(-(SPELL_LIMIT - 1), MAX_SPELLS - 4), 1)},
    "hand_size": {"amount": (IntRange(1 - HAND_SIZE, HAND_SIZE), -1)},
    # Cost change for Actions of the modifier's owner (section 4.10): +n / -n Elements.
    "cost": {
        "action": (ACTIONS, "all"),
        "element": (ELEMENT_NAMES + ("any", "same"), "same"),
        "amount": (IntRange(-10, 10), 1),
    },
    "forbid": {"action": (ACTIONS, "all"), "element": (ELEMENT_NAMES + ("any",), "any")},
    "no_support_payment": {},
    "trigger": {"event": (EVENTS, "turn_start"), "effect": ("ops", None)},
}
BASE_MODIFIER_KINDS: tuple[str, ...] = tuple(sorted(MOD_SCHEMAS))  # the base game's kinds
# Modifier kinds that only a module enables (docs/rules.md section 9.2: the Phobias). The engine reads
# these ("replace" at the rule points of hooks.RULE_POINTS, "lose_ability" in hooks.ability_lost,
# "cure_only" in actions.legal_cure: the player's Cure Action may target only the card whose
# modifier source yields it, with that card's ``code``, V-31), but a card may use one only in a
# game whose module set declares it (``Module.modifier_kinds``;
# ``checks.check_module_kinds`` refuses the game otherwise), so a base game never
# sees them. A module adds kinds of its own with ``Module.modifier_schemas``
# (``register_mod_kind``, to ALL_MOD_SCHEMAS alone).
MODULE_MOD_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "replace": {"point": (RULE_POINT_NAMES, None), "value": (IntRange(0, 10), None)},
    "lose_ability": {},
    "cure_only": {},
}
# Every kind a pack file may be written with: the base's, then the module kinds (see above), then
# the registered modules' own kinds.
ALL_MOD_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {**MOD_SCHEMAS, **MODULE_MOD_SCHEMAS}


# The base game's ops: a module adds its own (``register_op``) and removes only those.
BASE_OPS: frozenset[str] = frozenset(OP_SCHEMAS)


def check_new(what: str, name: Any, known: dict, schema: dict, key: str) -> None:
    """A module's new op or modifier kind: a plain name, not known with another schema, and no
    parameter named like the entry's own tag (``key``: "op" / "kind")."""
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"{what} {name!r}: a name of lower-case letters, digits and '_'")
    if name in known and known[name] != schema:
        raise ValueError(f"{what} {name!r} is already known with another schema")
    if key in schema:
        raise ValueError(f"{what} {name!r}: {key!r} cannot be a parameter name")


def register_op(name: str, schema: dict[str, tuple[Any, Any]]) -> None:
    """Make a module's own effect op known to the pack loader (``rules.register`` calls it; the
    module registers the op's handler with ``ops.auto_op`` / ``ops.choice_op``)."""
    check_new("op", name, OP_SCHEMAS, schema, "op")
    OP_SCHEMAS[name] = schema


def unregister_op(name: str) -> None:
    """Forget a module's own op (``rules.unregister``); the base game's stay."""
    if name in BASE_OPS:
        raise ValueError(f"op {name!r} belongs to the base game and cannot be unregistered")
    OP_SCHEMAS.pop(name, None)


def register_mod_kind(kind: str, schema: dict[str, tuple[Any, Any]]) -> None:
    """Make a module's own modifier kind known to the pack loader (``rules.register`` calls it)."""
    check_new("modifier kind", kind, ALL_MOD_SCHEMAS, schema, "kind")
    ALL_MOD_SCHEMAS[kind] = schema


def unregister_mod_kind(kind: str) -> None:
    """Forget a module's own kind (``rules.unregister``); the base's and the engine's stay."""
    if kind in MOD_SCHEMAS or kind in MODULE_MOD_SCHEMAS:
        raise ValueError(f"modifier kind {kind!r} belongs to the engine and cannot be unregistered")
    ALL_MOD_SCHEMAS.pop(kind, None)


_COUNT_FORMS = f"an int 0..{MAX_COUNT}, 'X', '<k>X' (k 1..{MAX_X_FACTOR}) or 'all'"


def parse_count(value: Any, where: str) -> tuple[int, int]:
    """A count is an int, "X" or "<k>X" (section 4.1: X multiplies the marked part), or "all".

    Returns (base, per_x): the count is ``base + per_x * X``."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= MAX_COUNT:
            raise PackError(f"{where}: count must be {_COUNT_FORMS}, not {value}")
        return (value, 0)
    if isinstance(value, str):
        s = value.strip()
        if s == "all":
            return (ALL_COUNT, 0)
        # ASCII digits only: str.isdigit() accepts "²", which int() refuses.
        m = _PER_X.fullmatch(s)
        if m and len(m.group(1)) <= 3 and 1 <= int(m.group(1) or "1") <= MAX_X_FACTOR:
            return (0, int(m.group(1) or "1"))
    raise PackError(f"{where}: count must be {_COUNT_FORMS}, not {show(value)}")


def _type_name(value: Any) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean", float: "a float"}.get(
        type(value), type(value).__name__
    )


def _check_param(kind: Any, value: Any, where: str, depth: int) -> Any:
    if isinstance(kind, tuple):
        if not isinstance(value, str) or value not in kind:
            raise PackError(f"{where}: {show(value)} is not one of {list(kind)}")
        return value
    if isinstance(kind, IntRange):
        if isinstance(value, bool) or not isinstance(value, int):
            raise PackError(f"{where}: expected an int {kind}, got {_type_name(value)} {show(value)}")
        if not kind.lo <= value <= kind.hi:
            raise PackError(f"{where}: expected an int {kind}, got {value}")
        return value
    if kind == "count":
        return parse_count(value, where)
    if kind == "bool":
        if not isinstance(value, bool):
            raise PackError(f"{where}: expected true/false, got {show(value)}")
        return value
    if kind == "ops":
        return normalize_effect(value, where, depth=depth)
    if kind == "mod":
        return normalize_mod(value, where, allow_trigger=False, depth=depth)
    raise AssertionError(kind)


def _normalize(
    table: Any,
    key: str,
    schemas: dict[str, dict[str, tuple[Any, Any]]],
    where: str,
    default_target: str = "you",
    depth: int = 0,
) -> dict:
    if not isinstance(table, dict):
        raise PackError(f"{where}: expected a table with '{key}', got {_type_name(table)} {show(table)}")
    name = table.get(key)
    if not isinstance(name, str) or name not in schemas:  # a list or table is not hashable
        raise PackError(f"{where}.{key}: unknown {key} {show(name)}; known: {sorted(schemas)}")
    schema = schemas[name]
    extra = sorted(set(table) - set(schema) - {key})
    if extra:
        raise PackError(f"{where} ({key} {name}): unknown field(s) {extra}; allowed: {sorted(schema)}")
    out: dict[str, Any] = {key: name}
    inner = depth + 1 if name == "may" else depth  # only "may" nests (a trigger's effect does not)
    for param, (kind, default) in schema.items():
        if param == "target" and default == "you":
            default = default_target
        if param in table:
            out[param] = _check_param(kind, table[param], f"{where}.{param}", inner)
        elif default is None:
            raise PackError(f"{where} ({key} {name}): missing field '{param}'")
        else:
            out[param] = _check_param(kind, default, f"{where}.{param}", inner)
    return out


def normalize_effect(ops: Any, where: str, default_target: str = "you", depth: int = 0) -> list[dict]:
    """Validate an effect (a list of op tables) and fill in defaults.

    ``default_target`` is "you" for Spells and abilities and "each" for Curses and Grimoire
    effects, which affect all players unless they say otherwise (section 3.3.3). ``depth`` counts
    the ``may`` levels around this effect (at most MAX_MAY_DEPTH)."""
    if not isinstance(ops, list):
        got = f"{_type_name(ops)} {show(ops)}"
        raise PackError(f"{where}: an effect must be an array of op tables, got {got}")
    if depth > MAX_MAY_DEPTH:
        raise PackError(f"{where}: 'may' is nested more than {MAX_MAY_DEPTH} levels deep")
    return [
        _normalize(op, "op", OP_SCHEMAS, f"{where}[{i}]", default_target, depth) for i, op in enumerate(ops)
    ]


def normalize_mod(mod: Any, where: str, allow_trigger: bool = True, depth: int = 0) -> dict:
    """Validate a modifier. ``allow_trigger`` is True on Magician sheets (a standing ability) and
    False for the ``modifier`` op (a temporary modifier)."""
    out = _normalize(mod, "kind", ALL_MOD_SCHEMAS, where, depth=depth)
    if allow_trigger:
        return out
    if out["kind"] == "trigger":
        raise PackError(f"{where}.kind: 'trigger' modifiers belong on Magician sheets only")
    if out["kind"] in ("spell_limit", "support_slots") and out["amount"] > 0:
        # The same effect can resolve again before it ends (a refreshed Spell, granted Actions), so
        # temporary raises stack without bound, past the layout's Spell and support slots.
        raise PackError(
            f"{where}.amount: a temporary {out['kind']} modifier cannot raise it (amount {out['amount']}):"
            f" raises stack past the action layout; write a raise as a Magician ability"
        )
    return out


def walk_ops(effect: Iterable[dict], path: str = "") -> Iterator[tuple[str, dict]]:
    """(path, op) of every op of a normalised effect, those nested in ``may`` (or in a module op's
    ``ops``) included: the path from the effect, e.g. ``[0].ops[1]``."""
    for i, op in enumerate(effect):
        yield f"{path}[{i}]", op
        if "ops" in op:
            yield from walk_ops(op["ops"], f"{path}[{i}].ops")


def ops_used(effect: Iterable[dict]) -> set[str]:
    """Every op name in an effect, nested ones included (for vocabulary coverage tests)."""
    return {op["op"] for _path, op in walk_ops(effect)}
