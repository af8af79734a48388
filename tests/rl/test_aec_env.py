"""The PettingZoo AEC view (bbom_env.rl.aec_env): PettingZoo's own test suites plus our invariants."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pettingzoo
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import bbom_env
from bbom_env.engine import IllegalActionError

with warnings.catch_warnings():
    # pettingzoo.test imports its classic envs through the deprecated pre-registry API
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test


@contextmanager
def warnings_as_errors() -> Iterator[None]:
    """Every warning is an error, except the two that api_test raises for any Dict observation
    {"observation", "action_mask"} of an env not on its hard-coded list of PettingZoo classic envs
    (env_obs_dicts / env_obs_space in pettingzoo/test/api_test.py): that Dict is the convention the
    classic envs use and this env follows on purpose."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        yield


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pettingzoo_api_test(players: int) -> None:
    with warnings_as_errors():
        api_test(bbom_env.env(pack="test", num_players=players), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_seed_test(players: int) -> None:
    with warnings_as_errors():
        seed_test(lambda: bbom_env.env(pack="test", num_players=players), num_cycles=400)


def test_registered_in_pettingzoo_registry() -> None:
    env = pettingzoo.make("aec", bbom_env.PZ_ID, pack="test", num_players=4)
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.unwrapped, bbom_env.raw_env)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def run_game(env, seed: int, check: bool = True) -> dict:
    """Random masked play of a whole game with per-step invariants; returns a summary."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    raw = env.unwrapped
    dead_steps, removed_while_live = [], []
    final_rewards = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert obs["action_mask"].all()
            final_rewards[agent] = reward
            dead_steps.append(agent)
            live_before = not raw.game.over
            env.step(None)
            assert agent not in env.agents
            if live_before:
                removed_while_live.append(agent)
            continue
        if check:
            game = raw.game
            seat = game.current_player()
            assert agent == f"player_{seat}" == env.agent_selection
            assert np.array_equal(np.flatnonzero(obs["action_mask"]), game.legal_actions())
            assert info["player"] == seat and info["decision"] != "none"
            for other in env.agents:
                if other != agent and not env.terminations[other]:
                    assert not env.observe(other)["action_mask"].any()  # non-acting: all zero
            np.testing.assert_array_equal(
                env.state(), np.concatenate([env.observe(a)["observation"] for a in env.possible_agents])
            )
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return {"dead": dead_steps, "removed_while_live": removed_while_live, "final": final_rewards}


@pytest.mark.parametrize("players", [2, 4])
def test_agent_selection_is_the_decider_and_masks(players: int) -> None:
    env = bbom_env.env(pack="test", num_players=players)
    out = run_game(env, seed=players)
    assert sorted(out["dead"]) == env.possible_agents and env.agents == []
    assert set(out["final"].values()) == {-1.0}  # team loss: every agent got -1 at the end


def test_eliminated_player_is_terminated_then_removed() -> None:
    # Seed 32 at 3 players: player_1 is eliminated (section 5.4) with the game still running.
    env = bbom_env.env(pack="test", num_players=3)
    out = run_game(env, seed=32)
    assert out["removed_while_live"] == ["player_1"]
    assert env.unwrapped.game.stats.get("eliminations") == 1 and env.unwrapped.game.over
    assert out["dead"][0] == "player_1" and sorted(out["dead"]) == env.possible_agents
    # the team's final -1 reaches the players still in the game, not the one removed earlier
    assert out["final"]["player_0"] == out["final"]["player_2"] == -1.0
    assert out["final"]["player_1"] == 0.0


def test_state_space_and_shapes() -> None:
    env = bbom_env.raw_env(pack="test", num_players=3)
    env.reset(seed=1)
    size = env.encoder.size
    assert env.state_space.shape == (3 * size,) and env.state() in env.state_space
    with warnings_as_errors():
        # (the module's test_state samples unmasked actions, which raise here: not usable)
        importlib.import_module("pettingzoo.test.state_test").test_state_space(env)
    for a in env.agents:
        o = env.observe(a)
        assert o in env.observation_space(a)
        assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8


def test_illegal_and_out_of_range_actions() -> None:
    env = bbom_env.env(pack="test")
    env.reset(seed=0)
    mask = env.last()[0]["action_mask"]
    before = env.unwrapped.game.to_json()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(AssertionError):  # AssertOutOfBoundsWrapper
        env.step(10_000)
    assert env.unwrapped.game.to_json() == before


def test_order_enforcing() -> None:
    env = bbom_env.env(pack="test")
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def test_truncation_at_max_steps() -> None:
    env = bbom_env.env(pack="test", num_players=3, max_steps=10)
    env.reset(seed=0)
    steps = 0
    truncated = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            truncated.append(agent)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 10 and sorted(truncated) == env.possible_agents and not env.unwrapped.game.over


def test_render_ansi_and_seeded_games() -> None:
    env = bbom_env.env(pack="test", render_mode="ansi")
    env.reset(seed=9)
    assert env.render() == str(env.unwrapped.game)
    first = env.unwrapped.game.to_json()
    env.reset(seed=9)
    assert env.unwrapped.game.to_json() == first
    env2 = bbom_env.raw_env(pack="test", seed=9)
    env2.reset()  # the constructor seed plays like reset(seed=9)
    assert env2.game.to_json() == first


def test_shared_reward_accumulates_per_agent() -> None:
    env = bbom_env.raw_env(pack="test", reward={"madness_received": -0.5})
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    got = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert got["player_0"] == pytest.approx(got["player_1"])  # one team reward, both saw all of it
    assert got["player_0"] < -1.0
