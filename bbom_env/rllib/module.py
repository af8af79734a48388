"""The masking RLModule: RLlib's default PPO torch module, with the illegal actions' logits set to a
large finite negative value.

Why this module and not RLlib's example: the example subclasses ``PPOTorchRLModule``, deprecated in
ray 2.60; this one subclasses ``DefaultPPOTorchRLModule``. Why a finite value and not ``-inf``: the
final observations of an episode, and zero-padded rows of a batch, can carry an all-zero mask; with
``-inf`` everywhere the softmax is NaN and poisons the loss, with ``MASK_VALUE`` it is uniform and
finite. Logits of illegal actions are replaced, not shifted (``logits + log(mask)`` clamped at
``-3.4e38`` can overflow float32 to ``-inf``), so their gradient is zero.

The env's observation is ``{"observations": (D,), "action_mask": (A,)}``; the networks are built
for the ``"observations"`` Box only, and the mask is split off before every forward pass without
changing the caller's batch.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

__all__ = ["MASK_VALUE", "MaskedPPOTorchRLModule", "mask_logits"]

MASK_VALUE = -1e9  # exp(MASK_VALUE - max logit) is exactly 0 in float32: illegal moves are never drawn
OBS_KEY = "observations"
MASK_KEY = "action_mask"


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` where ``mask > 0``, ``MASK_VALUE`` elsewhere (finite even for an all-zero mask)."""
    return torch.where(mask > 0, logits, torch.full_like(logits, MASK_VALUE))


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module for a Dict observation ``{"observations", "action_mask"}``."""

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {
            OBS_KEY,
            MASK_KEY,
        }:
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with exactly the keys "
                f"{OBS_KEY!r} and {MASK_KEY!r} (bbom_env.rllib.BBoMMultiAgentEnv), got {observation_space}"
            )
        self._space_with_mask = observation_space
        # The encoder and heads are built for the observation Box alone (the catalog reads this).
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()
        # Built: from now on the module reports the env's space (connectors and checkpoints use it).
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor | None]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return batch, batch.get(MASK_KEY)
        plain = dict(batch)  # shallow copy: the caller's batch keeps its dict observation
        plain[Columns.OBS] = obs[OBS_KEY]
        return plain, obs[MASK_KEY]

    def _masked(self, out: dict[str, Any], mask: torch.Tensor | None) -> dict[str, Any]:
        if mask is None:
            raise ValueError("MaskedPPOTorchRLModule: the batch has no action mask")
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        plain, mask = self._split(batch)
        return self._masked(super()._forward(plain, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        plain, mask = self._split(batch)
        return self._masked(super()._forward_train(plain, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        plain, _mask = self._split(batch)
        return super().compute_values(plain, embeddings)
