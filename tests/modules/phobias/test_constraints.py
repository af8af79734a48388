"""The Phobias' constraints in play (docs/rules.md 9.2; V-25, V-27, V-30 to V-36, V-41;
A-16, A-49 to A-51, A-53, A-57, A-58, A-75): one scenario per card and ruling, each citing its id.

Each Phobia applies to its owner only, from placement until it leaves (a cure or a move), also
during other players' turns: the module's modifier source (``constraints.phobia_modifiers``)
yields its ``constraint``, and the engine's rules read it. ``test_each_scenario_needs_the_source``
runs the scenarios again with the module's modifier source removed: every one of them must fail,
so each really tests its constraint. The scenarios use the engine's test pack (``builders``)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from builders import Scenario, names

from bbom_env.engine import GameConfig, from_json, new_game, pending
from bbom_env.engine.actions.base import destroy_cost, spell_req
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.core.resolver import push, run
from bbom_env.engine.core.rules import register, unregister
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import SupportSlot, TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import Cost, funds_of
from bbom_env.engine.play.zones import draw, receive_madness
from bbom_env.modules.dark_matter.dark_curses import dark_curse_cost
from bbom_env.modules.dark_matter.state import DARK_MATTER, dm_state
from bbom_env.modules.phobias.constraints import phobia_modifiers
from bbom_env.modules.phobias.module import PHOBIA_MODULE
from bbom_env.modules.phobias.placement import CRUSH
from bbom_env.modules.phobias.state import PHOBIA_BASE
from modules.phobias.helpers import take


def P(n: int) -> int:
    """The card code of phobia_<n> (the Phobias sorted by id take PHOBIA_BASE + 0 .. 15)."""
    return PHOBIA_BASE + n - 1


ONLY_PH = ("phobias",)
BOTH = ("dark_matter", "phobias")


def scen(players: int = 2, modules: tuple[str, ...] = ONLY_PH, **kw: object) -> Scenario:
    """A test-pack scenario with the module (auto payment; the Madness pile as set up; every
    decision asked, forced ones too, so an Action menu stops the run)."""
    kw.setdefault("payment", "auto")
    kw.setdefault("skip_forced_decisions", False)
    return Scenario(num_players=players, modules=modules, **kw)


def top(sc: Scenario) -> str:
    """The kind of the frame waiting on top of the stack."""
    return str(sc.s.stack[-1]["kind"])


def give(sc: Scenario, seat: int, *codes: int) -> Scenario:
    """Phobias into the seat's support (taken from the Madness pile or the box), in slot order."""
    for c in codes:
        take(sc.s, c)
        sc.p(seat).support.append(SupportSlot(c))
    sc.s.legal_cache = None
    return sc


def plain_pile_top(sc: Scenario) -> None:
    """The Madness pile's Phobias to its bottom: the next Madness received are plain ones."""
    sc.s.madness_pile.sort(key=lambda c: c == MADNESS)


def cure_support(off: int, slot: int) -> int:
    return M.CURE_SUPPORT + M.support_arg(off, slot)


def legal(sc: Scenario) -> list[int]:
    sc.s.legal_cache = None
    return sc.s.legal_actions()


# -- the modifier source (section 9.2) -----------------------------------------------------------------


def test_9_2_the_source_yields_the_phobias_in_the_owners_support_only(ph: None) -> None:
    """9.2: a Phobia constrains its owner from placement on: in their support (not in a hand, not
    in another support); a cure_only constraint carries its card's code (V-31)."""
    sc = scen()
    assert phobia_modifiers(sc.s, 0) == ()
    take(sc.s, P(7))
    sc.p(0).hand[P(7)] += 1
    assert phobia_modifiers(sc.s, 0) == () and hooks.hand_size(sc.s, 0) == 6
    give(sc, 1, P(4))
    assert phobia_modifiers(sc.s, 0) == ()
    assert phobia_modifiers(sc.s, 1) == ({"kind": "cure_only", "code": P(4)},)
    give(sc, 0, P(1))
    assert phobia_modifiers(sc.s, 0) == ({"kind": "replace", "point": "reshuffle_madness", "value": 2},)
    assert hooks.rule_point(sc.s, 0, "reshuffle_madness", 1) == 2  # what the engine reads
    assert hooks.rule_point(sc.s, 1, "reshuffle_madness", 1) == 1


# -- phobia_01: receive 2 Madness when you shuffle (5.2) ----------------------------------------------


def test_phobia_01_reshuffle_gives_2_madness_5_2(ph: None) -> None:
    """docs/rules.md 5.2 with phobia_01: an empty deck refilled gives 2 Madness instead of 1."""
    sc = scen().discard(0, "fire-1", "water-1").discard(1, "fire-1", "water-1")
    give(sc, 0, P(1))
    pile = len(sc.s.madness_pile)
    draw(sc.s, 1, 1)  # the other player: 1
    assert len(sc.s.madness_pile) == pile - 1
    draw(sc.s, 0, 1)
    assert len(sc.s.madness_pile) == pile - 3
    assert len(sc.p(0).deck) + 1 == 4  # two cards + 2 Madness shuffled, one drawn
    sc.check()


# -- phobia_02: destroy +1 matching Element (V-32, A-49) ----------------------------------------------


def test_phobia_02_destroy_costs_one_more_of_the_curses_element_4_4(ph: None) -> None:
    """docs/rules.md 4.4, 4.10 with phobia_02: a Fire Curse costs 5 Fire; a Multi-Element Curse 1 of each
    Element and 1 of any."""
    sc = scen().curse(0, "test_curse_fire_a").curse(1, "test_curse_multi_a")
    give(sc, 0, P(2))
    fire, multi = sc.s.track[0][0], sc.s.track[1][0]
    assert destroy_cost(sc.s, 0, fire) == (5, 0, 0, 0, 0)
    assert destroy_cost(sc.s, 0, multi) == (1, 1, 1, 1, 1)
    assert destroy_cost(sc.s, 1, fire) == (4, 0, 0, 0, 0)  # its owner only
    sc.hand(0, *["fire-1"] * 4).action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    sc.hand(0, *["fire-1"] * 5)
    assert "DESTROY_CURSE(slot0 pos0)" in sc.legal_names()


def test_phobia_02_v32_the_extra_element_may_be_a_tokens_colour(ph: None) -> None:
    """V-32: on a Fire Curse with a Water token the extra Element may be Fire or Water (the one-of
    part of the cost); Earth does not pay it. Auto payment pays 4 Fire and 2 Water."""
    sc = scen().curse(0, "test_curse_fire_a", tokens=(0, 1, 0, 0))
    give(sc, 0, P(2))
    curse = sc.s.track[0][0]
    assert destroy_cost(sc.s, 0, curse) == Cost(4, 1, 0, 0, 0, one_of=1, one_of_set=(0, 1))
    sc.hand(0, *["fire-1"] * 4, "water-1", "earth-1").action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    sc.hand(0, *["fire-1"] * 4, "water-1", "water-1")
    assert "DESTROY_CURSE(slot0 pos0)" in sc.legal_names()
    sc.do("DESTROY_CURSE(slot0 pos0)")
    assert names(sc.p(0).discard)[:6] == ["fire-1"] * 4 + ["water-1"] * 2
    assert sc.s.track[0] == [] and sum(sc.p(0).hand) == 0
    sc.check()


def test_phobia_02_v32_only_the_phobias_surcharge_takes_the_token_colour(ph: None) -> None:
    """V-32 rules the Phobia's text: a temporary "destroying costs 1 more" (a Curse's or Spell's
    modifier, "until the next Monster") stays 1 more of the Curse's Element."""
    sc = scen().curse(0, "test_curse_fire_a", tokens=(0, 1, 0, 0))
    mod = {"kind": "cost", "action": "destroy", "element": "same", "amount": 1}
    sc.p(0).mods = [TempModifier(mod, "until_next_monster", "test_air_3")]
    assert destroy_cost(sc.s, 0, sc.s.track[0][0]) == (5, 1, 0, 0, 0)


def test_phobia_02_a49_a_dark_curse_costs_one_more_dark_matter(ph: None) -> None:
    """A-49 (both modules): the destroy surcharge on a Dark Curse is 1 more Dark Matter card (5)."""
    sc = scen(modules=BOTH).curse(0, "dark_curse_04")
    give(sc, 0, P(2))
    curse = sc.s.track[0][0]
    assert dark_curse_cost(sc.s, 0, curse) == Cost(currency=5)
    assert dark_curse_cost(sc.s, 1, curse) == Cost(currency=4)
    dm_state(sc.s).supply -= 4
    sc.p(0).hand[DARK_MATTER] += 4
    sc.action_phase(0)
    assert "DESTROY_CURSE(slot0 pos0)" not in sc.legal_names()
    dm_state(sc.s).supply -= 1
    sc.p(0).hand[DARK_MATTER] += 1
    assert "DESTROY_CURSE(slot0 pos0)" in legal_names(sc)


def legal_names(sc: Scenario) -> list[str]:
    sc.s.legal_cache = None
    return sc.legal_names()


# -- phobia_03: Activate +1 any Element (V-33, A-16, A-50) --------------------------------------------


def test_phobia_03_v33_activate_costs_one_more_after_x(ph: None) -> None:
    """V-33, A-16, A-50: +1 Element of any type, once, after multiplying by X; in granted Actions
    too (the same menu)."""
    sc = scen().spells(0, "test_fire_1")
    give(sc, 0, P(3))
    assert spell_req(sc.s, 0, "test_fire_1", 2) == (2, 0, 0, 0, 1)
    assert spell_req(sc.s, 1, "test_fire_1", 2) == (2, 0, 0, 0, 0)
    sc.hand(0, "fire-1").action_phase(0)
    assert sc.spell_move(0, "test_fire_1") not in sc.legal_names()
    sc.hand(0, "fire-1", "water-1")
    names_ = legal_names(sc)
    assert sc.spell_move(0, "test_fire_1") in names_ and sc.spell_move(0, "test_fire_1", 2) not in names_
    # A granted Action (section 4.12): player 0 on player 1's turn.
    sc.action_phase(1)
    push(sc.s, {"kind": "menu", "player": 0, "grants": 1, "decider": None})
    run(sc.s)
    sc.hand(0, "fire-1")
    assert pending(sc.s).player == 0 and sc.spell_move(0, "test_fire_1") not in legal_names(sc)
    sc.hand(0, "fire-1", "air-1")
    assert sc.spell_move(0, "test_fire_1") in legal_names(sc)


def test_phobia_03_a50_switch_spell_surcharge_element(ph: None) -> None:
    """A-50, switch ``spell_surcharge_element="spell"``: the extra Element is the activated
    Spell's own (still once, after X, V-33), so a Fire Spell at X=1 needs 2 Fire Elements; the
    default "any" takes any Element (the test above)."""
    sc = scen(spell_surcharge_element="spell").spells(0, "test_fire_1")
    give(sc, 0, P(3))
    assert spell_req(sc.s, 0, "test_fire_1", 2) == (3, 0, 0, 0, 0)
    assert spell_req(sc.s, 1, "test_fire_1", 2) == (2, 0, 0, 0, 0)
    sc.hand(0, "fire-1", "water-1").action_phase(0)
    assert sc.spell_move(0, "test_fire_1") not in legal_names(sc)  # water no longer pays it
    sc.hand(0, "fire-1", "fire-1")
    assert sc.spell_move(0, "test_fire_1") in legal_names(sc)
    any_ = scen().spells(0, "test_fire_1")
    give(any_, 0, P(3))
    assert spell_req(any_.s, 0, "test_fire_1", 1) == (1, 0, 0, 0, 1)
    # the switch needs the module and one of its values; a save written before it existed loads
    with pytest.raises(ConfigError, match="spell_surcharge_element=.*without module 'phobias'"):
        GameConfig(spell_surcharge_element="spell")
    with pytest.raises(ConfigError, match="spell_surcharge_element='fire'.*any, spell"):
        GameConfig(modules=ONLY_PH, spell_surcharge_element="fire")
    data = json.loads(new_game(GameConfig(modules=ONLY_PH, seed=2)).to_json())
    del data["config"]["spell_surcharge_element"]
    data["format"] = "bbom-state/4"  # (format 5 added the switch: a format-5 save must name it)
    assert from_json(json.dumps(data)).config.switch("spell_surcharge_element") == "any"


def test_phobia_03_v33_not_for_black_spells(ph: None) -> None:
    """V-33 (both modules): a Black Spell costs its Dark Matter only, with or without the Phobia;
    the Activate surcharge is there (a Spell of the player)."""
    sc = scen(modules=BOTH).spells(0, "test_fire_1")
    give(sc, 0, P(3))
    assert spell_req(sc.s, 0, "test_fire_1", 1) == (1, 0, 0, 0, 1)
    sc.action_phase(0)
    st = dm_state(sc.s)
    costs = []
    for side in (0, 1):
        page = sc.s.pack.sections["black_page"][st.book[st.spread + side]]
        face = page.back if side == 0 else page.front
        if face is not None:
            costs.append(face.cost)
    n = min(costs)
    st.supply -= n
    sc.p(0).hand[DARK_MATTER] += n
    assert any(name.startswith("BLACK_BOOK") for name in legal_names(sc))


# -- phobia_04: no Cure Action except on this card (V-31) ------------------------------------------------


def test_phobia_04_v31_cure_only_this_card_others_may_cure_the_holder(ph: None) -> None:
    """V-31, docs/rules.md 4.5: the holder's Cure Action targets only this Phobia (any valid payment);
    another player may still cure the holder's Madness; once it is cured, Cure is back."""
    sc = scen().support(0, "madness", "fire-1").hand(0, "madness", *["water-1"] * 4)
    give(sc, 0, P(4))
    sc.hand(1, *["water-1"] * 2).action_phase(0)
    cures = [m for m in legal(sc) if M.CURE_HAND <= m < M.CURE_SUPPORT + 100 and _is_cure(m)]
    assert cures == [cure_support(0, 2)]
    sc.action_phase(1)  # the other player: the holder's Madness and the Phobia in support
    cures = [m for m in legal(sc) if _is_cure(m)]
    assert cure_support(1, 0) in cures and cure_support(1, 2) in cures
    sc.action_phase(0).do(cure_support(0, 2))  # auto payment: 2 Water
    assert sc.s.madness_pile[0] == P(4) and len(sc.p(0).support) == 2
    cures = [m for m in legal(sc) if _is_cure(m)]
    assert M.CURE_HAND + MADNESS in cures and cure_support(0, 0) in cures
    sc.check()


def _is_cure(m: int) -> bool:
    return M.decode(m, ONLY_PH).block in ("CURE_HAND", "CURE_SUPPORT")


# -- phobia_05: no support cards (V-30) ----------------------------------------------------------------


def test_phobia_05_v30_no_support_payment_but_curing_there(ph: None) -> None:
    """4.10, V-30: the holder pays with no support card (theirs or others'); they may still cure
    a Madness in support (it targets the card); another player may use the holder's support card."""
    sc = scen().support(0, "fire-2", "madness").support(1, "fire-2").hand(0, "water-1", "water-1")
    give(sc, 0, P(5))
    assert funds_of(sc.s, 0).counts[0] == [0, 0, 0]
    sc.action_phase(0)
    names_ = legal_names(sc)
    assert "ACQUIRE(fire-2)" not in names_
    assert cure_support(0, 1) in legal(sc)
    sc.action_phase(1)
    assert "ACQUIRE(fire-2)" in legal_names(sc)  # player 1 pays with the pool


# -- phobia_06: the marker advances 2 (3.3.8, V-34, A-72) -----------------------------------------------


def test_phobia_06_v34_the_marker_advances_2(ph: None) -> None:
    """3.3.8, V-34: the holder's Monster phase moves the marker two spaces, one at a time."""
    sc = scen().at(round=1, marker=2, turn=3).deck(0, *["water-1"] * 6).deck(1, *["water-1"] * 6)
    give(sc, 0, P(6))
    sc.mark().begin_turn(0)
    assert [e[0] for e in sc.events("marker")] == [3, 4]
    sc.mark().end_turn()  # player 1's turn: one step
    assert [e[0] for e in sc.events("marker")] == [5] and pending(sc.s).player == 1


def test_phobia_06_v34_turn_one_opens_the_grimoire_then_steps(ph: None) -> None:
    """V-34: on the first turn the first step opens the Grimoire (marker on space 1), the second
    moves on to space 2."""
    sc = scen().at(round=0, marker=0, turn=0)
    give(sc, 0, P(6))
    sc.begin_turn(0)
    while pending(sc.s).kind != "action":
        sc.do(legal(sc)[0])
    assert sc.s.round == 1 and sc.s.marker == 2


def test_phobia_06_v34_no_second_step_once_the_phobia_left(ph: None) -> None:
    """V-34: the second step happens only if that Phobia is still in the Active Player's support:
    a Curse entered on the first step discards it (switch ``phobia_leaves_support``, V-26)."""
    sc = scen(phobia_leaves_support=True).at(round=1, marker=1, turn=3)
    sc.curse(0, "test_curse_water_c")  # space 2: "Each player discards 1 card from their support"
    give(sc, 0, P(6))
    sc.begin_turn(0)
    assert pending(sc.s).kind == "discard" and legal(sc) == [M.PICK_SUPPORT]  # the Phobia only
    sc.do(M.PICK_SUPPORT)
    assert sc.s.marker == 2 and sc.p(0).support == []
    assert pending(sc.s).kind == "action"
    assert any(e[1] == "marker_step_skipped" for e in sc.s.log)
    # The same Curse on a holder who keeps the Phobia (V-26, the default): two steps.
    sc = scen().at(round=1, marker=1, turn=3).curse(0, "test_curse_water_c")
    give(sc, 0, P(6))
    sc.begin_turn(0)
    assert sc.s.marker == 3


def test_phobia_06_v34_a_phobia_gained_during_the_first_step_adds_no_step(ph: None) -> None:
    """V-34: the steps are fixed at the start of the Monster phase: the Phobia received into the
    Active Player's support on the first step ("Each player receives a Madness into their
    support") adds no second step."""
    sc = scen().at(round=1, marker=1, turn=3).curse(0, "test_curse_multi_a")
    take(sc.s, P(6))
    sc.s.madness_pile.append(P(6))  # the pile's top: the Active Player (player 0) receives it first
    sc.begin_turn(0)
    while pending(sc.s).kind != "action":
        sc.do(legal(sc)[0])
    assert P(6) in sc.p(0).support_cards() and sc.s.marker == 2


def test_phobia_06_v34_v38_no_step_for_an_eliminated_active_player(ph: None) -> None:
    """V-34, V-38: a second step pushed by the Monster phase is skipped when the Active Player was
    eliminated meanwhile; a "move marker" op's step (no step number) is not concerned."""
    sc = scen().at(round=1, marker=2, active=0)
    give(sc, 0, P(6))
    sc.s.stack = []
    push(sc.s, {"kind": "advance", "step": 2}, {"kind": "menu", "player": 1, "grants": -1, "decider": None})
    run(sc.s)
    assert sc.s.marker == 3
    sc.p(0).eliminated = True
    push(sc.s, {"kind": "advance", "step": 2})
    run(sc.s)
    assert sc.s.marker == 3


def test_phobia_06_v34_round_6_the_first_step_ends_the_game(ph: None) -> None:
    """V-34: in round 6 the first step reaches the Invocation space and ends the game."""
    sc = scen().at(round=6, marker=5, turn=30)
    give(sc, 0, P(6))
    sc.begin_turn(0)
    assert sc.s.over and sc.s.outcome == "win"


# -- phobia_07: hand of 5 (5.1, V-35, A-53) ------------------------------------------------------------


def test_phobia_07_v35_refill_to_5(ph: None) -> None:
    """5.1, V-35: the holder refills the hand to 5 at Recuperation (the other player to 6)."""
    sc = scen().hand(0, "fire-1", "fire-1").deck(0, *["water-1"] * 8)
    give(sc, 0, P(7))
    assert hooks.hand_size(sc.s, 0) == 5 and hooks.hand_size(sc.s, 1) == 6
    sc.action_phase(0).end_turn()
    assert sum(sc.p(0).hand) == 5


def test_phobia_07_v35_a53_placed_during_recuperation_5_madness_eliminate(ph: None) -> None:
    """V-35, A-53: drawn at Recuperation (the limit read at its start: 6 drawn), placed, no redraw;
    then the elimination check with the limit now in force: 5 Madness in hand eliminate."""
    sc = scen().hand(0).deck(0, *["madness"] * 5, *["water-1"] * 4)
    take(sc.s, P(7))
    sc.p(0).deck.append(P(7))  # on top: drawn first
    sc.action_phase(0).mark().end_turn()
    assert sc.events("phobia_placed") == [(0, P(7))] and sc.events("eliminated") == [(0,)]
    sc.check()


# -- phobia_08: Curses targeting all players doubled (V-25, A-57) ---------------------------------------


def test_phobia_08_v25_each_player_parts_twice_in_a_row(ph: None) -> None:
    """V-25, A-57: "Each player receives a Madness": the holder receives 2 (twice in a row, at their
    turn-order position), the other player 1."""
    sc = scen().at(active=1)
    plain_pile_top(sc)
    give(sc, 0, P(8))
    sc.action_phase(1).mark().effect("test_curse_fire_a")
    assert [e[0] for e in sc.events("madness")] == [1, 0, 0]
    assert sc.p(0).discard[MADNESS] == 2 and sc.p(1).discard[MADNESS] == 1
    sc.check()


def test_phobia_08_v25_other_parts_are_not_doubled(ph: None) -> None:
    """V-25: parts that target the Active Player or each other player, board effects, and Spells
    (A-57) apply once to the holder."""
    sc = scen().at(active=0)
    plain_pile_top(sc)
    give(sc, 0, P(8))
    give(sc, 1, P(8 + 1))  # another Phobia (player 1), to compare the tokens
    sc.curse(0, "test_curse_fire_b").curse(1, "test_curse_water_a").action_phase(1)
    sc.mark().effect("test_curse_earth_c", controller=1)  # each other player than the Active Player
    assert [e[0] for e in sc.events("madness")] == [0]
    sc.mark().effect("test_curse_air_c", controller=0)  # add 1 token to every Curse
    assert [c.tokens for c in (sc.s.track[0][0], sc.s.track[1][0])] == [(1, 0, 0, 0), (0, 1, 0, 0)]
    spells = len(sc.p(0).spells)
    sc.effect("test_curse_multi_b", controller=1)  # "A player loses 1 Spell": the holder, once
    sc.do(M.PICK_PLAYER + 1)  # player 0, one seat from the controller
    while pending(sc.s).kind != "action":
        sc.do(legal(sc)[0])
    assert len(sc.p(0).spells) == spells - 1


def test_phobia_08_v25_v11_dark_curses_too(ph: None) -> None:
    """V-25, V-11 (both modules): a Dark Curse part targeting each player applies twice to the
    holder ("Each player receives a Madness into their support")."""
    sc = scen(modules=BOTH).at(active=1)
    plain_pile_top(sc)
    give(sc, 0, P(8))
    sc.action_phase(1).mark().effect("dark_curse_04")
    assert [e[0] for e in sc.events("madness")] == [1, 0, 0]
    assert [s.card for s in sc.p(0).support].count(MADNESS) == 2
    sc.check()


# -- phobia_09: refresh one Spell (3.2, A-58, V-41) -----------------------------------------------------


def test_phobia_09_a58_the_holder_refreshes_one_spell_of_their_choice(ph: None) -> None:
    """3.2, A-58, DP-02: with two exhausted Spells the holder chooses one to refresh; the other
    stays exhausted."""
    sc = scen().at(round=1, marker=1, turn=3)
    ids = [sp.spell for sp in sc.p(0).spells]
    sc.spells(0, *ids, exhausted=tuple(ids[:2]))
    give(sc, 0, P(9))
    sc.begin_turn(0)
    assert top(sc) == "refresh_choice" and pending(sc.s).player == 0
    assert legal(sc) == [M.PICK_SPELL, M.PICK_SPELL + 1]
    sc.do(M.PICK_SPELL + 1)
    assert [sp.exhausted for sp in sc.p(0).spells] == [True, False, False, False]


def test_phobia_09_v41_other_refresh_effects_work_as_printed(ph: None) -> None:
    """V-41: a Spell that refreshes Spells is not limited by the Phobia (it names the
    Concentration phase only)."""
    sc = scen().spells(
        0, "test_earth_3", "test_fire_1", "test_water_1", exhausted=("test_fire_1", "test_water_1")
    )
    give(sc, 0, P(9))
    sc.action_phase(0).effect("test_earth_3", controller=0, x=2)
    while pending(sc.s).kind != "action":
        sc.do(legal(sc)[0])
    assert not any(sp.exhausted for sp in sc.p(0).spells)


# -- phobia_10: Acquire +1 identical Element (4.3, A-51) ------------------------------------------------


def test_phobia_10_acquire_costs_one_more_identical_element(ph: None) -> None:
    """4.3 with phobia_10: a value-2 Fire card costs 3 Fire."""
    sc = scen().hand(0, "fire-1", "fire-1", "water-1")
    give(sc, 0, P(10))
    sc.action_phase(0)
    assert "ACQUIRE(fire-2)" not in sc.legal_names()
    sc.hand(0, *["fire-1"] * 3)
    assert "ACQUIRE(fire-2)" in legal_names(sc) and "ACQUIRE(fire-3)" not in legal_names(sc)


def test_phobia_10_a51_not_for_dark_matter(ph: None) -> None:
    """A-51 (both modules): Acquire Dark Matter still costs 2 cards of different Elements; the Element
    surcharge is there."""
    sc = scen(modules=BOTH).hand(0, "fire-1", "fire-1", "water-1")
    give(sc, 0, P(10))
    sc.action_phase(0)
    names_ = sc.legal_names()
    assert "ACQUIRE_DARK_MATTER" in names_ and "ACQUIRE(fire-2)" not in names_


# -- phobia_11..14: no Action using an Element (V-36) --------------------------------------------------


def test_phobia_11_v36_fire_actions_are_forbidden(ph: None) -> None:
    """V-36: its Spells, learning them, acquiring it, its Curses, Multi-Element Curses and Curses
    with a token of it are forbidden; a Water Curse without a Fire token is not."""
    sc = scen().spells(0, "test_fire_1", "test_water_1").library("fire", "test_fire_2")
    sc.curse(0, "test_curse_fire_a").curse(1, "test_curse_multi_a").curse(2, "test_curse_water_a")
    sc.curse(3, "test_curse_water_b", tokens=(1, 0, 0, 0))
    sc.hand(0, *["fire-1", "water-1", "earth-1", "air-1"] * 5)
    give(sc, 0, P(11))
    sc.action_phase(0)
    names_ = sc.legal_names()
    assert sc.spell_move(0, "test_fire_1") not in names_ and sc.spell_move(0, "test_water_1") in names_
    assert "LEARN(fire)" not in names_ and not any(n.startswith("ACQUIRE(fire") for n in names_)
    assert [n for n in names_ if n.startswith("DESTROY")] == ["DESTROY_CURSE(slot2 pos0)"]


def test_phobia_11_v36_payments_filter_out_fire_cards(ph: None) -> None:
    """V-36: no card of the Element pays (Cure too); auto payment spends the others; another player
    may still pay with the holder's Fire support card."""
    sc = scen().hand(0, "madness", "fire-1", "fire-1").support(0, "fire-2")
    give(sc, 0, P(11))
    sc.action_phase(0)
    assert not any(_is_cure(m) for m in legal(sc))
    sc.hand(0, "madness", "fire-1", "fire-1", "water-1", "earth-1")
    sc.do(M.CURE_HAND + MADNESS)
    assert names(sc.p(0).hand) == ["fire-1", "fire-1"]
    sc.action_phase(1)
    sc.hand(1)
    assert "ACQUIRE(fire-2)" in legal_names(sc)  # player 1 pays with player 0's fire-2 (A-17)


def test_phobia_12_13_v36_each_ban_bans_its_element(ph: None) -> None:
    """V-20, V-36: the Water and Earth versions ban their Element's Acquire and payments."""
    for n, element in ((12, "water"), (13, "earth")):
        sc = scen().hand(0, *[f"{element}-1"] * 3, "fire-1", "fire-1")
        give(sc, 0, P(n))
        sc.action_phase(0)
        names_ = sc.legal_names()
        assert f"ACQUIRE({element}-2)" not in names_ and "ACQUIRE(fire-2)" in names_
        assert funds_of(sc.s, 0, hooks.banned_elements(sc.s, 0, "cure")).counts[n - 11] == [0, 0, 0]


def test_phobia_14_v36_v12_no_air_conversion_under_an_air_ban(ph: None) -> None:
    """V-36, V-12 (both modules): the Air Magician's conversion is off for the holder of the Air
    ban; Dark Matter Actions stay allowed (Acquire Dark Matter, paid without Air)."""
    sc = scen(modules=BOTH, magicians=("magician_vth_air", "test_mag_earth")).at(active=0)
    req = (0, 0, 0, 0, 2)
    assert hooks.transform_cost(sc.s, 0, "cure", req) != req  # the conversion flag
    give(sc, 0, P(14))
    assert hooks.transform_cost(sc.s, 0, "cure", req) == req
    sc.hand(0, "air-1", "fire-1").action_phase(0)
    assert "ACQUIRE_DARK_MATTER" not in sc.legal_names()
    sc.hand(0, "water-1", "fire-1")
    assert "ACQUIRE_DARK_MATTER" in legal_names(sc)


# -- phobia_15: no Ability (V-27, A-75) -----------------------------------------------------------------


def test_phobia_15_v27_the_blue_magician_discards_down_to_3(ph: None) -> None:
    """V-27, A-75: placed in a free slot, the Phobia takes the ability away: the blue Magician (5
    slots) discards non-Phobia support cards of her choice down to 3; the ability comes back when
    it is cured (not the cards)."""
    sc = scen(magicians=("test_mag_water", "test_mag_earth")).support(
        0, "fire-1", "water-1", "earth-1", "air-1"
    )
    sc.action_phase(1)
    take(sc.s, P(15))
    sc.s.madness_pile.append(P(15))
    receive_madness(sc.s, 0, "hand")
    run(sc.s)
    assert sc.p(0).support[-1] == SupportSlot(P(15)) and hooks.support_capacity(sc.s, 0) == 3
    assert top(sc) == "limits" and pending(sc.s).player == 0
    assert legal(sc) == [M.PICK_SUPPORT + s for s in range(4)]  # never the Phobia
    sc.do(M.PICK_SUPPORT, M.PICK_SUPPORT)
    assert [s.card for s in sc.p(0).support][-1] == P(15) and len(sc.p(0).support) == 3
    assert pending(sc.s).player == 1
    sc.p(1).hand = [0] * len(sc.p(1).hand)
    sc.hand(1, "fire-1", "fire-1")
    sc.do(cure_support(1, 2))
    assert hooks.support_capacity(sc.s, 0) == 5 and len(sc.p(0).support) == 2
    sc.check()


def test_phobia_15_v27_crushing_reacts_too_and_four_phobias_eliminate(ph: None) -> None:
    """V-27, A-75: placed by crushing (a full support), the reaction runs after the crush; with
    more than 3 slots holding Phobias nothing is left to discard: eliminated."""
    sc = scen(magicians=("test_mag_water", "test_mag_earth")).support(0, "fire-1")
    give(sc, 0, P(1), P(2), P(3), P(5))
    sc.action_phase(1)
    take(sc.s, P(15))
    sc.s.madness_pile.append(P(15))
    receive_madness(sc.s, 0, "hand")
    run(sc.s)
    assert pending(sc.s).kind == CRUSH
    sc.do(M.PICK_SUPPORT)  # crush fire-1 (the only one)
    assert sc.p(0).eliminated
    sc.check()


def test_phobia_15_v27_the_green_magician_boxes_a_spell(ph: None) -> None:
    """V-27: the green Magician with 6 Spells puts one of his choice in the box."""
    sc = scen(magicians=("test_mag_fire", "test_mag_earth"))
    sc.spells(1, *[sp.spell for sp in sc.p(1).spells], "test_fire_1", "test_water_1")
    sc.action_phase(0)
    take(sc.s, P(15))
    sc.s.madness_pile.append(P(15))
    receive_madness(sc.s, 1, "hand")
    run(sc.s)
    assert top(sc) == "limits" and legal(sc) == [M.PICK_SPELL + i for i in range(6)]
    sc.do(M.PICK_SPELL + 5)
    assert len(sc.p(1).spells) == 5 and "test_water_1" in sc.s.box_spells
    assert pending(sc.s).player == 0


# -- phobia_16 (reconstructed): Learn +1 any Element -----------------------------------------------------


def test_phobia_16_learn_costs_one_more_element(ph: None) -> None:
    """V-20 (the reconstructed 16th): learning a Spell costs 1 more Element of any type."""
    sc = scen().library("fire", "test_fire_1").hand(0, "fire-1", "fire-1")
    give(sc, 0, P(16))
    sc.action_phase(0)
    assert "LEARN(fire)" not in sc.legal_names()
    sc.hand(0, "fire-1", "fire-1", "earth-1")
    assert "LEARN(fire)" in legal_names(sc)


# -- every scenario needs the source -----------------------------------------------------------------------

SCENARIOS: list[Callable[[None], None]] = [
    test_9_2_the_source_yields_the_phobias_in_the_owners_support_only,
    test_phobia_01_reshuffle_gives_2_madness_5_2,
    test_phobia_02_destroy_costs_one_more_of_the_curses_element_4_4,
    test_phobia_02_v32_the_extra_element_may_be_a_tokens_colour,
    test_phobia_02_a49_a_dark_curse_costs_one_more_dark_matter,
    test_phobia_03_v33_activate_costs_one_more_after_x,
    test_phobia_03_v33_not_for_black_spells,
    test_phobia_04_v31_cure_only_this_card_others_may_cure_the_holder,
    test_phobia_05_v30_no_support_payment_but_curing_there,
    test_phobia_06_v34_the_marker_advances_2,
    test_phobia_06_v34_turn_one_opens_the_grimoire_then_steps,
    test_phobia_06_v34_no_second_step_once_the_phobia_left,
    test_phobia_06_v34_v38_no_step_for_an_eliminated_active_player,
    test_phobia_07_v35_refill_to_5,
    test_phobia_07_v35_a53_placed_during_recuperation_5_madness_eliminate,
    test_phobia_08_v25_each_player_parts_twice_in_a_row,
    test_phobia_08_v25_v11_dark_curses_too,
    test_phobia_09_a58_the_holder_refreshes_one_spell_of_their_choice,
    test_phobia_10_acquire_costs_one_more_identical_element,
    test_phobia_10_a51_not_for_dark_matter,
    test_phobia_11_v36_fire_actions_are_forbidden,
    test_phobia_11_v36_payments_filter_out_fire_cards,
    test_phobia_12_13_v36_each_ban_bans_its_element,
    test_phobia_14_v36_v12_no_air_conversion_under_an_air_ban,
    test_phobia_15_v27_the_blue_magician_discards_down_to_3,
    test_phobia_15_v27_crushing_reacts_too_and_four_phobias_eliminate,
    test_phobia_15_v27_the_green_magician_boxes_a_spell,
    test_phobia_16_learn_costs_one_more_element,
]


@contextmanager
def without_source() -> Iterator[None]:
    """The Phobia module registered with no modifier source: the Phobias placed but saying nothing."""
    unregister(PHOBIA_MODULE.name)
    register(dataclasses.replace(PHOBIA_MODULE, modifier_sources=()))
    try:
        yield
    finally:
        unregister(PHOBIA_MODULE.name)
        register(PHOBIA_MODULE)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.removeprefix("test_"))
def test_each_scenario_needs_the_source(ph: None, scenario: Callable[[None], None]) -> None:
    """Every scenario above fails when the module yields no constraint: each tests its constraint."""
    with without_source(), pytest.raises(AssertionError):
        scenario(None)


# -- random play with the constraints on ------------------------------------------------------------------


@pytest.mark.parametrize("modules", [ONLY_PH, BOTH], ids=["phobias", "both"])
def test_random_games_with_constraints_finish_with_invariants(ph: None, modules: tuple[str, ...]) -> None:
    """9.2: random games at 2-5 players with every Phobia's constraint on end, with the invariants
    after every decision; the constraints are met (Phobias lie in supports and constrain)."""
    from bbom_env.engine import GameConfig, new_game

    constrained = 0
    kinds: set[str] = set()
    for players in (2, 3, 4, 5):
        for k, payment in enumerate(("auto", "manual")):
            seed = 61_000 + players * 10 + k
            state = new_game(GameConfig(num_players=players, seed=seed, payment=payment, modules=modules))
            rng = random.Random(seed)
            steps = 0
            while not state.over:
                legal_ = state.legal_actions()
                state.apply_action(legal_[rng.randrange(len(legal_))])
                steps += 1
                check_invariants(state)
                for p in range(players):
                    mods = phobia_modifiers(state, p)
                    constrained += bool(mods)
                    kinds |= {m["kind"] for m in mods}
                assert steps < 10_000
    assert constrained > 0 and {"cost", "replace"} <= kinds
