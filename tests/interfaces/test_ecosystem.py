"""The envs as Gymnasium and Stable-Baselines3 code expect them: SB3's ``make_vec_env`` and
an env id given to MaskablePPO (both ask for ``render_mode="rgb_array"``: with the ``render`` extra
they get it, without it the env refuses it with a TypeError and SB3 makes it without a render mode),
the registered episode limit (``max_episode_steps``: one truncation mechanism per path), unsupported
render modes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import bbom_env
from bbom_env.rl.gym_env import DEFAULT_MAX_STEPS, BBoMGymEnv
from bbom_env.rl.render import UnsupportedRenderModeError
from bbom_env.rl.vector_env import BBoMVectorEnv
from bbom_env.view.raster import missing

# What SB3 gets when it asks for render_mode="rgb_array": the mode with the render extra installed,
# none without it (the env refuses the mode with a TypeError: SB3's fallback).
SB3_MODE = None if missing() else "rgb_array"


# -- render modes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["rgb_array_list", "bogus"])
def test_unsupported_render_mode_is_a_value_and_type_error_naming_it(mode: str) -> None:
    with pytest.raises(
        UnsupportedRenderModeError, match=f"render_mode='{mode}'.*'ansi', 'human', 'rgb_array'"
    ):
        BBoMGymEnv(pack="test", render_mode=mode)
    with pytest.raises(ValueError, match=mode):
        bbom_env.raw_env(pack="test", render_mode=mode)
    assert issubclass(UnsupportedRenderModeError, ValueError)
    assert issubclass(UnsupportedRenderModeError, TypeError)  # what SB3's fallback catches


def test_metadata_lists_the_text_modes_and_rgb_array() -> None:
    assert BBoMGymEnv.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert bbom_env.raw_env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]


def test_rgb_array_without_the_render_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import bbom_env.view.raster as raster

    monkeypatch.setattr(raster, "missing", lambda: ["resvg_py"])
    with pytest.raises(
        UnsupportedRenderModeError, match=r"'render' extra \(resvg_py not installed\).*\[render\]"
    ):
        BBoMGymEnv(pack="test", render_mode="rgb_array")
    with pytest.raises(TypeError, match="render"):  # SB3's fallback catches it
        bbom_env.raw_env(pack="test", render_mode="rgb_array")


# -- Stable-Baselines3 ------------------------------------------------------------------------------


def test_sb3_make_vec_env_with_the_env_id() -> None:
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(bbom_env.GYM_ID, n_envs=2, seed=0, env_kwargs={"pack": "test"})
    assert venv.num_envs == 2
    base = venv.envs[0].unwrapped
    assert isinstance(base, BBoMGymEnv) and base.render_mode == SB3_MODE and base.config.pack == "test"
    obs = venv.reset()
    assert obs.shape == (2, base.observation_space.shape[0])
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (2, base.action_space.n) and (masks.sum(axis=1) > 0).all()
    venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    venv.close()


def test_maskable_ppo_from_the_env_id_learns_with_masks() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    model = MaskablePPO("MlpPolicy", bbom_env.GYM_ID, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    env = model.get_env()
    base = env.envs[0].unwrapped
    assert isinstance(base, BBoMGymEnv) and base.render_mode == SB3_MODE
    # An unmasked random policy over this many ids would take an illegal move within 64 steps (the
    # env raises IllegalActionError); the masks reach the policy, so learning completes.
    assert base.action_space.n > 100
    model.learn(total_timesteps=64)
    assert model.num_timesteps == 64
    mask = get_action_masks(env)
    assert mask.shape == (1, base.action_space.n) and 0 < mask.sum() < base.action_space.n
    assert np.array_equal(mask[0], base.action_masks().astype(bool))
    action, _ = model.predict(env.reset(), action_masks=mask, deterministic=True)
    assert mask[0][int(action[0])]


# -- episode limit -----------------------------------------------------------------------------------


def test_registered_limit_shows_in_the_spec_and_is_the_one_mechanism() -> None:
    assert bbom_env.MAX_EPISODE_STEPS == DEFAULT_MAX_STEPS
    assert gym.spec(bbom_env.GYM_ID).max_episode_steps == DEFAULT_MAX_STEPS
    env = gym.make(bbom_env.GYM_ID, pack="test")
    assert env.spec.max_episode_steps == DEFAULT_MAX_STEPS
    assert isinstance(env, gym.wrappers.TimeLimit)
    assert env.unwrapped.max_steps is None  # the env's own count is off: TimeLimit alone truncates


def test_make_max_episode_steps_truncates_through_time_limit() -> None:
    env = gym.make(bbom_env.GYM_ID, pack="test", max_episode_steps=5)
    assert env.spec.max_episode_steps == 5
    _, info = env.reset(seed=1)
    flags = []
    for _ in range(5):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        flags.append((term, trunc))
    assert flags == [(False, False)] * 4 + [(False, True)]
    assert info["action_mask"].any()  # TimeLimit's truncation: the live mask, never all zero


def test_make_refuses_max_steps_and_names_max_episode_steps() -> None:
    with pytest.raises(TypeError, match=r"max_steps=30.*max_episode_steps=N"):
        gym.make(bbom_env.GYM_ID, pack="test", max_steps=30)


def test_no_limit_with_minus_one() -> None:
    env = gym.make(bbom_env.GYM_ID, pack="test", max_episode_steps=-1)
    assert not isinstance(env, gym.wrappers.TimeLimit) and env.unwrapped.max_steps is None


def test_vector_entry_point_takes_max_episode_steps_as_its_limit() -> None:
    kw = {"num_envs": 2, "vectorization_mode": "vector_entry_point", "pack": "test"}
    venv = gym.make_vec(bbom_env.GYM_ID, **kw)
    assert isinstance(venv.unwrapped, BBoMVectorEnv) and venv.unwrapped.max_steps == DEFAULT_MAX_STEPS
    venv = gym.make_vec(bbom_env.GYM_ID, max_episode_steps=3, **kw)
    assert venv.unwrapped.max_steps == 3
    _, infos = venv.reset(seed=0)
    for _ in range(3):
        _, _, term, trunc, infos = venv.step(np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]]))
    assert trunc.all() and not term.any()
    with pytest.raises(TypeError, match="max_episode_steps"):
        gym.make_vec(bbom_env.GYM_ID, max_steps=3, **kw)


def test_direct_construction_keeps_its_own_limit() -> None:
    env = BBoMGymEnv(pack="test", max_steps=2)
    _, info = env.reset(seed=0)
    for _ in range(2):
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert trunc and not term and info["action_mask"].all()
