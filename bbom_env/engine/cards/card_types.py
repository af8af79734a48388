"""The base game's card kinds (docs/rules.md section 1; docs/card_pack_format.md): their immutable
records (``Magician``, ``Spell``, ``Curse``, ``Monster``, ``GrimoirePage``) and the parsers that read
one ``[[magician]]``, ``[[spell]]``, ``[[curse]]`` or ``[[grimoire]]`` entry of a pack file into one.

``pack.py`` loads whole packs (files, overrides, module sections) and re-exports these names.
Every error is a ``PackError`` naming the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from bbom_env.engine.cards.checks import (
    MAX_COST,
    MAX_SUPPORT_CAPACITY,
    MONSTER_SYMBOLS,
    check_fields,
    choice,
    element,
    int_in,
    labels,
    opt,
    req,
    starting_deck,
)
from bbom_env.engine.cards.vocab import PackError, normalize_effect, normalize_mod, show, walk_ops
from bbom_env.engine.model.constants import ELEMENT_NAMES, MAX_SPELLS

CURSE_TYPES = ELEMENT_NAMES + ("multi",)
PAGE_KINDS = ("cover", "inside", "end")


@dataclass(frozen=True, kw_only=True)
class _Labelled:
    """The labels of every base card (``checks.labels``): keyword-only, so each kind lists its own
    fields first."""

    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""  # partial cards: which part is the real card's
    module: str = ""  # the rules module whose pack section holds it ("" for the base game's)


@dataclass(frozen=True)
class Magician(_Labelled):
    id: str
    name: str
    element: int
    starting_deck: tuple[int, ...]  # card codes
    support_slots: int
    spell_limit: int
    ability_text: str
    mods: tuple[dict, ...]  # passive modifiers (hooks), see vocab.MOD_SCHEMAS
    activated: tuple[dict, ...]  # effect of the once-per-turn activated ability, or ()


@dataclass(frozen=True)
class Spell(_Labelled):
    id: str
    name: str
    basic: bool
    element: int
    level: int  # 0 for Basic Spells
    activation_cost: int
    learning_cost: int
    text: str
    effect: tuple[dict, ...]


@dataclass(frozen=True)
class Curse(_Labelled):
    id: str
    name: str
    type: str  # fire / water / earth / air / multi, or a module's Curse type (``rules.Module.curse_types``)
    cost: tuple[int, int, int, int]  # Elements per Element (section 4.4)
    text: str
    effect: tuple[dict, ...]


@dataclass(frozen=True)
class Monster:
    name: str
    curse_symbols: tuple[str, ...]
    arrival: tuple[dict, ...]
    text: str


@dataclass(frozen=True)
class GrimoirePage(_Labelled):
    id: str
    kind: str  # cover / inside / end
    monster: Monster | None  # on the back (cover, inside)
    bonus: tuple[dict, ...]  # on the front (inside, end)
    failure: tuple[dict, ...]
    bonus_text: str
    failure_text: str
    name: str = ""  # the End page's name (a page with a Monster is named by it)


# -- parsing one entry --------------------------------------------------------------------------


_COMMON = {"id", "name", "provenance", "source", "notes", "known"}
_MAGICIAN = {
    "element",
    "starting_deck",
    "support_slots",
    "spell_limit",
    "ability_text",
    "ability",
    "activated",
}


def parse_magician(e: dict, where: str) -> Magician:
    check_fields(e, _COMMON | _MAGICIAN, where)
    deck = starting_deck(req(e, "starting_deck", where, dict), f"{where}.starting_deck")
    abilities = opt(e, "ability", [], where, list)
    mods = tuple(normalize_mod(m, f"{where}.ability[{i}]") for i, m in enumerate(abilities))
    activated = tuple(normalize_effect(opt(e, "activated", [], where, list), f"{where}.activated"))
    meta = labels(e, where)
    return Magician(
        id=e["id"],
        name=req(e, "name", where, str),
        element=element(e, "element", where),
        starting_deck=deck,
        support_slots=int_in(e, "support_slots", where, 1, MAX_SUPPORT_CAPACITY, 3),
        spell_limit=int_in(e, "spell_limit", where, 4, MAX_SPELLS, 5),  # 4: the Basic Spells
        ability_text=opt(e, "ability_text", "", where, str),
        mods=mods,
        activated=activated,
        **meta,
    )


def _spell(e: dict, where: str) -> Spell:
    check_fields(
        e, _COMMON | {"kind", "element", "level", "activation_cost", "learning_cost", "text", "effect"}, where
    )
    kind = choice(e, "kind", where, ("basic", "library"))
    if kind == "library":
        level = int_in(e, "level", where, 1, 3)
    else:
        level = opt(e, "level", 0, where, int)
        if level != 0:
            raise PackError(f"{where}.level: a basic Spell has no level (leave it out), got {level}")
    cost = int_in(e, "activation_cost", where, 1, MAX_COST)
    meta = labels(e, where)
    return Spell(
        id=e["id"],
        name=req(e, "name", where, str),
        basic=kind == "basic",
        element=element(e, "element", where),
        level=level,
        activation_cost=cost,
        learning_cost=int_in(e, "learning_cost", where, 0, MAX_COST, 2),  # printed value
        text=req(e, "text", where, str),
        effect=tuple(normalize_effect(req(e, "effect", where, list), f"{where}.effect")),
        **meta,
    )


def _curse(e: dict, where: str) -> Curse:
    check_fields(e, _COMMON | {"type", "text", "effect", "cost"}, where)
    ctype = choice(e, "type", where, CURSE_TYPES)
    if "cost" in e:  # card text beats rules (section 8.1)
        table = req(e, "cost", where, dict)
        bad = sorted(set(table) - set(ELEMENT_NAMES))
        if bad:
            raise PackError(f"{where}.cost: unknown Element(s) {show(bad)}; Elements: {list(ELEMENT_NAMES)}")
        cost = tuple(int_in(table, n, f"{where}.cost", 0, MAX_COST, 0) for n in ELEMENT_NAMES)
    elif ctype == "multi":
        cost = (1, 1, 1, 1)  # section 4.4
    else:
        cost = tuple(4 if n == ctype else 0 for n in ELEMENT_NAMES)
    meta = labels(e, where)
    return Curse(
        id=e["id"],
        name=req(e, "name", where, str),
        type=ctype,
        cost=cost,  # type: ignore[arg-type]
        text=req(e, "text", where, str),
        effect=tuple(normalize_effect(req(e, "effect", where, list), f"{where}.effect", "each")),
        **meta,
    )


def _monster(m: dict, mw: str) -> Monster:
    check_fields(m, {"name", "curse_symbols", "arrival", "text"}, mw)
    symbols = req(m, "curse_symbols", mw, list)
    for i, s in enumerate(symbols):
        if not isinstance(s, str) or s not in ELEMENT_NAMES:
            raise PackError(f"{mw}.curse_symbols[{i}]: {show(s)} is not one of {list(ELEMENT_NAMES)}")
    if len(symbols) != MONSTER_SYMBOLS:
        raise PackError(
            f"{mw}.curse_symbols: a Monster shows {MONSTER_SYMBOLS} Curse symbols, got {len(symbols)}"
        )
    arrival = tuple(normalize_effect(opt(m, "arrival", [], mw, list), f"{mw}.arrival", "each"))
    check_arrival(arrival, f"{mw}.arrival")
    return Monster(
        name=req(m, "name", mw, str),
        curse_symbols=tuple(symbols),
        arrival=arrival,
        text=opt(m, "text", "", mw, str),
    )


def check_arrival(arrival: tuple[dict, ...] | list[dict], where: str) -> None:
    """V-39: a Monster's arrival effect that gives the Active Player a modifier lasts this turn
    only (the Active Player is whoever's turn it is; "until the next Monster" would follow that
    player into other turns), so the modifier op must say ``duration = "this_turn"``; an omitted
    duration (the vocabulary's default, "until_next_monster") is refused too, naming the field."""
    for path, op in walk_ops(arrival):
        if op["op"] == "modifier" and op.get("target") == "active" and op["duration"] != "this_turn":
            raise PackError(
                f"{where}{path}.duration: {show(op['duration'])}; a Monster's arrival modifier aimed at the "
                'Active Player lasts this turn only: write duration = "this_turn" (V-39)'
            )


def _page(e: dict, where: str) -> GrimoirePage:
    check_fields(e, _COMMON | {"kind", "monster", "bonus", "failure", "bonus_text", "failure_text"}, where)
    kind = choice(e, "kind", where, PAGE_KINDS)
    monster = None
    if kind in ("cover", "inside"):
        monster = _monster(req(e, "monster", where, dict), f"{where}.monster")
    elif "monster" in e:
        raise PackError(f"{where}.monster: the End page has no Monster on its back")
    if kind == "cover" and ("bonus" in e or "failure" in e):
        raise PackError(f"{where}: a Cover page has no Bonus/Failure side")
    if monster is not None and "name" in e:
        raise PackError(f"{where}.name: a page with a Monster is named by its monster.name")
    meta = labels(e, where)
    return GrimoirePage(
        id=e["id"],
        kind=kind,
        monster=monster,
        bonus=tuple(normalize_effect(opt(e, "bonus", [], where, list), f"{where}.bonus", "each")),
        failure=tuple(normalize_effect(opt(e, "failure", [], where, list), f"{where}.failure", "each")),
        bonus_text=opt(e, "bonus_text", "", where, str),
        failure_text=opt(e, "failure_text", "", where, str),
        name=opt(e, "name", "", where, str),
        **meta,
    )


BASE_PARSERS = {"magician": parse_magician, "spell": _spell, "curse": _curse, "grimoire": _page}
COMMON_FIELDS = frozenset(_COMMON)  # id, name, provenance, source, notes, known: every card has them
