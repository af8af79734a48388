"""One run of the action-masking benchmark: a training arm on one seed (benchmarks/masking.py).

The env is configs/default.yaml's (2 players, level 1, auto payment, its reward and its 2000-step
limit) through ``gymnasium.make``; the unmasked arms add ``illegal_action="penalty"`` with their
penalty. Every arm starts from scratch (no imitation). Rows (``ROW_FIELDS``) are returned, not
written: one ``train`` row per PPO rollout (episodes that ended in it, the invalid-action rate of
its steps, PPO's approximate KL of the update that followed the previous rollout, the aux head's
figures) and one ``eval`` row per evaluation and evaluation mode (``evaluate``).
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from .masking_policies import AUX_THRESHOLD, EVALS, PENALTIES, is_masked, make_model

ROW_FIELDS = [
    "kind", "arm", "train_arm", "seed", "timesteps", "wall_s",
    # training (kind == "train"): the episodes that ended during the rollout
    "episodes", "ep_return", "ep_len", "win_rate", "curses", "invalid_rate", "approx_kl",
    "aux_bce", "aux_exact", "aux_id_acc",
    # evaluation (kind == "eval"): `eval_games` sampled games on fixed seeds
    "eval", "eval_games", "eval_win_rate", "eval_curses", "eval_decisions", "eval_invalid_rate",
    "eval_capped", "eval_kl", "eval_mask_exact", "eval_mask_id_acc",
]  # fmt: skip

EVAL_SEED = 5_000_000  # evaluation game i uses seed EVAL_SEED + i (the same deals for every arm)


def env_kwargs(arm: str) -> dict[str, Any]:
    from .train_config import load

    kw = load().env_kwargs()  # configs/default.yaml's env (the embedded defaults are the same)
    if arm in PENALTIES:
        kw.update(illegal_action="penalty", illegal_penalty=PENALTIES[arm])
    return kw


def _make_venv(arm: str, n_envs: int, seed: int):
    import gymnasium as gym
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    import bbom_env  # noqa: F401  (registers the env)

    kw = env_kwargs(arm)
    venv = DummyVecEnv(
        [lambda: _EndStats(Monitor(gym.make("BigBookOfMadness-v2", **kw))) for _ in range(n_envs)]
    )
    venv.seed(seed * 1000)
    return venv


class _EndStats(gym.Wrapper):
    """Adds ``info["curses"]`` (Curses destroyed so far) at the end of an episode, truncated ones
    included (the env's ``stats`` are only on a game's final step)."""

    def step(self, action: Any):
        obs, r, term, trunc, info = self.env.step(action)
        if term or trunc:
            info["curses"] = self.env.unwrapped.state.stats.get("curses_destroyed", 0)
        return obs, r, term, trunc, info


def _callback(run: dict[str, Any]):
    from stable_baselines3.common.callbacks import BaseCallback

    class Curves(BaseCallback):
        """Training rows per rollout, and the evaluations at the checkpoints."""

        def __init__(self) -> None:
            super().__init__(verbose=0)
            self.eps: list[tuple[float, int, bool, int]] = []
            self.steps = 0
            self.invalid = 0
            self.next_eval = run["eval_every"]

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                self.steps += 1
                self.invalid += bool(info.get("illegal_action", False))
                if done and "episode" in info:
                    ep = info["episode"]
                    self.eps.append(
                        (float(ep["r"]), int(ep["l"]), bool(info.get("is_success")), info["curses"])
                    )
            return True

        def _on_rollout_end(self) -> None:
            # The logger still holds the figures of the last train() (dumped after this call).
            kl = self.model.logger.name_to_value.get("train/approx_kl")
            row: dict[str, Any] = {"kind": "train", "timesteps": self.num_timesteps, "approx_kl": kl}
            aux = getattr(self.model.policy, "aux_stats", None)
            if aux:
                a = np.asarray(aux)
                row.update(aux_bce=a[:, 0].mean(), aux_exact=a[:, 1].mean(), aux_id_acc=a[:, 2].mean())
                aux.clear()
            if self.eps:
                e = np.asarray(self.eps, dtype=float)
                row.update(episodes=len(e), ep_return=e[:, 0].mean(), ep_len=e[:, 1].mean(),
                           win_rate=e[:, 2].mean(), curses=e[:, 3].mean())  # fmt: skip
            row["invalid_rate"] = self.invalid / max(1, self.steps)
            self.eps, self.steps, self.invalid = [], 0, 0
            run["emit"](row)
            if self.num_timesteps >= self.next_eval:
                self.next_eval += run["eval_every"]
                run["evaluate"](self.model)

    return Curves()


def run_arm(arm: str, seed: int, budget: int, hp: dict[str, Any], eval_games: int, evals: int) -> list[dict]:
    """Train ``arm`` for ``budget`` env steps from scratch with seed ``seed``; the rows of the run.
    ``evals`` evaluations of ``eval_games`` games each, evenly spaced, the last at the end."""
    import torch

    torch.set_num_threads(1)
    is_masked(arm)  # names the arm when it is unknown
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    venv = _make_venv(arm, hp["n_envs"], seed)
    model = make_model(arm, venv, hp, seed)
    eval_s = [0.0]

    def emit(row: dict[str, Any]) -> None:
        # wall_s: training time only (evaluations excluded), for the time-to-threshold figures.
        rows.append(
            {"arm": arm, "seed": seed, "wall_s": round(time.perf_counter() - t0 - eval_s[0], 2), **row}
        )

    def do_eval(m: Any) -> None:
        t = time.perf_counter()
        for label, how in EVALS[arm]:
            res = evaluate(m.policy, how, eval_games, EVAL_SEED, env_kwargs(arm), seed)
            emit({"kind": "eval", "timesteps": m.num_timesteps, "eval": how, "label": label, **res})
        eval_s[0] += time.perf_counter() - t

    rollout = hp["n_envs"] * hp["n_steps"]
    every = max(rollout, (budget // max(1, evals)) // rollout * rollout)
    run = {"emit": emit, "evaluate": do_eval, "eval_every": every}
    model.learn(total_timesteps=budget, callback=_callback(run))
    if not rows or rows[-1]["kind"] != "eval" or rows[-1]["timesteps"] != model.num_timesteps:
        do_eval(model)
    venv.close()
    for r in rows:  # an evaluation row belongs to its label's arm (e.g. "masked_nomask": arm 4)
        r["train_arm"] = arm
        r["arm"] = r.pop("label", arm)
    return rows


def evaluate(policy: Any, how: str, games: int, first_seed: int, kw: dict[str, Any], seed: int) -> dict:
    """Play ``games`` games (seeds ``first_seed + i``) with ``policy`` on every seat, sampling from
    its distribution (a torch generator seeded with ``seed``). ``how`` is the mask it plays with:
    "oracle" (the env's), "none" (no mask) or "predicted": the aux head's legality as a soft mask,
    sampling from pi(a|s) * P(legal | s, a) renormalised (``AuxLegalityPolicy.legality``; no
    threshold, so a wrong guess is retried with another sample instead of locking the decision; the
    accuracy figures threshold it at 0.5).
    The env is in penalty mode (illegal_cap 100): an illegal choice changes nothing, is counted,
    and the policy samples again; a game that reaches the cap, or the 2000-step limit, counts as
    not won (truncated). Sampling, not argmax: an argmax that is illegal would be chosen again at
    every retry, so one illegal argmax would end the game at the cap.

    ``eval_kl``: the mean over decisions of KL(masked || unmasked) = -log(sum of the unmasked
    probabilities of the legal ids), the divergence between the policy with and without the
    oracle mask (0 when the policy puts no mass on illegal ids)."""
    import torch

    from bbom_env.rl.gym_env import BBoMGymEnv

    if how not in ("oracle", "none", "predicted"):
        raise ValueError(f"evaluation mask {how!r}: expected 'oracle', 'none' or 'predicted'")
    opts = {
        k: v for k, v in kw.items() if k not in ("max_episode_steps", "illegal_action", "illegal_penalty")
    }
    env = BBoMGymEnv(max_steps=kw["max_episode_steps"], illegal_action="penalty", illegal_penalty=0.0, **opts)
    gen = torch.Generator().manual_seed(seed)
    was_training = policy.training
    policy.set_training_mode(False)
    wins = curses = decisions = steps = invalid = capped = 0
    kls: list[float] = []
    exact: list[float] = []
    id_acc: list[float] = []
    for i in range(games):
        obs, info = env.reset(seed=first_seed + i)
        done = False
        while not done:
            with torch.no_grad():
                obs_t = torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0)
                feats = policy.extract_features(obs_t, policy.pi_features_extractor)
                logits = policy.action_net(policy.mlp_extractor.forward_actor(feats))[0]
                legal = torch.as_tensor(info["action_mask"], dtype=torch.bool)
                if info["invalid_in_decision"] == 0:  # a new decision: its figures once
                    kls.append(-float(torch.logsumexp(torch.log_softmax(logits, -1)[legal], 0)))
                    decisions += 1
                if how == "oracle":
                    logits = logits.masked_fill(~legal, float("-inf"))
                elif how == "predicted":
                    p_legal = policy.legality(obs_t)[0]
                    if info["invalid_in_decision"] == 0:
                        pred = p_legal >= AUX_THRESHOLD
                        exact.append(float(bool((pred == legal).all())))
                        id_acc.append(float((pred == legal).float().mean()))
                    logits = logits + torch.log(p_legal.clamp_min(1e-12))
                a = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=gen))
            obs, _, term, trunc, info = env.step(a)
            steps += 1
            invalid += info["illegal_action"]
            done = term or trunc
        wins += info.get("outcome") == "win" and term
        capped += bool(info.get("illegal_cap", False))
        assert env.state is not None
        curses += env.state.stats.get("curses_destroyed", 0)
    policy.set_training_mode(was_training)
    g = max(1, games)
    return {
        "eval_games": games,
        "eval_win_rate": wins / g,
        "eval_curses": curses / g,
        "eval_decisions": decisions / g,
        "eval_invalid_rate": invalid / max(1, steps),
        "eval_capped": capped / g,
        "eval_kl": float(np.mean(kls)) if kls else None,
        "eval_mask_exact": float(np.mean(exact)) if exact else None,
        "eval_mask_id_acc": float(np.mean(id_acc)) if id_acc else None,
    }
