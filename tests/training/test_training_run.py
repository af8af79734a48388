"""Training runs end to end (train.py, agents/training.py): a smoke run whose model loads, plays and
is evaluated; resume after a crash; imitation accuracy above the uniform-legal baseline."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents import make_agent
from agents.imitation import accuracy, fit, record
from agents.train_config import TrainConfig, load
from agents.training import Run
from agents.training_eval import evaluate_model, play_games

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "smoke.yaml"


def _metrics(run_dir: Path) -> list[dict]:
    with (run_dir / "metrics.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def test_smoke_run_in_a_subprocess(tmp_path: Path) -> None:
    run_dir = tmp_path / "smoke"
    res = subprocess.run(
        [sys.executable, "train.py", "--config", str(SMOKE), "--run-dir", str(run_dir), "--no-progress"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    for name in ("config.yaml", "imitation.zip", "imitation.json", "best_model.zip", "model.zip",
                 "metrics.csv", "results.json", "results.md", "run_state.json"):  # fmt: skip
        assert (run_dir / name).is_file(), name
    assert list((run_dir / "tb").rglob("events.out.tfevents.*")), "no tensorboard log"
    state = json.loads((run_dir / "run_state.json").read_text())
    assert state["phase"] == "done" and state["timesteps"] >= 512
    rows = _metrics(run_dir)
    steps = [int(r["timesteps"]) for r in rows]
    assert steps[0] == 0 and steps == sorted(set(steps)) and steps[-1] >= 512
    results = json.loads((run_dir / "results.json").read_text())
    teams = {t["team"]: t for t in results["teams"]}
    assert set(teams) == {"random", "heuristic", "imitation", "ppo best", "ppo last"}
    assert all(t["games"] == 4 for t in teams.values())
    # The run's model is the last; both PPO rows are paired with the clone, the others are not.
    assert results["chosen"] == "ppo last"
    wins = {name: t["wins"] for name, t in teams.items()}
    for name in ("ppo best", "ppo last"):
        assert teams[name]["vs_imitation"][0] == pytest.approx((wins[name] - wins["imitation"]) / 4)
    assert teams["heuristic"]["vs_imitation"] is None and teams["imitation"]["vs_imitation"] is None
    assert "| ppo last (the run's model) |" in (run_dir / "results.md").read_text()
    # The printed table is the results table.
    assert (run_dir / "results.md").read_text() in res.stdout
    # The saved model loads, plays legal moves to the end of a game, and evaluates.
    agent = make_agent(str(run_dir / "model.zip"))
    out = play_games(lambda _s: agent, {"num_players": 2}, games=2, seed=7, max_decisions=2000)
    assert out["games"] == 2 and out["decisions"] > 10
    # A finished run cannot be started again in the same directory.
    again = subprocess.run(
        [sys.executable, "train.py", "--config", str(SMOKE), "--run-dir", str(run_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "--resume" in again.stderr and "Traceback" not in again.stderr


class Crash(Exception):
    pass


def test_resume_continues_from_the_last_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = load(SMOKE, ["budget.timesteps=768", "imitation.dagger_rounds=0"])
    run_dir = tmp_path / "run"
    run = Run.start(cfg, run_dir, progress=False, log=lambda m: None)
    real = Run.checkpoint

    def crash_after_first(self: Run, model) -> None:
        real(self, model)
        raise Crash  # the process dies right after a complete checkpoint

    monkeypatch.setattr(Run, "checkpoint", crash_after_first)
    with pytest.raises(Crash):
        run.execute()
    monkeypatch.setattr(Run, "checkpoint", real)
    state = json.loads((run_dir / "run_state.json").read_text())
    assert state["phase"] == "ppo" and state["checkpoint"] == "checkpoints/ckpt_256.zip"
    assert state["timesteps"] == 256
    logs: list[str] = []
    resumed = Run.resume(run_dir, progress=False, log=logs.append)
    resumed.execute()
    assert any("resuming from checkpoints/ckpt_256.zip (256 PPO steps)" in m for m in logs), logs
    state = json.loads((run_dir / "run_state.json").read_text())
    assert state["phase"] == "done" and state["timesteps"] == 768
    steps = [int(r["timesteps"]) for r in _metrics(run_dir)]
    assert steps == [0, 256, 512, 768]  # no row lost, none duplicated
    # keep_checkpoints=2 (the default): only the two newest remain.
    assert sorted(p.name for p in (run_dir / "checkpoints").glob("*.zip")) == ["ckpt_512.zip", "ckpt_768.zip"]


def test_resume_refuses_a_directory_without_a_run(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a run directory"):
        Run.resume(tmp_path)


def test_imitation_beats_the_uniform_legal_baseline() -> None:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import bbom_env  # noqa: F401

    cfg = TrainConfig()
    reward = cfg.reward_config()
    data = record(cfg.env.game, 12, 500, reward)  # a few thousand heuristic decisions
    held = record(cfg.env.game, 4, 900, reward)
    assert len(data) > 1000 and len(held) > 300
    env = gym.make("BigBookOfMadness-v2", **cfg.env_kwargs())
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [128, 128]}, seed=0, device="cpu")
    before, baseline = accuracy(model.policy, held)
    fit(model.policy, data, epochs=6, batch_size=256, learning_rate=1e-3, value_coef=0.5, seed=0)
    after, _ = accuracy(model.policy, held)
    assert 0.1 < baseline < 0.3
    assert after > baseline + 0.25, (before, after, baseline)
    # Evaluation of a model is deterministic for a seed.
    a = evaluate_model(model, cfg, games=3, seed=11)
    b = evaluate_model(model, cfg, games=3, seed=11)
    assert a == b
