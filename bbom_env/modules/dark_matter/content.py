"""The Dark Matter module's cards (docs/rules.md section 1.2; V-01, V-02, V-13, V-16, V-18):
four pack sections, each parsed into immutable cards. The cards themselves are in
``bbom_env/data/vth_dark_matter.toml`` (an override pack for the default pack).

* ``[[dark_curse]]`` (12): a Curse destroyed only with Dark Matter (4 by default, section 4.7);
* ``[[black_page]]`` (20): the Black Book's pages (V-01: 4 Covers, 12 Inside pages, 4 Back
  pages); each printed face is a Black Spell with a Dark Matter cost, no X (section 4.8), and a
  ``closes`` flag (V-02: by default the Back page's front closes the book);
* ``[[dark_grimoire]]`` (13): the Vth Grimoire cards (3 Covers, 10 Inside "Dark Monster" pages);
  a Monster's Curse symbols may include the Dark Matter symbol (V-16: in any position);
* ``[[vth_magician]]`` (4): the new Magicians (V-18), in the format of the base ``[[magician]]``.

A card whose effect the effect vocabulary (``engine/cards/vocab.py``) cannot say yet leaves ``effect``
empty and names, in ``needs``, the rule it waits for (e.g. the Dark Curse "Add 1
Dark Curse to the next Curse space", V-09): the catalogue shows it, and ``needs_of`` lists them.
Every error is a ``PackError`` naming the file, the entry and the field, as for base cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from bbom_env.engine.ext import (
    COMMON_FIELDS,
    MAX_COST,
    Curse,
    GrimoirePage,
    Magician,
    Monster,
    PackError,
    PackSection,
    check_arrival,
    check_fields,
    choice,
    int_in,
    labels,
    normalize_effect,
    opt,
    parse_magician,
    req,
    show,
)
from bbom_env.engine.model.constants import ELEMENT_NAMES

MODULE = "dark_matter"  # the module's name (state.NAME), the module field of its base cards
DARK_SYMBOL = "dark_matter"  # a Monster's Curse symbol that places a Dark Curse (section 9.1)
CURSE_SYMBOLS = ELEMENT_NAMES + (DARK_SYMBOL,)
DARK_CURSE_COST = 4  # "can only be destroyed with 4 Dark Matter" (section 4.7, V-07)
BOOK_KINDS = ("cover", "inside", "back")
# The printed faces of each Black Book card (section 1.2): a Cover's Black Spell is on its back,
# a Back page's on its front, an Inside page has one on each side.
BOOK_FACES = {"cover": ("back",), "inside": ("front", "back"), "back": ("front",)}
DARK_PAGE_KINDS = ("cover", "inside")  # the Vth Grimoire has no End page (section 2.2)


# -- helpers ---------------------------------------------------------------------------------------


def _needs(entry: dict, where: str) -> str:
    """The rule an effect the vocabulary cannot say waits for ("" when none)."""
    return str(opt(entry, "needs", "", where, str)).strip()


def _per_x(ops: Iterable[dict]) -> bool:
    """Whether any count (nested ones included) is a multiple of X."""
    for op in ops:
        count = op.get("count")
        if isinstance(count, tuple) and count[1]:
            return True
        if op["op"] == "may" and _per_x(op["ops"]):
            return True
    return False


def _effect(entry: dict, key: str, where: str, target: str) -> tuple[dict, ...]:
    return tuple(normalize_effect(opt(entry, key, [], where, list), f"{where}.{key}", target))


def _said(effect: tuple[dict, ...], needs: str, text: str, where: str) -> None:
    """A printed text is said somewhere: in the effect vocabulary, or in ``needs`` (what it waits for)."""
    if text and not effect and not needs:
        raise PackError(
            f"{where}: the text {show(text)} has neither an 'effect' nor 'needs' (the rule the module "
            "must add to say it)"
        )


# -- [[dark_curse]] --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DarkCurse:
    """A Dark Curse (section 9.1): placed like a Curse, destroyed only with Dark Matter."""

    id: str
    name: str
    text: str
    effect: tuple[dict, ...]
    cost: int  # Dark Matter cards to destroy it (4: section 4.7)
    needs: str
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def parse_dark_curse(e: dict, where: str) -> DarkCurse:
    check_fields(e, set(COMMON_FIELDS) | {"text", "effect", "cost", "needs"}, where)
    meta = labels(e, where)
    text = req(e, "text", where, str)
    # Curse effects target each player unless they say otherwise (section 3.3.3).
    effect, needs = _effect(e, "effect", where, "each"), _needs(e, where)
    _said(effect, needs, text, where)
    return DarkCurse(
        id=e["id"],
        name=req(e, "name", where, str),
        text=text,
        effect=effect,
        cost=int_in(e, "cost", where, 1, MAX_COST, DARK_CURSE_COST),
        needs=needs,
        **meta,
    )


def dark_curse_as_curse(card: DarkCurse) -> Curse:
    """A Dark Curse is a Curse of type "dark_matter" in a game with the module (section 9.1: "a
    Dark Curse is presented exactly like a classic Curse"): placed, triggered, neutralized and
    stacked by the base rules. Its Element cost is nothing: only its Dark Matter cost (``cost``,
    section 4.7) destroys it."""
    return Curse(
        id=card.id,
        name=card.name,
        type=DARK_SYMBOL,
        cost=(0, 0, 0, 0),
        text=card.text,
        effect=card.effect,
        provenance=card.provenance,
        source=card.source,
        notes=card.notes,
        known=card.known,
        module=MODULE,
    )


def dark_curse_effects(card: DarkCurse) -> list[tuple[str, tuple[dict, ...]]]:
    return [("effect", card.effect)] if card.effect else []


# -- [[black_page]] --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlackSpell:
    """One printed face of a Black Book card: its Black Spell (section 4.8, A-79: its "value" is
    its Dark Matter cost)."""

    cost: int
    text: str
    effect: tuple[dict, ...]
    closes: bool  # casting it closes the Black Book (V-02)
    needs: str = ""


@dataclass(frozen=True)
class BlackPage:
    """A Black Book card (V-01): a Cover (Black Spell on its back), an Inside page (both sides) or
    a Back page (Black Spell on its front)."""

    id: str
    name: str
    kind: str  # cover / inside / back
    front: BlackSpell | None
    back: BlackSpell | None
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def _black_spell(face: Any, where: str, closes_default: bool) -> BlackSpell:
    if not isinstance(face, dict):
        raise PackError(f"{where}: expected a table (cost, text, effect, closes, needs), got {show(face)}")
    check_fields(face, {"cost", "text", "effect", "closes", "needs"}, where)
    text = req(face, "text", where, str)
    effect, needs = _effect(face, "effect", where, "you"), _needs(face, where)
    if _per_x(effect):
        raise PackError(f"{where}.effect: a Black Spell has no X (section 4.8): write a fixed count")
    _said(effect, needs, text, where)
    return BlackSpell(
        cost=int_in(face, "cost", where, 1, MAX_COST),
        text=text,
        effect=effect,
        closes=opt(face, "closes", closes_default, where, bool),
        needs=needs,
    )


def parse_black_page(e: dict, where: str) -> BlackPage:
    check_fields(e, set(COMMON_FIELDS) | {"kind", "front", "back"}, where)
    kind = choice(e, "kind", where, BOOK_KINDS)
    faces: dict[str, BlackSpell | None] = {"front": None, "back": None}
    for side in ("front", "back"):
        if side in BOOK_FACES[kind]:
            # V-02: by default the Back page's front (the value-5 spell) closes the book.
            default = kind == "back" and side == "front"
            faces[side] = _black_spell(req(e, side, where, dict), f"{where}.{side}", default)
        elif side in e:
            printed = " and ".join(BOOK_FACES[kind])
            raise PackError(f"{where}.{side}: a {kind} page has a Black Spell only on its {printed}")
    meta = labels(e, where)
    return BlackPage(
        id=e["id"],
        name=req(e, "name", where, str),
        kind=kind,
        front=faces["front"],
        back=faces["back"],
        **meta,
    )


def black_page_effects(card: BlackPage) -> list[tuple[str, tuple[dict, ...]]]:
    faces = (("front_spell", card.front), ("back_spell", card.back))
    return [(part, face.effect) for part, face in faces if face is not None and face.effect]


# -- [[dark_grimoire]] -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DarkMonster:
    name: str
    curse_symbols: tuple[str, ...]  # Elements and "dark_matter", placed left to right
    arrival: tuple[dict, ...]
    text: str


@dataclass(frozen=True)
class DarkPage:
    """A Vth Grimoire card (section 2.2): a Cover (Monster on its back) or an Inside "Dark Monster"
    page (Bonus/Failure on its front, Monster on its back), as base ``[[grimoire]]`` pages."""

    id: str
    name: str  # the Monster's name (a page is named by its Monster)
    kind: str  # cover / inside
    monster: DarkMonster
    bonus: tuple[dict, ...]
    failure: tuple[dict, ...]
    bonus_text: str
    failure_text: str
    needs: str
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def _dark_monster(m: Any, where: str) -> DarkMonster:
    if not isinstance(m, dict):
        raise PackError(f"{where}: expected a table (name, curse_symbols, arrival, text), got {show(m)}")
    check_fields(m, {"name", "curse_symbols", "arrival", "text"}, where)
    symbols = req(m, "curse_symbols", where, list)
    for i, s in enumerate(symbols):
        if not isinstance(s, str) or s not in CURSE_SYMBOLS:
            raise PackError(f"{where}.curse_symbols[{i}]: {show(s)} is not one of {list(CURSE_SYMBOLS)}")
    if len(symbols) != 3:  # V-16: every Monster still shows exactly 3 Curse symbols
        raise PackError(f"{where}.curse_symbols: a Monster shows 3 Curse symbols (V-16), got {len(symbols)}")
    arrival = _effect(m, "arrival", where, "each")
    check_arrival(arrival, f"{where}.arrival")  # V-39, as for the base Monsters
    return DarkMonster(
        name=req(m, "name", where, str),
        curse_symbols=tuple(symbols),
        arrival=arrival,
        text=opt(m, "text", "", where, str),
    )


def parse_dark_page(e: dict, where: str) -> DarkPage:
    allowed = {"kind", "monster", "bonus", "failure", "bonus_text", "failure_text", "needs"}
    check_fields(e, (set(COMMON_FIELDS) - {"name"}) | allowed, where)
    kind = choice(e, "kind", where, DARK_PAGE_KINDS)
    if kind == "cover" and any(k in e for k in ("bonus", "failure", "bonus_text", "failure_text")):
        raise PackError(f"{where}: a Cover page has no Bonus/Failure side")
    monster = _dark_monster(req(e, "monster", where, dict), f"{where}.monster")
    meta = labels(e, where)
    return DarkPage(
        id=e["id"],
        name=monster.name,
        kind=kind,
        monster=monster,
        bonus=_effect(e, "bonus", where, "each"),
        failure=_effect(e, "failure", where, "each"),
        bonus_text=opt(e, "bonus_text", "", where, str),
        failure_text=opt(e, "failure_text", "", where, str),
        needs=_needs(e, where),
        **meta,
    )


def dark_page_as_page(card: DarkPage) -> GrimoirePage:
    """A Vth Grimoire card is a Grimoire page in a game with the module (section 2.2): its
    Monster places Dark Curses for its Dark Matter symbols by the base placement rules."""
    m = card.monster
    return GrimoirePage(
        id=card.id,
        kind=card.kind,
        monster=Monster(name=m.name, curse_symbols=m.curse_symbols, arrival=m.arrival, text=m.text),
        bonus=card.bonus,
        failure=card.failure,
        bonus_text=card.bonus_text,
        failure_text=card.failure_text,
        provenance=card.provenance,
        source=card.source,
        notes=card.notes,
        known=card.known,
        module=MODULE,
    )


def dark_page_effects(card: DarkPage) -> list[tuple[str, tuple[dict, ...]]]:
    parts = (("arrival", card.monster.arrival), ("bonus", card.bonus), ("failure", card.failure))
    return [(part, ops) for part, ops in parts if ops]


# -- [[vth_magician]] ------------------------------------------------------------------------------


@dataclass(frozen=True)
class VthMagician:
    """A Magician of The Vth Element (V-18: only with this module): a base ``[[magician]]`` sheet
    plus ``needs``, the rule its ability needs that the vocabulary cannot say yet."""

    id: str
    name: str
    sheet: Magician  # the fields of a base Magician sheet, parsed by the base parser
    needs: str
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def parse_vth_magician(e: dict, where: str) -> VthMagician:
    needs = _needs(e, where)
    # The base game's parser reads every other field (same format, same errors: docs/card_pack_format.md).
    sheet = parse_magician({k: v for k, v in e.items() if k != "needs"}, where)
    if sheet.ability_text and not (sheet.mods or sheet.activated or needs):
        raise PackError(
            f"{where}: the ability {show(sheet.ability_text)} has neither 'ability'/'activated' nor 'needs'"
        )
    return VthMagician(
        id=sheet.id,
        name=sheet.name,
        sheet=sheet,
        needs=needs,
        provenance=sheet.provenance,
        source=sheet.source,
        notes=sheet.notes,
        known=sheet.known,
    )


def vth_magician_as_magician(card: VthMagician) -> Magician:
    """A new Magician is a Magician sheet of the Magician choice in a game with the module (V-18)."""
    return replace(card.sheet, module=MODULE)


def vth_magician_effects(card: VthMagician) -> list[tuple[str, tuple[dict, ...]]]:
    return [("activated", card.sheet.activated)] if card.sheet.activated else []


# -- the sections ----------------------------------------------------------------------------------

DARK_CURSE = PackSection(
    "dark_curse",
    parse_dark_curse,
    dark_curse_effects,
    doc="Dark Curses (12)",
    base_table="curse",
    to_base=dark_curse_as_curse,
)
BLACK_PAGE = PackSection("black_page", parse_black_page, black_page_effects, doc="Black Book cards (20)")
DARK_GRIMOIRE = PackSection(
    "dark_grimoire",
    parse_dark_page,
    dark_page_effects,
    doc="Vth Grimoire cards (3 Covers, 10 Inside)",
    base_table="grimoire",
    to_base=dark_page_as_page,
)
VTH_MAGICIAN = PackSection(
    "vth_magician",
    parse_vth_magician,
    vth_magician_effects,
    doc="new Magicians (4)",
    base_table="magician",
    to_base=vth_magician_as_magician,
)
SECTIONS = (DARK_CURSE, BLACK_PAGE, DARK_GRIMOIRE, VTH_MAGICIAN)


def needs_of(sections: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(card id, part, needs) of every card text that waits for a rule (V-19: the Phobia module)."""
    for name in (s.name for s in SECTIONS):
        for card in sections.get(name, {}).values():
            if isinstance(card, BlackPage):
                for side, face in (("front", card.front), ("back", card.back)):
                    if face is not None and face.needs:
                        yield card.id, side, face.needs
            elif card.needs:
                yield card.id, "card", card.needs
