"""``payment_frame.action_cost``: the cost an Action chosen from the menu pushes, with each
``hooks.GatedTransform``'s gate asked directly (a shortcut of ``hooks.adjust_cost``, section 4.10,
then the modules' cost transforms: Spontaneous Elements, 4.9; the Air conversion, V-12). It must
give exactly what ``adjust_cost`` gives, in every state."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, hooks, new_game
from bbom_env.engine.payment_frame import action_cost

ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "ability")
REQS = ((1, 0, 0, 0, 0), (0, 2, 0, 0, 1), (0, 0, 3, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 2), (1, 1, 1, 1, 0))


@pytest.mark.parametrize("modules", [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")])
def test_action_cost_is_adjust_cost(modules: tuple[str, ...]) -> None:
    """Random games (2 to 5 players): at every 3rd decision, for every seat, Action, Element and a
    few costs, ``action_cost`` equals ``adjust_cost``; with Dark Matter, some costs were changed
    by an open gate's transform (the shortcut's path is exercised)."""
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
                                want = hooks.adjust_cost(state, p, action, element, req)
                                assert action_cost(state, p, action, element, req) == want
                                checked += 1
                                transformed += len(want) > len(req)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 10_000
    if "dark_matter" in modules:
        assert transformed > 1_000
