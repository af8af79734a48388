"""SB3's ``VecEnv`` interface over the native vector env, for sb3-contrib's MaskablePPO.

    from sb3_contrib import MaskablePPO
    from bbom_env.rl.sb3_vec import BBoMSB3VecEnv

    venv = BBoMSB3VecEnv(8, num_players=2, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=256)

MaskablePPO reads the masks with ``env_method("action_masks")`` (sb3_contrib's
``get_action_masks``); here that returns the rows of the one ``(N, A)`` mask batch, and
``action_masks()`` returns the batch itself. SB3 resets a finished episode within the same step
and puts its last observation in ``infos[i]["terminal_observation"]`` (MaskablePPO bootstraps
truncated episodes from it), so the core runs with ``autoreset_mode="SameStep"``.

Needs stable-baselines3 (the ``train`` extra); ``bbom_env.rl.vector_env`` does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from .vector_env import BBoMVectorEnv

__all__ = ["BBoMSB3VecEnv"]

_FINAL_KEYS = ("outcome", "reason", "is_success", "stats")


class BBoMSB3VecEnv(VecEnv):
    """``num_envs`` games in one process behind SB3's ``VecEnv`` (see the module docstring).

    Keyword arguments are those of ``BBoMGymEnv`` (GameConfig fields, ``reward``,
    ``observe_other_hands``, ``max_steps``, ``seed``: game i starts at ``seed + i``); ``dict_obs``
    is not supported (SB3's ``MlpPolicy`` takes the flat vector; the mask goes by ``action_masks``).
    ``infos[i]`` holds ``player``, ``TimeLimit.truncated`` and, when game i ended, its
    ``terminal_observation``, ``outcome``, ``reason``, ``is_success`` and ``stats``. Wrap it in SB3's
    ``VecMonitor`` for episode returns in the logs.
    """

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        if kwargs.get("dict_obs"):
            raise ValueError("BBoMSB3VecEnv: dict_obs=True is not supported (use the flat observation)")
        if "render_mode" in kwargs and kwargs["render_mode"] is not None:
            raise ValueError(f"BBoMSB3VecEnv: render_mode={kwargs['render_mode']!r}; only None is supported")
        self.core = BBoMVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, copy=False, **kwargs)
        self.render_mode = None
        super().__init__(num_envs, self.core.single_observation_space, self.core.single_action_space)
        self._actions: np.ndarray | None = None

    # -- SB3 VecEnv API ----------------------------------------------------------------------------

    def reset(self) -> np.ndarray:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, infos = self.core.reset(seed=seeds)
        for i in range(self.num_envs):
            self.reset_infos[i] = {"player": int(infos["player"][i])}
        self._reset_seeds()
        self._reset_options()
        return obs.copy()  # SB3 keeps the last observation while the next step runs: never a view

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("BBoMSB3VecEnv.step_wait() without step_async(actions)")
        obs, rewards, terminated, truncated, infos = self.core.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        players = infos["player"]
        out: list[dict[str, Any]] = [
            {"player": int(players[i]), "TimeLimit.truncated": bool(truncated[i] and not terminated[i])}
            for i in range(self.num_envs)
        ]
        if dones.any():
            final_obs, final_info = infos["final_obs"], infos["final_info"]
            for i in np.flatnonzero(dones):
                info = out[i]
                info["terminal_observation"] = final_obs[i]
                fi = final_info[i]
                for key in _FINAL_KEYS:
                    if key in fi:
                        info[key] = fi[key]
                self.reset_infos[i] = {"player": int(players[i])}
        return obs.copy(), rewards.astype(np.float32), dones, out

    def close(self) -> None:
        self.core.close()

    def action_masks(self) -> np.ndarray:
        """The (N, A) int8 mask batch of the current observations (1 = legal)."""
        return self.core.action_masks()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Attributes of the core env, one per index (every game shares the env's settings)."""
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        value = getattr(self.core, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(
            f"BBoMSB3VecEnv.set_attr({attr_name!r}): the games share one core env; build a new one"
        )

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` (what MaskablePPO calls): the mask row of each index."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            mask = self.core.action_masks()
            return [mask[i] for i in idx]
        raise AttributeError(
            f"BBoMSB3VecEnv.env_method: no per-game method {method_name!r} (only 'action_masks')"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.core, attr_name)

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
