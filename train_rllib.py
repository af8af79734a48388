"""Train one shared policy for the whole team with Ray RLlib's PPO (new API stack), on one machine or a
Ray cluster (docs/scaling.md). Needs the ``rllib`` extra: ``bash scripts/setup_rllib.sh``, then

    .venv-rllib/bin/python train_rllib.py --config configs/rllib/default.yaml [--set k=v] [--run-dir DIR]

The YAML config has the sections ``seed``, ``env`` (the same keys as train.py's ``env``: game,
observe_other_hands, max_steps, reward), ``ppo``, ``resources`` (Ray address, env runners,
learners) and ``budget``; unknown keys or bad values exit 2 naming them. The run directory holds
``config.yaml`` (resolved), ``metrics.csv`` (one row per iteration: env steps, env steps/s,
episodes, mean return and length), ``checkpoint/`` (the latest, written to a temporary folder and
renamed) and, when ``budget.eval_games`` > 0, ``results.json``: ``agents.evaluate`` of the
checkpoint beside the heuristic team on the same seeded deals. The checkpoint plays in
``python -m agents.evaluate --policy rllib:DIR/checkpoint``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.train_config import EnvSection, TrainConfigError, _build, parse_override
from bbom_env.rl.rewards import RewardConfig


@dataclass
class PPOSection:
    """RLlib PPO hyper-parameters (RLlib names; ``train_batch_size`` is per learner)."""

    lr: float = 5e-5
    gamma: float = 0.999
    lambda_: float = 0.95
    clip_param: float = 0.1
    entropy_coeff: float = 0.0
    vf_loss_coeff: float = 0.5
    grad_clip: float = 0.5
    train_batch_size: int = 4000
    minibatch_size: int = 512
    num_epochs: int = 4
    hiddens: list[int] = field(default_factory=lambda: [256, 256])


@dataclass
class ResourcesSection:
    """Where it runs. ``address``: "" starts a local Ray; "auto" (or host:port) joins a cluster."""

    address: str = ""
    num_cpus: int = 0  # local Ray only: CPUs it may use (0: all)
    num_env_runners: int = 0  # sampling actors (0: sample in the driver)
    num_envs_per_env_runner: int = 1
    num_cpus_per_env_runner: float = 1.0
    num_learners: int = 0  # learner actors (0: learn in the driver)
    num_gpus_per_learner: float = 0.0
    # torch threads of the driver (which samples when num_env_runners is 0, and learns when
    # num_learners is 0): with one per core, sampling in the driver was 10x slower here (measured).
    torch_threads: int = 1


@dataclass
class BudgetSection:
    timesteps: int = 200_000  # env steps (decisions of all seats) sampled in all
    checkpoint_every: int = 5  # iterations between checkpoints (and the last one)
    eval_games: int = 100  # agents.evaluate games at the end (0: none)
    eval_seed: int = 0


@dataclass
class RLlibConfig:
    seed: int = 0
    env: EnvSection = field(default_factory=EnvSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    resources: ResourcesSection = field(default_factory=ResourcesSection)
    budget: BudgetSection = field(default_factory=BudgetSection)

    def env_config(self) -> dict[str, Any]:
        """``env_config`` of ``BBoMMultiAgentEnv`` (the reward's gamma is the learner's)."""
        reward = RewardConfig.coerce({**self.env.reward, "gamma": self.ppo.gamma}).to_dict()
        return {
            **self.env.game,
            "observe_other_hands": self.env.observe_other_hands,
            "max_steps": self.env.max_steps,
            "reward": reward,
            "seed": self.seed,
        }


def load_config(path: str | None, overrides: list[str]) -> RLlibConfig:
    import yaml

    data: Any = {}
    where = "<defaults>"
    if path is not None:
        where = path
        p = Path(path)
        if not p.is_file():
            raise TrainConfigError(f"{where}: no such config file")
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise TrainConfigError(f"{where}: not a valid YAML file ({e})") from None
    for text in overrides:
        keys, value = parse_override(text)
        node = data
        for k in keys[:-1]:
            node = node.setdefault(k, {})
            if not isinstance(node, dict):
                raise TrainConfigError(f"--set {text!r}: {k!r} is not a section")
        node[keys[-1]] = value
    cfg = _build(RLlibConfig, data, "", where)
    try:
        from bbom_env.engine import GameConfig

        game = GameConfig(**cfg.env.game)
        if "modules" in cfg.env.game:  # a set: config.yaml names it in the canonical order
            cfg.env.game["modules"] = list(game.modules)
        cfg.env_config()
    except (TypeError, ValueError) as e:
        raise TrainConfigError(f"{where}: env: {e}") from None
    if cfg.ppo.minibatch_size > cfg.ppo.train_batch_size:
        raise TrainConfigError(f"{where}: ppo.minibatch_size exceeds ppo.train_batch_size")
    if cfg.budget.timesteps < 1 or cfg.budget.checkpoint_every < 1 or cfg.ppo.train_batch_size < 1:
        raise TrainConfigError(
            f"{where}: budget.timesteps, budget.checkpoint_every, ppo.train_batch_size >= 1"
        )
    return cfg


def run_directory(given: str | None, config: str) -> Path:
    """The run directory, absolute: RLlib saves and reads checkpoints through pyarrow's file
    systems, which fail on a relative path ("URI has empty scheme"). Default: runs/rllib_<config
    name>_N (apart from train.py's runs/<config name>_N), the first free N."""
    run_dir = Path(given) if given else next_run_dir(Path("runs"), "rllib_" + Path(config).stem)
    return run_dir.expanduser().resolve()


def next_run_dir(base: Path, name: str) -> Path:
    i = 1
    while (base / f"{name}_{i}").exists():
        i += 1
    return base / f"{name}_{i}"


def save_checkpoint(algo: Any, run_dir: Path) -> Path:
    """Write the checkpoint to a temporary folder, then swap it in: a crash leaves the last one."""
    final = run_dir / "checkpoint"
    tmp = run_dir / "checkpoint.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    old = run_dir / "checkpoint.old"
    if final.exists():
        final.rename(old)
    tmp.rename(final)
    shutil.rmtree(old, ignore_errors=True)
    return final


def iteration_row(result: dict[str, Any], it: int, wall: float, last: tuple[float, int]) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    steps = int(
        result.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0))
    )
    t0, s0 = last
    return {
        "iteration": it,
        "env_steps": steps,
        "wall_s": round(wall, 2),
        "env_steps_per_s": round((steps - s0) / max(wall - t0, 1e-9), 1),
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "episode_return_mean": runners.get("episode_return_mean", float("nan")),
        "episode_len_mean": runners.get("episode_len_mean", float("nan")),
    }


def train(cfg: RLlibConfig, run_dir: Path, log: Any = print) -> dict[str, Any]:
    import ray
    import yaml

    from bbom_env.rllib.config import ppo_config

    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(dataclasses.asdict(cfg), sort_keys=False))
    res = cfg.resources
    if res.torch_threads > 0:
        import torch

        torch.set_num_threads(res.torch_threads)
    if not ray.is_initialized():
        if res.address:
            ray.init(address=res.address, log_to_driver=False)
        else:
            ray.init(num_cpus=res.num_cpus or None, include_dashboard=False, log_to_driver=False)
    p = cfg.ppo
    algo = ppo_config(
        cfg.env_config(),
        num_env_runners=res.num_env_runners,
        num_envs_per_env_runner=res.num_envs_per_env_runner,
        num_cpus_per_env_runner=res.num_cpus_per_env_runner,
        num_learners=res.num_learners,
        num_gpus_per_learner=res.num_gpus_per_learner,
        train_batch_size=p.train_batch_size,
        minibatch_size=p.minibatch_size,
        num_epochs=p.num_epochs,
        lr=p.lr,
        gamma=p.gamma,
        lambda_=p.lambda_,
        clip_param=p.clip_param,
        entropy_coeff=p.entropy_coeff,
        vf_loss_coeff=p.vf_loss_coeff,
        grad_clip=p.grad_clip,
        hiddens=p.hiddens,
        seed=cfg.seed,
    ).build_algo()
    t0 = time.perf_counter()
    last = (0.0, 0)
    rows = []
    it = 0
    ckpt = None
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        writer = None
        while last[1] < cfg.budget.timesteps:
            it += 1
            result = algo.train()
            row = iteration_row(result, it, time.perf_counter() - t0, last)
            last = (row["wall_s"], row["env_steps"])
            rows.append(row)
            if writer is None:
                writer = csv.DictWriter(f, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
            f.flush()
            log(
                f"iter {it}: {row['env_steps']} env steps, {row['env_steps_per_s']:.0f}/s, "
                f"return {row['episode_return_mean']:.3f}, length {row['episode_len_mean']:.0f}"
            )
            if it % cfg.budget.checkpoint_every == 0:
                ckpt = save_checkpoint(algo, run_dir)
    if ckpt is None or it % cfg.budget.checkpoint_every:
        ckpt = save_checkpoint(algo, run_dir)
    algo.stop()
    summary: dict[str, Any] = {
        "iterations": it,
        "env_steps": last[1],
        "wall_s": last[0],
        "checkpoint": str(ckpt),
    }
    if cfg.budget.eval_games:
        summary["evaluation"] = evaluate(cfg, ckpt, log)
    (run_dir / "results.json").write_text(json.dumps(summary, indent=2))
    return summary


def evaluate(cfg: RLlibConfig, ckpt: Path, log: Any = print) -> dict[str, Any]:
    """The checkpoint and the heuristic team on the same seeded deals (agents.evaluate)."""
    from agents.evaluate import evaluate as run_eval

    game = {**cfg.env.game}
    out = {}
    for team in (f"rllib:{ckpt}", "heuristic"):
        s = run_eval(
            team, cfg.budget.eval_games, cfg.budget.eval_seed, max_decisions=cfg.env.max_steps, **game
        )
        out[team] = {"games": s.games, "wins": s.wins, "win_rate": s.win_rate, "win_ci": list(s.win_ci),
                     "curses_destroyed": s.curses_destroyed, "truncated": s.truncated}  # fmt: skip
        log(f"{team}: win rate {100 * s.win_rate:.1f}% ({s.wins}/{s.games}), Curses {s.curses_destroyed:.1f}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train the team with Ray RLlib PPO (docs/scaling.md)")
    ap.add_argument("--config", default="configs/rllib/default.yaml")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument(
        "--run-dir",
        "--out",
        dest="run_dir",
        default=None,
        help="run directory, as train.py's --run-dir (--out: the same; default: runs/rllib_<config name>_N)",
    )
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config, args.set)
    except TrainConfigError as e:
        print(f"train_rllib.py: {e}", file=sys.stderr)
        return 2
    run_dir = run_directory(args.run_dir, args.config)
    print(f"run directory: {run_dir}")
    summary = train(cfg, run_dir)
    print(json.dumps({k: v for k, v in summary.items() if k != "evaluation"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
