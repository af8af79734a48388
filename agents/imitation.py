"""Imitation warm start: behaviour cloning of the heuristic team into a MaskablePPO policy, and DAgger.

Why: PPO from scratch plateaus near 5% wins on this game, while a clone of the scripted team starts
near its level (docs/training.md, Early measurements: 0.78-0.88 held-out accuracy, 24-39% wins).

* ``record`` plays seeded games and stores, per decision with two or more legal moves, the
  decider's observation (the same ``ObservationEncoder`` as the Gymnasium env, so the clone plays
  there unchanged), the legal mask, the heuristic's move and the discounted team return from that
  decision on (the env's reward, so the value head starts near the right scale). With ``actor`` set
  (DAgger, Ross et al. 2011) the actor's move is played and the heuristic's is only the label.
* ``fit`` minimises masked cross-entropy (the policy's own masked distribution, so illegal moves
  get no probability) plus ``value_coef`` times the value error, with Adam, in minibatches.
* ``accuracy`` is the share of decisions where the masked argmax equals the heuristic's move,
  beside the uniform-over-legal baseline (the mean of 1 / number of legal moves).

No library of imitation learning is used: ``imitation`` (HumanCompatibleAI) has no masked-policy
support for sb3-contrib's MaskablePPO, and cloning is a short loop over ``evaluate_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.observation import ObservationEncoder
from bbom_env.rl.rewards import RewardConfig, RewardTracker

from .heuristic_agent import HeuristicAgent


@dataclass
class Demonstrations:
    """Decisions of recorded games, row-aligned. Observations are stored as float16 (values in
    [0, 1] with few distinct levels) to halve the memory of large data sets."""

    obs: np.ndarray  # (n, obs_size) float16
    masks: np.ndarray  # (n, n_actions) bool
    actions: np.ndarray  # (n,) int64: the heuristic's move
    returns: np.ndarray  # (n,) float32: discounted team return from this decision
    games: int
    wins: int

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def concat(parts: list[Demonstrations]) -> Demonstrations:
        return Demonstrations(
            obs=np.concatenate([p.obs for p in parts]),
            masks=np.concatenate([p.masks for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            returns=np.concatenate([p.returns for p in parts]),
            games=sum(p.games for p in parts),
            wins=sum(p.wins for p in parts),
        )


class Recorder:
    """Rows of recorded decisions, filled one game at a time (``game``), then ``result``. Shared by
    ``record`` (games played now) and agents/expert_labels.py (games replayed from label files), so
    both encode, mask and return-discount a decision the same way."""

    def __init__(self, config: GameConfig, reward: RewardConfig, observe_other_hands: bool = False) -> None:
        self.enc = ObservationEncoder(config, observe_other_hands=observe_other_hands)
        self.n_actions = ActionLayout(config).n
        self.reward = reward
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[int] = []
        self.returns: list[float] = []
        self.games = 0
        self.wins = 0

    def game(
        self,
        state: GameState,
        choose: Callable[[GameState, list[int], int], tuple[int | None, int]],
        max_decisions: int = 2000,
    ) -> GameState:
        """Play ``state`` to its end (or ``max_decisions``): ``choose(state, legal, step)`` gives
        (the label, or None for a decision not recorded, and the move played). A label is recorded
        only at a decision with two or more legal moves."""
        tracker = RewardTracker(self.reward)
        tracker.reset(state)
        rewards: list[float] = []  # reward after each decision (recorded or not)
        recorded: list[int] = []  # index into rewards of each recorded decision
        while not state.is_terminal() and len(rewards) < max_decisions:
            legal = state.legal_actions()
            label, move = choose(state, legal, len(rewards))
            if label is not None and len(legal) > 1:
                self.obs.append(self.enc.encode(state, state.current_player()).astype(np.float16))
                m = np.zeros(self.n_actions, dtype=bool)
                m[legal] = True
                self.masks.append(m)
                self.actions.append(label)
                recorded.append(len(rewards))
            state.apply_action(move)
            rewards.append(tracker.step(state))
        self.games += 1
        self.wins += state.outcome == "win"
        # Discounted returns from each decision on (G_t = r_t + gamma * G_{t+1}).
        g = 0.0
        back = [0.0] * len(rewards)
        for t in range(len(rewards) - 1, -1, -1):
            g = rewards[t] + self.reward.gamma * g
            back[t] = g
        self.returns.extend(back[t] for t in recorded)
        return state

    def result(self) -> Demonstrations:
        return Demonstrations(
            obs=np.stack(self.obs) if self.obs else np.zeros((0, self.enc.size), np.float16),
            masks=np.stack(self.masks) if self.masks else np.zeros((0, self.n_actions), bool),
            actions=np.asarray(self.actions, dtype=np.int64),
            returns=np.asarray(self.returns, dtype=np.float32),
            games=self.games,
            wins=self.wins,
        )


def record(
    game: dict,
    games: int,
    seed: int,
    reward: RewardConfig,
    observe_other_hands: bool = False,
    actor: Callable[[GameState], int] | None = None,
    max_decisions: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> Demonstrations:
    """Play ``games`` games (game i: ``GameConfig(**game, seed=seed + i)``, heuristic seeded the same)
    and record every real decision; ``actor`` (DAgger) plays instead of the heuristic when given."""
    config = GameConfig(**game, seed=seed)
    rec = Recorder(config, reward, observe_other_hands)
    for i in range(games):
        choose = _labelled_by(HeuristicAgent(seed + i), actor)
        rec.game(new_game(config.replace(seed=seed + i)), choose, max_decisions)
        if progress is not None:
            progress(1)
    return rec.result()


def _labelled_by(
    teacher: Any, actor: Callable[[GameState], int] | None
) -> Callable[[GameState, list[int], int], tuple[int | None, int]]:
    """``Recorder.game``'s chooser: ``teacher`` labels every decision, ``actor`` (or the teacher)
    plays it. Both are asked at every decision, so their RNGs advance as in a game of their own."""

    def choose(state: GameState, legal: list[int], step: int) -> tuple[int | None, int]:
        label = teacher.act(state)
        return label, label if actor is None else actor(state)

    return choose


def _batches(n: int, batch_size: int, rng: np.random.Generator | None) -> list[np.ndarray]:
    idx = rng.permutation(n) if rng is not None else np.arange(n)
    return [idx[i : i + batch_size] for i in range(0, n, batch_size)]


def fit(
    policy,
    data: Demonstrations,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    seed: int,
    log: Callable[[dict], None] | None = None,
) -> list[dict]:
    """Behaviour cloning of ``data`` into ``policy`` (a MaskableActorCriticPolicy), in place.
    Returns one record per epoch: mean policy loss (cross-entropy), value loss and accuracy."""
    import torch

    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    history = []
    for epoch in range(epochs):
        tot_pi = tot_v = 0.0
        for b in _batches(len(data), batch_size, rng):
            obs = torch.as_tensor(data.obs[b], dtype=torch.float32)
            act = torch.as_tensor(data.actions[b])
            ret = torch.as_tensor(data.returns[b])
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=data.masks[b])
            pi_loss = -log_prob.mean()
            v_loss = torch.nn.functional.mse_loss(values.flatten(), ret)
            loss = pi_loss + value_coef * v_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            tot_pi += pi_loss.item() * len(b)
            tot_v += v_loss.item() * len(b)
        n = max(1, len(data))
        rec = {"epoch": epoch + 1, "policy_loss": tot_pi / n, "value_loss": tot_v / n}
        history.append(rec)
        if log is not None:
            log(rec)
    policy.set_training_mode(False)
    return history


def accuracy(policy, data: Demonstrations, batch_size: int = 4096) -> tuple[float, float]:
    """(share of decisions where the masked argmax is the heuristic's move, uniform-legal baseline)."""
    import torch

    if len(data) == 0:
        raise ValueError("no decisions to measure accuracy on")
    policy.set_training_mode(False)
    hits = 0
    with torch.no_grad():
        for b in _batches(len(data), batch_size, None):
            obs = torch.as_tensor(data.obs[b], dtype=torch.float32)
            dist = policy.get_distribution(obs, action_masks=data.masks[b])
            pred = dist.distribution.logits.argmax(-1).numpy()
            hits += int((pred == data.actions[b]).sum())
    baseline = float(np.mean(1.0 / data.masks.sum(axis=1)))
    return hits / len(data), baseline
