"""Opt-in wrappers for the Gymnasium view.

``IllegalActionPenalty``: for baselines that do not use the action mask. By default the env raises
``IllegalActionError`` on an illegal action (so bugs in masked agents surface at once); this wrapper
instead gives a penalty reward and ends the episode (PettingZoo classic's ``TerminateIllegalWrapper``
and pgx convention), or with ``terminate=False`` keeps the game as it was and lets the agent try
again. Masking beats penalties by a wide margin on large action spaces (RL_ANCHORS.md section 0.6):
use it for comparisons and for ``check_env``, not for training by default.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .gym_env import as_action


class IllegalActionPenalty(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Illegal action -> ``penalty`` reward, ``info["illegal_action"] = True`` and (with ``terminate``)
    ``terminated=True`` with the unchanged observation; the game is not advanced. A legal action is
    passed through unchanged (``info["illegal_action"] = False``). A value that is not an integer
    move id (a float, a string, None, a bool) raises ``TypeError``: it is a bug in the caller, not a
    choice to penalise.

    Args:
        env: a ``BBoMGymEnv`` (or a wrapper of one) exposing ``action_masks()``.
        penalty: reward of an illegal action (default -1.0, the reward of a loss).
        terminate: end the episode on an illegal action (default True); False keeps the state, so the
            same decision is asked again (illegal attempts count toward the env's ``max_steps``, so
            such an episode is truncated at the latest there).
    """

    def __init__(self, env: gym.Env, penalty: float = -1.0, terminate: bool = True) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, penalty=penalty, terminate=terminate)
        gym.Wrapper.__init__(self, env)
        self.penalty = float(penalty)
        self.terminate = bool(terminate)
        self._last_obs: Any = None
        self._last_info: dict[str, Any] = {}
        self._done = False
        self._attempts = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_obs = obs
        self._last_info = info
        self._done = False
        self._attempts = 0
        info["illegal_action"] = False
        return obs, info

    def action_masks(self) -> np.ndarray:
        if self._done:
            return np.ones(self.action_space.n, dtype=np.int8)
        return self.env.get_wrapper_attr("action_masks")()

    def step(self, action: Any):
        mask = self.env.get_wrapper_attr("action_masks")()
        a = as_action(action)
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            # Not a move at all (0.9, "0", None): a bug in the caller, not an illegal choice to
            # penalise, and never rounded into a move (int(0.9) would play move 0).
            raise TypeError(f"IllegalActionPenalty.step({action!r}): actions are integer ids, "
                            f"got {type(action).__name__}")  # fmt: skip
        a = int(a)
        if 0 <= a < len(mask) and mask[a] and not self._done:
            obs, reward, terminated, truncated, info = self.env.step(a)
            self._last_obs = obs
            self._last_info = info
            self._done = terminated or truncated
            info["illegal_action"] = False
            return obs, reward, terminated, truncated, info
        if self._done:
            raise RuntimeError("IllegalActionPenalty.step() after the episode ended: call reset()")
        base = self.env.unwrapped
        self._attempts += 1
        terminated = self.terminate
        max_steps = getattr(base, "max_steps", None)
        steps = getattr(base, "_steps", 0) + self._attempts
        truncated = not terminated and max_steps is not None and steps >= max_steps
        self._done = terminated or truncated
        info = dict(self._last_info)
        info["action_mask"] = np.ones(len(mask), dtype=np.int8) if self._done else mask
        info["illegal_action"] = True
        obs = self._last_obs
        if isinstance(obs, dict) and "action_mask" in obs:
            obs = {**obs, "action_mask": info["action_mask"]}
        return self._copy(obs), self.penalty, terminated, truncated, info

    @staticmethod
    def _copy(obs: Any) -> Any:
        # A fresh array each step (Gymnasium's check_env: returned data must not be reused).
        if isinstance(obs, dict):
            return {k: v.copy() for k, v in obs.items()}
        return obs.copy()
