"""Paying a cost (docs/rules.md section 4.0): one cost record and one solver for the legal moves, auto
payment, the pending decision's "left to pay" and the observation.

A ``Cost`` is Element parts (fire, water, earth, air), ``any`` Elements, and the module parts: a
one-of-a-set surcharge (``one_of`` Elements of the Elements in ``one_of_set``), ``distinct`` cards
of pairwise different Elements (any values), ``currency`` cards (the non-Element currency,
``constants.CURRENCY``), ``wildcards`` (two currency cards as one Element of value 1),
``convert`` (one Air card of the payment may count as any one Element, its whole value: the Vth
Element's Air conversion, V-12) and ``cards`` (Element cards of any Element(s), each paying 1
whatever its value: the Cure Action's cost with ``cure_cost_mode="cards"``, V-37). A card's
whole value goes to one part (a card is never split, [PROPOSED] 4.0). Its first five fields are
the base game's requirement vector (``constants.COST_PARTS``), so ``cost[e]`` and
``cost[COST_ANY]`` read as they always did.

Payment sources are the records ``HandSource(code)`` for a card of the payer's hand and
``SupportSource(seat, slot)`` for a card of the support pool (``records.py``).
``usable_support`` applies the source filters: an Element banned for the payer (a "forbid"
modifier with an Element: section 4.10), no support payment, and crushed support cards.

Whether cards pay a cost is the one solver's answer (``payment/solver.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from bbom_env.engine.model.constants import (
    CODE_COUNT_INDEX,
    CODE_ELEMENT,
    COST_PARTS,
    CURRENCY,
    ELEMENT_NAMES,
    MODULE_COST_PARTS,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_VALUES,
    code_name,
)
from bbom_env.engine.model.records import NO_CARD, HandSource, Source
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.solver import Funds, can_cover, can_pay, remaining, spreads  # noqa: F401  (auto payment)
from bbom_env.engine.payment.solver import min_sum_at_least as _min_sum_at_least  # noqa: F401  (agents read it here)

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
    cards: int = 0

    @property
    def elements_only(self) -> bool:
        """Only Element parts and ``any`` (the closed-form solver applies)."""
        return not (
            self.one_of or self.distinct or self.currency or self.wildcards or self.convert or self.cards
        )

    @property
    def is_free(self) -> bool:
        """Nothing to pay."""
        # The five Element parts written out (module cost transforms ask on every menu query).
        if self[0] or self[1] or self[2] or self[3] or self[4]:
            return False
        return not (self.one_of or self.distinct or self.currency or self.cards)

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
    fields = list(req)
    if len(fields) > 6:
        fields[6] = tuple(fields[6])
    return Cost(*fields)


def check_parts(state: GameState, req: tuple, action: str) -> None:
    """Refuse a payment whose cost uses a module part (``constants.MODULE_COST_PARTS``) that no
    module of the game declares (``rules.Module.cost_parts``)."""
    cost, declared = as_cost(req), state.rules.cost_parts
    missing = [p for p in MODULE_COST_PARTS if getattr(cost, p) != _DEFAULTS[p] and p not in declared]
    if missing:
        raise ValueError(
            f"the {action} Action's cost {tuple(req)} uses cost part(s) {missing}, which no module of "
            f"this game {list(state.config.modules)} declares (rules.Module.cost_parts)"
        )


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
_DEFAULTS = Cost._field_defaults


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


def pool_funds(state: GameState, p: int, no_pool: bool) -> Funds:
    """The hand's Element cards and currency cards, then the support pool's: cards of living
    players, not crushed (V-21); none with ``no_pool`` (a "no_support_payment" modifier, V-30)."""
    hand = state.players[p].hand
    counts = [hand[0:3], hand[3:6], hand[6:9], hand[9:12]]  # constants.element_code's order
    currency = hand[CURRENCY]
    if not no_pool:
        for q in state.players:
            if q.eliminated or not q.support:
                continue
            for slot in q.support:
                code = slot.card
                if slot.crushed == NO_CARD:
                    if code < NUM_ELEMENT_CODES:
                        counts[code // 3][code % 3] += 1
                    elif code == CURRENCY:
                        currency += 1
    return Funds(counts, currency)


def funds_of(state: GameState, payer: int, banned: frozenset[int] = NO_BAN) -> Funds:
    """The payer's funds for an Action whose banned Elements are ``banned`` (section 4.10)."""
    funds = pool_funds(state, payer, hooks.has_mod(state, payer, "no_support_payment"))
    return funds.without(banned) if banned else funds


# -- the solver -------------------------------------------------------------------------------


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
    f, w, e, a, n, one_of, distinct, currency, cards = remaining(tuple(codes), cost)
    return Cost(
        f, w, e, a, n, one_of, cost.one_of_set, distinct, currency, cost.wildcards, cost.convert, cards
    )


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
    if left.cards:
        parts.append(f"{left.cards} Element card(s), any values")
    if not parts:
        return "nothing"
    spontaneous = f" (or 2 {code_name(CURRENCY)} per Element: Spontaneous Elements)" if cost.wildcards else ""
    convert = " (1 air card may count as any Element: Air conversion)" if cost.convert else ""
    return ", ".join(parts) + spontaneous + convert


def affordable(
    state: GameState, payer: int, req: tuple, action: str = "", banned: frozenset[int] | None = None
) -> bool:
    """Whether the payer's cards (hand and usable support) cover the cost for this Action
    (``banned``: the Elements barred for it, section 4.10, when the caller knows them already):
    the one solver (``payment/solver.py``)."""
    if banned is None:
        banned = banned_elements(state, payer, action) if action else NO_BAN
    cost = req if len(req) == COST_PARTS else as_cost(req)
    return can_pay(funds_of(state, payer, banned), cost)


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
