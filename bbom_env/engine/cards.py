"""Card packs: cards as data (../shared/cards/README.md), loaded from TOML and validated.

A pack has the sections ``[pack]``, ``[round_track]``, ``[[magician]]``, ``[[spell]]``,
``[[curse]]`` and ``[[grimoire]]``; docs/card_pack_format.md describes every field. Every card
carries ``provenance`` (printed / partial / reconstructed). Errors name the file, the card and the
field. Override packs replace cards by id (and may replace the round track).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .constants import ELEMENT_BY_NAME, ELEMENT_NAMES, NUM_ELEMENT_CODES, element_code
from .vocab import PackError, normalize_effect, normalize_mod, ops_used

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
NAMED_PACKS = {"default": DATA_DIR / "base_pack.toml", "test": DATA_DIR / "test_pack.toml"}
PROVENANCES = ("printed", "partial", "reconstructed")
CURSE_TYPES = ELEMENT_NAMES + ("multi",)
PAGE_KINDS = ("cover", "inside", "end")


@dataclass(frozen=True)
class Magician:
    id: str
    name: str
    element: int
    starting_deck: tuple[int, ...]  # card codes
    support_slots: int
    spell_limit: int
    ability_text: str
    mods: tuple[dict, ...]  # passive modifiers (hooks), see vocab.MOD_SCHEMAS
    activated: tuple[dict, ...]  # effect of the once-per-turn activated ability, or ()
    provenance: str
    source: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    basic: bool
    element: int
    level: int  # 0 for Basic Spells
    activation_cost: int
    learning_cost: int
    text: str
    effect: tuple[dict, ...]
    provenance: str
    source: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Curse:
    id: str
    name: str
    type: str  # fire / water / earth / air / multi
    cost: tuple[int, int, int, int]  # Elements per Element (section 4.4)
    text: str
    effect: tuple[dict, ...]
    provenance: str
    source: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Monster:
    name: str
    curse_symbols: tuple[str, ...]
    arrival: tuple[dict, ...]
    text: str


@dataclass(frozen=True)
class GrimoirePage:
    id: str
    kind: str  # cover / inside / end
    monster: Monster | None  # on the back (cover, inside)
    bonus: tuple[dict, ...]  # on the front (inside, end)
    failure: tuple[dict, ...]
    bonus_text: str
    failure_text: str
    provenance: str
    source: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Pack:
    id: str
    name: str
    files: tuple[str, ...]
    round_track: tuple[tuple[int, ...], ...]  # [level-1][round-1] -> Multi-Element Curses
    round_track_provenance: str
    magicians: dict[str, Magician]
    spells: dict[str, Spell]
    curses: dict[str, Curse]
    pages: dict[str, GrimoirePage]
    effects: dict[tuple[str, str], tuple[dict, ...]] = field(default_factory=dict)
    spec: tuple[str, tuple[str, ...]] = ("", ())  # (pack, overrides) as given to load_pack

    def __reduce__(self) -> tuple:
        # Pickle by reference: a state pickles small, and unpickles to the same cached pack.
        return (_load_cached, self.spec)

    @property
    def basic_spells(self) -> list[Spell]:
        return [s for s in self.spells.values() if s.basic]

    def library(self, element: int, level: int) -> list[Spell]:
        return [s for s in self.spells.values() if not s.basic and s.element == element and s.level == level]

    def effect(self, src: str, part: str) -> tuple[dict, ...]:
        """The effect list of card ``src``: part is effect / arrival / bonus / failure / ability /
        activated."""
        return self.effects[(src, part)]

    def all_ops(self) -> set[str]:
        out: set[str] = set()
        for eff in self.effects.values():
            out |= ops_used(list(eff))
        for m in self.magicians.values():
            for mod in m.mods:
                if mod["kind"] == "trigger":
                    out |= ops_used(mod["effect"])
        return out

    def card_name(self, card_id: str) -> str:
        for table in (self.spells, self.curses, self.magicians):
            if card_id in table:
                return table[card_id].name
        if card_id in self.pages:
            page = self.pages[card_id]
            return page.monster.name if page.monster else page.id
        return card_id


# ---------------------------------------------------------------------------------------------
# Loading


def _req(entry: dict, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in entry:
        raise PackError(f"{where}: missing field '{key}'")
    value = entry[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise PackError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _opt(entry: dict, key: str, default: Any, where: str, kind: type) -> Any:
    if key not in entry:
        return default
    return _req(entry, key, where, kind)


def _element(entry: dict, key: str, where: str) -> int:
    name = _req(entry, key, where, str)
    if name not in ELEMENT_BY_NAME:
        raise PackError(f"{where}.{key}: {name!r} is not one of {list(ELEMENT_NAMES)}")
    return int(ELEMENT_BY_NAME[name])


def _provenance(entry: dict, where: str) -> tuple[str, str, str]:
    prov = _req(entry, "provenance", where, str)
    if prov not in PROVENANCES:
        raise PackError(f"{where}.provenance: {prov!r} is not one of {list(PROVENANCES)}")
    source = _opt(entry, "source", "", where, str)
    if prov in ("printed", "partial") and not source:
        raise PackError(f"{where}.source: a {prov} card must cite its KNOWN_CARDS.md source")
    notes = _opt(entry, "notes", "", where, str)
    if prov == "partial" and not notes:
        raise PackError(f"{where}.notes: a partial card must say which part is known")
    return prov, source, notes


def _check_fields(entry: dict, allowed: set[str], where: str) -> None:
    extra = sorted(set(entry) - allowed)
    if extra:
        raise PackError(f"{where}: unknown field(s) {extra}; allowed: {sorted(allowed)}")


_COMMON = {"id", "name", "provenance", "source", "notes"}


def _magician(e: dict, where: str) -> Magician:
    _check_fields(
        e,
        _COMMON
        | {
            "element",
            "starting_deck",
            "support_slots",
            "spell_limit",
            "ability_text",
            "ability",
            "activated",
        },
        where,
    )
    deck_table = _req(e, "starting_deck", where, dict)
    deck: list[int] = []
    for key, n in deck_table.items():
        el, _, val = key.partition("-")
        if el not in ELEMENT_BY_NAME or val not in ("1", "2", "3"):
            raise PackError(f"{where}.starting_deck.{key}: keys are '<element>-<value>', e.g. 'fire-1'")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise PackError(f"{where}.starting_deck.{key}: expected a count >= 0, got {n!r}")
        deck += [element_code(ELEMENT_BY_NAME[el], int(val))] * n
    mods = tuple(
        normalize_mod(m, f"{where}.ability[{i}]") for i, m in enumerate(_opt(e, "ability", [], where, list))
    )
    activated = tuple(normalize_effect(_opt(e, "activated", [], where, list), f"{where}.activated"))
    prov, source, notes = _provenance(e, where)
    slots = _opt(e, "support_slots", 3, where, int)
    limit = _opt(e, "spell_limit", 5, where, int)
    if not 1 <= slots <= 5:
        raise PackError(f"{where}.support_slots: expected 1..5, got {slots}")
    if not 4 <= limit <= 6:
        raise PackError(f"{where}.spell_limit: expected 4..6, got {limit}")
    return Magician(
        id=e["id"],
        name=_req(e, "name", where, str),
        element=_element(e, "element", where),
        starting_deck=tuple(deck),
        support_slots=slots,
        spell_limit=limit,
        ability_text=_opt(e, "ability_text", "", where, str),
        mods=mods,
        activated=activated,
        provenance=prov,
        source=source,
        notes=notes,
    )


def _spell(e: dict, where: str) -> Spell:
    _check_fields(
        e, _COMMON | {"kind", "element", "level", "activation_cost", "learning_cost", "text", "effect"}, where
    )
    kind = _req(e, "kind", where, str)
    if kind not in ("basic", "library"):
        raise PackError(f"{where}.kind: {kind!r} is not one of ['basic', 'library']")
    level = _opt(e, "level", 0, where, int)
    if kind == "library" and level not in (1, 2, 3):
        raise PackError(f"{where}.level: a library Spell has level 1, 2 or 3, got {level}")
    cost = _req(e, "activation_cost", where, int)
    if cost < 1:
        raise PackError(f"{where}.activation_cost: expected >= 1, got {cost}")
    prov, source, notes = _provenance(e, where)
    return Spell(
        id=e["id"],
        name=_req(e, "name", where, str),
        basic=kind == "basic",
        element=_element(e, "element", where),
        level=level if kind == "library" else 0,
        activation_cost=cost,
        learning_cost=_opt(e, "learning_cost", 2, where, int),  # printed value
        text=_req(e, "text", where, str),
        effect=tuple(normalize_effect(_req(e, "effect", where, list), f"{where}.effect")),
        provenance=prov,
        source=source,
        notes=notes,
    )


def _curse(e: dict, where: str) -> Curse:
    _check_fields(e, _COMMON | {"type", "text", "effect", "cost"}, where)
    ctype = _req(e, "type", where, str)
    if ctype not in CURSE_TYPES:
        raise PackError(f"{where}.type: {ctype!r} is not one of {list(CURSE_TYPES)}")
    if "cost" in e:  # card text beats rules (section 8.1)
        table = _req(e, "cost", where, dict)
        bad = sorted(set(table) - set(ELEMENT_NAMES))
        if bad:
            raise PackError(f"{where}.cost: unknown Element(s) {bad}")
        cost = tuple(int(table.get(n, 0)) for n in ELEMENT_NAMES)
    elif ctype == "multi":
        cost = (1, 1, 1, 1)  # section 4.4
    else:
        cost = tuple(4 if n == ctype else 0 for n in ELEMENT_NAMES)
    prov, source, notes = _provenance(e, where)
    return Curse(
        id=e["id"],
        name=_req(e, "name", where, str),
        type=ctype,
        cost=cost,  # type: ignore[arg-type]
        text=_req(e, "text", where, str),
        effect=tuple(normalize_effect(_req(e, "effect", where, list), f"{where}.effect", "each")),
        provenance=prov,
        source=source,
        notes=notes,
    )


def _page(e: dict, where: str) -> GrimoirePage:
    _check_fields(e, _COMMON | {"kind", "monster", "bonus", "failure", "bonus_text", "failure_text"}, where)
    kind = _req(e, "kind", where, str)
    if kind not in PAGE_KINDS:
        raise PackError(f"{where}.kind: {kind!r} is not one of {list(PAGE_KINDS)}")
    monster = None
    if kind in ("cover", "inside"):
        m = _req(e, "monster", where, dict)
        mw = f"{where}.monster"
        _check_fields(m, {"name", "curse_symbols", "arrival", "text"}, mw)
        symbols = _req(m, "curse_symbols", mw, list)
        for i, s in enumerate(symbols):
            if s not in ELEMENT_NAMES:
                raise PackError(f"{mw}.curse_symbols[{i}]: {s!r} is not one of {list(ELEMENT_NAMES)}")
        if len(symbols) != 3:
            raise PackError(f"{mw}.curse_symbols: a Monster shows 3 Curse symbols, got {len(symbols)}")
        monster = Monster(
            name=_req(m, "name", mw, str),
            curse_symbols=tuple(symbols),
            arrival=tuple(normalize_effect(_opt(m, "arrival", [], mw, list), f"{mw}.arrival", "each")),
            text=_opt(m, "text", "", mw, str),
        )
    elif "monster" in e:
        raise PackError(f"{where}.monster: the End page has no Monster on its back")
    if kind == "cover" and ("bonus" in e or "failure" in e):
        raise PackError(f"{where}: a Cover page has no Bonus/Failure side")
    prov, source, notes = _provenance(e, where)
    return GrimoirePage(
        id=e["id"],
        kind=kind,
        monster=monster,
        bonus=tuple(normalize_effect(_opt(e, "bonus", [], where, list), f"{where}.bonus", "each")),
        failure=tuple(normalize_effect(_opt(e, "failure", [], where, list), f"{where}.failure", "each")),
        bonus_text=_opt(e, "bonus_text", "", where, str),
        failure_text=_opt(e, "failure_text", "", where, str),
        provenance=prov,
        source=source,
        notes=notes,
    )


_SECTIONS = {"magician": _magician, "spell": _spell, "curse": _curse, "grimoire": _page}


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise PackError(f"{path}: card pack file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{path}: not valid TOML: {exc}") from None


def _entries(raw: dict, path: Path) -> tuple[dict[str, dict[str, Any]], Any]:
    unknown = sorted(set(raw) - set(_SECTIONS) - {"pack", "round_track"})
    if unknown:
        raise PackError(
            f"{path}: unknown section(s) {unknown}; known: pack, round_track, {sorted(_SECTIONS)}"
        )
    out: dict[str, dict[str, Any]] = {s: {} for s in _SECTIONS}
    for section, parse in _SECTIONS.items():
        items = raw.get(section, [])
        if not isinstance(items, list):
            raise PackError(f"{path}: [{section}] must be an array of tables ([[{section}]])")
        for i, entry in enumerate(items):
            where = f"{path}: {section}[{i}]"
            cid = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(cid, str) or not cid.replace("_", "").isalnum() or cid != cid.lower():
                raise PackError(f"{where}.id: ids are snake_case strings, got {cid!r}")
            where = f"{path}: {section} '{cid}'"
            if cid in out[section]:
                raise PackError(f"{where}.id: duplicate id")
            out[section][cid] = parse(entry, where)
    return out, raw.get("round_track")


def _round_track(rt: Any, path: Path) -> tuple[tuple[tuple[int, ...], ...], str]:
    where = f"{path}: round_track"
    if not isinstance(rt, dict):
        raise PackError(f"{where}: missing [round_track] table (A-06: the engine never guesses it)")
    _check_fields(rt, {"levels", "provenance", "source", "notes"}, where)
    levels = _req(rt, "levels", where, list)
    if len(levels) != 3 or any(not isinstance(r, list) or len(r) != 6 for r in levels):
        raise PackError(f"{where}.levels: expected 3 rows (levels 1-3) of 6 rounds")
    for li, row in enumerate(levels):
        for ri, v in enumerate(row):
            if isinstance(v, bool) or v not in (0, 1, 2):
                raise PackError(f"{where}.levels[{li}][{ri}]: expected 0, 1 or 2, got {v!r}")
    prov, _, _ = _provenance(rt, where)
    return tuple(tuple(r) for r in levels), prov


def load_pack(path: str | Path, overrides: tuple[str | Path, ...] = ()) -> Pack:
    """Load a pack file (or a named pack) and apply override packs (replace cards by id)."""
    return _load_cached(str(path), tuple(str(o) for o in overrides))


def resolve_pack_path(name: str) -> Path:
    return NAMED_PACKS.get(name, Path(name))


@lru_cache(maxsize=32)
def _load_cached(name: str, overrides: tuple[str, ...]) -> Pack:
    path = resolve_pack_path(name)
    raw = _read(path)
    meta = raw.get("pack", {})
    entries, rt_raw = _entries(raw, path)
    rt, rt_prov = _round_track(rt_raw, path)
    files = [str(path)]
    for opath in overrides:
        op = resolve_pack_path(opath)
        oraw = _read(op)
        oentries, ort = _entries(oraw, op)
        for section, cards in oentries.items():
            entries[section].update(cards)
        if ort is not None:
            rt, rt_prov = _round_track(ort, op)
        files.append(str(op))
    pack = Pack(
        id=str(meta.get("id", path.stem)),
        name=str(meta.get("name", path.stem)),
        files=tuple(files),
        round_track=rt,
        round_track_provenance=rt_prov,
        magicians=entries["magician"],
        spells=entries["spell"],
        curses=entries["curse"],
        pages=entries["grimoire"],
        spec=(name, overrides),
    )
    _index_effects(pack)
    _check_playable(pack, " + ".join(files))
    return pack


def _index_effects(pack: Pack) -> None:
    for s in pack.spells.values():
        pack.effects[(s.id, "effect")] = s.effect
    for c in pack.curses.values():
        pack.effects[(c.id, "effect")] = c.effect
    for p in pack.pages.values():
        pack.effects[(p.id, "bonus")] = p.bonus
        pack.effects[(p.id, "failure")] = p.failure
        if p.monster:
            pack.effects[(p.id, "arrival")] = p.monster.arrival
    for m in pack.magicians.values():
        pack.effects[(m.id, "activated")] = m.activated
        for i, mod in enumerate(m.mods):
            if mod["kind"] == "trigger":
                pack.effects[(m.id, f"trigger{i}")] = tuple(mod["effect"])


def _check_playable(pack: Pack, where: str) -> None:
    """Structural minimum for a game (setup steps 3-8), whatever the pack's size."""
    kinds = {k: [p for p in pack.pages.values() if p.kind == k] for k in PAGE_KINDS}
    if not kinds["cover"] or len(kinds["inside"]) < 5 or len(kinds["end"]) != 1:
        raise PackError(f"{where}: grimoire needs >= 1 cover, >= 5 inside pages and exactly 1 end page")
    basics = {s.element for s in pack.basic_spells}
    if len(pack.basic_spells) != 4 or basics != {0, 1, 2, 3}:
        raise PackError(f"{where}: spell: exactly 4 Basic Spells, one per Element, are required")
    for e in range(4):
        for lvl in (1, 2, 3):
            if not pack.library(e, lvl):
                raise PackError(f"{where}: spell: no library Spell of {ELEMENT_NAMES[e]} level {lvl}")
    for t in CURSE_TYPES:
        if not any(c.type == t for c in pack.curses.values()):
            raise PackError(f"{where}: curse: no Curse of type {t!r}")
    if len(pack.magicians) < 5:
        raise PackError(f"{where}: magician: at least 5 Magicians are needed for 5 players")
    for m in pack.magicians.values():
        if len(m.starting_deck) < 1 or any(c >= NUM_ELEMENT_CODES for c in m.starting_deck):
            raise PackError(f"{where}: magician '{m.id}'.starting_deck: needs Element cards")
