"""The card catalogue: list, show and validate card packs, and write docs/cards.md.

python -m bbom_env.cards list [--pack PACK] [--override PATH ...] [--module NAME ... | --base-only]
python -m bbom_env.cards show ID [--pack PACK] [--override PATH ...] [--module NAME ... | --base-only]
python -m bbom_env.cards validate PATH [--override PATH ...]
python -m bbom_env.cards docs [--out PATH]

Every card carries its provenance (design decision 4): reconstructed cards are not
the real game's cards and are marked ``*`` wherever they are shown; partial cards, only partly the
real card, are marked ``~`` and say which part is known. Cards of a module's pack section
(``[[dark_curse]]`` ...) are listed with their section and module (``dark_curse [dark_matter]``).
``list``, ``show`` and ``docs`` read the cards of every registered rules module (its
``Module.pack_files``, e.g. the Vth Element's Dark Matter cards) on top of the pack, unless
``--module`` names some or ``--base-only`` none.

Exit status: 0 done; 1 ``validate`` found the pack invalid, or ``show`` found no such card; 2 bad
input (usage, a pack that cannot be loaded, an unwritable path). Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from itertools import combinations
from pathlib import Path
from typing import Any, NoReturn

from bbom_env.engine.cards.checks import marked, read_pack_file
from bbom_env.engine.cards.pack import (
    NAMED_PACKS,
    Curse,
    GrimoirePage,
    Magician,
    Pack,
    Spell,
    load_pack,
    resolve_pack_path,
)
from bbom_env.engine.cards.vocab import ALL_MOD_SCHEMAS, OP_SCHEMAS, PackError
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.model.constants import ELEMENT_NAMES, code_name

FULL_PACK_TABLES = ("round_track", "magician", "spell", "curse", "grimoire")

DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "cards.md"
LEVEL_NAMES = {0: "basic", 1: "level 1", 2: "level 2", 3: "level 3"}


# -- effects as text -----------------------------------------------------------------------------


def count_text(count: tuple[int, int]) -> str:
    """The inverse of vocab.parse_count: (base, per_x) -> "2", "X", "2X", "all"."""
    base, per_x = count
    if per_x:
        return "X" if per_x == 1 else f"{per_x}X"
    return "all" if base == 99 else str(base)


def _param_text(kind: Any, value: Any) -> str:
    if kind == "count":
        return count_text(value)
    if kind == "ops":
        return "[" + "; ".join(op_text(o) for o in value) + "]"
    if kind == "mod":
        return mod_text(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _call(name: str, table: dict, schema: dict[str, tuple[Any, Any]], always: tuple[str, ...]) -> str:
    """``name(param=value, ...)``, leaving out parameters at their schema default."""
    parts = []
    for param, (kind, default) in schema.items():
        value = table.get(param)
        if param not in always and default is not None and value == _normal_default(kind, default):
            continue
        parts.append(f"{param}={_param_text(kind, value)}")
    return f"{name}({', '.join(parts)})"


def _normal_default(kind: Any, default: Any) -> Any:
    if kind == "count":
        return (default, 0) if isinstance(default, int) else default
    return default


def op_text(op: dict) -> str:
    """One normalised op as ``draw(target=each, count=X)`` (defaults left out, target kept)."""
    return _call(op["op"], op, OP_SCHEMAS[op["op"]], ("target",))


def mod_text(mod: dict) -> str:
    """One modifier as ``kind(param=value, ...)``: the base kinds and a module's (``replace``,
    ``lose_ability``, a registered module's own kind)."""
    return _call(mod["kind"], mod, ALL_MOD_SCHEMAS[mod["kind"]], ())


def effect_text(ops: tuple[dict, ...] | list[dict]) -> str:
    return "; ".join(op_text(o) for o in ops) if ops else "(none)"


def mark(name: str, provenance: str) -> str:
    """Reconstructed cards are marked ``*``, partial ones ``~`` (README policy 2)."""
    return marked(name, provenance)


def deck_text(deck: tuple[int, ...]) -> str:
    counts: dict[int, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(f"{n} x {code_name(c)}" for c, n in sorted(counts.items()))


# -- the catalogue -------------------------------------------------------------------------------


def rows(pack: Pack) -> list[tuple[str, str, str, str]]:
    """(id, kind, name, provenance) of every card, in pack order by section."""
    out = [(m.id, "magician", m.name, m.provenance) for m in pack.magicians.values()]
    for s in pack.spells.values():
        out.append((s.id, "spell/basic" if s.basic else f"spell/library-{s.level}", s.name, s.provenance))
    out += [(c.id, f"curse/{c.type}", c.name, c.provenance) for c in pack.curses.values()]
    for p in pack.pages.values():
        out.append((p.id, f"grimoire/{p.kind}", pack.card_name(p.id), p.provenance))
    # A module's card: its section and its module, listed once, there (in a game with its module
    # it also joins a base table: a Vth Magician is a Magician, a Dark Curse a Curse).
    mine = {c for cards in pack.sections.values() for c in cards}
    out = [r for r in out if r[0] not in mine]
    for section, cards in pack.sections.items():
        kind = f"{section} [{pack.section_modules[section]}]"
        out += [(c.id, kind, c.name, c.provenance) for c in cards.values()]
    return out


def _module_card_lines(pack: Pack, card: Any) -> list[str]:
    """A module card's fields as readable lines (the module's parser gives the card type; empty
    fields are left out, nested parts and effects written out as text), then its effects."""
    section = pack.section_of(card.id) or ""
    lines = [f"- [[{section}]] card of module {pack.section_modules.get(section, '?')}"]
    skip = {"id", "name", "provenance", "source", "notes", "known"}
    effects = [ops for (cid, _part), ops in pack.effects.items() if cid == card.id]
    shown: list = []  # effects a Magician sheet's lines already show
    for f in dataclasses.fields(card) if dataclasses.is_dataclass(card) else ():
        value = getattr(card, f.name)
        if f.name in skip or (card.id, f.name) in pack.effects or value in effects:
            continue
        if isinstance(value, Magician):  # a module's Magician: a base sheet, shown as one
            lines += _magician_lines(value)
            shown.append(value.activated)
            continue
        text = value_text(value, effects)
        if text:
            lines.append(f"- {f.name.replace('_', ' ')}: {text}")
    for (cid, part), ops in pack.effects.items():
        if cid == card.id and ops not in shown:
            lines.append(f"- {part.replace('_', ' ')}: {effect_text(ops)}")
    return lines


def _is_ops(value: Any) -> bool:
    return (
        isinstance(value, tuple | list)
        and bool(value)
        and all(isinstance(o, dict) and "op" in o for o in value)
    )


def value_text(value: Any, shown: list | tuple = ()) -> str:
    """A card field's value as text: "" for an empty one; a nested card part (a Black Spell, a
    Dark Monster) as ``field: value`` pairs; an effect as its ops (left out when ``shown``
    already lists it, as the card's own effect lines do); a constraint ``kind(param=value)``;
    names joined by commas; True/False as yes/no."""
    if value is None or value == "" or value == () or value == []:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = []
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if (_is_ops(v) and v in shown) or v is False:  # a switch that is off says nothing
                continue
            text = value_text(v, shown)
            if v is True:
                parts.append(f.name.replace("_", " "))
            elif f.name == "text":
                parts.append(f'"{text}"')
            elif text:
                parts.append(f"{f.name.replace('_', ' ')} {text}")
        return "; ".join(parts)
    if _is_ops(value):
        return effect_text(tuple(value)) if all(o["op"] in OP_SCHEMAS for o in value) else _dicts_text(value)
    if isinstance(value, dict):
        return _dict_text(value)
    if isinstance(value, tuple | list):
        return ", ".join(t for t in (value_text(v, shown) for v in value) if t)
    return str(value)


def _dict_text(d: dict) -> str:
    head = d.get("kind") or d.get("op")
    args = ", ".join(f"{k}={value_text(v) or '-'}" for k, v in d.items() if k not in ("kind", "op"))
    return f"{head}({args})" if head else args


def _dicts_text(ds: Any) -> str:
    return "; ".join(_dict_text(d) for d in ds)


def _common(obj: Any) -> list[str]:
    lines = [f"- provenance: {obj.provenance}"]
    if obj.known:
        lines.append(f"- known: {obj.known}")
    if obj.source:
        lines.append(f"- source: {obj.source}")
    if obj.notes:
        lines.append(f"- notes: {obj.notes}")
    return lines


def _magician_lines(m: Magician) -> list[str]:
    lines = [
        f"- element: {ELEMENT_NAMES[m.element]}; support slots: {m.support_slots}; "
        f"spell limit: {m.spell_limit}",
        f"- starting deck ({len(m.starting_deck)} cards): {deck_text(m.starting_deck)}",
        f"- ability: {m.ability_text or '(none)'}",
    ]
    if m.mods:
        lines.append(f"- ability as modifiers: {'; '.join(mod_text(x) for x in m.mods)}")
    if m.activated:
        lines.append(f"- ability as ops (once per turn, A-35): {effect_text(m.activated)}")
    return lines


def _spell_lines(s: Spell) -> list[str]:
    el = ELEMENT_NAMES[s.element]
    cost = f"activation cost {s.activation_cost} {el} (x X)"
    if not s.basic:
        cost += f"; learning cost {s.learning_cost} {el}"
    return [
        f"- {el}, {LEVEL_NAMES[s.level]}; {cost}",
        f"- text: {s.text}",
        f"- effect: {effect_text(s.effect)}",
    ]


def card_lines(pack: Pack, card_id: str) -> tuple[str, list[str]]:
    """(title, detail lines) of one card; KeyError when the pack has no such id. A module's card
    is shown as its module section describes it (also when it joined a base table)."""
    card = pack.module_card(card_id)
    if card is not None:
        return mark(card.name, card.provenance), _module_card_lines(pack, card) + _common(card)
    if card_id in pack.magicians:
        m = pack.magicians[card_id]
        return mark(m.name, m.provenance), _magician_lines(m) + _common(m)
    if card_id in pack.spells:
        s = pack.spells[card_id]
        return mark(s.name, s.provenance), _spell_lines(s) + _common(s)
    if card_id in pack.curses:
        c = pack.curses[card_id]
        cost = ", ".join(f"{n} {ELEMENT_NAMES[e]}" for e, n in enumerate(c.cost) if n)
        lines = [f"- {c.type} Curse; destroy cost: {cost}", f"- text: {c.text}"]
        lines.append(f"- effect: {effect_text(c.effect)}")
        return mark(c.name, c.provenance), lines + _common(c)
    if card_id in pack.pages:
        p = pack.pages[card_id]
        lines = [f"- Grimoire {p.kind} page"]
        if p.kind != "cover":
            lines.append(f"- front, Bonus: {p.bonus_text or '(none)'} -> {effect_text(p.bonus)}")
            lines.append(f"- front, Failure: {p.failure_text or '(none)'} -> {effect_text(p.failure)}")
        if p.monster:
            mo = p.monster
            lines.append(f"- back, Monster: {mo.name}; Curse symbols: {', '.join(mo.curse_symbols)}")
            lines.append(f"- arrival: {mo.text or '(none)'} -> {effect_text(mo.arrival)}")
        return mark(pack.card_name(p.id), p.provenance), lines + _common(p)
    raise KeyError(card_id)


# -- docs/cards.md -------------------------------------------------------------------------------

# The source tags that packs, their comments, the docs and the tests cite, and what each source is.
SOURCES: dict[str, str] = {
    "[BaseRB-zh]": "a complete fan translation of the base game's rulebook into Traditional Chinese "
    "(2016): components, counts, glossary, the Basic Spells' names; rules text cites it as [ZH]",
    "[VthRB]": "the complete English rulebook of The Vth Element, its component illustration and the "
    "sample card and Magician faces it shows",
    "[FAQ-scribd]": "IELLO's official English FAQ v1.3, of which only the first page (seven rulings, the "
    "last cut short) could be read; rules text cites it as [FAQ]",
    "[HJ-FAQ]": "Hobby Japan's blog post of errata and rulings taken from the official FAQ, for the "
    "Japanese edition",
    "[HJ-intro]": "Hobby Japan's product page of the Japanese edition (the starting decks' make-up)",
    "[Mina]": '"Mina\'s not-so-mini review", a BoardGameGeek review (the Basic Spells, the Madness pile)',
    "[Capsule]": '"Capsule review", a BoardGameGeek review (the Basic Spells)',
    "[DaleYu]": "Dale Yu's review on The Opinionated Gamers (2016): components and Magician sheets",
    "[Trictrac]": "Trictrac's review (French): the Library's structure",
    "[Dragonsnains]": "the review by Les Dragons Nains (French): when the Multi-Element Curses start on "
    "the easiest and the hardest level",
    "BGG thread N": "a BoardGameGeek forum thread, by its number",
}

_HEADER = """\
# Card catalogue: {name}

Generated by `python -m bbom_env.cards docs` from `{file}`.
Do not edit by hand: a test checks that this file is up to date.

**Most cards below are not the real game's cards.** The printed texts of most cards of The Big Book
of Madness are not publicly available. Every card says where it comes from:

- **printed**: the effect is the real card's, as public sources give it (`source` names the source
  by its tag, below);
- **partial** (name marked `~`): part of the card is known (`known` says which part, `notes` give
  the details); the rest is completed, and may include the name;
- **reconstructed** (name marked `*`): the real card is unknown; this card was designed to fill its
  place, following the game's structure and themes. Names of reconstructed cards are the project's
  own.

If you own the game, you can replace any card by its printed text with an override pack
(`GameConfig(pack_overrides=("my_cards.toml",))`); see docs/card_pack_format.md.

## Sources

The tags that the packs' `source` and `notes` fields, their comments and the tests cite (the rules'
own sources are described in docs/rules.md section 0.1):

{sources}

A tag says where a fact was read; a partial card's `known` says which part of it is the real card's,
and its `notes` give the details.

Effects are shown as the ops of the effect vocabulary (parameters at their default are left out).
A Spell's X is the power chosen when activating it (1 to 3, paying X times the activation cost).

| | cards | printed | partial | reconstructed |
|---|---|---|---|---|
"""


def _counts_table(pack: Pack) -> list[str]:
    groups: dict[str, list[Magician | Spell | Curse | GrimoirePage]] = {
        "Magicians": list(pack.magicians.values()),
        "Basic Spells": [s for s in pack.spells.values() if s.basic],
        "Library Spells": [s for s in pack.spells.values() if not s.basic],
        "Curses": list(pack.curses.values()),
        "Grimoire cards": list(pack.pages.values()),
    }
    out = []
    for label, cards in groups.items():
        n = {p: sum(c.provenance == p for c in cards) for p in ("printed", "partial", "reconstructed")}
        out.append(f"| {label} | {len(cards)} | {n['printed']} | {n['partial']} | {n['reconstructed']} |")
    return out


def _section(pack: Pack, title: str, ids: list[str]) -> list[str]:
    out = [f"## {title}", ""]
    for cid in ids:
        name, lines = card_lines(pack, cid)
        out += [f"### {name}", "", f"`{cid}`", ""] + lines + [""]
    return out


def _round_track_meta(pack: Pack) -> dict:
    """Source and notes of the round track (the Pack keeps only its provenance): from the last
    pack file that has a [round_track] table, as overrides replace it."""
    meta: dict = {}
    for file in pack.files:
        meta = read_pack_file(Path(file)).get("round_track", meta)  # as the loader read it (a BOM ...)
    return meta


def render_docs(pack: Pack) -> str:
    """The whole of docs/cards.md for a pack (deterministic: pack order)."""
    file = Path(pack.files[0]).name
    sources = "\n".join(["| tag | source |", "|---|---|"] + [f"| {t} | {d} |" for t, d in SOURCES.items()])
    header = _HEADER.format(name=pack.name, file=f"bbom_env/data/{file}", sources=sources)
    out = header.splitlines() + _counts_table(pack)
    if {s.learning_cost for s in pack.spells.values() if not s.basic} == {2}:
        out += [
            "",
            "Learning a Library Spell costs 2 Elements of its Element, whatever its level: the only rule",
            "text (docs/rules.md section 4.2) says 2, and no printed learning cost is known (A-13).",
        ]
    out += ["", "## Round track", "", "Multi-Element Curses added when each round's Monster arrives.", ""]
    out += ["| level | R1 | R2 | R3 | R4 | R5 | R6 |", "|---|---|---|---|---|---|---|"]
    for lvl, row in enumerate(pack.round_track, 1):
        out.append(f"| {lvl} | " + " | ".join(str(v) for v in row) + " |")
    out += ["", f"- provenance: {pack.round_track_provenance}"]
    rt = _round_track_meta(pack)
    out += [f"- {k}: {rt[k]}" for k in ("known", "source", "notes") if rt.get(k)] + [""]
    out += _section(pack, "Magicians", list(pack.magicians))
    out += _section(pack, "Basic Spells", [s.id for s in pack.spells.values() if s.basic])
    for e, el in enumerate(ELEMENT_NAMES):
        ids = sorted(
            (s for s in pack.spells.values() if not s.basic and s.element == e), key=lambda s: s.level
        )
        out += _section(pack, f"Library Spells: {el}", [s.id for s in ids])
    for t in ELEMENT_NAMES + ("multi",):
        label = "Multi-Element" if t == "multi" else t.capitalize()
        out += _section(pack, f"Curses: {label}", [c.id for c in pack.curses.values() if c.type == t])
    for kind, label in (("cover", "Covers"), ("inside", "Inside pages"), ("end", "End page")):
        out += _section(pack, f"Grimoire: {label}", [p.id for p in pack.pages.values() if p.kind == kind])
    for section, cards in pack.sections.items():
        out += _section(pack, f"Module {pack.section_modules[section]}: [[{section}]]", list(cards))
    return "\n".join(out).rstrip() + "\n"


# -- CLI -----------------------------------------------------------------------------------------


def module_names(modules: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """``modules`` in the canonical order, or every registered module when None. An unknown name
    is a ConfigError naming the registered ones."""
    from bbom_env.engine.core.rules import MODULES, ruleset

    ruleset()  # registers the base game, so MODULES lists what is there
    known = sorted(m for m in MODULES if m != "base")
    names = known if modules is None else sorted(set(modules))
    unknown = [m for m in names if m not in known]
    if unknown:
        raise ConfigError(f"--module {unknown[0]!r}: no such module; registered modules: {known or 'none'}")
    return tuple(names)


def module_files(modules: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """The pack files of rules modules (``rules.Module.pack_files``): of ``modules``, or of every
    registered module when None. An unknown name is a ConfigError naming the registered ones."""
    from bbom_env.engine.core.rules import MODULES

    return tuple(f for m in module_names(modules) for f in MODULES[m].pack_files)


def _load(args: argparse.Namespace) -> Pack:
    """The pack of ``--pack``, with the module cards (``--module``/``--base-only``) and ``--override``."""
    modules = [] if getattr(args, "base_only", False) else (getattr(args, "module", None) or None)
    files = module_files(modules)
    names = module_names(modules)
    # As a game with the modules sees it: a module's Magicians and Curses join the base tables.
    overrides = tuple(f for f in files if f not in args.override) + tuple(args.override)
    return load_pack(args.pack, overrides, modules=names)


def module_card_ids(modules: list[str] | tuple[str, ...]) -> set[str]:
    """The ids of the cards the pack files of ``modules`` define (every table of a module file:
    its own sections, and its Magicians that join the base table)."""
    ids: set[str] = set()
    for f in module_files(modules):
        for table in read_pack_file(resolve_pack_path(f)).values():
            if isinstance(table, list):
                ids |= {c["id"] for c in table if isinstance(c, dict) and isinstance(c.get("id"), str)}
    return ids


def _pack_label(args: argparse.Namespace) -> str:
    """The pack as the command line names it ("default", not the file's internal id), with what
    was added to it."""
    label = repr(args.pack)
    if getattr(args, "module", None):
        label += f" + module {', '.join(module_names(args.module))}"
    elif getattr(args, "base_only", False):
        label += " (no module)"
    else:
        label += " + every module's cards"
    if args.override:
        label += f" + override {', '.join(args.override)}"
    return label


def _cmd_list(args: argparse.Namespace) -> int:
    pack = _load(args)
    table = rows(pack)
    what = ""
    if args.module:  # the module's cards only, as the option says
        mine = module_card_ids(args.module)
        table = [r for r in table if r[0] in mine]
        what = f" of module {', '.join(module_names(args.module))}"
    if table:
        w = [max(len(r[i]) for r in table) for i in range(3)]
        for cid, kind, name, prov in table:
            print(f"{cid:<{w[0]}}  {kind:<{w[1]}}  {mark(name, prov):<{w[2] + 1}}  {prov}")
    legend = "* = reconstructed, not the real card; ~ = partial, `show ID` says which part is known"
    print(f"{len(table)} cards{what} in pack {_pack_label(args)} ({legend})")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    pack = _load(args)
    try:
        title, lines = card_lines(pack, args.id)
    except KeyError:
        print(
            f"no card {args.id!r} in pack {_pack_label(args)}; try `python -m bbom_env.cards list`",
            file=sys.stderr,
        )
        return 1
    print(f"{title}  [{args.id}]")
    print("\n".join(lines))
    return 0


def _override_only(path: str) -> list[str]:
    """The tables a full pack needs that the file ``path`` lacks ([] for a full pack, or a file that
    does not load: load_pack then names the error)."""
    if path in NAMED_PACKS:
        return []
    try:
        raw = read_pack_file(resolve_pack_path(path))
    except PackError:
        return []
    return [t for t in FULL_PACK_TABLES if t not in raw]


def _cmd_validate(args: argparse.Namespace) -> int:
    base, overrides, note = args.path, tuple(args.override), ""
    missing = _override_only(args.path) if not overrides else []
    if missing:
        # README: `validate my_cards.toml` checks an override pack, which holds only some cards.
        base, overrides = "default", (args.path,)
        tables = ", ".join(f"[{t}]" if t == "round_track" else f"[[{t}]]" for t in missing)
        note = f" (no {tables}: checked as an override pack on top of the default pack)"
    sets = module_sets(args)
    try:
        pack = load_pack(base, overrides)
    except PackError as exc:
        print(f"INVALID: {_one_line(exc)}{note}", file=sys.stderr)
        return 1
    for modules in sets:  # then as each game reads it (its modules' cards, setup's checks)
        try:
            game_pack_of(base, overrides, modules)
        except (PackError, ConfigError) as exc:
            game = f" (a game with modules {list(modules)})" if modules else ""
            print(f"INVALID: {_one_line(exc)}{game}{note}", file=sys.stderr)
            return 1
    n = len(rows(pack))
    games = ", ".join(str(list(m)) for m in sets)
    print(f"OK: {' + '.join(pack.files)}: {n} cards{note}; valid in games with modules {games}")
    return 0


def module_sets(args: argparse.Namespace) -> list[tuple[str, ...]]:
    """The module sets ``validate`` checks a pack for: ``--module`` names one set, ``--base-only``
    the base game; by default every set of registered modules (the base game first)."""
    from bbom_env.engine.core.rules import BASE, MODULES, ruleset

    if getattr(args, "base_only", False):
        return [()]
    if getattr(args, "module", None):
        module_files(args.module)  # an unknown name: a usage error naming it
        return [tuple(args.module)]
    ruleset()  # registers the base game, so MODULES lists what is there
    names = sorted(m for m in MODULES if m != BASE)
    return [c for k in range(len(names) + 1) for c in combinations(names, k)]


def game_pack_of(base: str, overrides: tuple[str, ...], modules: tuple[str, ...]) -> Pack:
    """The pack a game of ``modules`` reads (``rules.game_pack``: the modules' pack files, then the
    overrides) with the checks setup makes of it (``rules.check_game_pack``): PackError, naming the
    file, the card and the field, exactly when such a game would refuse the pack."""
    from bbom_env.engine.core.config import GameConfig
    from bbom_env.engine.core.rules import check_game_pack, game_pack

    config = GameConfig(pack=base, pack_overrides=overrides, modules=modules)
    pack = game_pack(config)
    check_game_pack(pack, modules)
    return pack


def _cmd_docs(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_docs(load_pack(args.pack, module_files(None))), encoding="utf-8")
    print(f"wrote {out}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line on stderr (exit 2) instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


_PACK_HELP = f"a named pack ({', '.join(NAMED_PACKS)}) or the path of a .toml pack file"
_OVERRIDE_HELP = "an override pack on top (repeatable)"


def _pack_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pack", default="default", help=_PACK_HELP)
    _module_args(
        p,
        "this rules module's cards only: `list` lists them alone, `show` reads them on top of "
        "the pack (repeatable; default: every registered module's cards too)",
        "no module's cards",
    )


def _module_args(p: argparse.ArgumentParser, module_help: str, base_help: str) -> None:
    """--override, and --module / --base-only (one or the other), shared by the subcommands."""
    p.add_argument("--override", action="append", default=[], metavar="PATH", help=_OVERRIDE_HELP)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--module", action="append", metavar="NAME", help=module_help)
    which.add_argument("--base-only", action="store_true", help=base_help)


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="python -m bbom_env.cards", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    p = sub.add_parser("list", help="id, kind, name and provenance of every card")
    _pack_args(p)
    p.set_defaults(fn=_cmd_list)
    p = sub.add_parser("show", help="one card in full")
    p.add_argument("id", help="a card id, as `list` shows them (e.g. spell_fire_combustion)")
    _pack_args(p)
    p.set_defaults(fn=_cmd_show)
    p = sub.add_parser(
        "validate",
        help="load a pack (and overrides); report OK or the error. A file without a full pack's tables "
        "is checked as an override pack on top of the default pack",
    )
    p.add_argument("path", help=_PACK_HELP)
    _module_args(
        p,
        "check the pack for a game with these rules modules only (repeatable; default: the base "
        "game and every set of registered modules, as each game would load it)",
        "check it for base games only",
    )
    p.set_defaults(fn=_cmd_validate)
    p = sub.add_parser("docs", help=f"write the catalogue (default {DOCS_PATH.name})")
    p.add_argument("--pack", default="default", help=_PACK_HELP)
    p.add_argument(
        "--out", default=str(DOCS_PATH), help=f"where to write it (default {DOCS_PATH.name} in docs/)"
    )
    p.set_defaults(fn=_cmd_docs)
    return ap


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _stdout_gone() -> None:
    """The reader closed the pipe (``... | head``): send the rest of the output nowhere, so that the
    interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (tests capture it)
        pass


def main(argv: list[str] | None = None) -> int:
    """Run one command; never a traceback: errors are one line on stderr (exit status above)."""
    try:
        args = _parser().parse_args(argv)  # --help output may meet a closed pipe too
        status = args.fn(args)
        sys.stdout.flush()  # inside the try: a closed pipe fails here, not at interpreter exit
        return status
    except BrokenPipeError:
        _stdout_gone()
        return 0
    except (PackError, ConfigError) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or _one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, never a traceback, as the module promises
        print(f"internal error: {type(exc).__name__}: {_one_line(exc)} (please report it)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
