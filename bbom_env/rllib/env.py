"""The RLlib multi-agent view: one agent per seat, the engine's decider acts each step.

Why multi-agent and not RLlib's single-agent path over ``BBoMGymEnv``: RLlib scales out by
multi-agent episodes (per-seat trajectories, per-module batches), and a team game's credit
assignment is per seat: each seat's trajectory holds its own decisions, and the team reward
earned while the others played reaches it at its next decision (RLlib adds rewards of a seat that
did not observe to its pending step).

Conventions (docs/scaling.md, "How the adapter works"):

* Observations are ``{"observations": float32 (D,), "action_mask": float32 (A,)}``: the keys of
  RLlib's action-masking module (PettingZoo's classic key is ``"observation"``); the mask is float
  because the module takes its log.
* Each step only the decider gets an observation. The team reward goes to every seat on every step.
* At the end of an episode (won, lost, or truncated at ``max_steps``) every seat gets its final
  observation and the last reward, so RLlib can bootstrap a truncated episode and close every
  seat's trajectory; final masks are all ones (as ``BBoMGymEnv``'s), though the module would also
  survive all-zero ones.
* An illegal action raises ``IllegalActionError`` (the game unchanged). RLlib's env checker steps
  random unmasked actions, so ``ppo_config`` disables it for this env.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from bbom_env.engine import GameState, new_game
from bbom_env.rl.gym_env import DEFAULT_MAX_STEPS, as_action, draw_seed, make_encoder, split_config
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.rewards import RewardConfig, RewardTracker

__all__ = ["BBoMMultiAgentEnv", "agent_id"]

OBS_KEY = "observations"
MASK_KEY = "action_mask"
ENV_OPTIONS = ("reward", "observe_other_hands", "max_steps")


def agent_id(seat: int) -> str:
    return f"player_{seat}"


class BBoMMultiAgentEnv(MultiAgentEnv):
    """The Big Book of Madness for RLlib: agents ``player_0 .. player_{n-1}`` (see the module doc).

    ``config`` (RLlib's ``env_config``): GameConfig fields (``num_players``, ``difficulty``,
    ``pack`` ...), ``reward`` (a RewardConfig dict), ``observe_other_hands``, ``max_steps``
    (default 2000) and ``seed`` (the first game seed; RLlib also seeds ``reset``).
    Unknown keys raise a TypeError listing the accepted ones.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        reward = cfg.pop("reward", None)
        observe_other_hands = bool(cfg.pop("observe_other_hands", False))
        max_steps = cfg.pop("max_steps", DEFAULT_MAX_STEPS)
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise ValueError(f"env_config max_steps={max_steps!r} must be a positive int or None")
        self.config, self._first_seed = split_config(cfg)
        self.reward_config = RewardConfig.coerce(reward)
        self.max_steps = max_steps
        self.layout = ActionLayout(self.config)
        self.encoder = make_encoder(self.config, observe_other_hands)
        n_actions = self.layout.n
        space = spaces.Dict(
            {
                OBS_KEY: spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32),
                MASK_KEY: spaces.Box(0.0, 1.0, shape=(n_actions,), dtype=np.float32),
            }
        )
        self.possible_agents = [agent_id(s) for s in range(self.config.num_players)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.state: GameState | None = None
        self._tracker = RewardTracker(self.reward_config)
        self._rng: np.random.Generator | None = None
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None and self._rng is None and self._first_seed is not None:
            seed = self._first_seed
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng()
        game_seed = seed if seed is not None else draw_seed(self._rng)
        self.state = new_game(self.config.replace(seed=int(game_seed)))
        self._tracker.reset(self.state)
        self._steps = 0
        seat = self.state.current_player()
        return {agent_id(seat): self._obs(seat, terminal=False)}, {agent_id(seat): {}}

    def step(self, action_dict: dict[str, Any]):
        state = self.state
        if state is None:
            raise RuntimeError("BBoMMultiAgentEnv.step() before reset()")
        seat = state.current_player()
        me = agent_id(seat)
        if me not in action_dict:
            raise KeyError(
                f"BBoMMultiAgentEnv.step: {me} (the decider) must act; got actions for {sorted(action_dict)}"
            )
        state.apply_action(as_action(action_dict[me]))  # IllegalActionError, game unchanged, when bad
        self._steps += 1
        r = self._tracker.step(state)
        terminated = state.over
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        rewards = {a: r for a in self.possible_agents}
        if terminated or truncated:
            obs = {agent_id(s): self._obs(s, terminal=True) for s in range(len(self.possible_agents))}
            infos: dict[str, dict[str, Any]] = {a: {} for a in obs}
            if terminated:
                info = {
                    "outcome": state.outcome,
                    "reason": state.reason,
                    "is_success": state.outcome == "win",
                }
                infos = {a: dict(info) for a in obs}
            return obs, rewards, {"__all__": terminated}, {"__all__": truncated}, infos
        nxt = state.current_player()
        return (
            {agent_id(nxt): self._obs(nxt, terminal=False)},
            rewards,
            {"__all__": False},
            {"__all__": False},
            {},
        )

    def render(self) -> str | None:
        return None if self.state is None else str(self.state)

    @property
    def game(self) -> GameState | None:
        return self.state

    def _obs(self, seat: int, terminal: bool) -> dict[str, np.ndarray]:
        state = self.state
        assert state is not None
        if terminal:
            mask = np.ones(self.layout.n, dtype=np.float32)
        else:
            mask = np.zeros(self.layout.n, dtype=np.float32)
            mask[state.legal_actions()] = 1.0
        return {OBS_KEY: self.encoder.encode(state, seat), MASK_KEY: mask}
