"""Ray RLlib (new API stack) for The Big Book of Madness: scale training out to many processes and
machines (docs/scaling.md).

* ``BBoMMultiAgentEnv`` (``bbom_env.rllib.env``): one RLlib ``MultiAgentEnv`` agent per seat, one
  seat acts per step (the engine's decider), observations ``{"observations", "action_mask"}``.
* ``MaskedPPOTorchRLModule`` (``bbom_env.rllib.module``): RLlib's default PPO torch module with the
  illegal logits pushed to a large finite negative value.
* ``ppo_config(...)`` (``bbom_env.rllib.config``): the PPOConfig of one shared policy for every
  seat; ``train_rllib.py`` runs it from a YAML config (configs/rllib/default.yaml).

Needs the ``rllib`` extra (``bash scripts/setup_rllib.sh``: its own venv, ``.venv-rllib``, because
``ray[rllib]`` pins gymnasium exactly). Nothing here is imported by ``import bbom_env``.
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "BBoMMultiAgentEnv": ("bbom_env.rllib.env", "BBoMMultiAgentEnv"),
    "MaskedPPOTorchRLModule": ("bbom_env.rllib.module", "MaskedPPOTorchRLModule"),
    "ppo_config": ("bbom_env.rllib.config", "ppo_config"),
    "SHARED_POLICY": ("bbom_env.rllib.config", "SHARED_POLICY"),
    "module_checkpoint": ("bbom_env.rllib.config", "module_checkpoint"),
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'bbom_env.rllib' has no attribute {name!r}")
