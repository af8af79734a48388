"""Vectorised env throughput and MaskablePPO training speed, in one run (docs/scaling.md).

    python benchmarks/vector_env.py [--num-envs 8 32] [--seconds 5] [--train-steps 8192] [--json]

1. **Env steps/s** at the same N, random legal play (one shared sampler: ``argmax(mask * U)``, the
   same cost for every contender), autoreset on: the native ``BBoMVectorEnv`` (what
   ``make_vec(..., vectorization_mode="vector_entry_point")`` builds), Gymnasium's ``SyncVectorEnv``
   of ``BBoMGymEnv`` (``vectorization_mode="sync"``), SB3's ``DummyVecEnv`` of ``Monitor``-wrapped
   envs (what train.py uses) and the native SB3 adapter ``BBoMSB3VecEnv`` (+ ``VecMonitor``). A step
   of N games counts N env steps.
2. **Training steps/s**: MaskablePPO (train.py's default hyper-parameters: n_steps 256, batch 512,
   4 epochs, [256, 256], 1 torch thread) for ``--train-steps`` env steps with ``DummyVecEnv`` and
   with ``BBoMSB3VecEnv``; the env's share is the time spent inside ``step``/``reset`` and the
   mask calls, measured by a pass-through wrapper, over the wall time of ``learn``.

Pinned to one core; every contender is measured ``--repeats`` times, interleaved, and the median
is reported (other jobs' load then hits every contender alike); ``--json`` prints one JSON object
last.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bbom_env import cli  # noqa: E402


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to cpu {cpu}"
    return "not pinned"


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of an (N, A) mask."""
    return np.argmax(mask * rng.random(mask.shape), axis=1)


def gym_vector_rate(venv: Any, seconds: float, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    _, infos = venv.reset(seed=seed)
    n = venv.num_envs
    steps = 0
    t0 = time.perf_counter()
    while True:
        _, _, _, _, infos = venv.step(sample(infos["action_mask"], rng))
        steps += n
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return steps / dt


def sb3_rate(venv: Any, seconds: float, seed: int = 0) -> float:
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    venv.seed(seed)
    venv.reset()
    n = venv.num_envs
    steps = 0
    t0 = time.perf_counter()
    while True:
        venv.step(sample(get_action_masks(venv), rng))
        steps += n
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return steps / dt


def dummy_vec_env(n: int, kwargs: dict[str, Any]) -> Any:
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from bbom_env.rl.gym_env import BBoMGymEnv

    return DummyVecEnv([lambda: Monitor(BBoMGymEnv(**kwargs)) for _ in range(n)])


def native_sb3(n: int, kwargs: dict[str, Any]) -> Any:
    from stable_baselines3.common.vec_env import VecMonitor

    from bbom_env.rl.sb3_vec import BBoMSB3VecEnv

    return VecMonitor(BBoMSB3VecEnv(n, **kwargs))


def env_rates(n: int, seconds: float, kwargs: dict[str, Any], repeats: int = 3) -> dict[str, float]:
    import gymnasium as gym

    from bbom_env.rl.gym_env import BBoMGymEnv
    from bbom_env.rl.vector_env import BBoMVectorEnv

    # The env classes themselves (what make_vec's "vector_entry_point" and "sync" modes build), so
    # that both step the same BBoMGymEnv logic with the same step limit.
    runs: dict[str, list[float]] = {"native": [], "gymnasium_sync": [], "sb3_dummy": [], "native_sb3": []}
    for _ in range(repeats):  # interleaved, median: other jobs' load hits every contender alike
        runs["native"].append(gym_vector_rate(BBoMVectorEnv(n, **kwargs), seconds))
        sync = gym.vector.SyncVectorEnv([lambda: BBoMGymEnv(**kwargs) for _ in range(n)])
        runs["gymnasium_sync"].append(gym_vector_rate(sync, seconds))
        runs["sb3_dummy"].append(sb3_rate(dummy_vec_env(n, kwargs), seconds))
        runs["native_sb3"].append(sb3_rate(native_sb3(n, kwargs), seconds))
    return {k: float(np.median(v)) for k, v in runs.items()}


def train_rate(make: Any, n: int, steps: int, kwargs: dict[str, Any]) -> dict[str, float]:
    """MaskablePPO for ``steps`` env steps; wall time, steps/s and the env's share of it."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class Timed(VecEnvWrapper):
        """Adds up the time spent in the env (step, reset, masks)."""

        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.spent = 0.0

        def reset(self) -> Any:
            t = time.perf_counter()
            out = self.venv.reset()
            self.spent += time.perf_counter() - t
            return out

        def step_wait(self) -> Any:
            t = time.perf_counter()
            out = self.venv.step_wait()
            self.spent += time.perf_counter() - t
            return out

        def step_async(self, actions: np.ndarray) -> None:
            self.venv.step_async(actions)

        def env_method(
            self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
        ) -> list[Any]:
            t = time.perf_counter()
            out = self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)
            self.spent += time.perf_counter() - t
            return out

    torch.set_num_threads(1)
    venv = Timed(make(n, kwargs))
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        learning_rate=5e-5,
        policy_kwargs={"net_arch": [256, 256]},
        seed=0,
        device="cpu",
    )
    venv.spent = 0.0
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    wall = time.perf_counter() - t0
    return {"steps": model.num_timesteps, "wall_s": wall, "steps_per_s": model.num_timesteps / wall,
            "env_share": venv.spent / wall}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--train-steps", type=int, default=8192, help="0: skip the training measurement")
    ap.add_argument("--train-envs", type=int, default=8)
    ap.add_argument("--pack", default="default", choices=["default", "test"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3, help="interleaved repeats; the median is reported")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if any(n < 1 for n in args.num_envs) or args.seconds <= 0 or args.train_steps < 0:
        ap.error("--num-envs must be >= 1, --seconds > 0, --train-steps >= 0")
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        kwargs = {"pack": args.pack, "num_players": args.players}
        report: dict[str, Any] = {"pinning": pin_one_core(), "pack": args.pack, "players": args.players}
        print(f"{report['pinning']}; pack={args.pack}, {args.players} players, random legal play")
        report["env_steps_per_s"] = {}
        for n in args.num_envs:
            rates = env_rates(n, args.seconds, kwargs, args.repeats)
            report["env_steps_per_s"][n] = rates
            base = rates["gymnasium_sync"]
            print(
                f"N={n:3d} env steps/s: "
                + ", ".join(f"{k} {v:,.0f} ({v / base:.2f}x)" for k, v in rates.items())
            )
        if args.train_steps:
            report["training"] = {}
            runs: dict[str, list[dict[str, float]]] = {"sb3_dummy": [], "native_sb3": []}
            for _ in range(args.repeats):
                for name, make in (("sb3_dummy", dummy_vec_env), ("native_sb3", native_sb3)):
                    runs[name].append(train_rate(make, args.train_envs, args.train_steps, kwargs))
            for name, rs in runs.items():
                r = sorted(rs, key=lambda x: x["steps_per_s"])[len(rs) // 2]  # the median run
                report["training"][name] = r
                print(
                    f"MaskablePPO N={args.train_envs} {name}: {r['steps_per_s']:,.0f} steps/s "
                    f"({r['steps']} steps in {r['wall_s']:.1f} s), env share {100 * r['env_share']:.1f}%"
                )
        if args.json:
            print(json.dumps(report), file=stdout)
        return 0


if __name__ == "__main__":
    sys.exit(main())
