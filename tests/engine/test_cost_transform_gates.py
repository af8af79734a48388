"""``hooks.transform_cost`` asks each ``hooks.GatedTransform``'s gate directly and calls its
``opened`` transform while the gate is open (a shortcut in ``hooks.adjust_cost``: the cost an
Action chosen from the menu pushes, section 4.10, then the modules' cost transforms: Spontaneous
Elements, 4.9; the Air conversion, V-12). It must give exactly what every transform called as
itself gives, in every state."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.modifiers import hooks

ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "ability")
REQS = ((1, 0, 0, 0, 0), (0, 2, 0, 0, 1), (0, 0, 3, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 2), (1, 1, 1, 1, 0))


@pytest.mark.parametrize("modules", [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")])
def test_adjust_cost_with_the_gates_is_the_plain_transforms(modules: tuple[str, ...]) -> None:
    """Random games (2 to 5 players): at every 3rd decision, for every seat, Action, Element and a
    few costs, ``adjust_cost`` (the gates asked) equals the cost "cost" modifiers and then every
    transform called as itself give; with Dark Matter, some costs were changed by an open gate's
    transform (the shortcut's path is exercised)."""
    transforms = tuple(getattr(t, "transform", t) for t in ruleset(modules).cost_transforms)

    def plain(state, p, action, element, req):  # type: ignore[no-untyped-def]
        out = hooks.apply_cost_mods(hooks.player_mods(state, p), action, element, req)
        for t in transforms:
            out = t(state, p, action, out)
        return out

    checked = transformed = 0
    for seed in range(8):
        state = new_game(GameConfig(num_players=2 + seed % 4, pack="default", seed=seed, modules=modules))
        rng = random.Random(seed)
        step = 0
        while not state.over:
            step += 1
            if step % 3 == 0:
                for p in range(len(state.players)):
                    for action in ACTIONS:
                        for element in (None, 0, 1, 2, 3):
                            for req in REQS:
                                want = plain(state, p, action, element, req)
                                assert hooks.adjust_cost(state, p, action, element, req) == want
                                checked += 1
                                transformed += len(want) > len(req)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 10_000
    if "dark_matter" in modules:
        assert transformed > 1_000
