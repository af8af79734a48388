"""Checks that a card pack's module content comes with its module (docs/rules.md section 9; docs/engine.md,
"Writing a module"): a modifier kind or an effect op that only a rules module brings, and a
section a module needs. Setup and save loading ask them for each game (``setup.py``,
``save_check.py``): a base game never runs a module's kind or op, and a game with a module has the
cards it reads. Each pack's uses are found once, in one walk of its effects, on first use.

Every error is a PackError naming the file, the card and the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bbom_env.engine.cards.vocab import BASE_MODIFIER_KINDS, BASE_OPS, PackError, walk_ops

if TYPE_CHECKING:
    from bbom_env.engine.cards.pack import Pack, PackSection

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


def _module_uses(pack: Pack) -> tuple[tuple[_Use, ...], tuple[_Use, ...]]:
    """(modifier kind uses, effect op uses) of the pack: found on first use and kept on the pack
    (``Pack.indexes``), read by every setup."""
    found = pack.indexes.get(_module_uses)
    if found is None:
        found = pack.indexes[_module_uses] = _find_uses(pack)
    return found


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
