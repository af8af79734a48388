"""Opt-in wrappers for the Gymnasium view.

``IllegalActionPenalty``: for baselines that do not use the action mask. By default the env raises
``IllegalActionError`` on an illegal action (so bugs in masked agents surface at once); this wrapper
instead gives a penalty reward and ends the episode (PettingZoo classic's ``TerminateIllegalWrapper``
and pgx convention), or with ``terminate=False`` keeps the game as it was and lets the agent try
again: that is the env's own ``illegal_action="penalty"`` mode (``BBoMGymEnv.set_illegal_action``,
no cap), which this wrapper switches on rather than copying it. Masking beats penalties by a wide
margin on large action spaces (design decision 14; measured on this game: docs/masking.md):
use it for comparisons and for ``check_env``, not for training by default.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .gym_env import BBoMGymEnv, IllegalMoves


class IllegalActionPenalty(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Illegal action -> ``penalty`` reward, ``info["illegal_action"] = True`` and (with ``terminate``)
    ``terminated=True`` with the unchanged observation; the game is not advanced. A legal action is
    passed through unchanged (``info["illegal_action"] = False``). A value that is not an integer
    move id (a float, a string, None, a bool) raises ``TypeError``: it is a bug in the caller, not a
    choice to penalise.

    Args:
        env: a ``BBoMGymEnv`` (or a wrapper of one) exposing ``action_masks()``.
        penalty: reward of an illegal action (default -1.0, the reward of a loss).
        terminate: end the episode on an illegal action (default True); False switches the wrapped
            env to its penalty mode (``illegal_action="penalty"`` with this penalty and no cap): the
            state is kept and the same decision is asked again (illegal attempts count toward the
            step limit, so such an episode is truncated at the latest there; ``info`` carries the
            invalid-action counts).
    """

    def __init__(self, env: gym.Env, penalty: float = -1.0, terminate: bool = True) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, penalty=penalty, terminate=terminate)
        gym.Wrapper.__init__(self, env)
        self.penalty = float(penalty)
        self.terminate = bool(terminate)
        space = env.action_space
        if not isinstance(space, gym.spaces.Discrete):
            raise TypeError(f"IllegalActionPenalty needs a Discrete action space (move ids), got {space}")
        self._n_moves = int(space.n)
        if not self.terminate:
            base = env.unwrapped
            if not isinstance(base, BBoMGymEnv):
                raise TypeError(
                    f"IllegalActionPenalty(terminate=False) switches a BBoMGymEnv to its penalty mode; "
                    f"the wrapped env is a {type(base).__name__}"
                )
            base.set_illegal_action("penalty", self.penalty, None)
        self._last_obs: Any = None
        self._last_info: dict[str, Any] = {}
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_obs = obs
        self._last_info = info
        self._done = False
        info["illegal_action"] = False
        return obs, info

    def action_masks(self) -> np.ndarray:
        if self._done:
            return np.ones(self._n_moves, dtype=np.int8)
        return self.env.get_wrapper_attr("action_masks")()

    def step(self, action: Any):
        if not self.terminate:
            return self.env.step(action)  # the env's penalty mode
        mask = self.env.get_wrapper_attr("action_masks")()
        if self._done:
            IllegalMoves.is_legal(mask, action, "IllegalActionPenalty")  # TypeError first, as always
            raise RuntimeError("IllegalActionPenalty.step() after the episode ended: call reset()")
        if IllegalMoves.is_legal(mask, action, "IllegalActionPenalty"):
            obs, reward, terminated, truncated, info = self.env.step(action)
            self._last_obs = obs
            self._last_info = info
            self._done = terminated or truncated
            info["illegal_action"] = False
            return obs, reward, terminated, truncated, info
        self._done = True
        info = dict(self._last_info)
        info["action_mask"] = np.ones(len(mask), dtype=np.int8)
        info["illegal_action"] = True
        obs = self._last_obs
        if isinstance(obs, dict) and "action_mask" in obs:
            obs = {**obs, "action_mask": info["action_mask"]}
        return self._copy(obs), self.penalty, True, False, info

    @staticmethod
    def _copy(obs: Any) -> Any:
        # A fresh array each step (Gymnasium's check_env: returned data must not be reused).
        if isinstance(obs, dict):
            return {k: v.copy() for k, v in obs.items()}
        return obs.copy()
