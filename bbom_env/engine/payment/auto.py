"""Choosing the cards of a payment (docs/rules.md section 4.0, DP-P1..P6): the canonical payment of
``payment="auto"`` (manual payment's A-18 check is ``frame.py``'s).

Auto payment, for a cost of Element parts and ``any`` (docs/rules_decisions.md): least waste for
each Element part, then for ``any``; among equal waste, low-value cards first; among equal cards,
hand cards before the payer's own support, before other players' support in seat order. For an
Element cost that Spontaneous Elements may help pay (the Vth Element, section 4.9): Element cards
first, then the fewest Dark Matter pairs (``_auto_spontaneous``). For another cost with module
parts: every usable card, then cards are dropped while the rest still pays, others' support
first, then the payer's own support, then the hand, high values first (an irreducible payment
that spends the hand first; Dark Matter dropped first where it pays only as pairs).
"""

from __future__ import annotations

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
    NUM_VALUES,
)
from bbom_env.engine.model.records import HAND_SOURCES, HandSource, Source, SupportSource
from bbom_env.engine.payment.cost import (
    Cost,
    _min_sum_at_least,
    as_cost,
    banned_elements,
    can_cover,
    covers,
    elements_only,
    source_code,
    spreads,
    usable_support,
)

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

_AIR = 3  # constants.Element.AIR: the Element of the Air conversion (V-12)


def _cards(
    state: GameState, payer: int, banned: frozenset[int]
) -> tuple[list[int], list[tuple[int, int, int]]]:
    """What an auto payment draws on: a copy of the hand's counts (by card code) with the cards of
    the banned Elements zeroed (section 4.10: their three codes each, not a pass over every code),
    and the usable support cards in preference order: the payer's own first, then by seat order."""
    hand = state.players[payer].hand.copy()
    for e in banned:
        low, mid, high = ELEMENT_CODES[e]
        hand[low] = hand[mid] = hand[high] = 0
    pool = usable_support(state, payer, banned)
    if len(pool) > 1:  # most payers have at most one support card to draw on (auto payment is hot)
        pool.sort(key=lambda t: (t[0] != payer, (t[0] - payer) % len(state.players), t[1]))
    return hand, pool


def auto_payment(state: GameState, payer: int, req: tuple, action: str = "") -> list[Source]:
    """The canonical payment of ``payment="auto"``. Raises ValueError when unaffordable."""
    banned = banned_elements(state, payer, action) if action else frozenset()
    hand, pool = _cards(state, payer, banned)
    if elements_only(req):
        return _auto_elements(hand, pool, payer, req)
    cost = as_cost(req)
    if (cost.wildcards or cost.convert) and not (cost.one_of or cost.distinct or cost.currency or cost.cards):
        return _auto_spontaneous(state, payer, cost, hand, pool)
    return _auto_general(state, payer, cost, hand, pool)


def _auto_elements(hand: list[int], pool: list[tuple[int, int, int]], payer: int, req: tuple) -> list[Source]:
    """The canonical payment of an Element-only cost from these cards (``hand``: counts by code,
    banned Elements zeroed, consumed; ``pool``: ``_cards``'s usable support cards)."""
    sources = _Sources(hand, pool, payer)
    for e, r in enumerate(req[:NUM_ELEMENTS]):
        if r > 0 and not sources.pay_element(e, r):
            raise ValueError(f"cost {as_cost(req).compact()} is not affordable")
    if req[COST_ANY] > 0 and not sources.pay_any(req[COST_ANY]):
        raise ValueError(f"cost {as_cost(req).compact()} is not affordable")
    return sources.out


class _Sources:
    """What an auto payment draws from, in order: the payer's hand (counts by card code, banned
    Elements zeroed), then the usable support cards (``_cards``'s order); and what it took."""

    __slots__ = ("hand", "out", "payer", "pool", "used_pool")

    def __init__(self, hand: list[int], pool: list[tuple[int, int, int]], payer: int) -> None:
        self.hand = hand
        self.pool = pool
        self.payer = payer
        self.used_pool: set[tuple[int, int]] = set()
        self.out: list[Source] = []

    def pay_element(self, e: int, r: int) -> bool:
        """Take the least-waste cards of Element e for a part of r; False if they fall short."""
        best = _min_sum_at_least(r, *self.counts_of(e))
        if best is None:
            return False
        codes = ELEMENT_CODES[e]
        for v in range(NUM_VALUES):
            for _ in range(best[v]):
                self.take(codes[v])
        return True

    def pay_any(self, need: int) -> bool:
        """Take the least-waste cards of any Elements for ``need``; False if they fall short."""
        best = _min_sum_at_least(need, *map(sum, zip(*map(self.counts_of, range(NUM_ELEMENTS)), strict=True)))
        if best is None:
            return False
        tier, counts_of = self.tier, self.counts_of
        for v in range(NUM_VALUES):
            for _ in range(best[v]):
                # Hand before support (the documented order), then the Element the payer holds
                # most of at that value (keeps a balance of Elements).
                e = min(
                    range(NUM_ELEMENTS), key=lambda el: (tier(ELEMENT_CODES[el][v]), -counts_of(el)[v], el)
                )
                self.take(ELEMENT_CODES[e][v])
        return True

    def take(self, code: int) -> None:
        hand = self.hand
        if hand[code] > 0:
            hand[code] -= 1
            self.out.append(HAND_SOURCES[code])
            return
        used_pool = self.used_pool
        for q, s, c in self.pool:
            if c == code and (q, s) not in used_pool:
                used_pool.add((q, s))
                self.out.append(SupportSource(q, s))
                return
        raise AssertionError("card vanished during payment")

    def counts_of(self, e: int) -> tuple[int, int, int]:
        """How many cards of Element e, by value, are still available."""
        hand, used_pool = self.hand, self.used_pool
        if not self.pool:  # (most payments: the hand alone)
            a, b, c = ELEMENT_CODES[e]
            return hand[a], hand[b], hand[c]
        n = [hand[c] for c in ELEMENT_CODES[e]]
        for q, s, c in self.pool:
            if CODE_ELEMENT[c] == e and (q, s) not in used_pool:
                n[CODE_VALUE[c] - 1] += 1
        return n[0], n[1], n[2]

    def tier(self, code: int) -> int:
        """Where the next card of this code comes from: 0 hand, 1 own support, 2 other support."""
        if self.hand[code] > 0:
            return 0
        used_pool = self.used_pool
        for q, s, c in self.pool:
            if c == code and (q, s) not in used_pool:
                return 1 if q == self.payer else 2
        return 3


def _auto_spontaneous(
    state: GameState, payer: int, cost: Cost, hand: list[int], pool: list[tuple[int, int, int]]
) -> list[Source]:
    """The canonical payment of an Element cost that Spontaneous Elements (section 4.9) or the Air
    conversion (V-12) may help pay (docs/rules_decisions.md): Element cards first: when they cover
    the cost alone, the base game's canonical payment; else the fewest Dark Matter pairs with
    which Element cards (and, only if they need it, one Air card converted) cover the rest. Among
    those, the least waste; ties: the conversion of the lowest Air value to the first Element
    (fire, water, earth), each pair's Element in fire, water, earth, air, any order. The rest is
    paid as the base game pays; the pairs' cards from the hand, then the payer's own support, then
    others' support."""
    plain = tuple(cost[:COST_PARTS])
    sources = _Sources(hand, pool, payer)
    counts = [list(sources.counts_of(e)) for e in range(NUM_ELEMENTS)]
    if can_cover(counts, plain):
        return _auto_elements(hand, pool, payer, plain)
    currency_cards: list[Source] = []
    if cost.wildcards:
        currency_cards = [HAND_SOURCES[CURRENCY]] * hand[CURRENCY]
        currency_cards += [SupportSource(q, s) for q, s, c in pool if c == CURRENCY]
    converts = _conversions(hand, pool, plain) if cost.convert else []
    alone: list[_Conversion | None] = [None]  # no conversion
    for pairs in range(len(currency_cards) // 2 + 1):
        for options in (alone, converts):  # the conversion only where it is needed (V-12)
            if pairs == 0 and options is alone:
                continue  # the Element cards alone: they fall short (checked above)
            best: tuple[int, list[Source]] | None = None
            valued = len(options) > 1  # the payments' values compared across conversions
            for conv in options:
                paid = _cheapest(state, payer, hand, pool, counts, plain, pairs, conv, valued)
                if paid is not None and (best is None or paid[0] < best[0]):
                    best = paid
            if best is not None:
                return best[1] + currency_cards[: 2 * pairs]
    raise ValueError(f"cost {cost.compact()} is not affordable")


# One Air card converted (V-12): (its source, the Element part it pays, its value).
_Conversion = tuple[Source, int, int]


def _conversions(hand: list[int], pool: list[tuple[int, int, int]], plain: tuple) -> list[_Conversion]:
    """The Air conversions worth trying: for each Air value held (the hand's card first, then the
    pool's in ``_cards``' order), to each other Element part the cost has."""
    out: list[_Conversion] = []
    for v in range(1, NUM_VALUES + 1):
        c = ELEMENT_CODES[_AIR][v - 1]
        src: Source | None = (
            HAND_SOURCES[c]
            if hand[c] > 0
            else next((SupportSource(q, s) for q, s, code in pool if code == c), None)
        )
        if src is not None:
            out += [(src, e, v) for e in range(NUM_ELEMENTS) if e != _AIR and plain[e] > 0]
    return out


def _cheapest(
    state: GameState,
    payer: int,
    hand: list[int],
    pool: list[tuple[int, int, int]],
    counts: list[list[int]],
    plain: tuple,
    pairs: int,
    conv: _Conversion | None,
    valued: bool = True,
) -> tuple[int, list[Source]] | None:
    """(value paid, Element cards) of the least-waste payment of ``plain`` less ``pairs``
    Spontaneous Elements and the conversion ``conv``; None when the Element cards fall short.
    Not ``valued``: a single payment found comes with value 0 (the caller compares none)."""
    head: list[Source] = []
    base = list(plain)
    if conv is not None:
        src, e, v = conv
        head = [src]
        base[e] = max(0, base[e] - v)
        counts = [list(c) for c in counts]
        counts[_AIR][v - 1] -= 1
        if type(src) is HandSource:
            hand = hand.copy()
            hand[src.code] -= 1
        else:
            pool = [t for t in pool if (t[0], t[1]) != (src.seat, src.slot)]
    parts = [k for k in range(COST_PARTS) if base[k] > 0]
    caps = [base[k] for k in parts]
    # One part (most costs): its one spread, all the pairs on it, if it takes them (``spreads``).
    ways = (((pairs,),) if pairs <= caps[0] else ()) if len(parts) == 1 else spreads(pairs, caps)
    found: list[list[Source]] = []
    for spread in ways:
        req = list(base)
        for k, n in zip(parts, spread, strict=True):
            req[k] -= n
        if can_cover(counts, tuple(req)):
            found.append(head + _auto_elements(hand.copy(), pool, payer, tuple(req)))
    if len(found) == 1 and not valued:
        return 0, found[0]
    best: tuple[int, list[Source]] | None = None
    for paid in found:  # the least value, the first found among equals
        value = sum([CODE_VALUE[source_code(state, s)] for s in paid])
        if best is None or value < best[0]:
            best = (value, paid)
    return best


def _auto_general(
    state: GameState, payer: int, cost: Cost, hand: list[int], pool: list[tuple[int, int, int]]
) -> list[Source]:
    chosen: list[Source] = [
        HAND_SOURCES[c] for c in (*range(NUM_ELEMENT_CODES), CURRENCY) for _ in range(hand[c])
    ]
    chosen += [SupportSource(q, s) for q, s, _ in pool]
    codes = [source_code(state, s) for s in chosen]
    if not covers(codes, cost):
        raise ValueError(f"cost {cost} is not affordable")

    spare_currency = cost.wildcards and not cost.currency  # Dark Matter pays only as pairs here

    def drop_key(i: int) -> tuple[int, int, int]:
        """Others' support first, then own support, then the hand; high values first. Where
        Dark Matter pays only as Spontaneous Elements, its cards are dropped first (Element
        cards before Dark Matter pairs, section 4.9, docs/rules_decisions.md)."""
        s = chosen[i]
        where = 0 if isinstance(s, HandSource) else 1 if s.seat == payer else 2
        currency_first = 0 if spare_currency and codes[i] == CURRENCY else 1
        return (currency_first, -where, 1 - CODE_VALUE[codes[i]])  # value 0 (not an Element card) last

    keep = list(range(len(chosen)))
    for i in sorted(range(len(chosen)), key=drop_key):
        trial = [j for j in keep if j != i]
        if covers([codes[j] for j in trial], cost):
            keep = trial
    return [chosen[j] for j in keep]
