"""Rule points (hooks.RULE_POINTS): a "replace" modifier changes exactly one number the rules fix,
and a lost ability takes the Magician's modifiers and triggers away (docs/rules.md section 9.2, the
Phobias; V-25, V-34, V-35, V-41; section 4.11). The "replace" kind comes with a module, so these
tests play with the toy module (tests/modules/toy_module.py) and its Magicians (toy_pack.toml)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from builders import Scenario
from modules.toy_module import NAME, TOY_PACK, registered

from bbom_env.engine import move_to_string
from bbom_env.engine.io.scenario import resolve_effect
from bbom_env.engine.model.constants import HAND_SIZE, MADNESS
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.flow import lose_ability

DEFAULTS = {
    "reshuffle_madness": 1,
    "marker_steps": 1,
    "concentration_refresh": 3,
    "curse_part_times": 1,
    "hand_size": 6,
}
MAGICIAN_OF = {
    "reshuffle_madness": ("toy_mag_reshuffle", 2),
    "marker_steps": ("toy_mag_marker", 2),
    "concentration_refresh": ("toy_mag_refresh", 1),
    "curse_part_times": ("toy_mag_doubled", 2),
    "hand_size": ("toy_mag_hand5", 5),
}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered(obs=False):
        yield


def scenario(p0: str, p1: str = "test_mag_earth", **config: object) -> Scenario:
    """Players 0 and 1 with these Magicians; every decision is returned (even a forced one), so a
    cleared board does not play itself out."""
    config.setdefault("skip_forced_decisions", False)
    return Scenario(magicians=(p0, p1), pack_overrides=(TOY_PACK,), modules=(NAME,), **config)


def names(sc: Scenario) -> list[str]:
    """Names of the legal moves in the module set's layout (the toy's ids come after the base's)."""
    return [move_to_string(m, sc.s.config.modules) for m in sc.s.legal_actions()]


def test_the_rule_points_are_the_ones_the_vocabulary_names() -> None:
    from bbom_env.engine.cards.vocab import RULE_POINT_NAMES

    assert tuple(hooks.RULE_POINTS) == RULE_POINT_NAMES == tuple(MAGICIAN_OF)


@pytest.mark.parametrize("point", list(MAGICIAN_OF))
def test_a_replace_modifier_changes_exactly_its_rule_point(point: str) -> None:
    mag, value = MAGICIAN_OF[point]
    sc = scenario(mag)
    for other, default in DEFAULTS.items():
        want = value if other == point else default
        assert hooks.rule_point(sc.s, 0, other, default) == want, other
        assert hooks.rule_point(sc.s, 1, other, default) == default, other  # P1's sheet says nothing
    assert hooks.hand_size(sc.s, 0) == (5 if point == "hand_size" else HAND_SIZE)


def test_reshuffle_madness() -> None:
    """Section 5.2 gives 1 Madness when an empty deck is refilled; the Phobia "Receive 2 Madness
    when you shuffle your discard pile" (9.2) replaces it by 2. Drawing from an empty deck."""
    got = []
    for mag in ("toy_mag_reshuffle", "test_mag_water"):
        sc = scenario(mag).hand(0).deck(0).discard(0, "fire-1", "fire-1", "water-1")
        resolve_effect(sc.s, "test_growth", controller=0, x=1)  # "Draw X cards"
        pl = sc.p(0)
        got.append(pl.hand[MADNESS] + pl.deck.count(MADNESS) + pl.discard[MADNESS])
        assert sum(pl.hand) == 1 and len(pl.deck) + 1 == 3 + got[-1]
        sc.check()
    assert got == [2, 1]


def test_marker_steps() -> None:
    """Section 3.3.2: one space per Monster phase; "The Invocation marker advances 2 at the start
    of your turn" (9.2, V-34) replaces it by 2 for its owner's turns only."""
    for mag, seat, want in (("toy_mag_marker", 0, 3), ("toy_mag_marker", 1, 2), ("test_mag_air", 0, 2)):
        sc = scenario(mag).at(round=1, marker=1).begin_turn(seat)
        assert sc.s.active == seat and sc.s.marker == want, (mag, seat)
        sc.check()


def test_concentration_refresh_asks_which_spell() -> None:
    """Section 3.2 refreshes every exhausted face-up Spell; "You can only refresh one Spell during
    the Concentration phase" (9.2) makes its owner choose one (the refresh_choice decision)."""
    sc = scenario("toy_mag_refresh").at(round=1, marker=1)
    spells = [sp[0] for sp in sc.p(0).spells]
    sc.spells(0, *spells, exhausted=tuple(spells[:3])).begin_turn(0)
    d = sc.pending()
    assert (d.kind, d.player, d.remaining) == ("refresh_spell", 0, 1)
    assert names(sc) == ["PICK_SPELL(spell#0)", "PICK_SPELL(spell#1)", "PICK_SPELL(spell#2)"]
    sc.do("PICK_SPELL(spell#1)")
    assert [sp[1] for sp in sc.p(0).spells] == [True, False, True, False]
    sc.check()
    # The other player's Concentration refreshes everything (the rule point is the owner's).
    sc2 = scenario("toy_mag_refresh").at(round=1, marker=1)
    sc2.spells(1, *spells, exhausted=tuple(spells[:3])).begin_turn(1)
    assert not any(sp[1] for sp in sc2.p(1).spells)


def test_concentration_refresh_leaves_spell_effects_alone() -> None:
    """V-41: "refresh only one Spell" names the Concentration phase; a refresh effect works as
    printed: "A player refreshes X of their Spells" with X=2 refreshes 2."""
    sc = scenario("toy_mag_refresh")
    spells = [sp[0] for sp in sc.p(0).spells]
    sc.spells(0, *spells, exhausted=tuple(spells[:2]))
    resolve_effect(sc.s, "test_earth_3", controller=0, x=2)
    while sc.pending().kind != "action":
        d = sc.pending()
        if d.kind == "choose_player":
            sc.do("PICK_PLAYER(seat+0)")
        else:
            assert d.kind in ("refresh_spell", "gain"), d
            sc.do(sc.s.legal_actions()[0])
    assert not any(sp[1] for sp in sc.p(0).spells)


def test_curse_part_times_doubles_each_player_parts_only() -> None:
    """V-25 (A-57): "The effect of Curses targeting all players is doubled for you": a part that
    targets each player applies twice to the holder, once to the others; a part for "each other
    player" is not doubled."""
    sc = scenario("toy_mag_doubled", "test_mag_fire").madness_pile(10)
    resolve_effect(sc.s, "test_curse_fire_a", controller=0)  # each player receives a Madness
    assert (sc.p(0).discard[MADNESS], sc.p(1).discard[MADNESS]) == (2, 1)
    sc.check()
    sc = scenario("toy_mag_doubled", "test_mag_fire").madness_pile(10).at(active=1)
    sc.deck(0, "fire-1").deck(1, "fire-1")
    resolve_effect(sc.s, "test_curse_earth_c", controller=1)  # each other player: Madness on the deck
    assert sc.p(0).deck.count(MADNESS) == 1 and sc.p(1).deck.count(MADNESS) == 0
    # A Spell's "each player" part is not a Curse's: not doubled ("draw X" for each player).
    sc = scenario("toy_mag_doubled", "test_mag_fire").hand(0).hand(1)
    sc.deck(0, *["fire-1"] * 5).deck(1, *["fire-1"] * 5)
    resolve_effect(sc.s, "test_air_1", controller=0, x=1)  # each discards X, then each draws X
    assert (len(sc.p(0).deck), len(sc.p(1).deck)) == (4, 4)


def test_hand_size_refill() -> None:
    """Section 5.1 refills to 6; "refill your hand to 5 cards instead of 6" (9.2, V-35)."""
    for mag, want in (("toy_mag_hand5", 5), ("test_mag_water", 6)):
        sc = scenario(mag).hand(0, "fire-1").deck(0, *["water-1"] * 8).action_phase(0)
        sc.do("END")
        assert sum(sc.p(0).hand) == want, mag
        sc.check()


# -- "ability lost": the one derived query ---------------------------------------------------------


def test_a_lost_ability_drops_the_sheet_modifiers_and_triggers() -> None:
    """Section 4.11 / V-27: a Magician who loses the ability loses every part of it: modifiers
    (a replace, a cost change) and triggers; the temporary modifiers stay."""
    sc = scenario("toy_mag_hand5", "test_mag_air")
    assert hooks.hand_size(sc.s, 0) == 5 and hooks.triggers(sc.s, 1, "curse_destroyed")
    lose_ability(sc.s, 0)
    lose_ability(sc.s, 1)
    assert hooks.ability_lost(sc.s, 0) and hooks.hand_size(sc.s, 0) == HAND_SIZE
    assert hooks.triggers(sc.s, 1, "curse_destroyed") == []
    assert [e[2:] for e in sc.s.log if e[1] == "ability_lost"] == [(0,), (1,)]
    sc = Scenario(magicians=("test_mag_mixed", "test_mag_fire"))
    req = (0, 0, 0, 0, 2)
    assert hooks.adjust_cost(sc.s, 0, "acquire", 0, (2, 0, 0, 0, 0)) == (1, 0, 0, 0, 0)
    lose_ability(sc.s, 0)
    assert hooks.adjust_cost(sc.s, 0, "acquire", 0, (2, 0, 0, 0, 0)) == (2, 0, 0, 0, 0)
    assert hooks.adjust_cost(sc.s, 0, "cure", None, req) == req


def test_a_lose_ability_modifier_turns_the_ability_off_until_the_next_monster() -> None:
    """V-10: "All players lose their Ability until the next Monster": every ability, passive and
    activated, is off while the modifier lasts and comes back after."""
    sc = scenario("toy_mag_blocker", "test_mag_fire").hand(0, "fire-1").hand(1, "fire-1").action_phase(0)
    sc.do("ABILITY", "ACCEPT")
    assert hooks.ability_lost(sc.s, 0) and hooks.ability_lost(sc.s, 1)
    assert not sc.p(0).ability_lost and not sc.p(1).ability_lost  # not for good
    sc.action_phase(1)
    assert "ABILITY" not in names(sc)  # the Fire Magician's activated ability is off too
    hooks.expire(sc.s, "until_next_monster")
    assert not hooks.ability_lost(sc.s, 1)
    sc.action_phase(1)
    assert "ABILITY" in names(sc)
