"""Entry points for scenarios: put a game in a chosen situation through the engine's own frames,
for tests, tutorials and analysis (never needed to play a game).

Set the zones you need on a state from ``new_game`` (hands, supports, the track ...), then:

* ``start_action_phase(state, seat)``: it is ``seat``'s turn, Action menu pending (the
  Concentration and Monster phases skipped);
* ``resolve_effect(state, card_id, part, controller, x)``: resolve a card's effect part now, on
  top of whatever is pending, until the next decision;
* ``start_payment(state, payer, cost, action, what)``: a payment of ``cost`` (a ``payment.Cost``)
  pending for ``payer``, as an Action would start it;
* ``grant_actions(state, seat, n)``: ``seat`` may take n Actions now (section 4.12).

Each runs the interpreter to the next decision and clears the legal-move cache, so
``legal_actions()`` and ``pending()`` answer for the new situation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core.resolver import push, run
from bbom_env.engine.model.constants import Phase
from bbom_env.engine.payment.frame import pay_frame
from bbom_env.engine.play.zones import seq

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


def _run(state: GameState) -> None:
    state.legal_cache = None
    run(state)


def start_action_phase(state: GameState, seat: int) -> None:
    """Make it ``seat``'s turn, in its Action phase with the Action menu pending (even when END is
    its only legal move); the rest of the turn (Recuperation, end of turn) follows as usual."""
    state.active = seat
    state.phase = Phase.ACTION
    state.stack = []
    push(
        state,
        {"kind": "menu", "player": seat, "grants": -1, "decider": seat},
        {"kind": "recup", "player": seat, "decider": None},
        {"kind": "endturn"},
    )
    state.legal_cache = None


def resolve_effect(
    state: GameState, card_id: str, part: str = "effect", controller: int = -1, x: int = 1
) -> None:
    """Resolve effect ``part`` (effect / arrival / bonus / failure / activated / trigger<i>) of a
    card for ``controller`` (default: the Active Player) with power X."""
    if (card_id, part) not in state.pack.effects and not part.startswith("trigger"):
        raise KeyError(f"card {card_id!r} has no effect part {part!r}")
    push(state, seq(card_id, part, state.active if controller < 0 else controller, x))
    _run(state)


def start_payment(
    state: GameState, payer: int, cost: tuple, action: str = "activate", what: str = ""
) -> None:
    """A payment of ``cost`` for ``action`` pending for ``payer`` (manual payment asks for the
    cards; auto payment pays at once)."""
    push(state, pay_frame(payer, cost, action, what))
    _run(state)


def grant_actions(state: GameState, seat: int, n: int) -> None:
    """``seat`` may take n Actions now, as "Another Player Takes an Action" grants them."""
    push(state, {"kind": "menu", "player": seat, "grants": n, "decider": None})
    _run(state)
