"""Acquire a Dark Matter card (docs/rules.md section 4.6; V-17): 2 Element cards of
different Elements, whatever their values; never paid with Dark Matter; the paid cards go to the
discard pile, the Dark Matter card from the supply into the hand; a move block after the base's."""

from __future__ import annotations

import pytest
from builders import Scenario, code

from bbom_env.engine import GameConfig
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import IllegalActionError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.records import SupportSlot
from bbom_env.modules.dark_matter.actions import ACQUIRE_BLOCK
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER
from bbom_env.rl.layout import ActionLayout

ACQ = "ACQUIRE_DARK_MATTER"


def scenario(*hand: str, payment: str = "manual", dm: int = 0) -> Scenario:
    """P0 to act with this hand (plus ``dm`` Dark Matter cards taken from the supply)."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,), payment=payment).hand(0, *hand)
    dm_state(sc.s).supply -= dm
    sc.p(0).hand[DARK_MATTER] += dm
    return sc.action_phase(0)


def test_the_block_comes_after_the_base_blocks_and_fits_every_player_count(dm: None) -> None:
    block = M.layout((NAME,)).by_name[ACQUIRE_BLOCK]
    assert (block.start, block.size, block.module) == (M.NUM_BASE_MOVES, 1, NAME)
    assert M.layout((NAME,)).table()[: len(M.layout().table())] == M.layout().table()  # base ids never move
    sizes = {
        n: ActionLayout(GameConfig(num_players=n, modules=(NAME,), pack_overrides=(PACK,))).n
        for n in range(2, 6)
    }
    assert set(sizes.values()) == {M.layout((NAME,)).size}  # the module's blocks, one size for all


@pytest.mark.parametrize("payment", ["manual", "auto"])
def test_two_cards_of_different_elements_whatever_their_values(dm: None, payment: str) -> None:
    """V-17: counted in cards; a value-3 card pays as one card (its extra value is wasted)."""
    sc = scenario("fire-3", "water-3", payment=payment)
    sc.do(ACQ)
    if payment == "manual":
        sc.do("PAY_HAND(fire-3)", "PAY_HAND(water-3)", "PAY_CONFIRM")
    pl = sc.p(0)
    assert pl.hand[DARK_MATTER] == 1 and sum(pl.hand) == 1  # into the hand (the rulebook)
    assert pl.discard[code("fire-3")] == pl.discard[code("water-3")] == 1  # the paid cards
    assert dm_state(sc.s).supply == 27 and sc.s.stats["dark_matter_acquired"] == 1
    sc.check()


def test_cards_of_one_element_do_not_pay(dm: None) -> None:
    sc = scenario("fire-1", "fire-2", "fire-3")
    assert ACQ not in sc.legal_names()
    with pytest.raises(IllegalActionError):
        sc.do(ACQ)


def test_dark_matter_never_pays_for_dark_matter(dm: None) -> None:
    """Section 4.6: "You cannot discard Dark Matter cards in order to acquire others" (nor as a
    Spontaneous Element, 4.9): with 1 Element card and 4 Dark Matter the Action is not offered,
    and the payment never offers a Dark Matter card."""
    assert ACQ not in scenario("fire-1", dm=4).legal_names()
    sc = scenario("fire-1", "water-1", dm=2)
    sc.do(ACQ)
    assert sc.legal_names() == ["PAY_HAND(fire-1)", "PAY_HAND(water-1)", "PAY_CANCEL"]
    sc.do("PAY_HAND(fire-1)")
    assert sc.legal_names() == ["PAY_HAND(water-1)", "PAY_CANCEL"]
    sc.do("PAY_HAND(water-1)", "PAY_CONFIRM")
    assert sc.p(0).hand[DARK_MATTER] == 3
    auto = scenario("fire-1", "water-1", payment="auto", dm=2)
    auto.do(ACQ)
    assert auto.p(0).hand[DARK_MATTER] == 3 and auto.p(0).discard[DARK_MATTER] == 0
    auto.check()


def test_irreducible_manual_payment_offers_only_a_different_element(dm: None) -> None:
    """A-18 with V-17's cost: after a Fire card, only a card of another Element completes it."""
    sc = scenario("fire-1", "fire-2", "air-1")
    sc.do(ACQ, "PAY_HAND(fire-1)")
    assert sc.legal_names() == ["PAY_HAND(air-1)", "PAY_CANCEL"]


def test_the_support_pool_pays_too(dm: None) -> None:
    """Section 4.6 [PROPOSED]: support-pool Element cards pay as for any payment (4.0)."""
    sc = scenario("fire-1")
    assert ACQ not in sc.legal_names()
    sc.support(1, "earth-2")
    sc.do(ACQ, "PAY_HAND(fire-1)")
    pay_support = [n for n in sc.legal_names() if n.startswith("PAY_SUPPORT")]
    assert len(pay_support) == 1
    sc.do(pay_support[0], "PAY_CONFIRM")
    assert sc.p(1).support == [] and sc.p(1).discard[code("earth-2")] == 1
    assert sc.p(0).hand[DARK_MATTER] == 1


def test_an_empty_supply_offers_no_acquisition(dm: None) -> None:
    sc = scenario("fire-1", "water-1")
    st = dm_state(sc.s)
    sc.p(1).discard[DARK_MATTER] += st.supply
    st.supply = 0
    sc.s.legal_cache = None
    assert ACQ not in sc.legal_names()
    check_invariants(sc.s)


def test_cancel_returns_to_the_menu_and_spends_nothing(dm: None) -> None:
    sc = scenario("fire-1", "water-1")
    sc.do(ACQ, "PAY_HAND(fire-1)", "PAY_CANCEL")
    assert ACQ in sc.legal_names() and dm_state(sc.s).supply == 28 and sum(sc.p(0).hand) == 2


def test_dark_matter_in_a_support_slot_counts(dm: None) -> None:
    """Conservation counts every zone, support slots included (section 1.2: 28 cards)."""
    sc = scenario("fire-1", "water-1")
    dm_state(sc.s).supply -= 1
    sc.p(0).support.append(SupportSlot(DARK_MATTER))
    check_invariants(sc.s)
    dm_state(sc.s).supply -= 1
    with pytest.raises(AssertionError, match="27 Dark Matter cards in play"):
        check_invariants(sc.s)


def test_a_save_during_its_payment_loads(dm: None) -> None:
    """A module cost is saved in its compact form, longer than the base game's five numbers
    (Cost(distinct=2): 8 parts); the save check reads each part by Cost's field types."""
    import json

    from bbom_env.engine import SaveError, from_json

    sc = scenario("fire-3", "water-1")
    sc.do(ACQ, "PAY_HAND(fire-3)")
    text = sc.s.to_json()
    pay = json.loads(text)["stack"][-1]
    assert pay["kind"] == "pay" and len(pay["cost"]) == 8
    back = from_json(text)
    assert back == sc.s and back.legal_actions() == sc.s.legal_actions()
    for bad, why in (
        ([0, 0, 0, 0, 0, 0, [], 2, 0, False, False, 0, 0], "5 to 12 parts"),
        ([0, 0, 0, 0, 0, 0, [7], 2], r"stack\[\d+\]\.cost\[6\]\[0\]: 7 is out of range"),
        ([0, 0, 0, 0, 0, 0, [], -2], r"stack\[\d+\]\.cost\[7\]: a count cannot be negative"),
        ([0, 0, 0, 0, 0, 0, [], 2, 0, 1], r"stack\[\d+\]\.cost\[9\]: expected true or false"),
    ):
        data = json.loads(text)
        data["stack"][-1]["cost"] = bad
        with pytest.raises(SaveError, match=why):
            from_json(json.dumps(data))
