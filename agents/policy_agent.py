"""A trained team: a MaskablePPO policy (sb3-contrib) playing every seat through the engine.

``PolicyAgent.load(path)`` reads a model saved by ``train.py`` (``model.zip``, ``best_model.zip``,
``checkpoints/*.zip``, ``imitation.zip``) and answers ``act(state)`` like the scripted agents: it
encodes the decider's observation with the same encoder the Gymnasium env uses and picks among the
legal moves only (the mask is applied to the logits, so an illegal move is never returned).

The env options the policy was trained with (``observe_other_hands``) are read from the run's
``config.yaml`` next to the model when there is one; the observation size is checked against the
model, so a policy trained on another pack or module set fails with a clear error instead of
playing nonsense.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bbom_env.engine import GameConfig, GameState
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.observation import ObservationEncoder


def _run_options(model_path: Path) -> dict[str, Any]:
    """Env options of the run that saved ``model_path`` (its run directory's config.yaml)."""
    for parent in (model_path.parent, model_path.parent.parent):
        cfg = parent / "config.yaml"
        if cfg.is_file():
            import yaml

            data = yaml.safe_load(cfg.read_text(encoding="utf-8")) or {}
            env = data.get("env", {}) if isinstance(data, dict) else {}
            return {"observe_other_hands": bool(env.get("observe_other_hands", False))}
    return {"observe_other_hands": False}


class PolicyAgent:
    """Plays every seat with one trained policy.

    Args:
        model: a loaded ``sb3_contrib.MaskablePPO`` (or any object with a compatible ``policy``).
        deterministic: argmax of the masked distribution (default; measured better than sampling
            for cloned policies) or a sample from it (uses ``seed``).
        observe_other_hands: must match the training env (A-66 table talk).
        seed: seed of the sampling generator (deterministic=False only).
    """

    def __init__(
        self, model: Any, deterministic: bool = True, observe_other_hands: bool = False, seed: int = 0
    ) -> None:
        import torch

        self.model = model
        self.policy = model.policy
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self.observe_other_hands = observe_other_hands
        self._torch = torch
        self._gen = torch.Generator().manual_seed(int(seed))
        self._cache: dict[tuple, tuple[ObservationEncoder, ActionLayout]] = {}
        self.obs_size = int(np.prod(model.observation_space.shape))
        self.n_actions = int(model.action_space.n)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, seed: int = 0) -> PolicyAgent:
        """Load a model zip saved by ``train.py`` (or ``MaskablePPO.save``) for CPU inference."""
        from sb3_contrib import MaskablePPO

        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"no policy file {str(p)!r} (expected a .zip saved by train.py)")
        model = MaskablePPO.load(str(p), device="cpu")
        return cls(model, deterministic=deterministic, seed=seed, **_run_options(p))

    def _views(self, config: GameConfig) -> tuple[ObservationEncoder, ActionLayout]:
        return policy_views(self, config, "policy")

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        if len(legal) == 1:
            return legal[0]
        enc, lay = self._views(state.config)
        obs = enc.encode(state, state.current_player())
        mask = np.zeros(lay.n, dtype=bool)
        mask[legal] = True
        torch = self._torch
        policy = self.policy
        with torch.no_grad():
            # The actor alone (no value head, no distribution object): the same logits as
            # policy.get_distribution, at about half the cost per decision.
            obs_t = torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0)
            features = policy.extract_features(obs_t, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
            logits = logits.masked_fill(torch.as_tensor(~mask), float("-inf"))
            if self.deterministic:
                a = int(torch.argmax(logits))
            else:
                a = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=self._gen))
        return a


def policy_views(agent: Any, config: GameConfig, what: str) -> tuple[ObservationEncoder, ActionLayout]:
    """The encoder and action layout of a config for a trained agent (cached per pack, overrides
    and modules on ``agent._cache``); ValueError when their sizes are not the ones it was trained on."""
    key = (config.pack, tuple(config.pack_overrides), tuple(config.modules))
    hit = agent._cache.get(key)
    if hit is None:
        enc = ObservationEncoder(config, observe_other_hands=agent.observe_other_hands)
        lay = ActionLayout(config)
        if enc.size != agent.obs_size or lay.n != agent.n_actions:
            raise ValueError(
                f"the {what} expects observations of {agent.obs_size} floats and {agent.n_actions} "
                f"actions, but pack={config.pack!r} modules={tuple(config.modules)} give "
                f"{enc.size} and {lay.n}: evaluate it on the pack and modules it was trained on"
            )
        hit = agent._cache[key] = (enc, lay)
    return hit
