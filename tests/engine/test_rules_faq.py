"""The 7 rulings of the official FAQ v1.3 that could be read (docs/rules.md section 0.1;
[FAQ-scribd] in docs/cards.md's "Sources"), one test each. Test pack fixtures (reconstructed cards)."""

from __future__ import annotations

import pytest
from builders import MOVE_BY_NAME, Scenario, counts

from bbom_env.engine import IllegalActionError
from bbom_env.engine.model.constants import MADNESS

SIX = ("earth-1", "earth-1", "air-1", "air-1", "water-1", "water-1")
# test_page_6 ends round 1: its Bonus refreshes an exhausted Spell (none: nothing to decide).
GRIMOIRE = ("test_cover_a", "test_page_6", "test_page_1", "test_page_2", "test_page_3", "test_page_5")
GRIMOIRE += ("test_end",)


def test_faq1_only_the_active_player_refills_to_six() -> None:
    """FAQ 1 (5.1): only the Active Player refills; another player may begin their turn with more
    or fewer than 6 cards, even none."""
    sc = Scenario().hand(0, "water-1").deck(0, *SIX).hand(1).deck(1, "fire-1", "fire-2")
    sc.action_phase(0).effect("test_growth", controller=1, x=1)  # P1 draws 1 on P0's turn
    assert sum(sc.p(1).hand) == 1
    sc.end_turn()
    assert sum(sc.p(0).hand) == 6
    assert sc.s.active == 1 and sc.p(1).hand == counts("fire-1")  # P1's turn starts with 1 card


def test_faq2_madness_discarded_by_effects_but_not_in_recuperation() -> None:
    """FAQ 2 (section 7 Discard, A-22): an effect may make you discard a Madness; Recuperation
    discards only non-Madness, and only-Madness-left eliminates."""
    sc = Scenario().hand(0, "madness", "fire-1").action_phase(0)
    sc.effect("test_curse_fire_b", controller=0)  # each player discards 1 card from hand
    assert "PICK_HAND(madness)" in sc.legal_names()
    sc.do("PICK_HAND(madness)")
    assert sc.p(0).discard == counts("madness")
    sc = Scenario(num_players=3).hand(0, *("madness",) * 6, "fire-1", "fire-2").hand(1, *SIX).hand(2, *SIX)
    sc.action_phase(0).end_turn()
    assert sc.legal_names() == ["PICK_HAND(fire-1)", "PICK_HAND(fire-2)"]
    sc.do("PICK_HAND(fire-2)")  # the other discard is then forced
    assert sc.p(0).eliminated and sc.s.box[MADNESS] >= 6


def test_faq3_granted_actions_may_be_taken_in_part() -> None:
    """FAQ 3 (4.12): a player given Actions may take only some of them and pass."""
    sc = Scenario(magicians=("test_mag_earth", "test_mag_fire")).hand(0, *("air-1",) * 6)
    sc.hand(1, "fire-1", "fire-1", "fire-1", "fire-1").action_phase(0)
    sc.do("ACTIVATE(spell#3 X=3)")
    assert (sc.pending().kind, sc.pending().remaining) == ("granted_action", 3)
    sc.do("ACQUIRE(fire-2)", "END")
    assert (sc.pending().kind, sc.pending().player) == ("action", 0)
    assert sc.p(1).hand == counts("fire-1", "fire-1")


def test_faq4_curse_placement_order_is_fixed() -> None:
    """FAQ 4 (3.3.5, A-01): Multi-Element Curses take the leftmost slots in draw order, then the
    Monster's symbols left to right; the players choose nothing."""
    sc = Scenario(difficulty=3).grimoire(*GRIMOIRE)
    for p in (0, 1):
        sc.hand(p, *SIX).deck(p, *SIX)
    sc.curse_pile_top("multi", "test_curse_multi_a").curse(0, "test_curse_fire_c").at(round=1, marker=5)
    sc.begin_turn(0)  # Failure of test_page_6 (each exhausts a Spell), then Test Wisp: air, air, fire
    while sc.pending().kind == "exhaust_spell":
        sc.do(sc.legal_names()[0])
    types = [sc.s.pack.curses[slot[0].curse].type if slot else None for slot in sc.s.track]
    assert sc.s.track[0][0].curse == "test_curse_multi_a"
    assert types == ["multi", "air", "air", "fire", None]  # 1 Multi in round 2 of level 3


def test_faq5_a_round_always_lasts_five_turns() -> None:
    """FAQ 5 (3.1): with every Curse destroyed the round goes on until the marker passes space 5."""
    sc = Scenario().at(round=1, marker=2).grimoire(*GRIMOIRE)
    for p in (0, 1):
        sc.hand(p, *SIX).deck(p, *SIX * 2)
    sc.begin_turn(0)
    assert sc.s.curses_on_track() == 0
    for marker in (4, 5):
        sc.end_turn()
        assert (sc.s.round, sc.s.marker) == (1, marker)
    sc.end_turn()
    assert (sc.s.round, sc.s.marker) == (2, 1) and sc.events("bonus")


def test_faq6_each_action_is_paid_independently() -> None:
    """FAQ 6 (4.0): three value-2 cards do not buy two value-3 cards: one value-3 for two of them,
    then one value-2 with the third."""
    sc = Scenario(payment="manual").hand(0, "air-2", "air-2", "air-2").action_phase(0)
    sc.do("ACQUIRE(air-3)", "PAY_HAND(air-2)", "PAY_HAND(air-2)", "PAY_CONFIRM")
    assert "ACQUIRE(air-3)" not in sc.legal_names()
    with pytest.raises(IllegalActionError):
        sc.do("ACQUIRE(air-3)")
    sc.do("ACQUIRE(air-2)", "PAY_HAND(air-2)", "PAY_CONFIRM")
    assert sc.p(0).discard == counts("air-2", "air-2", "air-2", "air-3", "air-2")


def test_faq7_value1_element_cards_cannot_be_acquired() -> None:
    """FAQ 7 (4.3, A-42): there is no Acquire of a value-1 card: no such move exists, and a hand
    of value-1 cards offers only value-2/3 acquisitions."""
    assert not [n for n in MOVE_BY_NAME if n.startswith("ACQUIRE") and n.endswith("-1)")]
    sc = Scenario().hand(0, "earth-1").action_phase(0)
    assert not [n for n in sc.legal_names() if n.startswith("ACQUIRE")]
    sc.hand(0, "earth-1", "earth-1").action_phase(0)
    assert [n for n in sc.legal_names() if n.startswith("ACQUIRE")] == ["ACQUIRE(earth-2)"]
