"""Recuperation, drawing, the empty deck, receiving Madness and elimination (docs/rules.md section 5;
A-23, A-24, A-25, A-29, A-30, A-31; [FAQ] rulings 1 and 2). Test pack fixtures."""

from __future__ import annotations

from builders import Scenario, code, counts

from bbom_env.engine.model.constants import MADNESS

SIX = ("earth-1", "earth-1", "air-1", "air-1", "water-1", "water-1")


def test_recuperation_draws_up_to_exactly_six() -> None:
    """5.1: fewer than 6 cards in hand -> draw up to 6 (no discarding first)."""
    sc = Scenario().hand(0, "fire-1", "fire-1", "fire-1").deck(0, "air-1", "air-2", "air-3", "water-1")
    sc.hand(1, *SIX).deck(1, *SIX).action_phase(0).end_turn()
    assert sc.p(0).hand == counts("fire-1", "fire-1", "fire-1", "air-1", "air-2", "air-3")
    assert sc.p(0).deck == [sc.p(0).deck[0]] and sum(sc.p(0).discard) == 0


def test_recuperation_discards_non_madness_down_to_six() -> None:
    """5.1, DP-36, A-29: above 6 the player discards cards of their choice, never Madness."""
    sc = Scenario().hand(0, "madness", "madness", *SIX).hand(1, *SIX).deck(1, *SIX).action_phase(0)
    sc.end_turn()
    d = sc.pending()
    assert (d.kind, d.player) == ("recuperation_discard", 0)
    assert sc.legal_names() == ["PICK_HAND(water-1)", "PICK_HAND(earth-1)", "PICK_HAND(air-1)"]
    sc.do("PICK_HAND(earth-1)", "PICK_HAND(air-1)")
    assert sum(sc.p(0).hand) == 6 and sc.p(0).hand[MADNESS] == 2
    assert sc.p(0).discard == counts("earth-1", "air-1")
    assert sc.s.active == 1 and not sc.p(0).eliminated


def test_over_six_with_only_madness_left_is_eliminated_faq() -> None:
    """5.1 [FAQ] 2, 5.4 cause 4: 6 Madness + 1 Element card: the Element card is discarded, only
    Madness remain -> eliminated (the single legal discard is played automatically)."""
    sc = Scenario(num_players=3).hand(0, *("madness",) * 6, "fire-1")
    for p in (1, 2):
        sc.hand(p, *SIX).deck(p, *SIX[:2])
    sc.action_phase(0).end_turn()
    assert sc.p(0).eliminated
    assert sc.s.active == 1 and not sc.s.is_terminal()


def test_seven_madness_cannot_be_discarded_and_eliminate() -> None:
    """5.1: Madness cannot be discarded in Recuperation; 6+ Madness in hand eliminates."""
    sc = Scenario(num_players=3).hand(0, *("madness",) * 7).deck(0, "fire-1")
    for p in (1, 2):
        sc.hand(p, *SIX)
    sc.action_phase(0).end_turn()
    assert sc.p(0).eliminated


def test_five_madness_and_one_element_card_survive() -> None:
    """5.1: the elimination test is 6 Madness in hand after the discard/draw step."""
    sc = Scenario().hand(0, *("madness",) * 5).deck(0, "fire-1").hand(1, *SIX).action_phase(0)
    sc.end_turn()
    assert not sc.p(0).eliminated and sc.p(0).hand[MADNESS] == 5


def test_drawing_up_into_six_madness_eliminates() -> None:
    """5.1: the check comes after drawing."""
    sc = Scenario(num_players=3).hand(0, *("madness",) * 4).deck(0, "madness", "madness", "fire-1")
    for p in (1, 2):
        sc.hand(p, *SIX)
    sc.action_phase(0).end_turn()
    assert sc.p(0).eliminated


def test_only_the_active_player_refills_faq() -> None:
    """[FAQ] 1: other players keep fewer (or more) than 6 cards until their own Recuperation."""
    sc = Scenario().hand(0, *SIX).hand(1, "fire-1", "fire-1").deck(1, *SIX)
    sc.hand(1, *("fire-1",) * 2).action_phase(0).end_turn()
    assert sc.s.active == 1 and sum(sc.p(1).hand) == 2


def test_hand_size_modifier_refills_to_five() -> None:
    """4.11 hooks, 5.1: the Test Calm Magician's hand limit is 5."""
    sc = Scenario(magicians=("test_mag_calm", "test_mag_fire")).hand(0, "fire-1").deck(0, *SIX)
    sc.hand(1, *SIX).action_phase(0).end_turn()
    assert sum(sc.p(0).hand) == 5


def test_empty_deck_madness_into_discard_then_reshuffle() -> None:
    """5.2: drawing from an empty deck: receive a Madness into the discard pile, shuffle the
    discard pile into a new deck, go on drawing."""
    sc = Scenario().hand(0, *SIX[:4]).discard(0, "fire-2", "fire-3").hand(1, *SIX).action_phase(0)
    pile = len(sc.s.madness_pile)
    sc.end_turn()
    assert sum(sc.p(0).hand) == 6 and len(sc.p(0).deck) == 1 and sum(sc.p(0).discard) == 0
    assert len(sc.s.madness_pile) == pile - 1
    new = (code("fire-2"), code("fire-3"), MADNESS)
    assert sorted(sc.p(0).deck + [c for c in new for _ in range(sc.p(0).hand[c])]) == sorted(new)
    assert sc.events("reshuffle") == [(0, 3)]


def test_empty_deck_and_discard_the_madness_alone_is_drawn_a24() -> None:
    """A-24: deck and discard both empty: the received Madness becomes the deck and is drawn."""
    sc = Scenario().hand(0, *SIX[:5]).hand(1, *SIX).action_phase(0).end_turn()
    assert sc.p(0).hand[MADNESS] == 1 and sc.p(0).deck == [] and sum(sc.p(0).discard) == 0


def test_destroying_from_an_empty_deck_also_refills_it_a23() -> None:
    """A-23: an effect taking the top card of an empty deck (Test Ash: destroy it) first gives a
    Madness and reshuffles."""
    sc = Scenario().discard(0, "air-2").effect("test_curse_fire_c", controller=0)
    assert sum(sc.s.destroyed) == 2  # one card of each player (P1: the Madness it just received)
    assert sc.s.destroyed[MADNESS] + sc.s.destroyed[code("air-2")] == 2
    assert len(sc.p(0).deck) == 1


def test_empty_madness_pile_loses_at_once_a25() -> None:
    """5.3, 6, A-25: a player who must receive a Madness from an empty pile loses the game for
    everyone at once; the rest of the effect does not resolve."""
    sc = Scenario().madness_pile(0).action_phase(0).effect("test_curse_fire_a", controller=0)
    assert sc.s.is_terminal() and sc.s.outcome == "loss"
    assert sc.p(0).discard[MADNESS] == 0 and sc.p(1).discard[MADNESS] == 0
    assert sc.s.stack == [] and sc.s.returns() == [-1.0, -1.0]


def test_madness_pile_running_out_mid_effect() -> None:
    """A-25: with 1 Madness left, the Active Player receives it and the next player's Madness
    ends the game."""
    sc = Scenario().madness_pile(1).action_phase(0).effect("test_curse_fire_a", controller=0)
    assert sc.s.outcome == "loss" and sc.p(0).discard[MADNESS] == 1


def test_empty_deck_draw_with_empty_madness_pile_loses() -> None:
    """5.2 + 5.3: the reshuffle Madness cannot be taken -> loss."""
    sc = Scenario().madness_pile(0).hand(0, *SIX[:5]).discard(0, "fire-1").action_phase(0)
    sc.end_turn()
    assert sc.s.outcome == "loss"


def test_elimination_sends_every_card_to_the_box_a31() -> None:
    """5.4, A-31: hand, deck, discard, support and Spells go to the box; Madness too (not back to
    the pile)."""
    sc = Scenario(num_players=3).hand(0, *("madness",) * 6).deck(0, "fire-3").discard(0, "water-2")
    sc.support(0, "madness", "air-1").hand(1, *SIX).hand(2, *SIX)
    pile = len(sc.s.madness_pile)
    box = list(sc.s.box)
    sc.action_phase(0).end_turn()
    pl = sc.p(0)
    assert pl.eliminated and pl.deck == [] and pl.support_cards() == [] and pl.spells == []
    assert sum(pl.hand) == 0 and sum(pl.discard) == 0
    assert sc.s.box[MADNESS] == box[MADNESS] + 7 and len(sc.s.madness_pile) == pile
    for name in ("fire-3", "water-2", "air-1"):
        assert sc.s.box[code(name)] == box[code(name)] + 1
    assert sc.s.box_spells.count("test_growth") == 1
    sc.check()


def test_eliminated_players_are_skipped_by_turns_and_effects() -> None:
    """3.1, 5.4, 8.3: turns and effects skip eliminated players."""
    sc = Scenario(num_players=3)
    for p in (1, 2):
        sc.hand(p, *SIX).deck(p, *SIX[:3])
    sc.hand(0, *("madness",) * 6).action_phase(0).end_turn()
    assert sc.p(0).eliminated
    sc.end_turn()  # P1 -> P2
    assert sc.s.active == 2
    sc.end_turn()  # P2 -> P1 (P0 skipped)
    assert sc.s.active == 1
    sc.mark().effect("test_curse_fire_a", controller=1)
    assert [e[0] for e in sc.events("madness")] == [1, 2]


def test_all_players_eliminated_is_a_loss() -> None:
    """5.4, 6: if all players are eliminated, all lose."""
    sc = Scenario().hand(0, *("madness",) * 6).hand(1, *SIX).action_phase(0)
    sc.p(1).eliminated = True  # P1 already out (zones emptied below)
    sc.hand(1)
    sc.end_turn()
    assert sc.s.is_terminal() and sc.s.outcome == "loss" and "eliminated" in sc.s.reason
