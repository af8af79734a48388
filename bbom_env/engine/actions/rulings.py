"""The Destroy Action's ruling on standing surcharges (docs/rules.md section 4.4; V-32): "Destroying
a Curse costs you 1 additional matching Element" (a Phobia's text, a module's card active in a
zone) on a Curse with tokens of another colour: the extra Element may be of the Curse's Element or
of a token's colour (``token_surcharge``). The other rulings on modifiers sit with their Actions
(``actions/base.py``: V-31's Cure targets, V-36's forbidden Curses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import (
    NUM_ELEMENTS,
)
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import Cost

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.records import CurseOnTrack


def other_colours(curse: CurseOnTrack, el: int) -> bool:
    """Whether the Curse carries an Element token of another colour than its Element (A-62)."""
    tokens = curse.tokens
    return any(tokens[e] for e in range(NUM_ELEMENTS) if e != el)


def token_surcharge(
    state: GameState, p: int, curse: CurseOnTrack, base: tuple[int, ...], el: int, extra: int
) -> tuple:
    """V-32: the cost of destroying an Element Curse (``base``: printed cost plus tokens, Element
    ``el``) for player p, whose standing "matching Element" surcharge ``extra``
    (``hooks.standing_surcharge``) may be paid in the Curse's Element or any token's colour on it.
    Said as the payment's one-of part (``payment.Cost.one_of``: ``extra`` Elements among those
    colours): the payer chooses the colour by the cards they pay with (auto payment: the canonical
    least-waste payment), and the cost is payable when any colour makes it so. The other modifiers
    apply as usual, then the modules' cost transforms (Spontaneous Elements, the Air conversion)."""
    req = list(hooks.apply_cost_mods(hooks.player_mods(state, p), "destroy", el, base))
    req[el] = max(0, req[el] - extra)  # the surcharge leaves the Curse's part for the one-of part
    colours = tuple(e for e in range(NUM_ELEMENTS) if e == el or curse.tokens[e])
    cost = Cost(req[0], req[1], req[2], req[3], req[4], one_of=extra, one_of_set=colours)
    return hooks.transform_cost(state, p, "destroy", cost)
