"""The 4 new Magicians of the Dark Matter module (V-18, V-19; docs/rules.md 4.11): offered
only with the module, their sheets fit the action layout, the two reconstructed abilities play,
and the Phobia-moving Magician (V-19) is offered only with the Phobia module too."""

from __future__ import annotations

import random

from builders import Scenario, code

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.cards.checks import MAX_SUPPORT_CAPACITY, check_magician_layout
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.rules import offered_magicians
from bbom_env.engine.model.constants import MADNESS, MAX_SPELLS, MAX_SUPPORT_SLOTS
from bbom_env.modules.dark_matter.module import NAME, PACK

VTH = ("magician_vth_air", "magician_vth_phobia", "magician_vth_fire", "magician_vth_earth")


def sc_with(*magicians: str) -> Scenario:
    """Both players with six cards in hand and six in the deck (menus offer Actions)."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,), magicians=magicians)
    for p in (0, 1):
        sc.hand(p, *("earth-1", "air-1", "fire-1") * 2).deck(p, *("air-1", "water-1") * 3)
    return sc


def test_the_new_magicians_join_the_choice_only_with_the_module(dm: None) -> None:
    """V-18: the 4 new Magicians are offered in a game with the module, not with the switch
    ``vth_magicians=False``; their cards say their module. V-18, V-19: the Magician who moves
    Phobias is offered with Dark Matter alone too (his ability then has nothing to move): 8 + 4
    with Dark Matter alone, 8 + 4 with both modules."""
    config = GameConfig(modules=(NAME,))
    state = new_game(config)
    offered = offered_magicians(config, state.pack)
    assert set(VTH) <= set(offered) and len(offered) == 12
    both = GameConfig(modules=(NAME, "phobias"))
    offered_both = offered_magicians(both, new_game(both).pack)
    assert offered_both == offered
    assert all(state.pack.magicians[m].module == NAME for m in VTH)
    off = GameConfig(modules=(NAME,), vth_magicians=False)
    assert (
        not set(VTH) & set(offered_magicians(off, state.pack))
        and len(offered_magicians(off, state.pack)) == 8
    )


def test_the_four_sheets_fit_the_action_layout(dm: None) -> None:
    """V-18: each sheet's Spell row and support fit the layout (MAX_SPELLS Spell slots; support
    capacity at most MAX_SUPPORT_CAPACITY of the MAX_SUPPORT_SLOTS slots, with and without the
    ability: cards.checks.check_magician_layout); a 12-card starting deck of value-1/2 cards."""
    pack = new_game(GameConfig(modules=(NAME,))).pack
    assert MAX_SUPPORT_CAPACITY < MAX_SUPPORT_SLOTS
    for mid in VTH:
        m = pack.magicians[mid]
        check_magician_layout(m, mid)
        assert (m.spell_limit, m.support_slots) == (5, 3)  # the base sheet's, printed numbers unknown
        assert m.spell_limit <= MAX_SPELLS and m.support_slots <= MAX_SUPPORT_CAPACITY
        assert len(m.starting_deck) == 12 and sum(c // 3 == m.element for c in m.starting_deck) == 5


def test_the_fire_magician_puts_a_discarded_card_on_top_of_the_deck(dm: None) -> None:
    """The reconstructed Vth Fire Magician: "Once per turn: you may put 1 card from your discard
    pile on top of your deck." (4.11: activated, once per turn, on the owner's own turn, A-35)."""
    sc = sc_with("magician_vth_fire", "magician_vth_earth")
    sc.discard(0, "water-2", "fire-1").deck(0, "air-1").action_phase(0).mark()
    assert "ABILITY" in sc.legal_names()
    sc.do("ABILITY")
    assert sc.pending().kind == "put_on_top"
    assert sc.legal_names() == ["PICK_DISCARD(fire-1)", "PICK_DISCARD(water-2)", "DECLINE"]
    sc.do("PICK_DISCARD(water-2)")
    assert sc.p(0).deck == [code("air-1"), code("water-2")] and sc.p(0).discard[code("water-2")] == 0
    assert "ABILITY" not in sc.legal_names()  # once per turn
    sc.check()
    # Not on another player's turn: the Earth Magician's turn offers P0 nothing.
    sc.action_phase(1)
    assert sc.pending().player == 1 and "ABILITY" not in sc.legal_names()


def test_the_earth_magician_cures_a_madness_when_destroying_a_curse(dm: None) -> None:
    """The reconstructed Vth Earth Magician: "Whenever you destroy a Curse, cure 1 Madness card
    from your hand." (a passive trigger on ``curse_destroyed``; the cured card goes back under
    the Madness pile, A-67)."""
    sc = sc_with("magician_vth_earth", "magician_vth_fire")
    sc.hand(0, "madness", *("fire-1",) * 5).curse(0, "test_curse_fire_a").action_phase(0)
    pile = len(sc.s.madness_pile)
    move = next(n for n in sc.legal_names() if n.startswith("DESTROY_CURSE"))
    sc.do(move)
    while sc.pending().kind != "action":
        sc.do(sc.legal_names()[0])  # the payment and the reward: the first choice each time
    assert sc.s.curses_on_track() == 0
    assert sc.p(0).hand[MADNESS] == 0 and len(sc.s.madness_pile) == pile + 1
    sc.check()


def test_the_phobia_magician_plays_with_either_module_set(dm: None) -> None:
    """V-19: "spend 1 Dark Matter to move 1 Phobia" is the Phobia module's ``MOVE_PHOBIA`` Action
    (tests/modules/phobias/test_move_phobia.py); the sheet carries its ``move_phobia`` modifier.
    V-18: he is offered with Dark Matter alone; there his ability has nothing to move (no
    MOVE_PHOBIA block, no activated ability), and he plays a whole game; with both modules too."""
    mid = "magician_vth_phobia"
    alone = new_game(GameConfig(seed=3, modules=(NAME,), magicians=(mid, "magician_vth_fire")))
    assert "MOVE_PHOBIA" not in M.layout((NAME,)).by_name
    rng = random.Random(1)
    while not alone.over:
        legal = alone.legal_actions()
        assert M.ABILITY not in legal or alone.current_player() != 0  # no activated ability
        alone.apply_action(rng.choice(legal))
    # drawn at random too: some seed of a Dark Matter-only game deals him
    assert any(
        mid in [p.magician for p in new_game(GameConfig(seed=s, modules=(NAME,))).players] for s in range(40)
    )
    state = new_game(GameConfig(seed=3, modules=(NAME, "phobias"), magicians=(mid, "magician_vth_fire")))
    m = state.pack.magicians[mid]
    assert m.mods == ({"kind": "move_phobia"},) and m.activated == ()
    assert state.pack.module_card(mid).needs == ""
    rng = random.Random(0)
    while not state.over:
        legal = state.legal_actions()
        assert M.ABILITY not in legal or state.current_player() != 0  # no activated ability
        state.apply_action(rng.choice(legal))
