"""The exact payment search for costs with module parts (docs/rules.md sections 4.0, 4.6, 4.9, 4.10).

A cost with only Element parts and "any" is solved by the closed forms of ``solver.py`` (the hot
path of the base game). A cost with a one-of-a-set surcharge, "n cards of different Elements", a
currency counted in cards or wildcards (two currency cards as one Element of value 1, the Vth
Element's Spontaneous Element) or the Air conversion (one Air card as any one Element, V-12) is
solved here: each card's whole value goes to one part (a card is never split, [PROPOSED] 4.0),
or is wasted, and the search finds the assignment that leaves the least to pay. Payments hold a
handful of cards, so a memoised search is cheap.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import (
    CODE_ELEMENT,
    CODE_VALUE,
    COST_ANY,
    COST_PARTS,
    CURRENCY,
    NUM_ELEMENT_CODES,
)

if TYPE_CHECKING:
    from bbom_env.engine.payment.cost import Cost  # payment imports this module

# Needs vector: fire, water, earth, air, any, one-of surcharge, distinct cards left, currency, cards.
_ONE_OF, _DISTINCT, _CURRENCY, _CARDS = COST_PARTS, COST_PARTS + 1, COST_PARTS + 2, COST_PARTS + 3
_AIR = 3  # constants.Element.AIR: the Element of the Air conversion (V-12)
_CONVERTED = 1 << 4  # ``used`` bit: the Air conversion is spent (or not allowed)


@lru_cache(maxsize=1 << 14)  # manual payment asks the same few (picks, cost) for every card offered
def remaining(codes: tuple[int, ...], cost: Cost) -> tuple[int, ...]:
    """What is left to pay after the best assignment of ``codes`` to ``cost``:
    (fire, water, earth, air, any, one-of, distinct cards, currency cards, cards); all zero iff the
    cards cover the cost. Among assignments leaving the same total, the first found (Element
    parts before "any") is kept, so the answer is deterministic."""
    elements = tuple(sorted((c for c in codes if c < NUM_ELEMENT_CODES), reverse=True))
    currency = sum(1 for c in codes if c == CURRENCY)
    one_of_set = frozenset(cost.one_of_set)
    needs = (*cost[:COST_PARTS], cost.one_of, cost.distinct, cost.currency, cost.cards)
    # Bit 4 of ``used`` (above the 4 Elements' bits): the one Air conversion is spent (V-12).
    used = 0 if cost.convert else _CONVERTED
    best = _search(elements, 0, needs, used, one_of_set, currency, cost.wildcards)
    return best[1]


@lru_cache(maxsize=1 << 16)
def _search(
    cards: tuple[int, ...],
    i: int,
    needs: tuple[int, ...],
    used: int,
    one_of_set: frozenset[int],
    currency: int,
    wildcards: bool,
) -> tuple[int, tuple[int, ...]]:
    """(total left, needs left) of the best assignment of cards[i:] and the currency cards."""
    if i == len(cards):
        return _spend_currency(needs, currency, wildcards)
    code = cards[i]
    e, v = CODE_ELEMENT[code], CODE_VALUE[code]  # cards holds Element cards only
    options: list[tuple[tuple[int, ...], int]] = []
    if needs[e] > 0:
        options.append((_minus(needs, e, v), used))
    if needs[COST_ANY] > 0:
        options.append((_minus(needs, COST_ANY, v), used))
    if needs[_ONE_OF] > 0 and e in one_of_set:
        options.append((_minus(needs, _ONE_OF, v), used))
    if needs[_DISTINCT] > 0 and not used >> e & 1:
        options.append((_minus(needs, _DISTINCT, 1), used | 1 << e))
    if needs[_CARDS] > 0:  # an Element card pays 1 of a part counted in cards (V-37)
        options.append((_minus(needs, _CARDS, 1), used))
    if e == _AIR and not used & _CONVERTED:
        options += _converted(needs, used, v, one_of_set)
    options.append((needs, used))  # wasted
    best: tuple[int, tuple[int, ...]] | None = None
    for nxt, u in options:
        found = _search(cards, i + 1, nxt, u, one_of_set, currency, wildcards)
        if best is None or found[0] < best[0]:
            best = found
            if best[0] == 0:
                break
    assert best is not None
    return best


def _converted(
    needs: tuple[int, ...], used: int, v: int, one_of_set: frozenset[int]
) -> list[tuple[tuple[int, ...], int]]:
    """V-12: an Air card of value v counting as another Element of the payer's choice, its whole
    value, for this Action: an Element part, the one-of surcharge, or a different Element of a
    distinct part. The conversion is then spent (``_CONVERTED``)."""
    out = [(_minus(needs, k, v), used | _CONVERTED) for k in range(4) if k != _AIR and needs[k] > 0]
    if needs[_ONE_OF] > 0 and _AIR not in one_of_set:
        out.append((_minus(needs, _ONE_OF, v), used | _CONVERTED))
    if needs[_DISTINCT] > 0:
        out += [
            (_minus(needs, _DISTINCT, 1), used | _CONVERTED | 1 << k)
            for k in range(4)
            if k != _AIR and not used >> k & 1
        ]
    return out


def _minus(needs: tuple[int, ...], k: int, n: int) -> tuple[int, ...]:
    out = list(needs)
    out[k] = max(0, out[k] - n)
    return tuple(out)


def _spend_currency(needs: tuple[int, ...], currency: int, wildcards: bool) -> tuple[int, tuple[int, ...]]:
    """Currency cards pay the currency part first; with wildcards, each pair left over is one
    Element of value 1 of the payer's choice (section 4.9), put where something is still owed."""
    out = list(needs)
    pay = min(out[_CURRENCY], currency)
    out[_CURRENCY] -= pay
    if wildcards:
        pairs = (currency - pay) // 2
        for k in (*range(COST_PARTS), _ONE_OF):  # the Element parts, any, the one-of surcharge
            take = min(pairs, out[k])
            out[k] -= take
            pairs -= take
    return sum(out), tuple(out)
