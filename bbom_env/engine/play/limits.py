"""Limits that shrink (docs/rules.md sections 4.11, 9.2): when a player's Magician ability is lost (for
good, or while a "lose_ability" modifier lasts), a raised support capacity or Spell limit falls
back to the printed one, and the player must come back within it.

``lose_ability(state, p)`` sets the ability off for good and reacts. A "lose_ability" modifier
added by the ``modifier`` op reacts through ``react`` (V-10: "All players lose their
Ability until the next Monster"); a module whose modifier source starts yielding one (a Phobia
placed in a support, V-27) calls ``enforce_limits(state, p)`` (outside the run loop) or
``react(state, p)`` (inside a frame) after the change. The reaction is a
``limits`` frame owned by the player: while they hold more Spells than their limit, they choose a
Spell to put in the box (PICK_SPELL); while their support holds more cards than its capacity, they
choose one to discard (PICK_SUPPORT). Which cards count: a Magician whose own ability raises the
support capacity (the blue Magician) comes down to the printed slots counting every slot, a Madness
included, and discards any card but a Phobia ("discard support cards until she has no more than
three"; a crushed card shares its Phobia's slot), eliminated when only Phobias are left to discard
(V-27, A-75); for anyone else only non-Madness cards count (Madness beyond capacity stays, A-26),
so losing an ability that raised nothing asks nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, frame, push, run
from bbom_env.engine.model.constants import MAX_SUPPORT_SLOTS, PHOBIA_BASE, is_madness
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.zones import eliminate, spell_to_box

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.frames import LimitsFrame


def lose_ability(state: GameState, p: int) -> None:
    """Player p's Magician ability is off for the rest of the game; limits shrink at once."""
    state.players[p].ability_lost = True
    state.event("ability_lost", p)
    enforce_limits(state, p)


def enforce_limits(state: GameState, p: int) -> None:
    """Push the reaction to a shrunk limit and run to the next decision (nothing when none shrank)."""
    if react(state, p):
        state.legal_cache = None
        run(state)


def react(state: GameState, p: int) -> bool:
    """Inside a frame (an op, a module's frame): push the reaction when a limit shrank (True); the
    run loop reaches it next."""
    shrank = bool(_excess_spells(state, p) or _excess_support(state, p))
    if shrank:
        push(state, {"kind": "limits", "player": p, "decider": None})
    return shrank


def _excess_spells(state: GameState, p: int) -> int:
    return max(0, len(state.players[p].spells) - hooks.spell_limit(state, p))


def _raises_support(state: GameState, p: int) -> bool:
    """Whether player p's Magician's own ability raises the support capacity (the blue Magician)."""
    return any(m["kind"] == "support_slots" for m in state.pack.magicians[state.players[p].magician].mods)


def _element_slots(state: GameState, p: int) -> list[int]:
    """The support slots the player may discard to come within capacity."""
    support = state.players[p].support
    if _raises_support(state, p):  # V-27, A-75: any card but a Phobia
        return [s for s, slot in enumerate(support) if slot.card < PHOBIA_BASE]
    return [s for s, slot in enumerate(support) if not is_madness(slot.card)]


def _excess_support(state: GameState, p: int) -> int:
    support = state.players[p].support
    # V-27, A-75: every slot counts for the blue Magician, else only the non-Madness cards
    held = len(support) if _raises_support(state, p) else len(_element_slots(state, p))
    return max(0, held - hooks.support_capacity(state, p))


def run_limits(state: GameState, f: LimitsFrame) -> None:
    p = f["player"]
    if state.players[p].eliminated or not (_excess_spells(state, p) or _excess_support(state, p)):
        done(state, f)
        return
    if not _excess_spells(state, p) and not _element_slots(state, p):
        done(state, f)  # V-27, A-75: more Phobias than slots, nothing else to discard
        eliminate(state, p)
        return
    f["decider"] = p


def legal_limits(state: GameState, f: LimitsFrame) -> list[int]:
    p = f["player"]
    if _excess_spells(state, p):
        return [M.PICK_SPELL + i for i in range(len(state.players[p].spells))]
    return [M.PICK_SUPPORT + M.support_arg(0, s) for s in _element_slots(state, p) if s < MAX_SUPPORT_SLOTS]


def answer_limits(state: GameState, f: LimitsFrame, move: int) -> None:
    p = f["player"]
    if move >= M.PICK_SPELL:  # a Spell to the box, else a support slot to discard (legal_limits)
        spell_to_box(state, p, move - M.PICK_SPELL)
        return
    code = state.players[p].take_support(move - M.PICK_SUPPORT)
    state.players[p].discard[code] += 1
    state.event("support_discard", p, code)


frame("limits", run_limits, legal_limits, answer_limits)
