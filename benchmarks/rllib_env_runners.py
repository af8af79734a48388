"""RLlib PPO throughput with 0, 1 and 2 env runners on this machine (docs/scaling.md). Needs the
``rllib`` extra (.venv-rllib):

    .venv-rllib/bin/python benchmarks/rllib_env_runners.py [--runners 0 1 2] [--iterations 3] [--json]

Each setting builds PPO on ``BBoMMultiAgentEnv`` (configs/rllib/default.yaml's model and PPO settings,
``--envs`` games per runner, ``--batch`` env steps per iteration, 1 epoch; the driver uses
``--torch-threads`` torch threads, 1 by default as train_rllib.py), runs one warm-up
iteration, then ``--iterations`` timed ones. Reported: env steps/s of whole iterations (sampling
plus learning, what a run gets).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bbom_env import cli  # noqa: E402


def measure(runners: int, envs: int, batch: int, iterations: int, env: dict[str, Any]) -> dict[str, float]:
    from bbom_env.rllib.config import ppo_config

    algo = ppo_config(
        env, num_env_runners=runners, num_envs_per_env_runner=envs, train_batch_size=batch,
        minibatch_size=min(512, batch), num_epochs=1,
    ).build_algo()  # fmt: skip
    try:
        algo.train()  # warm-up: actor start, first episodes
        steps = 0
        t0 = time.perf_counter()
        for _ in range(iterations):
            r = algo.train()
            steps += int(r["env_runners"]["num_env_steps_sampled"])
        wall = time.perf_counter() - t0
    finally:
        algo.stop()
    return {
        "env_runners": runners,
        "iteration_steps_per_s": steps / wall,
        "steps": steps,
        "wall_s": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="RLlib PPO env steps/s with 0, 1, 2 env runners")
    ap.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--envs", type=int, default=4, help="games per env runner")
    ap.add_argument("--batch", type=int, default=2000, help="env steps per iteration")
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--pack", default="default")
    ap.add_argument("--torch-threads", type=int, default=1, help="torch threads of the driver process")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if min(args.runners) < 0 or args.envs < 1 or args.batch < 1 or args.iterations < 1:
        ap.error("--runners >= 0, --envs, --batch and --iterations >= 1")
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        import ray
        import torch

        # With 0 env runners the driver samples: torch's default intra-op threads (one per core) made
        # sampling 10x slower on this 2-core machine (92 against 888 env steps/s, measured).
        torch.set_num_threads(args.torch_threads)
        ray.init(include_dashboard=False, log_to_driver=False)
        env = {"pack": args.pack, "num_players": 2, "seed": 0}
        rows = []
        for k in args.runners:
            row = measure(k, args.envs, args.batch, args.iterations, env)
            rows.append(row)
            print(
                f"env runners {k}: {row['iteration_steps_per_s']:,.0f} env steps/s "
                f"({row['steps']} steps in {row['wall_s']:.1f} s)"
            )
        ray.shutdown()
        if args.json:
            print(json.dumps({"cpus": os.cpu_count(), "rows": rows}), file=stdout)
        return 0


if __name__ == "__main__":
    sys.exit(main())
