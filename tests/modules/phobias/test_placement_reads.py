"""Cheap reads on the Phobias' placement path (module games' throughput), each the same
answer as the general reading: ``placement._LOSERS`` (the Phobias that take the Magician ability
away, V-27, as a per-pack set) against ``constraints.loses_ability``; ``flow._recup_drawn``'s seams
found again by identity of the modules tuple against the ruleset's."""

from __future__ import annotations

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.constants import NUM_CODES, PHOBIA_BASE
from bbom_env.engine.play import flow
from bbom_env.modules.phobias import placement
from bbom_env.modules.phobias.constraints import loses_ability


@pytest.mark.parametrize("pack", ["default", "test"])
def test_losers_are_the_phobias_that_lose_the_ability(pack: str) -> None:
    """Every Phobia code: in the per-pack set exactly when its constraint has "lose_ability"; the
    default pack has such a Phobia (the set is not trivially empty)."""
    state = new_game(GameConfig(num_players=2, pack=pack, seed=1, modules=("dark_matter", "phobias")))
    losers = placement._losers(state.pack)
    assert losers == {c for c in range(PHOBIA_BASE, NUM_CODES) if loses_ability(state, c)}
    if pack == "default":
        assert losers


def test_recup_seams_follow_the_modules_tuple() -> None:
    """Games of three module sets in turn: after each ``_recup_drawn`` (a hand with no Phobia: no
    change), the seams it asked are the ruleset's of that game's modules."""
    sets = (("dark_matter",), ("phobias",), ("dark_matter", "phobias"), ("phobias",), ())
    for mods in sets * 2:
        state = new_game(GameConfig(num_players=2, seed=3, modules=mods))
        for p in range(2):
            state.players[p].hand[PHOBIA_BASE:NUM_CODES] = [0] * (NUM_CODES - PHOBIA_BASE)
            assert flow._recup_drawn(state, p) is False
            assert flow._RECUP_HOOKS.last[1] is ruleset(mods).recup_drawn
