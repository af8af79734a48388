"""The payment frame (docs/rules.md sections 4.0 and 10.4): paying the cost of an Action.

``payment="auto"`` pays with the canonical least-waste payment (``payment.auto_payment``);
``"manual"`` asks for each card (PAY_HAND / PAY_SUPPORT; a Dark Matter card of a Spontaneous
Element pair is a pick too, section 4.9), then PAY_CONFIRM, or PAY_CANCEL, which returns to the
menu with nothing spent. A pay frame (``frames.PayFrame``) has the payer (``player``), the
``cost``, the sources picked so far (``picks``: ``records.HandSource`` / ``SupportSource``), the
``action`` and its ``target``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, frame
from bbom_env.engine.model import move_args as A
from bbom_env.engine.model.constants import (
    CODE_ELEMENT,
    CODE_VALUE,
    COST_ANY,
    COST_PARTS,
    CURRENCY,
    ELEMENT_CODES,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_VALUES,
)
from bbom_env.engine.model.records import HAND_SOURCES, HandSource, Source, SupportSource
from bbom_env.engine.payment.auto import auto_payment
from bbom_env.engine.payment.cost import (
    Cost,
    as_cost,
    banned_elements,
    check_parts,
    covers,
    elements_only,
    irreducible,
    is_free,
    source_code,
    usable_support,
)
from bbom_env.engine.payment.solver import remaining

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.frames import PayFrame


def pay_frame(p: int, req: tuple, action: str, what: str) -> PayFrame:
    """A frame that makes player p pay ``req`` (a ``payment.Cost``) for ``action`` (on ``what``)
    before it resolves. The frame keeps the cost's compact form (what a save writes)."""
    # A base game's cost is already its compact form (five numbers): no Cost to build.
    cost = req if type(req) is tuple and len(req) == COST_PARTS else _compact(req)
    return {
        "kind": "pay",
        "player": p,
        "cost": cost,
        "picks": (),
        "action": action,
        "target": what,
        "decider": None,
    }


def _compact(req: tuple) -> tuple:
    """``as_cost(req).compact()``, found again for a cost already seen: a pure function of an
    immutable tuple (a game has few module costs; each payment of one asked it anew)."""
    if not isinstance(req, tuple):
        return as_cost(req).compact()  # a list (as_cost takes one): nothing to key on
    cost = _COMPACT.get(req)
    if cost is None:
        cost = as_cost(req).compact()
        if len(_COMPACT) < 4096:
            _COMPACT[req] = cost
    return cost


# A cost (a Cost or a tuple of its fields; equal tuples make equal Costs) -> its compact form.
_COMPACT: dict[tuple, tuple] = {}


def _discard_sources(state: GameState, p: int, sources: list[Source]) -> None:
    """Paid cards go to their owners' discard piles (section 4.0); support slots close up."""
    pl = state.players[p]
    taken: dict[int, list[int]] = {}
    for src in sources:
        if type(src) is HandSource:
            pl.hand[src.code] -= 1
            pl.discard[src.code] += 1
        else:
            taken.setdefault(src.seat, []).append(src.slot)
    for q, slots in taken.items():
        owner = state.players[q]
        for s in sorted(slots, reverse=True):
            owner.discard[owner.take_support(s)] += 1


def run_pay(state: GameState, f: dict) -> None:
    if len(f["cost"]) > COST_PARTS:  # a module's cost: its parts are its game's modules' (4.0)
        check_parts(state, f["cost"], f["action"])
    if state.config.payment == "auto" or is_free(f["cost"]):
        req = f["cost"]
        # A base game's cost has five numbers (a hot path); a module's, its Cost once: the
        # payment's checks take it as it is.
        cost = req if len(req) == COST_PARTS else as_cost(req)
        _spend(state, f, auto_payment(state, f["player"], cost, f["action"]))
        return
    f["decider"] = f["player"]


def _spend(state: GameState, f: dict, sources: list[Source]) -> None:
    """Pay the frame's cost with these sources (to the discard piles: section 4.0), note the Air
    conversion where only it pays (V-12) and resolve the frame."""
    p = f["player"]
    codes = tuple([source_code(state, s) for s in sources])  # a list comprehension: no generator
    _discard_sources(state, p, sources)
    state.event("pay", p, f["action"], f["target"], codes)
    if len(f["cost"]) > COST_PARTS:  # a base game's cost never has the conversion
        _note_conversion(state, p, f["cost"], codes)
    done(state, f)


def _note_conversion(state: GameState, p: int, req: tuple, codes: tuple[int, ...]) -> None:
    """A cost with the Air conversion (``Cost.convert``, a Magician's ability, V-12) that these
    cards pay only with it spends the ability for this turn (section 4.11: once per turn)."""
    cost = as_cost(req)
    if not cost.convert:
        return
    if not covers(list(codes), cost._replace(convert=False)):  # not paid without the conversion
        pl = state.players[p]
        pl.ability_used = True
        state.event("ability", p, pl.magician)


_ELEMENT_CARD_CODES = tuple(range(NUM_ELEMENT_CODES))
_PAYABLE_WITH_CURRENCY = (*_ELEMENT_CARD_CODES, CURRENCY)


def _offers(state: GameState, f: dict, currency: bool) -> tuple[list[tuple[int, int]], list[int]]:
    """The cards still available to pick: (move, code) pairs, and counts by code. Banned
    Elements, crushed cards and (with "no_support_payment") the support pool are left out."""
    p = f["player"]
    banned = banned_elements(state, p, f["action"])
    hand = state.players[p].hand
    used_hand = [0] * NUM_CODES
    used_slots = set()
    for s in f["picks"]:
        if type(s) is HandSource:
            used_hand[s.code] += 1
        else:
            used_slots.add((s.seat, s.slot))
    payable = _PAYABLE_WITH_CURRENCY if currency else _ELEMENT_CARD_CODES  # currency: module costs
    offers = [
        (M.PAY_HAND + c, c) for c in payable if hand[c] > used_hand[c] and CODE_ELEMENT[c] not in banned
    ]
    pool = [0] * NUM_CODES
    for _, c in offers:
        pool[c] = hand[c] - used_hand[c]
    n = len(state.players)
    for q, s, code in usable_support(state, p, banned):
        if (q, s) not in used_slots and s < MAX_SUPPORT_SLOTS and (code < NUM_ELEMENT_CODES or currency):
            offers.append((M.PAY_SUPPORT + M.support_arg((q - p) % n, s), code))
            pool[code] += 1
    return offers, pool


def legal_pay(state: GameState, f: dict) -> list[int]:
    """DP-P1..P3, P6: a card is offered if it pays part of what is still owed (for an Element-only
    cost: its Element still has an uncovered need, or the ``any`` part is uncovered) and, with
    irreducible payments, the payment it makes is not reducible (A-18)."""
    req = f["cost"]  # the compact form: five numbers for the base game's costs
    picked = [source_code(state, s) for s in f["picks"]]
    out = [M.PAY_CANCEL]
    cost = None if elements_only(req) else as_cost(req)  # a Cost only for a module's cost parts
    covered = covers(picked, req)
    irreducible_only = state.config.irreducible_payments
    if covered:
        out.append(M.PAY_CONFIRM)
        if irreducible_only:
            out.sort()
            return out
    offers, pool = _offers(state, f, cost is not None and bool(cost.currency or cost.wildcards))
    if cost is not None:
        module_useful = _module_useful(picked, cost, pool, irreducible_only)
        out += [m for m, code in offers if module_useful(code)]
        out.sort()
        return out
    verdict: dict[int, bool] = {}  # equal codes get equal answers
    have = [0] * NUM_ELEMENTS  # Elements picked, by Element (picks are Element cards here)
    for c in picked:
        have[CODE_ELEMENT[c]] += CODE_VALUE[c]
    need_any = req[COST_ANY] > 0 and not covered

    def useful(code: int) -> bool:
        if code in verdict:
            return verdict[code]
        # Whether the card pays part of what is still owed (an Element-only cost: written here,
        # not in a closure, as it is asked for every card offered).
        e = CODE_ELEMENT[code]
        ok = have[e] < req[e] or need_any
        if ok and irreducible_only:
            exact = completable_pick(picked, pool, req, code)
            if exact is None:  # mixed cost: at least no reducible payment is ever confirmed
                trial = [*picked, code]
                ok = not covers(trial, req) or irreducible(trial, req)
            else:
                ok = exact
        verdict[code] = ok
        return ok

    out += [m for m, code in offers if useful(code)]
    out.sort()
    return out


def _module_useful(
    picked: list[int], cost: Cost, pool: list[int], irreducible_only: bool
) -> Callable[[int], bool]:
    """``legal_pay``'s judge of a card for a cost with a module's parts: whether it pays part of
    what is still owed and, with irreducible payments (A-18), keeps an irreducible payment
    reachable (``completable_module``; the shapes it counts asked directly). Dark Matter that
    pays only as Spontaneous Elements (section 4.9) pays in pairs: each card is a pick (DP-P4),
    the first of a pair judged with its pair completed (A-18 counts a pair as one unit), offered
    only while a second card is there. Equal codes get equal answers (asked once)."""
    verdict: dict[int, bool] = {}
    with_picks = list(pool)  # the cards still available plus those already picked
    for c in picked:
        with_picks[c] += 1
    # What is owed, summed: ``remaining``'s numbers are ``left_to_pay``'s amounts (no Cost built).
    owed = sum(remaining(tuple(picked), cost))
    pairs_only = cost.wildcards and not cost.currency
    odd = picked.count(CURRENCY) % 2

    def useful(code: int) -> bool:
        ok = verdict.get(code)
        if ok is not None:
            return ok
        # The payment its pick makes (None: none, a lone Dark Matter card that no other pairs).
        trial: list[int] | None = [*picked, code]
        if code == CURRENCY and pairs_only and not odd:
            trial = [*picked, code, code] if pool[CURRENCY] >= 2 else None
        if trial is None:
            ok = False
        else:
            ok = sum(remaining(tuple(trial), cost)) < owed
            if ok and irreducible_only:
                ok = completable_module(trial, with_picks, cost)
        verdict[code] = ok
        return ok

    return useful


def answer_pay(state: GameState, f: dict, move: int) -> None:
    p = f["player"]
    if move == M.PAY_CANCEL:
        # Nothing was spent: drop the pay frame and the Action's frames, back to the menu.
        while state.stack and state.stack[-1]["kind"] != "menu":
            state.stack.pop()
        menu = state.stack[-1] if state.stack else None
        if menu is not None and menu["grants"] >= 0:
            menu["grants"] += 1  # a granted Action (4.12) cancelled is not used up: give it back
        state.event("cancel", p, f["action"])
        return
    if move == M.PAY_CONFIRM:
        _spend(state, f, list(f["picks"]))
        return
    if move < M.PAY_SUPPORT:
        f["picks"] = f["picks"] + (HAND_SOURCES[move - M.PAY_HAND],)
    else:
        off, s = A.SUPPORT.from_index(move - M.PAY_SUPPORT)
        f["picks"] = f["picks"] + (SupportSource((p + off) % len(state.players), s),)


frame("pay", run_pay, legal_pay, answer_pay)


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
    return completable_values(fixed, avail, r)


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
    payment asks the same trials again and again, about half of them in random play)."""
    return _completable_module(tuple(sorted(trial)), tuple(pool), cost, budget)


@lru_cache(maxsize=1 << 14)
def _completable_module(trial: tuple[int, ...], pool: tuple[int, ...], cost: Cost, budget: int) -> bool:
    left = list(pool)
    for c in trial:
        left[c] -= 1
    if min(left) < 0:
        return False  # the pool lacks one of the trial's cards
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
