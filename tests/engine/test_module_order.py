"""A module set is a set: ("phobias", "dark_matter") and ("dark_matter", "phobias") are the same
game, the same move ids and the same observation layout (the canonical order: sorted by name,
``config.canonical_modules``); a save naming its modules in another order is read canonically when
its history replays to its state, and refused otherwise (never replayed wrong)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import bbom_env
from bbom_env.engine import GameConfig, from_json, new_game, replay
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.config import canonical_modules
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.core.state import SaveError
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.observation import ObservationEncoder

BOTH = ("dark_matter", "phobias")
OTHER = ("phobias", "dark_matter")


def _played(seed: int, moves: int = 300) -> object:
    """A both-module game after ``moves`` random moves (module Actions among them)."""
    state = new_game(GameConfig(num_players=3, modules=BOTH, seed=seed))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_config_keeps_the_canonical_order() -> None:
    assert canonical_modules(OTHER) == BOTH
    assert GameConfig(modules=OTHER).modules == BOTH
    assert GameConfig(modules=list(OTHER)) == GameConfig(modules=BOTH)
    assert GameConfig(modules=OTHER).to_dict()["modules"] == list(BOTH)
    assert GameConfig().replace(modules=OTHER).modules == BOTH


@pytest.mark.parametrize("seed", [0, 7])
def test_both_orders_are_the_same_game(seed: int) -> None:
    a = new_game(GameConfig(num_players=3, modules=OTHER, seed=seed))
    b = new_game(GameConfig(num_players=3, modules=BOTH, seed=seed))
    assert a.to_json() == b.to_json()
    rng = random.Random(seed)
    for _ in range(200):
        if a.is_terminal():
            break
        assert a.legal_actions() == b.legal_actions()
        move = rng.choice(a.legal_actions())
        a.apply_action(move)
        b.apply_action(move)
    assert a.to_json() == b.to_json()


def test_both_orders_have_the_same_ids_and_observation_layout() -> None:
    la, lb = ActionLayout(GameConfig(modules=OTHER)), ActionLayout(GameConfig(modules=BOTH))
    assert la.table() == lb.table() and la.n == lb.n
    assert [la.action_to_string(i) for i in range(la.n)] == [lb.action_to_string(i) for i in range(lb.n)]
    # direct calls with a module tuple are canonical too
    assert M.layout(OTHER).table() == M.layout(BOTH).table()
    assert M.encode(
        "MOVE_PHOBIA", M.decode(M.layout(BOTH).by_name["MOVE_PHOBIA"].start, BOTH).args, OTHER
    ) == (M.layout(BOTH).by_name["MOVE_PHOBIA"].start)
    assert ruleset(OTHER).modules == BOTH
    ea = ObservationEncoder(GameConfig(modules=OTHER))
    eb = ObservationEncoder(GameConfig(modules=BOTH))
    assert ea.sections == eb.sections
    state = _played(3, 60)
    assert np.array_equal(ea.encode(state, 0), eb.encode(state, 0))


def test_gym_env_in_either_order() -> None:
    a = bbom_env.BBoMGymEnv(modules=OTHER)
    b = bbom_env.BBoMGymEnv(modules=BOTH)
    oa, _ = a.reset(seed=4)
    ob, _ = b.reset(seed=4)
    assert a.action_space == b.action_space and np.array_equal(oa, ob)


def test_relabelled_save_loads_and_replays() -> None:
    state = _played(11)
    data = json.loads(state.to_json())
    assert data["config"]["modules"] == list(BOTH)
    data["config"]["modules"] = list(OTHER)
    loaded = from_json(json.dumps(data))
    assert loaded.config.modules == BOTH
    assert loaded.to_json() == state.to_json()
    assert replay(loaded.config, loaded.history).to_json() == state.to_json()
    if not loaded.is_terminal():  # and play goes on
        loaded.apply_action(loaded.legal_actions()[0])


def test_save_written_in_the_old_order_is_refused() -> None:
    """Before the order was canonical, ("phobias", "dark_matter") put the Phobia blocks before the
    Dark Matter blocks: such a save's history names other moves, so it is refused, not replayed
    wrong."""
    state = _played(5)
    old = M.Layout(OTHER)  # the layout that order had
    canon = M.layout(BOTH)
    history = [old.encode(m.block, m.args) for m in map(canon.decode, state.history)]
    assert history != state.history  # the game took module Actions
    data = json.loads(state.to_json())
    data["config"]["modules"] = list(OTHER)
    data["history"] = history
    base, dm, ph = data["pack_sha256"]
    data["pack_sha256"] = [base, ph, dm]  # its pack hashes were in its order too
    with pytest.raises(SaveError, match=r"canonical order \['dark_matter', 'phobias'\]"):
        from_json(json.dumps(data))
