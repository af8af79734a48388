"""``MenuView.ability_lost`` (the menu's Magician ability check, V-10, V-27: lost for good, or
while a "lose_ability" modifier, temporary or a Phobia's in support, lasts) is
``hooks.ability_lost`` on every menu of random module games, also with a temporary
"lose_ability" modifier added; the lost cases by a modifier are many, so a view that ignored
the modifiers read for the query would be caught."""

from __future__ import annotations

from collections import Counter

from builders import random_decisions

from bbom_env.engine import GameConfig
from bbom_env.engine.actions.menu import MenuView
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks

_LOSE = {"kind": "lose_ability"}


def test_the_views_ability_lost_is_the_hooks() -> None:
    seen = Counter[str]()
    for seed in range(8):
        modules = (("dark_matter", "phobias"), ("phobias",))[seed % 2]
        config = GameConfig(num_players=2 + seed % 2, seed=300 + seed, modules=modules)
        for state in random_decisions(config, seed):
            f = state.stack[-1]
            if f["kind"] == "menu":
                pl = state.players[f["player"]]
                for extra in (False, True):
                    if extra:
                        pl.mods.append(TempModifier(_LOSE, "this_turn", "test"))
                    lost = hooks.ability_lost(state, f["player"])
                    assert MenuView(state, f).ability_lost(state) == lost  # type: ignore[arg-type]
                    seen["temp" if extra else "sourced" if lost and not pl.ability_lost else "other"] += 1
                    if extra:
                        pl.mods.pop()
    assert seen["sourced"] > 20 and seen["temp"] > 100 and seen["other"] > 100, seen
