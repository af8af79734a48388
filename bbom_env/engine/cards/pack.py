"""Card packs: cards as data (design decision 4), loaded from TOML and validated.

A pack has the sections ``[pack]``, ``[round_track]``, ``[[magician]]``, ``[[spell]]``,
``[[curse]]`` and ``[[grimoire]]``; docs/card_pack_format.md describes every field. Every card
carries ``provenance`` (printed / partial / reconstructed). Errors name the file, the card and the
field. Override packs replace cards by id (and may replace the round track).

A rules module adds sections of its own (``PackSection``, declared in ``rules.Module.pack_sections``
and registered with the module): its parser reads each ``[[name]]`` entry, the loader checks its id
(unique across the whole pack) and provenance, and the parsed cards are kept, read-only, in
``pack.sections[name]``. A section no registered module declares is refused as unknown.

Content hashes of a game's card pack, recorded in saves and pickles.

Saves and pickles name their pack by path only (``GameConfig.pack`` / ``pack_overrides``), so an
edited pack file would otherwise be used silently by a loaded game. ``pack_sha256`` gives the
sha256 of the bytes of the pack file and of each override file, in that order (one hex digest per
file, so a refusal can name the file that changed; each digest is what ``sha256sum`` prints).

Digests are cached per file and keyed by the file's stat (mtime, size, inode): saving a state
costs a ``stat`` per file, not a read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bbom_env.engine.cards.card_types import (
    BASE_PARSERS,
    COMMON_FIELDS,
    CURSE_TYPES,
    PAGE_KINDS,
    Curse,
    GrimoirePage,
    Magician,
    Monster,
    Spell,
)
from bbom_env.engine.cards.checks import (
    MAX_EXTRA_CURSES,
    MODULE_SECTIONS,
    PROVENANCES,
    PackIndex,
    PackSection,
    card_id,
    card_tables,
    check_fields,
    check_magician_layout,
    check_pack,
    labels,
    marked,
    opt,
    parse_module_card,
    read_pack_file,
    req,
)
from bbom_env.engine.cards.vocab import PackError, ops_used, show

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
NAMED_PACKS = {"default": DATA_DIR / "base_pack.toml", "test": DATA_DIR / "test_pack.toml"}
__all__ = [  # re-exported
    "COMMON_FIELDS",
    "CURSE_TYPES",
    "PAGE_KINDS",
    "PROVENANCES",
    "Curse",
    "GrimoirePage",
    "Magician",
    "Monster",
    "PackError",
    "PackIndex",
    "PackSection",
    "Spell",
    "check_new_section",
]


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
    spec: tuple = ("", ())  # (pack, overrides[, modules]) as given to load_pack
    # Module sections present in the files: section name -> card id -> the parsed card (read-only),
    # and the module each section belongs to (``PackSection``).
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    section_modules: Mapping[str, str] = field(default_factory=dict)
    # The file each card comes from (an override's card: the override), for messages that name it.
    origins: Mapping[str, str] = field(default_factory=dict)
    # Tables derived from the pack (``PackIndex``), built on first use: not part of the pack's value.
    indexes: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

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
        """Every op of the pack's effects (a Magician's trigger effects are indexed too)."""
        return set().union(*map(ops_used, self.effects.values()))

    def marked_name(self, card_id: str) -> str:
        """The card's name with its provenance mark (``*`` reconstructed, ``~`` partial), as every
        view shows it (README policy 2); an unknown id as it is."""
        card = self._card(card_id)
        return marked(self.card_name(card_id), card.provenance) if card is not None else card_id

    def card_name(self, card_id: str) -> str:
        card = self._card(card_id)
        if isinstance(card, GrimoirePage):
            return card.monster.name if card.monster else card.name or card.id
        return card.name if card is not None else card_id

    def _card(self, card_id: str) -> Any:
        """The card of this id, a base table's before a module section's; None for an unknown id."""
        return next((table[card_id] for table in card_tables(self).values() if card_id in table), None)

    def module_card(self, card_id: str) -> Any:
        """The card of a module section with this id, or None (a base pack has none)."""
        return next((cards[card_id] for cards in self.sections.values() if card_id in cards), None)

    def section_of(self, card_id: str) -> str | None:
        """The module section holding this card id, or None."""
        return next((name for name, cards in self.sections.items() if card_id in cards), None)


# -- sections of a module ------------------------------------------------------------------------


# MODULE_SECTIONS (checks.py): section name -> (module, section), while registered.
# Names a module's section cannot take: the base game's tables and sections; the base tables a
# module section may add its cards to (``PackSection.base_table``).
RESERVED_SECTIONS = frozenset({"pack", "round_track", *BASE_PARSERS})
_BASE_TYPE: dict[str, Any] = {"magician": Magician, "curse": Curse, "grimoire": GrimoirePage}


def check_new_section(module: str, section: PackSection, known: dict[str, tuple[str, PackSection]]) -> None:
    """ValueError when ``section`` cannot be registered for ``module`` (``known``: the sections
    registered so far, ``cards.MODULE_SECTIONS``); nothing is changed."""
    if not isinstance(section, PackSection):
        raise TypeError(f"module {module!r}: pack_sections holds {section!r}, not a cards.PackSection")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", section.name) or section.name in RESERVED_SECTIONS:
        raise ValueError(
            f"module {module!r}: pack section {section.name!r} must be a new name of lower-case letters, "
            f"digits and '_' (the base game has {sorted(RESERVED_SECTIONS)})"
        )
    table = section.base_table
    if table not in ("", *_BASE_TYPE) or bool(table) != (section.to_base is not None):
        raise ValueError(
            f"module {module!r}: pack section {section.name!r}: base_table must be one of "
            f"{sorted(_BASE_TYPE)} with a to_base function, or '' without one"
        )
    owner = known.get(section.name)
    if owner is not None and owner != (module, section):
        raise ValueError(f"pack section {section.name!r} is already declared by module {owner[0]!r}")


def register_section(module: str, section: PackSection) -> None:
    """Make a module's section known to the loader (``rules.register`` calls it). Cached packs are
    dropped: a pack loaded before may have been refused for this section, or parsed without it."""
    check_new_section(module, section, MODULE_SECTIONS)
    MODULE_SECTIONS[section.name] = (module, section)
    _load_cached.cache_clear()


def clear_pack_cache() -> None:
    """Drop the loaded packs: the vocabulary changed (a module's ops registered or removed)."""
    _load_cached.cache_clear()


def unregister_section(name: str) -> None:
    if MODULE_SECTIONS.pop(name, None) is not None:
        _load_cached.cache_clear()


def _meta(raw: dict, path: Path) -> dict:
    """The optional [pack] table: id, name (strings) and version."""
    meta = raw.get("pack", {})
    where = f"{path}: pack"
    if not isinstance(meta, dict):
        raise PackError(f"{where}: [pack] must be a table (id, name, version), got {show(meta)}")
    check_fields(meta, {"id", "name", "version"}, where)
    for key, kind in (("id", str), ("name", str), ("version", (int, str))):
        opt(meta, key, "", where, kind)
    return meta


def _entries(raw: dict, path: Path) -> dict[str, dict[str, Any]]:
    """The cards of every section of one file: the base sections always, a module's when present."""
    unknown = sorted(set(raw) - RESERVED_SECTIONS - set(MODULE_SECTIONS))
    if unknown:
        from_modules = f"; of the registered modules: {sorted(MODULE_SECTIONS)}" if MODULE_SECTIONS else ""
        raise PackError(
            f"{path}: unknown section(s) {show(unknown)}; known: pack, round_track, {sorted(BASE_PARSERS)}"
            f"{from_modules} (a module's section is known while its module is registered)"
        )
    parsers: dict[str, Callable[[dict, str], Any]] = dict(BASE_PARSERS)
    for name in sorted(set(raw) & set(MODULE_SECTIONS)):
        parsers[name] = partial(parse_module_card, MODULE_SECTIONS[name][1])
    out: dict[str, dict[str, Any]] = {s: {} for s in parsers}
    seen: dict[str, str] = {}  # id -> section: effects are looked up by card id alone
    for section, parse in parsers.items():
        items = raw.get(section, [])
        if not isinstance(items, list):
            raise PackError(
                f"{path}: [{section}] must be an array of tables ([[{section}]]), got {show(items)}"
            )
        for i, entry in enumerate(items):
            cid = card_id(entry, f"{path}: {section}[{i}]")
            where = f"{path}: {section} '{cid}'"
            if cid in seen:
                if seen[cid] == section:
                    raise PackError(f"{where}.id: duplicate id")
                raise PackError(
                    f"{where}.id: id already used by {seen[cid]} '{cid}' (ids are unique across all kinds)"
                )
            seen[cid] = section
            out[section][cid] = parse(entry, where)
    return out


def _round_track(rt: Any, path: Path) -> tuple[tuple[tuple[int, ...], ...], str]:
    where = f"{path}: round_track"
    if rt is None:
        raise PackError(f"{where}: missing [round_track] table (A-06: the engine never guesses it)")
    if not isinstance(rt, dict):
        raise PackError(f"{where}: [round_track] must be a table, got {show(rt)}")
    check_fields(rt, {"levels", "provenance", "source", "notes", "known"}, where)
    levels = req(rt, "levels", where, list)
    if len(levels) != 3 or any(not isinstance(r, list) or len(r) != 6 for r in levels):
        raise PackError(f"{where}.levels: expected 3 rows (levels 1-3) of 6 rounds")
    allowed = ", ".join(str(k) for k in range(MAX_EXTRA_CURSES)) + f" or {MAX_EXTRA_CURSES}"
    for li, row in enumerate(levels):
        for ri, v in enumerate(row):
            # With the Monster's 3 symbols, the Multi-Element Curses must fit the track's 5 slots.
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_EXTRA_CURSES:
                raise PackError(f"{where}.levels[{li}][{ri}]: expected {allowed}, got {show(v)}")
    return tuple(tuple(r) for r in levels), labels(rt, where)["provenance"]


def load_pack(
    path: str | Path, overrides: tuple[str | Path, ...] = (), modules: tuple[str, ...] = ()
) -> Pack:
    """Load a pack file (or a named pack) and apply override packs (replace cards by id).

    ``modules``: the pack as a game with these rules modules sees it: the cards of their sections
    that are also base cards (``PackSection.base_table``: a Dark Curse is a Curse) join the base
    tables. Without ``modules`` a module's cards stay in ``pack.sections`` alone, so a pack that
    holds the Vth Element's cards still serves base games unchanged."""
    # One path, not its characters.
    extra: tuple[Any, ...] = (overrides,) if isinstance(overrides, (str, os.PathLike)) else tuple(overrides)
    for p in (path, *extra):
        if not isinstance(p, (str, os.PathLike)):
            raise PackError(f"{show(p)}: a card pack is a name ({', '.join(NAMED_PACKS)}) or a file path")
    _check_module_names(modules)
    return _load_cached(str(path), tuple(str(o) for o in extra), tuple(modules))


# The registered rules modules' names, the base game aside: ``rules.register`` / ``unregister``
# keep it (the registry itself is a layer up, core/rules.py).
MODULE_NAMES: set[str] = set()


def _check_module_names(modules: Any) -> None:
    """``load_pack``'s ``modules``: registered module names (an unknown one would silently read
    no module card at all)."""
    if isinstance(modules, (str, bytes)) or not all(isinstance(m, str) for m in modules):
        raise PackError(f"load_pack: modules must be a tuple of module names, got {show(modules)}")
    unknown = [m for m in modules if m not in MODULE_NAMES]
    if unknown:
        known = sorted(MODULE_NAMES)
        raise PackError(f"load_pack: unknown module(s) {unknown}; registered modules: {known or 'none'}")


def resolve_pack_path(name: str) -> Path:
    return NAMED_PACKS.get(name, Path(name))


_NOT_FOUND = f" (named packs: {', '.join(NAMED_PACKS)}; anything else is the path of a .toml pack file)"


@lru_cache(maxsize=32)
def _load_cached(name: str, overrides: tuple[str, ...], modules: tuple[str, ...] = ()) -> Pack:
    if modules:
        return _with_module_cards(_load_cached(name, overrides), modules)
    path = resolve_pack_path(name)
    entries: dict[str, dict[str, Any]] = {}
    origin: dict[str, str] = {}  # card id -> its file
    kind_of: dict[str, str] = {}  # card id -> its section
    metas: list[dict] = []
    files: list[str] = []
    for file in (path, *map(resolve_pack_path, overrides)):  # the pack, then its overrides
        raw = read_pack_file(file, _NOT_FOUND)
        metas.append(_meta(raw, file))
        for section, cards in _entries(raw, file).items():
            for cid in cards:
                if kind_of.get(cid, section) != section:  # an override replaces a card of its kind
                    raise PackError(
                        f"{file}: {section} '{cid}'.id: id already used by {kind_of[cid]} '{cid}' of "
                        f"{origin[cid]} (ids are unique across all kinds)"
                    )
                kind_of[cid], origin[cid] = section, str(file)
            entries.setdefault(section, {}).update(cards)
        if not files or "round_track" in raw:  # the pack's own is required, an override's optional
            rt, rt_prov = _round_track(raw.get("round_track"), file)
        files.append(str(file))
    meta = metas[0]
    module_sections = sorted(s for s in set(entries) - set(BASE_PARSERS) if entries[s])  # `x = []`: absent
    pack = Pack(
        id=meta.get("id") or path.stem,
        name=meta.get("name") or path.stem,
        files=tuple(files),
        round_track=rt,
        round_track_provenance=rt_prov,
        magicians=entries["magician"],
        spells=entries["spell"],
        curses=entries["curse"],
        pages=entries["grimoire"],
        spec=(name, overrides),
        sections=MappingProxyType({s: MappingProxyType(entries[s]) for s in module_sections}),
        section_modules=MappingProxyType({s: MODULE_SECTIONS[s][0] for s in module_sections}),
        origins=MappingProxyType(origin),
    )
    _index_effects(pack)
    check_pack(pack, origin)
    return pack


def _with_module_cards(pack: Pack, modules: tuple[str, ...]) -> Pack:
    """The pack of a game with ``modules``: each of their sections with a ``base_table`` adds its
    cards, made base cards by ``to_base``, to that table (after the base cards: the base cards'
    order, which setup sorts anyway, never moves)."""
    tables: dict[str, dict[str, Any]] = {t: dict(card_tables(pack)[t]) for t in _BASE_TYPE}
    files = " + ".join(pack.files)
    for section, cards in pack.sections.items():
        module, spec = MODULE_SECTIONS[section]
        if module in modules and spec.check is not None:  # the section as its module needs it whole
            spec.check(cards, {cid: pack.origins.get(cid, files) for cid in cards})
        if module not in modules or not spec.base_table or spec.to_base is None:
            continue
        for cid, card in cards.items():
            base: Any = spec.to_base(card)
            want = _BASE_TYPE[spec.base_table]
            if type(base) is not want or (base.id, base.module) != (cid, module):
                raise TypeError(
                    f"{files}: {section} '{cid}': to_base of module {module!r} returned "
                    f"{type(base).__name__} id {getattr(base, 'id', None)!r}; expected a {want.__name__} "
                    f"with the same id and module={module!r}"
                )
            tables[spec.base_table][cid] = base
    merged = dataclasses.replace(
        pack,
        magicians=tables["magician"],
        curses=tables["curse"],
        pages=tables["grimoire"],
        effects={},
        spec=(*pack.spec, modules),
        indexes={},  # its own: replace() would share the unmerged pack's
    )
    _index_effects(merged)
    for m in merged.magicians.values():
        if m.module:
            check_magician_layout(m, f"{files}: magician '{m.id}'")
    return merged


def _index_effects(pack: Pack) -> None:
    pack.effects.update({(s.id, "effect"): s.effect for s in pack.spells.values()})
    pack.effects.update({(c.id, "effect"): c.effect for c in pack.curses.values()})
    for p in pack.pages.values():
        pack.effects.update({(p.id, "bonus"): p.bonus, (p.id, "failure"): p.failure})
        if p.monster:
            pack.effects[(p.id, "arrival")] = p.monster.arrival
    for m in pack.magicians.values():
        pack.effects[(m.id, "activated")] = m.activated
        for i, mod in enumerate(m.mods):
            if mod["kind"] == "trigger":
                pack.effects[(m.id, f"trigger{i}")] = tuple(mod["effect"])
    for name, cards in pack.sections.items():
        spec = MODULE_SECTIONS[name][1]
        if spec.effects is not None:
            for card in cards.values():
                for part, ops in spec.effects(card):
                    pack.effects[(card.id, part)] = tuple(ops)


# -- content hashes of a game's card pack (saves and pickles; see the docstring) ---------------

# path -> ((mtime_ns, size, inode), hex digest)
_CACHE: dict[str, tuple[tuple[int, int, int], str]] = {}


def pack_files(pack: str, overrides: tuple[str, ...]) -> list[Path]:
    """The files a pack spec reads, in load order (named packs resolved as ``load_pack`` does)."""
    return [resolve_pack_path(pack)] + [resolve_pack_path(o) for o in overrides]


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes; OSError (FileNotFoundError ...) when it cannot be read."""
    key = str(path)
    st = os.stat(path)
    sig = (st.st_mtime_ns, st.st_size, st.st_ino)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == sig:
        return hit[1]
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    _CACHE[key] = (sig, digest)
    return digest


def pack_sha256(pack: str, overrides: tuple[str, ...]) -> list[str]:
    """One hex sha256 per pack file (the pack, then each override). Raises OSError when a file
    cannot be read."""
    return [file_sha256(p) for p in pack_files(pack, overrides)]


def pack_mismatch(pack: str, overrides: tuple[str, ...], recorded: list[str]) -> str | None:
    """None when the pack files still hash to ``recorded``; otherwise why not, naming the file and
    both hashes."""
    files = pack_files(pack, overrides)
    if len(recorded) != len(files):
        return (
            f"the save records {len(recorded)} pack hash(es) but its config names {len(files)} pack "
            f"file(s) ({', '.join(map(str, files))})"
        )
    for path, then in zip(files, recorded, strict=True):
        try:
            now = file_sha256(path)
        except OSError as exc:
            return f"card pack file {path} cannot be read: {exc}"
        if now != then:
            return (
                f"card pack file {path} changed since the state was saved: its sha256 is now {now}, "
                f"the save recorded {then}; load the save with the pack it was made with"
            )
    return None
