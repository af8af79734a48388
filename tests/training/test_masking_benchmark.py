"""The action-masking benchmark (benchmarks/masking.py, agents/masking_*.py, docs/masking.md): the
arms' policies do what docs/masking.md says, and ``--smoke`` runs every arm end to end."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch

import bbom_env  # noqa: F401  (registers the env)
from agents.masking_policies import EVALS, PENALTIES, TRAIN_ARMS, AuxLegalityPolicy, NaiveMaskingPolicy
from agents.masking_report import ARMS, BEGIN, END, mask_cost
from agents.masking_run import evaluate

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import masking as bench  # noqa: E402


def _policy(cls: type, n_obs: int = 12, n_act: int = 9):
    obs_space = gym.spaces.Box(0, 1, (n_obs,), np.float32)
    torch.manual_seed(0)
    return cls(obs_space, gym.spaces.Discrete(n_act), lambda _: 1e-3, net_arch=[16])


def _batch(n: int = 32, n_obs: int = 12, n_act: int = 9) -> tuple[torch.Tensor, np.ndarray]:
    rng = np.random.default_rng(0)
    obs = torch.as_tensor(rng.random((n, n_obs)), dtype=torch.float32)
    masks = rng.random((n, n_act)) < 0.3
    masks[np.arange(n), rng.integers(0, n_act, n)] = True  # never an empty mask
    return obs, masks


def test_naive_masking_samples_legal_moves_with_unmasked_log_probs() -> None:
    policy = _policy(NaiveMaskingPolicy)
    obs, masks = _batch()
    actions, _, log_prob = policy(obs, action_masks=masks)
    assert masks[np.arange(len(masks)), actions.numpy()].all()  # sampled from the masked distribution
    unmasked = policy.get_distribution(obs).log_prob(actions)
    masked = policy.get_distribution(obs, action_masks=masks).log_prob(actions)
    assert torch.allclose(log_prob, unmasked) and not torch.allclose(log_prob, masked)
    _, lp_with, ent_with = policy.evaluate_actions(obs, actions, action_masks=torch.as_tensor(masks))
    _, lp_without, ent_without = policy.evaluate_actions(obs, actions)
    assert torch.equal(lp_with, lp_without) and torch.equal(ent_with, ent_without)  # the mask is ignored


def test_aux_head_loss_reaches_the_gradient_through_zero_grad() -> None:
    policy = _policy(AuxLegalityPolicy)
    obs, masks = _batch()
    actions, _, _ = policy(obs, action_masks=masks)
    assert masks[np.arange(len(masks)), actions.numpy()].all()  # trains with the oracle mask
    policy.optimizer.zero_grad()
    assert policy.legal_net.weight.grad is None  # nothing pending: nothing added
    _, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=torch.as_tensor(masks))
    policy.optimizer.zero_grad()  # what MaskablePPO.train calls before loss.backward()
    grad = policy.legal_net.weight.grad
    assert grad is not None and grad.abs().sum() > 0
    (-log_prob.mean()).backward()  # the PPO loss adds to it (the graph was retained)
    assert policy.action_net.weight.grad.abs().sum() > 0
    bce, exact, per_id = policy.aux_stats[-1]
    assert bce > 0 and 0 <= exact <= 1 and 0 <= per_id <= 1
    # Trained on the masks, the head predicts them better than at the start.
    before = per_id
    for _ in range(200):
        policy.evaluate_actions(obs, actions, action_masks=torch.as_tensor(masks))
        policy.optimizer.zero_grad()
        policy.optimizer.step()
    assert policy.aux_stats[-1][2] > before
    with torch.no_grad():
        p = policy.legality(obs)
    assert p.shape == masks.shape and float(p.min()) >= 0 and float(p.max()) <= 1


def test_evaluation_modes_count_invalid_actions() -> None:
    from stable_baselines3.common.policies import ActorCriticPolicy

    from agents.masking_run import env_kwargs

    env = gym.make("BigBookOfMadness-v2", **env_kwargs("masked"))
    policy = ActorCriticPolicy(env.observation_space, env.action_space, lambda _: 1e-3, net_arch=[8])
    oracle = evaluate(policy, "oracle", 1, 0, env_kwargs("masked"), seed=0)
    assert oracle["eval_invalid_rate"] == 0 and oracle["eval_capped"] == 0 and oracle["eval_decisions"] > 20
    assert 0 < oracle["eval_kl"] < 10  # -log of the legal mass of a near-uniform policy: about log(321/5)
    none = evaluate(policy, "none", 1, 0, env_kwargs("penalty0"), seed=0)
    assert none["eval_invalid_rate"] > 0.5  # a fresh unmasked policy mostly picks illegal ids
    with pytest.raises(ValueError, match="evaluation mask 'masks': expected"):
        evaluate(policy, "masks", 1, 0, env_kwargs("masked"), seed=0)


def test_mask_cost_is_a_share_of_the_step() -> None:
    cost = mask_cost(games=1)
    assert cost["steps"] > 20 and 0 < cost["mask_us"] < cost["step_us"] and 0 < cost["mask_share"] < 1


def test_cli_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.parse_args(["--arms", "masked", "nomask"])
    assert "unknown arm(s) ['nomask']" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.parse_args(["--budget", "0"])
    assert "--budget=0: must be a positive integer" in capsys.readouterr().err
    assert bench.main(["--report", "/nonexistent/run"]) == 2
    a = bench.parse_args(["--smoke", "--out", "/tmp/x"])
    assert (a.budget, a.seeds, a.doc) == (4096, 2, Path("/tmp/x/masking.md"))  # smoke never edits docs/


@pytest.mark.slow
def test_smoke_run_every_arm(tmp_path: Path) -> None:
    out = tmp_path / "smoke"
    res = subprocess.run(
        [sys.executable, "benchmarks/masking.py", "--smoke", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    with (out / "curves.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    train = [r for r in rows if r["kind"] == "train"]
    ev = [r for r in rows if r["kind"] == "eval"]
    assert {(r["arm"], r["seed"]) for r in train} == {(a, s) for a in TRAIN_ARMS for s in "01"}
    labels = {label for arm in TRAIN_ARMS for label, _ in EVALS[arm]}
    assert {(r["arm"], r["seed"]) for r in ev} == {(a, s) for a in labels for s in "01"}
    for r in train:
        rate = float(r["invalid_rate"])
        if r["arm"] in PENALTIES:
            if int(r["timesteps"]) <= 2048:
                assert rate > 0.5, r  # the unmasked arms start near uniform over 321 ids
        else:
            assert rate == 0, r  # masked arms never take an illegal action
    for r in ev:
        if r["arm"] in ("masked", "naive", "aux_oracle"):
            assert float(r["eval_invalid_rate"]) == 0 and float(r["eval_decisions"]) > 20
        else:
            assert float(r["eval_invalid_rate"]) > 0
        if r["arm"] == "aux_predicted":
            assert 0 <= float(r["eval_mask_exact"]) <= 1 and 0 <= float(r["eval_mask_id_acc"]) <= 1
    aux = [r for r in train if r["arm"] == "aux" and r["aux_id_acc"]]
    assert aux and all(0 <= float(r["aux_exact"]) <= 1 and 0 < float(r["aux_id_acc"]) <= 1 for r in aux)
    doc = (out / "masking.md").read_text(encoding="utf-8")
    assert BEGIN in doc and END in doc and all(label in doc for label in ARMS.values())
    assert (out / "masking.png").stat().st_size > 10_000 and (out / "summary.json").is_file()
    # --report regenerates the same figures from the finished run.
    again = tmp_path / "again.md"
    res = subprocess.run(
        [sys.executable, "benchmarks/masking.py", "--report", str(out), "--doc", str(again)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    assert again.read_text(encoding="utf-8") == doc
