"""The native vector env (bbom_env/rl/vector_env.py) and its SB3 adapter (bbom_env/rl/sb3_vec.py):
the same games as N single envs move by move, autoreset, masks, spaces, errors, a MaskablePPO run."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import bbom_env
from bbom_env.engine import IllegalActionError
from bbom_env.rl.gym_env import BBoMGymEnv
from bbom_env.rl.vector_env import BBoMVectorEnv

KW = {"pack": "test", "num_players": 2}


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


@pytest.mark.parametrize(("players", "max_steps"), [(2, 40), (3, 25), (2, None)])
def test_same_games_as_single_envs_move_by_move(players: int, max_steps: int | None) -> None:
    """Game i of reset(seed=s) is the single env's reset(seed=s+i); later games come from each
    game's own seed generator, as a single env's reset() draws them; truncation and autoreset too."""
    n = 3
    kw = {**KW, "num_players": players, "max_steps": max_steps}
    venv = BBoMVectorEnv(n, **kw)
    singles = [BBoMGymEnv(**kw) for _ in range(n)]
    obs, infos = venv.reset(seed=11)
    single = [e.reset(seed=11 + i) for i, e in enumerate(singles)]
    need_reset = [False] * n
    rng = np.random.default_rng(0)
    episodes = 0
    for t in range(300):
        for i, (o, info) in enumerate(single):
            assert np.array_equal(obs[i], o), (t, i)
            assert np.array_equal(infos["action_mask"][i], info["action_mask"]), (t, i)
            assert infos["player"][i] == info["player"], (t, i)
            assert infos["decision"][i] == info["decision"], (t, i)
        actions = pick(infos["action_mask"], rng)
        obs, rewards, terms, truncs, infos = venv.step(actions)
        for i, env in enumerate(singles):
            if need_reset[i]:  # next-step autoreset: the vector env reset game i on this step
                single[i] = env.reset()
                need_reset[i] = False
                assert rewards[i] == 0.0 and not terms[i] and not truncs[i]
                continue
            o, r, te, tr, info = env.step(int(actions[i]))
            single[i] = (o, info)
            assert (rewards[i], terms[i], truncs[i]) == (r, te, tr), (t, i)
            if te or tr:
                need_reset[i] = True
                episodes += 1
                if te:
                    assert infos["_outcome"][i] and infos["outcome"][i] == info["outcome"]
                    assert infos["is_success"][i] == info["is_success"]
    assert episodes >= 3  # the run crossed several episode ends (autoreset exercised)


def test_make_vec_entry_point_matches_sync_vector_env() -> None:
    native = gym.make_vec(bbom_env.GYM_ID, num_envs=2, vectorization_mode="vector_entry_point", **KW)
    # Single envs that count their own steps (max_steps), like the native one: through gymnasium.make
    # the limit is TimeLimit's instead, which leaves the live mask on the truncated step.
    sync = gym.vector.SyncVectorEnv([lambda: BBoMGymEnv(**KW, max_steps=30) for _ in range(2)])
    assert isinstance(native.unwrapped, BBoMVectorEnv)
    assert native.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    native.close()
    native = gym.make_vec(
        bbom_env.GYM_ID, num_envs=2, vectorization_mode="vector_entry_point", **KW, max_episode_steps=30
    )
    o1, i1 = native.reset(seed=3)
    o2, i2 = sync.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(120):
        assert np.array_equal(o1, o2)
        assert np.array_equal(i1["action_mask"], i2["action_mask"])
        a = pick(i1["action_mask"], rng)
        o1, r1, te1, tr1, i1 = native.step(a)
        o2, r2, te2, tr2, i2 = sync.step(a)
        assert np.array_equal(r1, r2) and np.array_equal(te1, te2) and np.array_equal(tr1, tr2)
    native.close()
    sync.close()


def test_spaces_and_bounds() -> None:
    venv = BBoMVectorEnv(4, **KW)
    single = BBoMGymEnv(**KW)
    assert venv.single_observation_space.shape == single.observation_space.shape
    assert venv.single_action_space == single.action_space
    assert venv.observation_space.shape == (4, single.observation_space.shape[0])
    assert isinstance(venv.action_space, gym.spaces.MultiDiscrete)
    assert list(venv.action_space.nvec) == [single.action_space.n] * 4
    obs, infos = venv.reset(seed=0)
    assert obs.dtype == np.float32 and venv.observation_space.contains(obs)
    assert infos["action_mask"].shape == (4, single.action_space.n) and infos["action_mask"].dtype == np.int8


def test_masks_are_the_legal_moves_and_all_ones_once_over() -> None:
    venv = BBoMVectorEnv(2, **KW, max_steps=15)
    obs, infos = venv.reset(seed=5)
    rng = np.random.default_rng(2)
    saw_end = False
    for _ in range(40):
        for i, state in enumerate(venv.games):
            if not (state.over or venv._steps[i] >= 15):
                want = np.zeros(venv.single_action_space.n, dtype=np.int8)
                want[state.legal_actions()] = 1
                assert np.array_equal(infos["action_mask"][i], want)
                assert np.array_equal(venv.action_masks()[i], want)
        obs, _r, te, tr, infos = venv.step(pick(infos["action_mask"], rng))
        for i in np.flatnonzero(te | tr):
            saw_end = True
            assert infos["action_mask"][i].all()  # final observation: never an all-zero mask
    assert saw_end


def test_next_step_autoreset_ignores_the_action_and_starts_the_drawn_game() -> None:
    venv = BBoMVectorEnv(1, **KW, max_steps=3)
    venv.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(3):
        _o, _r, te, tr, infos = venv.step(pick(venv.action_masks(), rng))
    assert tr[0] and not te[0]
    ref = BBoMGymEnv(**KW, max_steps=3)
    ref.reset(seed=7)
    want_obs, _ = ref.reset()  # the next game of the single env's generator
    out_of_range = np.array([venv.single_action_space.n + 5])
    obs, r, te, tr, infos = venv.step(out_of_range)  # ignored: this step only resets game 0
    assert np.array_equal(obs[0], want_obs) and r[0] == 0.0 and not te[0] and not tr[0]
    assert infos["step"][0] == 0


def test_same_step_autoreset_gives_the_final_observation_and_the_next_game() -> None:
    nxt = BBoMVectorEnv(2, **KW, max_steps=4)
    same = BBoMVectorEnv(2, **KW, max_steps=4, autoreset_mode="SameStep")
    nxt.reset(seed=2)
    same.reset(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(4):
        a = pick(nxt.action_masks(), rng)
        o1, r1, te1, tr1, _ = nxt.step(a)
        o2, r2, te2, tr2, i2 = same.step(a)
    assert tr1.all() and tr2.all() and np.array_equal(r1, r2)
    assert i2["_final_obs"].all()
    for i in range(2):
        assert np.array_equal(i2["final_obs"][i], o1[i])
        assert i2["final_info"][i]["step"] == 4
    o1, *_ = nxt.step(np.zeros(2, dtype=np.int64))  # the next-step reset
    assert np.array_equal(o2, o1)


def test_illegal_action_raises_naming_the_game_and_changes_nothing() -> None:
    venv = BBoMVectorEnv(3, **KW)
    venv.reset(seed=0)
    before = [s.to_json() for s in venv.games]
    mask = venv.action_masks()
    actions = np.array([int(np.flatnonzero(m)[0]) for m in mask])
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2 of the vector env"):
        venv.step(actions)
    assert [s.to_json() for s in venv.games] == before  # games 0 and 1 did not move either
    actions[2] = venv.single_action_space.n
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(actions)
    with pytest.raises(TypeError, match=r"integer array of shape \(3,\)"):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(TypeError, match="float"):
        venv.step(np.zeros(3))


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="num_envs=0"):
        BBoMVectorEnv(0, **KW)
    with pytest.raises(ValueError, match="autoreset_mode='Sometimes'"):
        BBoMVectorEnv(2, autoreset_mode="Sometimes", **KW)
    with pytest.raises(TypeError, match="unknown argument"):
        BBoMVectorEnv(2, colour="red", **KW)
    with pytest.raises(ValueError, match="max_steps=0"):
        BBoMVectorEnv(2, max_steps=0, **KW)
    venv = BBoMVectorEnv(2, **KW)
    with pytest.raises(ValueError, match="list of 2"):
        venv.reset(seed=[1, 2, 3])
    with pytest.raises(RuntimeError, match="before reset"):
        venv.step(np.zeros(2, dtype=np.int64))


def test_constructor_seed_partial_reset_dict_obs_and_copy() -> None:
    a = BBoMVectorEnv(2, **KW, seed=9)
    b = BBoMVectorEnv(2, **KW)
    assert np.array_equal(a.reset()[0], b.reset(seed=9)[0])  # seed=s plays like reset(seed=s)
    obs0 = b._obs.copy()
    b.step(pick(b.action_masks(), np.random.default_rng(0)))
    obs, infos = b.reset(seed=[None, 10], options={"reset_mask": np.array([False, True])})
    assert infos["_player"].tolist() == [False, True]
    assert not np.array_equal(obs[0], obs0[0])  # game 0 kept its position after one move
    assert np.array_equal(obs[1], BBoMGymEnv(**KW).reset(seed=10)[0])
    d = BBoMVectorEnv(2, **KW, dict_obs=True)
    obs, infos = d.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"} and d.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], infos["action_mask"])
    nocopy = BBoMVectorEnv(2, **KW, copy=False)
    first, _ = nocopy.reset(seed=0)
    second, *_ = nocopy.step(pick(nocopy.action_masks(), np.random.default_rng(0)))
    assert first is second  # the live buffer, overwritten in place


# -- the SB3 adapter ------------------------------------------------------------------------------


def test_sb3_adapter_plays_the_same_games_as_dummy_vec_env() -> None:
    pytest.importorskip("stable_baselines3")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    from bbom_env.rl.sb3_vec import BBoMSB3VecEnv

    native = BBoMSB3VecEnv(2, **KW, max_steps=20)
    dummy = DummyVecEnv([lambda: BBoMGymEnv(**KW, max_steps=20) for _ in range(2)])
    native.seed(4)
    dummy.seed(4)
    o1, o2 = native.reset(), dummy.reset()
    rng = np.random.default_rng(5)
    dones_seen = 0
    for _ in range(60):
        assert np.array_equal(o1, o2)
        m1, m2 = get_action_masks(native), get_action_masks(dummy)
        assert np.array_equal(m1, m2)
        a = pick(m1, rng)
        o1, r1, d1, i1 = native.step(a)
        o2, r2, d2, i2 = dummy.step(a)
        assert np.array_equal(r1, r2) and np.array_equal(d1, d2)
        for i in np.flatnonzero(d1):
            dones_seen += 1
            assert np.array_equal(i1[i]["terminal_observation"], i2[i]["terminal_observation"])
            assert i1[i]["TimeLimit.truncated"] == i2[i]["TimeLimit.truncated"]
    assert dones_seen >= 4


def test_sb3_adapter_trains_maskable_ppo() -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from bbom_env.rl.sb3_vec import BBoMSB3VecEnv

    venv = VecMonitor(BBoMSB3VecEnv(4, **KW, seed=0, max_steps=60))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=256)
    assert model.num_timesteps == 256
    assert len(model.ep_info_buffer) >= 4  # episodes ended (truncated at 60) and were logged
    changed = any(not torch.equal(b, p) for b, p in zip(before, model.policy.parameters(), strict=True))
    assert changed
    with pytest.raises(AttributeError, match="only 'action_masks'"):
        venv.env_method("render")
