"""End of the game (docs/rules.md section 6, A-05, A-25, A-71): win and the three ways to lose, and the
terminal state's API. Test pack fixtures."""

from __future__ import annotations

import pytest
from builders import Scenario

from bbom_env.engine import IllegalActionError

SIX = ("earth-1", "earth-1", "air-1", "air-1", "water-1", "water-1")


def _stock(sc: Scenario) -> Scenario:
    for p in range(len(sc.s.players)):
        sc.hand(p, *SIX).deck(p, *SIX)
    return sc


def _assert_over(sc: Scenario, outcome: str) -> None:
    s = sc.s
    assert s.is_terminal() and s.outcome == outcome
    assert s.returns() == [1.0 if outcome == "win" else -1.0] * len(s.players)
    assert s.legal_actions() == [] and s.current_player() == -1 and s.stack == []
    assert sc.pending().kind == "none"
    with pytest.raises(IllegalActionError, match="game over"):
        s.apply_action(0)


def test_win_by_vanquishing_the_last_monster_at_the_invocation_check() -> None:
    """6, A-05 "invocation_check": the marker reaches the Invocation space after round 6 with no
    Curse left: everyone wins (the End page has no further effect in the test pack, A-71)."""
    sc = _stock(Scenario(final_win_timing="invocation_check")).at(round=6, marker=4)
    sc.curse(4, "test_curse_fire_b", neutralized=True)
    sc.begin_turn(0)  # marker -> 5: the neutralized Curse does not trigger
    assert not sc.s.is_terminal()
    sc.s.track[4].clear()
    sc.s.curse_piles["fire"].insert(0, "test_curse_fire_b")
    sc.end_turn()  # P1's Monster phase: 5 -> Invocation space
    _assert_over(sc, "win")
    assert sc.events("bonus") == [] and sc.events("failure") == []
    sc.check()


def test_loss_by_failing_the_last_monster() -> None:
    """6 loss 2: a Curse (even neutralized) remains when round 6 reaches the Invocation space."""
    sc = _stock(Scenario()).at(round=6, marker=5).curse(1, "test_curse_water_a")
    sc.begin_turn(1)
    _assert_over(sc, "loss")
    assert "not vanquished" in sc.s.reason


def test_immediate_win_as_soon_as_round_6_is_clear() -> None:
    """A-05 default "immediate": destroying the last Curse of round 6 wins at once, even with
    turns of the round left."""
    sc = Scenario().at(round=6, marker=2).curse(3, "test_curse_earth_a").curse(4, "test_curse_earth_b")
    sc.hand(0, *("earth-1",) * 8).action_phase(0)
    sc.do("DESTROY_CURSE(slot3 pos0)", "DECLINE")
    assert not sc.s.is_terminal()
    sc.do("DESTROY_CURSE(slot4 pos0)")
    _assert_over(sc, "win")


def test_clearing_the_track_before_round_6_does_not_end_the_game() -> None:
    """6, [FAQ] 5: destroying every Curse of an earlier Monster ends neither round nor game."""
    sc = Scenario().at(round=5, marker=2).curse(0, "test_curse_air_a").hand(0, *("air-1",) * 4)
    sc.action_phase(0).do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert not sc.s.is_terminal() and sc.s.round == 5 and sc.pending().kind == "action"


def test_loss_when_a_madness_must_be_taken_from_an_empty_pile() -> None:
    """6 loss 1, 5.3: immediate, mid-turn."""
    sc = _stock(Scenario()).madness_pile(0).at(marker=1).curse(0, "test_curse_fire_a")
    sc.begin_turn(0)
    _assert_over(sc, "loss")
    assert "Madness pile" in sc.s.reason


def test_loss_when_every_player_is_eliminated() -> None:
    """6 loss 3, 5.4."""
    sc = Scenario(num_players=2).hand(0, *("madness",) * 6).hand(1, *SIX)
    sc.p(1).eliminated = True
    sc.hand(1).action_phase(0).end_turn()
    _assert_over(sc, "loss")


def test_losses_still_possible_before_the_final_check_with_invocation_timing() -> None:
    """A-05 "invocation_check": a clear track in round 6 does not protect from the empty-pile loss
    before the final check."""
    sc = _stock(Scenario(final_win_timing="invocation_check")).at(round=6, marker=1)
    sc.curse(0, "test_curse_fire_a").hand(0, *("fire-1",) * 4).action_phase(0)
    sc.do("DESTROY_CURSE(slot0 pos0)", "DECLINE")
    assert not sc.s.is_terminal()
    sc.madness_pile(0).action_phase(0).effect("test_curse_fire_a", controller=0)
    _assert_over(sc, "loss")
