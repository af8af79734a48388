"""The RL view of the engine's flat move layout (``bbom_env.engine.core.moves``, design decision 5).

The engine already numbers every move with one int id, the same for 2 to 5 players (players are
seat offsets from the decider, cards are card codes). This class only adds what an RL library
needs: the size ``n`` of ``Discrete(n)``, a numpy 0/1 mask of the legal ids, names for every id
and the block table for the docs. A module's blocks are appended by the engine after the base
blocks (``moves.layout(modules)``); nothing here hard-codes a block offset.
"""

from __future__ import annotations

import numpy as np

from bbom_env.engine import GameConfig, GameState
from bbom_env.engine.core import moves as M


class ActionLayout:
    """Flat action space of one module set; identical for every player count."""

    def __init__(self, config: GameConfig) -> None:
        self.modules: tuple[str, ...] = tuple(config.modules)
        self.n: int = M.num_moves(self.modules)
        # Names are built once: action_to_string is called by renderers and logs per step.
        self._names: tuple[str, ...] = tuple(M.move_to_string(a, self.modules) for a in range(self.n))
        # Block index of every id (used by the observation's last-actions section).
        table = self.table()
        self.block_names: tuple[str, ...] = tuple(row[0] for row in table)
        self.block_of = np.zeros(self.n, dtype=np.int64)
        self.arg_of = np.zeros(self.n, dtype=np.int64)
        self.block_size = np.zeros(len(table), dtype=np.int64)
        for b, (_name, start, size, _arg) in enumerate(table):
            self.block_of[start : start + size] = b
            self.arg_of[start : start + size] = np.arange(size)
            self.block_size[b] = size
        if int(self.block_size.sum()) != self.n:
            raise AssertionError(f"action blocks cover {int(self.block_size.sum())} ids, expected {self.n}")

    def mask(self, state: GameState) -> np.ndarray:
        """int8 array of shape (n,): 1 exactly at ``state.legal_actions()``; all 0 once the game is
        over (the environments decide what a learner sees at terminal states)."""
        out = np.zeros(self.n, dtype=np.int8)
        legal = state.legal_actions()
        if legal:
            out[legal] = 1
        return out

    def action_to_string(self, action: int) -> str:
        """Seat-independent name of an id, e.g. ``ACQUIRE(fire-3)``; ValueError outside 0..n-1."""
        if not 0 <= int(action) < self.n:
            raise ValueError(f"action id {action} is outside the layout (0..{self.n - 1})")
        return self._names[int(action)]

    def table(self) -> list[tuple[str, int, int, str]]:
        """Rows (block, first id, size, argument meaning), in id order."""
        return M.layout(self.modules).table()
