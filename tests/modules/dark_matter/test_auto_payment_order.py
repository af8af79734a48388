"""Auto payment of costs in cards (docs/rules.md sections 4.6-4.8): a Dark Curse's Dark Matter cost
and Acquire Dark Matter's "2 cards of different Elements" are paid in the canonical order (drop
others' support first, then the payer's own, then the hand; high values first)."""

from __future__ import annotations

from builders import Scenario

from bbom_env.engine.model.constants import element_code
from bbom_env.engine.model.records import HandSource, SupportSlot, SupportSource
from bbom_env.engine.payment import auto as PA
from bbom_env.modules.dark_matter.actions import ACQUIRE_COST, dark_matter_cost
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER

DM = DARK_MATTER


def test_dark_matter_is_paid_from_hand_then_own_support_then_others(dm: None) -> None:
    """Section 4.7 with the canonical order: a Dark Curse's 4 Dark Matter from 1 in hand, 2 in the
    payer's support and 2 in another player's: the hand's card, then the payer's own support
    (the last ones), then the other player's last one."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "fire-1")
    s = sc.s
    dm_state(s).supply -= 5
    s.players[0].hand[DM] += 1
    s.players[0].support = [SupportSlot(DM), SupportSlot(element_code(1, 2)), SupportSlot(DM)]
    s.players[1].support = [SupportSlot(DM), SupportSlot(DM)]
    paid = PA.auto_payment(s, 0, dark_matter_cost(4), "destroy")
    assert paid == [HandSource(DM), SupportSource(0, 0), SupportSource(0, 2), SupportSource(1, 1)]


def test_acquire_dark_matter_keeps_one_card_of_each_of_two_elements(dm: None) -> None:
    """Section 4.6 (V-17) with the canonical order: 2 cards of different Elements, any values; the
    drops take high values first, so the value-1 cards of two Elements are paid."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "fire-1", "fire-3", "water-2", "water-1")
    paid = PA.auto_payment(sc.s, 0, ACQUIRE_COST, "acquire_dark_matter")
    assert paid == [HandSource(element_code(0, 1)), HandSource(element_code(1, 1))]


def test_acquire_dark_matter_from_support_pools_keeps_the_payers_own_cards(dm: None) -> None:
    """Section 4.6 with the canonical order from support pools: the drops take another player's
    support first (high values first), so of a fire-1 in the payer's support and a water-2 and an
    earth-1 in another's, the water-2 goes first: the fire-1 and the earth-1 pay."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "madness").hand(1, "madness")
    s = sc.s
    s.players[0].support = [SupportSlot(element_code(0, 1))]
    s.players[1].support = [SupportSlot(element_code(1, 2)), SupportSlot(element_code(2, 1))]
    paid = PA.auto_payment(s, 0, ACQUIRE_COST, "acquire_dark_matter")
    assert paid == [SupportSource(0, 0), SupportSource(1, 1)]
