"""Dark Curses (docs/rules.md sections 3.3.3, 4.4, 4.7, 9.1; V-07 to V-11, V-27; A-08, A-45
to A-48, A-68, A-75): destroyed with 4 Dark Matter only, the normal reward, protected from "destroy a
Curse" effects and from Element tokens, stacked on the track, and their three known texts."""

from __future__ import annotations

import random

import pytest
from builders import Scenario, names

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.core.rules import MODULES, CurseRule, Module, register
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import MAX_STACK
from bbom_env.engine.model.records import SupportSlot, TempModifier
from bbom_env.engine.modifiers.hooks import ability_lost, spell_limit, support_capacity, triggers
from bbom_env.engine.play.decision import pending
from bbom_env.modules.dark_matter.checks import check_fields
from bbom_env.modules.dark_matter.content import DARK_SYMBOL
from bbom_env.modules.dark_matter.dark_curses import STAT, check_dark_curses, next_space_slot
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER
from bbom_env.modules.phobias.state import PHOBIA_BASE

DM = "PAY_HAND(dark-matter)"


def game(num_players: int = 2, payment: str = "manual", **config: object) -> Scenario:
    """A scenario of the test pack with the module; every decision is asked, forced ones too (an
    effect resolved on top of a menu with END alone stops there)."""
    return Scenario(
        num_players=num_players,
        pack_overrides=(PACK,),
        modules=(NAME,),
        payment=payment,
        skip_forced_decisions=False,
        **config,
    )


def give_dark_matter(sc: Scenario, seat: int, n: int) -> Scenario:
    dm_state(sc.s).supply -= n
    sc.p(seat).hand[DARK_MATTER] += n
    sc.s.legal_cache = None
    return sc


def track(sc: Scenario) -> list[list[str]]:
    return [[c.curse for c in stack] for stack in sc.s.track]


# -- Destroy a Dark Curse (section 4.7, V-07, A-48, A-08) --------------------------------------------


def test_destroying_a_dark_curse_costs_four_dark_matter_and_nothing_else(dm: None) -> None:
    """Section 4.7, V-07: Element cards (even 4 of every Element) and Spontaneous Elements never pay
    it; 3 Dark Matter cards are not enough, 4 are."""
    sc = game().curse(0, "dark_curse_04").hand(0, *["fire-1", "water-1", "earth-1", "air-1"] * 3)
    give_dark_matter(sc, 0, 3).action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    give_dark_matter(sc, 0, 1)
    assert "DESTROY_CURSE(slot0 pos0)" in sc.legal_names()
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert sc.legal_names() == [DM, "PAY_CANCEL"]  # only Dark Matter is offered
    sc.do(DM, DM, DM)
    assert "PAY_CONFIRM" not in sc.legal_names()
    sc.do(DM, "PAY_CONFIRM")
    assert sc.p(0).hand[DARK_MATTER] == 0 and sc.p(0).discard[DARK_MATTER] == 4
    assert sum(sc.p(0).hand) == 12  # no Element card spent
    sc.check()


def test_dark_matter_in_the_support_pool_pays_too(dm: None) -> None:
    """Section 4.7 [PROPOSED]: from hand and/or support pool, as every payment (4.0)."""
    sc = game(payment="auto").curse(0, "dark_curse_04")
    give_dark_matter(sc, 0, 2)
    dm_state(sc.s).supply -= 2
    sc.p(1).support = [SupportSlot(DARK_MATTER), SupportSlot(DARK_MATTER)]
    sc.action_phase(0).do("DESTROY_CURSE(slot0 pos0)")
    assert sc.s.track[0] == [] and sc.p(1).support == []
    sc.check()


def test_the_reward_is_a_value_2_element_card_of_choice_never_dark_matter(dm: None) -> None:
    """A-48 (A-09, A-10): the normal reward, any Element with a value-2 card left; the Dark Curse
    goes to the bottom of the Dark Curse pile (A-08); both destroy statistics count it."""
    sc = game(payment="auto").curse(2, "dark_curse_04").supply("earth", 2, 0)
    give_dark_matter(sc, 0, 5).action_phase(0).do("DESTROY_CURSE(slot2 pos0)")
    assert pending(sc.s).kind == "destroy_reward"
    assert sc.legal_names() == ["PICK_ELEMENT(fire)", "PICK_ELEMENT(water)", "PICK_ELEMENT(air)", "DECLINE"]
    sc.do("PICK_ELEMENT(air)")
    assert names(sc.p(0).discard) == ["air-2"] + ["dark-matter"] * 4
    assert sc.p(0).hand[DARK_MATTER] == 1 and dm_state(sc.s).supply == 23  # no Dark Matter reward
    assert sc.s.curse_piles[DARK_SYMBOL][0] == "dark_curse_04"
    assert sc.s.stats[STAT] == 1 and sc.s.stats["curses_destroyed"] == 1
    sc.check()


def test_a_destroyed_dark_curse_can_go_out_of_play(dm: None) -> None:
    """A-08 alternative (``destroyed_curse_destination="out"``) holds for Dark Curses too."""
    sc = game(payment="auto", destroyed_curse_destination="out").curse(0, "dark_curse_04")
    give_dark_matter(sc, 0, 4).action_phase(0).do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert (
        sc.s.curse_piles["out"] == ["dark_curse_04"] and "dark_curse_04" not in sc.s.curse_piles[DARK_SYMBOL]
    )
    sc.check()


def test_element_curses_keep_their_cost_beside_a_dark_curse(dm: None) -> None:
    """Section 4.4: only the Dark Curse's type has a module rule; a fire Curse still costs 4 fire."""
    sc = game().curse(0, "dark_curse_04").curse(1, "test_curse_fire_a").hand(0, *["fire-1"] * 4)
    sc.action_phase(0)
    destroy = [n for n in sc.legal_names() if n.startswith("DESTROY")]
    assert destroy == ["DESTROY_CURSE(slot1 pos0)"]


def test_a_curse_rule_must_name_a_curse_type_of_its_module() -> None:
    """The seam refuses a rule for a Curse type the module does not declare."""
    with pytest.raises(ValueError, match="curse_rules names Curse type 'nope'"):
        register(Module(name="bad_rules", curse_rules=(CurseRule("nope", lambda s, p, c: (0,) * 5),)))
    assert "bad_rules" not in MODULES


# -- V-07 / V-08: effects ----------------------------------------------------------------------------


@pytest.mark.parametrize("by_effect", [False, True])
def test_destroy_a_curse_effects_skip_dark_curses_unless_switched(dm: None, by_effect: bool) -> None:
    """V-07: "Destroy a Curse" (a Spell, the Black Book) cannot pick a Dark Curse unless
    ``dark_curse_destroy_by_effect``; neutralizing can."""
    sc = game(dark_curse_destroy_by_effect=by_effect).curse(0, "dark_curse_04").curse(1, "test_curse_fire_a")
    sc.curse(2, "test_curse_water_a").effect("test_fire_2", controller=0)
    expected = ["PICK_CURSE(slot1 pos0)", "PICK_CURSE(slot2 pos0)"]
    assert sc.legal_names() == (["PICK_CURSE(slot0 pos0)"] if by_effect else []) + expected
    sc.do(sc.legal_names()[0])
    if by_effect:  # destroyed by effect: back under its pile, counted as a Dark Curse
        assert sc.s.track[0] == [] and sc.s.stats[STAT] == 1
    sc.check()


def test_a_dark_curse_can_be_neutralized_by_an_effect(dm: None) -> None:
    """V-07: neutralizing is allowed (the Black Book's "Neutralize 1 Curse.")."""
    sc = game().curse(0, "dark_curse_04").curse(1, "test_curse_fire_a")
    sc.effect("black_page_inside_03", "front_spell", controller=0)
    assert sc.legal_names() == ["PICK_CURSE(slot0 pos0)", "PICK_CURSE(slot1 pos0)"]
    sc.do("PICK_CURSE(slot0 pos0)")
    assert sc.s.track[0][0].neutralized_at >= 0


def test_element_tokens_never_go_on_a_dark_curse(dm: None) -> None:
    """V-08: "every Curse" (random or the Curse's own Element), "choose a Curse" and "the Curse on
    slot S2" token effects all skip a Dark Curse."""
    sc = game().curse(0, "dark_curse_04").curse(1, "test_curse_fire_a").curse(2, "dark_curse_05")
    sc.effect("dark_curse_09")  # "Add 1 token at random to every Curse."
    assert [c.tokens for c in (sc.s.track[0][0], sc.s.track[2][0])] == [(0, 0, 0, 0)] * 2
    assert sum(sc.s.track[1][0].tokens) == 1
    sc.effect("test_curse_air_c")  # "every Curse", a token of its own Element
    assert sc.s.track[1][0].tokens[0] >= 1 and not any(sc.s.track[0][0].tokens)
    sc.effect("test_curse_earth_b")  # 2 earth tokens on slot S2's Curse: a Dark Curse there
    assert not any(sc.s.track[0][0].tokens)
    sc.effect("test_curse_air_b", controller=0)  # the controller chooses the Curse
    assert sc.legal_names() == ["PICK_CURSE(slot1 pos0)"]
    sc.do("PICK_CURSE(slot1 pos0)")
    assert not any(sc.s.track[0][0].tokens) and not any(sc.s.track[2][0].tokens)
    sc.check()


def test_the_invariant_refuses_tokens_on_a_dark_curse(dm: None) -> None:
    sc = game().curse(0, "dark_curse_04", tokens=(1, 0, 0, 0))
    with pytest.raises(AssertionError, match=r"Dark Curse dark_curse_04 holds Element tokens \(V-08\)"):
        check_dark_curses(sc.s)


# -- stacks (V-09, A-45, A-46, section 4.4) --------------------------------------------------------------


def test_a_stacked_space_triggers_left_stack_then_right_each_top_first(dm: None) -> None:
    """Section 3.3.3, A-46: entering space 3 triggers the left slot's stack top to bottom, then the
    right slot's; a neutralized Curse of a stack does not trigger."""
    sc = game().at(round=1, marker=2)
    for slot, cid in ((1, "dark_curse_04"), (1, "dark_curse_11"), (2, "dark_curse_12"), (2, "dark_curse_10")):
        sc.curse(slot, cid)
    sc.curse(2, "test_curse_fire_a", neutralized=sc.s.turn - 1)  # released after the Monster phase
    sc.madness_pile(30).mark().begin_turn(1)
    assert sc.events("curse_triggers") == [
        ("dark_curse_11",),
        ("dark_curse_04",),
        ("dark_curse_10",),
        ("dark_curse_12",),
    ]


def test_destroy_offers_every_face_up_curse_of_a_stack(dm: None) -> None:
    """Section 4.4 ("in any order you like"): any stack position; a neutralized one is not. Only
    Dark Curses lie on another Curse (V-09)."""
    sc = game().curse(1, "test_curse_fire_a").curse(1, "dark_curse_04", neutralized=True)
    sc.curse(1, "dark_curse_06").hand(0, *["fire-1"] * 4)
    give_dark_matter(sc, 0, 4).action_phase(0)
    assert [n for n in sc.legal_names() if n.startswith("DESTROY")] == [
        "DESTROY_CURSE(slot1 pos0)",  # the top one
        "DESTROY_CURSE(slot1 pos2)",  # the bottom one
    ]
    sc.do("DESTROY_CURSE(slot1 pos2)", *["PAY_HAND(fire-1)"] * 4, "PAY_CONFIRM", "DECLINE")
    assert track(sc)[1] == ["dark_curse_04", "dark_curse_06"]
    sc.check()


def _spreading(sc: Scenario, slot: int, *stacks: tuple[int, list[str]]) -> Scenario:
    """ "Add 1 Dark Curse to the next Curse space." on ``slot`` with these other stacks, the Dark
    Curse pile's top being dark_curse_05, then resolved."""
    sc.curse(slot, "dark_curse_03")
    for s, cids in stacks:
        for cid in cids:
            sc.curse(s, cid)
    if "dark_curse_05" in sc.s.curse_piles[DARK_SYMBOL]:
        sc.curse_pile_top(DARK_SYMBOL, "dark_curse_05")
    return sc.mark().effect("dark_curse_03")


@pytest.mark.parametrize(
    ("slot", "stacks", "expect_slot"),
    [
        (0, (), 1),  # S2 -> space 3: both slots empty, the left first (V-09)
        (0, ((1, ["test_curse_fire_a"]),), 2),  # the left taken: the empty right slot
        (0, ((1, ["test_curse_fire_a"]), (2, ["test_curse_water_a"])), 2),  # on the right stack
        (
            0,
            ((1, ["test_curse_fire_a"]), (2, ["test_curse_water_a", "dark_curse_07", "dark_curse_06"])),
            1,
        ),
        (1, (), 3),  # S3L -> space 4
        (2, ((3, ["test_curse_earth_a", "dark_curse_07"]),), 3),  # S3R -> space 4, on top (3 deep)
        (3, ((4, ["test_curse_air_a"]),), 4),  # S4 -> space 5, on top
    ],
)
def test_add_a_dark_curse_to_the_next_curse_space(
    dm: None, slot: int, stacks: tuple[tuple[int, list[str]], ...], expect_slot: int
) -> None:
    """V-09, A-45: the next Curse space after the triggering Curse's own; an empty slot first (the
    left one first), else on top of the right stack of space 3 unless it is 3 deep."""
    sc = _spreading(game(), slot, *stacks)
    assert track(sc)[expect_slot] == dict(stacks).get(expect_slot, []) + ["dark_curse_05"]
    assert sc.events("dark_curse_added") == [(expect_slot, "dark_curse_05")]
    assert "dark_curse_05" not in sc.s.curse_piles[DARK_SYMBOL]
    sc.check()


@pytest.mark.parametrize(
    ("slot", "stacks", "pile"),
    [
        (4, (), True),  # from space 5 the Invocation space comes next: nothing
        (  # both stacks of space 3 are 3 deep: nothing (V-09 "if possible")
            0,
            (
                (1, ["test_curse_fire_a", "dark_curse_07", "dark_curse_08"]),
                (2, ["test_curse_water_a", "dark_curse_09", "dark_curse_10"]),
            ),
            True,
        ),
        (3, ((4, ["test_curse_air_a", "dark_curse_07", "dark_curse_08"]),), True),  # space 5 full
        (0, (), False),  # the Dark Curse pile is empty
    ],
)
def test_add_a_dark_curse_does_nothing_when_impossible(
    dm: None, slot: int, stacks: tuple[tuple[int, list[str]], ...], pile: bool
) -> None:
    sc = game()
    if not pile:
        sc.s.curse_piles["out"] = [c for c in sc.s.curse_piles[DARK_SYMBOL] if c != "dark_curse_03"]
        sc.s.curse_piles[DARK_SYMBOL] = ["dark_curse_03"]  # only the one put on the track
    before = track(sc)
    sc = _spreading(sc, slot, *stacks)
    after = track(sc)
    assert sc.events("dark_curse_added") == []
    assert sum(map(len, after)) == sum(map(len, before)) + 1 + sum(len(c) for _s, c in stacks)
    assert all(len(s) <= MAX_STACK for s in sc.s.track)
    sc.check()


def test_next_space_slot_from_space_5_is_none(dm: None) -> None:
    assert next_space_slot(game().s, 5) is None


def test_a_triggered_spreading_dark_stacks_a_dark_curse_that_triggers_later(dm: None) -> None:
    """V-09 through the Monster phase: the marker enters space 2, Spreading Dark adds a Dark Curse on
    space 3 (on top of the Curse there, offset); it triggers when the marker enters space 3."""
    sc = game().at(round=1, marker=1).curse(0, "dark_curse_03").curse(1, "test_curse_fire_a")
    sc.curse(2, "test_curse_water_a").curse_pile_top(DARK_SYMBOL, "dark_curse_04").madness_pile(30)
    sc.mark().begin_turn(1)
    assert track(sc)[2] == ["test_curse_water_a", "dark_curse_04"]
    assert sc.events("curse_triggers") == [("dark_curse_03",)]
    sc.check().end_turn()
    while pending(sc.s).kind != "action":
        sc.do(sc.s.legal_actions()[0])
    assert ("dark_curse_04",) in sc.events("curse_triggers")
    sc.check()


# -- "All players discard 1 Element card of value 2 or 3 ..." (V-11, A-47) -------------------------


def test_break_card_everyone_chooses_first_then_the_cards_are_dealt(dm: None) -> None:
    """V-11, A-47: in turn order from the Active Player each player chooses a value-2/3 Element card
    of their hand (never Dark Matter), which is destroyed; no such card: nothing; the value-1 cards
    of its Element (as many as its value) come from the reserve to the discard pile once all chose."""
    sc = game(num_players=3).at(round=1, marker=1).curse(0, "dark_curse_02")
    sc.hand(0, "fire-2", "water-3", "fire-1").hand(1, "earth-3", "air-2").hand(2, "fire-1")
    give_dark_matter(sc, 2, 2)
    reserve = list(sc.s.reserve1)
    sc.begin_turn(2)  # the marker enters space 2: the Curse triggers, player 2 the Active Player
    assert pending(sc.s).kind == "break_card" and pending(sc.s).player == 0  # player 2 has none
    assert sc.legal_names() == ["PICK_HAND(fire-2)", "PICK_HAND(water-3)"]
    sc.do("PICK_HAND(water-3)")
    assert pending(sc.s).player == 1 and names(sc.p(0).discard) == []  # not dealt yet
    assert dm_state(sc.s).owed == [(0, 1, 3)]
    sc.check()
    restored = from_json(sc.s.to_json())  # a save in the middle keeps the debt
    assert dm_state(restored).owed == [(0, 1, 3)]
    sc.do("PICK_HAND(earth-3)")
    assert names(sc.p(0).discard) == ["water-1"] * 3 and names(sc.p(1).discard) == ["earth-1"] * 3
    assert names(sc.p(2).discard) == [] and sc.p(2).hand[DARK_MATTER] == 2
    assert sc.s.destroyed[5] == 1 and sc.s.destroyed[8] == 1  # water-3, earth-3 destroyed
    assert [reserve[e] - sc.s.reserve1[e] for e in range(4)] == [0, 3, 3, 0]
    assert dm_state(sc.s).owed == [] and pending(sc.s).kind == "action"
    sc.check()


def test_break_card_shortage_is_dealt_round_robin_from_the_active_player(dm: None) -> None:
    """V-11: 3 fire-1 cards left for debts of 3 (player 2, the Active Player), 2 (player 0) and 3
    (player 1): one at a time from the Active Player: 2, 0, 1."""
    sc = game(num_players=3).at(active=2)
    sc.hand(0, "fire-2", "earth-1").hand(1, "fire-3", "earth-1").hand(2, "fire-3", "earth-1")
    sc.s.box[0] += sc.s.reserve1[0] - 3
    sc.s.reserve1[0] = 3
    sc.effect("dark_curse_02").do("PICK_HAND(fire-3)", "PICK_HAND(fire-2)", "PICK_HAND(fire-3)")
    assert [names(sc.p(p).discard) for p in range(3)] == [["fire-1"], ["fire-1"], ["fire-1"]]
    assert sc.s.reserve1[0] == 0 and sc.events("break_card_dealt") == [(((2, 0, 2), (0, 0, 1), (1, 0, 2)),)]
    sc.check()


def test_break_card_shortage_serves_the_first_players_first(dm: None) -> None:
    """V-11: 1 card left: the Active Player (player 1) gets it, player 0 nothing."""
    sc = game().at(active=1).hand(0, "earth-2", "fire-1").hand(1, "earth-2", "fire-1")
    sc.s.box[6] += sc.s.reserve1[2] - 1
    sc.s.reserve1[2] = 1
    sc.effect("dark_curse_02").do("PICK_HAND(earth-2)", "PICK_HAND(earth-2)")
    assert names(sc.p(1).discard) == ["earth-1"] and names(sc.p(0).discard) == []
    sc.check()


def test_break_card_twice_for_a_doubled_player_owes_the_sum(dm: None) -> None:
    """V-11 with V-25 (a Curse part that targets every player applied twice, the rule point
    ``curse_part_times``): that player chooses twice and owes both."""
    sc = game().at(active=0).hand(0, "fire-2", "water-3", "air-1").hand(1, "air-1")
    mod = {"kind": "replace", "point": "curse_part_times", "value": 2}
    sc.p(0).mods = [TempModifier(mod, "until_next_monster", "test")]
    sc.effect("dark_curse_02").do("PICK_HAND(fire-2)")
    assert pending(sc.s).kind == "break_card" and pending(sc.s).player == 0  # the second time
    assert dm_state(sc.s).owed == [(0, 0, 2)]
    sc.do("PICK_HAND(water-3)")
    assert names(sc.p(0).discard) == ["fire-1"] * 2 + ["water-1"] * 3 and names(sc.p(1).discard) == []
    assert dm_state(sc.s).owed == [] and pending(sc.s).kind == "action"
    sc.check()


def test_the_owed_invariant(dm: None) -> None:
    sc = game()
    dm_state(sc.s).owed = [(0, 0, 2)]
    with pytest.raises(AssertionError, match="with no pending break_card op"):
        check_dark_curses(sc.s)
    dm_state(sc.s).owed = [(7, 0, 2)]
    with pytest.raises(AssertionError, match=r"^ext\.dark_matter\.owed\[0\]: \(7, 0, 2\) is no \(seat"):
        check_fields(sc.s)


# -- "All players lose their Ability until the next Monster." (V-10, V-27, A-68, A-75) -----------------


def _lost_ability_game() -> Scenario:
    """Player 0 the blue Magician (5 support slots) with 5 support cards, a Madness among them;
    player 1 the green Magician (6 Spells) with 6 Spells; player 2 a triggered ability."""
    sc = game(num_players=3, magicians=("test_mag_water", "test_mag_earth", "test_mag_air")).at(active=0)
    sc.support(0, "fire-1", "water-2", "madness", "earth-1", "air-3")
    sc.spells(1, *[sp.spell for sp in sc.p(1).spells], "test_fire_2", "test_water_1")
    return sc


def test_losing_abilities_shrinks_the_blue_and_green_magicians(dm: None) -> None:
    """V-10, V-27, A-75 (section 9.1 rulings): the blue Magician discards support cards of her
    choice (a Madness too) down to 3; the green Magician puts a Spell of his choice in the box;
    every ability, passive and activated, is off."""
    sc = _lost_ability_game()
    assert support_capacity(sc.s, 0) == 5 and spell_limit(sc.s, 1) == 6
    sc.effect("dark_curse_01")
    assert pending(sc.s).kind == "discard" and pending(sc.s).player == 0
    assert sc.legal_names() == [f"PICK_SUPPORT(seat+0 slot{s})" for s in range(5)]
    sc.do("PICK_SUPPORT(seat+0 slot2)", "PICK_SUPPORT(seat+0 slot2)")  # the Madness, then earth-1
    assert names(sc.p(0).discard) == ["earth-1", "madness"] and len(sc.p(0).support) == 3
    assert pending(sc.s).kind == "lose_spell" and pending(sc.s).player == 1
    sc.do("PICK_SPELL(spell#4)")
    assert len(sc.p(1).spells) == 5 and sc.s.box_spells[-1] == "test_fire_2"
    assert support_capacity(sc.s, 0) == 3 and spell_limit(sc.s, 1) == 5
    assert all(ability_lost(sc.s, p) for p in range(3)) and triggers(sc.s, 2, "curse_destroyed") == []
    sc.check()


def test_abilities_come_back_at_the_next_monster_not_the_cards(dm: None) -> None:
    """V-10, A-68: the modifier ends at the page turn (after the Bonus or Failure, before the next
    Monster's Curses); the capacities come back, the discarded cards and the lost Spell do not."""
    sc = _lost_ability_game()
    sc.effect("dark_curse_01")
    sc.do("PICK_SUPPORT(seat+0 slot0)", "PICK_SUPPORT(seat+0 slot0)", "PICK_SPELL(spell#0)")
    sc.at(round=1, marker=5).madness_pile(30).mark().begin_turn(1)  # the marker leaves space 5
    assert sc.events("bonus") and not sc.events("monster")  # the Bonus resolves, then the page turns
    assert support_capacity(sc.s, 0) == 3 and ability_lost(sc.s, 0)  # still lost during the Bonus
    while pending(sc.s).kind != "action":
        sc.do(sc.s.legal_actions()[-1])
    assert [e[0] for e in sc.events("monster")] == [2]  # round 2's Monster came
    assert support_capacity(sc.s, 0) == 5 and spell_limit(sc.s, 1) == 6
    assert not any(ability_lost(sc.s, p) for p in range(3))
    assert len(sc.p(0).support) == 3 and len(sc.p(1).spells) == 5
    sc.check()


def test_the_blue_magician_with_four_phobias_is_eliminated(dm: None) -> None:
    """V-27, A-75: she discards the non-Phobia cards; more than 3 slots of Phobias: eliminated."""
    sc = _lost_ability_game()
    sc.support(0)
    sc.p(0).support = [SupportSlot(PHOBIA_BASE + i) for i in range(4)] + [SupportSlot(0)]
    sc.effect("dark_curse_01")
    assert sc.legal_names() == ["PICK_SUPPORT(seat+0 slot4)"]  # a Phobia is never discarded
    sc.do("PICK_SUPPORT(seat+0 slot4)")  # then 4 Phobias in 3 slots
    assert sc.p(0).eliminated


def test_a_magician_whose_ability_raises_nothing_keeps_madness_beyond_capacity(dm: None) -> None:
    """A-26: a Madness beyond capacity stays; losing an ability that raised no capacity asks
    nothing of that player."""
    sc = _lost_ability_game().support(2, "fire-1", "water-1", "earth-1", "madness")
    sc.effect("dark_curse_01")
    while pending(sc.s).kind != "action":
        assert pending(sc.s).player != 2
        sc.do(sc.s.legal_actions()[0])
    assert len(sc.p(2).support) == 4


def test_no_activated_ability_while_lost(dm: None) -> None:
    sc = game(magicians=("test_mag_fire", "test_mag_earth")).hand(0, "fire-1").action_phase(0)
    assert "ABILITY" in sc.legal_names()
    sc.effect("dark_curse_01")
    assert "ABILITY" not in sc.legal_names()


# -- random play ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_stacks_and_invariants(dm: None, players: int) -> None:
    """Random play with the module and Dark Matter in hand, both payment modes, Spreading Dark on
    top of the Dark Curse pile: every Curse stack stays at most 3 deep (``MAX_STACK``, checked by
    the invariants) and the module's invariants hold after every move."""
    placed = 0
    for payment in ("auto", "manual"):
        seed = players * 10 + (payment == "manual")
        state = new_game(GameConfig(seed=seed, num_players=players, modules=(NAME,), payment=payment))
        st = dm_state(state)
        for pl in state.players:
            st.supply -= 4
            pl.hand[DARK_MATTER] += 4
        pile = state.curse_piles[DARK_SYMBOL]
        pile.remove("dark_curse_03")
        pile.append("dark_curse_03")
        state.legal_cache = None
        rng = random.Random(seed)
        for _ in range(400):
            if state.over:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            check_invariants(state)
            assert all(len(s) <= MAX_STACK for s in state.track)
        placed += sum(1 for e in state.log if e[1] == "curse_placed" and e[3].startswith("dark_curse"))
    assert placed >= 1  # Dark Curses were on the track
