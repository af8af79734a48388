"""The Action menu (docs/rules.md section 3.4, DP-03): END plus every registered Action the decider can
take now. The menu names no Action: it loops over ``ruleset(config.modules).actions`` and hands a
chosen id to the Action that owns its block (``rules.MenuAction``). Each Action's ``legal`` reads
the decider's seat view (``payment/seat.py``): its costs, bans and funds, and the one solver.

A menu frame (``frames.MenuFrame``) has the ``player`` whose menu it is and ``grants``: -1 on the
Active Player's own Action phase (unlimited Actions), else the number of granted Actions left
(section 4.12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.cards.checks import MAX_COST
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, frame
from bbom_env.engine.model.constants import COST_PARTS, MAX_POWER
from bbom_env.engine.payment.seat import seat_view

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.frames import MenuFrame

Req = tuple[int, ...]


def req_of(e: int, n: int) -> Req:
    """A cost of n Elements of Element e: (fire, water, earth, air, any)."""
    r = [0] * COST_PARTS
    r[e] = n
    return tuple(r)


# ELEMENT_COSTS[e][n]: ``req_of(e, n)``, for the printed costs of the Actions (the pack's checks
# bound a cost by ``checks.MAX_COST``; a Spell's power X multiplies its activation cost).
ELEMENT_COSTS = tuple(tuple(req_of(e, n) for n in range(4 * MAX_COST * MAX_POWER)) for e in range(4))


def menu_legal(state: GameState, f: MenuFrame) -> list[int]:
    """DP-03: END plus every Action whose target exists and whose cost can be paid."""
    view = seat_view(state, f["player"])
    out = [M.END]
    for action in state.rules.actions:
        out.extend(action.legal(state, view))
    out.sort()
    return out


def run_menu(state: GameState, f: MenuFrame) -> None:
    if f["grants"] == 0 or state.players[f["player"]].eliminated:
        done(state, f)  # granted Actions used up, or A-73
        return
    f["decider"] = f["player"]


def answer_menu(state: GameState, f: dict, move: int) -> None:  # rules.MenuAction.choose takes a dict
    if move == M.END:
        done(state, f)
        return
    if f["grants"] > 0:
        f["grants"] -= 1
    mv = M.decode(move, state.config.modules)
    action = state.rules.action_of_block.get(mv.block)
    if action is None:
        raise AssertionError(f"menu: no registered Action owns move block {mv.block} ({mv})")
    action.choose(state, f, mv)


frame("menu", run_menu, menu_legal, answer_menu)
