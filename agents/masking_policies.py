"""The policies of the action-masking benchmark (benchmarks/masking.py, docs/masking.md) that
sb3-contrib does not offer, and the models of every arm.

* ``NaiveMaskingPolicy`` (arm "naive", Huang & Ontanon 2020, "naive invalid action
  masking"): actions are *sampled* from the masked distribution, but every log-probability PPO uses
  (the one stored at collection and the one of the update, hence the ratio and the gradient) and
  the entropy come from the *unmasked* logits. Invalid ids therefore keep receiving gradient
  through the softmax normaliser, which full masking removes.
* ``AuxLegalityPolicy`` (arm "aux"): MaskablePPO's policy plus a linear head on the actor's latent
  that predicts, per action id, whether it is legal; trained with a binary cross-entropy on the
  oracle mask of each rollout sample, added to the PPO loss (``AUX_COEF``). It samples with the
  oracle mask in training like arm "masked"; at evaluation it can play with its *predicted*
  legality (``legality``) instead of the oracle mask.

Everything else is sb3-contrib's (``MaskablePPO``, ``MaskableActorCriticPolicy``,
``MaskableCategoricalDistribution``) or SB3's (``PPO`` for the unmasked penalty arms).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn
from torch.nn import functional as F

# Weight of the legality BCE beside the PPO loss. The BCE is summed over the ids and averaged over the
# samples (each sample weighs as much as in the PPO loss; a mean over the 321 ids would shrink the
# head's pull on the shared layers 321 times: measured, the head then stayed at the all-illegal guess).
AUX_COEF = 1.0
AUX_THRESHOLD = 0.5  # predicted legal when sigmoid(logit) >= this (for the accuracy figures)


def _latents(policy: MaskableActorCriticPolicy, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        return policy.mlp_extractor(features)
    pi_features, vf_features = features
    return policy.mlp_extractor.forward_actor(pi_features), policy.mlp_extractor.forward_critic(vf_features)


class NaiveMaskingPolicy(MaskableActorCriticPolicy):
    """Sample from the masked distribution; log-probabilities and entropy from the unmasked one."""

    def forward(self, obs: th.Tensor, deterministic: bool = False, action_masks: np.ndarray | None = None):
        latent_pi, latent_vf = _latents(self, obs)
        values = self.value_net(latent_vf)
        logits = self.action_net(latent_pi)
        # The policy's distribution object is reused (proba_distribution returns self.action_dist),
        # so the unmasked log-probabilities are taken from the logits, not from a second object.
        sampler = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            sampler.apply_masking(action_masks)
        actions = sampler.get_actions(deterministic=deterministic)
        # Naive: the log-probability (ratio, gradient) ignores the mask.
        log_prob = th.log_softmax(logits, dim=-1).gather(1, actions.long().reshape(-1, 1)).squeeze(1)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor, action_masks: th.Tensor | None = None):
        return super().evaluate_actions(obs, actions, action_masks=None)


class AuxLegalityPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with a legality head trained by BCE on the oracle mask.

    The BCE is computed in ``evaluate_actions`` (which MaskablePPO.train calls once per minibatch
    with the minibatch's masks) and back-propagated when train() next calls
    ``optimizer.zero_grad()``, just before it back-propagates the PPO loss: the two gradients add
    up before clipping and the optimizer step, i.e. the loss is PPO + AUX_COEF * BCE, without a
    copy of MaskablePPO.train. A minibatch dropped by target_kl early stopping drops its BCE too.
    """

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.legal_net = nn.Linear(self.mlp_extractor.latent_dim_pi, int(self.action_space.n))
        self.legal_net.apply(lambda m: self.init_weights(m, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
        self._pending_aux: th.Tensor | None = None
        self.aux_stats: list[tuple[float, float, float]] = []  # (bce, exact-set accuracy, id accuracy)
        zero_grad = self.optimizer.zero_grad

        def zero_grad_then_aux(set_to_none: bool = True) -> None:
            zero_grad(set_to_none=set_to_none)
            loss, self._pending_aux = self._pending_aux, None
            if loss is not None:
                # retain_graph: the PPO loss back-propagates through the same shared layers next.
                (AUX_COEF * loss).backward(retain_graph=True)

        self.optimizer.zero_grad = zero_grad_then_aux  # type: ignore[method-assign]

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor, action_masks: th.Tensor | None = None):
        latent_pi, latent_vf = _latents(self, obs)
        distribution = self._get_action_dist_from_latent(latent_pi)
        if action_masks is not None:
            target = th.as_tensor(action_masks, dtype=th.float32, device=latent_pi.device)
            target = target.reshape(latent_pi.shape[0], -1)
            logits = self.legal_net(latent_pi)
            bce = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
            self._pending_aux = bce.sum(dim=1).mean()
            with th.no_grad():
                pred = (th.sigmoid(logits) >= AUX_THRESHOLD).float()
                exact = (pred == target).all(dim=1).float().mean()
                per_id = (pred == target).float().mean()
            self.aux_stats.append((self._pending_aux.item(), exact.item(), per_id.item()))
            distribution.apply_masking(action_masks)
        log_prob = distribution.log_prob(actions)
        return self.value_net(latent_vf), log_prob, distribution.entropy()

    def legality(self, obs: th.Tensor) -> th.Tensor:
        """(batch, n) predicted probability that each id is legal, from the observation alone."""
        latent_pi = self.mlp_extractor.forward_actor(self.extract_features(obs, self.pi_features_extractor))
        return th.sigmoid(self.legal_net(latent_pi))


# -- the arms --------------------------------------------------------------------------------------

TRAIN_ARMS = ("masked", "naive", "penalty0", "penalty0.01", "penalty0.1", "penalty1", "aux")
PENALTIES = {"penalty0": 0.0, "penalty0.01": -0.01, "penalty0.1": -0.1, "penalty1": -1.0}
# The evaluations of each training arm: (row label, how its actions are chosen). Arm 4 of
# docs/masking.md ("masked_nomask") is the masked arm's policy evaluated without its mask;
# "aux_predicted" is arm 5.
EVALS: dict[str, tuple[tuple[str, str], ...]] = {
    "masked": (("masked", "oracle"), ("masked_nomask", "none")),
    "naive": (("naive", "oracle"),),
    **{arm: ((arm, "none"),) for arm in PENALTIES},
    "aux": (("aux_predicted", "predicted"), ("aux_oracle", "oracle")),
}


def is_masked(arm: str) -> bool:
    """Whether the arm trains with the oracle mask (MaskablePPO); the penalty arms do not."""
    if arm not in TRAIN_ARMS:
        raise ValueError(f"unknown arm {arm!r}; arms: {TRAIN_ARMS}")
    return arm not in PENALTIES


def make_model(arm: str, venv: Any, hp: dict[str, Any], seed: int) -> Any:
    """The model of a training arm on ``venv`` with the shared hyper-parameters ``hp`` (PPO names)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    policy_kwargs = {"net_arch": {"pi": list(hp["net_arch"]), "vf": list(hp["net_arch"])}}
    kw = {k: v for k, v in hp.items() if k not in ("net_arch", "n_envs")}
    common = dict(policy_kwargs=policy_kwargs, seed=seed, device="cpu", verbose=0, **kw)
    if not is_masked(arm):
        return PPO("MlpPolicy", venv, **common)
    policy = {"masked": "MlpPolicy", "naive": NaiveMaskingPolicy, "aux": AuxLegalityPolicy}[arm]
    return MaskablePPO(policy, venv, **common)
