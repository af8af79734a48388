"""A team trained with Ray RLlib (``train_rllib.py``), playing every seat through the engine.

``make_agent("rllib:PATH")`` / ``python -m agents.evaluate --policy rllib:runs/rllib_default_1/checkpoint``:
PATH is an algorithm checkpoint (``Algorithm.save_to_path``) or the shared RLModule's folder in
one. The module is restored for CPU inference only (no Ray cluster is started); ``act(state)``
encodes the decider's observation with the env's encoder and picks among the legal moves only.
Needs the ``rllib`` extra (docs/scaling.md). The env options of the run (``observe_other_hands``)
come from the run directory's config.yaml next to the checkpoint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bbom_env.engine import GameConfig, GameState
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.observation import ObservationEncoder

from .policy_agent import _run_options, policy_views

PREFIX = "rllib:"


def checkpoint_dir(path: str | Path) -> Path:
    """A checkpoint folder as an absolute path: RLlib reads checkpoints through pyarrow's file
    systems, which take a relative path for a URI and fail ("URI has empty scheme")."""
    return Path(path).expanduser().resolve()


class RLlibAgent:
    """Plays every seat with the shared RLModule of an RLlib checkpoint (same interface as
    ``PolicyAgent``: ``act(state) -> move id``; argmax, or a seeded sample when not deterministic)."""

    def __init__(
        self, model: Any, deterministic: bool = True, observe_other_hands: bool = False, seed: int = 0
    ) -> None:
        import torch

        self.model = model
        model.eval()
        self.deterministic = deterministic
        self.observe_other_hands = observe_other_hands
        self._torch = torch
        self._gen = torch.Generator().manual_seed(int(seed))
        self._cache: dict[tuple, tuple[ObservationEncoder, ActionLayout]] = {}
        space = model.observation_space
        self.obs_size = int(space["observations"].shape[0])
        self.n_actions = int(model.action_space.n)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, seed: int = 0) -> RLlibAgent:
        from ray.rllib.core.rl_module.rl_module import RLModule

        from bbom_env.rllib.config import module_checkpoint

        p = checkpoint_dir(path)
        if not p.is_dir():
            raise FileNotFoundError(
                f"no RLlib checkpoint folder {str(p)!r} (train_rllib.py writes RUN/checkpoint)"
            )
        model = RLModule.from_checkpoint(module_checkpoint(p))
        # _run_options looks beside a model file and one level up: from RUN/checkpoint/<file>, the
        # checkpoint folder and the run directory (which holds config.yaml).
        return cls(model, deterministic=deterministic, seed=seed, **_run_options(p / "module"))

    def _views(self, config: GameConfig) -> tuple[ObservationEncoder, ActionLayout]:
        return policy_views(self, config, "RLlib policy")

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        if len(legal) == 1:
            return legal[0]
        enc, lay = self._views(state.config)
        obs = enc.encode(state, state.current_player())
        mask = np.zeros(lay.n, dtype=np.float32)
        mask[legal] = 1.0
        torch = self._torch
        with torch.no_grad():
            batch = {
                "obs": {
                    "observations": torch.from_numpy(obs)[None],
                    "action_mask": torch.from_numpy(mask)[None],
                }
            }
            logits = self.model.forward_inference(batch)["action_dist_inputs"][0]
            if self.deterministic:
                return int(torch.argmax(logits))
            return int(torch.multinomial(torch.softmax(logits, -1), 1, generator=self._gen))
