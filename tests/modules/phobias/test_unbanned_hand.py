"""Auto payment under a ban (docs/rules.md 4.10: a Phobia's "forbid" with an Element, V-36) draws on a
copy of the payer's hand with the banned Elements' cards zeroed (``payment/auto.py``'s ``_cards``:
the three codes of each banned Element, not a pass over every code). On the hands of every seat
at every decision of random games with both modules, for every set of banned Elements, it must
equal the pass over every code (kept here as the oracle) and leave the hand itself as it was.
"""

from __future__ import annotations

from itertools import combinations

from bbom_env.engine import GameConfig
from bbom_env.engine.model.constants import CODE_ELEMENT, NUM_ELEMENTS
from bbom_env.engine.payment.auto import _cards
from tests.builders import random_decisions

_BANS = tuple(frozenset(c) for n in range(1, NUM_ELEMENTS + 1) for c in combinations(range(NUM_ELEMENTS), n))


def _oracle(hand: list[int], banned: frozenset[int]) -> list[int]:
    return [0 if CODE_ELEMENT[c] in banned else n for c, n in enumerate(hand)]


def test_unbanned_hand_is_the_pass_over_every_code() -> None:
    checked = zeroed = 0
    for seed in range(4):
        config = GameConfig(num_players=2 + seed % 4, seed=seed, modules=("dark_matter", "phobias"))
        for state in random_decisions(config, seed):
            for p, pl in enumerate(state.players):
                before = list(pl.hand)
                for banned in _BANS:
                    got = _cards(state, p, banned)[0]
                    assert got == _oracle(pl.hand, banned), (pl.hand, banned)
                    assert got is not pl.hand
                    checked += 1
                    zeroed += got != pl.hand
                assert pl.hand == before
    assert checked > 10000 and zeroed > 5000, (checked, zeroed)
