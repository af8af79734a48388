"""Ray RLlib (bbom_env.rllib, train_rllib.py, rllib:DIR agents). Runs where the ``rllib`` extra is
installed (.venv-rllib, CI's step of its own: docs/scaling.md); skipped elsewhere."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
torch = pytest.importorskip("torch")

from bbom_env.engine import IllegalActionError  # noqa: E402
from bbom_env.rl.gym_env import BBoMGymEnv  # noqa: E402
from bbom_env.rllib.env import BBoMMultiAgentEnv  # noqa: E402
from bbom_env.rllib.module import MASK_VALUE, mask_logits  # noqa: E402

ENV = {"pack": "test", "num_players": 3, "max_steps": 300}

# RLlib registers its env wrapper with Gymnasium on every algorithm build (a UserWarning from
# gymnasium, which pyproject turns into an error); it is RLlib's, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-.*:UserWarning")


def legal_action(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def test_env_one_seat_acts_rewards_reach_every_seat_and_all_seats_see_the_end() -> None:
    env = BBoMMultiAgentEnv(ENV)
    ref = BBoMGymEnv(**ENV)
    obs, _ = env.reset(seed=4)
    ref_obs, ref_info = ref.reset(seed=4)
    rng = np.random.default_rng(0)
    assert set(env.observation_spaces["player_0"].spaces) == {"observations", "action_mask"}
    while True:
        (agent,) = obs  # exactly one seat observes: the decider
        assert agent == f"player_{ref_info['player']}"
        assert np.array_equal(obs[agent]["observations"], ref_obs)  # the same game as the Gym view
        assert env.observation_spaces[agent].contains(obs[agent])
        a = legal_action(obs[agent], rng)
        obs, rewards, terms, truncs, _infos = env.step({agent: a})
        ref_obs, r, te, tr, ref_info = ref.step(a)
        assert rewards == {f"player_{s}": r for s in range(3)}  # the team reward, to every seat
        if terms["__all__"] or truncs["__all__"]:
            assert (terms["__all__"], truncs["__all__"]) == (te, tr)
            assert set(obs) == {"player_0", "player_1", "player_2"}  # final obs for every seat
            assert all(o["action_mask"].all() for o in obs.values())
            break


def test_env_truncates_with_every_seat_observing_and_refuses_bad_actions() -> None:
    env = BBoMMultiAgentEnv({**ENV, "max_steps": 5})
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(5):
        (agent,) = obs
        obs, _r, terms, truncs, _i = env.step({agent: legal_action(obs[agent], rng)})
    assert truncs["__all__"] and not terms["__all__"] and len(obs) == 3
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    before = env.game.to_json()
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal})
    assert env.game.to_json() == before
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(KeyError, match=f"{agent} \\(the decider\\) must act"):
        env.step({other: 0})
    with pytest.raises(TypeError, match="unknown argument"):
        BBoMMultiAgentEnv({"colour": "red"})


def test_mask_logits_is_finite_and_never_draws_an_illegal_action() -> None:
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 321, generator=gen) * 10
    mask = (torch.rand(64, 321, generator=gen) < 0.05).float()
    mask[:, 7] = 1.0
    mask[0] = 0.0  # a terminal row: all zero
    out = mask_logits(logits, mask)
    assert torch.isfinite(out).all()
    probs = torch.softmax(out, -1)
    assert torch.isfinite(probs).all() and torch.allclose(probs[0], torch.full((321,), 1 / 321))
    assert (probs[1:][mask[1:] == 0] == 0).all()  # exactly zero: an illegal move is never sampled
    assert (out[mask == 0] == MASK_VALUE).all()


@pytest.fixture(scope="module")
def ray_local():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_train_one_iteration_save_restore_and_evaluate(ray_local, tmp_path: Path) -> None:
    from ray.rllib.algorithms.algorithm import Algorithm

    from agents import make_agent
    from agents.evaluate import play_game
    from bbom_env.engine import GameConfig
    from bbom_env.rllib.config import SHARED_POLICY, module_checkpoint, ppo_config

    cfg = ppo_config(
        {**ENV, "seed": 0},
        num_envs_per_env_runner=2,
        train_batch_size=400,
        minibatch_size=128,
        num_epochs=1,
        hiddens=[32],
    )
    algo = cfg.build_algo()
    try:
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 400
        learner = result["learners"][SHARED_POLICY]
        assert math.isfinite(learner["policy_loss"]) and math.isfinite(learner["vf_loss"])
        # Every action the masked module sampled was legal under the mask the env gave with it (the
        # env also raises on an illegal one, so the iteration above proves the same).
        episodes = algo.env_runner.sample(num_timesteps=300, random_actions=False)
        checked = 0
        for ep in episodes:
            for sa in ep.agent_episodes.values():
                for t in range(len(sa)):
                    mask = sa.get_observations(t)["action_mask"]
                    assert mask[int(sa.get_actions(t))] == 1.0
                    checked += 1
        assert checked >= 250
        path = Path(algo.save_to_path(str(tmp_path / "checkpoint")))
        weights = algo.get_module(SHARED_POLICY).state_dict()
    finally:
        algo.stop()
    restored = Algorithm.from_checkpoint(str(path))
    try:
        again = restored.get_module(SHARED_POLICY).state_dict()
        assert all(torch.equal(torch.as_tensor(weights[k]), torch.as_tensor(again[k])) for k in weights)
        restored.train()  # a restored algorithm trains on
    finally:
        restored.stop()
    assert module_checkpoint(path).is_dir()
    agent = make_agent(f"rllib:{path}")
    result = play_game(
        GameConfig(pack="test", num_players=3, seed=5), agent, max_decisions=300, truncate=True
    )
    assert result.decisions > 0  # every move it chose was applied by the engine, so legal
    with pytest.raises(FileNotFoundError, match="not an RLlib checkpoint"):
        module_checkpoint(tmp_path)


def test_train_rllib_script_writes_a_run_that_agents_evaluate_reads(ray_local, tmp_path: Path) -> None:
    import json

    import train_rllib
    from agents.evaluate_report import main as evaluate_main

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "run"
    rc = train_rllib.main(
        [
            "--config",
            str(root / "configs/rllib/smoke.yaml"),
            "--out",
            str(out),
            "--set",
            "budget.eval_games=2",
        ]
    )
    assert rc == 0
    summary = json.loads((out / "results.json").read_text())
    assert summary["env_steps"] >= 400 and (out / "checkpoint").is_dir()
    assert summary["evaluation"][f"rllib:{out / 'checkpoint'}"]["games"] == 2
    rows = (out / "metrics.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,env_steps,wall_s,env_steps_per_s") and len(rows) == 2
    rc = evaluate_main(
        [
            "--policy",
            f"rllib:{out / 'checkpoint'}",
            "--games",
            "2",
            "--pack",
            "test",
            "--out",
            str(tmp_path / "e"),
        ]
    )
    assert rc == 0 and (tmp_path / "e" / "evaluation.csv").is_file()
    assert (
        train_rllib.main(["--config", str(root / "configs/rllib/smoke.yaml"), "--set", "ppo.colour=1"]) == 2
    )


def test_documented_relative_paths(ray_local, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The documented commands use relative paths (configs/rllib/smoke.yaml, runs/..., rllib:runs/...):
    training, its evaluation and agents.evaluate of the checkpoint work from the run's folder."""
    import shutil

    import train_rllib
    from agents.evaluate_report import main as evaluate_main

    root = Path(__file__).resolve().parents[2]
    (tmp_path / "configs" / "rllib").mkdir(parents=True)
    shutil.copy(root / "configs/rllib/smoke.yaml", tmp_path / "configs/rllib/smoke.yaml")
    monkeypatch.chdir(tmp_path)
    rc = train_rllib.main(["--config", "configs/rllib/smoke.yaml", "--set", "budget.eval_games=1"])
    assert rc == 0 and (tmp_path / "runs" / "rllib_smoke_1" / "checkpoint").is_dir()
    rc = evaluate_main(["--policy", "rllib:runs/rllib_smoke_1/checkpoint", "--games", "1", "--quiet"])
    assert rc == 0
