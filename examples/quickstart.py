"""Quickstart: play a random game, train a team for a minute, evaluate it.

    python examples/quickstart.py                          # about 2 minutes on 2 cores
    python examples/quickstart.py --seconds 5 --games 4    # a smoke run (seconds)

1. A random team plays one game through the Gymnasium env, choosing among the legal moves (the
   mask in ``info["action_mask"]``).
2. sb3-contrib's MaskablePPO trains one shared policy for every seat, from scratch, for
   ``--seconds`` (the ``train`` extra: ``pip install -e ".[train]"``), and saves it.
3. The saved policy, a random team and the scripted heuristic team play the same seeded deals
   (``agents.evaluate``), and their win rates are printed.

A minute of PPO from scratch wins next to no games: the point here is the loop. The recipe that
gets near the heuristic team (an imitation warm start, then PPO for 13 minutes) is ``python
train.py`` (docs/training.md). Add ``--modules dark_matter,phobias`` to play The Vth Element.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import bbom_env


def play_random_game(seed: int, **env_kwargs: Any) -> None:
    """One game of a random team: each decision a uniformly random legal move."""
    env = gym.make(bbom_env.GYM_ID, **env_kwargs)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    steps, total, terminated, truncated = 0, 0.0, False, False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps, total = steps + 1, total + float(reward)
    state = env.get_wrapper_attr("state")  # the engine's GameState under the env
    print(f"random game (seed {seed}): {state.outcome} after {steps} decisions, reward {total:+.0f}")
    print(f"  {state.reason}; Curses destroyed: {state.stats['curses_destroyed']}")
    env.close()


def train(seconds: float, out: Path, seed: int, **env_kwargs: Any) -> Path:
    """MaskablePPO from scratch for about ``seconds`` of wall time; returns the saved model's path."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    # One thread: this small network trains faster on one core than with torch's default pool, which
    # contends for the cores with everything else (docs/training.md, Early measurements).
    torch.set_num_threads(1)

    class StopAfter(BaseCallback):
        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.monotonic() + seconds

        def _on_step(self) -> bool:
            return time.monotonic() < self.deadline  # False stops learn()

    env = gym.make(bbom_env.GYM_ID, **env_kwargs)  # MaskablePPO reads env.action_masks()
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=seed, verbose=0)
    start = time.monotonic()
    model.learn(total_timesteps=10_000_000, callback=StopAfter(seconds))
    path = out / "model.zip"
    model.save(path)
    print(f"trained {model.num_timesteps} steps in {time.monotonic() - start:.0f} s -> {path}")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="training time (default 60)")
    parser.add_argument("--games", type=int, default=50, help="evaluation deals per team (default 50)")
    parser.add_argument("--players", type=int, default=2, help="2 to 5 (default 2)")
    parser.add_argument("--modules", default="", help="e.g. dark_matter,phobias (default: base game)")
    parser.add_argument("--out", type=Path, default=Path("runs/quickstart"), help="where the model goes")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.games < 1:
        parser.error("--seconds must be > 0 and --games >= 1")
    game = {"num_players": args.players, "modules": tuple(m for m in args.modules.split(",") if m)}

    play_random_game(seed=0, **game)

    args.out.mkdir(parents=True, exist_ok=True)
    model = train(args.seconds, args.out, seed=0, **game)

    from agents.evaluate import evaluate

    print(f"\nwin rates on the same {args.games} seeded deals (argmax play for the trained team):")
    for team in ("random", "heuristic", str(model)):
        s = evaluate(team, args.games, **game)
        lo, hi = s.win_ci
        rate = f"{s.wins / s.games:6.1%} (95% CI {lo:.1%}-{hi:.1%})"
        print(f"  {team:<28} {rate}  Curses {s.curses_destroyed:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
