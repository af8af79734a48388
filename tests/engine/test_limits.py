"""Limits that shrink (flow.py; docs/rules.md sections 4.11 and 9.2, V-10, V-27, A-26): when a
Magician's ability that raised the support capacity or the Spell limit is lost, for good or while a
"lose_ability" modifier lasts, the owner chooses what to discard or put in the box until they are
within the printed limit; Madness beyond capacity stays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from builders import Scenario, code
from modules.toy_module import NAME, TOY_PACK, registered

from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.flow import enforce_limits, lose_ability

SIX = ("test_combustion", "test_ice", "test_growth", "test_telepathy", "test_air_1", "test_earth_3")


def spell_ids(sc: Scenario, seat: int) -> list[str]:
    return [sp[0] for sp in sc.p(seat).spells]


def test_losing_a_raised_spell_limit_makes_the_owner_box_a_spell() -> None:
    """V-27 (green Magician): a sixth Spell must go when the ability that allowed it is lost; the
    owner chooses which, even on another player's turn."""
    sc = Scenario(magicians=("test_mag_fire", "test_mag_earth")).spells(1, *SIX).action_phase(0)
    assert hooks.spell_limit(sc.s, 1) == 6
    lose_ability(sc.s, 1)
    d = sc.pending()
    assert (d.kind, d.player) == ("lose_spell", 1) and hooks.spell_limit(sc.s, 1) == 5
    assert sc.legal_names() == [f"PICK_SPELL(spell#{i})" for i in range(6)]
    sc.mark().do("PICK_SPELL(spell#4)")
    assert spell_ids(sc, 1) == [s for s in SIX if s != "test_air_1"]
    assert "test_air_1" in sc.s.box_spells and sc.events("spell_to_box") == [(1, "test_air_1")]
    assert (sc.pending().kind, sc.pending().player) == ("action", 0)  # back to the Active Player
    sc.check()


def test_losing_raised_support_slots_discards_support_cards_down_to_three() -> None:
    """V-27, A-75 (section 9.1: "discard support cards until she has no more than three"): every
    support card counts, a Madness too (one received beyond capacity, A-26), and the owner chooses
    which to discard, a Madness included, until 3 remain."""
    support = ("fire-1", "water-1", "earth-1", "air-1", "fire-2", "madness", "madness")
    sc = Scenario(magicians=("test_mag_fire", "test_mag_water")).support(1, *support).action_phase(0)
    assert hooks.support_capacity(sc.s, 1) == 5
    lose_ability(sc.s, 1)
    d = sc.pending()
    assert (d.kind, d.player) == ("discard", 1)
    assert sc.legal_names() == [f"PICK_SUPPORT(seat+0 slot{s})" for s in range(7)]  # the Madness too
    sc.do("PICK_SUPPORT(seat+0 slot6)", "PICK_SUPPORT(seat+0 slot4)", "PICK_SUPPORT(seat+0 slot0)")
    assert sc.pending().kind == "discard"  # still 4 cards for 3 slots
    sc.do("PICK_SUPPORT(seat+0 slot0)")
    assert sorted(sc.p(1).support_cards()) == sorted(code(c) for c in ("earth-1", "air-1", "madness"))
    assert sc.p(1).discard[code("fire-1")] == 1 and sc.p(1).discard[code("fire-2")] == 1
    assert sc.p(1).discard[MADNESS] == 1 and sc.p(1).discard[code("water-1")] == 1
    assert (sc.pending().kind, sc.pending().player) == ("action", 0)
    sc.check()


def test_nothing_to_do_when_no_limit_shrank() -> None:
    """A lost ability that raised nothing (or a player within the printed limits) asks nothing."""
    sc = Scenario(magicians=("test_mag_fire", "test_mag_earth")).action_phase(0)
    lose_ability(sc.s, 0)
    lose_ability(sc.s, 1)  # 4 Spells: within the printed 5
    assert (sc.pending().kind, sc.pending().player) == ("action", 0)
    enforce_limits(sc.s, 1)
    assert sc.pending().kind == "action"


@pytest.fixture
def toy() -> Iterator[None]:
    with registered(obs=False):
        yield


def test_a_lose_ability_modifier_shrinks_limits_until_the_next_monster(toy: None) -> None:
    """V-10: "All players lose their Ability until the next Monster" (an activated ability of the
    toy pack, a "modifier" op): the sixth Spell goes now (the owner's choice, on another player's
    turn); the limit comes back after the Monster, the Spell does not."""
    sc = Scenario(
        magicians=("toy_mag_blocker", "test_mag_earth"),
        pack_overrides=(TOY_PACK,),
        modules=(NAME,),
        skip_forced_decisions=False,
    )
    sc.spells(1, *SIX).hand(0, "fire-1").action_phase(0)
    sc.do("ABILITY", "ACCEPT")
    d = sc.pending()
    assert (d.kind, d.player) == ("lose_spell", 1) and hooks.spell_limit(sc.s, 1) == 5
    sc.do("PICK_SPELL(spell#5)")
    assert spell_ids(sc, 1) == list(SIX[:5]) and "test_earth_3" in sc.s.box_spells
    assert (sc.pending().kind, sc.pending().player) == ("action", 0)
    assert not sc.p(1).ability_lost  # not for good: a modifier
    hooks.expire(sc.s, "until_next_monster")
    assert hooks.spell_limit(sc.s, 1) == 6 and spell_ids(sc, 1) == list(SIX[:5])
    sc.check()
