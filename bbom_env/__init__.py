"""bbom-env: a rules engine and RL environments for the cooperative card game The Big Book of Madness.

* ``bbom_env.engine``: the rules only (no RL library; design decision 1).
* ``import bbom_env`` registers the Gymnasium env ``GYM_ID`` (entry point
  ``bbom_env.rl.gym_env:registered_env``, ``max_episode_steps=2000``: Gymnasium's ``TimeLimit``) and
  the PettingZoo AEC env ``PZ_ID`` (``pettingzoo.make("aec", bbom_env.PZ_ID, ...)``), where those
  libraries are installed.
* ``bbom_env.env(**kwargs)`` / ``bbom_env.raw_env(**kwargs)``: the PettingZoo AEC env (classic-env
  convention), ``bbom_env.BBoMGymEnv``: the Gymnasium env, ``bbom_env.RewardConfig``; imported
  lazily, so ``import bbom_env.engine`` never loads gymnasium or pettingzoo code beyond registration.

docs/environments.md shows both envs in use; ``python -m bbom_env`` lists the command-line tools.
"""

from __future__ import annotations

from typing import Any


def _version() -> str:
    # The installed distribution's version (pyproject.toml); a source tree that was never
    # installed (e.g. on sys.path only) has no metadata, hence the fallback.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bbom-env")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()

GYM_ID = "BigBookOfMadness-v2"
PZ_ID = "bbom/BigBookOfMadness-v2"
# The registered episode limit: = bbom_env.rl.gym_env.DEFAULT_MAX_STEPS (tested; not imported from
# there, which would load gymnasium on `import bbom_env.engine`).
MAX_EPISODE_STEPS = 2000

_LAZY = {
    "BBoMGymEnv": ("bbom_env.rl.gym_env", "BBoMGymEnv"),
    "env": ("bbom_env.rl.aec_env", "env"),
    "raw_env": ("bbom_env.rl.aec_env", "raw_env"),
    "RewardConfig": ("bbom_env.rl.rewards", "RewardConfig"),
    "IllegalActionPenalty": ("bbom_env.rl.wrappers", "IllegalActionPenalty"),
}

__all__ = ["GYM_ID", "PZ_ID", "MAX_EPISODE_STEPS", "__version__", *_LAZY]


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
            # BBoMGymEnv with its own step limit off: gymnasium.make wraps it in TimeLimit, the one
            # limit on that path (and the one env.spec.max_episode_steps shows).
            entry_point="bbom_env.rl.gym_env:registered_env",
            max_episode_steps=MAX_EPISODE_STEPS,
            # make_vec(GYM_ID, num_envs=N, vectorization_mode="vector_entry_point"): N games in one
            # process, batched observations and masks (bbom_env/rl/vector_env.py, docs/scaling.md);
            # the factory hands it max_episode_steps as its own limit (no TimeLimit on that path).
            vector_entry_point="bbom_env.rl.gym_env:registered_vector_env",
        )
    try:
        import pettingzoo
    except ImportError:
        return
    # pettingzoo >= 1.27 has a registry that accepts third-party envs (pettingzoo.register).
    if hasattr(pettingzoo, "register") and PZ_ID not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", PZ_ID, entry_point="bbom_env.rl.aec_env:env")


_register()

# The Vth Element's rules modules (GameConfig(modules=("dark_matter",))): registered on import.
from . import modules as _modules  # noqa: E402, F401
