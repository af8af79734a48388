"""Choosing the cards of a payment (RULES.md section 4.0, DP-P1..P6): the canonical payment of
``payment="auto"`` and, for manual payment, whether a pick keeps an irreducible payment reachable.

Auto payment, for a cost of Element parts and ``any`` (docs/rules_decisions.md): least waste for
each Element part, then for ``any``; among equal waste, low-value cards first; among equal cards,
hand cards before the payer's own support, before other players' support in seat order. For a
cost with module parts: every usable card, then cards are dropped while the rest still pays,
others' support first, then the payer's own support, then the hand, high values first (an
irreducible payment that spends the hand first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import CURRENCY, NUM_ELEMENT_CODES
from .payment import (
    _min_sum_at_least,
    as_cost,
    banned_elements,
    covers,
    elements_only,
    source_code,
    usable_support,
)
from .records import HAND_SOURCES, HandSource, Source, SupportSource

if TYPE_CHECKING:
    from .state import GameState


def _pool(state: GameState, payer: int, banned: frozenset[int]) -> list[tuple[int, int, int]]:
    """Usable support cards in preference order: the payer's own first, then by seat order."""
    pool = usable_support(state, payer, banned)
    pool.sort(key=lambda t: (t[0] != payer, (t[0] - payer) % len(state.players), t[1]))
    return pool


def auto_payment(state: GameState, payer: int, req: tuple, action: str = "") -> list[Source]:
    """The canonical payment of ``payment="auto"``. Raises ValueError when unaffordable."""
    cost = as_cost(req)
    banned = banned_elements(state, payer, action) if action else frozenset()
    if not elements_only(req):
        return _auto_general(state, payer, cost, banned)
    hand = state.players[payer].hand.copy()
    if banned:
        hand = [n if c // 3 not in banned else 0 for c, n in enumerate(hand)]
    pool = _pool(state, payer, banned)
    used_pool: set[tuple[int, int]] = set()
    out: list[Source] = []

    def take(code: int) -> None:
        if hand[code] > 0:
            hand[code] -= 1
            out.append(HAND_SOURCES[code])
            return
        for q, s, c in pool:
            if c == code and (q, s) not in used_pool:
                used_pool.add((q, s))
                out.append(SupportSource(q, s))
                return
        raise AssertionError("card vanished during payment")

    def counts_of(e: int) -> tuple[int, int, int]:
        n = [hand[e * 3 + v] for v in range(3)]
        for q, s, c in pool:
            if c // 3 == e and c < NUM_ELEMENT_CODES and (q, s) not in used_pool:
                n[c % 3] += 1
        return n[0], n[1], n[2]

    def tier(code: int) -> int:
        """Where the next card of this code comes from: 0 hand, 1 own support, 2 other support."""
        if hand[code] > 0:
            return 0
        for q, s, c in pool:
            if c == code and (q, s) not in used_pool:
                return 1 if q == payer else 2
        return 3

    for e in range(4):
        if cost[e] > 0:
            best = _min_sum_at_least(cost[e], *counts_of(e))
            if best is None:
                raise ValueError(f"cost {cost.compact()} is not affordable")
            for v in range(3):
                for _ in range(best[v]):
                    take(e * 3 + v)
    need = cost[4]
    if need > 0:
        per_value = [0, 0, 0]
        for e in range(4):
            c = counts_of(e)
            for v in range(3):
                per_value[v] += c[v]
        best = _min_sum_at_least(need, *per_value)
        if best is None:
            raise ValueError(f"cost {cost.compact()} is not affordable")
        for v in range(3):
            for _ in range(best[v]):
                # Hand before support (the documented order), then the Element the payer holds
                # most of at that value (keeps a balance of Elements).
                e = min(range(4), key=lambda el: (tier(el * 3 + v), -counts_of(el)[v], el))
                take(e * 3 + v)
    return out


def _auto_general(state: GameState, payer: int, cost: tuple, banned: frozenset[int]) -> list[Source]:
    hand = state.players[payer].hand
    payable = (*range(NUM_ELEMENT_CODES), CURRENCY)
    chosen: list[Source] = [HAND_SOURCES[c] for c in payable if c // 3 not in banned for _ in range(hand[c])]
    chosen += [SupportSource(q, s) for q, s, _ in _pool(state, payer, banned)]
    codes = [source_code(state, s) for s in chosen]
    if not covers(codes, cost):
        raise ValueError(f"cost {cost} is not affordable")

    def drop_key(i: int) -> tuple[int, int]:
        """Others' support first, then own support, then the hand; high values first."""
        s = chosen[i]
        where = 0 if isinstance(s, HandSource) else 1 if s.seat == payer else 2
        return (-where, -(codes[i] % 3 if codes[i] < NUM_ELEMENT_CODES else -1))

    keep = list(range(len(chosen)))
    for i in sorted(range(len(chosen)), key=drop_key):
        trial = [j for j in keep if j != i]
        if covers([codes[j] for j in trial], cost):
            keep = trial
    return [chosen[j] for j in keep]


def _completable(fixed: list[int], avail: list[int], r: int) -> bool:
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


def completable_pick(picked: list[int], pool: list[int], req: tuple[int, ...], code: int) -> bool | None:
    """A-18 in manual mode: whether picking ``code`` keeps an irreducible payment reachable from
    the cards still available (``pool``: counts by card code, the candidate included).

    Exact when the cost is Element-specific only (Elements are then independent) or "any
    Elements" only (Cure); None for mixed costs, where the caller falls back to a weaker check."""
    if not elements_only(req):
        return None
    specific = req[0] or req[1] or req[2] or req[3]
    if specific and req[4]:
        return None
    if specific:
        e = code // 3
        r = req[e]
        if r == 0:
            return False
        fixed = [c % 3 + 1 for c in picked if c // 3 == e] + [code % 3 + 1]
        avail = [pool[e * 3 + v] for v in range(3)]
    else:
        r = req[4]
        fixed = [c % 3 + 1 for c in picked] + [code % 3 + 1]
        avail = [sum(pool[el * 3 + v] for el in range(4)) for v in range(3)]
    avail[code % 3] -= 1  # the candidate itself
    return _completable(fixed, avail, r)
