"""Games for the picture tests: heuristic play of the default pack, base game and both Vth Element
modules, with every state it went through."""

from __future__ import annotations

import pytest

from agents import make_agent
from bbom_env.engine import GameConfig, GameState, new_game

MODULES = ("dark_matter", "phobias")


def play(config: GameConfig, seed: int = 0) -> list[GameState]:
    """Every state of a heuristic game of ``config`` (a copy per decision, then the last one)."""
    state = new_game(config)
    agent = make_agent("heuristic", seed=seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(agent.act(state))
        states.append(state.clone())
    return states


@pytest.fixture(scope="session")
def base_game() -> list[GameState]:
    return play(GameConfig(num_players=2, seed=3))


@pytest.fixture(scope="session")
def module_game() -> list[GameState]:
    return play(GameConfig(num_players=3, seed=5, modules=MODULES), seed=5)
