"""Paying a cost (docs/rules.md section 4.0): one cost record and one solver for the legal moves, auto
payment, the pending decision's "left to pay" and the observation.

A ``Cost`` is Element parts (fire, water, earth, air), ``any`` Elements, and the module parts: a
one-of-a-set surcharge (``one_of`` Elements of the Elements in ``one_of_set``), ``distinct`` cards
of pairwise different Elements (any values), ``currency`` cards (the non-Element currency,
``constants.CURRENCY``), ``wildcards`` (two currency cards as one Element of value 1) and
``convert`` (one Air card of the payment may count as any one Element, its whole value: the Vth
Element's Air conversion, V-12). A card's whole value goes to one part (a card is
never split, [PROPOSED] 4.0). Its first five fields are the base game's requirement vector
(``constants.COST_PARTS``), so ``cost[e]`` and ``cost[COST_ANY]`` read as they always did.

Payment sources are the records ``HandSource(code)`` for a card of the payer's hand and
``SupportSource(seat, slot)`` for a card of the support pool (``records.py``).
``usable_support`` applies the source filters: an Element banned for the payer (a "forbid"
modifier with an Element: section 4.10), no support payment, and crushed support cards.

The base game's costs (Element parts and ``any`` only) use closed forms (the hot path); costs with
module parts use the exact search of ``payment_search.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Literal, NamedTuple

from bbom_env.engine.model.constants import (
    CODE_COUNT_INDEX,
    CODE_ELEMENT,
    COST_ANY,
    COST_PARTS,
    CURRENCY,
    ELEMENT_NAMES,
    ELEMENTS,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_VALUES,
    code_name,
    element_code,
)
from bbom_env.engine.model.records import NO_CARD, HandSource, Source
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.search import remaining

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


class Cost(NamedTuple):
    fire: int = 0
    water: int = 0
    earth: int = 0
    air: int = 0
    any: int = 0
    one_of: int = 0
    one_of_set: tuple[int, ...] = ()
    distinct: int = 0
    currency: int = 0
    wildcards: bool = False
    convert: bool = False

    @property
    def elements_only(self) -> bool:
        """Only Element parts and ``any`` (the closed-form solver applies)."""
        return not (self.one_of or self.distinct or self.currency or self.wildcards or self.convert)

    @property
    def is_free(self) -> bool:
        """Nothing to pay."""
        # The five Element parts written out (module cost transforms ask on every menu query).
        if self[0] or self[1] or self[2] or self[3] or self[4]:
            return False
        return not (self.one_of or self.distinct or self.currency)

    def compact(self) -> tuple:
        """The fields up to the last one that is not at its default (at least the five Element
        parts): what a save writes, so base-game saves keep their five-number costs."""
        n = len(self)
        while n > 5 and self[n - 1] == Cost._field_defaults[Cost._fields[n - 1]]:
            n -= 1
        return tuple(self[:n])


def as_cost(req: tuple | list) -> Cost:
    """A ``Cost`` from a cost or its compact form (five or more numbers, as saves write it)."""
    if type(req) is Cost:
        return req
    if type(req) is tuple:
        cost = _COSTS.get(req)  # the few costs of a game, each built once (a hot path)
        if cost is not None:
            return cost
    fields = list(req)
    if len(fields) > 6:
        fields[6] = tuple(fields[6])
    cost = Cost(*fields)
    if type(req) is tuple and len(_COSTS) < 4096:
        _COSTS[req] = cost
    return cost


_COSTS: dict[tuple, Cost] = {}


def is_free(req: tuple) -> bool:
    """Nothing to pay (a ``Cost`` or its compact form; five numbers: the base game's costs)."""
    if len(req) == COST_PARTS:
        return not any(req)
    return as_cost(req).is_free


def elements_only(req: tuple) -> bool:
    """Whether a cost (a ``Cost`` or its compact form) has only Element parts and ``any``: a
    compact form of five numbers always has (the base game's costs, the hot path)."""
    return len(req) == COST_PARTS or as_cost(req).elements_only


ZERO = Cost()


def element_cost(e: int, n: int) -> Cost:
    """n Elements of Element e."""
    parts = [0] * COST_PARTS
    parts[e] = n
    return Cost(parts[0], parts[1], parts[2], parts[3], parts[4])


# -- sources ----------------------------------------------------------------------------------


def usable_support(
    state: GameState, payer: int, banned: frozenset[int] = frozenset()
) -> list[tuple[int, int, int]]:
    """(seat, slot, code) of every support-pool card the payer may use (4.0, DP-P2/P3): Element
    cards and currency cards, not of a banned Element, not crushed."""
    out = []
    for q, pl in enumerate(state.players):
        if pl.eliminated or not pl.support:
            continue
        for s, slot in enumerate(pl.support):
            code = slot.card
            if (code < NUM_ELEMENT_CODES and CODE_ELEMENT[code] not in banned) or code == CURRENCY:
                # Source filter: a slot holding a crushed card (under a Phobia,
                # V-21) pays with neither card: the crushed one is unavailable, the one on top is
                # a Phobia. No base card crushes, so this never removes a base-game source.
                if slot.crushed == NO_CARD:
                    out.append((q, s, code))
    # The modifier is looked up only when there is something to refuse (a hot path: the menu).
    if out and hooks.has_mod(state, payer, "no_support_payment"):
        return []
    return out


# Elements whose cards the payer may not pay with for an Action (section 4.10): the hook itself,
# not a wrapper around it (one call less on every payment).
banned_elements = hooks.banned_elements
NO_BAN = hooks.NO_BAN


_ELEMENT_FIRST_CODES = tuple(element_code(e, 1) for e in ELEMENTS)
assert _ELEMENT_FIRST_CODES == (0, 3, 6, 9)  # values_and_currency's slices, written out


def available_values(state: GameState, payer: int, banned: frozenset[int] = frozenset()) -> list[list[int]]:
    """counts[element][value-1] of the Element cards the payer can pay with (hand + pool)."""
    hand = state.players[payer].hand
    # counts[e] is the hand's slice of Element e's codes (constants.element_code: value 1, 2, 3).
    counts = [hand[lo : lo + NUM_VALUES] for lo in _ELEMENT_FIRST_CODES]
    for e in banned:
        counts[e] = [0, 0, 0]
    for _, _, code in usable_support(state, payer, banned):
        if code < NUM_ELEMENT_CODES:
            e, i = CODE_COUNT_INDEX[code]
            counts[e][i] += 1
    return counts


def values_and_currency(
    state: GameState, payer: int, mods: Iterable[dict] | None = None
) -> tuple[list[list[int]], int]:
    """``available_values`` (no banned Element) and ``currency_cards`` in one pass over the
    support pool (the module menu's counts: ``menu.MenuView``). ``mods``: the payer's modifiers
    (``hooks.player_mods``) where the caller has read them in this state (the menu, once per
    query), so that "no_support_payment" is looked up in them rather than read again."""
    hand = state.players[payer].hand
    counts = [hand[0:3], hand[3:6], hand[6:9], hand[9:12]]  # _ELEMENT_FIRST_CODES' slices, written out
    currency = hand[CURRENCY]
    # usable_support's filters (no banned Element here) written out, without its list of
    # (seat, slot, code): the Element cards' codes and the currency cards of the support pool that
    # are not crushed (V-21), of players not eliminated; none with "no_support_payment".
    pooled: list[int] | None = None
    pooled_currency = 0
    for pl in state.players:
        if pl.eliminated or not pl.support:
            continue
        for slot in pl.support:
            if slot.crushed == NO_CARD:
                code = slot.card
                if code < NUM_ELEMENT_CODES:
                    if pooled is None:
                        pooled = [code]
                    else:
                        pooled.append(code)
                elif code == CURRENCY:
                    pooled_currency += 1
    if pooled is None and not pooled_currency:
        return counts, currency
    if _pool_barred(state, payer, mods):
        return counts, currency
    if pooled is not None:
        for code in pooled:
            e, i = CODE_COUNT_INDEX[code]
            counts[e][i] += 1
    return counts, currency + pooled_currency


def _pool_barred(state: GameState, payer: int, mods: Iterable[dict] | None) -> bool:
    """Whether "no_support_payment" (V-30) is among the payer's modifiers: read now, or looked
    up in ``mods`` (read by the caller in this state: ``state.has_mod``'s loop on them)."""
    if mods is None:
        return hooks.has_mod(state, payer, "no_support_payment")
    for m in mods:
        if m["kind"] == "no_support_payment":
            return True
    return False


def available_codes(state: GameState, payer: int, banned: frozenset[int] = frozenset()) -> list[int]:
    """Every card code the payer can pay with, one entry per card (for the exact search)."""
    hand = state.players[payer].hand
    out = [
        c
        for c in (*range(NUM_ELEMENT_CODES), CURRENCY)
        if CODE_ELEMENT[c] not in banned
        for _ in range(hand[c])
    ]
    out += [code for _, _, code in usable_support(state, payer, banned)]
    return out


# -- the solver -------------------------------------------------------------------------------


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


def can_cover(counts: list[list[int]], req: tuple) -> bool:
    """Whether Element cards with counts[element][value-1] cover an Element-only cost (exact, no
    card splitting): each Element part takes its least-waste cards, the rest pays ``any``."""
    need_any = req[COST_ANY]
    leftover = 0
    for e in range(NUM_ELEMENTS):
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


def spreads(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put n units on parts with these capacities, the first parts filled first."""
    if not caps:
        if n == 0:
            yield ()
        return
    for first in range(min(n, caps[0]), -1, -1):
        for rest in spreads(n - first, caps[1:]):
            yield (first, *rest)


def can_cover_pairs(counts: list[list[int]], req: tuple, pairs: int) -> bool:
    """``can_cover`` with ``pairs`` Spontaneous Elements besides (section 4.9: each one Element
    of value 1 of any type): exact, by trying each way to spread them over the parts still owed
    (a spread uses as many as the parts can take: one more never hurts)."""
    if can_cover(counts, req):
        return True
    if pairs <= 0:
        return False
    parts = [k for k in range(COST_PARTS) if req[k] > 0]
    if len(parts) == 1:
        # One part: every card that may pay it counts, whole (overpaying is allowed), plus a
        # Spontaneous Element per pair: the sum decides.
        k = parts[0]
        if k == COST_ANY:
            have = sum(c[0] + 2 * c[1] + 3 * c[2] for c in counts)
        else:
            c = counts[k]
            have = c[0] + 2 * c[1] + 3 * c[2]
        return have + pairs >= req[k]
    caps = [req[k] for k in parts]
    n = min(pairs, sum(caps))
    if n == sum(caps):
        return True
    for spread in spreads(n, caps):
        left = list(req[:COST_PARTS])
        for k, m in zip(parts, spread, strict=True):
            left[k] -= m
        if can_cover(counts, tuple(left)):
            return True
    return False


def can_cover_module(counts: list[list[int]], cost: Cost, pairs: int) -> bool:
    """Whether Element cards with counts[element][value-1] cover a cost of Element parts and
    ``any`` with its wildcards (``pairs`` Spontaneous Elements, section 4.9; ignored without
    ``cost.wildcards``) and its Air conversion (``cost.convert``: one Air card counts as any one
    other Element, its whole value, V-12). Exact (``payment_search.remaining`` agrees): without
    the conversion, ``can_cover_pairs``; with it, also each Air card value converted to pay each
    other Element part still owed (an Air card pays ``any`` without converting)."""
    if not cost.wildcards:
        pairs = 0
    if can_cover_pairs(counts, cost, pairs):
        return True
    if not cost.convert:
        return False
    air = counts[_AIR]
    for i in range(NUM_VALUES):
        if not air[i]:
            continue
        rest = [c if e != _AIR else [*c[:i], c[i] - 1, *c[i + 1 :]] for e, c in enumerate(counts)]
        owed: list[int] = list(cost[:COST_PARTS])
        for k in range(NUM_ELEMENTS):
            if k != _AIR and owed[k] > 0:
                left = owed.copy()
                left[k] = max(0, left[k] - (i + 1))
                if can_cover_pairs(rest, tuple(left), pairs):
                    return True
    return False


_AIR = 3  # constants.Element.AIR: the Element of the Air conversion (V-12)


def covers(codes: list[int], req: tuple) -> bool:
    """Whether these cards cover the cost."""
    if not elements_only(req) or (codes and max(codes) >= NUM_ELEMENT_CODES):
        return not any(remaining(tuple(codes), as_cost(req)))
    counts = [[0] * NUM_VALUES for _ in range(NUM_ELEMENTS)]
    for c in codes:
        e, i = CODE_COUNT_INDEX[c]
        counts[e][i] += 1
    return can_cover(counts, req)


def left_to_pay(codes: list[int] | tuple[int, ...], req: tuple) -> Cost:
    """What is still owed after paying with ``codes``: zero exactly when they cover the cost
    (``covers``), never by splitting a card between two parts."""
    cost = as_cost(req)
    left = remaining(tuple(codes), cost)
    return cost._replace(
        fire=left[0], water=left[1], earth=left[2], air=left[3], any=left[4],
        one_of=left[5], distinct=left[6], currency=left[7],
    )  # fmt: skip


_PART_NAMES = (*ELEMENT_NAMES, "any")  # a cost's first parts: 4 Elements, then "any" (section 4.0)


def left_text(codes: list[int] | tuple[int, ...], req: tuple) -> str:
    """What is still owed after paying with ``codes``, in words (``left_to_pay``): the Element
    parts as "2 earth, 1 any" (the base game's wording), then a module's parts: a one-of
    surcharge, "n card(s) of different Elements" (naming the Elements the picks already gave it,
    which cannot pay it again: section 4.6, V-17) and "n dark-matter"; "nothing" when covered.
    Where Spontaneous Elements may pay (section 4.9) and something is owed, it says so."""
    cost = as_cost(req)
    left = left_to_pay(codes, cost)
    parts = [f"{n} {name}" for n, name in zip(left[:COST_PARTS], _PART_NAMES, strict=True) if n]
    if left.one_of:
        parts.append(f"{left.one_of} of {'/'.join(ELEMENT_NAMES[e] for e in cost.one_of_set)}")
    if left.distinct:
        text = f"{left.distinct} card(s) of different Elements"
        if cost == Cost(distinct=cost.distinct):  # the picks all went to the distinct part
            used = sorted({CODE_ELEMENT[c] for c in codes if c < NUM_ELEMENT_CODES})
            if used:
                text += f", not {'/'.join(ELEMENT_NAMES[e] for e in used)}"
        parts.append(text)
    if left.currency:
        parts.append(f"{left.currency} {code_name(CURRENCY)}")
    if not parts:
        return "nothing"
    spontaneous = f" (or 2 {code_name(CURRENCY)} per Element: Spontaneous Elements)" if cost.wildcards else ""
    convert = " (1 air card may count as any Element: Air conversion)" if cost.convert else ""
    return ", ".join(parts) + spontaneous + convert


def affordable(
    state: GameState, payer: int, req: tuple, action: str = "", banned: frozenset[int] | None = None
) -> bool:
    """Whether the payer's cards (hand and usable support) cover the cost for this Action
    (``banned``: the Elements barred for it, section 4.10, when the caller knows them already).
    Closed forms where the cost's shape has one; the exact search of ``payment_search`` else."""
    cost = as_cost(req)
    if banned is None:
        banned = banned_elements(state, payer, action) if action else NO_BAN
    if cost.elements_only:
        return can_cover(available_values(state, payer, banned), cost)
    if cost.one_of or (cost.convert and (cost.distinct or cost.currency)):
        return not any(remaining(tuple(available_codes(state, payer, banned)), cost))
    if cost[0] or cost[1] or cost[2] or cost[3] or cost[COST_ANY]:
        if cost.distinct or cost.currency:
            return not any(remaining(tuple(available_codes(state, payer, banned)), cost))
        # Element parts, any, wildcards (section 4.9) and the Air conversion (V-12): closed forms.
        pairs = currency_cards(state, payer) // 2 if cost.wildcards else 0
        return can_cover_module(available_values(state, payer, banned), cost, pairs)
    # A cost in cards only: currency cards (a Dark Curse, section 4.7; a Black Spell, 4.8) and
    # cards of pairwise different Elements (Acquire Dark Matter, 4.6). Each part takes its own
    # cards (a currency card is no Element; an Element card pays 1 of the distinct part, whatever
    # its value), and wildcards pay only Element parts, any and the one-of surcharge (none here).
    if cost.currency and currency_cards(state, payer) < cost.currency:
        return False
    if cost.distinct:
        counts = available_values(state, payer, banned)
        return sum(1 for c in counts if c[0] or c[1] or c[2]) >= cost.distinct
    return True


def currency_cards(state: GameState, payer: int) -> int:
    """Currency cards the payer can pay with: the hand's and the usable support pool's (no
    Element ban reaches them: a currency card has no Element)."""
    # usable_support's filters for a currency card (not crushed, owner not eliminated, no
    # "no_support_payment" modifier), written out: the menu counts this on many queries.
    pooled = 0
    for pl in state.players:
        if pl.eliminated or not pl.support:
            continue
        for slot in pl.support:
            if slot.card == CURRENCY and slot.crushed == NO_CARD:
                pooled += 1
    if pooled and hooks.has_mod(state, payer, "no_support_payment"):
        pooled = 0
    return state.players[payer].hand[CURRENCY] + pooled


def irreducible(codes: list[int], req: tuple) -> bool:
    """A covering payment none of whose cards can be removed (A-18)."""
    for i in range(len(codes)):
        if covers(codes[:i] + codes[i + 1 :], req):
            return False
    return True


def source_code(state: GameState, src: Source) -> int:
    """The card code a payment source pays with."""
    if type(src) is HandSource:  # records are final: no subclass (a hot path)
        return src.code
    return state.players[src.seat].support[src.slot].card


_FLAGGED: dict[tuple[Cost, str], Cost] = {}  # the few costs of a game, each built once per flag


def with_flag(cost: Cost, flag: Literal["wildcards", "convert"]) -> Cost:
    """``cost`` with one of its flags (``wildcards``, ``convert``) set, built once per cost and
    flag: module cost transforms ask for the same few costs on every menu query."""
    out = _FLAGGED.get((cost, flag))
    if out is None:
        out = cost._replace(wildcards=True) if flag == "wildcards" else cost._replace(convert=True)
        if len(_FLAGGED) < 8192:
            _FLAGGED[(cost, flag)] = out
    return out
