"""A training run: imitation warm start, then MaskablePPO, with evaluation, checkpoints and resume.

The run directory (``train.py --run-dir DIR``) holds everything a run produces:

==========================  ========================================================================
``config.yaml``             the resolved config (every key, defaults filled in)
``run_state.json``          phase, timesteps, the latest checkpoint, the best evaluation so far
``imitation.zip/.json``     the cloned policy, its held-out accuracy and the data sizes
``checkpoints/ckpt_N.zip``  the model after N PPO env steps (optimizer state included)
``best_model.zip``          the model with the best periodic evaluation (the clone included), kept
                            for comparison; the run's model is ``model.zip`` (docs/training.md)
``model.zip``               the model at the end of the budget
``metrics.csv``             one row per evaluation (``python -m agents.plot DIR`` draws it)
``results.json/.md``        the final table: random, heuristic, the clone and the trained team,
                            on the same seeded deals
``tb/``                     tensorboard logs (SB3's, plus ``eval/*``)
==========================  ========================================================================

Every file is written to a temporary name and renamed, so a crash never leaves a half-written
checkpoint, and ``run_state.json`` names a checkpoint only once it is complete. ``resume`` reloads
the latest checkpoint (policy, optimizer, timesteps, torch RNG) and continues: at most one
checkpoint interval of PPO steps is lost.
"""

from __future__ import annotations

import csv
import json
import os
import time
from pathlib import Path
from typing import Any

from .imitation import Demonstrations, accuracy, fit, record
from .train_config import TrainConfig, dump
from .training_eval import METRIC_FIELDS, evaluate_model, final_table

# Seed offsets keep the game seeds of each use apart (training envs draw theirs from the run seed).
DEMO_SEED = 10_000_000
HOLDOUT_SEED = 20_000_000
DAGGER_SEED = 30_000_000


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _atomic_save(model: Any, path: Path) -> None:
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(str(tmp))
    os.replace(tmp, path)


class Run:
    """One run directory; ``start`` makes a new one, ``resume`` continues one."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, progress: bool = True, log=print) -> None:
        self.cfg = cfg
        self.dir = run_dir
        self.progress = progress
        self.log = log
        self.state: dict[str, Any] = {
            "phase": "imitation",
            "timesteps": 0,
            "checkpoint": None,
            "best_win_rate": -1.0,
            "best_curses": -1.0,
            "best_timesteps": None,
            "wall_s": 0.0,
        }
        self._t0 = time.perf_counter()
        self._wall0 = 0.0

    # -- run state ---------------------------------------------------------------------------------

    @property
    def wall_s(self) -> float:
        return self._wall0 + time.perf_counter() - self._t0

    def save_state(self) -> None:
        self.state["wall_s"] = round(self.wall_s, 1)
        _atomic_write(self.dir / "run_state.json", json.dumps(self.state, indent=1))

    @classmethod
    def start(cls, cfg: TrainConfig, run_dir: Path, **kw: Any) -> Run:
        if (run_dir / "run_state.json").exists():
            raise FileExistsError(
                f"{run_dir} already holds a run: continue it with --resume {run_dir}, "
                "or pick another --run-dir"
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        dump(cfg, run_dir / "config.yaml")
        run = cls(cfg, run_dir, **kw)
        run.save_state()
        return run

    @classmethod
    def resume(cls, run_dir: Path, **kw: Any) -> Run:
        from .train_config import load

        if not (run_dir / "run_state.json").is_file():
            raise FileNotFoundError(f"{run_dir}: no run_state.json: not a run directory of train.py")
        cfg = load(run_dir / "config.yaml")
        run = cls(cfg, run_dir, **kw)
        run.state.update(json.loads((run_dir / "run_state.json").read_text(encoding="utf-8")))
        run._wall0 = float(run.state.get("wall_s", 0.0))
        return run

    # -- the phases ---------------------------------------------------------------------------------

    def execute(self) -> dict[str, Any]:
        import torch

        torch.set_num_threads(self.cfg.budget.torch_threads)
        model = self._model()
        if self.state["phase"] == "imitation":
            if self.cfg.imitation.enabled:
                self._imitate(model)
            self.state["phase"] = "ppo"
            self.save_state()
        if self.state["phase"] == "ppo":
            if self.cfg.ppo.enabled:
                self._ppo(model)
            _atomic_save(model, self.dir / "model.zip")
            self.state["phase"] = "final"
            self.save_state()
        results = final_table(self)
        self.state["phase"] = "done"
        self.save_state()
        return results

    def _make_env(self):
        import gymnasium as gym
        from stable_baselines3.common.monitor import Monitor
        from stable_baselines3.common.vec_env import DummyVecEnv

        import bbom_env  # noqa: F401  (registers the env)

        kwargs = self.cfg.env_kwargs()
        # DummyVecEnv: fastest here (docs/training.md, Early measurements: SubprocVecEnv pays a round
        # trip for the mask).
        venv = DummyVecEnv(
            [lambda: Monitor(gym.make("BigBookOfMadness-v2", **kwargs)) for _ in range(self.cfg.ppo.n_envs)]
        )
        # Each resume reseeds with the step count, so a resumed run plays fresh, reproducible games.
        venv.seed(self.cfg.seed * 1000 + int(self.state["timesteps"]))
        return venv

    def _model(self):
        from sb3_contrib import MaskablePPO

        p = self.cfg.ppo
        venv = self._make_env()
        ckpt = self.state.get("checkpoint")
        if ckpt and self.state["phase"] == "ppo":
            self.log(f"resuming from {ckpt} ({self.state['timesteps']} PPO steps)")
            model = MaskablePPO.load(str(self.dir / ckpt), env=venv, device="cpu")
            model.tensorboard_log = str(self.dir / "tb")
            rng = self.dir / (ckpt[: -len(".zip")] + ".rng.pt")
            if rng.is_file():
                import torch

                torch.set_rng_state(torch.load(rng))
            return model
        model = MaskablePPO(
            "MlpPolicy",
            venv,
            learning_rate=p.learning_rate,
            n_steps=p.n_steps,
            batch_size=p.batch_size,
            n_epochs=p.n_epochs,
            gamma=p.gamma,
            gae_lambda=p.gae_lambda,
            clip_range=p.clip_range,
            ent_coef=p.ent_coef,
            vf_coef=p.vf_coef,
            max_grad_norm=p.max_grad_norm,
            target_kl=p.target_kl,
            policy_kwargs={"net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)}},
            tensorboard_log=str(self.dir / "tb"),
            seed=self.cfg.seed,
            device="cpu",
            verbose=0,
        )
        if self.state["phase"] != "imitation" and (self.dir / "imitation.zip").is_file():
            model.set_parameters(str(self.dir / "imitation.zip"), device="cpu")
        return model

    def _imitate(self, model) -> None:
        from .policy_agent import PolicyAgent

        im, cfg = self.cfg.imitation, self.cfg
        reward = cfg.reward_config()
        game, ooh = cfg.env.game, cfg.env.observe_other_hands
        t0 = time.perf_counter()
        bar = _bar(self.progress, im.games + im.holdout_games, "recording heuristic games")
        data = record(game, im.games, DEMO_SEED + cfg.seed, reward, ooh, progress=bar)
        held = record(game, im.holdout_games, HOLDOUT_SEED + cfg.seed, reward, ooh, progress=bar)
        bar(0, close=True)
        self.log(f"recorded {len(data)} decisions from {data.games} heuristic games ({data.wins} wins)")
        expert = None
        if im.labels:
            from .expert_labels import load
            from .train_config import label_path

            expert = load([label_path(p) or p for p in im.labels], game, reward, ooh)
            self.log(
                f"expert labels: {len(expert)} decisions from {expert.games} games ({', '.join(im.labels)})"
            )
            data = Demonstrations.concat([data, expert])
        logger = self._bc_log("bc")
        fit(model.policy, data, im.epochs, im.batch_size, im.learning_rate, im.value_coef, cfg.seed, logger)
        rounds = []
        for r in range(im.dagger_rounds):
            acc, _ = accuracy(model.policy, held)
            agent = PolicyAgent(model, observe_other_hands=ooh)
            seed = DAGGER_SEED + cfg.seed + r * im.dagger_games
            extra = record(game, im.dagger_games, seed, reward, ooh, actor=agent.act)
            rounds.append(
                {"round": r + 1, "accuracy_before": acc, "decisions": len(extra), "wins": extra.wins}
            )
            self.log(f"DAgger round {r + 1}: the clone won {extra.wins}/{extra.games}; {len(extra)} labels")
            data = Demonstrations.concat([data, extra])
            fit(model.policy, data, im.dagger_epochs, im.batch_size, im.learning_rate, im.value_coef,
                cfg.seed + r + 1, self._bc_log(f"dagger{r + 1}"))  # fmt: skip
        acc, base = accuracy(model.policy, held)
        train_acc, _ = accuracy(model.policy, data)
        expert_report = None
        if expert is not None:
            expert_report = {"files": im.labels, "games": expert.games, "decisions": len(expert)}
        report = {
            "heuristic_games": im.games,
            "decisions": len(data),
            "holdout_games": im.holdout_games,
            "holdout_decisions": len(held),
            "holdout_accuracy": round(acc, 4),
            "train_accuracy": round(train_acc, 4),
            "uniform_legal_baseline": round(base, 4),
            "dagger": rounds,
            "expert_labels": expert_report,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        _atomic_write(self.dir / "imitation.json", json.dumps(report, indent=1))
        _atomic_save(model, self.dir / "imitation.zip")
        self.log(f"imitation: held-out accuracy {acc:.3f} (uniform over legal moves: {base:.3f})")
        self.evaluate_and_record(model, timesteps=0)

    def _bc_log(self, tag: str):
        def log(rec: dict) -> None:
            self.log(f"{tag} epoch {rec['epoch']}: policy loss {rec['policy_loss']:.4f}, "
                     f"value loss {rec['value_loss']:.4f}")  # fmt: skip

        return log

    def _ppo(self, model) -> None:
        from .training_callback import RunCallback

        target = self.cfg.budget.timesteps
        done = int(self.state["timesteps"])
        if done == 0 and not self.cfg.imitation.enabled:
            self.evaluate_and_record(model, timesteps=0)
        if done < target:
            model.learn(
                total_timesteps=target - done,
                callback=RunCallback(self),
                reset_num_timesteps=done == 0,
                tb_log_name="ppo",
                progress_bar=self.progress,
            )
        self.state["timesteps"] = int(model.num_timesteps)
        if self.state.get("last_eval") != model.num_timesteps:
            self.evaluate_and_record(model, timesteps=int(model.num_timesteps))
        self.save_state()

    # -- evaluation and checkpoints -----------------------------------------------------------------

    def evaluate_and_record(self, model, timesteps: int, train: dict | None = None) -> dict[str, Any]:
        ev = self.cfg.evaluation
        row = evaluate_model(model, self.cfg, ev.games, ev.seed)
        row = {"timesteps": timesteps, "wall_s": round(self.wall_s, 1), **row, **(train or {})}
        self._append_metrics(row)
        self.state["last_eval"] = timesteps
        # Best by win rate; equal win rates (0% early on) by Curses destroyed, the first progress.
        score = (row["eval_win_rate"], row["eval_curses"])
        if score > (self.state["best_win_rate"], self.state.get("best_curses", -1.0)):
            self.state["best_win_rate"] = row["eval_win_rate"]
            self.state["best_curses"] = row["eval_curses"]
            self.state["best_timesteps"] = timesteps
            _atomic_save(model, self.dir / "best_model.zip")
        self.save_state()
        self.log(
            f"[{timesteps:>9,} steps | {self.wall_s:6.0f} s] eval {ev.games} games: win "
            f"{100 * row['eval_win_rate']:.1f}% "
            f"({100 * row['eval_win_lo']:.0f}-{100 * row['eval_win_hi']:.0f}), "
            f"curses {row['eval_curses']:.1f}, monsters {row['eval_monsters']:.2f}"
        )
        return row

    def _append_metrics(self, row: dict[str, Any]) -> None:
        path = self.dir / "metrics.csv"
        rows = []
        if path.is_file():
            with path.open(newline="", encoding="utf-8") as f:
                # Rows past the resumed checkpoint were lost progress: they are measured again.
                rows = [r for r in csv.DictReader(f) if int(r["timesteps"]) < row["timesteps"]]
        rows.append({k: row.get(k, "") for k in METRIC_FIELDS})
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=METRIC_FIELDS)
            w.writeheader()
            w.writerows(rows)
        os.replace(tmp, path)

    def checkpoint(self, model) -> None:
        import torch

        steps = int(model.num_timesteps)
        ck = self.dir / "checkpoints"
        ck.mkdir(exist_ok=True)
        name = f"checkpoints/ckpt_{steps}.zip"
        _atomic_save(model, self.dir / name)
        rng_tmp = ck / f"ckpt_{steps}.rng.pt.tmp"
        torch.save(torch.get_rng_state(), rng_tmp)
        os.replace(rng_tmp, ck / f"ckpt_{steps}.rng.pt")
        self.state["checkpoint"] = name
        self.state["timesteps"] = steps
        self.save_state()
        # Older checkpoints go only once the new one is named in run_state.json.
        zips = sorted(ck.glob("ckpt_*.zip"), key=lambda p: int(p.stem.split("_")[1]))
        for old in zips[: -self.cfg.budget.keep_checkpoints]:
            old.unlink()
            rng = old.with_name(old.stem + ".rng.pt")
            if rng.exists():
                rng.unlink()


def _bar(enabled: bool, total: int, desc: str):
    """A tqdm bar as a callable ``bar(n)``; ``bar(0, close=True)`` closes it."""
    if not enabled:
        return lambda n, close=False: None
    from tqdm import tqdm

    t = tqdm(total=total, desc=desc, unit="game", leave=False)

    def update(n: int, close: bool = False) -> None:
        t.update(n)
        if close:
            t.close()

    return update
