"""``placement._LOSERS`` (the Phobias that take the Magician ability away, V-27, as a per-pack
table) against ``constraints.loses_ability``."""

from __future__ import annotations

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.model.constants import NUM_CODES
from bbom_env.modules.phobias import placement
from bbom_env.modules.phobias.constraints import loses_ability
from bbom_env.modules.phobias.state import PHOBIA_BASE


@pytest.mark.parametrize("pack", ["default", "test"])
def test_losers_are_the_phobias_that_lose_the_ability(pack: str) -> None:
    """Every Phobia code: in the per-pack set exactly when its constraint has "lose_ability"; the
    default pack has such a Phobia (the set is not trivially empty)."""
    state = new_game(GameConfig(num_players=2, pack=pack, seed=1, modules=("dark_matter", "phobias")))
    losers = placement._losers(state.pack)
    assert losers == {c for c in range(PHOBIA_BASE, NUM_CODES) if loses_ability(state, c)}
    if pack == "default":
        assert losers
