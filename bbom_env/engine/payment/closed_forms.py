"""Closed forms of the menu (``menu.MenuView``) for costs a module's cost transforms open
(``hooks.GatedTransform``): Spontaneous Elements, a pair of currency cards paying 1 of any part
(docs/rules.md section 4.9), and the Air conversion, one Air card counted as any other Element, its
whole value (V-12). Each gives ``payment.can_cover_module``'s or
``payment.affordable``'s answer for a cost of its shape without building the cost or searching
(``tests/engine/test_payment_closed_forms.py`` compares them on every small hand). And ``fits``,
the menu's check of an Element-only cost against the Element cards (every game's).
"""

from __future__ import annotations

from bbom_env.engine.model.constants import COST_ANY, Element
from bbom_env.engine.payment.cost import _min_sum_at_least, can_cover

AIR = Element.AIR  # the Element of the Air conversion (V-12)
Req = tuple[int, ...]


def fits(tot: list[int], counts: list[list[int]], req: Req) -> bool:
    """Fast affordability: single-Element costs compare sums; the rest use the exact check."""
    # Written out for the four Elements (a hot path).
    if req[COST_ANY] == 0:
        return tot[0] >= req[0] and tot[1] >= req[1] and tot[2] >= req[2] and tot[3] >= req[3]
    if req[0] == req[1] == req[2] == req[3] == 0:
        return tot[0] + tot[1] + tot[2] + tot[3] >= req[COST_ANY]
    # Element parts and "any" (a cost modifier's "any" surcharge: the Phobias, section 9.2): what
    # can_cover answers, decided by the sums when they can. Short of the whole cost in value: no;
    # every part's Element worth its part, and the Elements no part names worth "any": yes (a
    # part's least-waste cards leave the others of every Element to "any").
    t0, t1, t2, t3 = tot
    if t0 + t1 + t2 + t3 < req[0] + req[1] + req[2] + req[3] + req[COST_ANY]:
        return False
    if t0 >= req[0] and t1 >= req[1] and t2 >= req[2] and t3 >= req[3]:
        free = (0 if req[0] else t0) + (0 if req[1] else t1) + (0 if req[2] else t2) + (0 if req[3] else t3)
        if free >= req[COST_ANY]:
            return True
    else:
        return False  # an Element part its cards do not reach
    return can_cover(counts, req)


def parts_payable(tot: list[int], air: list[int], req: Req, pairs: int, convert: bool) -> bool:
    """``can_cover_module`` for a cost of Element parts without "any": each part's cards pay
    only it and a pair pays 1 of any part (section 4.9), so the shortfalls, summed, against the
    pairs decide (``can_cover_pairs``' spread); with the conversion (V-12), also with each Air
    card value (``air``: counts of values 1-3) converted to pay each other part owed."""
    # Written out (the menu asks it for each Curse): the parts' shortfalls against ``tot``, summed;
    # with an Air card of value v converted to pay part k: part k owes v less, Air's cards are
    # worth v less (``air_need``, the Air part's shortfall before clipping at 0, grows by v).
    short = [req[0] - tot[0], req[1] - tot[1], req[2] - tot[2]]
    air_need = req[AIR] - tot[AIR]
    total = (short[0] if short[0] > 0 else 0) + (short[1] if short[1] > 0 else 0)
    total += (short[2] if short[2] > 0 else 0) + (air_need if air_need > 0 else 0)
    if total <= pairs:
        return True
    if convert:
        for i in range(3):
            if air[i]:
                v = i + 1
                with_air = total - (air_need if air_need > 0 else 0) + max(0, air_need + v)
                for k in range(3):  # the Elements other than Air (Element.AIR is 3)
                    if req[k] > 0:
                        need = short[k]
                        after = with_air - (need if need > 0 else 0) + max(0, need - v)
                        if after <= pairs:
                            return True
    return False


def curse_payable(
    tot: list[int], air: list[int], cost: tuple[int, ...], tokens: tuple[int, ...], pairs: int, convert: bool
) -> bool:
    """Whether a Curse's printed Element cost plus one Element per token of its colour (A-62: no
    "any" part) is payable with ``pairs`` Spontaneous Elements (section 4.9) and, with
    ``convert``, the Air conversion (V-12): ``parts_payable`` of that cost, the shortfalls against
    ``tot`` summed first (most Curses are settled by them)."""
    n0, n1 = cost[0] + tokens[0] - tot[0], cost[1] + tokens[1] - tot[1]
    n2, n3 = cost[2] + tokens[2] - tot[2], cost[3] + tokens[3] - tot[3]
    short = (n0 if n0 > 0 else 0) + (n1 if n1 > 0 else 0) + (n2 if n2 > 0 else 0) + (n3 if n3 > 0 else 0)
    if short <= pairs:
        return True
    if not convert or not (air[0] or air[1] or air[2]):
        return False
    req = (cost[0] + tokens[0], cost[1] + tokens[1], cost[2] + tokens[2], cost[3] + tokens[3], 0)
    return parts_payable(tot, air, req, pairs, True)


def distinct_held(counts: list[list[int]], convert: bool) -> int:
    """How many cards of pairwise different Elements the cards with counts[element][value-1] can
    give (a cost of "n cards of different Elements": Acquire Dark Matter, section 4.6, V-17);
    with the Air conversion (V-12), one Air card may count as an Element none of the others has:
    the Elements held, plus one when a second Air card can be converted to a missing Element."""
    held = 0
    for c in counts[:AIR]:
        if c[0] or c[1] or c[2]:
            held += 1
    a = counts[AIR]
    airs = a[0] + a[1] + a[2]
    if not airs:
        return held
    if convert and airs >= 2 and held < AIR:  # a non-Air Element none of the cards has
        return held + 2
    return held + 1


def flagged_tot(base: list[int], pairs: int, air: list[int], same: int) -> list[int]:
    """``MenuView.single_tot`` with uniform transforms: ``base`` (the value per Element of the
    funds for the Action, -1 for a forbidden Element) plus ``pairs`` Spontaneous Elements
    (section 4.9) and, for each Element but Air, the best Air card (``air``: counts of values
    1-3, none without the Air conversion, V-12), less the net "same" modifier ``same``: n of e
    (n + same of e, clamped at 0) is payable exactly when the value is >= n."""
    a = 3 if air[2] else 2 if air[1] else 1 if air[0] else 0
    bonus = pairs - same
    return [-1 if v < 0 else v + bonus + (a if e != AIR else 0) for e, v in enumerate(base)]


def pays_flagged(
    tot: list[int], counts: list[list[int]], req: Req, element: int, flags: tuple[bool, bool], currency: int
) -> bool:
    """``MenuView._can_pay_module`` of an Element cost (none of it of a banned Element) the
    Element cards alone (value ``tot``, ``counts``: the funds for the Action) do not pay, with the
    uniform transforms' ``flags`` (wildcards: a Spontaneous Element per pair of the ``currency``
    cards, section 4.9; convert: the Air conversion, V-12): for one Element part (``element``;
    -1: several), the closed form of ``can_cover_module`` (the Element's cards, a pair per
    Element, the best Air card counted as that Element)."""
    wildcards, convert = flags
    if not (wildcards or convert):
        return False
    pairs = currency // 2 if wildcards else 0
    if element < 0:
        if not req[COST_ANY]:
            return parts_payable(tot, counts[AIR], req, pairs, convert)
        parts = (req[0] > 0) + (req[1] > 0) + (req[2] > 0) + (req[3] > 0)
        if parts <= 1:  # one Element part (or none) and "any"
            e = 0 if req[0] else 1 if req[1] else 2 if req[2] else 3
            return one_part_any(counts, req, e, pairs, convert)
        return parts_any(counts, req, pairs, convert)
    have = tot[element] + pairs
    if convert and element != AIR:
        air = counts[AIR]
        have += 3 if air[2] else 2 if air[1] else 1 if air[0] else 0
    return have >= req[element]


def one_part_any(counts: list[list[int]], req: Req, e: int, pairs: int, convert: bool) -> bool:
    """``can_cover_module`` of a cost of ``req[e]`` Elements of Element e and ``req[4]`` of
    "any" (a one-Element cost with a modifier's "any" surcharge: the Phobias' V-33, section 9.2),
    with ``pairs`` Spontaneous Elements (section 4.9) and, with ``convert``, the Air conversion
    (V-12). e's part takes k pairs and its least-waste cards (``_min_sum_at_least``), the rest
    of every card and the other pairs pay "any"; with the conversion, an Air card of value v may
    pay v of e's part first (e not Air: an Air card pays Air and "any" without converting)."""
    r, x = req[e], req[COST_ANY]
    total = 0
    for c in counts:
        total += c[0] + 2 * c[1] + 3 * c[2]
    n1, n2, n3 = counts[e]
    if _one_part_any(r, x, total, n1, n2, n3, pairs):
        return True
    if convert and e != AIR:
        air = counts[AIR]
        for i in range(3):
            if air[i] and _one_part_any(max(0, r - i - 1), x, total - i - 1, n1, n2, n3, pairs):
                return True
    return False


def _one_part_any(r: int, x: int, total: int, n1: int, n2: int, n3: int, pairs: int) -> bool:
    """Whether r of an Element with n1, n2, n3 cards of values 1-3 and x of "any" from cards worth
    ``total`` in all (those included) are payable with ``pairs`` wildcards of 1 each."""
    have = n1 + 2 * n2 + 3 * n3
    for k in range(min(pairs, r) + 1):
        if r - k > have:
            continue
        best = _min_sum_at_least(r - k, n1, n2, n3)
        if best is not None and total - (best[0] + 2 * best[1] + 3 * best[2]) + pairs - k >= x:
            return True
    return False


def parts_any(counts: list[list[int]], req: Req, pairs: int, convert: bool) -> bool:
    """``can_cover_module`` of a cost of Element parts and "any" (a Multi-Element Curse with a
    "same" surcharge, section 4.10: "same" is "any" for a Curse without an Element) with
    ``pairs`` Spontaneous Elements (section 4.9) and, with ``convert``, the Air conversion
    (V-12): each part takes some pairs and its least-waste cards, every card left and the pairs
    left pay "any" (``_parts_any``); with the conversion, also with each Air card value first
    paying each other Element part owed."""
    total = 0
    for c in counts:
        total += c[0] + 2 * c[1] + 3 * c[2]
    if _parts_any(counts, req, pairs, total):
        return True
    if convert:
        air = counts[AIR]
        for i in range(3):
            if air[i]:
                rest = [*counts[:AIR], [*air[:i], air[i] - 1, *air[i + 1 :]]]
                for k in range(AIR):  # the Elements other than Air
                    if req[k] > 0:
                        left = (*req[:k], max(0, req[k] - i - 1), *req[k + 1 :])
                        if _parts_any(rest, left, pairs, total - i - 1):
                            return True
    return False


def _parts_any(counts: list[list[int]], req: Req, pairs: int, total: int) -> bool:
    """Whether the Element parts of ``req`` and its "any" are payable from cards worth ``total``
    with ``pairs`` wildcards of 1: j pairs on part k leave it ``S_k(req[k] - j)`` (the least sum
    of k's cards at least that), and "any" gets the rest, so the least sum over the parts of
    ``S_k + j`` (at most ``pairs`` pairs in all, by parts: a small knapsack) decides."""
    best = {0: 0}  # pairs used -> the least sum of S_k + j over the parts so far
    for k in range(AIR + 1):
        r = req[k]
        if r <= 0:
            continue
        n1, n2, n3 = counts[k]
        have = n1 + 2 * n2 + 3 * n3
        options = []
        for j in range(min(pairs, r) + 1):
            if r - j <= have:
                s = _min_sum_at_least(r - j, n1, n2, n3)
                if s is not None:
                    options.append((j, s[0] + 2 * s[1] + 3 * s[2] + j))
        nxt: dict[int, int] = {}
        for used, cost in best.items():
            for j, c in options:
                if used + j <= pairs and nxt.get(used + j, cost + c + 1) > cost + c:
                    nxt[used + j] = cost + c
        if not nxt:
            return False
        best = nxt
    return min(best.values()) <= total + pairs - req[COST_ANY]


def ban_tot(tot: list[int], banned: frozenset[int] | None) -> list[int] | None:
    """V-36, section 4.10: when every "forbid" modifier of the decider bans an Element for every
    Action (the Phobias "You can no longer take an Action using <Element>": ``banned``, the
    reading's ``ban_all``), the value per Element that decides their one-Element costs
    (``MenuView.single_tot``): the cards they may pay with (no card of a banned Element), and -1
    for a banned Element, whose Actions are forbidden (``hooks.forbidden``), as no cost (>= 0) is
    <= -1. None otherwise (``banned`` None)."""
    if banned is None:
        return None
    # The funds' values for "all" (``MenuView._funds``: a banned Element's cards left out),
    # written out (no comprehension's frame): an Element not banned keeps its value in ``tot``;
    # the funds themselves are built only when an Action asks for them.
    return [
        -1 if 0 in banned else tot[0],
        -1 if 1 in banned else tot[1],
        -1 if 2 in banned else tot[2],
        -1 if 3 in banned else tot[3],
    ]
