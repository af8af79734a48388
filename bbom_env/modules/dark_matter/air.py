"""The Air conversion (V-12, docs/rules.md section 4.11): the new Air Magician's ability
"During your turn, you may consider 1 Air card as 1 Element of your choice."

Design: a payment option, not an activated ability. The Magician's sheet carries a modifier of the
module's kind ``air_conversion``; while it is active (the ability not lost, V-10), on the owner's own
turn and before the ability is used this turn, the module's cost transform marks the cost of each
of the owner's payments with ``payment.Cost.convert``: the one payment solver may then count one
Air card of the payment, its whole value, as any one other Element (an Element part, the one-of
surcharge, or a different Element of Acquire Dark Matter's "2 cards of different Elements", V-12).
Auto payment uses it only where Element cards alone fall short, before Dark Matter pairs
(docs/rules_decisions.md); in manual payment the Air card is an ordinary pick and the engine
assigns it (DP-P7). A payment that covers its cost only with the conversion spends the ability for
the turn (``payment_frame``; section 4.11: once per turn). A Phobia that bans Air for the payer
stops it (section 4.10: the conversion "stops working").

Why not an activated ability that sets a this-turn modifier: the player would have to choose the
Element before the Action, one more decision and move for a choice the payment solver makes
exactly; and an ability used but not needed would be wasted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import CostTransform, PackIndex, ability_lost, as_cost
from bbom_env.engine.model.constants import COST_ANY, Element

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack

AIR = Element.AIR  # the Element converted; a ban of Air stops the conversion (section 4.10)
KIND = "air_conversion"  # the modifier kind on the Magician's sheet (``ability = [{ kind = ... }]``)
MODIFIER_SCHEMAS: tuple[tuple[str, dict], ...] = ((KIND, {}),)


def _converter_ids(pack: Pack) -> frozenset[str]:
    """Ids of the pack's Magicians with the conversion (a set per pack: the menu asks often)."""
    return frozenset(mid for mid, m in pack.magicians.items() if any(x["kind"] == KIND for x in m.mods))


CONVERTERS: PackIndex[frozenset[str]] = PackIndex(_converter_ids)


def air_conversion_cost(state: GameState, p: int, action: str, req: tuple, banned: frozenset[int]) -> tuple:
    """The module's cost transform for the Air conversion (V-12): ``Cost.convert`` on a cost an
    Element card can pay, for a payer whose conversion is on (``conversion_on``) while Air is
    not banned for this payment (``banned``, section 4.10)."""
    if AIR in banned:
        return req
    cost = as_cost(req)
    if cost.convert or not (
        cost[0] or cost[1] or cost[2] or cost[3] or cost[COST_ANY] or cost.one_of or cost.distinct
    ):
        return req  # nothing an Air card pays (a Dark Matter cost: sections 4.7, 4.8)
    return cost._replace(convert=True)


def conversion_on(state: GameState, p: int) -> bool:
    """Whether player p may use the conversion now (their own turn, not used this turn, the
    ability not lost: V-10, V-12); when False ``air_conversion_cost`` leaves every cost as it is."""
    if p != state.active:
        return False
    pl = state.players[p]
    if pl.ability_used:
        return False
    return pl.magician in CONVERTERS(state.pack) and not ability_lost(state, p)


# The Air conversion (V-12): the module's cost transform for the Air Magician's owner.
AIR_CONVERSION = CostTransform(conversion_on, air_conversion_cost)
