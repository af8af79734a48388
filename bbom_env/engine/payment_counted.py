"""Auto payment and manual payment's A-18 check, counted, for a cost in cards of one kind
(RULES.md sections 4.6-4.8): n currency cards only (a Dark Curse's or a Black Spell's Dark
Matter) or n cards of different Elements only (Acquire Dark Matter). Whether cards cover such a
cost is a count, so ``payment_auto`` answers them here, with the cards and answers its search
gives (``tests/modules/dark_matter/test_fast_payments.py`` compares them).

``payment_auto`` passes its ``_pool`` (the usable support cards in its preference order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import (
    CODE_ELEMENT,
    CODE_VALUE,
    COST_ANY,
    CURRENCY,
    ELEMENT_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
)
from .records import HAND_SOURCES, Source, SupportSource

if TYPE_CHECKING:
    from .payment import Cost
    from .state import GameState


def counted(cost: Cost) -> bool:
    """Whether the cost is in cards of one kind, so that whether cards cover it is a count:
    n currency cards only (a Dark Curse, section 4.7; a Black Spell, 4.8: Element cards pay none
    of it), or n cards of different Elements only (Acquire Dark Matter, 4.6, without the Air
    conversion: a currency card pays none of it, an Element card 1 whatever its value)."""
    if cost[0] or cost[1] or cost[2] or cost[3] or cost[COST_ANY] or cost.one_of or cost.wildcards:
        return False
    return not cost.convert and bool(cost.currency) != bool(cost.distinct)


def auto_currency(state: GameState, payer: int, cost: Cost, pool: list[tuple[int, int, int]]) -> list[Source]:
    """``_auto_general`` for n currency cards only, without its search: its drops remove every
    Element card (they pay none of it) and the currency cards in drop order (others' support,
    then the payer's own, then the hand; each in ``_pool`` order) while n are left: it keeps the
    hand's first, then the last ones of the payer's own support, then of others' support."""
    n = cost.currency
    in_hand = state.players[payer].hand[CURRENCY]
    pooled = [(q, s) for q, s, c in pool if c == CURRENCY]
    if in_hand + len(pooled) < n:
        raise ValueError(f"cost {cost} is not affordable")
    own = [t for t in pooled if t[0] == payer]  # _pool puts the payer's own support first
    others = pooled[len(own) :]
    from_hand = min(in_hand, n)
    from_own = min(n - from_hand, len(own))
    from_others = n - from_hand - from_own
    kept = own[len(own) - from_own :] + (others[len(others) - from_others :] if from_others else [])
    return [HAND_SOURCES[CURRENCY]] * from_hand + [SupportSource(q, s) for q, s in kept]


def auto_distinct(
    state: GameState, payer: int, cost: Cost, banned: frozenset[int], pool: list[tuple[int, int, int]]
) -> list[Source]:
    """``_auto_general`` for n cards of different Elements only (Acquire Dark Matter, section
    4.6), without its search: its drops (in ``drop_key`` order: others' support, the payer's
    own, then the hand, high values first, then the cards' order) remove every card that is not
    its Element's last in that order, and the last cards of the Elements reached first while more
    than n Elements are left: it keeps the last card of each of the n Elements whose last card
    comes latest, in the order ``_auto_general`` lists the cards (the hand's by code, then the
    pool's)."""
    hand = state.players[payer].hand
    last: list[tuple[tuple[int, int, int], Source] | None] = [None] * NUM_ELEMENTS
    index = 0  # the card's place among the cards _auto_general lists (the last of equal ones)
    for c in range(NUM_ELEMENT_CODES):
        n = hand[c]
        if n and CODE_ELEMENT[c] not in banned:
            index += n
            _note_last(last, CODE_ELEMENT[c], (0, 1 - CODE_VALUE[c], index - 1), HAND_SOURCES[c])
    index += hand[CURRENCY]  # listed after the Element cards; they pay none of this cost
    for q, s, c in pool:
        if c < NUM_ELEMENT_CODES:
            _note_last(
                last,
                CODE_ELEMENT[c],
                (-1 if q == payer else -2, 1 - CODE_VALUE[c], index),
                SupportSource(q, s),
            )
        index += 1
    held = sorted((x for x in last if x is not None), key=lambda x: x[0])
    if len(held) < cost.distinct:
        raise ValueError(f"cost {cost} is not affordable")
    kept = held[len(held) - cost.distinct :]  # the Elements whose last card the drops reach last
    return [src for _, src in sorted(kept, key=lambda x: x[0][2])]


def _note_last(
    last: list[tuple[tuple[int, int, int], Source] | None], e: int, key: tuple[int, int, int], src: Source
) -> None:
    """Keep in ``last[e]`` the card of Element e that ``drop_key`` order reaches last."""
    known = last[e]
    if known is None or key > known[0]:
        last[e] = (key, src)


# A budget the search never runs out of on a ``counted`` cost (its answer is then the count's):
# each step adds a card of an Element (or a currency card) still owed, in code order, so it tries
# at most 1 + 12 + 54 + 108 payments that do not cover yet for 4 cards of different Elements.
COUNTED_SEARCH = 256


def completable_counted(trial: list[int], pool: list[int], cost: Cost) -> bool:
    """``completable_module`` for n currency cards only, or n cards of different Elements only
    (sections 4.6-4.8): a payment of such a cost is irreducible exactly when it is n cards of
    that kind (n currency cards; n cards of n different Elements) and nothing else, so the trial
    completes to one when its cards are such cards and the pool still has the rest."""
    left = list(pool)
    for c in trial:
        left[c] -= 1
    if min(left) < 0:
        return False
    if cost.currency:
        if trial.count(CURRENCY) != len(trial):
            return False  # a card that pays nothing: every payment with it is reducible
        return len(trial) <= cost.currency and left[CURRENCY] >= cost.currency - len(trial)
    held = [0] * NUM_ELEMENTS
    for c in trial:
        if c >= NUM_ELEMENT_CODES or held[CODE_ELEMENT[c]]:
            return False  # a card that pays nothing, or a second card of an Element: reducible
        held[CODE_ELEMENT[c]] = 1
    owed = cost.distinct - len(trial)
    if owed <= 0:
        return owed == 0
    others = 0  # Elements not picked yet that the pool still has a card of
    for e, (c1, c2, c3) in enumerate(ELEMENT_CODES):
        if not held[e] and (left[c1] or left[c2] or left[c3]):
            others += 1
    return others >= owed
