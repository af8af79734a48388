"""Checks of the card-pack loader (``pack.py``): reading a pack file safely, typed field readers,
the whole-pack checks that a pack fits the action layout and the game's components, and the checks
that a pack's module content (a modifier kind, an effect op, a section) comes with its module.

A pack that loads must never break a game: every number is bounded (docs/card_pack_format.md,
"Numbers"), ids are unique across all card kinds (effects are looked up by card id), and the
Magicians fit the move layout of ``moves.py`` (Spell slots, support slots) and the Element cards of
the box. Every error is a PackError whose message names the file, the card and the field.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bbom_env.engine.cards.vocab import BASE_MODIFIER_KINDS, BASE_OPS, PackError, show, walk_ops
from bbom_env.engine.model.constants import (
    ELEMENT_BY_NAME,
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_NAMES,
    LIBRARY_LEVELS,
    MAX_PLAYERS,
    MAX_SPELLS,
    MAX_SUPPORT_SLOTS,
    NUM_ELEMENTS,
    NUM_TRACK_SLOTS,
    ROUNDS,
    element_code,
)

if TYPE_CHECKING:
    from bbom_env.engine.cards.pack import Pack

# The base pack is about 60 KB; a pack file beyond this is not a card pack (and reading, say,
# /dev/zero must not exhaust memory).
MAX_PACK_BYTES = 4 * 1024 * 1024
ID_PATTERN = re.compile(r"[a-z0-9_]{1,64}")
PROVENANCES = ("printed", "partial", "reconstructed")
# The mark after a card's name wherever it is shown (renders, the play UI, the catalogue): a
# reconstructed card is not the real one, a partial card is only partly the real one
# (design decision 4: nothing invented is presented as the real card).
PROVENANCE_MARKS = {"printed": "", "partial": "~", "reconstructed": "*"}
# Elements one Action or Curse may cost (per X for a Spell): far above any printed card.
MAX_COST = 10
MONSTER_SYMBOLS = 3  # Curse symbols on a Monster (section 3.3.5)
# Multi-Element Curses a round adds: with the Monster's symbols they must fit the track's slots.
MAX_EXTRA_CURSES = NUM_TRACK_SLOTS - MONSTER_SYMBOLS
# Support capacity (printed slots + ability): the layout's MAX_SUPPORT_SLOTS (8) is 3 + 2 for a
# Magician with extra slots + 3 kept for Madness received beyond capacity.
MAX_SUPPORT_CAPACITY = MAX_SUPPORT_SLOTS - 3


# -- reading a file ------------------------------------------------------------------------------


def read_pack_file(path: Path, not_found_hint: str = "") -> dict[str, Any]:
    """The TOML document of a pack file; PackError naming the file for anything that is not one."""
    data = _read_bytes(path, not_found_hint)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PackError(
            f"{path}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start});"
            " a card pack is a UTF-8 TOML file"
        ) from None
    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"))  # editors may write a byte-order mark
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise PackError(f"{path}: not valid TOML here: arrays or tables nested too deeply") from None
    except ValueError as exc:  # tomllib's int() of more than 4300 digits
        raise PackError(f"{path}: not valid TOML here: {exc}") from None
    if not raw:
        raise PackError(f"{path}: the file is empty: a card pack has tables such as [round_track], [[spell]]")
    return raw


def _read_bytes(path: Path, not_found_hint: str) -> bytes:
    """The file's bytes (at most MAX_PACK_BYTES); PackError for a path that is not a readable file."""
    if not str(path).isprintable():  # a NUL byte cannot be opened; a newline would break the message
        raise PackError(f"{show(str(path))}: not a usable file path (control characters)")
    try:
        if not path.exists():
            raise PackError(f"{path}: card pack file not found{not_found_hint}")
        if path.is_dir():
            raise PackError(f"{path}: is a directory, not a card pack file (.toml)")
        if not path.is_file():
            raise PackError(f"{path}: not a regular file, not a card pack file (.toml)")
        with open(path, "rb") as fh:
            data = fh.read(MAX_PACK_BYTES + 1)
    except PackError:
        raise
    except OSError as exc:
        raise PackError(f"{path}: cannot read the card pack file: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. an embedded NUL byte in the path
        raise PackError(f"{show(str(path))}: not a usable file path: {exc}") from None
    if len(data) > MAX_PACK_BYTES:
        raise PackError(f"{path}: larger than {MAX_PACK_BYTES // 2**20} MiB: not a card pack file")
    return data


# -- typed fields ----------------------------------------------------------------------------------


def req(entry: dict, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    """The field ``key``, which must be there and of type ``kind`` (an int is never a bool)."""
    if key not in entry:
        raise PackError(f"{where}: missing field '{key}'")
    value = entry[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        name = " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__
        raise PackError(f"{where}.{key}: expected {name}, got {show(value)}")
    return value


def opt(entry: dict, key: str, default: Any, where: str, kind: type | tuple[type, ...]) -> Any:
    return req(entry, key, where, kind) if key in entry else default


def int_in(entry: dict, key: str, where: str, lo: int, hi: int, default: int | None = None) -> int:
    """An int field from lo to hi (both included); required when ``default`` is None."""
    value = req(entry, key, where, int) if default is None else opt(entry, key, default, where, int)
    if not lo <= value <= hi:
        raise PackError(f"{where}.{key}: expected an int {lo}..{hi}, got {value}")
    return value


def choice(entry: dict, key: str, where: str, allowed: tuple[str, ...]) -> str:
    value = req(entry, key, where, str)
    if value not in allowed:
        raise PackError(f"{where}.{key}: {show(value)} is not one of {list(allowed)}")
    return value


def element(entry: dict, key: str, where: str) -> int:
    return int(ELEMENT_BY_NAME[choice(entry, key, where, ELEMENT_NAMES)])


def marked(name: str, prov: str) -> str:
    """A card's name with its provenance mark (``*`` reconstructed, ``~`` partial)."""
    return name + PROVENANCE_MARKS.get(prov, "")


def labels(entry: dict, where: str) -> dict[str, str]:
    """``provenance``, ``source``, ``notes`` and ``known`` of a card or the round track, as the
    keyword arguments of a card record. A partial card says in ``known`` which part is the real
    card's (shown next to its ``~`` mark); no other card has one."""
    prov = choice(entry, "provenance", where, PROVENANCES)
    source = opt(entry, "source", "", where, str)
    if prov in ("printed", "partial") and not source:
        raise PackError(f"{where}.source: a {prov} card must cite its source (a tag of docs/cards.md)")
    notes = opt(entry, "notes", "", where, str)
    known = opt(entry, "known", "", where, str)
    if prov == "partial" and not known.strip():
        raise PackError(f"{where}.known: a partial card must say which part is known (the rest is completed)")
    if prov != "partial" and "known" in entry:
        whole = "all of it is known" if prov == "printed" else "none of it is known"
        raise PackError(f"{where}.known: only a partial card has a known part (a {prov} card: {whole})")
    return {"provenance": prov, "source": source, "notes": notes, "known": known}


def check_fields(entry: dict, allowed: set[str], where: str) -> None:
    extra = sorted(set(entry) - allowed)
    if extra:
        raise PackError(f"{where}: unknown field(s) {show(extra)}; allowed: {sorted(allowed)}")


def card_id(entry: Any, where: str) -> str:
    if not isinstance(entry, dict):
        raise PackError(f"{where}: expected a table, got {show(entry)}")
    cid = entry.get("id")
    if not isinstance(cid, str) or not ID_PATTERN.fullmatch(cid):
        raise PackError(
            f"{where}.id: ids are snake_case strings of 1-64 characters [a-z0-9_], got {show(cid)}"
        )
    return cid


def starting_deck(table: dict, where: str) -> tuple[int, ...]:
    """Card codes of a starting deck ``{ fire-1 = 4, ... }``; each count at most the game's cards."""
    deck: list[int] = []
    for key, n in table.items():
        el, _, val = key.partition("-")
        if el not in ELEMENT_BY_NAME or val not in ("1", "2", "3"):
            raise PackError(f"{where}.{show(key)}: keys are '<element>-<value>', e.g. 'fire-1'")
        most = ELEMENT_CARDS_PER_VALUE[int(val)]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= most:
            raise PackError(
                f"{where}.{key}: expected a count 0..{most} (the game's {key} cards), got {show(n)}"
            )
        deck += [element_code(ELEMENT_BY_NAME[el], int(val))] * n
    if not deck:
        raise PackError(f"{where}: a starting deck needs at least 1 Element card")
    return tuple(deck)


T = TypeVar("T")


class PackIndex(Generic[T]):
    """A table derived from a pack (a Magician set, castable pages, the Phobias' constraints):
    ``index(pack)`` is ``build(pack)``, built once and kept on the pack itself (``Pack.indexes``),
    which every game of that pack references. A pack is immutable once loaded."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[Pack], T]) -> None:
        self.build = build

    def __call__(self, pack: Pack) -> T:
        value = pack.indexes.get(self)
        if value is None:
            value = pack.indexes[self] = self.build(pack)
        return value


# -- sections of a module ------------------------------------------------------------------------


@dataclass(frozen=True)
class PackSection:
    """A section ``[[name]]`` of the card pack that a module reads (``rules.Module.pack_sections``).

    ``parse(entry, where)`` turns one entry (a TOML table) into the module's card: an immutable
    object with ``id``, ``name`` and ``provenance`` (and ``source``, ``notes``, ``known``), read with
    the helpers of this file (``check_fields`` with ``cards.COMMON_FIELDS``, ``req``, ``labels``
    ...) so that every error names the file, the entry and the field (``where`` is
    ``"<file>: <name> '<id>'"``). The loader has checked the id already, unique across the pack.
    ``effects(card)`` yields ``(part, ops)`` pairs of effects in the effect vocabulary (normalised by
    the parser with ``vocab.normalize_effect``): they are indexed in ``pack.effects[(id, part)]``,
    so the interpreter can run them and saves can check frames that name them. ``required``: a
    game with the module is refused at setup when its pack lacks the section.

    ``base_table`` ("magician", "curse" or "grimoire") and ``to_base(card)``: the section's cards
    are also cards of that base kind in a game with the module (a Dark Curse is a Curse, a Dark
    Monster page a Grimoire page): ``to_base`` makes the base card (``cards.Magician``, ``Curse``,
    ``GrimoirePage``, with ``module`` set), and the game's pack (``load_pack(..., modules=)``)
    holds it in ``pack.magicians`` / ``curses`` / ``pages`` beside the base cards, so every rule
    that reads a Curse reads a Dark Curse too. A pack loaded without the module leaves them out.

    ``mods(card)`` yields ``(field, modifier)`` for each modifier a card holds outside its effects
    (a Phobia's ``constraint[0]``): a game refuses a kind its modules do not declare, as for a
    Magician's ability (``checks.check_module_kinds``). ``check(cards, origins)``: the
    section as a whole, in a game with its module (``load_pack(..., modules=)``): e.g. the count
    the module's card codes need; ``origins`` maps each card id to its file; raises PackError
    naming the file, the card and the field."""

    name: str
    parse: Callable[[dict, str], Any]
    effects: Callable[[Any], Iterable[tuple[str, tuple[dict, ...]]]] | None = None
    mods: Callable[[Any], Iterable[tuple[str, dict]]] | None = None
    check: Callable[[Mapping[str, Any], Mapping[str, str]], None] | None = None
    required: bool = True
    doc: str = ""
    base_table: str = ""
    to_base: Callable[[Any], Any] | None = None


def parse_module_card(section: PackSection, entry: dict, where: str) -> Any:
    """The loader's parser of one entry of a module section: the module's, then the checks that
    every card has (its id kept, a name, a provenance)."""
    card = section.parse(entry, where)
    got = {attr: getattr(card, attr, None) for attr in ("id", "name", "provenance")}
    if got["id"] != entry["id"] or not isinstance(got["name"], str) or got["provenance"] not in PROVENANCES:
        raise TypeError(
            f"{where}: the parser of section {section.name!r} returned a card with {got}: keep the "
            "entry's id, give it a name and read provenance with checks.labels"
        )
    return card


# -- the whole pack ----------------------------------------------------------------------------------


def check_pack(pack: Pack, origin: dict[str, str]) -> None:
    """Layout, components and setup minimum; ``origin`` maps each card id to its file."""
    check_playable(pack, " + ".join(pack.files))
    for m in pack.magicians.values():
        check_magician_layout(m, f"{origin[m.id]}: magician '{m.id}'")
    _check_starting_decks(pack, origin)
    _check_names(pack, origin)


def _check_names(pack: Pack, origin: dict[str, str]) -> None:
    """Card names are unique (case and spacing aside) and carry no provenance mark: people look a
    card up by name (the play UI's ``card NAME``, a move named by its card), and renders, logs and
    docs name cards, so two cards of one name would be ambiguous and a name ending in ``*``/``~``
    would pass for a mark. Two copies of one printed card get distinct names, e.g. "Frost (2)"."""
    seen: dict[str, str] = {}
    cards = [
        (section, cid, card) for section, table in card_tables(pack).items() for cid, card in table.items()
    ]
    rank = {file: i for i, file in enumerate(pack.files)}
    cards.sort(key=lambda c: rank.get(origin[c[1]], 0))  # stable: a clash names the later file's card
    for section, cid, card in cards:
        name = pack.card_name(cid)
        field = "monster.name" if getattr(card, "monster", None) else "name"
        where = f"{origin[cid]}: {section} '{cid}'.{field}"
        if name.rstrip().endswith(("*", "~")):
            raise PackError(f"{where}: {show(name)} ends with a provenance mark (* or ~), added when shown")
        key = " ".join(name.split()).casefold()
        if key in seen:
            other = seen[key] if origin[seen[key]] == origin[cid] else f"{seen[key]}' of '{origin[seen[key]]}"
            raise PackError(
                f"{where}: name {show(name)} is already the name of '{other}' (card names are unique; "
                'two copies of one card need distinct names, e.g. "Frost (2)")'
            )
        seen[key] = cid


def check_magician_layout(m: Any, where: str) -> None:
    """A Magician's Spell row and support must fit the move layout (moves.py): a 7th Spell would
    make its ACTIVATE ids collide with the LEARN ids. Losing the ability removes the modifiers, so
    both the printed number and the printed number with the ability must fit."""
    for field, most, layout in (
        ("spell_limit", MAX_SPELLS, f"the action layout's {MAX_SPELLS} Spell slots (MAX_SPELLS)"),
        (
            "support_slots",
            MAX_SUPPORT_CAPACITY,
            f"{MAX_SUPPORT_CAPACITY} (the action layout's {MAX_SUPPORT_SLOTS} support slots keep 3 "
            "for Madness beyond capacity)",
        ),
    ):
        printed = getattr(m, field)
        extra = sum(mod["amount"] for mod in m.mods if mod["kind"] == field)
        if max(printed, printed + extra) > most:
            raise PackError(
                f"{where}.ability: {field} {printed} with the ability's {field} modifiers ({extra:+d}) is "
                f"{printed + extra}, more than {layout}"
            )


def _check_starting_decks(pack: Pack, origin: dict[str, str]) -> None:
    """Any MAX_PLAYERS Magicians together must fit in the Element cards of the box (setup step 6),
    Nightmare included (its value-2 cards start as value-1, A-39): otherwise a game with random
    Magicians would fail at setup. The worst table is the Magicians needing the most of a card."""
    n = min(MAX_PLAYERS, len(pack.magicians))
    decks = {m.id: Counter(m.starting_deck) for m in pack.magicians.values()}
    for e, el in enumerate(ELEMENT_NAMES):
        c1, c2 = element_code(e, 1), element_code(e, 2)
        for label, codes, limit in (
            *((f"{el}-{v}", (element_code(e, v),), ELEMENT_CARDS_PER_VALUE[v]) for v in (1, 2, 3)),
            (f"{el}-1 in Nightmare (value-2 cards start as value-1)", (c1, c2), ELEMENT_CARDS_PER_VALUE[1]),
        ):
            need = {mid: sum(deck[c] for c in codes) for mid, deck in decks.items()}
            worst = sorted(need, key=lambda mid: -need[mid])[:n]
            total = sum(need[mid] for mid in worst)
            if total > limit:
                raise PackError(
                    f"{origin[worst[0]]}: magician '{worst[0]}'.starting_deck: the {n} Magicians needing the "
                    f"most {label} cards ({', '.join(worst)}) need {total} together; the game has {limit}"
                )


def check_playable(pack: Pack, where: str) -> None:
    """Structural minimum for a game (setup steps 3-8), whatever the pack's size."""
    kinds = {k: [p for p in pack.pages.values() if p.kind == k] for k in ("cover", "inside", "end")}
    if not kinds["cover"] or len(kinds["inside"]) < ROUNDS - 1 or len(kinds["end"]) != 1:
        raise PackError(f"{where}: grimoire needs >= 1 cover, >= 5 inside pages and exactly 1 end page")
    basics = {s.element for s in pack.basic_spells}
    if len(pack.basic_spells) != NUM_ELEMENTS or basics != set(range(NUM_ELEMENTS)):
        raise PackError(f"{where}: spell: exactly 4 Basic Spells, one per Element, are required")
    for e in range(NUM_ELEMENTS):
        for lvl in range(1, LIBRARY_LEVELS + 1):
            if not pack.library(e, lvl):
                raise PackError(f"{where}: spell: no library Spell of {ELEMENT_NAMES[e]} level {lvl}")
    for t in ELEMENT_NAMES + ("multi",):
        if not any(c.type == t for c in pack.curses.values()):
            raise PackError(f"{where}: curse: no Curse of type {t!r}")
    if len(pack.magicians) < MAX_PLAYERS:
        raise PackError(
            f"{where}: magician: at least {MAX_PLAYERS} Magicians are needed for {MAX_PLAYERS} players"
        )


# -- module content comes with its module (docs/rules.md section 9; docs/engine.md, "Writing a
# module"): setup and save loading ask these for each game, so a base game never runs a module's
# kind or op, and a game with a module has the cards it reads.

# Section name -> (module, section), while the module is registered (``rules.register`` through
# ``pack.register_section``): the loader's registry of module sections, kept here, below the
# loader, so that these checks read it without importing the loader.
MODULE_SECTIONS: dict[str, tuple[str, PackSection]] = {}


def card_tables(pack: Pack) -> dict[str, Any]:
    """Every card table of the pack by section name: the base game's, then the modules' sections."""
    return {
        "magician": pack.magicians,
        "spell": pack.spells,
        "curse": pack.curses,
        "grimoire": pack.pages,
        **pack.sections,
    }


# -- modifier kinds and effect ops that come with a module --------------------------------------

# (name, where, module) of a use outside the base game's: a modifier kind not in
# ``vocab.BASE_MODIFIER_KINDS`` or an effect op not in ``vocab.BASE_OPS``; module is the module
# whose pack section holds the card ("" for a base card).
_Use = tuple[str, str, str]


def _find_uses(pack: Pack) -> tuple[tuple[_Use, ...], tuple[_Use, ...]]:
    base = set(BASE_MODIFIER_KINDS)
    files = " + ".join(pack.files)
    tables = card_tables(pack)
    origin = {cid: pack.origins.get(cid, files) for table in tables.values() for cid in table}
    owner = {cid: pack.section_modules[name] for name, cards in pack.sections.items() for cid in cards}
    for table in (pack.magicians, pack.curses, pack.pages):
        owner.update({cid: c.module for cid, c in table.items() if c.module})
    kinds: list[_Use] = [
        (mod["kind"], f"{origin[m.id]}: magician '{m.id}'.ability[{i}].kind", "")
        for m in pack.magicians.values()
        for i, mod in enumerate(m.mods)
        if mod["kind"] not in base
    ]
    ops: list[_Use] = []
    for (cid, part), effect in pack.effects.items():
        section = next(name for name, table in tables.items() if cid in table)
        if part.startswith("trigger"):
            field = f"ability[{part[len('trigger') :]}].effect"
        else:
            field = "monster.arrival" if part == "arrival" else part
        for path, op in walk_ops(effect):
            if op["op"] not in BASE_OPS:
                ops.append((op["op"], f"{origin[cid]}: card '{cid}'.{part}{path}.op", owner.get(cid, "")))
            if op["op"] == "modifier" and op["mod"]["kind"] not in base:
                where = f"{origin[cid]}: {section} '{cid}'.{field}{path}.mod.kind"
                kinds.append((op["mod"]["kind"], where, pack.section_modules.get(section, "")))
    for section, cards in pack.sections.items():  # modifiers a module card holds (a Phobia's)
        mods = MODULE_SECTIONS[section][1].mods if section in MODULE_SECTIONS else None
        if mods is None:
            continue
        for cid, card in cards.items():
            for field, mod in mods(card):
                if mod["kind"] not in base:
                    where = f"{origin[cid]}: {section} '{cid}'.{field}.kind"
                    kinds.append((mod["kind"], where, pack.section_modules.get(section, "")))
    return tuple(kinds), tuple(ops)


# (modifier kind uses, effect op uses) of the pack, found on first use and read by every setup.
_module_uses = PackIndex(_find_uses)


def check_module_ops(pack: Pack, modules: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    """Refuse a game whose cards use an effect op that comes with a module not in the game
    (``allowed``: ``rules.ruleset(modules).ops``): the op would run without its module's state.
    As for modifier kinds, a module's own cards count only in a game with that module."""
    fix = "bring it; name the module in GameConfig.modules"
    _refuse_uses(_module_uses(pack)[1], modules, allowed, "op", fix)


def module_kind_uses(pack: Pack) -> tuple[tuple[str, str], ...]:
    """(kind, "file: section 'id'.field") of every modifier in the pack whose kind is not one of
    the base game's (``vocab.BASE_MODIFIER_KINDS``): Magician abilities and "modifier" ops anywhere
    in an effect, module cards included. Empty for a base pack."""
    return tuple((kind, where) for kind, where, _module in _module_uses(pack)[0])


def check_module_kinds(pack: Pack, modules: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    """Refuse a game whose pack holds a modifier kind its module set does not declare (``allowed``
    is ``rules.ruleset(modules).modifier_kinds``): a base game never sees a module's kind. The
    cards of a module's own section count only in a game with that module (no other game reads
    them: a pack may hold the Vth Element's cards and still serve base games)."""
    fix = f"declare it (they allow {sorted(allowed)}); name the module that declares it in GameConfig.modules"
    _refuse_uses(_module_uses(pack)[0], modules, allowed, "modifier kind", fix)


def _refuse_uses(
    uses: tuple[_Use, ...], modules: tuple[str, ...], allowed: tuple[str, ...], what: str, fix: str
) -> None:
    """PackError for the first use (name, where, module) outside ``allowed``; the cards of a module
    not in ``modules`` are skipped (no game without their module reads them)."""
    for name, where, module in uses:
        if module and module not in modules:
            continue
        if name not in allowed:
            raise PackError(
                f"{where}: {what} {name!r} comes with a module, and this game's modules {modules} do not "
                f"{fix}, or leave this card out of the pack"
            )


def check_module_sections(pack: Pack, needed: tuple[tuple[str, str], ...]) -> None:
    """Refuse a game whose pack lacks a section one of its modules needs (``needed``: (module,
    section) pairs, ``rules.ruleset(modules).pack_sections``), naming the pack's files and the
    section."""
    for module, section in needed:
        if section not in pack.sections:
            raise PackError(
                f"{' + '.join(pack.files)}: no [[{section}]] section, which module {module!r} needs; "
                f"add its cards to the pack or to an override pack (GameConfig.pack_overrides, "
                "docs/card_pack_format.md)"
            )
