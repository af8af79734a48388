"""The PPOConfig of one shared policy for every seat (``train_rllib.py`` builds it from YAML).

Scaling knobs (docs/scaling.md): ``num_env_runners`` (sampling processes, on any node of the Ray
cluster; 0 = sample in the driver), ``num_envs_per_env_runner`` (games per runner, stepped in one
process), ``num_learners`` (0 = learn in the driver; N = N learner actors with data-parallel
gradients, one per GPU on a GPU cluster) and ``num_gpus_per_learner``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from .env import BBoMMultiAgentEnv
from .module import MaskedPPOTorchRLModule

__all__ = ["SHARED_POLICY", "module_checkpoint", "ppo_config", "shared_policy"]

SHARED_POLICY = "shared"  # the one module id: the whole team plays one policy


def shared_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's policy_mapping_fn: every seat maps to the shared module."""
    return SHARED_POLICY


def ppo_config(
    env_config: dict[str, Any],
    *,
    num_env_runners: int = 0,
    num_envs_per_env_runner: int = 1,
    num_cpus_per_env_runner: float = 1,
    num_learners: int = 0,
    num_gpus_per_learner: float = 0,
    rollout_fragment_length: int | str = "auto",
    train_batch_size: int = 4000,
    minibatch_size: int = 512,
    num_epochs: int = 4,
    lr: float = 5e-5,
    gamma: float = 0.999,
    lambda_: float = 0.95,
    clip_param: float = 0.1,
    entropy_coeff: float = 0.0,
    vf_loss_coeff: float = 0.5,
    grad_clip: float | None = 0.5,
    hiddens: list[int] | tuple[int, ...] = (256, 256),
    seed: int | None = 0,
) -> PPOConfig:
    """PPO on ``BBoMMultiAgentEnv(env_config)`` with ``MaskedPPOTorchRLModule`` shared by all seats.

    The env checker is off: it steps random unmasked actions, which our env refuses (an illegal
    action raises), and its error would blame the env."""
    module = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        model_config={"fcnet_hiddens": list(hiddens), "fcnet_activation": "tanh", "vf_share_layers": False},
    )
    config = (
        PPOConfig()
        .environment(BBoMMultiAgentEnv, env_config=dict(env_config), disable_env_checking=True)
        .env_runners(
            num_env_runners=num_env_runners,
            num_envs_per_env_runner=num_envs_per_env_runner,
            num_cpus_per_env_runner=num_cpus_per_env_runner,
            rollout_fragment_length=rollout_fragment_length,
        )
        .learners(num_learners=num_learners, num_gpus_per_learner=num_gpus_per_learner)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module}))
        .training(
            lr=lr,
            gamma=gamma,
            lambda_=lambda_,
            clip_param=clip_param,
            entropy_coeff=entropy_coeff,
            vf_loss_coeff=vf_loss_coeff,
            grad_clip=grad_clip,
            train_batch_size_per_learner=train_batch_size,
            minibatch_size=minibatch_size,
            num_epochs=num_epochs,
        )
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config


def module_checkpoint(checkpoint: str | Path) -> Path:
    """The shared RLModule's folder inside an algorithm checkpoint (``Algorithm.save_to_path``);
    a module folder itself is returned as is. FileNotFoundError names what is missing."""
    p = Path(checkpoint).expanduser().resolve()  # pyarrow reads a relative path as a URI: absolute
    inner = p / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE / SHARED_POLICY
    if inner.is_dir():
        return inner
    if (p / "module_state.pkl").is_file() or (p / "class_and_ctor_args.pkl").is_file():
        return p
    raise FileNotFoundError(
        f"{str(p)!r} is not an RLlib checkpoint of bbom_env.rllib (no {inner.relative_to(p)} inside, "
        "and not a module folder): give the folder that Algorithm.save_to_path / train_rllib.py wrote"
    )
