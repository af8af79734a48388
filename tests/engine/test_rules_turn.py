"""Turn structure (docs/rules.md sections 3.1-3.3 and 3.6): turn order, Concentration, the Monster phase
on the Invocation track, end of round, New Monster, the last round (A-05). Test pack fixtures."""

from __future__ import annotations

import pytest
from builders import Scenario

from bbom_env.engine import IllegalActionError
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import TempModifier

HAND = ("fire-1", "water-1", "earth-1", "air-1", "earth-1", "earth-1")
GRIMOIRE = (
    "test_cover_a",
    "test_page_1",
    "test_page_2",
    "test_page_3",
    "test_page_5",
    "test_page_6",
    "test_end",
)


def stock(sc: Scenario, *seats: int) -> Scenario:
    """Six cards in hand and six in the deck: Recuperation does nothing, menus offer Actions."""
    for p in seats or range(len(sc.s.players)):
        sc.hand(p, *HAND).deck(p, *("air-1", "water-1") * 3)
    return sc


def test_turns_pass_clockwise_to_the_left() -> None:
    """3.1, 3.6: the token passes to the next player on the left; the turn counter advances."""
    sc = stock(Scenario(num_players=3)).action_phase(0)
    turn = sc.s.turn
    sc.end_turn()
    assert (sc.s.active, sc.s.turn, sc.pending().player) == (1, turn + 1, 1)
    sc.end_turn()
    assert (sc.s.active, sc.pending().player) == (2, 2)
    sc.end_turn()
    assert sc.s.active == 0


def test_concentration_refreshes_only_the_active_players_face_up_spells() -> None:
    """3.2, A-21: the Active Player refreshes exhausted Spells, not neutralized ones (which keep
    their exhausted state); other players refresh nothing."""
    sc = stock(Scenario()).at(marker=2)
    sc.spell_state(0, "test_growth", exhausted=True)
    sc.spell_state(0, "test_ice", exhausted=True, neutralized="until_next_monster")
    sc.spell_state(1, "test_growth", exhausted=True)
    sc.begin_turn(0)
    p0 = {sp.spell: sp for sp in sc.p(0).spells}
    assert p0["test_growth"][1] is False
    assert p0["test_ice"][1] is True and p0["test_ice"][2] == "until_next_monster"
    assert sc.p(1).spells[sc.p(1).spell_index("test_growth")].exhausted is True


def test_marker_advances_one_space_and_an_empty_space_does_nothing() -> None:
    """3.3.2, 3.3.3: one mandatory advance; a space without a Curse has no effect."""
    sc = stock(Scenario()).at(marker=3)
    before_pile = len(sc.s.madness_pile)
    sc.begin_turn(0)
    assert sc.s.marker == 4
    assert sc.events("curse_triggers") == []
    assert len(sc.s.madness_pile) == before_pile


def test_curse_triggers_for_each_player_from_the_active_player() -> None:
    """3.3.3, A-32: a Curse affects all players, resolved from the Active Player clockwise."""
    sc = stock(Scenario(num_players=3)).at(marker=1)
    sc.curse(0, "test_curse_fire_a")  # S2: each player receives a Madness
    sc.begin_turn(1)
    assert sc.events("curse_triggers") == [("test_curse_fire_a",)]
    assert [e[0] for e in sc.events("madness")] == [1, 2, 0]
    assert all(sc.p(i).discard[MADNESS] == 1 for i in range(3))


def test_space_3_holds_two_curses_left_resolves_first() -> None:
    """3.3.3: on space 3 the left Curse resolves (for every player) before the right one."""
    sc = stock(Scenario()).at(marker=2)
    sc.curse(1, "test_curse_fire_a").curse(2, "test_curse_multi_a")  # discard / into support
    sc.begin_turn(0)
    assert sc.events("curse_triggers") == [("test_curse_fire_a",), ("test_curse_multi_a",)]
    assert sc.events("madness") == [(0, "discard"), (1, "discard"), (0, "support"), (1, "support")]


def test_curse_triggers_only_once_when_entering_its_space() -> None:
    """3.3.3: a Curse triggers once, when the marker enters its space; it stays in play after."""
    sc = stock(Scenario()).at(marker=2)
    sc.curse(1, "test_curse_fire_a")
    sc.begin_turn(0)
    assert sc.p(0).discard[MADNESS] == 1
    sc.end_turn()  # P1's turn: marker 3 -> 4
    assert sc.s.marker == 4
    assert len(sc.events("curse_triggers")) == 1
    assert sc.s.track[1][0].curse == "test_curse_fire_a"  # still in play, still destroyable


def test_active_target_curse_hits_only_the_token_holder() -> None:
    """3.3.3 [VE]: a Curse targeting the Active Player applies to the token holder only."""
    sc = stock(Scenario()).at(marker=1)
    sc.curse(0, "test_curse_water_b")  # the Active Player neutralizes 1 of their Spells
    sc.begin_turn(1)
    # P1 must choose which of their Spells to neutralize.
    assert sc.pending().kind == "neutralize_spell" and sc.pending().player == 1
    sc.do("PICK_SPELL(spell#2)")
    assert sc.p(1).spells[2].neutralized == "until_next_monster"
    assert all(sp.neutralized == "" for sp in sc.p(0).spells)


@pytest.mark.parametrize("release", ["after_next_monster_phase", "start_of_next_turn"])
def test_neutralized_curse_does_not_trigger_and_releases_per_a19(release: str) -> None:
    """Section 7 Neutralize, A-19: a neutralized Curse has no effect; by default it stays face down
    through the next turn's Monster phase (so entering its space triggers nothing) and flips at the
    start of that turn's Action phase; with "start_of_next_turn" it flips before the Monster phase
    and triggers."""
    sc = stock(Scenario(neutralized_curse_release=release)).at(marker=1)
    sc.curse(0, "test_curse_fire_a", neutralized=True)
    sc.begin_turn(0)
    assert sc.s.track[0][0].neutralized_at == -1  # face up again in the Action phase, either way
    triggered = sc.events("curse_triggers") == [("test_curse_fire_a",)]
    assert triggered is (release == "start_of_next_turn")
    assert sc.p(0).discard[MADNESS] == (1 if triggered else 0)


def test_neutralized_curse_cannot_be_destroyed_until_released() -> None:
    """Section 7 Neutralize: a neutralized Curse cannot be destroyed; once face up it can."""
    sc = Scenario().hand(0, *("fire-1",) * 4).curse(0, "test_curse_fire_a", neutralized=True).action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    with pytest.raises(IllegalActionError):
        sc.do("DESTROY_CURSE(slot0 pos0)")
    sc.s.track[0][0] = sc.s.track[0][0]._replace(neutralized_at=-1)
    sc.action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" in sc.legal_names()


def _end_of_round(sc: Scenario, fail: bool = False) -> Scenario:
    """Round 1 about to end on P0's Monster phase; ``fail`` leaves a Curse on the track."""
    sc = stock(sc).grimoire(*GRIMOIRE).at(round=1, marker=5)
    return sc.curse(4, "test_curse_fire_b") if fail else sc


def test_end_of_round_failure_curses_to_bottom_and_madness_under_back_to_pile() -> None:
    """3.3.4: Curses left -> the right page's Failure for every player; each remaining Curse goes to
    the bottom of its pile and Madness under it returns to the Madness pile; then the New Monster
    (round 2, marker on 1) arrives (3.3.5)."""
    sc = _end_of_round(Scenario())
    sc.curse(0, "test_curse_water_a", under=1)
    pile = len(sc.s.madness_pile)  # 19: one Madness lies under the Curse
    sc.begin_turn(0)
    assert sc.events("failure") == [("test_page_1",)]
    assert sc.p(0).discard[MADNESS] == 1 and sc.p(1).discard[MADNESS] == 1  # Failure: a Madness
    assert sc.s.curse_piles["water"][0] == "test_curse_water_a"
    assert (sc.s.round, sc.s.marker) == (2, 1)
    placed = [sc.s.pack.curses[slot[0].curse].type for slot in sc.s.track if slot]
    assert placed == ["fire", "earth", "air"]  # Test Warlock's symbols, left to right
    # Failure took 2, the Madness under the old Curse came back, Warlock put 1 under each new Curse.
    assert len(sc.s.madness_pile) == pile - 2 + 1 - 3
    sc.check()


def test_end_of_round_bonus_when_every_curse_was_destroyed() -> None:
    """3.3.4: no Curse left -> the Bonus (test_page_1: each player gains a value-2 card of their
    choice), no Failure."""
    sc = _end_of_round(Scenario())
    sc.begin_turn(0)
    assert sc.events("bonus") == [("test_page_1",)]
    assert sc.pending().kind == "gain" and sc.pending().player == 0
    sc.do("PICK_ELEMENT(air)")
    assert sc.pending().player == 1
    sc.do("PICK_ELEMENT(fire)")
    assert sc.p(0).discard[10] == 1 and sc.p(1).discard[1] == 1
    assert sc.events("failure") == []
    assert sc.s.round == 2


def test_neutralized_curse_counts_as_remaining_at_end_of_round() -> None:
    """3.3.4, section 7: a neutralized Curse still counts: the Monster is not vanquished."""
    sc = _end_of_round(Scenario())
    sc.curse(0, "test_curse_water_a", neutralized=True)
    sc.begin_turn(0)
    assert sc.events("failure") == [("test_page_1",)] and sc.events("bonus") == []


def test_until_next_monster_effects_end_at_the_page_turn() -> None:
    """3.3.4, A-68: "until the next Monster" modifiers and Spell neutralizations end after the
    Bonus/Failure and before the new Monster's arrival effect (Test Shade's arrival adds a new
    "until the next Monster" modifier, which must survive)."""
    sc = _end_of_round(Scenario()).grimoire(
        "test_cover_a", "test_page_4", "test_page_1", "test_page_2", "test_page_3", "test_page_5", "test_end"
    )
    old = {"kind": "cost", "action": "cure", "element": "any", "amount": 1}
    sc.p(0).mods.append(TempModifier(old, "until_next_monster", "x"))
    sc.p(1).mods.append(TempModifier(old, "game", "x"))
    sc.spell_state(1, "test_ice", neutralized="until_next_monster")
    sc.begin_turn(0)
    assert sc.pending().kind == "granted_action"  # Test page 4's Bonus grants an Action
    sc.end_turn()
    assert sc.s.round == 2
    assert [m.modifier["action"] for m in sc.p(0).mods] == ["activate"]  # only Test Shade's
    assert [m.duration for m in sc.p(1).mods] == ["game", "until_next_monster"]
    assert sc.p(1).spells[1].neutralized == ""


@pytest.mark.parametrize("after", [True, False])
def test_arrival_effect_order_against_curse_placement_a03(after: bool) -> None:
    """3.3.5, A-03: by default the Curses are placed first and the arrival effect (Test Warlock:
    a Madness under each Curse) sees them; with the literal order it sees an empty track."""
    sc = _end_of_round(Scenario(arrival_effect_after_placement=after), fail=True)
    sc.begin_turn(0)
    assert [c.madness for slot in sc.s.track for c in slot] == ([1, 1, 1] if after else [0, 0, 0])


def test_placement_multi_element_curses_first_then_symbols_left_to_right() -> None:
    """3.3.5 [FAQ], A-01, A-02: k Multi-Element Curses (round track) take the leftmost slots in
    draw order, then the Monster's symbols fill S2, S3L, S3R, S4, S5 in printed order."""
    sc = stock(Scenario(difficulty=2)).grimoire(*GRIMOIRE).at(round=4, marker=5)
    sc.curse(0, "test_curse_fire_b")  # so round 4 ends in Failure (no Bonus decision)
    sc.curse_pile_top("multi", "test_curse_multi_b", "test_curse_multi_a")
    sc.begin_turn(0)  # round 5 of difficulty 2: 2 Multi-Element Curses; Test Golem earth, earth, water
    sc.do("PICK_HAND(earth-1)", "PICK_HAND(earth-1)")  # test_page_5's Failure: each destroys a card
    assert sc.s.round == 5
    ids = [slot[0].curse for slot in sc.s.track]
    assert ids[:2] == ["test_curse_multi_b", "test_curse_multi_a"]
    assert [sc.s.pack.curses[c].type for c in ids[2:]] == ["earth", "earth", "water"]


def test_first_round_on_hardest_level_puts_a_multi_curse_on_s2() -> None:
    """3.3.5, 3.3.6: difficulty 3 of the test round track has one Multi-Element Curse in round 1."""
    sc = Scenario(difficulty=3, clear=False)
    types = [sc.s.pack.curses[slot[0].curse].type if slot else None for slot in sc.s.track]
    symbols = list(sc.s.pack.pages[sc.s.grimoire[0]].monster.curse_symbols)
    assert types == ["multi"] + symbols + [None]


@pytest.mark.parametrize("timing", ["immediate", "invocation_check"])
def test_round_6_ends_the_game_at_the_invocation_space(timing: str) -> None:
    """3.3.4, 6, A-05: after round 6 the marker reaching the Invocation space ends the game: a win
    with no Curse left, a loss with any (neutralized ones included)."""
    sc = stock(Scenario(final_win_timing=timing)).at(round=6, marker=5)
    sc.begin_turn(0)
    assert sc.s.is_terminal() and sc.s.outcome == "win"
    assert sc.s.returns() == [1.0, 1.0]
    sc = stock(Scenario(final_win_timing=timing)).at(round=6, marker=5)
    sc.curse(0, "test_curse_fire_a", neutralized=True)
    sc.begin_turn(0)
    assert sc.s.is_terminal() and sc.s.outcome == "loss"
    assert sc.s.legal_actions() == [] and sc.s.current_player() == -1


@pytest.mark.parametrize("timing", ["immediate", "invocation_check"])
def test_destroying_the_last_curse_of_round_6(timing: str) -> None:
    """A-05: "immediate" wins as soon as round 6 has no Curse left; "invocation_check" waits for
    the Invocation space (the game goes on)."""
    sc = Scenario(final_win_timing=timing).at(round=6, marker=3)
    sc.curse(3, "test_curse_fire_a").hand(0, *("fire-1",) * 4).action_phase(0)
    sc.do("DESTROY_CURSE(slot3 pos0)")
    assert sc.s.is_terminal() is (timing == "immediate")
    if timing == "immediate":
        assert sc.s.outcome == "win"


def test_round_marker_moves_one_column_per_new_monster() -> None:
    """3.3.5: the Round marker moves right at every New Monster except the first."""
    sc = _end_of_round(Scenario()).at(round=3).grimoire(*GRIMOIRE)
    sc.curse(0, "test_curse_fire_b")
    sc.begin_turn(0)
    sc.do("PICK_SPELL(spell#0)")  # test_page_3's Failure: the Active Player loses a Spell
    assert (sc.s.round, sc.s.marker) == (4, 1)
    assert sc.events("monster")[-1] == (4, GRIMOIRE[3])


def test_end_of_turn_resets_ability_use_and_this_turn_effects() -> None:
    """3.6, A-35: per-turn ability flags reset; "this turn" effects end with the turn."""
    sc = stock(Scenario()).action_phase(0)
    sc.p(0).mods.append(
        TempModifier({"kind": "forbid", "action": "cure", "element": "any"}, "this_turn", "x")
    )
    sc.do("ABILITY")  # Test Fire Magician: discard 1 card, then draw 1
    sc.do("PICK_HAND(fire-1)")
    assert sc.p(0).ability_used and "ABILITY" not in sc.legal_names()
    sc.end_turn()
    assert not sc.p(0).ability_used and sc.p(0).mods == []
