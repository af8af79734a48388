"""Rules as modules: what a module adds to the game, and the ruleset of a module set.

The base game is the first module; a game's ruleset is the base plus ``config.modules`` in that
order (docs/rules.md section 9: the Vth Element's Dark Matter and Phobia modules). A module
(``Module``: its docstring and docs/engine.md, "Writing a module", go through every part) declares
move blocks and the Actions of the Action menu (``MenuAction``: the menu loops over registered
Actions and never names a module); the frame kinds and effect ops it registers with the
interpreter (``resolver.frame``, ``ops.OPS``), its decision and modifier kinds and modifier sources
(read by ``hooks.player_mods``); its own part of the state (``state_type``) and its pack sections;
setup steps (run after the base setup, so the base draws from the RNG are unchanged), invariants,
statistics and render parts. ``unregister(name)`` removes a module again (tests register toys).

Every list that feeds a layout (decision kinds, modifier kinds, payment Actions, Curse types) is
the base list followed by the modules' additions: ``ruleset(modules).decision_kinds`` and so on.
The base game's part of each never moves when a module adds to it.

This module is the interpreter core's registry: it imports no rules code. The base game's module
is assembled in ``actions/base_game.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from bbom_env.engine.cards import pack as cards
from bbom_env.engine.cards import vocab
from bbom_env.engine.cards.checks import check_module_kinds, check_module_ops, check_module_sections
from bbom_env.engine.cards.pack import PackSection
from bbom_env.engine.core import moves
from bbom_env.engine.core.moves import BASE, BlockSpec, Move, canonical_modules, register_blocks
from bbom_env.engine.core.resolver import OPS  # the op handlers (a module registers its own first)
from bbom_env.engine.model import constants
from bbom_env.engine.model import typed as typed_fields

if TYPE_CHECKING:
    from bbom_env.engine.cards.pack import Magician, Pack
    from bbom_env.engine.core.config import GameConfig
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.play.decision import Decision


class CostTransform(NamedTuple):
    """A module's way to pay more (``Module.cost_transforms``; docs/rules.md section 4.10):
    ``applies(state, payer)`` whether the payer may use it now (e.g. holds a pair of Dark Matter
    cards, section 4.9); ``transform(state, payer, action, cost, banned)`` the cost of ``action``
    with it (``banned``: the Elements barred for the payer's Action, section 4.10), the cost itself
    where it adds nothing. ``hooks.adjust_cost`` and the seat view apply the transforms that apply,
    in module order, after the "cost" modifiers."""

    applies: Callable[[GameState, int], bool]
    transform: Callable[[GameState, int, str, tuple, frozenset[int]], tuple]


@dataclass(frozen=True)
class MenuAction:
    """An Action of the Action menu (docs/rules.md section 4, DP-03).

    ``legal(state, menu)`` returns (a list, or any iterable) the ids of this Action the decider
    may choose now (``menu`` is the ``menu.MenuView`` of the pending menu: the decider, the
    Elements they can pay with, their modifiers; ``menu.plain(action)`` says when no modifier
    touches the Action); ``choose(state, frame, move)`` pushes what choosing it starts (usually a
    payment frame, then the Action's own frames)."""

    name: str
    blocks: tuple[str, ...]
    legal: Callable[[GameState, Any], Iterable[int]]
    choose: Callable[[GameState, dict, Move], None]


@dataclass(frozen=True)
class CurseRule:
    """How a module's Curse type differs from the base's Curses (docs/rules.md 4.4, 4.7).

    ``cost(state, player, curse)``: what destroying such a Curse (a ``records.CurseOnTrack``) with
    the Destroy Action costs (a ``payment.Cost``; the base's printed cost, tokens and "cost"
    modifiers do not apply: the module adds what it wants). ``by_effect(config)``: whether an
    effect that destroys "a Curse" (the ``destroy_curse`` op) may target one (V-07: a Dark Curse
    only with ``dark_curse_destroy_by_effect``); neutralizing is always allowed. ``tokens``: whether
    Element tokens may go on one (V-08: never on a Dark Curse). ``stat``: a statistic counted, on
    top of ``curses_destroyed``, each time one is destroyed ("" for none). ``stacks``: a Curse of
    this type may lie on top of another Curse in a track slot (V-09: the Dark Curse an effect adds
    to an occupied space); the base's Curses never do (saves are checked for it)."""

    type: str
    cost: Callable[[GameState, int, Any], Any]
    by_effect: Callable[[GameConfig], bool] = lambda config: True
    tokens: bool = True
    stat: str = ""
    stacks: bool = False


@dataclass(frozen=True)
class Switch:
    """A rules switch a module declares (docs/rules_decisions.md): a ``GameConfig`` keyword whose
    value is one of ``allowed`` (a tuple, or a range of ints), of the default's type; a game
    without the module takes only the default. ``rule``: the ambiguity id it answers. Read with
    ``config.switch(name)``."""

    name: str
    default: Any
    allowed: tuple[Any, ...] | range
    rule: str = ""

    def refusal(self, value: Any) -> str:
        """The empty string when ``value`` is allowed, else the allowed values (for the ConfigError)."""
        if type(value) is type(self.default) and value in self.allowed:
            return ""
        if isinstance(self.default, bool):
            return "True or False"
        if isinstance(self.allowed, range):
            return f"an int from {self.allowed.start} to {self.allowed.stop - 1} ({self.rule})"
        return ", ".join(map(str, self.allowed))


@dataclass(frozen=True)
class Module:
    """What a rules module adds. Only ``name`` is required; docs/engine.md, "Writing a module",
    says what the engine does with each field. ``modifier_sources`` are asked fresh on every query
    (they must not call ``hooks``: they are what hooks read)."""

    name: str
    blocks: tuple[BlockSpec, ...] = ()
    actions: tuple[MenuAction, ...] = ()
    frames: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    op_schemas: tuple[tuple[str, dict[str, tuple[Any, Any]]], ...] = ()
    decision_kinds: tuple[str, ...] = ()
    modifier_kinds: tuple[str, ...] = ()
    modifier_schemas: tuple[tuple[str, dict[str, tuple[Any, Any]]], ...] = ()
    modifier_sources: tuple[Callable[[GameState, int], Iterable[dict]], ...] = ()
    pay_actions: tuple[str, ...] = ()
    curse_types: tuple[str, ...] = ()
    curse_rules: tuple[CurseRule, ...] = ()
    cost_transforms: tuple[CostTransform, ...] = ()
    card_codes: tuple[int, ...] = ()
    card_names: tuple[str, ...] = ()  # one per card code: ``code_name``'s
    cost_parts: tuple[str, ...] = ()
    pack_sections: tuple[PackSection, ...] = ()
    state_type: type | None = None
    decisions: tuple[tuple[str, Callable[[GameState, dict], Decision]], ...] = ()
    setup: tuple[Callable[[GameState], None], ...] = ()
    invariants: tuple[Callable[[GameState], None], ...] = ()
    # A loaded save's checks of the module's facts (its state's ranges and ids, docs/engine.md,
    # "Writing a module"): run by ``from_json`` before the invariants and before any rule reads the
    # state; each raises AssertionError whose message starts with the field path
    # (``ext.dark_matter.spread: ...``), which the loader raises as a ``SaveError``. Modules list
    # them among their invariants too, so that play checks the same facts.
    save_checks: tuple[Callable[[GameState], None], ...] = ()
    stats: tuple[str, ...] = ()
    render: tuple[Callable[[GameState], list[str]], ...] = ()
    requires: tuple[str, ...] = ()
    pack_files: tuple[str, ...] = ()
    offer_magician: Callable[[GameConfig, Magician], bool] | None = None
    # Seams for Madness cards that keep their identity (the Phobia module, docs/rules.md 9.2), asked
    # only in a game with modules (a base game never calls one). ``madness_arrived(state, seat,
    # code, zone)``: a card arrived directly in a hand or a support by an effect ("hand",
    # "support": V-21, V-22). ``recup_drawn(state, seat)``: after the Recuperation draw (5.1);
    # True when the module pushed frames that end the Recuperation, the elimination check
    # included (V-35). ``under_curse(state, curse id, code)``: a card of the Madness pile goes
    # under a Curse (the Sorcerer, A-43); True when the module keeps it (V-29).
    # ``from_curse(state, curse id)``: the cards it kept under a Curse that leaves the track.
    madness_arrived: tuple[Callable[[GameState, int, int, str], None], ...] = ()
    recup_drawn: tuple[Callable[[GameState, int], bool], ...] = ()
    under_curse: tuple[Callable[[GameState, str, int], bool], ...] = ()
    from_curse: tuple[Callable[[GameState, str], list[int]], ...] = ()
    switches: tuple[Switch, ...] = ()
    rulings: tuple[tuple[str, Callable[[GameConfig], Any]], ...] = ()
    doc: str = ""


MODULES: dict[str, Module] = {}


def register(module: Module) -> None:
    """Make a module available to ``GameConfig.modules`` (the base game registers itself)."""
    if module.name in MODULES and MODULES[module.name] is not module:
        raise ValueError(f"a module named {module.name!r} is already registered")
    if module.name != BASE and BASE not in MODULES:
        raise ValueError("the base game's module must be registered first")
    if module.name in MODULES:
        return  # the same module again: nothing to do
    _check_parts(module)  # everything is checked before anything is registered
    _check_rules(module)
    if module.state_type is not None:
        typed_fields.register_state_type(module.name, module.state_type)  # checks its field types
    try:
        register_blocks(module.name, module.blocks)
    except Exception:
        typed_fields.unregister_state_type(module.name)
        raise
    for kind, schema in module.modifier_schemas:
        vocab.register_mod_kind(kind, schema)
    for name, schema in module.op_schemas:
        vocab.register_op(name, schema)
    for section in module.pack_sections:
        cards.register_section(module.name, section)
    MODULES[module.name] = module
    if module.name != BASE:  # the base game's codes have the engine's names
        cards.MODULE_NAMES.add(module.name)
        constants.MODULE_CARD_NAMES.update(zip(module.card_codes, module.card_names, strict=True))
    if module.op_schemas:
        cards.clear_pack_cache()  # a pack may now use the module's ops
    ruleset.cache_clear()


def _check_parts(module: Module) -> None:
    for name, schema in module.op_schemas:
        if name not in module.ops:
            raise ValueError(f"module {module.name!r}: op_schemas op {name!r} not in ops")
        vocab.check_new("op", name, vocab.OP_SCHEMAS, schema, "op")
    missing = [name for name in module.ops if name not in OPS]
    if module.name != BASE and missing:
        raise ValueError(
            f"module {module.name!r}: ops {missing} have no handler: register each with "
            "ops.auto_op or ops.choice_op before the module"
        )
    for kind, schema in module.modifier_schemas:
        if kind not in module.modifier_kinds:
            raise ValueError(f"module {module.name!r}: modifier_schemas kind {kind!r} not in modifier_kinds")
        vocab.check_new("modifier kind", kind, vocab.ALL_MOD_SCHEMAS, schema, "kind")
    names = [s.name for s in module.pack_sections if isinstance(s, PackSection)]
    if len(set(names)) != len(names):
        raise ValueError(f"module {module.name!r} declares a pack section twice: {names}")
    for section in module.pack_sections:
        cards.check_new_section(module.name, section, cards.MODULE_SECTIONS)
    for kind, describe in module.decisions:
        if kind not in module.frames or not callable(describe):
            raise ValueError(
                f"module {module.name!r}: decisions names frame kind {kind!r}; it must be one of the "
                f"module's frames {list(module.frames)}, with a function (state, frame) -> Decision"
            )


def _check_rules(module: Module) -> None:
    _check_cards(module)
    unknown = [part for part in module.cost_parts if part not in constants.MODULE_COST_PARTS]
    if unknown:
        raise ValueError(
            f"module {module.name!r}: cost_parts {unknown} are no module part of payment.Cost "
            f"(one of {list(constants.MODULE_COST_PARTS)})"
        )
    for sw in module.switches:
        if switch_owner(sw.name) is not None or sw.refusal(sw.default):
            raise ValueError(
                f"module {module.name!r}: switch {sw.name!r} is declared already or refuses its default"
            )
    for rule in module.curse_rules:
        if rule.type not in module.curse_types:
            raise ValueError(
                f"module {module.name!r}: curse_rules names Curse type {rule.type!r}, "
                f"not one of its curse_types {list(module.curse_types)}"
            )


def _check_cards(module: Module) -> None:
    """Codes the engine keeps for modules (model/constants.py), each named, none another registered
    module adds (the base game declares its own codes, which the engine names)."""
    taken = {code for m in MODULES.values() if m.name != BASE for code in m.card_codes}
    bad = [c for c in module.card_codes if not constants.MADNESS < c < constants.NUM_CODES or c in taken]
    if module.name != BASE and (bad or len(module.card_names) != len(module.card_codes)):
        raise ValueError(
            f"module {module.name!r}: card_codes {list(module.card_codes)} need one name each "
            f"(card_names) and codes {constants.CURRENCY}..{constants.NUM_CODES - 1} that no other "
            f"registered module adds; refused: {bad}"
        )


@contextmanager
def registered(module: Module) -> Iterator[Module]:
    """``module`` registered for a ``with`` block, and unregistered after only if it was not
    registered before (tests; ``bbom_env.modules`` registers the built modules on import)."""
    was = MODULES.get(module.name) is module
    register(module)
    try:
        yield module
    finally:
        if not was:
            unregister(module.name)


def unregister(name: str) -> None:
    """Remove a registered module: its blocks leave the layouts, its own modifier kinds the pack
    loader, and every ruleset and layout is rebuilt on next use. The frame kinds and ops it
    registered with the interpreter stay (unused without the module). The base game stays."""
    if name == BASE:
        raise ValueError("the base game's module cannot be unregistered")
    if name not in MODULES:
        known = sorted(m for m in MODULES if m != BASE)
        raise ValueError(f"no module {name!r} is registered; registered: {known or 'none'}")
    module = MODULES.pop(name)
    cards.MODULE_NAMES.discard(name)
    for code in module.card_codes:
        constants.MODULE_CARD_NAMES.pop(code, None)
    for kind, _schema in module.modifier_schemas:
        vocab.unregister_mod_kind(kind)
    for op, _schema in module.op_schemas:
        vocab.unregister_op(op)
    if module.op_schemas:
        cards.clear_pack_cache()  # a pack that used the module's ops is refused again
    for section in module.pack_sections:
        cards.unregister_section(section.name)
    typed_fields.unregister_state_type(name)
    moves.MODULE_BLOCKS.pop(name, None)
    moves.layout.cache_clear()
    ruleset.cache_clear()


def _join(modules: Iterable[Module], part: str) -> tuple:
    """The parts in order, each once: a second one is refused, except in the parts of ``_UNION``
    (two modules may enable the same engine kind: the Dark Matter and Phobia modules both take
    abilities away, V-10, V-27)."""
    out: list = []
    for m in modules:
        for item in getattr(m, part):
            if item not in out:
                out.append(item)
            elif part not in _UNION:
                raise ValueError(f"module {m.name!r} declares {part} {item!r} a second time")
    return tuple(out)


# How ``ruleset`` joins each part of the modules (base first): by ``_join``, or chained.
_UNION = ("ops", "modifier_kinds", "cost_parts")
_JOINED = (*_UNION, "actions", "decision_kinds", "pay_actions", "curse_types", "card_codes", "stats")
_CHAIN = (
    "modifier_sources cost_transforms setup invariants save_checks render madness_arrived recup_drawn"
    " under_curse from_curse"
).split()


@dataclass(frozen=True)
class Ruleset:
    """The base game plus a module set, in order; every part is the base's followed by the
    modules' additions."""

    modules: tuple[str, ...]
    parts: tuple[Module, ...]
    actions: tuple[MenuAction, ...]
    action_of_block: dict[str, MenuAction] = field(repr=False)
    ops: tuple[str, ...]
    decision_kinds: tuple[str, ...]
    modifier_kinds: tuple[str, ...]
    modifier_sources: tuple[Callable[[GameState, int], Iterable[dict]], ...]
    pay_actions: tuple[str, ...]
    curse_types: tuple[str, ...]
    card_codes: tuple[int, ...]
    cost_parts: tuple[str, ...]
    stats: tuple[str, ...]
    cost_transforms: tuple[CostTransform, ...]
    setup: tuple[Callable[[GameState], None], ...]
    invariants: tuple[Callable[[GameState], None], ...]
    render: tuple[Callable[[GameState], list[str]], ...]
    save_checks: tuple[Callable[[GameState], None], ...]
    state_types: tuple[tuple[str, type], ...]  # (module, state type) in ruleset order
    pack_sections: tuple[tuple[str, str], ...]  # (module, section) the pack must have
    decisions: dict[str, Callable[[GameState, dict], Decision]] = field(repr=False)
    # Curse type -> its CurseRule, for the modules' Curse types that have one (none in a base game).
    curse_rules: dict[str, CurseRule] = field(repr=False)
    # The Madness identity seams (``Module.madness_arrived`` ...), in module order.
    madness_arrived: tuple[Callable[[GameState, int, int, str], None], ...]
    recup_drawn: tuple[Callable[[GameState, int], bool], ...]
    under_curse: tuple[Callable[[GameState, str, int], bool], ...]
    from_curse: tuple[Callable[[GameState, str], list[int]], ...]
    rulings: dict[str, Callable[[GameConfig], Any]] = field(repr=False)


@cache
def ruleset(modules: tuple[str, ...] = ()) -> Ruleset:
    """The ruleset of ``config.modules`` (in the canonical order, ``moves.canonical_modules``,
    whatever order it is given in); ValueError naming an unknown or missing module."""
    modules = canonical_modules(tuple(modules))
    if BASE not in MODULES:  # importing bbom_env.engine registers it (actions/base_game.py)
        raise RuntimeError("the base game's module is not registered: import bbom_env.engine first")
    unknown = [m for m in modules if m not in MODULES or m == BASE]
    if unknown:
        none = "none (no module is registered: import bbom_env registers the package's own)"
        available = ", ".join(repr(m) for m in sorted(MODULES) if m != BASE) or none
        raise ValueError(f"unknown module(s) {unknown}; available modules: {available}")
    twice = sorted({m for m in modules if modules.count(m) > 1})
    if twice:
        raise ValueError(f"module(s) {twice} named more than once: name each module once")
    parts = (MODULES[BASE], *(MODULES[m] for m in modules))
    for m in parts:
        missing = [r for r in m.requires if r != BASE and r not in modules]
        if missing:
            raise ValueError(f"module {m.name!r} needs module(s) {missing} in the same game")
    joined: dict[str, Any] = {part: _join(parts, part) for part in _JOINED}
    joined |= {part: tuple(item for m in parts for item in getattr(m, part)) for part in _CHAIN}
    by_block: dict[str, MenuAction] = {}
    for a in joined["actions"]:
        for b in a.blocks:
            if b in by_block:
                raise ValueError(f"move block {b!r} belongs to two Actions: {by_block[b].name}, {a.name}")
            by_block[b] = a
    return Ruleset(
        modules=tuple(modules),
        parts=parts,
        action_of_block=by_block,
        state_types=tuple((m.name, m.state_type) for m in parts if m.state_type is not None),
        pack_sections=tuple((m.name, s.name) for m in parts for s in m.pack_sections if s.required),
        decisions={kind: describe for m in parts for kind, describe in m.decisions},
        curse_rules={rule.type: rule for m in parts for rule in m.curse_rules},
        rulings=_rulings(parts),
        **joined,
    )


def _rulings(parts: tuple[Module, ...]) -> dict[str, Callable[[GameConfig], Any]]:
    out: dict[str, Callable[[GameConfig], Any]] = {}
    for m in parts:
        for question, answer in m.rulings:
            if question in out:
                raise ValueError(f"module {m.name!r} answers rule question {question!r} a second time")
            out[question] = answer
    return out


def ruling(state: GameState, question: str, default: Any) -> Any:
    """The game's modules' answer to a rule question (``Module.rulings``), else ``default``."""
    answer = state.rules.rulings.get(question)
    return default if answer is None else answer(state.config)


def switch_defaults(modules: Iterable[str] | None = None) -> dict[str, Any]:
    """The default of every switch of the registered modules named in ``modules`` (None: all),
    by switch name, in registration and declaration order."""
    named = None if modules is None else tuple(modules)  # a save's list may hold anything
    return {
        s.name: s.default for m in MODULES.values() if named is None or m.name in named for s in m.switches
    }


def switch_owner(name: str) -> tuple[str, Switch] | None:
    """(module, switch) of the registered module that declares switch ``name``, or None."""
    return next(((m.name, s) for m in MODULES.values() for s in m.switches if s.name == name), None)


def pack_spec(config: GameConfig, modules: tuple[str, ...] | None = None) -> tuple[str, tuple[str, ...]]:
    """(pack, overrides) a game of ``config`` reads: its modules' ``pack_files`` (each once, in
    module order), then ``config.pack_overrides``, so a user's override can replace a module card.
    Saves hash these files (``pack_hash``). ``modules``: in that order instead (a save written
    before module order was canonical recorded its hashes in its own order)."""
    files: list[str] = []
    for name in config.modules if modules is None else modules:
        module = MODULES.get(name)
        for f in module.pack_files if module is not None else ():
            if f not in files and f not in config.pack_overrides:
                files.append(f)
    return config.pack, (*files, *config.pack_overrides)


def game_pack(config: GameConfig) -> Pack:
    """The card pack a game of ``config`` plays with (``cards.load_pack`` of ``pack_spec``, with
    the modules' cards in the base tables where their sections say so)."""
    return cards.load_pack(*pack_spec(config), modules=config.modules)


def check_game_pack(pack: cards.Pack, modules: tuple[str, ...]) -> None:
    """What a game of ``modules`` needs of its card pack beyond loading it: no modifier kind or
    effect op of a module the game lacks, and every section its modules need. Setup and save
    loading ask it, and ``bbom-cards validate`` for every module set, so that they agree; each
    refusal is a PackError naming the file, the card and the field."""
    rules = ruleset(modules)
    check_module_kinds(pack, modules, rules.modifier_kinds)  # a module's kinds need the module
    check_module_ops(pack, modules, rules.ops)  # and so do its ops
    check_module_sections(pack, rules.pack_sections)  # and its cards need their section


def offered_magicians(config: GameConfig, pack: Pack) -> list[str]:
    """The Magician ids of the Magician choice (setup step 6), sorted: the base Magicians and the
    modules' Magicians their module offers in this game."""
    out = []
    for mid, m in pack.magicians.items():
        owner = MODULES.get(m.module) if m.module else None
        if owner is None and m.module:
            continue
        if owner is not None and owner.offer_magician is not None and not owner.offer_magician(config, m):
            continue
        out.append(mid)
    return sorted(out)
