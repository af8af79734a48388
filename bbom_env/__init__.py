"""bbom-env: a rules engine and RL environments for the cooperative card game The Big Book of Madness.

* ``bbom_env.engine``: the rules only (no RL library; design decision 1).
* ``import bbom_env`` registers the Gymnasium env ``BigBookOfMadness-v1`` (entry point
  ``bbom_env.rl.gym_env:BBoMGymEnv``) and the PettingZoo AEC env ``bbom/BigBookOfMadness-v1``
  (``pettingzoo.make("aec", "bbom/BigBookOfMadness-v1", ...)``), where those libraries are installed.
* ``bbom_env.env(**kwargs)`` / ``bbom_env.raw_env(**kwargs)``: the PettingZoo AEC env (classic-env
  convention), ``bbom_env.BBoMGymEnv``: the Gymnasium env, ``bbom_env.RewardConfig``; imported
  lazily, so ``import bbom_env.engine`` never loads gymnasium or pettingzoo code beyond registration.

docs/environments.md shows both envs in use.
"""

from __future__ import annotations

from typing import Any

GYM_ID = "BigBookOfMadness-v1"
PZ_ID = "bbom/BigBookOfMadness-v1"

_LAZY = {
    "BBoMGymEnv": ("bbom_env.rl.gym_env", "BBoMGymEnv"),
    "env": ("bbom_env.rl.aec_env", "env"),
    "raw_env": ("bbom_env.rl.aec_env", "raw_env"),
    "RewardConfig": ("bbom_env.rl.rewards", "RewardConfig"),
    "IllegalActionPenalty": ("bbom_env.rl.wrappers", "IllegalActionPenalty"),
}

__all__ = ["GYM_ID", "PZ_ID", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'bbom_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _register() -> None:
    """Register with Gymnasium and PettingZoo. Both are dependencies, but the engine must import
    where they are missing or blocked (design decision 1; tests/engine/test_import_boundary.py), so
    an ImportError here only skips the registration."""
    try:
        import gymnasium
    except ImportError:
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYM_ID,
            entry_point="bbom_env.rl.gym_env:BBoMGymEnv",
            # make_vec(GYM_ID, num_envs=N, vectorization_mode="vector_entry_point"): N games in one
            # process, batched observations and masks (bbom_env/rl/vector_env.py, docs/scaling.md).
            vector_entry_point="bbom_env.rl.vector_env:BBoMVectorEnv",
        )
    try:
        import pettingzoo
    except ImportError:
        return
    # pettingzoo >= 1.27 has a registry that accepts third-party envs (pettingzoo.register).
    if hasattr(pettingzoo, "register") and PZ_ID not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", PZ_ID, entry_point="bbom_env.rl.aec_env:env")


_register()
