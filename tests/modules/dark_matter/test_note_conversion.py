"""``payment_frame._note_conversion`` (V-12: the Air conversion is spent for the turn when the
cards paid cover the cost only with it): for an Element cost with no other module part it asks
``covers`` with the cost's five numbers (the closed form), else with the Cost less the flag. It
must decide as the general check does: ``covers(codes, cost._replace(convert=False))``."""

from __future__ import annotations

import random

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.model.constants import CURRENCY, NUM_ELEMENT_CODES
from bbom_env.engine.payment.cost import Cost, covers
from bbom_env.engine.payment.frame import _note_conversion


def test_the_conversion_is_spent_exactly_when_the_cards_need_it() -> None:
    """Random cards (Element cards, sometimes Dark Matter) against random converted costs (Element
    parts and any; sometimes Spontaneous Elements, one-of, distinct or currency parts): the
    ability is marked used exactly when the general check says the cards need the conversion."""
    rng = random.Random(7)
    state = new_game(GameConfig(num_players=2, pack="default", seed=1, modules=("dark_matter",)))
    spent = kept = 0
    for _ in range(4000):
        parts = [rng.choice((0, 0, 1, 2, 3)) for _ in range(5)]
        extra = rng.choice(({}, {}, {"wildcards": True}, {"distinct": 1}, {"currency": 1}))
        cost = Cost(*parts, convert=True, **extra)
        codes = [rng.randrange(NUM_ELEMENT_CODES) for _ in range(rng.randrange(7))]
        codes += [CURRENCY] * rng.choice((0, 0, 1, 2))
        s = state.clone()
        p = s.active
        s.players[p].ability_used = False
        _note_conversion(s, p, cost.compact(), tuple(codes))
        want = not covers(codes, cost._replace(convert=False))
        assert s.players[p].ability_used == want, (cost, codes)
        spent += want
        kept += not want
    assert spent > 500 and kept > 500
