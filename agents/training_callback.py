"""The SB3 callback of a training run: periodic evaluation (metrics, best model), checkpoints and the
training-episode statistics of the rows of metrics.csv (see agents/training.py)."""

from __future__ import annotations

from typing import Any

from stable_baselines3.common.callbacks import BaseCallback


class RunCallback(BaseCallback):
    """Evaluates every ``evaluation.every`` env steps and checkpoints every ``budget.checkpoint_every``
    (both counted in PPO env steps, across resumes)."""

    def __init__(self, run: Any) -> None:
        super().__init__(verbose=0)
        self.run = run
        cfg = run.cfg
        done = int(run.state["timesteps"])
        self.every = cfg.evaluation.every
        self.ckpt_every = cfg.budget.checkpoint_every
        self.next_eval = (done // self.every + 1) * self.every
        self.next_ckpt = (done // self.ckpt_every + 1) * self.ckpt_every
        self._episodes: list[tuple[float, int, bool]] = []  # (return, length, won)

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "episode" in info:
                ep = info["episode"]
                self._episodes.append((float(ep["r"]), int(ep["l"]), bool(info.get("is_success", False))))
        t = self.num_timesteps
        if t >= self.next_eval:
            self.next_eval = (t // self.every + 1) * self.every
            row = self.run.evaluate_and_record(self.model, timesteps=t, train=self._train_stats())
            for key in ("eval_win_rate", "eval_curses", "eval_monsters", "eval_decisions"):
                self.logger.record("eval/" + key[5:], row[key])
        if t >= self.next_ckpt:
            self.next_ckpt = (t // self.ckpt_every + 1) * self.ckpt_every
            self.run.checkpoint(self.model)
        return True

    def _train_stats(self) -> dict[str, Any]:
        eps, self._episodes = self._episodes, []
        if not eps:
            return {"train_episodes": 0}
        n = len(eps)
        return {
            "train_episodes": n,
            "train_ep_return": round(sum(e[0] for e in eps) / n, 4),
            "train_ep_len": round(sum(e[1] for e in eps) / n, 1),
            "train_win_rate": round(sum(e[2] for e in eps) / n, 4),
        }
