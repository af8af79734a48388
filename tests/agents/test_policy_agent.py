"""Trained teams (agents/policy_agent.py, agents.make_agent): legal moves only, the actor's argmax,
seeded sampling, and clear errors for a model that does not fit the game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents import HeuristicAgent, RandomAgent, make_agent
from agents.policy_agent import PolicyAgent
from bbom_env.engine import GameConfig, new_game
from bbom_env.rl.observation import ObservationEncoder


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import bbom_env  # noqa: F401

    path = tmp_path_factory.mktemp("policy") / "tiny.zip"
    MaskablePPO("MlpPolicy", gym.make("BigBookOfMadness-v2"), seed=0, policy_kwargs={"net_arch": [32]}).save(
        path
    )
    return path


def test_make_agent_builds_every_kind(model_path: Path) -> None:
    assert isinstance(make_agent("random", 3), RandomAgent)
    assert isinstance(make_agent("heuristic", 3), HeuristicAgent)
    assert isinstance(make_agent(str(model_path)), PolicyAgent)
    with pytest.raises(ValueError, match="unknown agent 'smart'.*heuristic"):
        make_agent("smart")
    with pytest.raises(FileNotFoundError, match="no policy file"):
        PolicyAgent.load(model_path.with_name("missing.zip"))


def test_policy_plays_the_argmax_of_the_masked_distribution(model_path: Path) -> None:
    agent = PolicyAgent.load(model_path)
    state = new_game(GameConfig(seed=4))
    enc = ObservationEncoder(state.config)
    checked = 0
    while not state.is_terminal() and checked < 60:
        legal = state.legal_actions()
        move = agent.act(state)
        assert move in legal
        if len(legal) > 1:
            mask = np.zeros(agent.n_actions, dtype=bool)
            mask[legal] = True
            obs = torch.as_tensor(enc.encode(state, state.current_player()))[None]
            dist = agent.policy.get_distribution(obs, action_masks=mask[None])
            assert move == int(dist.distribution.logits.argmax())  # the full policy's own argmax
            checked += 1
        state.apply_action(move)
    assert checked == 60 or state.is_terminal()


def test_sampling_is_seeded(model_path: Path) -> None:
    def moves(seed: int) -> list[int]:
        agent = PolicyAgent.load(model_path, deterministic=False, seed=seed)
        state = new_game(GameConfig(seed=9))
        out = []
        while not state.is_terminal() and len(out) < 80:
            out.append(agent.act(state))
            state.apply_action(out[-1])
        return out

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_a_model_for_another_pack_is_refused(model_path: Path) -> None:
    agent = PolicyAgent.load(model_path)
    state = new_game(GameConfig(pack="test", seed=0))
    with pytest.raises(ValueError, match="trained on"):
        agent.act(state)
