"""The Gymnasium view (bbom_env.rl.gym_env) and the IllegalActionPenalty wrapper."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bbom_env
from bbom_env.engine import ConfigError, GameConfig, IllegalActionError, new_game
from bbom_env.rl.gym_env import BBoMGymEnv
from bbom_env.rl.wrappers import IllegalActionPenalty

ENV_ID = "BigBookOfMadness-v2"


def play(env: gym.Env, seed: int, agent_seed: int, max_steps: int = 10_000):
    """Random masked play of one episode; returns the list of (obs, reward, term, trunc, info)."""
    rng = np.random.default_rng(agent_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False, info)]
    for _ in range(max_steps):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        out.append((obs, r, term, trunc, info))
        if term or trunc:
            break
    return out


def test_registered_on_import() -> None:
    env = gym.make(ENV_ID, pack="test", num_players=3)
    assert isinstance(env.unwrapped, BBoMGymEnv)
    assert env.spec is not None and env.spec.entry_point == "bbom_env.rl.gym_env:registered_env"
    assert env.unwrapped.config.num_players == 3
    assert bbom_env.BBoMGymEnv is BBoMGymEnv


@pytest.mark.parametrize("dict_obs", [False, True])
def test_check_env_on_penalty_wrapper(dict_obs: bool, capsys: pytest.CaptureFixture[str]) -> None:
    # check_env steps with random *unmasked* actions, which the bare env rejects by raising; the
    # penalty wrapper makes them legal steps. The only warning allowed is check_env's notice that
    # the env is wrapped; every other warning is an error.
    base = gym.make(ENV_ID, pack="test", dict_obs=dict_obs, render_mode="ansi").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version.*")
        check_env(IllegalActionPenalty(base))
    assert "decision:" in capsys.readouterr().out  # the "human" render check printed the state


def test_reset_is_deterministic_and_matches_the_engine() -> None:
    env = BBoMGymEnv(pack="test")
    a = play(env, seed=5, agent_seed=1)
    history = list(env.state.history)
    b = play(env, seed=5, agent_seed=1)
    assert len(a) == len(b) > 10
    for (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) in zip(a, b, strict=True):
        assert np.array_equal(o1, o2) and r1 == r2 and t1 == t2 and u1 == u2
        assert np.array_equal(i1["action_mask"], i2["action_mask"]) and i1["player"] == i2["player"]
    # reset(seed=s) plays the engine's game GameConfig(seed=s)
    state = new_game(GameConfig(pack="test", seed=5))
    for action in history:
        state.apply_action(action)
    assert state == env.state
    c = play(env, seed=6, agent_seed=1)
    assert not np.array_equal(a[0][0], c[0][0])


def test_constructor_seed_and_unseeded_resets() -> None:
    e1, e2 = BBoMGymEnv(pack="test", seed=7), BBoMGymEnv(pack="test")
    o1, _ = e1.reset()
    o2, _ = e2.reset(seed=7)
    assert np.array_equal(o1, o2)
    # after reset(seed=s), unseeded resets follow a sequence fixed by s
    seq = [e1.reset()[0] for _ in range(3)]
    e1.reset(seed=7)
    assert all(np.array_equal(x, e1.reset()[0]) for x in seq)


@pytest.mark.parametrize("players", [2, 5])
def test_random_play_invariants(players: int) -> None:
    env = BBoMGymEnv(pack="test", num_players=players, payment="manual" if players == 5 else "auto")
    for seed in range(3):
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        total, term, trunc = 0.0, False, False
        while not (term or trunc):
            state = env.state
            mask = info["action_mask"]
            assert obs in env.observation_space
            assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
            assert np.array_equal(np.flatnonzero(mask), state.legal_actions()) and mask.any()
            assert info["player"] == state.current_player() >= 0 and info["decision"] != "none"
            actor = info["player"]
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert r == 0.0 or term
            total += r
        assert term and not trunc and env.state.is_terminal()
        assert obs in env.observation_space
        assert info["action_mask"].all() and env.action_masks() is info["action_mask"]
        assert info["player"] == actor and info["decision"] == "none"
        assert total == env.state.returns()[0] == (1.0 if info["outcome"] == "win" else -1.0)
        assert info["is_success"] == (info["outcome"] == "win") and info["reason"] == env.state.reason


def test_mask_info_method_and_dict_obs_agree_with_the_engine() -> None:
    env = BBoMGymEnv(pack="test", num_players=3, dict_obs=True)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(80):
        legal = env.state.legal_actions()
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), legal)
        assert info["action_mask"] is obs["action_mask"] and env.action_masks() is obs["action_mask"]
        assert info["player"] == env.state.current_player()
        np.testing.assert_array_equal(obs["observation"], env.encoder.encode(env.state, info["player"]))
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        if term:
            break


def test_illegal_action_raises_and_leaves_the_game_unchanged() -> None:
    env = BBoMGymEnv(pack="test")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_json()
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(env.action_space.n + 3)
    assert env.state.to_json() == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # still playable


def test_step_outside_an_episode_raises() -> None:
    env = BBoMGymEnv(pack="test", max_steps=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _, info = env.reset(seed=0)
    for _ in range(2):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert trunc and not term and info["action_mask"].all()
    with pytest.raises(RuntimeError, match="ended"):
        env.step(0)


def test_max_steps_truncates() -> None:
    env = BBoMGymEnv(pack="test", max_steps=7)
    steps = play(env, seed=1, agent_seed=1)
    assert len(steps) == 8
    assert [s[3] for s in steps] == [False] * 7 + [True] and not any(s[2] for s in steps)
    assert not env.state.is_terminal() and steps[-1][1] == 0.0
    with pytest.raises(ValueError, match="max_steps"):
        BBoMGymEnv(pack="test", max_steps=0)


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = BBoMGymEnv(pack="test", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.state) and "decision:" in env.render()
    human = BBoMGymEnv(pack="test", render_mode="human")
    human.reset(seed=0)  # "human" prints on reset too (tests/interfaces/test_render.py)
    assert capsys.readouterr().out.strip() == str(human.state)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == str(human.state)
    with pytest.raises(ValueError, match="render_mode"):
        BBoMGymEnv(pack="test", render_mode="rgb")


def test_config_and_option_errors() -> None:
    with pytest.raises(TypeError, match="unknown argument.*num_player"):
        BBoMGymEnv(pack="test", num_player=3)
    with pytest.raises(ConfigError, match="num_players"):
        BBoMGymEnv(pack="test", num_players=6)
    with pytest.raises(TypeError, match="RewardConfig"):
        BBoMGymEnv(pack="test", reward={"wins": 1})


def test_observe_other_hands_grows_the_observation() -> None:
    plain = BBoMGymEnv(pack="test")
    seer = BBoMGymEnv(pack="test", observe_other_hands=True)
    assert seer.observation_space.shape[0] > plain.observation_space.shape[0]
    obs, _ = seer.reset(seed=0)
    assert obs in seer.observation_space


def test_shaped_reward_through_the_env() -> None:
    env = BBoMGymEnv(pack="test", reward={"madness_received": -0.01, "loss": -2.0})
    env.reset(seed=4)
    at_reset = env.state.stats.get("madness_received", 0)  # before the first decision: not rewarded
    steps = play(env, seed=4, agent_seed=4)
    total = sum(s[1] for s in steps)
    received = env.state.stats.get("madness_received", 0) - at_reset
    assert received > 0
    expected = -2.0 - 0.01 * received
    assert env.state.outcome == "loss" and total == pytest.approx(expected)


# -- IllegalActionPenalty ------------------------------------------------------------------------


def test_penalty_wrapper_terminates_on_an_illegal_action() -> None:
    env = IllegalActionPenalty(BBoMGymEnv(pack="test"), penalty=-0.5)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.unwrapped.state.to_json()
    obs2, r, term, trunc, info2 = env.step(illegal)
    assert (r, term, trunc, info2["illegal_action"]) == (-0.5, True, False, True)
    assert np.array_equal(obs2, obs) and obs2 is not obs
    assert env.unwrapped.state.to_json() == before and env.action_masks().all()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    _, info = env.reset(seed=0)
    _, r, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert r == 0.0 and not term and info["illegal_action"] is False


def test_penalty_wrapper_can_keep_the_state() -> None:
    env = IllegalActionPenalty(BBoMGymEnv(pack="test", dict_obs=True, max_steps=5), terminate=False)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for i in range(5):
        o, r, term, trunc, inf = env.step(illegal)
        assert r == -1.0 and not term and trunc == (i == 4)
        assert np.array_equal(o["observation"], obs["observation"])
        if not trunc:
            assert np.array_equal(o["action_mask"], obs["action_mask"])
    env.reset(seed=0)
    with pytest.raises(TypeError, match="actions are integer ids"):
        env.step("not an action")  # not a move id at all: a caller bug, never a penalised move
    assert env.unwrapped.state.history == []


# -- vectorised use ------------------------------------------------------------------------------


def test_make_vec_sync_with_autoreset() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", pack="test", max_episode_steps=30)
    obs, infos = envs.reset(seed=[11, 12])
    assert obs.shape == (2, envs.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    saw_reset = False
    for _ in range(40):
        masks = infos["action_mask"]
        assert masks.shape == (2, envs.single_action_space.n) and (masks.sum(axis=1) > 0).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rew, term, trunc, infos = envs.step(actions)
        saw_reset |= bool(trunc.any() or term.any())
        for i, m in enumerate(envs.call("action_masks")):
            assert np.array_equal(m, infos["action_mask"][i])
    assert saw_reset
    envs.close()


def _factory(seed: int):
    def make() -> gym.Env:
        # "module:id" imports bbom_env (and so registers the id) in the worker process too.
        return gym.make(f"bbom_env:{ENV_ID}", pack="test", seed=seed)

    return make


def test_sb3_subproc_vec_env_action_masks() -> None:
    pytest.importorskip("sb3_contrib", reason="the [train] extra is not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([_factory(1), _factory(2)])
    try:
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(30):
            masks = np.stack(venv.env_method("action_masks"))
            assert np.array_equal(masks, get_action_masks(venv).astype(np.int8))
            assert masks.shape == (2, venv.action_space.n)
            assert (masks.sum(axis=1) > 0).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            _, _, _, infos = venv.step(actions)
            for i, info in enumerate(infos):
                if "terminal_observation" not in info:
                    assert np.array_equal(info["action_mask"], venv.env_method("action_masks", indices=i)[0])
    finally:
        venv.close()


def test_maskable_ppo_learns_a_few_steps() -> None:
    pytest.importorskip("sb3_contrib", reason="the [train] extra is not installed")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([_factory(3)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    venv.reset()
    action, _ = model.predict(venv.reset(), action_masks=np.stack(venv.env_method("action_masks")))
    assert venv.env_method("action_masks")[0][int(action[0])] == 1


def test_docs_snippets_run() -> None:
    # Every ```python block of docs/environments.md runs as written (pack="test" keeps them fast).
    import importlib.util
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 5
    for code in blocks:
        if "sb3_contrib" in code and importlib.util.find_spec("sb3_contrib") is None:
            continue  # the [train] extra is not installed
        exec(compile(code, "docs/environments.md", "exec"), {"__name__": "docs_snippet"})
