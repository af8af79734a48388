"""PPO from scratch learns something real within a small budget (slow: about a minute)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents import RandomAgent
from agents.train_config import load
from agents.training import Run
from agents.training_eval import play_games

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_ppo_from_scratch_beats_random_on_curses_destroyed(tmp_path: Path) -> None:
    cfg = load(
        ROOT / "configs" / "smoke.yaml",
        [
            "imitation.enabled=false",
            "ppo.n_envs=8",
            "ppo.n_steps=256",
            "ppo.batch_size=512",
            "ppo.n_epochs=4",
            "ppo.learning_rate=3e-4",
            "ppo.net_arch=[128, 128]",
            "budget.timesteps=40960",
            "budget.checkpoint_every=40960",
            "evaluation.every=40960",
            "evaluation.games=20",
            "evaluation.final_games=20",
        ],
    )
    run = Run.start(cfg, tmp_path / "run", progress=False, log=lambda m: None)
    results = run.execute()
    teams = {t["team"]: t for t in results["teams"]}
    rnd = play_games(RandomAgent, cfg.env.game, 20, cfg.evaluation.final_seed, cfg.env.max_steps)
    assert teams["random"]["curses"] == rnd["curses"]  # the table's random row is these games
    # Random play destroys about 1 Curse a game; the trained team must clearly do more.
    assert teams["ppo last"]["curses"] > rnd["curses"] + 1.0, (teams["ppo last"], rnd)
    # With no win yet, the best model is chosen by Curses destroyed: the trained one, not step 0.
    assert run.state["best_timesteps"] == 40960, run.state
