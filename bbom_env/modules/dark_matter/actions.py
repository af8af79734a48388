"""The Dark Matter module's Actions and costs (docs/rules.md sections 4.6-4.9).

**Acquire a Dark Matter card** (section 4.6, V-17): pay 2 Element cards of different
Elements, whatever their values (``payment.Cost(distinct=2)``: the engine's one solver, auto and
manual payment alike); Dark Matter never pays for it (the cost has no currency part, so the
payment frame never offers a Dark Matter card); the paid cards go to the discard pile as for
any payment; the Dark Matter card comes from the module's supply into the player's hand (the
rulebook: "placed directly in your hand"). With an empty supply the Action is not offered. Cost
modifiers do not apply: the cost is counted in cards (V-17; the Acquire surcharge, A-51).

Payment helpers (the engine's ``payment.Cost`` and its one solver): ``dark_matter_cost`` (Dark
Curses, the Black Book: ``dark_curses.py``, ``black_book.py``) and ``with_spontaneous`` /
``spontaneous_cost`` (section 4.9, V-06: the module's cost transform for the base Actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import (
    BlockSpec,
    Cost,
    CostTransform,
    MenuAction,
    Move,
    as_cost,
    block_start,
    done,
    frame,
    pay_frame,
    push,
    transform_cost,
)
from bbom_env.engine.model.frames import Frame, Seat
from bbom_env.engine.model.move_args import NO_ARG
from bbom_env.engine.model.records import SupportSlot

from .state import DARK_MATTER, NAME, dm_state

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, SeatView

ACQUIRE = "acquire_dark_matter"  # the Action's name: payment frames and "forbid" modifiers read it
ACQUIRE_BLOCK = "ACQUIRE_DARK_MATTER"
# Section 4.6, V-17: 2 Element cards of pairwise different Elements, any values.
ACQUIRE_COST = Cost(distinct=2)


def dark_matter_cost(n: int) -> Cost:
    """A cost only Dark Matter cards pay (V-06): a Dark Curse's 4 (section 4.7), a Black Spell's
    (4.8). Element cards never pay it, nor Spontaneous Elements (no wildcards)."""
    cost = _DARK_MATTER_COSTS.get(n)
    if cost is None:
        cost = _DARK_MATTER_COSTS[n] = Cost(currency=n)  # a few sizes: each built once (the menu asks)
    return cost


_DARK_MATTER_COSTS: dict[int, Cost] = {}


def with_spontaneous(cost: Cost) -> Cost:
    """The cost of an Action with Spontaneous Elements allowed (section 4.9, V-06): 2 Dark Matter
    cards pay as 1 Element of value 1 of any type. Never for Dark Matter costs (a currency part)
    nor for Acquire Dark Matter (its ``distinct`` part: "Dark Matter cannot be used", 4.6)."""
    if cost.currency or cost.distinct:
        return cost
    return cost._replace(wildcards=True)


# The Actions paid in Elements (sections 4.1-4.5), granted ones included (V-06): Spontaneous
# Elements may pay their costs. Not Acquire Dark Matter, Dark Curses, the Black Book (their costs
# have a distinct or currency part) nor ability costs (V-06): those are other payment names.
SPONTANEOUS_ACTIONS = frozenset(("activate", "learn", "acquire", "destroy", "cure"))


def spontaneous_cost(state: GameState, p: int, action: str, req: tuple, banned: frozenset[int]) -> tuple:
    """The module's cost transform (``SPONTANEOUS``): ``with_spontaneous`` on the cost of an
    Action paid in Elements (section 4.9, A-64, V-06), for a payer who may make a pair
    (``may_pair``). An Element the payer may not pay with for this Action (``banned``: the Phobia
    module's ban, section 4.10) may not be a Spontaneous Element either: when the cost needs that
    Element it stays unpayable, so it gets no wildcards."""
    if action not in SPONTANEOUS_ACTIONS:
        return req
    cost = as_cost(req)
    if cost.currency or cost.distinct or cost.wildcards or cost.is_free:
        return req
    if banned and (any(cost[e] for e in banned) or (cost.one_of and set(cost.one_of_set) <= banned)):
        return req
    paired = _PAIRED.get(cost)
    if paired is None:
        paired = _PAIRED[cost] = cost._replace(wildcards=True)
    return paired


_PAIRED: dict[Cost, Cost] = {}  # a cost -> the same with Spontaneous Elements (a few per game)


def may_pair(state: GameState, p: int) -> bool:
    """Whether ``spontaneous_cost`` applies: a payer who cannot make a pair (fewer than 2 Dark
    Matter cards in hand and support pools) pays exactly as without the option (section 4.9), and
    the cost stays as printed."""
    held = state.players[p].hand[DARK_MATTER]
    if held >= 2:
        return True
    for pl in state.players:  # a loop, not a generator: the menu asks on every query
        if pl.support:
            # The slots holding Dark Matter, counted in C: such a slot crushes nothing (only a
            # Phobia crushes the card under it, V-21), so it equals _DARK_MATTER_SLOT.
            held += pl.support.count(_DARK_MATTER_SLOT)
            if held >= 2:
                return True
    return False


_DARK_MATTER_SLOT = SupportSlot(DARK_MATTER)


def legal_acquire(state: GameState, view: SeatView) -> list[int]:
    """The Action's one id while the supply has a card, the Action is not forbidden and the
    decider can pay 2 cards of different Elements (after the cost transforms, which only add ways
    to pay: the Air conversion, V-12; not the "cost" modifiers: V-17, counted in cards, A-51)."""
    if state.ext[NAME].supply <= 0 or view.forbidden(ACQUIRE, None):  # type: ignore[attr-defined]  # dm_state
        return []
    if not view.payable(ACQUIRE, transform_cost(state, view.p, ACQUIRE, ACQUIRE_COST)):
        return []
    return [block_start(ACQUIRE_BLOCK, state.config.modules)]


class AcquireDarkMatterFrame(Frame):
    """``player`` has paid: take 1 Dark Matter card from the supply into their hand."""

    player: Seat


def choose_acquire(state: GameState, f: dict, mv: Move) -> None:
    p = f["player"]
    target: AcquireDarkMatterFrame = {"kind": "dm_acquire", "player": p}
    push(state, pay_frame(p, transform_cost(state, p, ACQUIRE, ACQUIRE_COST), ACQUIRE, ""), target)


def run_acquire(state: GameState, f: AcquireDarkMatterFrame) -> None:
    done(state, f)
    st = dm_state(state)
    if st.supply <= 0:  # cannot happen: the Action is offered only with a card in the supply
        raise AssertionError("acquire_dark_matter: the Dark Matter supply is empty")
    st.supply -= 1
    state.players[f["player"]].hand[DARK_MATTER] += 1
    state.stat("dark_matter_acquired")
    state.event("acquire_dark_matter", f["player"])


frame("dm_acquire", run_acquire, typed=AcquireDarkMatterFrame)

BLOCKS: tuple[BlockSpec, ...] = (BlockSpec(ACQUIRE_BLOCK, NO_ARG, "acquire a Dark Matter card (4.6)"),)
ACTIONS: tuple[MenuAction, ...] = (MenuAction(ACQUIRE, (ACQUIRE_BLOCK,), legal_acquire, choose_acquire),)
FRAMES: tuple[str, ...] = ("dm_acquire",)
PAY_ACTIONS: tuple[str, ...] = (ACQUIRE,)

# Spontaneous Elements (section 4.9, V-06): the module's cost transform for the base Actions.
SPONTANEOUS = CostTransform(may_pair, spontaneous_cost)
