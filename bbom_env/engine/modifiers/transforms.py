"""The modules' cost transforms (``rules.Module.cost_transforms``): functions that add ways to pay
an Action's cost after its "cost" modifiers (docs/rules.md section 4.10), e.g. the Vth Element's
Spontaneous Elements (a pair of Dark Matter cards as one Element, section 4.9) and the Air
conversion (V-12). ``hooks.adjust_cost`` and the seat view (``payment/seat.py``) apply them after
the modifiers. A base game has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.core.rules import ruleset

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

NO_BAN: frozenset[int] = frozenset()  # shared (hooks.NO_BAN): most payers have no banned Element

# (state, payer, action, cost) -> cost: a transform returns the cost itself when it does not apply.
CostTransform = Callable[["GameState", int, str, tuple], tuple]


def transform_cost(state: GameState, p: int, action: str, req: tuple) -> tuple:
    """The modules' cost transforms applied in order to an Action's cost (after its "cost"
    modifiers)."""
    for transform in ruleset(state.config.modules).cost_transforms:
        req = transform(state, p, action, req)
    return req
