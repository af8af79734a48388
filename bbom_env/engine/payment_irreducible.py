"""Irreducible payments in manual mode (docs/rules.md A-18, DP-P6): whether picking a card keeps an
irreducible payment reachable from the cards still available, for an Element-only cost
(``completable_pick``) and for a cost with a module's parts (``completable_module``: counted
where ``payment_counted`` can, else a bounded search).
"""

from __future__ import annotations

from functools import lru_cache

from . import payment_counted as counted_costs
from .constants import CODE_ELEMENT, CODE_VALUE, COST_ANY, CURRENCY, ELEMENT_CODES, NUM_VALUES
from .payment import Cost, elements_only, irreducible
from .payment_search import remaining


def completable_pick(picked: list[int], pool: list[int], req: tuple[int, ...], code: int) -> bool | None:
    """A-18 in manual mode: whether picking ``code`` keeps an irreducible payment reachable from
    the cards still available (``pool``: counts by card code, the candidate included).

    Exact when the cost is Element-specific only (Elements are then independent) or "any
    Elements" only (Cure); None for mixed costs, where the caller falls back to a weaker check."""
    if not elements_only(req):
        return None
    # Picks and the candidate are Element cards: an Element-only cost is offered nothing else.
    # Written out for the four Elements: manual payment asks this for every card it offers.
    specific = req[0] or req[1] or req[2] or req[3]
    if specific and req[COST_ANY]:
        return None
    if specific:
        e = CODE_ELEMENT[code]
        r = req[e]
        if r == 0:
            return False
        fixed = [CODE_VALUE[c] for c in picked if CODE_ELEMENT[c] == e]
        avail = [pool[c] for c in ELEMENT_CODES[e]]
    else:
        r = req[COST_ANY]
        fixed = [CODE_VALUE[c] for c in picked]
        avail = [pool[a] + pool[b] + pool[c] + pool[d] for a, b, c, d in _CODES_BY_VALUE]
    fixed.append(CODE_VALUE[code])
    avail[CODE_VALUE[code] - 1] -= 1  # the candidate itself
    return counted_costs.completable_values(fixed, avail, r)


# The card codes of each value (1, 2, 3), one per Element (for the "any" part above).
_CODES_BY_VALUE: tuple[tuple[int, ...], ...] = tuple(
    tuple(codes[v] for codes in ELEMENT_CODES) for v in range(NUM_VALUES)
)


def completable_module(trial: list[int], pool: list[int], cost: Cost, budget: int = 256) -> bool:
    """A-18 in manual mode for a cost with a module's parts: whether the cards of ``trial`` plus
    some of those still available (``pool``: counts by card code, ``trial``'s new cards not yet
    taken out) make an irreducible payment. A depth-first search over additions that each pay
    part of what is owed (Dark Matter that pays only as Spontaneous Elements is added a pair at a
    time: section 4.9, a pair is one unit); it stops at a covering payment (adding to one makes it
    reducible). Past ``budget`` payments tried it answers True (no pick is refused on a guess).
    The answer depends on the trial's cards, not their order: memoised on the sorted trial (manual
    payment asks the same trials again and again, about half of them in random play). A cost in
    cards of one kind (``payment_counted.counted``) is answered by counting, as the search would."""
    if budget >= counted_costs.COUNTED_SEARCH:
        if counted_costs.counted(cost):
            return counted_costs.completable_counted(trial, pool, cost)
        part = counted_costs.one_part(cost)
        if part >= 0:
            known = counted_costs.completable_one_part(trial, pool, cost, part)
            if known is not None:
                return known
    return _completable_module(tuple(sorted(trial)), tuple(pool), cost, budget)


@lru_cache(maxsize=1 << 14)
def _completable_module(trial: tuple[int, ...], pool: tuple[int, ...], cost: Cost, budget: int) -> bool:
    left = counted_costs.pool_left(pool, trial)
    if left is None:
        return False
    pairs = cost.wildcards and not cost.currency
    tried = 0

    def owed(codes: list[int]) -> int:
        return sum(remaining(tuple(codes), cost))

    def search(cur: list[int], start: int, now: int) -> bool:
        nonlocal tried
        tried += 1
        if now == 0:
            return irreducible(cur, cost)
        if tried > budget:
            return True
        for c in range(start, len(left)):
            step = 2 if c == CURRENCY and pairs and cur.count(CURRENCY) % 2 == 0 else 1
            if left[c] < step:
                continue
            nxt = cur + [c] * step
            after = owed(nxt)
            if after >= now:
                continue  # pays nothing more
            left[c] -= step
            found = search(nxt, c, after)
            left[c] += step
            if found:
                return True
        return False

    return search(list(trial), 0, owed(list(trial)))
