"""The one payment model (docs/rules.md section 4.0, 4.10): the Cost record, the solver that serves the
legal moves, auto payment and the pending decision's "left to pay", the source filters, and the
two defects fixed with it. Test pack fixtures (reconstructed cards)."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from builders import Scenario, code, counts
from hypothesis import given, settings
from hypothesis import strategies as st

from bbom_env.engine.io.scenario import start_payment
from bbom_env.engine.model.constants import CURRENCY, MADNESS
from bbom_env.engine.model.records import HandSource, SupportSource, TempModifier
from bbom_env.engine.payment.auto import auto_payment
from bbom_env.engine.payment.cost import Cost, as_cost, covers, left_to_pay

ELEMENT_CARDS = list(range(12))


def test_cost_reads_as_the_base_requirement_vector_and_compacts_for_saves() -> None:
    c = Cost(fire=2, any=2)
    assert c[0] == 2 and c[4] == 2 and c.compact() == (2, 0, 0, 0, 2)
    assert as_cost((2, 0, 0, 0, 2)) == c and as_cost(c) is c
    module = Cost(fire=1, one_of=1, one_of_set=(0, 2))
    assert module.compact() == (1, 0, 0, 0, 0, 1, (0, 2))
    assert as_cost(list(module.compact())) == module  # a JSON list comes back as the same cost
    assert Cost().is_free and not Cost(currency=1).is_free and Cost(distinct=2).elements_only is False


# -- defect 1: "left to pay" never splits a card ------------------------------------------------


def test_left_to_pay_never_splits_a_card_and_agrees_with_confirm() -> None:
    """Cost 2 fire + 2 any, fire-3 and water-1 picked: the fire-3 pays the fire part whole (its
    third Element is wasted, not moved to "any"), so 1 Element is still owed and confirming is not
    legal; one more card makes both agree that the cost is covered."""
    sc = Scenario(payment="manual").hand(0, "fire-3", "water-1", "water-1").action_phase(0)
    start_payment(sc.s, 0, Cost(fire=2, any=2), "activate")
    sc.do("PAY_HAND(fire-3)", "PAY_HAND(water-1)")
    assert sc.pending().cost_left == (0, 0, 0, 0, 1)
    assert "PAY_CONFIRM" not in sc.legal_names() and "PAY_HAND(water-1)" in sc.legal_names()
    sc.do("PAY_HAND(water-1)")
    assert sc.pending().cost_left == (0, 0, 0, 0, 0) and "PAY_CONFIRM" in sc.legal_names()


@settings(max_examples=300, deadline=None)
@given(
    picks=st.lists(st.sampled_from(ELEMENT_CARDS), max_size=6),
    req=st.tuples(*[st.integers(0, 3)] * 4, st.integers(0, 4)),
)
def test_left_to_pay_is_zero_exactly_when_the_cards_cover_the_cost(picks: list[int], req: tuple) -> None:
    left = left_to_pay(picks, req)
    assert (not any(left[:5])) == covers(picks, req)
    assert all(0 <= left[i] <= req[i] for i in range(5))


# -- defect 2: auto payment spends the payer's hand before the support pool --------------------


def test_auto_payment_takes_the_hand_before_a_teammates_support() -> None:
    """Cure (2 Elements of any type): the payer holds two water-1, a teammate's support holds three
    fire-1. Same value, same waste: the hand pays (docs/rules_decisions.md: hand cards before the
    payer's own support, before other players' support). It used to take the teammate's fire-1,
    the Element with the most cards in hand and pool together."""
    sc = (
        Scenario(payment="auto")
        .hand(0, "madness", "water-1", "water-1")
        .support(1, "fire-1", "fire-1", "fire-1")
    )
    sc.action_phase(0).do("CURE_HAND(madness)")
    assert sc.p(1).support_cards() == [code("fire-1")] * 3
    assert sc.p(0).discard == counts("water-1", "water-1") and sc.p(0).hand[MADNESS] == 0
    sc.check()


def test_auto_payment_still_prefers_least_waste_over_the_hand() -> None:
    """The documented order puts least waste first: a cost of 2 fire with fire-3 in hand and a
    fire-2 in the payer's own support spends the fire-2."""
    sc = Scenario(payment="auto").hand(0, "fire-3").support(0, "fire-2").action_phase(0)
    assert auto_payment(sc.s, 0, Cost(fire=2)) == [SupportSource(seat=0, slot=0)]


# -- source filters and Element bans (section 4.10) --------------------------------------------


def _ban(sc: Scenario, seat: int, element: str, action: str = "all") -> None:
    sc.p(seat).mods.append(
        TempModifier({"kind": "forbid", "action": action, "element": element}, "this_turn", "test")
    )


def test_an_element_ban_does_not_block_cure_but_filters_its_payment() -> None:
    """A ban on fire ("no Action using fire") used to forbid Cure, which has no Element of its own.
    Now Cure is offered when it can be paid without fire, and fire cards never pay for it."""
    sc = Scenario(payment="manual").hand(0, "madness", "fire-1", "water-1", "earth-1").action_phase(0)
    _ban(sc, 0, "fire")
    assert "CURE_HAND(madness)" in sc.legal_names()
    sc.do("CURE_HAND(madness)")
    legal = sc.legal_names()
    assert "PAY_HAND(fire-1)" not in legal and {"PAY_HAND(water-1)", "PAY_HAND(earth-1)"} <= set(legal)


def test_an_element_ban_blocks_cure_when_only_that_element_could_pay() -> None:
    sc = Scenario(payment="auto").hand(0, "madness", "fire-1", "fire-1", "water-1").action_phase(0)
    _ban(sc, 0, "fire")
    assert "CURE_HAND(madness)" not in sc.legal_names()
    sc.p(0).mods.clear()
    sc.action_phase(0)
    assert "CURE_HAND(madness)" in sc.legal_names()


def test_an_element_ban_forbids_the_actions_of_that_element() -> None:
    sc = Scenario(payment="auto").hand(0, *("fire-1",) * 3, *("water-1",) * 3).action_phase(0)
    _ban(sc, 0, "fire")
    legal = sc.legal_names()
    assert "ACQUIRE(fire-2)" not in legal and "ACQUIRE(water-2)" in legal


def test_auto_payment_skips_banned_cards() -> None:
    sc = Scenario(payment="auto").hand(0, "fire-1", "fire-1", "water-1", "water-1").action_phase(0)
    _ban(sc, 0, "fire", "cure")
    assert set(auto_payment(sc.s, 0, Cost(any=2), "cure")) == {HandSource(code("water-1"))}
    assert HandSource(code("fire-1")) in auto_payment(sc.s, 0, Cost(any=2), "acquire")  # other Action


# -- module cost parts, through the exact search -----------------------------------------------


def test_one_of_a_set_surcharge() -> None:
    cost = Cost(earth=1, one_of=1, one_of_set=(1, 2))  # 1 earth + 1 of water or earth
    assert covers([code("earth-1"), code("water-1")], cost)
    assert covers([code("earth-1"), code("earth-1")], cost)
    assert not covers([code("earth-1"), code("fire-1")], cost)
    assert left_to_pay([code("earth-1"), code("fire-3")], cost).one_of == 1


def test_distinct_cards_count_cards_not_values() -> None:
    cost = Cost(distinct=2)  # 2 Element cards of different Elements (any values)
    assert covers([code("fire-1"), code("air-1")], cost)
    assert not covers([code("fire-3"), code("fire-1")], cost)
    assert not covers([code("fire-3")], cost)
    assert not covers([code("fire-1"), CURRENCY], cost)  # the currency is not an Element


def test_currency_and_wildcards() -> None:
    assert covers([CURRENCY] * 4, Cost(currency=4)) and not covers([code("fire-3")] * 2, Cost(currency=1))
    # Two currency cards make one Element of value 1 of any type, only where wildcards are allowed.
    cost = Cost(earth=4, wildcards=True)
    assert covers([code("earth-1")] * 3 + [CURRENCY] * 2, cost)
    assert not covers([code("earth-1")] * 3 + [CURRENCY], cost)
    assert not covers([code("earth-1")] * 3 + [CURRENCY] * 2, Cost(earth=4))


@pytest.mark.parametrize("n", [2, 3])
def test_search_agrees_with_the_closed_form_on_element_costs(n: int) -> None:
    """The exact search (module costs) and the closed form (base costs) give the same verdict on
    every hand of n cards and a grid of Element costs."""
    from bbom_env.engine.payment.solver import remaining

    for hand in combinations_with_replacement(ELEMENT_CARDS, n):
        for req in [(2, 0, 0, 0, 0), (1, 1, 0, 0, 1), (0, 0, 3, 0, 2), (2, 0, 0, 0, 2), (0, 0, 0, 0, 4)]:
            assert (not any(remaining(hand, Cost(*req)))) == covers(list(hand), req), (hand, req)
