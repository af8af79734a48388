"""Cheap reads on the path of an Action chosen from the menu (module games' throughput):
``hooks.transform_cost`` finds its modules' transforms again by identity of the modules tuple
(``cost_transforms._GATES``). It must give what every transform called as itself gives, also when
games of several module sets take turns (the memo follows the tuple)."""

from __future__ import annotations

import random

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.modifiers import hooks

ACTIONS = ("activate", "learn", "acquire", "destroy", "cure")
REQS = ((1, 0, 0, 0, 0), (0, 2, 0, 0, 1), (0, 0, 3, 0, 0), (0, 0, 0, 0, 2), (1, 1, 1, 1, 0))
SETS = ((), ("dark_matter",), ("phobias",), ("dark_matter", "phobias"))


def _plain(state, p, action, req):  # type: ignore[no-untyped-def]
    for t in ruleset(state.config.modules).cost_transforms:
        req = getattr(t, "transform", t)(state, p, action, req)
    return req


def test_transform_cost_follows_the_modules_tuple() -> None:
    """Games of the four module sets advance side by side, one decision each in turn: at every
    decision, every seat, Action and cost, ``transform_cost`` equals the plain transforms; some
    costs were changed (the transforms were applied, not a stale empty tuple)."""
    games = [
        new_game(GameConfig(num_players=2 + i % 3, payment="auto", seed=30 + i, modules=mods))
        for i, mods in enumerate(SETS)
    ]
    rng = random.Random(5)
    changed = checked = 0
    for _ in range(150):
        for state in games:
            if state.over:
                continue
            for p in range(len(state.players)):
                for action in ACTIONS:
                    for req in REQS:
                        got = hooks.transform_cost(state, p, action, req)
                        assert got == _plain(state, p, action, req)
                        changed += got != req
                        checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 5000 and changed > 50
