"""The five Actions (docs/rules.md sections 4.1-4.5), granted Actions (4.12) and illegal moves (every
illegal move raises IllegalActionError naming it and the pending decision, and changes nothing).
Test pack fixtures (reconstructed cards)."""

from __future__ import annotations

import pytest
from builders import Scenario, code, counts, move

from bbom_env.engine import IllegalActionError, describe, move_to_string
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import SpellSlot, TempModifier

# -- 4.1 Activate a Spell ----------------------------------------------------------------------------


def test_power_x_offered_up_to_3_while_affordable() -> None:
    """4.1, DP-05: X in 1..3, each costing activation cost x X of the Spell's Element."""
    sc = Scenario().hand(0, "earth-1", "earth-1", "fire-1").action_phase(0)
    growth = [n for n in sc.legal_names() if n.startswith("ACTIVATE(spell#2")]
    assert growth == ["ACTIVATE(spell#2 X=1)", "ACTIVATE(spell#2 X=2)"]
    sc.hand(0, *("earth-1",) * 5).action_phase(0)
    assert [n for n in sc.legal_names() if n.startswith("ACTIVATE(spell#2")] == [
        "ACTIVATE(spell#2 X=1)",
        "ACTIVATE(spell#2 X=2)",
        "ACTIVATE(spell#2 X=3)",
    ]


def test_activate_pays_applies_x_then_exhausts_once_per_turn() -> None:
    """4.1: pay activation cost x X, apply the effect with X (Test Growth: draw X), exhaust; the
    same Spell cannot be activated again this turn, whatever X."""
    sc = Scenario().hand(0, *("earth-1",) * 4).deck(0, "fire-1", "fire-2", "fire-3").action_phase(0)
    sc.do("ACTIVATE(spell#2 X=2)")
    assert sc.p(0).hand == counts("earth-1", "earth-1", "fire-1", "fire-2")
    assert sc.p(0).discard == counts("earth-1", "earth-1")
    assert sc.p(0).spells[2].exhausted is True
    assert not [n for n in sc.legal_names() if n.startswith("ACTIVATE(spell#2")]
    before = sc.clone()
    with pytest.raises(IllegalActionError):
        sc.do("ACTIVATE(spell#2 X=1)")
    assert sc.s == before


def test_different_spells_each_activate_once_in_a_turn() -> None:
    """4.1, A-15: each activation of a different Spell is its own Action."""
    sc = Scenario().hand(0, "earth-1", "water-1", "fire-1", "fire-2").deck(0, "air-1").action_phase(0)
    sc.do("ACTIVATE(spell#2 X=1)")  # Growth: draw 1
    sc.do("ACTIVATE(spell#1 X=1)")  # Ice: place up to 1 card in support (optional pick)
    sc.do("PICK_HAND(fire-2)")
    assert sc.p(0).support_cards() == [code("fire-2")]
    assert [sp.exhausted for sp in sc.p(0).spells] == [False, True, True, False]


def test_neutralized_spell_cannot_be_activated() -> None:
    """Section 7 Neutralize, 4.1: a neutralized Spell cannot be activated."""
    sc = Scenario().hand(0, *("earth-1",) * 3).spell_state(0, "test_growth", neutralized="this_turn")
    sc.action_phase(0)
    assert not [n for n in sc.legal_names() if n.startswith("ACTIVATE(spell#2")]


def test_spell_learned_this_turn_can_be_activated_a14() -> None:
    """4.2, A-14: a Spell learned this turn is ready at once."""
    sc = Scenario().hand(0, "fire-1", "fire-1", "fire-1").discard(0, "earth-1").action_phase(0)
    sc.do("LEARN(fire)")
    assert sc.p(0).spells[-1] == SpellSlot("test_fire_1", exhausted=False, neutralized="")
    sc.do("ACTIVATE(spell#4 X=1)")  # Test Kindle: may destroy 1 Element card of the discard pile
    assert "PICK_DISCARD(earth-1)" in sc.legal_names()


# -- 4.2 Learn a new Spell -----------------------------------------------------------------------------


def test_learn_costs_printed_learning_cost_and_reveals_the_next_spell() -> None:
    """4.2, A-13: pay the printed learning cost in the Spell's Element; the Spell joins the row,
    ready; the next Spell of the pile is revealed and can be learned with another Action."""
    sc = Scenario().hand(0, *("fire-1",) * 7).action_phase(0)
    sc.do("LEARN(fire)")
    assert sc.s.library[0] == ["test_fire_3", "test_fire_2"]  # Test Blaze now on top
    assert sum(sc.p(0).hand) == 5
    sc.do("LEARN(fire)", "PICK_SPELL(spell#0)")  # default learning cost 2; a 6th Spell
    assert sum(sc.p(0).hand) == 3
    assert [sp.spell for sp in sc.p(0).spells][-1] == "test_fire_2"
    # Test Inferno prints learning cost 3: 3 fire-1 are needed and enough.
    assert "LEARN(fire)" in sc.legal_names()
    sc.hand(0, "fire-1", "fire-1").action_phase(0)
    assert "LEARN(fire)" not in sc.legal_names()


def test_learning_a_sixth_spell_sends_a_chosen_spell_to_the_box() -> None:
    """4.2, DP-10, A-69: at the limit of 5, discard one Spell (even exhausted or neutralized)
    before placing the new one; the discarded Spell is removed from the game."""
    sc = Scenario().spells(0, "test_combustion", "test_ice", "test_growth", "test_telepathy", "test_air_1")
    sc.spell_state(0, "test_ice", exhausted=True, neutralized="until_next_monster")
    sc.hand(0, "water-1", "water-1").action_phase(0)
    sc.do("LEARN(water)")
    assert sc.pending().kind == "spell_to_box"
    assert sc.legal_names() == [f"PICK_SPELL(spell#{i})" for i in range(5)]
    sc.do("PICK_SPELL(spell#1)")
    row = [sp.spell for sp in sc.p(0).spells]
    assert row == ["test_combustion", "test_growth", "test_telepathy", "test_air_1", "test_water_1"]
    assert "test_ice" in sc.s.box_spells
    sc.check()


def test_spell_limit_modifier_allows_a_sixth_spell() -> None:
    """4.2, 4.11: the Test Earth Magician's ability raises the limit to 6: no discard."""
    sc = Scenario().spells(1, "test_combustion", "test_ice", "test_growth", "test_telepathy", "test_air_1")
    sc.hand(1, "water-1", "water-1").action_phase(1)
    sc.do("LEARN(water)")
    assert len(sc.p(1).spells) == 6 and sc.pending().kind == "action"


def test_empty_library_pile_offers_nothing_a70() -> None:
    """A-70: after the level-3 Spell of an Element is learned, that Element offers nothing."""
    sc = Scenario().library("fire").hand(0, *("fire-1",) * 4).action_phase(0)
    assert "LEARN(fire)" not in sc.legal_names()


# -- 4.3 Acquire an Element card ---------------------------------------------------------------------


def test_acquire_value2_or_3_paid_in_the_same_element_into_discard() -> None:
    """4.3: value-2 costs 2, value-3 costs 3 Elements of that Element; the card goes to the
    discard pile and leaves its supply pile."""
    sc = Scenario().hand(0, "water-1", "water-1", "fire-3").action_phase(0)
    legal = sc.legal_names()
    assert "ACQUIRE(water-2)" in legal and "ACQUIRE(water-3)" not in legal
    assert "ACQUIRE(earth-2)" not in legal  # fire cards never pay for water or earth
    supply = sc.s.supply[1][0]
    sc.do("ACQUIRE(water-2)")
    assert sc.p(0).discard == counts("water-1", "water-1", "water-2")
    assert sc.s.supply[1][0] == supply - 1
    sc.do("ACQUIRE(fire-3)")
    assert sc.p(0).discard[code("fire-3")] == 2


def test_empty_supply_pile_cannot_be_acquired() -> None:
    """4.3, A-65: an empty pile offers nothing."""
    sc = Scenario().supply("fire", 2, 0).hand(0, "fire-1", "fire-1", "fire-1").action_phase(0)
    assert "ACQUIRE(fire-2)" not in sc.legal_names() and "ACQUIRE(fire-3)" in sc.legal_names()


def test_cost_modifier_lowers_acquire_cost() -> None:
    """4.10, 4.11: the Test Mixed Magician acquires for 1 Element less."""
    sc = Scenario(magicians=("test_mag_mixed", "test_mag_fire")).hand(0, "water-1", "air-1").action_phase(0)
    assert {"ACQUIRE(water-2)", "ACQUIRE(air-2)"} <= set(sc.legal_names())
    sc.do("ACQUIRE(water-2)")
    assert sc.p(0).hand == counts("air-1")


# -- 4.4 Destroy a Curse -----------------------------------------------------------------------------


def _destroy_setup(**kw) -> Scenario:
    sc = Scenario(**kw).curse(0, "test_curse_fire_a").curse(1, "test_curse_multi_a")
    return sc.hand(0, *("fire-1",) * 4).action_phase(0)


def test_destroy_element_curse_costs_4_and_offers_an_optional_reward() -> None:
    """4.4, A-08, A-09, A-10: 4 Elements of the Curse's Element; the Curse goes to the bottom of
    its pile; the reward is a value-2 card of any Element, or nothing."""
    sc = _destroy_setup()
    assert "DESTROY_CURSE(slot1 pos0)" not in sc.legal_names()  # Multi needs one of each
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert sc.s.track[0] == [] and sc.s.curse_piles["fire"][0] == "test_curse_fire_a"
    assert sc.pending().kind == "destroy_reward"
    assert sc.legal_names() == [f"PICK_ELEMENT({e})" for e in ("fire", "water", "earth", "air")] + ["DECLINE"]
    sc.do("PICK_ELEMENT(earth)")
    assert sc.p(0).discard == counts(*("fire-1",) * 4, "earth-2")
    sc.check()


def test_destroy_reward_declined_or_mandatory_a10() -> None:
    """A-10: declining gives nothing; with reward_optional=False there is no DECLINE."""
    sc = _destroy_setup()
    sc.do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert sum(sc.p(0).discard) == 4
    sc = _destroy_setup(reward_optional=False)
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert "DECLINE" not in sc.legal_names()


def test_no_value2_card_left_means_no_reward() -> None:
    """4.4: if no value-2 Element card is left, no reward (and no decision)."""
    sc = _destroy_setup()
    for e in ("fire", "water", "earth", "air"):
        sc.supply(e, 2, 0)
    sc.action_phase(0).do("DESTROY_CURSE(slot0 pos0)")
    assert sc.pending().kind == "action"


def test_multi_element_curse_costs_one_of_each_element() -> None:
    """4.4: a Multi-Element Curse costs 1 Fire, 1 Water, 1 Earth and 1 Air."""
    sc = _destroy_setup().hand(0, "fire-1", "water-1", "earth-1", "air-2").action_phase(0)
    assert "DESTROY_CURSE(slot1 pos0)" in sc.legal_names()
    sc.do("DESTROY_CURSE(slot1 pos0)", "DECLINE")
    assert sc.s.track[1] == [] and sum(sc.p(0).hand) == 0


def test_destroyed_curse_out_of_play_with_a08_alternative() -> None:
    """A-08 alternative: destroyed Curses leave play."""
    sc = _destroy_setup(destroyed_curse_destination="out")
    sc.do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert sc.s.curse_piles["out"] == ["test_curse_fire_a"]
    assert "test_curse_fire_a" not in sc.s.curse_piles["fire"]


def test_sorcerer_madness_under_a_destroyed_curse_goes_to_the_destroyer() -> None:
    """4.4 Sorcerer, A-43: the destroyer puts the Madness lying under the Curse in their discard
    pile (this is not "receiving": the Madness pile is not touched)."""
    sc = Scenario().curse(3, "test_curse_fire_a", under=1).hand(0, *("fire-1",) * 4).action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.do("DESTROY_CURSE(slot3 pos0)", "DECLINE")
    assert sc.p(0).discard[MADNESS] == 1 and len(sc.s.madness_pile) == pile
    sc.check()


def test_element_tokens_raise_the_destroy_cost_and_return_to_the_pool() -> None:
    """A-62: each token adds 1 Element of its colour; tokens go back to the pool."""
    sc = Scenario().curse(0, "test_curse_fire_a", tokens=(0, 1, 0, 0)).hand(0, *("fire-1",) * 4)
    sc.action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    sc.hand(0, *("fire-1",) * 4, "water-1").action_phase(0)
    sc.do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert sc.s.tokens == [4, 4, 4, 4] and sum(sc.p(0).hand) == 0


def test_any_face_up_curse_on_any_space_can_be_destroyed() -> None:
    """4.4: a Curse on a space the marker already passed is still destroyable."""
    sc = Scenario().at(marker=5).curse(0, "test_curse_fire_a").curse(4, "test_curse_fire_b")
    sc.hand(0, *("fire-1",) * 8).action_phase(0)
    assert {"DESTROY_CURSE(slot0 pos0)", "DESTROY_CURSE(slot4 pos0)"} <= set(sc.legal_names())


def test_trigger_on_curse_destroyed() -> None:
    """4.11 hooks: the Test Air Magician draws 1 whenever they destroy a Curse."""
    sc = Scenario(magicians=("test_mag_air", "test_mag_fire")).curse(0, "test_curse_fire_a")
    sc.hand(0, *("fire-1",) * 4).deck(0, "water-3").action_phase(0)
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert sc.p(0).hand == counts("water-3")  # the draw resolves before the reward choice
    sc.do("DECLINE")


# -- 4.5 Cure ----------------------------------------------------------------------------------------


def test_cure_madness_in_own_hand_for_2_elements_of_any_types() -> None:
    """4.5, A-11, A-67: 2 Elements, mixing allowed; the Madness returns to the Madness pile."""
    sc = Scenario().hand(0, "madness", "fire-1", "water-1").action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.do("CURE_HAND(madness)")
    assert sc.p(0).hand == counts() and len(sc.s.madness_pile) == pile + 1
    sc.check()


def test_cure_in_own_or_any_players_support_but_not_another_hand() -> None:
    """4.5, A-12: own hand, own support, any player's support; never another player's hand."""
    sc = Scenario().hand(0, "fire-2").support(0, "madness").support(1, "air-1", "madness")
    sc.hand(1, "madness").action_phase(0)
    cures = [n for n in sc.legal_names() if n.startswith("CURE")]
    assert cures == ["CURE_SUPPORT(seat+0 slot0)", "CURE_SUPPORT(seat+1 slot1)"]
    sc.do("CURE_SUPPORT(seat+1 slot1)")
    assert sc.p(1).support_cards() == [code("air-1")] and sc.p(0).discard == counts("fire-2")


def test_cure_paid_partly_with_the_cured_players_support() -> None:
    """4.5, 4.0: paying from the same support as the cured Madness still cures the right card."""
    sc = Scenario().support(1, "air-1", "madness").hand(0, "fire-1").action_phase(0)
    sc.do("CURE_SUPPORT(seat+1 slot1)")
    assert sc.p(1).support_cards() == [] and sc.p(1).discard == counts("air-1")
    assert sc.p(0).discard == counts("fire-1")


def test_forbid_modifier_blocks_the_cure_action() -> None:
    """4.10 hooks: a "forbid cure" modifier (Test Wisp's arrival) removes every Cure."""
    sc = Scenario().hand(0, "madness", "fire-2").action_phase(0)
    assert "CURE_HAND(madness)" in sc.legal_names()
    sc.p(0).mods.append(
        TempModifier({"kind": "forbid", "action": "cure", "element": "any"}, "this_turn", "x")
    )
    sc.action_phase(0)
    assert not [n for n in sc.legal_names() if n.startswith("CURE")]


# -- 4.12 Another player takes Actions ---------------------------------------------------------------


def _telepathy() -> Scenario:
    sc = Scenario(magicians=("test_mag_earth", "test_mag_fire"))
    sc.hand(0, *("air-1",) * 4).hand(1, "earth-1", "fire-1", "fire-1", "water-1", "water-1")
    sc.spell_state(1, "test_ice", exhausted=True)
    return sc.deck(1, "air-3").action_phase(0)


def test_granted_actions_partially_taken_then_pass() -> None:
    """4.12 [FAQ]: Telepathy X=2 grants 2 Actions; the other player takes one and passes; they
    neither refresh their Spells nor refill their hand; no ability on another's turn (A-35)."""
    sc = _telepathy()
    sc.do("ACTIVATE(spell#3 X=2)")  # 2 players: the only other player is chosen automatically
    d = sc.pending()
    assert (d.kind, d.player, d.remaining) == ("granted_action", 1, 2)
    assert "ABILITY" not in sc.legal_names()
    assert "ACTIVATE(spell#1 X=1)" not in sc.legal_names()  # not refreshed for a granted Action
    sc.do("ACTIVATE(spell#2 X=1)")  # P1's own Growth, paid from P1's hand: draw 1
    assert sc.pending().remaining == 1 and sc.p(1).spells[2].exhausted is True
    sc.do("END")  # [FAQ]: stop early
    assert sc.pending().kind == "action" and sc.pending().player == 0
    assert sum(sc.p(1).hand) == 5  # 5 - 1 paid + 1 drawn: no refill to 6
    assert sc.p(1).spells[2].exhausted is True  # stays exhausted until P1's own Concentration


def test_granted_actions_end_when_used_up() -> None:
    """4.12: after the granted number of Actions the turn returns to the caster."""
    sc = _telepathy()
    sc.do("ACTIVATE(spell#3 X=1)", "ACQUIRE(fire-2)")
    assert sc.pending().kind == "action" and sc.pending().player == 0
    assert sc.p(1).discard == counts("fire-1", "fire-1", "fire-2")


# -- illegal moves -----------------------------------------------------------------------------------


def _decisions() -> list[Scenario]:
    """One scenario per decision kind: menu, payment, spell_to_box, reward, recuperation, op pick."""
    out = [Scenario().hand(0, "fire-1").action_phase(0)]
    sc = Scenario(payment="manual").hand(0, "fire-1", "fire-1").action_phase(0)
    out.append(sc.do("ACQUIRE(fire-2)"))
    sc = Scenario().spells(0, "test_combustion", "test_ice", "test_growth", "test_telepathy", "test_air_1")
    out.append(sc.hand(0, "water-1", "water-1").action_phase(0).do("LEARN(water)"))
    out.append(_destroy_setup().do("DESTROY_CURSE(slot0 pos0)"))
    sc = Scenario().hand(0, *("fire-1",) * 4, *("water-1",) * 4).action_phase(0)
    out.append(sc.do("END"))
    sc = Scenario().hand(0, "earth-1", "fire-1", "water-2").action_phase(0)
    out.append(sc.do("ACTIVATE(spell#0 X=1)"))  # Combustion: destroy up to 1 card
    return out


@pytest.mark.parametrize("i", range(6))
def test_illegal_move_raises_names_it_and_changes_nothing(i: int) -> None:
    """Every illegal move raises IllegalActionError naming the move and the pending decision and
    leaves the state unchanged (state == clone)."""
    sc = _decisions()[i]
    legal = set(sc.s.legal_actions())
    assert legal
    bad = [m for m in range(400) if m not in legal][:25] + [-1, 10**6]
    for m in bad:
        before = sc.clone()
        with pytest.raises(IllegalActionError) as err:
            sc.s.apply_action(m)
        msg = str(err.value)
        assert describe(before) in msg
        if 0 <= m < 400:
            assert move_to_string(m) in msg
        else:
            assert "outside the layout" in msg
        assert sc.s == before
        assert sc.s.legal_actions() == before.legal_actions()


def test_move_names_round_trip() -> None:
    """The builder's move names are move_to_string's."""
    assert move_to_string(move("ACQUIRE(fire-2)")) == "ACQUIRE(fire-2)"
