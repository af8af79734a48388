"""The one payment solver (docs/rules.md section 4.0): whether a payer's funds pay a cost.

Every "can this be paid?" of the engine ends here: the Action menu's (through the seat view,
``payment/seat.py``), the module Actions', and ``cost.affordable``. ``Funds`` are the cards a
payer may pay with for one Action (hand and usable support pool, an Element banned for the Action
left out: section 4.10), counted by card code. ``can_pay(funds, cost)`` answers:

- a cost of Element parts and "any" only (the base game's costs): the least-waste closed form
  ``fits`` (each Element part takes its least-waste cards, the rest pays "any"; a card is never
  split, [PROPOSED] 4.0);
- the same cost with Spontaneous Elements (a pair of Dark Matter cards as one Element of value
  1, section 4.9) or the Air conversion (one Air card counted as another Element, V-12): each way
  to spread the pairs over the parts still owed, and each Air card converted to each part;
- a cost counted in cards (n currency cards, n cards of different Elements, n Element cards):
  the counts;
- a cost with a one-of surcharge, or cards mixed with Element parts or the Air conversion: the
  exact search (``remaining``, at the end of this file), memoised here by (funds, cost). Each
  card's whole value goes to one part (a card is never split, [PROPOSED] 4.0) or is wasted, and
  the search finds the assignment that leaves the least to pay (sections 4.0, 4.6, 4.9, 4.10).
  Payments hold a handful of cards, so a memoised search is cheap.

``tests/engine/test_payment_solver.py`` compares the answers with a brute force over every
assignment of the cards.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    from bbom_env.engine.payment.cost import Cost  # payment.cost imports this module

Req = tuple[int, ...]
AIR = 3  # constants.Element.AIR: the Element of the Air conversion (V-12)


class Funds:
    """The cards a payer may pay with for one Action: ``counts[element][value - 1]`` of the
    Element cards, ``tot[element]`` their value, and ``currency`` cards (Dark Matter)."""

    __slots__ = ("counts", "tot", "currency", "_key")

    def __init__(self, counts: list[list[int]], currency: int) -> None:
        self.counts = counts
        self.tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
        self.currency = currency
        self._key: tuple[int, ...] | None = None

    def key(self) -> tuple[int, ...]:
        """The funds as one tuple (the solver's memo key): the Element cards by code, then the
        currency cards."""
        if self._key is None:
            c = self.counts
            self._key = (*c[0], *c[1], *c[2], *c[3], self.currency)
        return self._key

    def codes(self) -> tuple[int, ...]:
        """One card code per card (the exact search's input)."""
        key = self.key()
        out = [code for code in range(NUM_ELEMENT_CODES) for _ in range(key[code])]
        return (*out, *([CURRENCY] * self.currency))

    def without(self, banned: frozenset[int]) -> Funds:
        """These funds less the cards of the banned Elements (section 4.10)."""
        return Funds([[0, 0, 0] if e in banned else c for e, c in enumerate(self.counts)], self.currency)


def min_sum_at_least(r: int, n1: int, n2: int, n3: int) -> tuple[int, int, int] | None:
    """Counts (c1, c2, c3) with c1 + 2 c2 + 3 c3 >= r and the smallest such sum (least waste);
    ties: more cards (low values are spent first, high values kept). None when impossible."""
    if r <= 0:
        return (0, 0, 0)
    best = None
    best_key = None
    for c3 in range(min(n3, (r + 2) // 3) + 1):
        for c2 in range(min(n2, (r - 3 * c3 + 1) // 2 if r > 3 * c3 else 0) + 1):
            c1 = max(0, r - 3 * c3 - 2 * c2)
            if c1 > n1:
                continue
            total = c1 + 2 * c2 + 3 * c3
            key = (total, -(c1 + c2 + c3))
            if best_key is None or key < best_key:
                best, best_key = (c1, c2, c3), key
    return best


def can_cover(counts: list[list[int]], req: Req) -> bool:
    """Whether Element cards with counts[element][value-1] cover an Element-only cost (exact, no
    card splitting): each Element part takes its least-waste cards, the rest pays ``any``."""
    leftover = 0
    for e in range(4):
        n1, n2, n3 = counts[e]
        r = req[e]
        if r > 0:
            best = min_sum_at_least(r, n1, n2, n3)
            if best is None:
                return False
            c1, c2, c3 = best
            leftover += (n1 - c1) + 2 * (n2 - c2) + 3 * (n3 - c3)
        else:
            leftover += n1 + 2 * n2 + 3 * n3
    return leftover >= req[COST_ANY]


def fits(tot: list[int], counts: list[list[int]], req: Req) -> bool:
    """``can_cover``, decided by the values' sums where they decide: without an "any" part each
    Element's value against its part; with only "any", the total."""
    if req[COST_ANY] == 0:
        return tot[0] >= req[0] and tot[1] >= req[1] and tot[2] >= req[2] and tot[3] >= req[3]
    if req[0] == req[1] == req[2] == req[3] == 0:
        return tot[0] + tot[1] + tot[2] + tot[3] >= req[COST_ANY]
    if tot[0] + tot[1] + tot[2] + tot[3] < req[0] + req[1] + req[2] + req[3] + req[COST_ANY]:
        return False
    return can_cover(counts, req)


def spreads(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put n units on parts with these capacities, the first parts filled first."""
    if not caps:
        if n == 0:
            yield ()
        return
    for first in range(min(n, caps[0]), -1, -1):
        for rest in spreads(n - first, caps[1:]):
            yield (first, *rest)


def _with_pairs(counts: list[list[int]], req: Req, pairs: int) -> bool:
    """``can_cover`` with ``pairs`` Spontaneous Elements besides (section 4.9: each one Element
    of value 1 of any type): each way to spread them over the parts still owed."""
    parts = [k for k in range(COST_PARTS) if req[k] > 0]
    if len(parts) == 1:
        # One part: every card that may pay it counts, whole, and a pair pays 1 of it.
        k = parts[0]
        have = 0
        for c in counts if k == COST_ANY else (counts[k],):
            have += c[0] + 2 * c[1] + 3 * c[2]
        return have + pairs >= req[k]
    if can_cover(counts, req):
        return True
    caps = [req[k] for k in parts]
    if pairs <= 0 or pairs >= sum(caps):
        return pairs > 0
    for spread in spreads(pairs, caps):
        left = list(req[:COST_PARTS])
        for k, m in zip(parts, spread, strict=True):
            left[k] -= m
        if can_cover(counts, tuple(left)):
            return True
    return False


def _with_conversion(counts: list[list[int]], req: Req, pairs: int) -> bool:
    """``_with_pairs`` where one Air card may also count as any one other Element, its whole
    value (V-12): each Air card value converted to pay each other Element part still owed."""
    if _with_pairs(counts, req, pairs):
        return True
    air = counts[AIR]
    for i in range(3):
        if air[i]:
            rest = [c if e != AIR else [*c[:i], c[i] - 1, *c[i + 1 :]] for e, c in enumerate(counts)]
            for k in range(3):  # the Elements other than Air
                if req[k] > 0:
                    left = list(req[:COST_PARTS])
                    left[k] = max(0, left[k] - (i + 1))
                    if _with_pairs(rest, tuple(left), pairs):
                        return True
    return False


def can_pay(funds: Funds, cost: tuple) -> bool:
    """Whether ``funds`` pay ``cost`` (five numbers, or a ``cost.Cost``)."""
    if len(cost) == COST_PARTS:
        return fits(funds.tot, funds.counts, cost)
    # A Cost: fields 5-8 are the one-of surcharge, its Elements, distinct and currency parts;
    # 9-10 the flags that only add ways to pay (Spontaneous Elements, the Air conversion); 11 the
    # Element cards counted one each.
    if not (cost[5] or cost[7] or cost[8] or cost[11]):
        req = cost[:COST_PARTS]
        if fits(funds.tot, funds.counts, req):
            return True
        pairs = funds.currency // 2 if cost[9] else 0
        if cost[10]:
            return _with_conversion(funds.counts, req, pairs)
        return pairs > 0 and _with_pairs(funds.counts, req, pairs)
    if not (cost[0] or cost[1] or cost[2] or cost[3] or cost[4] or cost[5] or cost[10]):
        # Cards counted, not valued (sections 4.6-4.8, V-37): n currency cards (a currency card
        # pays nothing else, and pairs pay only Element parts), n cards of different Elements or n
        # Element cards (each pays 1 whatever its value), each part with its own cards.
        if funds.currency < cost[8]:
            return False
        if not cost[11]:
            tot = funds.tot
            return (tot[0] > 0) + (tot[1] > 0) + (tot[2] > 0) + (tot[3] > 0) >= cost[7]
        if not cost[7]:
            return sum(sum(c) for c in funds.counts) >= cost[11]
    key = (funds.key(), cost)
    known = _MEMO.get(key)
    if known is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[key] = not any(remaining(funds.codes(), cost))
    return known


_MEMO: dict[tuple, bool] = {}  # (funds, cost) -> answer: a pure function of both
_MEMO_SIZE = 1 << 16


# -- the exact search for costs with module parts ----------------------------------------------

# Needs vector: fire, water, earth, air, any, one-of surcharge, distinct cards left, currency, cards.
_ONE_OF, _DISTINCT, _CURRENCY, _CARDS = COST_PARTS, COST_PARTS + 1, COST_PARTS + 2, COST_PARTS + 3
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
    if e == AIR and not used & _CONVERTED:
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
    out = [(_minus(needs, k, v), used | _CONVERTED) for k in range(4) if k != AIR and needs[k] > 0]
    if needs[_ONE_OF] > 0 and AIR not in one_of_set:
        out.append((_minus(needs, _ONE_OF, v), used | _CONVERTED))
    if needs[_DISTINCT] > 0:
        out += [
            (_minus(needs, _DISTINCT, 1), used | _CONVERTED | 1 << k)
            for k in range(4)
            if k != AIR and not used >> k & 1
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
