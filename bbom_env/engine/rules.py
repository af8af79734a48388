"""Rules as modules: what a module adds to the game, and the ruleset of a module set.

The base game is the first module; a game's ruleset is the base plus ``config.modules`` in that
order (RULES.md section 9: the Vth Element's Dark Matter and Phobia modules). A module declares:

* move blocks (appended after the base blocks: ``moves.register_blocks``) and the Actions of the
  Action menu (``MenuAction``: its legal ids and what choosing one pushes), so the menu loops over
  registered Actions and never names a module;
* the frame kinds and effect ops it registers with the interpreter (``resolver.frame``,
  ``ops.OPS``), its decision kinds, modifier kinds, Actions a payment can be for, Curse types and
  card codes, its pack sections;
* setup steps (run after the base setup, so the base draws from the RNG are unchanged), invariants,
  statistics and render parts.

Every list that feeds a layout (decision kinds, modifier kinds, payment Actions, Curse types) is
the base list followed by the modules' additions: ``ruleset(modules).decision_kinds`` and so on.
The base game's part of each never moves when a module adds to it.

This module is the interpreter core's registry: it imports no rules code. The base game's module
is assembled in ``base_module.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .moves import BASE, BlockSpec, Move, register_blocks

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class MenuAction:
    """An Action of the Action menu (RULES.md section 4, DP-03).

    ``legal(state, menu)`` yields the ids of this Action the decider may choose now (``menu`` is
    the ``actions.MenuView`` of the pending menu: the decider, the Elements they can pay with,
    their modifiers); ``choose(state, frame, move)`` pushes what choosing it starts (usually a
    payment frame, then the Action's own frames)."""

    name: str
    blocks: tuple[str, ...]
    legal: Callable[[GameState, Any], Iterable[int]]
    choose: Callable[[GameState, dict, Move], None]


@dataclass(frozen=True)
class Module:
    """What a rules module adds. Only ``name`` is required; every other part is optional."""

    name: str
    blocks: tuple[BlockSpec, ...] = ()
    actions: tuple[MenuAction, ...] = ()
    frames: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    decision_kinds: tuple[str, ...] = ()
    modifier_kinds: tuple[str, ...] = ()
    pay_actions: tuple[str, ...] = ()
    curse_types: tuple[str, ...] = ()
    card_codes: tuple[int, ...] = ()
    pack_sections: tuple[str, ...] = ()
    setup: tuple[Callable[[GameState], None], ...] = ()
    invariants: tuple[Callable[[GameState], None], ...] = ()
    stats: tuple[str, ...] = ()
    render: tuple[Callable[[GameState], list[str]], ...] = ()
    requires: tuple[str, ...] = ()
    doc: str = ""


MODULES: dict[str, Module] = {}


def register(module: Module) -> None:
    """Make a module available to ``GameConfig.modules`` (the base game registers itself)."""
    if module.name in MODULES and MODULES[module.name] is not module:
        raise ValueError(f"a module named {module.name!r} is already registered")
    if module.name != BASE and BASE not in MODULES:
        raise ValueError("the base game's module must be registered first")
    register_blocks(module.name, module.blocks)
    MODULES[module.name] = module
    ruleset.cache_clear()


def _concat(modules: Iterable[Module], part: str) -> tuple:
    out: list = []
    for m in modules:
        for item in getattr(m, part):
            if item in out:
                raise ValueError(f"module {m.name!r} declares {part} {item!r} a second time")
            out.append(item)
    return tuple(out)


@dataclass(frozen=True)
class Ruleset:
    """The base game plus a module set, in order; every part is the base's followed by the
    modules' additions."""

    modules: tuple[str, ...]
    parts: tuple[Module, ...]
    actions: tuple[MenuAction, ...]
    action_of_block: dict[str, MenuAction] = field(repr=False)
    decision_kinds: tuple[str, ...]
    modifier_kinds: tuple[str, ...]
    pay_actions: tuple[str, ...]
    curse_types: tuple[str, ...]
    card_codes: tuple[int, ...]
    stats: tuple[str, ...]
    setup: tuple[Callable[[GameState], None], ...]
    invariants: tuple[Callable[[GameState], None], ...]
    render: tuple[Callable[[GameState], list[str]], ...]


@cache
def ruleset(modules: tuple[str, ...] = ()) -> Ruleset:
    """The ruleset of ``config.modules``; ValueError naming an unknown or missing module."""
    if BASE not in MODULES:
        from . import base_module  # noqa: F401  (registers the base game)
    unknown = [m for m in modules if m not in MODULES or m == BASE]
    if unknown:
        known = sorted(m for m in MODULES if m != BASE)
        raise ValueError(f"unknown module(s) {unknown}: available modules are {known or 'none'}")
    parts = (MODULES[BASE], *(MODULES[m] for m in modules))
    for m in parts:
        missing = [r for r in m.requires if r != BASE and r not in modules]
        if missing:
            raise ValueError(f"module {m.name!r} needs module(s) {missing} in the same game")
    actions = _concat(parts, "actions")
    by_block: dict[str, MenuAction] = {}
    for a in actions:
        for b in a.blocks:
            if b in by_block:
                raise ValueError(f"move block {b!r} belongs to two Actions: {by_block[b].name}, {a.name}")
            by_block[b] = a
    return Ruleset(
        modules=tuple(modules),
        parts=parts,
        actions=actions,
        action_of_block=by_block,
        decision_kinds=_concat(parts, "decision_kinds"),
        modifier_kinds=_concat(parts, "modifier_kinds"),
        pay_actions=_concat(parts, "pay_actions"),
        curse_types=_concat(parts, "curse_types"),
        card_codes=_concat(parts, "card_codes"),
        stats=_concat(parts, "stats"),
        setup=tuple(s for m in parts for s in m.setup),
        invariants=tuple(i for m in parts for i in m.invariants),
        render=tuple(r for m in parts for r in m.render),
    )
