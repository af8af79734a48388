"""The effect vocabulary (docs/rules.md sections 7 and 8; vocab.OP_SCHEMAS): every op, the targets
You / Each player / Each other player / A player / Another player / the Active Player, the X
multiplier, "may" and optional picks, and partial application. Each op runs through a card of the
test pack (engine fixtures, reconstructed), resolved with ``Scenario.effect``."""

from __future__ import annotations

import pytest
from builders import Scenario, code, counts

from bbom_env.engine.cards.vocab import BASE_OPS
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import SpellSlot, SupportSlot

# Which test below exercises each op (kept in step with vocab.OP_SCHEMAS by the first test).
OP_TESTS = {
    "draw": "test_draw_x_cards",
    "discard": "test_each_player_discards_then_draws_partial_application",
    "destroy": "test_destroy_up_to_x_cards_from_hand_optional",
    "place_in_support": "test_each_player_places_x_in_support_up_to_capacity",
    "receive_madness": "test_receive_madness_into_a_full_support_exceeds_it_a26",
    "cure": "test_cure_by_effect_from_hand_support_discard_and_deck",
    "exchange": "test_exchange_is_hand_to_hand_a37",
    "neutralize_curse": "test_neutralize_x_curses_chosen_by_the_caster",
    "neutralize_spell": "test_neutralize_spell_for_a_duration",
    "exhaust_spell": "test_each_player_exhausts_a_ready_spell",
    "refresh_spell": "test_a_player_refreshes_spells_not_neutralized_ones",
    "lose_spell": "test_a_player_loses_a_spell_to_the_box",
    "put_on_top": "test_gain_spell_element_and_put_a_card_on_top",
    "upgrade": "test_upgrade_to_the_higher_value_card",
    "grant_actions": "test_grant_actions_to_another_player",
    "add_tokens": "test_add_tokens_slot_choose_and_all",
    "remove_tokens": "test_remove_tokens_and_move_the_marker_back",
    "move_marker": "test_move_marker_forward_triggers_the_next_space",
    "gain": "test_gain_spell_element_and_put_a_card_on_top",
    "madness_under_curses": "test_madness_under_curses_stops_quietly_when_the_pile_is_empty",
    "discard_deck_top": "test_discard_the_top_cards_of_the_deck",
    "destroy_curse": "test_destroy_curse_by_effect_with_reward",
    "modifier": "test_modifier_until_next_monster_changes_costs",
    "may": "test_may_accept_or_decline",
    "reshuffle": "test_reshuffle_by_effect_never_gives_madness",
}


def test_every_op_of_the_vocabulary_has_a_test_here() -> None:
    """Sections 7/8: the ops of vocab.OP_SCHEMAS are all exercised by this module."""
    assert set(OP_TESTS) == set(BASE_OPS)  # a module's ops: tests/modules/
    assert all(name in globals() for name in OP_TESTS.values())


def test_draw_x_cards() -> None:
    """4.1, 8.4: X multiplies the part marked X (Test Growth: draw X)."""
    sc = Scenario().deck(0, "fire-1", "air-2", "water-3", "earth-1").effect("test_growth", controller=0, x=3)
    assert sc.p(0).hand == counts("fire-1", "air-2", "water-3") and len(sc.p(0).deck) == 1


def test_each_player_discards_then_draws_partial_application() -> None:
    """4.1 example (Eye of the Tornado), 8.2, 8.3, A-22, A-34: each player, from the Active Player,
    picks their own discard (Madness allowed by an effect); an empty hand skips the discard but
    still draws."""
    sc = Scenario().hand(0, "madness", "fire-1").deck(0, "air-1").deck(1, "water-2").action_phase(0)
    sc.effect("test_air_1", controller=0, x=1)
    assert (sc.pending().kind, sc.pending().player) == ("discard", 0)
    assert sc.legal_names() == ["PICK_HAND(fire-1)", "PICK_HAND(madness)"]
    sc.do("PICK_HAND(madness)")
    assert sc.p(0).discard == counts("madness")
    assert sc.p(0).hand == counts("fire-1", "air-1")
    assert sc.p(1).hand == counts("water-2") and sum(sc.p(1).discard) == 0


def test_discard_from_support_goes_to_the_owners_discard() -> None:
    """Section 7 Discard: from support, to the owner's discard pile (Test Drown)."""
    sc = Scenario().support(0, "fire-2").support(1, "madness", "air-1").action_phase(0)
    sc.effect("test_curse_water_c", controller=0)
    assert sc.p(0).support_cards() == [] and sc.p(0).discard == counts("fire-2")
    assert sc.pending().player == 1
    sc.do("PICK_SUPPORT(seat+0 slot1)")
    assert sc.p(1).support_cards() == [MADNESS] and sc.p(1).discard == counts("air-1")


def test_destroy_up_to_x_cards_from_hand_optional() -> None:
    """Section 7 Destroy, DP-E05, DP-E15: "up to X" offers DECLINE; destroyed cards (Madness
    included) leave the game and do not return to the Madness pile."""
    sc = Scenario().hand(0, "madness", "fire-1", "water-1").action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.effect("test_combustion", controller=0, x=3)
    assert "DECLINE" in sc.legal_names()
    sc.do("PICK_HAND(madness)", "PICK_HAND(fire-1)", "DECLINE")
    assert sc.p(0).hand == counts("water-1") and sc.s.destroyed == counts("madness", "fire-1")
    assert len(sc.s.madness_pile) == pile
    sc.check()


def test_destroy_from_discard_with_element_filter() -> None:
    """DP-E05: Test Kindle destroys Element cards of the discard pile only (not Madness)."""
    sc = Scenario().discard(0, "madness", "fire-2").action_phase(0).effect("test_fire_1", controller=0)
    assert sc.legal_names() == ["PICK_DISCARD(fire-2)", "DECLINE"]


def test_each_player_places_x_in_support_up_to_capacity() -> None:
    """Section 7 Support, A-26, 8.2: each player places X cards, then draws X; a full support
    takes no more (partial application); the Test Water Magician has 5 slots."""
    sc = Scenario(magicians=("test_mag_fire", "test_mag_water")).action_phase(0)
    sc.hand(0, "fire-1", "fire-2").support(0, "air-1", "air-1").hand(1, "earth-1", "earth-2")
    sc.support(1, "air-2", "air-2", "air-3").deck(0, "water-1", "water-1").deck(1, "water-2", "water-2")
    sc.effect("test_water_2", controller=0, x=2)
    sc.do("PICK_HAND(fire-2)")  # P0: one slot left, so only one placement
    sc.do("PICK_HAND(earth-1)")  # P1: 3 + 2 = 5 slots (the last pick is forced, so automatic)
    assert len(sc.p(0).support) == 3 and len(sc.p(1).support) == 5
    assert sc.p(0).hand == counts("fire-1", "water-1", "water-1")
    assert sc.p(1).hand == counts("water-2", "water-2")


def test_receive_madness_into_a_full_support_exceeds_it_a26() -> None:
    """5.3, A-26: a Madness received into a full support still enters; no more placements."""
    sc = Scenario().support(0, "air-1", "air-1", "air-1").hand(0, "fire-1").action_phase(0)
    sc.effect("test_curse_multi_a", controller=0)
    assert sc.p(0).support[-1] == SupportSlot(MADNESS) and len(sc.p(0).support) == 4
    assert sc.p(1).support_cards() == [MADNESS]
    sc.hand(0, "water-1", "fire-1").action_phase(0).effect("test_ice", controller=0)
    assert sc.pending().kind == "action" and len(sc.p(0).support) == 4


def test_receive_madness_on_top_of_deck_each_other_player() -> None:
    """Section 7 On top of your deck, targets: Each other player (Test Bury: all but the Active
    Player, who controls the Curse)."""
    sc = Scenario(num_players=3).deck(1, "fire-1").action_phase(0).effect("test_curse_earth_c", controller=0)
    assert sc.p(0).deck == [] and sc.p(1).deck[-1] == MADNESS and sc.p(2).deck == [MADNESS]


def test_receive_madness_replacing_a_support_card_when_full() -> None:
    """The [HJ-FAQ] ruling on the bagpipe Monster as the test cover's arrival: with a full support,
    discard a support card and put the Madness in its place."""
    sc = Scenario().support(0, "air-1", "fire-1", "water-1").action_phase(0)
    sc.effect("test_cover_b", "arrival", controller=0)
    assert sc.pending().kind == "receive_madness" and sc.pending().player == 0
    sc.do("PICK_SUPPORT(seat+0 slot1)")
    assert sc.p(0).support_cards() == [code("air-1"), code("water-1"), MADNESS]
    assert sc.p(0).discard == counts("fire-1") and sc.p(1).support_cards() == [MADNESS]


def test_cure_by_effect_from_hand_support_discard_and_deck() -> None:
    """Section 7 Cure: cured Madness returns to the Madness pile, from each zone an effect names."""
    sc = Scenario().hand(0, "madness", "madness", "fire-1").deck(0, "air-1").action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.effect("test_water_1", controller=0, x=2)  # cure X from hand, then draw 1
    assert sc.p(0).hand == counts("fire-1", "air-1") and len(sc.s.madness_pile) == pile + 2
    sc.support(1, "madness", "air-1").effect("test_page_4", "bonus", controller=0)
    assert sc.p(1).support_cards() == [code("air-1")]
    assert sc.pending().kind == "granted_action"  # the rest of test_page_4's Bonus
    sc.do("END")
    sc.deck(0, "madness", "air-2").discard(1, "madness").effect("test_page_3", "bonus", controller=0)
    assert sc.p(0).deck == [code("air-2")] and sum(sc.p(1).discard) == 0
    sc.check()


def test_exchange_is_hand_to_hand_a37() -> None:
    """Section 7 Exchange, A-37: the caster gives a card from hand to the chosen player's hand,
    who gives one back; an empty hand gives nothing (partial)."""
    sc = Scenario().hand(0, "fire-3", "water-1").hand(1, "air-2").action_phase(0)
    sc.effect("test_water_3", controller=0, x=1)
    assert sc.pending().kind == "choose_player"
    assert sc.legal_names() == ["PICK_PLAYER(seat+0)", "PICK_PLAYER(seat+1)"]  # "a player": self too
    sc.do("PICK_PLAYER(seat+1)", "PICK_HAND(fire-3)")
    assert sc.pending().player == 1 and sc.legal_names() == ["PICK_HAND(fire-3)", "PICK_HAND(air-2)"]
    sc.do("PICK_HAND(air-2)")
    assert sc.p(0).hand == counts("water-1", "air-2") and sc.p(1).hand == counts("fire-3")
    assert sum(sc.p(0).discard) + sum(sc.p(1).discard) == 0
    sc.hand(0).hand(1, "earth-3").effect("test_water_3", controller=0, x=1).do("PICK_PLAYER(seat+1)")
    assert sc.p(0).hand == counts("earth-3") and sc.p(1).hand == counts()  # P0 had nothing to give


def test_neutralize_x_curses_chosen_by_the_caster() -> None:
    """Section 7 Neutralize, DP-E09: only face-up Curses can be chosen; each is neutralized."""
    sc = Scenario().curse(0, "test_curse_fire_a").curse(3, "test_curse_air_a", neutralized=True)
    sc.curse(4, "test_curse_water_a").action_phase(0).effect("test_fire_3", controller=0, x=2)
    assert sc.legal_names() == ["PICK_CURSE(slot0 pos0)", "PICK_CURSE(slot4 pos0)"]
    sc.do("PICK_CURSE(slot4 pos0)")  # the second pick is forced (one Curse left)
    assert sc.s.track[0][0].neutralized_at == sc.s.turn and sc.s.track[4][0].neutralized_at == sc.s.turn


def test_neutralize_spell_for_a_duration() -> None:
    """Section 7, A-20: a neutralized Spell keeps its exhausted state and counts toward the
    limit; "this turn" ends with the turn (Test Cube's arrival)."""
    sc = Scenario().spell_state(0, "test_ice", exhausted=True).hand(0, *("water-1",) * 6)
    sc.hand(1, *("water-1",) * 6).action_phase(0).effect("test_page_3", "arrival", controller=0)
    sc.do("PICK_SPELL(spell#1)")
    assert sc.p(0).spells[1] == SpellSlot("test_ice", exhausted=True, neutralized="this_turn")
    sc.end_turn()
    assert sc.p(0).spells[1] == SpellSlot("test_ice", exhausted=True, neutralized="")


def test_each_player_exhausts_a_ready_spell() -> None:
    """DP-E10: only ready, face-up Spells can be exhausted; the owner picks."""
    sc = Scenario().spell_state(0, "test_ice", exhausted=True).spell_state(0, "test_growth", neutralized="x")
    sc.action_phase(0).effect("test_curse_water_a", controller=0)
    assert sc.legal_names() == ["PICK_SPELL(spell#0)", "PICK_SPELL(spell#3)"]
    sc.do("PICK_SPELL(spell#3)", "PICK_SPELL(spell#0)")
    assert sc.p(0).spells[3].exhausted and sc.p(1).spells[0].exhausted


def test_a_player_refreshes_spells_not_neutralized_ones() -> None:
    """A-21, targets "a player" (the caster chooses, A-34) and gain value-1 to hand."""
    sc = Scenario().spell_state(1, "test_ice", exhausted=True)
    sc.spell_state(1, "test_growth", exhausted=True, neutralized="until_next_monster")
    sc.action_phase(0).effect("test_earth_3", controller=0, x=2).do("PICK_PLAYER(seat+1)")
    assert sc.p(1).spells[1].exhausted is False and sc.p(1).spells[2].exhausted is True
    assert sc.pending().kind == "gain"
    reserve = sc.s.reserve1[3]
    sc.do("PICK_ELEMENT(air)")
    assert sc.p(0).hand == counts("air-1") and sc.s.reserve1[3] == reserve - 1


def test_a_player_loses_a_spell_to_the_box() -> None:
    """A-33: "a player" in a Curse is chosen by the Active Player; the Spell goes to the box."""
    sc = Scenario().action_phase(1).effect("test_curse_multi_b", controller=1)
    assert sc.pending().player == 1 and sc.pending().kind == "choose_player"
    sc.do("PICK_PLAYER(seat+1)")  # P0
    assert sc.pending().player == 0 and sc.pending().kind == "lose_spell"
    sc.do("PICK_SPELL(spell#2)")
    assert [sp.spell for sp in sc.p(0).spells] == ["test_combustion", "test_ice", "test_telepathy"]
    assert "test_growth" in sc.s.box_spells
    sc.check()


def test_gain_spell_element_and_put_a_card_on_top() -> None:
    """Gain (value-2 of the Spell's Element, X of them) and put_on_top from the discard pile."""
    sc = Scenario().deck(0, "water-1").action_phase(0).effect("test_earth_2", controller=0, x=2)
    assert sc.p(0).discard == counts("earth-2", "earth-2")
    assert sc.legal_names() == ["PICK_DISCARD(earth-2)", "DECLINE"]
    sc.do("PICK_DISCARD(earth-2)")
    assert sc.p(0).deck[-1] == code("earth-2") and sc.p(0).discard == counts("earth-2")
    sc.check()


def test_upgrade_to_the_higher_value_card() -> None:
    """Section 7 Higher-value: same Element, value + 1 (1 -> 2, 2 -> 3, never 3); the old card
    returns to its supply / reserve; an empty pile blocks the upgrade."""
    sc = Scenario().hand(0, "fire-1", "water-2", "air-3", "earth-1").supply("earth", 2, 0).action_phase(0)
    reserve, supply = sc.s.reserve1[0], list(sc.s.supply[0])
    sc.effect("test_earth_1", controller=0, x=3)
    assert sc.legal_names() == ["PICK_HAND(fire-1)", "PICK_HAND(water-2)", "DECLINE"]
    sc.do("PICK_HAND(fire-1)", "PICK_HAND(water-2)")
    assert sc.p(0).hand == counts("fire-2", "water-3", "air-3", "earth-1")
    assert sc.s.reserve1[0] == reserve + 1 and sc.s.supply[0] == [supply[0] - 1, supply[1]]
    assert sc.legal_names() == ["PICK_HAND(fire-2)", "DECLINE"]  # the new fire-2 may go on up
    sc.do("DECLINE").check()


def test_grant_actions_to_another_player() -> None:
    """4.12, target "another player": the caster cannot choose themselves."""
    sc = Scenario(num_players=3).hand(1, "fire-1", "fire-1").hand(2, "air-1").action_phase(0)
    sc.effect("test_telepathy", controller=0, x=1)
    assert sc.legal_names() == ["PICK_PLAYER(seat+1)", "PICK_PLAYER(seat+2)"]
    sc.do("PICK_PLAYER(seat+1)")
    assert (sc.pending().kind, sc.pending().player) == ("granted_action", 1)


def test_add_tokens_slot_choose_and_all() -> None:
    """A-62: tokens from the pool onto a slot's Curse, a chosen Curse (random colours) or every
    Curse (its own colour; a Multi-Element Curse gets a random one)."""
    sc = Scenario().curse(0, "test_curse_fire_a").curse(2, "test_curse_water_a").action_phase(0)
    sc.effect("test_curse_earth_b", controller=0)
    assert sc.s.track[0][0].tokens == (0, 0, 2, 0) and sc.s.tokens == [4, 4, 2, 4]
    sc.effect("test_curse_air_b", controller=0).do("PICK_CURSE(slot2 pos0)")
    assert sum(sc.s.track[2][0].tokens) == 2
    sc.effect("test_curse_air_c", controller=0)
    assert sc.s.track[0][0].tokens[0] == 1 and sc.s.track[2][0].tokens[1] >= 1
    sc.check()


def test_remove_tokens_and_move_the_marker_back() -> None:
    """Remove tokens from a chosen Curse (only Curses with tokens are offered); moving the marker
    back triggers nothing."""
    sc = Scenario().at(marker=4).curse(0, "test_curse_fire_a", tokens=(1, 2, 0, 0))
    sc.curse(1, "test_curse_fire_b").action_phase(0).effect("test_air_2", controller=0, x=2)
    # The only Curse with tokens is chosen automatically; X=2 tokens go back to the pool.
    assert sc.s.tokens == [4, 3, 4, 4] and sc.s.track[0][0].tokens == (0, 1, 0, 0)
    assert sc.s.marker == 3 and sc.events("curse_triggers") == []


def test_move_marker_forward_triggers_the_next_space() -> None:
    """Test Gale: the marker advances 1 space and the Curses there trigger (3.3.3)."""
    sc = Scenario().at(marker=2).curse(3, "test_curse_fire_a").action_phase(0)
    sc.effect("test_curse_air_a", controller=0)
    assert sc.s.marker == 3 and sc.p(0).discard[MADNESS] == 0
    sc.at(marker=3).effect("test_curse_air_a", controller=0)
    assert sc.s.marker == 4 and sc.p(0).discard[MADNESS] == 1 and sc.p(1).discard[MADNESS] == 1


def test_madness_under_curses_stops_quietly_when_the_pile_is_empty() -> None:
    """A-43: one Madness from the pile under each Curse; an empty pile stops it (not a loss)."""
    sc = Scenario().curse(0, "test_curse_fire_a").curse(1, "test_curse_fire_b").curse(3, "test_curse_air_a")
    sc.madness_pile(2).action_phase(0).effect("test_page_1", "arrival", controller=0)
    assert [c.madness for slot in sc.s.track for c in slot] == [1, 1, 0]
    assert not sc.s.is_terminal() and sc.s.madness_pile == []
    sc.check()


def test_discard_the_top_cards_of_the_deck() -> None:
    """Test Quake: each player discards their deck's top 2 (an empty deck is refilled, A-23)."""
    sc = Scenario().deck(0, "fire-1", "fire-2", "fire-3").discard(1, "air-1").action_phase(0)
    sc.effect("test_curse_earth_a", controller=0)
    assert sc.p(0).discard == counts("fire-1", "fire-2") and sc.p(0).deck == [code("fire-3")]
    assert sum(sc.p(1).discard) == 2 and sc.p(1).deck == []  # air-1 + the reshuffle Madness


def test_destroy_curse_by_effect_with_reward() -> None:
    """Test Blaze: destroy a face-up Curse, with the destroy reward."""
    sc = Scenario().curse(2, "test_curse_water_c", under=1).action_phase(0)
    sc.effect("test_fire_2", controller=0)
    assert sc.s.track[2] == [] and sc.p(0).discard[MADNESS] == 1
    sc.do("PICK_ELEMENT(water)")
    assert sc.p(0).discard[code("water-2")] == 1
    sc.check()


def test_modifier_until_next_monster_changes_costs() -> None:
    """4.10 hooks: Test Shade's arrival makes every activation cost 1 more until the next Monster;
    Test Focus lowers each player's destroy cost by 1."""
    sc = Scenario().hand(0, "earth-1", "earth-1").action_phase(0)
    sc.effect("test_page_4", "arrival", controller=0)
    assert [n for n in sc.legal_names() if n.startswith("ACTIVATE(spell#2")] == ["ACTIVATE(spell#2 X=1)"]
    sc.hand(0, "air-1", "air-1", "air-1").curse(0, "test_curse_fire_a").action_phase(0)
    sc.effect("test_air_3", controller=0, x=1).do("DECLINE")
    sc.hand(0, *("fire-1",) * 3).action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" in sc.legal_names()
    assert len(sc.p(1).mods) == 2  # Each player got Test Focus's modifier


@pytest.mark.parametrize("accept", [True, False])
def test_may_accept_or_decline(accept: bool) -> None:
    """8.2 "may", DP-E15: the affected player chooses; declining skips the whole nested part."""
    sc = Scenario().hand(0, "water-1").deck(0, "fire-1", "fire-2").action_phase(0)
    sc.effect("test_page_5", "bonus", controller=0)
    assert sc.legal_names() == ["ACCEPT", "DECLINE"] and sc.pending().player == 0
    sc.do("ACCEPT" if accept else "DECLINE")
    if accept:
        sc.do("PICK_HAND(fire-2)")
        assert sc.p(0).hand == counts("water-1", "fire-1") and sc.p(0).discard == counts("fire-2")
    else:
        assert sc.p(0).hand == counts("water-1") and sc.pending().player == 1


def test_reshuffle_by_effect_never_gives_madness() -> None:
    """Section 7 Shuffle: an effect shuffling the discard pile into the deck gives no Madness."""
    sc = Scenario().discard(0, "fire-1", "fire-2").action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.effect("test_air_3", controller=0, x=1).do("ACCEPT")
    assert sorted(sc.p(0).deck) == [code("fire-1"), code("fire-2")] and sum(sc.p(0).discard) == 0
    assert len(sc.s.madness_pile) == pile


def test_turn_start_trigger() -> None:
    """4.11 hooks: the Test Calm Magician draws 1 at the start of their turn."""
    sc = Scenario(magicians=("test_mag_calm", "test_mag_fire")).deck(0, "air-3", "air-1").hand(0, "fire-1")
    sc.at(marker=2).begin_turn(0)
    assert sc.p(0).hand == counts("fire-1", "air-3")
