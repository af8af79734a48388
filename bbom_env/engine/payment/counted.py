"""Auto payment and manual payment's A-18 check, counted, for a cost in cards of one kind
(docs/rules.md sections 4.6-4.8): n currency cards only (a Dark Curse's or a Black Spell's Dark
Matter) or n cards of different Elements only (Acquire Dark Matter). Whether cards cover such a
cost is a count, so ``payment_auto`` answers them here, with the cards and answers its search
gives (``tests/modules/dark_matter/test_fast_payments.py`` compares them).

``payment_auto`` passes its ``_pool`` (the usable support cards in its preference order).

Manual payment's judges, counted: for those costs (``pays_counted``, ``useful_counted``) and for
a cost of one part, an Element or "any", with Spontaneous Elements (section 4.9) or the Air
conversion (V-12): what is owed (``one_part_owed``) and A-18's completion
(``completable_one_part``, by ``completable_values``), each the answer of ``payment_search`` or
the bounded search (``tests/modules/dark_matter/test_one_part_payments.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import (
    CODE_ELEMENT,
    CODE_VALUE,
    COST_ANY,
    COST_PARTS,
    CURRENCY,
    ELEMENT_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
)
from bbom_env.engine.model.records import HAND_SOURCES, Source, SupportSource

_AIR = 3  # constants.Element.AIR: the Element of the Air conversion (V-12)

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.payment.cost import Cost


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


def pool_left(pool: list[int] | tuple[int, ...], trial: list[int] | tuple[int, ...]) -> list[int] | None:
    """The pool's counts by code once the trial's cards are taken out of it; None when the pool
    lacks one of them (A-18's completions: what may still be added to the trial)."""
    left = list(pool)
    for c in trial:
        left[c] -= 1
    return None if min(left) < 0 else left


def completable_counted(trial: list[int], pool: list[int], cost: Cost) -> bool:
    """``completable_module`` for n currency cards only, or n cards of different Elements only
    (sections 4.6-4.8): a payment of such a cost is irreducible exactly when it is n cards of
    that kind (n currency cards; n cards of n different Elements) and nothing else, so the trial
    completes to one when its cards are such cards and the pool still has the rest."""
    left = pool_left(pool, trial)
    if left is None:
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


def pays_counted(picked: list[int], cost: Cost) -> Callable[[int], bool]:
    """For a ``counted`` cost: whether a card picked after ``picked`` pays part of what is still
    owed (``payment_search.remaining``'s sum falls), counted: while fewer than n currency cards
    are picked, a currency card (sections 4.7, 4.8); while fewer than n Elements are, an Element
    card of an Element not picked yet (4.6: a second card of an Element pays nothing)."""
    if cost.currency:
        if picked.count(CURRENCY) >= cost.currency:
            return _pays_nothing
        return _is_currency
    held = 0  # the picked Element cards' Elements, one bit each
    for c in picked:
        if c < NUM_ELEMENT_CODES:
            held |= 1 << CODE_ELEMENT[c]
    if (held & 1) + (held >> 1 & 1) + (held >> 2 & 1) + (held >> 3 & 1) >= cost.distinct:
        return _pays_nothing
    return lambda code: code < NUM_ELEMENT_CODES and not held >> CODE_ELEMENT[code] & 1


def useful_counted(picked: list[int], pool: list[int], cost: Cost) -> Callable[[int], bool]:
    """``pays_counted`` and then ``completable_counted`` (A-18) for a card of the pool (``pool``:
    counts by code of the cards still available, each card asked has one there), answered by
    counts read once per query: n currency cards: a currency card, while the picks are fewer
    than n currency cards only and the pool still has the rest; n cards of different Elements:
    an Element card of an Element not picked, while the picks are fewer than n cards of
    different Elements only and the pool still has a card of enough other Elements."""
    k = len(picked)
    if cost.currency:
        n = cost.currency
        if k >= n or picked.count(CURRENCY) != k or pool[CURRENCY] < n - k:
            return _pays_nothing
        return _is_currency
    held = 0  # the picks' Elements, one bit each
    for c in picked:
        if c >= NUM_ELEMENT_CODES or held >> CODE_ELEMENT[c] & 1:
            return _pays_nothing  # a card that pays nothing: every payment with it is reducible
        held |= 1 << CODE_ELEMENT[c]
    need = cost.distinct - k - 1  # Elements still owed after the card asked
    if need < 0:
        return _pays_nothing
    spare = 0  # the Elements not picked that the pool has a card of
    for e, (c1, c2, c3) in enumerate(ELEMENT_CODES):
        if not held >> e & 1 and (pool[c1] or pool[c2] or pool[c3]):
            spare |= 1 << e

    def useful(code: int) -> bool:
        if code >= NUM_ELEMENT_CODES:
            return False
        e = CODE_ELEMENT[code]
        if held >> e & 1:
            return False
        others = spare & ~(1 << e)
        return (others & 1) + (others >> 1 & 1) + (others >> 2 & 1) + (others >> 3 & 1) >= need

    return useful


def _pays_nothing(code: int) -> bool:
    return False


def _is_currency(code: int) -> bool:
    return code == CURRENCY


def completable_values(fixed: list[int], avail: list[int], r: int) -> bool:
    """Whether values ``fixed`` (already chosen) plus some of ``avail`` (counts of values 1, 2, 3)
    make an irreducible payment of r: sum >= r and sum - smallest < r. Adding a card never lowers
    sum - smallest, so a fixed part that is already reducible can never be completed."""
    t = sum(fixed)
    m = min(fixed) if fixed else 9
    if fixed and t - m >= r:
        return False
    if t >= r:
        return True
    n1, n2, n3 = avail
    for q3 in range(n3 + 1):
        for q2 in range(n2 + 1):
            for q1 in range(n1 + 1):
                s = t + q1 + 2 * q2 + 3 * q3
                if s < r:
                    continue
                low = min(m, 1 if q1 else 9, 2 if q2 else 9, 3 if q3 else 9)
                if s - low < r:
                    return True
                break  # one more value-1 card only raises s - low
    return False


# -- one part with Spontaneous Elements or the Air conversion -------------------------------------


def one_part(cost: Cost) -> int:
    """The cost's one part (an Element, or ``COST_ANY``) when it has no other and no one-of,
    distinct or currency part: a base Action's one-Element (or "any") cost with Spontaneous
    Elements (section 4.9) or the Air conversion (V-12), most of manual payment's module costs.
    -1 otherwise."""
    if cost.one_of or cost.distinct or cost.currency:
        return -1
    part = -1
    for k in range(COST_PARTS):
        if cost[k]:
            if part >= 0:
                return -1
            part = k
    return part


def _one_part_cards(
    codes: list[int] | tuple[int, ...], cost: Cost, part: int
) -> tuple[list[int], int, bool, bool]:
    """(the values the cards pay ``part`` with, the Dark Matter cards among them, whether an Air
    card is converted, whether a card pays nothing): a card of the part's Element (any Element
    card for "any") pays its value; with the conversion (V-12, only for another Element's part)
    the first Air card its value, a second one nothing (one card converts); with wildcards (4.9)
    Dark Matter pays in pairs (counted apart); any other card pays nothing."""
    convert = cost.convert and part != _AIR and part != COST_ANY
    values: list[int] = []
    dark = 0
    air = False
    for c in codes:
        if c < NUM_ELEMENT_CODES:
            e = CODE_ELEMENT[c]
            if e == part or part == COST_ANY:
                values.append(CODE_VALUE[c])
                continue
            if convert and e == _AIR and not air:
                air = True
                values.append(CODE_VALUE[c])
                continue
        elif c == CURRENCY and cost.wildcards:
            dark += 1
            continue
        return values, dark, air, True
    return values, dark, air, False


def one_part_owed(codes: tuple[int, ...], cost: Cost, part: int) -> int:
    """``sum(payment_search.remaining(codes, cost))`` for a ``one_part`` cost, counted: the part
    less what the cards pay it (every card its whole value, the best Air card converted, a
    Spontaneous Element per pair of Dark Matter), at least 0."""
    convert = cost.convert and part != _AIR and part != COST_ANY
    paid = air = dark = 0
    for c in codes:
        if c < NUM_ELEMENT_CODES:
            e = CODE_ELEMENT[c]
            if e == part or part == COST_ANY:
                paid += CODE_VALUE[c]
            elif convert and e == _AIR and CODE_VALUE[c] > air:
                air = CODE_VALUE[c]
        elif c == CURRENCY:
            dark += 1
    paid += air
    if cost.wildcards:
        paid += dark // 2
    left: int = cost[part] - paid  # type: ignore[operator]  # (part < COST_PARTS: an int)
    return left if left > 0 else 0


def completable_one_part(trial: list[int], pool: list[int], cost: Cost, part: int) -> bool | None:
    """``completable_module`` for a ``one_part`` cost, counted: every card of an irreducible
    payment pays the part (A-18: a card that pays nothing, a second Air card, an odd Dark Matter
    card can be removed), each with its value, a pair of Dark Matter as one value-1 card (a pair
    is one unit: removing one of its cards loses 1); so the trial completes exactly when its cards
    all pay (an odd Dark Matter card paired from the pool) and ``completable_values`` completes
    their values from the pool's (pairs as value-1 cards; one Air card converted at most). None
    for a trial with a card that pays nothing (the caller asks the search)."""
    left = pool_left(pool, trial)
    if left is None:
        return False
    values, dark, air, idle = _one_part_cards(trial, cost, part)
    spare = left[CURRENCY] if cost.wildcards else 0
    if idle or (dark % 2 and not spare):
        # A card that pays nothing (an odd Dark Matter card that no card of the pool pairs):
        # never irreducible, but the bounded search's answer is kept (past its budget it says
        # True). Manual payment never asks: it offers only cards that pay (legal_pay).
        return None
    if dark % 2:
        spare -= 1
        dark += 1
    values += [1] * (dark // 2)
    if part == COST_ANY:
        avail = [0, 0, 0]
        for codes in ELEMENT_CODES:
            for v in range(3):
                avail[v] += left[codes[v]]
    else:
        c1, c2, c3 = ELEMENT_CODES[part]
        avail = [left[c1], left[c2], left[c3]]
    avail[0] += spare // 2
    r: int = cost[part]  # type: ignore[assignment]  # (part < COST_PARTS: an int)
    if completable_values(values, avail, r):
        return True
    if cost.convert and part != _AIR and part != COST_ANY and not air:
        # No Air card converted yet: one from the pool may be (V-12), at most one.
        for v, c in enumerate(ELEMENT_CODES[_AIR]):
            if left[c] and completable_values([*values, v + 1], avail, r):
                return True
    return False
