"""A uniformly random team: the floor every other agent must beat."""

from __future__ import annotations

import random

from bbom_env.engine import GameState


class RandomAgent:
    """Picks uniformly among the legal moves of whoever must decide, with its own RNG."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        return legal[self.rng.randrange(len(legal))]
