"""Paying for Actions (docs/rules.md section 4.0 and the payment sub-decisions of 10.4), in both payment
modes: "auto" (the engine picks a least-waste payment) and "manual" (each card is a decision, then
confirm or cancel). Test pack fixtures (reconstructed cards)."""

from __future__ import annotations

import pytest
from builders import Scenario, code, counts

from bbom_env.engine import IllegalActionError
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import TempModifier


def _values_paid(sc: Scenario) -> int:
    pays = sc.events("pay")
    return sum(c % 3 + 1 for c in pays[-1][3])


@pytest.mark.parametrize("mode", ["auto", "manual"])
def test_support_pool_card_pays_and_goes_to_its_owners_discard(mode: str) -> None:
    """4.0, A-17: any player's support card may pay, without consent; a payment may be support
    cards only; a used support card goes to its owner's discard pile."""
    sc = Scenario(payment=mode).support(1, "air-1", "fire-2").action_phase(0)
    assert "ACQUIRE(fire-2)" in sc.legal_names()
    sc.do("ACQUIRE(fire-2)")
    if mode == "manual":
        assert "PAY_SUPPORT(seat+1 slot1)" in sc.legal_names()
        assert "PAY_SUPPORT(seat+1 slot0)" not in sc.legal_names()  # air pays nothing here
        sc.do("PAY_SUPPORT(seat+1 slot1)", "PAY_CONFIRM")
    assert sc.p(1).support_cards() == [code("air-1")]
    assert sc.p(1).discard == counts("fire-2")
    assert sc.p(0).discard == counts("fire-2")  # the acquired card
    sc.check()


@pytest.mark.parametrize("mode", ["auto", "manual"])
def test_waste_is_allowed(mode: str) -> None:
    """4.0: paying 2 with a value-3 card is legal; the extra Element is lost."""
    sc = Scenario(payment=mode).hand(0, "water-3").action_phase(0)
    sc.do("ACQUIRE(water-2)")
    if mode == "manual":
        sc.do("PAY_HAND(water-3)", "PAY_CONFIRM")
    assert sc.p(0).discard == counts("water-3", "water-2") and sum(sc.p(0).hand) == 0


def test_madness_never_pays() -> None:
    """4.0: Madness cards (hand or support) never pay, not even for a Cure."""
    sc = Scenario(payment="manual").hand(0, "madness", "madness", "fire-1").support(0, "madness")
    sc.action_phase(0)
    assert not [n for n in sc.legal_names() if n.startswith("CURE")]  # 1 Element is not enough
    sc.hand(0, "madness", "fire-1", "water-1").action_phase(0)
    sc.do("CURE_HAND(madness)")
    legal = sc.legal_names()
    assert "PAY_HAND(madness)" not in legal and not [n for n in legal if n.startswith("PAY_SUPPORT")]
    assert {"PAY_HAND(fire-1)", "PAY_HAND(water-1)"} <= set(legal)


def test_manual_payment_picks_then_confirm_only_when_covered() -> None:
    """10.4 DP-P1, DP-P6: cards are picked one at a time; the remaining cost is shown; confirm is
    offered only once the picks cover the cost."""
    sc = Scenario(payment="manual").hand(0, *("earth-1",) * 4).deck(0, "air-1", "air-1").action_phase(0)
    sc.do("ACTIVATE(spell#2 X=2)")
    d = sc.pending()
    assert (d.kind, d.player, d.cost_left, d.picks) == ("payment", 0, (0, 0, 2, 0, 0), ())
    assert "PAY_CONFIRM" not in sc.legal_names()
    sc.do("PAY_HAND(earth-1)")
    assert sc.pending().cost_left == (0, 0, 1, 0, 0) and "PAY_CONFIRM" not in sc.legal_names()
    sc.do("PAY_HAND(earth-1)")
    assert sc.legal_names() == ["PAY_CONFIRM", "PAY_CANCEL"]  # nothing superfluous
    assert sum(sc.p(0).hand) == 4  # nothing is spent before the confirmation
    sc.do("PAY_CONFIRM")
    assert sc.p(0).hand == counts("earth-1", "earth-1", "air-1", "air-1")


def test_manual_cancel_loses_nothing() -> None:
    """10.4 DP-P6: cancelling returns to the Action menu with every card where it was."""
    sc = Scenario(payment="manual").hand(0, "fire-1", "fire-1").support(1, "fire-1").action_phase(0)
    before = sc.clone()
    sc.do("ACQUIRE(fire-3)", "PAY_HAND(fire-1)", "PAY_SUPPORT(seat+1 slot0)", "PAY_CANCEL")
    assert sc.pending().kind == "action"
    for a, b in zip(sc.s.players, before.players, strict=True):
        assert (a.hand, a.discard, a.support, a.deck) == (b.hand, b.discard, b.support, b.deck)
    assert sc.s.supply == before.supply
    assert sc.s.legal_actions() == before.legal_actions()


def test_manual_cancel_of_a_granted_action_keeps_it() -> None:
    """4.12, DP-P6: cancelling the payment of a granted Action gives the Action back (engine fix:
    it used to be used up)."""
    sc = Scenario(magicians=("test_mag_earth", "test_mag_fire"), payment="manual")
    sc.hand(0, *("air-1",) * 4).hand(1, "fire-1", "fire-1", "water-1").action_phase(0)
    sc.do("ACTIVATE(spell#3 X=2)", "PAY_HAND(air-1)", "PAY_HAND(air-1)", "PAY_CONFIRM")
    assert sc.pending().remaining == 2
    sc.do("ACQUIRE(fire-2)", "PAY_CANCEL")
    assert (sc.pending().kind, sc.pending().remaining) == ("granted_action", 2)
    sc.do("ACQUIRE(fire-2)", "PAY_HAND(fire-1)", "PAY_HAND(fire-1)", "PAY_CONFIRM")
    assert sc.pending().remaining == 1


@pytest.mark.parametrize("irreducible", [True, False])
def test_irreducible_payments_a18(irreducible: bool) -> None:
    """A-18: with irreducible payments a pick that would make a card superfluous is not offered
    (fire-2 then fire-3 for a cost of 3: the fire-2 is unneeded); without, it is (waste)."""
    sc = Scenario(payment="manual", irreducible_payments=irreducible).hand(0, "fire-2", "fire-2", "fire-3")
    sc.action_phase(0).do("ACQUIRE(fire-3)", "PAY_HAND(fire-2)")
    assert ("PAY_HAND(fire-3)" in sc.legal_names()) is (not irreducible)
    if irreducible:
        sc.do("PAY_HAND(fire-2)", "PAY_CONFIRM")
        assert sc.p(0).hand == counts("fire-3")
    else:
        sc.do("PAY_HAND(fire-3)", "PAY_CONFIRM")
        assert sc.p(0).hand == counts("fire-2")


def test_one_card_pays_for_one_action_only() -> None:
    """4.0 [FAQ]: each Action is paid independently; excess Elements are lost, not carried over."""
    sc = Scenario(payment="manual").hand(0, "earth-3").action_phase(0)
    sc.do("ACQUIRE(earth-2)", "PAY_HAND(earth-3)", "PAY_CONFIRM")
    assert not [n for n in sc.legal_names() if n.startswith(("ACQUIRE", "ACTIVATE", "LEARN"))]


def test_pay_move_outside_the_payment_is_illegal() -> None:
    """10.4: during a payment only payment moves are legal; others raise and change nothing."""
    sc = Scenario(payment="manual").hand(0, "fire-1", "fire-1", "water-1").action_phase(0)
    sc.do("ACQUIRE(fire-2)")
    before = sc.clone()
    for bad in ("END", "ACQUIRE(fire-2)", "PAY_HAND(water-1)", "PAY_CONFIRM", "PAY_HAND(air-1)"):
        with pytest.raises(IllegalActionError, match="payment by player 0"):
            sc.do(bad)
        assert sc.s == before


def test_auto_payment_least_waste_low_values_first() -> None:
    """Design decision 6: auto mode pays with the least waste; ties spend low values first and
    hand cards before support cards."""
    sc = Scenario().hand(0, "fire-3", "fire-1", "fire-1").action_phase(0)
    sc.do("ACQUIRE(fire-2)")
    assert _values_paid(sc) == 2 and sc.p(0).hand == counts("fire-3")
    sc = Scenario().hand(0, "fire-2", "fire-1", "fire-3").action_phase(0)
    sc.do("ACQUIRE(fire-3)")
    assert _values_paid(sc) == 3 and sc.p(0).hand == counts("fire-3")
    sc = Scenario().hand(0, "fire-1").support(0, "fire-1").support(1, "fire-1").action_phase(0)
    sc.do("ACQUIRE(fire-2)")
    assert sc.p(1).support_cards() == [code("fire-1")] and sc.p(0).support_cards() == []


def test_auto_payment_any_element_cost_and_multi_curse() -> None:
    """4.4, 4.5, A-11: auto mode covers "any" costs (Cure) and one-of-each costs (Multi Curse)
    exactly, without waste when possible."""
    sc = Scenario().hand(0, "madness", "air-3", "water-1", "earth-1").action_phase(0)
    sc.do("CURE_HAND(madness)")
    assert _values_paid(sc) == 2 and sc.p(0).hand == counts("air-3")
    sc = Scenario().curse(0, "test_curse_multi_b").hand(0, "fire-1", "water-2", "earth-1", "air-1", "air-1")
    sc.action_phase(0).do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert sc.p(0).hand == counts("air-1")


def test_manual_payment_with_mixed_elements_for_a_cure() -> None:
    """A-11: the Cure's 2 Elements may be of two different Elements."""
    sc = Scenario(payment="manual").hand(0, "madness", "fire-1", "air-1").action_phase(0)
    sc.do("CURE_HAND(madness)", "PAY_HAND(fire-1)")
    assert sc.pending().cost_left == (0, 0, 0, 0, 1)
    sc.do("PAY_HAND(air-1)", "PAY_CONFIRM")
    assert sc.p(0).hand == counts() and sc.p(0).discard == counts("fire-1", "air-1")
    assert sc.p(0).discard[MADNESS] == 0


def test_no_dead_end_picks_with_irreducible_payments() -> None:
    """A-18 / DP-P6: a pick is offered only if an irreducible payment can still include it. For a
    cost of 3 Fire with fire-1 and fire-3 in hand, fire-1 + fire-3 is reducible, so only fire-3
    is offered; add a fire-2 and fire-1 becomes a valid first pick (fire-1 + fire-2)."""
    sc = Scenario(payment="manual", skip_forced_decisions=False).hand(0, "fire-1", "fire-3").action_phase(0)
    sc.do("ACQUIRE(fire-3)")
    assert sc.legal_names() == ["PAY_HAND(fire-3)", "PAY_CANCEL"]
    sc = Scenario(payment="manual", skip_forced_decisions=False)
    sc.hand(0, "fire-1", "fire-2", "fire-3").action_phase(0)
    sc.do("ACQUIRE(fire-3)")
    # fire-1 + fire-2 (exact) and fire-3 alone are irreducible; fire-1 is a valid first pick.
    assert sc.legal_names() == ["PAY_HAND(fire-1)", "PAY_HAND(fire-2)", "PAY_HAND(fire-3)", "PAY_CANCEL"]
    sc.do("PAY_HAND(fire-1)")
    assert sc.legal_names() == ["PAY_HAND(fire-2)", "PAY_CANCEL"]
    sc.do("PAY_CANCEL")
    assert sc.p(0).hand == counts("fire-1", "fire-2", "fire-3") and sc.pending().kind == "action"


def test_paid_cards_are_in_the_discard_before_the_effect_resolves() -> None:
    """4.0 Timing: pay first, then resolve: a reshuffle during the effect includes the cards just
    paid (Test Growth drawing from an empty deck)."""
    sc = Scenario().hand(0, "earth-1").action_phase(0)
    sc.do("ACTIVATE(spell#2 X=1)")
    assert sc.events("reshuffle") == [(0, 2)]  # the paid earth-1 + the reshuffle Madness
    assert sum(sc.p(0).hand) + len(sc.p(0).deck) == 2 and sum(sc.p(0).discard) == 0


def test_no_support_payment_modifier_hides_the_support_pool() -> None:
    """4.10 hooks: a "no support payment" modifier (Test Wisp's arrival) leaves hand cards only."""
    sc = Scenario().support(1, "fire-1", "fire-1").action_phase(0)
    assert "ACQUIRE(fire-2)" in sc.legal_names()
    sc.p(0).mods.append(TempModifier({"kind": "no_support_payment"}, "this_turn", "x"))
    sc.action_phase(0)
    assert "ACQUIRE(fire-2)" not in sc.legal_names()
