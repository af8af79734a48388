"""Limits that shrink (RULES.md sections 4.11, 9.2): when a player's Magician ability is lost (for
good, or while a "lose_ability" modifier lasts), a raised support capacity or Spell limit falls
back to the printed one, and the player must come back within it.

``lose_ability(state, p)`` sets the ability off for good and reacts; a module that adds a
"lose_ability" modifier calls ``enforce_limits(state, p)`` after adding it. The reaction is a
``limits`` frame owned by the player: while they hold more Spells than their limit, they choose a
Spell to put in the box (PICK_SPELL); while their support holds more non-Madness cards than its
capacity, they choose one to discard (PICK_SUPPORT; Madness beyond capacity stays, A-26).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import hooks
from . import moves as M
from .constants import MAX_SUPPORT_SLOTS, is_madness
from .resolver import done, frame, push, run

if TYPE_CHECKING:
    from .state import GameState


def lose_ability(state: GameState, p: int) -> None:
    """Player p's Magician ability is off for the rest of the game; limits shrink at once."""
    state.players[p].ability_lost = True
    state.event("ability_lost", p)
    enforce_limits(state, p)


def enforce_limits(state: GameState, p: int) -> None:
    """Push the reaction to a shrunk limit and run to the next decision (nothing when none shrank)."""
    if _excess_spells(state, p) or _excess_support(state, p):
        push(state, {"k": "limits", "p": p, "w": None})
        state.legal_cache = None
        run(state)


def _excess_spells(state: GameState, p: int) -> int:
    return max(0, len(state.players[p].spells) - hooks.spell_limit(state, p))


def _element_slots(state: GameState, p: int) -> list[int]:
    return [s for s, slot in enumerate(state.players[p].support) if not is_madness(slot.card)]


def _excess_support(state: GameState, p: int) -> int:
    return max(0, len(_element_slots(state, p)) - hooks.support_capacity(state, p))


def run_limits(state: GameState, f: dict) -> None:
    p = f["p"]
    if state.players[p].eliminated or not (_excess_spells(state, p) or _excess_support(state, p)):
        done(state, f)
        return
    f["w"] = p


def legal_limits(state: GameState, f: dict) -> list[int]:
    p = f["p"]
    if _excess_spells(state, p):
        return [M.PICK_SPELL + i for i in range(len(state.players[p].spells))]
    return [M.PICK_SUPPORT + M.support_arg(0, s) for s in _element_slots(state, p) if s < MAX_SUPPORT_SLOTS]


def answer_limits(state: GameState, f: dict, move: int) -> None:
    p = f["p"]
    pl = state.players[p]
    mv = M.decode(move, state.config.modules)
    if mv.block == "PICK_SPELL":
        sid = pl.spells.pop(mv.args.spell).spell
        state.box_spells.append(sid)
        state.event("spell_to_box", p, sid)
    elif mv.block == "PICK_SUPPORT":
        code = pl.take_support(mv.args.slot)
        pl.discard[code] += 1
        state.event("support_discard", p, code)
    else:
        raise AssertionError(f"limits: unexpected move block {mv.block}")


frame("limits", run_limits, legal_limits, answer_limits)
