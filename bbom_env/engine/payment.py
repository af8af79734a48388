"""Paying a cost (RULES.md section 4.0): which cards can pay, whether a set covers a cost, and the
canonical least-waste payment of ``payment="auto"``.

A cost is a requirement ``req = (fire, water, earth, air, any)`` in Elements. A card's whole value
goes to one requirement of its own Element or to ``any`` (a card is never split, [PROPOSED] 4.0).
A payment source is ``("h", code)`` for a card of the payer's hand or ``("s", seat, slot)`` for a
card of the support pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import NUM_ELEMENT_CODES

if TYPE_CHECKING:
    from .state import GameState

Source = tuple  # ("h", code) | ("s", seat, slot)


def usable_support(state: GameState, payer: int) -> list[tuple[int, int, int]]:
    """(seat, slot, code) of every support-pool Element card the payer may use (4.0, DP-P2/P3)."""
    out = []
    for q, pl in enumerate(state.players):
        if pl.eliminated or not pl.support:
            continue
        for s, code in enumerate(pl.support):
            if code < NUM_ELEMENT_CODES:
                out.append((q, s, code))
    # The modifier is looked up only when there is something to refuse (a hot path: the menu).
    if out and state.has_mod(payer, "no_support_payment"):
        return []
    return out


def available_values(state: GameState, payer: int) -> list[list[int]]:
    """counts[element][value-1] of the Element cards the payer can pay with (hand + pool)."""
    counts = [[0, 0, 0] for _ in range(4)]
    hand = state.players[payer].hand
    for code in range(NUM_ELEMENT_CODES):
        n = hand[code]
        if n:
            counts[code // 3][code % 3] += n
    for _, _, code in usable_support(state, payer):
        counts[code // 3][code % 3] += 1
    return counts


def _min_sum_at_least(r: int, n1: int, n2: int, n3: int) -> tuple[int, int, int] | None:
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


def can_cover(counts: list[list[int]], req: tuple[int, ...]) -> bool:
    """Whether cards with counts[element][value-1] cover req (exact, no card splitting)."""
    need_any = req[4]
    leftover = 0
    for e in range(4):
        n1, n2, n3 = counts[e]
        r = req[e]
        if r > 0:
            best = _min_sum_at_least(r, n1, n2, n3)
            if best is None:
                return False
            c1, c2, c3 = best
            leftover += (n1 - c1) + 2 * (n2 - c2) + 3 * (n3 - c3)
        else:
            leftover += n1 + 2 * n2 + 3 * n3
    return leftover >= need_any


def affordable(state: GameState, payer: int, req: tuple[int, ...]) -> bool:
    return can_cover(available_values(state, payer), req)


def covers(codes: list[int], req: tuple[int, ...]) -> bool:
    counts = [[0, 0, 0] for _ in range(4)]
    for c in codes:
        counts[c // 3][c % 3] += 1
    return can_cover(counts, req)


def irreducible(codes: list[int], req: tuple[int, ...]) -> bool:
    """A covering payment none of whose cards can be removed (A-18)."""
    for i in range(len(codes)):
        if covers(codes[:i] + codes[i + 1 :], req):
            return False
    return True


def source_code(state: GameState, src: Source) -> int:
    if src[0] == "h":
        return src[1]
    return state.players[src[1]].support[src[2]]


def auto_payment(state: GameState, payer: int, req: tuple[int, ...]) -> list[Source]:
    """The canonical payment of ``payment="auto"``: least waste for each Element requirement,
    then for ``any``; among equal waste, low-value cards first; hand cards before the payer's own
    support, before other players' support (seat order). Raises ValueError when unaffordable."""
    hand = list(state.players[payer].hand)
    pool = usable_support(state, payer)
    pool.sort(key=lambda t: (t[0] != payer, (t[0] - payer) % len(state.players), t[1]))
    used_pool: set[tuple[int, int]] = set()
    out: list[Source] = []

    def take(code: int) -> None:
        if hand[code] > 0:
            hand[code] -= 1
            out.append(("h", code))
            return
        for q, s, c in pool:
            if c == code and (q, s) not in used_pool:
                used_pool.add((q, s))
                out.append(("s", q, s))
                return
        raise AssertionError("card vanished during payment")

    def counts_of(e: int) -> tuple[int, int, int]:
        n = [hand[e * 3 + v] for v in range(3)]
        for q, s, c in pool:
            if c // 3 == e and (q, s) not in used_pool:
                n[c % 3] += 1
        return n[0], n[1], n[2]

    for e in range(4):
        if req[e] > 0:
            best = _min_sum_at_least(req[e], *counts_of(e))
            if best is None:
                raise ValueError(f"cost {req} is not affordable")
            for v in range(3):
                for _ in range(best[v]):
                    take(e * 3 + v)
    need = req[4]
    if need > 0:
        per_value = [0, 0, 0]
        for e in range(4):
            c = counts_of(e)
            for v in range(3):
                per_value[v] += c[v]
        best = _min_sum_at_least(need, *per_value)
        if best is None:
            raise ValueError(f"cost {req} is not affordable")
        for v in range(3):
            for _ in range(best[v]):
                # The Element the payer holds most of at that value (keeps a balance of Elements).
                e = max(range(4), key=lambda el: (counts_of(el)[v], -el))
                take(e * 3 + v)
    return out


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
