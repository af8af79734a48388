"""Spontaneous Elements in every Element payment of a game with the Dark Matter module (docs/rules.md
section 4.9, A-64, V-06): 2 Dark Matter cards pay as 1 Element of value 1 of any
type, in Activate, Learn, Acquire Element, Destroy a Curse and Cure, granted Actions included;
never for Dark Matter costs, Acquire Dark Matter nor ability costs. Auto payment: Element cards
first, then the fewest Dark Matter pairs; manual payment: each Dark Matter card a pick, a pair one
unit of an irreducible payment (A-18). Also: what is left to pay, and saves with Dark Matter."""

from __future__ import annotations

import random

import pytest
from builders import Scenario, code

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.actions.base import CURE_REQ
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.core.state import SaveError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.auto import auto_payment
from bbom_env.engine.payment.cost import Cost, as_cost, covers, irreducible, left_text
from bbom_env.modules.dark_matter.actions import (
    ACQUIRE,
    ACQUIRE_COST,
    SPONTANEOUS_ACTIONS,
    dark_matter_cost,
    spontaneous_cost,
)
from bbom_env.modules.dark_matter.black_book import BLACK_BOOK
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER

DM = DARK_MATTER
FIRE1, FIRE2, WATER1, EARTH1, EARTH3 = (
    code(n) for n in ("fire-1", "fire-2", "water-1", "earth-1", "earth-3")
)


def scenario(*hand: str, dm: int = 0, payment: str = "manual", **config: object) -> Scenario:
    """Player 0 to act with this hand plus ``dm`` Dark Matter cards from the supply."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,), payment=payment, **config).hand(0, *hand)
    dm_state(sc.s).supply -= dm
    sc.p(0).hand[DM] += dm
    return sc.action_phase(0)


def paid(sc: Scenario) -> list[int]:
    """The card codes of the last payment (the "pay" event)."""
    return sorted(sc.events("pay")[-1][-1])


# -- which costs (section 4.9, V-06) ------------------------------------------------------------


def test_every_element_action_takes_spontaneous_elements(dm: None) -> None:
    """Section 4.9: Activate, Learn, Acquire Element, Destroy a Curse and Cure (V-06: granted
    ones too, they are the same Actions) get the wildcard part; the costs stay otherwise equal."""
    sc = scenario(dm=2)
    for action in ("activate", "learn", "acquire", "destroy", "cure"):
        cost = as_cost(hooks.adjust_cost(sc.s, 0, action, 0, (2, 0, 0, 0, 0)))
        assert cost.wildcards and cost[:5] == (2, 0, 0, 0, 0), action
    # A payer without a pair (hand and support pool) pays as without the option: cost unchanged.
    assert hooks.adjust_cost(scenario(dm=1).s, 0, "cure", None, CURE_REQ) == CURE_REQ
    assert SPONTANEOUS_ACTIONS == {"activate", "learn", "acquire", "destroy", "cure"}


@pytest.mark.parametrize("action", [ACQUIRE, BLACK_BOOK, "destroy", "ability"])
def test_never_for_dark_matter_costs_acquire_dark_matter_or_abilities(dm: None, action: str) -> None:
    """Section 4.9, V-06: not for Dark Matter costs (Dark Curses, the Black Book), nor Acquire
    Dark Matter (section 4.6: Dark Matter cannot pay it), nor an ability's cost."""
    sc = scenario()
    for cost in (dark_matter_cost(4), ACQUIRE_COST, Cost(fire=1)):
        out = spontaneous_cost(sc.s, 0, action, cost, frozenset())
        if action == "destroy" and cost == Cost(fire=1):
            continue  # a base Curse: an Element cost (the test above)
        assert out == cost and not as_cost(out).wildcards


def test_a_base_game_has_no_cost_transform() -> None:
    """Base game unchanged: no transform, costs stay the five numbers of the base game."""
    assert ruleset(()).cost_transforms == ()
    sc = Scenario().action_phase(0)
    assert hooks.adjust_cost(sc.s, 0, "cure", None, CURE_REQ) == CURE_REQ


def test_the_menu_offers_what_spontaneous_elements_make_payable(dm: None) -> None:
    """Section 4.9: 1 Fire card + 2 Dark Matter pay a cost of 2 Fire (Learn, Acquire fire-2);
    1 Dark Matter card pays nothing; without the pair the Actions are not offered."""
    assert {"LEARN(fire)", "ACQUIRE(fire-2)"} <= set(scenario("fire-1", dm=2).legal_names())
    for dm in (0, 1):
        names = scenario("fire-1", dm=dm).legal_names()
        assert "LEARN(fire)" not in names and "ACQUIRE(fire-2)" not in names
    assert "ACQUIRE(fire-3)" not in scenario("fire-1", dm=3).legal_names()  # 3 cards: 1 pair
    assert "ACQUIRE(fire-3)" in scenario("fire-1", dm=4).legal_names()


def test_curing_with_dark_matter_only(dm: None) -> None:
    """Section 4.5 / 4.9: 4 Dark Matter cure a Madness, 2 do not (A-11: 2 Elements)."""
    sc = scenario("madness", dm=4, payment="auto")
    sc.do("CURE_HAND(madness)")
    assert sc.p(0).hand[code("madness")] == 0 and sc.p(0).discard[DM] == 4
    assert "CURE_HAND(madness)" not in scenario("madness", dm=2).legal_names()


def test_an_acquire_dark_matter_payment_takes_no_pair(dm: None) -> None:
    """Section 4.6: 1 Element card and 2 Dark Matter do not acquire Dark Matter."""
    assert "ACQUIRE_DARK_MATTER" not in scenario("fire-1", dm=2).legal_names()


# -- auto payment: the canonical order (docs/rules_decisions.md) -------------------------------


def test_auto_spends_element_cards_even_with_waste_before_dark_matter(dm: None) -> None:
    """Element cards first: a value-2 card wasting 1 is spent before any Dark Matter pair."""
    sc = scenario("fire-2", "fire-2", dm=2, payment="auto")
    sc.do("ACQUIRE(fire-3)")
    assert paid(sc) == [FIRE2, FIRE2] and sc.p(0).hand[DM] == 2


def test_auto_takes_the_fewest_pairs(dm: None) -> None:
    """The rulebook's example (section 4.9): an Earth Curse (4 Earth) destroyed with 3 value-1
    Earth cards and 2 Dark Matter; 6 Dark Matter in hand, only one pair is spent."""
    sc = scenario("earth-1", "earth-1", "earth-1", dm=6, payment="auto").clear_track()
    sc.curse(0, "test_curse_earth_a").action_phase(0)
    assert sc.s.pack.curses["test_curse_earth_a"].cost == (0, 0, 4, 0)
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert paid(sc) == [EARTH1] * 3 + [DM, DM] and sc.p(0).hand[DM] == 4


def test_auto_pairs_from_the_hand_before_the_support_pool(dm: None) -> None:
    """The pairs' cards: the hand first, then the payer's own support, then others' (4.0 order)."""
    sc = scenario("madness", dm=3, payment="auto")
    dm_state(sc.s).supply -= 2
    sc.p(0).support.append(SupportSlot(DM, NO_CARD))
    sc.p(1).support.append(SupportSlot(DM, NO_CARD))
    sc.action_phase(0).do("CURE_HAND(madness)")  # 2 Elements: 2 pairs
    assert sc.p(0).support == [] and sc.p(0).discard[DM] == 4 and sc.p(0).hand[DM] == 0
    assert sc.p(1).support == [SupportSlot(DM, NO_CARD)]
    sc.check()


@pytest.mark.parametrize("seed", range(40))
def test_auto_payments_are_irreducible_and_use_dark_matter_only_when_needed(dm: None, seed: int) -> None:
    """Random hands and Element costs: the auto payment covers the cost, is irreducible (A-18,
    a pair as one unit), and spends Dark Matter only when the Element cards alone fall short, then
    the fewest pairs."""
    rng = random.Random(seed)
    hand = [
        rng.choice(("fire-1", "fire-2", "fire-3", "water-1", "water-2", "earth-1", "air-1")) for _ in range(4)
    ]
    sc = scenario(*hand, dm=rng.randint(0, 6))
    parts = [rng.randint(0, 2) for _ in range(4)] + [rng.randint(0, 2)]
    cost = Cost(*parts, wildcards=True)
    have = [code(c) for c in hand] + [DM] * sc.p(0).hand[DM]
    if not covers(have, cost):
        with pytest.raises(ValueError, match="not affordable"):
            auto_payment(sc.s, 0, cost, "cure")
        return
    codes = [s.code for s in auto_payment(sc.s, 0, cost, "cure")]
    assert covers(codes, cost) and irreducible(codes, cost)
    elements = [c for c in have if c != DM]
    pairs = codes.count(DM) // 2
    assert codes.count(DM) % 2 == 0
    fewest = next(k for k in range(8) if covers(elements + [DM] * (2 * k), cost))
    assert pairs == fewest


# -- manual payment (DP-P4, A-18) ----------------------------------------------------------------


def test_manual_each_dark_matter_card_is_a_pick(dm: None) -> None:
    """DP-P4: the first card of a pair is offered while a second one is there; the pair pays one
    Element (section 4.9); a third card (no partner) is not offered; the paid cards go to the
    discard pile (section 4.0)."""
    sc = scenario("fire-1", dm=3)
    sc.do("ACQUIRE(fire-2)")
    assert "PAY_HAND(dark-matter)" in sc.legal_names()
    sc.do("PAY_HAND(dark-matter)")
    assert sc.pending().cost_left == (2, 0, 0, 0, 0)  # one card of a pair pays nothing yet
    sc.do("PAY_HAND(dark-matter)")
    assert sc.pending().cost_left == (1, 0, 0, 0, 0)
    assert sc.legal_names() == ["PAY_HAND(fire-1)", "PAY_CANCEL"]  # the third has no partner
    sc.do("PAY_HAND(fire-1)", "PAY_CONFIRM")
    assert sc.p(0).discard[DM] == 2 and sc.p(0).hand[DM] == 1 and sc.p(0).discard[code("fire-2")] == 1
    sc.check()


def test_manual_one_dark_matter_card_is_never_offered_alone(dm: None) -> None:
    sc = scenario("fire-1", "fire-1", dm=1)
    sc.do("ACQUIRE(fire-2)")
    assert "PAY_HAND(dark-matter)" not in sc.legal_names()


def test_manual_a_pair_is_one_unit_of_an_irreducible_payment(dm: None) -> None:
    """A-18: with a Fire-2 card and one pair for a cost of 2 Fire, the pair is not offered (Fire-2
    would then be superfluous... and nothing else completes it: a dead end), Fire-2 is."""
    sc = scenario("fire-2", dm=2)
    sc.do("ACQUIRE(fire-2)")
    assert sc.legal_names() == ["PAY_HAND(fire-2)", "PAY_CANCEL"]
    sc = scenario("fire-1", "fire-2", dm=2)
    sc.do("ACQUIRE(fire-2)", "PAY_HAND(dark-matter)", "PAY_HAND(dark-matter)")
    assert "PAY_HAND(fire-2)" not in sc.legal_names()  # would make the pair superfluous
    sc.do("PAY_HAND(fire-1)")
    assert sc.legal_names() == ["PAY_CONFIRM", "PAY_CANCEL"]


@pytest.mark.parametrize("seed", range(25))
def test_manual_picks_never_lead_to_a_dead_end(dm: None, seed: int) -> None:
    """Every pick offered keeps an irreducible payment reachable: random picks always end in a
    PAY_CONFIRM that the engine accepts, and the payment made is irreducible (A-18)."""
    rng = random.Random(seed)
    hand = [rng.choice(("fire-1", "fire-2", "fire-3", "water-1", "earth-1")) for _ in range(3)]
    sc = scenario(*hand, "madness", dm=rng.randint(2, 5))
    sc.do("CURE_HAND(madness)")
    while "PAY_CONFIRM" not in sc.legal_names():
        picks = [n for n in sc.legal_names() if n.startswith("PAY_") and n != "PAY_CANCEL"]
        assert picks, f"dead end: {sc.describe()}"
        sc.do(rng.choice(picks))
    picked = list(sc.pending().picks)
    assert irreducible(picked, Cost(any=2, wildcards=True))
    sc.do("PAY_CONFIRM")
    check_invariants(sc.s)


# -- what is left to pay (the decision, its text) ------------------------------------------------


def test_left_to_pay_of_acquire_dark_matter_names_the_elements_given(dm: None) -> None:
    """Section 4.6, V-17: after a Fire card, 1 card of another Element is owed; a second Fire card
    pays nothing (it is not offered); the text says so, and the observation's count reads it."""
    sc = scenario("fire-1", "fire-2", "water-1")
    sc.do("ACQUIRE_DARK_MATTER")
    assert "left to pay: 2 card(s) of different Elements;" in sc.describe()
    sc.do("PAY_HAND(fire-1)")
    assert "left to pay: 1 card(s) of different Elements, not fire;" in sc.describe()
    assert "PAY_HAND(fire-2)" not in sc.legal_names()
    assert left_text((FIRE1, WATER1), ACQUIRE_COST) == "nothing"
    sc.do("PAY_HAND(water-1)")
    assert "left to pay: nothing" in sc.describe()


def test_left_to_pay_texts() -> None:
    """The base game's wording for Element costs; a module's parts named."""
    assert left_text((EARTH1,), (0, 0, 2, 0, 1)) == "1 earth, 1 any"
    assert left_text((DM,), dark_matter_cost(4)) == "3 dark-matter"
    assert left_text((DM, DM), Cost(earth=4, wildcards=True)).startswith("3 earth (or 2 dark-matter")
    assert left_text((EARTH3, DM, DM), Cost(earth=4, wildcards=True)) == "nothing"


# -- saves ---------------------------------------------------------------------------------------


def test_a_pending_payment_with_a_pair_saves_and_loads(dm: None) -> None:
    sc = scenario("fire-1", dm=2)
    sc.do("ACQUIRE(fire-2)", "PAY_HAND(dark-matter)")
    assert from_json(sc.s.to_json()) == sc.s


def test_a_base_save_with_a_dark_matter_card_is_refused() -> None:
    """Without the module, code 13 (Dark Matter) is not a card of the game: a save holding one is
    refused with a message naming the field, the card and the game's card codes."""
    state = new_game(GameConfig(seed=1))
    state.players[0].deck.append(DM)
    with pytest.raises(
        SaveError, match=r"players\[0\]\.deck\[\d+\]: unknown card code 13 \(dark-matter\): not a card"
    ):
        from_json(state.to_json())
    state = new_game(GameConfig(seed=1))
    state.players[1].hand[DM] += 1
    with pytest.raises(SaveError, match=r"players\[1\]\.hand\[13\]: unknown card code 13"):
        from_json(state.to_json())


# -- the Air conversion (V-12) --------------------------------------------------------------------

AIR_MAGICIAN = "magician_vth_air"


def air(*hand: str, payment: str = "manual", dm: int = 0) -> Scenario:
    """Player 0, the new Air Magician (V-12), to act with this hand."""
    return scenario(*hand, dm=dm, payment=payment, magicians=(AIR_MAGICIAN, "test_mag_fire"))


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_one_air_card_counts_as_the_element_of_choice_its_whole_value(dm: None, payment: str) -> None:
    """V-12: an Air-2 card and a Fire-1 card acquire a Fire-3 card (the Air card keeps its value,
    counts as Fire); the ability is then used for the turn (section 4.11: once per turn)."""
    sc = air("air-2", "fire-1", "air-1", "air-1", payment=payment)
    assert "ACQUIRE(fire-3)" in sc.legal_names()
    sc.do("ACQUIRE(fire-3)")
    if payment == "manual":
        sc.do("PAY_HAND(air-2)", "PAY_HAND(fire-1)", "PAY_CONFIRM")
    assert paid(sc) == sorted([code("air-2"), FIRE1]) and sc.p(0).ability_used
    assert sc.events("ability") == [(0, AIR_MAGICIAN)]
    # Once per turn: the two Air-1 cards no longer pay a Fire cost.
    sc.hand(0, "air-1", "fire-1")
    assert "ACQUIRE(fire-2)" not in sc.legal_names()


def test_the_conversion_counts_for_different_elements_of_acquire_dark_matter(dm: None) -> None:
    """V-12: the converted Air card counts as its chosen Element for the whole Action, also for
    "2 Element cards of different Elements" (section 4.6): two Air cards acquire Dark Matter."""
    sc = air("air-1", "air-3")
    sc.do("ACQUIRE_DARK_MATTER", "PAY_HAND(air-1)", "PAY_HAND(air-3)", "PAY_CONFIRM")
    assert sc.p(0).hand[DM] == 1 and sc.p(0).ability_used
    sc.hand(0, "air-1", "air-2")  # the ability is used: two Air cards are one Element again
    assert "ACQUIRE_DARK_MATTER" not in sc.legal_names()


def test_the_conversion_is_not_spent_when_not_needed(dm: None) -> None:
    """Auto payment: Element cards first (docs/rules_decisions.md); a payment that covers its cost
    without the conversion leaves the ability unused."""
    sc = air("fire-1", "fire-1", "air-1", payment="auto")
    sc.do("ACQUIRE(fire-2)")
    assert paid(sc) == [FIRE1, FIRE1] and not sc.p(0).ability_used


def test_the_conversion_comes_before_dark_matter_pairs(dm: None) -> None:
    """The canonical order: Element cards, then the conversion, then Dark Matter pairs."""
    sc = air("fire-1", "air-1", dm=2, payment="auto")
    sc.do("ACQUIRE(fire-2)")
    assert paid(sc) == sorted([FIRE1, code("air-1")]) and sc.p(0).hand[DM] == 2 and sc.p(0).ability_used


def test_the_conversion_only_on_the_owners_own_turn_and_not_while_lost(dm: None) -> None:
    """V-12: own turn only; a lost ability (V-10) converts nothing."""
    from bbom_env.engine.model.records import TempModifier
    from bbom_env.modules.dark_matter.air import AIR_CONVERSION

    def converted(s, action, cost):  # type: ignore[no-untyped-def]
        if not AIR_CONVERSION.applies(s, 0):
            return cost
        return AIR_CONVERSION.transform(s, 0, action, cost, frozenset())

    sc = air("air-2", "fire-1")
    cost = (3, 0, 0, 0, 0)
    assert as_cost(converted(sc.s, "acquire", cost)).convert
    assert converted(sc.s, BLACK_BOOK, dark_matter_cost(2)) == dark_matter_cost(2)
    sc.at(active=1)
    assert converted(sc.s, "acquire", cost) == cost  # another player's turn
    sc.at(active=0)
    sc.p(0).mods.append(TempModifier({"kind": "lose_ability"}, "until_next_monster", "dark_curse_01"))
    assert converted(sc.s, "acquire", cost) == cost


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_random_games_with_the_air_magician_keep_the_invariants(dm: None, payment: str) -> None:
    """Whole random games with the Air Magician and Dark Matter in hand (both payment modes):
    invariants after every move; the conversion is used."""
    used = 0
    for seed in range(3):
        state = new_game(
            GameConfig(
                seed=seed, modules=(NAME,), payment=payment, magicians=(AIR_MAGICIAN, "magician_fire_f")
            )
        )
        for pl in state.players:
            dm_state(state).supply -= 2
            pl.hand[DM] += 2
        state.legal_cache = None
        rng = random.Random(seed)
        for _ in range(400):
            if state.over:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            check_invariants(state)
        used += sum(1 for e in state.log if e[1] == "ability" and e[3] == AIR_MAGICIAN)
    assert used > 0
