"""The effect vocabulary: the verbs card effects are written in (RULES.md sections 7 and 10.5).

An effect is a list of ops; each op is a TOML table ``{op = "draw", target = "each", count = "X"}``.
This module holds the schema of every op and of the standing modifiers (Magician abilities and
"until the next Monster" effects) and normalises card data on load: every parameter gets its default,
so the interpreter (``ops.py``) never guesses. Validation errors name the file, card and field.
"""

from __future__ import annotations

from typing import Any

from .constants import ELEMENT_NAMES

TARGETS = ("you", "each", "each_other", "a_player", "another_player", "active")
DURATIONS = ("until_next_monster", "this_turn", "game")
ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "all")
ELEMENT_CHOICES = ELEMENT_NAMES + ("choose", "random", "any", "same", "curse", "spell")
EVENTS = ("turn_start", "action_phase_start", "reshuffle", "curse_destroyed")


class PackError(ValueError):
    """A card pack is invalid; the message names the file, the card id and the field."""


# Parameter spec: name -> (kind, default). kind is a tuple of allowed strings, or one of
# "count", "int", "bool", "ops", "mod", "element".
_T = ("target", TARGETS)
OP_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "draw": {"target": (TARGETS, "you"), "count": ("count", 1)},
    "discard": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "from": (("hand", "support"), "hand"),
        "filter": (("any", "element", "madness"), "any"),
        "optional": ("bool", False),
    },
    "destroy": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "from": (("hand", "discard", "support", "deck_top"), "hand"),
        "filter": (("any", "element", "madness"), "any"),
        "optional": ("bool", False),
    },
    "place_in_support": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "optional": ("bool", False),
    },
    "receive_madness": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "to": (("discard", "support", "deck_top", "hand"), "discard"),
        "full_support": (("exceed", "replace"), "exceed"),
    },
    "cure": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "from": (("hand", "support", "discard", "deck", "discard_and_deck"), "hand"),
    },
    "exchange": {"target": (TARGETS, "a_player"), "count": ("count", 1)},
    "neutralize_curse": {"count": ("count", 1)},
    "neutralize_spell": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "duration": (("until_next_monster", "this_turn"), "until_next_monster"),
    },
    "exhaust_spell": {"target": (TARGETS, "you"), "count": ("count", 1)},
    "refresh_spell": {"target": (TARGETS, "you"), "count": ("count", 1)},
    "lose_spell": {"target": (TARGETS, "you"), "count": ("count", 1)},
    "put_on_top": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "from": (("hand", "discard"), "hand"),
        "optional": ("bool", False),
    },
    "upgrade": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "from": (("hand", "discard"), "hand"),
        "optional": ("bool", False),
    },
    "grant_actions": {"target": (TARGETS, "another_player"), "count": ("count", 1)},
    "add_tokens": {
        "curse": (("choose", "slot", "all"), "choose"),
        "slot": ("int", 0),
        "count": ("count", 1),
        "element": (("random", "curse") + ELEMENT_NAMES, "random"),
    },
    "remove_tokens": {"curse": (("choose", "all"), "choose"), "count": ("count", 1)},
    "move_marker": {"steps": ("int", -1)},
    "gain": {
        "target": (TARGETS, "you"),
        "count": ("count", 1),
        "element": (ELEMENT_NAMES + ("choose", "spell"), "choose"),
        "value": ("int", 2),
        "to": (("discard", "hand", "deck_top"), "discard"),
    },
    "madness_under_curses": {},
    "discard_deck_top": {"target": (TARGETS, "you"), "count": ("count", 1)},
    "destroy_curse": {"count": ("count", 1), "reward": ("bool", False)},
    "modifier": {
        "target": (TARGETS, "you"),
        "mod": ("mod", None),
        "duration": (DURATIONS, "until_next_monster"),
    },
    "may": {"target": (TARGETS, "you"), "ops": ("ops", None)},
    "reshuffle": {"target": (TARGETS, "you")},
}

MOD_SCHEMAS: dict[str, dict[str, tuple[Any, Any]]] = {
    "support_slots": {"amount": ("int", 1)},
    "spell_limit": {"amount": ("int", 1)},
    "hand_size": {"amount": ("int", -1)},
    # Cost change for Actions of the modifier's owner (section 4.10): +n / -n Elements.
    "cost": {
        "action": (ACTIONS, "all"),
        "element": (ELEMENT_NAMES + ("any", "same"), "same"),
        "amount": ("int", 1),
    },
    "forbid": {"action": (ACTIONS, "all"), "element": (ELEMENT_NAMES + ("any",), "any")},
    "no_support_payment": {},
    "trigger": {"event": (EVENTS, "turn_start"), "effect": ("ops", None)},
}


def parse_count(value: Any, where: str) -> tuple[int, int]:
    """A count is an int, "X" or "<k>X" (section 4.1: X multiplies the marked part), or "all"."""
    if isinstance(value, bool):
        raise PackError(f"{where}: count must be an int, 'X', '<k>X' or 'all', not {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise PackError(f"{where}: count must be >= 0, not {value}")
        return (value, 0)
    if isinstance(value, str):
        s = value.strip()
        if s == "all":
            return (99, 0)
        if s.endswith("X"):
            k = s[:-1] or "1"
            if k.isdigit() and int(k) > 0:
                return (0, int(k))
    raise PackError(f"{where}: count must be an int, 'X', '<k>X' or 'all', not {value!r}")


def _check_param(kind: Any, value: Any, where: str) -> Any:
    if isinstance(kind, tuple):
        if value not in kind:
            raise PackError(f"{where}: {value!r} is not one of {list(kind)}")
        return value
    if kind == "count":
        return parse_count(value, where)
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PackError(f"{where}: expected an int, got {value!r}")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise PackError(f"{where}: expected true/false, got {value!r}")
        return value
    if kind == "ops":
        return normalize_effect(value, where)
    if kind == "mod":
        return normalize_mod(value, where, allow_trigger=False)
    raise AssertionError(kind)


def _normalize(
    table: Any,
    key: str,
    schemas: dict[str, dict[str, tuple[Any, Any]]],
    where: str,
    default_target: str = "you",
) -> dict:
    if not isinstance(table, dict):
        raise PackError(f"{where}: expected a table with '{key}', got {table!r}")
    name = table.get(key)
    if name not in schemas:
        raise PackError(f"{where}.{key}: unknown {key} {name!r}; known: {sorted(schemas)}")
    schema = schemas[name]
    extra = sorted(set(table) - set(schema) - {key})
    if extra:
        raise PackError(f"{where} ({key} {name}): unknown field(s) {extra}; allowed: {sorted(schema)}")
    out: dict[str, Any] = {key: name}
    for param, (kind, default) in schema.items():
        if param == "target" and default == "you":
            default = default_target
        if param in table:
            out[param] = _check_param(kind, table[param], f"{where}.{param}")
        elif default is None:
            raise PackError(f"{where} ({key} {name}): missing field '{param}'")
        else:
            out[param] = _check_param(kind, default, f"{where}.{param}")
    return out


def normalize_effect(ops: Any, where: str, default_target: str = "you") -> list[dict]:
    """Validate an effect (a list of op tables) and fill in defaults.

    ``default_target`` is "you" for Spells and abilities and "each" for Curses and Grimoire
    effects, which affect all players unless they say otherwise (section 3.3.3)."""
    if not isinstance(ops, list):
        raise PackError(f"{where}: an effect must be a list of op tables, got {type(ops).__name__}")
    return [_normalize(op, "op", OP_SCHEMAS, f"{where}[{i}]", default_target) for i, op in enumerate(ops)]


def normalize_mod(mod: Any, where: str, allow_trigger: bool = True) -> dict:
    out = _normalize(mod, "kind", MOD_SCHEMAS, where)
    if out["kind"] == "trigger" and not allow_trigger:
        raise PackError(f"{where}.kind: 'trigger' modifiers belong on Magician sheets only")
    return out


def ops_used(effect: list[dict]) -> set[str]:
    """Every op name in an effect, nested ones included (for vocabulary coverage tests)."""
    out: set[str] = set()
    for op in effect:
        out.add(op["op"])
        if op["op"] == "may":
            out |= ops_used(op["ops"])
        if op["op"] == "modifier" and op["mod"]["kind"] == "trigger":
            out |= ops_used(op["mod"]["effect"])
    return out
