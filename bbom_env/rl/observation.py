"""The observation encoder: one flat float32 vector per seat, values in [0, 1] (docs/observation.md).

Design (design decision 13, "encode like HLE"):

* seats are relative to the observer: the section of seat offset 0 is the observer, offset 1 the
  next player clockwise, ..., padded to 5 seats with an ``absent`` flag, so one network plays
  every seat and the size does not depend on the player count;
* card identities are one-hots over the pack's sorted ids, so the size depends only on the pack
  and the module set;
* counts are written raw and scaled by a per-feature constant, then clipped to 1 (so a count
  above its scale saturates instead of leaving the Box bounds);
* nothing hidden is read (A-66): other players' hands (unless ``observe_other_hands``), deck
  order, face-down Grimoire pages, Library cards below the top, Curse pile order.

Each section (or small group of related sections, e.g. ``board.*``) is an object with its own
length, scale, meaning and encode function (obs_core.py; the base game's in obs_player.py,
obs_board.py, obs_decision.py); modules register theirs after the base game's. The layout is built
once in ``__init__`` (``observation_sections.ObsLayout``); ``encode`` loops over the section
objects, which only gather indices and values, and writes them into a fresh zero vector.
``check_sections`` is the slow, checked path for tests.
"""

from __future__ import annotations

import numpy as np

from bbom_env.engine import GameConfig, GameState
from bbom_env.engine.core.rules import game_pack

from .layout import ActionLayout
from .obs_core import ObsSection
from .observation_sections import ObsLayout

__all__ = ["ObservationEncoder"]


class ObservationEncoder:
    """Encodes a ``GameState`` from one seat's point of view (see the module docstring).

    Args:
        config: the game's config; only the pack and the module set change the layout.
        observe_other_hands: A-66 option: also show the other players' hands (default False).
        history: how many of the last actions taken are encoded.
    """

    def __init__(self, config: GameConfig, observe_other_hands: bool = False, history: int = 4) -> None:
        self.config = config
        self.pack = game_pack(config)
        self.layout = ActionLayout(config)
        self.observe_other_hands = observe_other_hands
        self.obs_layout = ObsLayout(
            self.pack, tuple(config.modules), self.layout, observe_other_hands, history
        )
        lay = self.obs_layout
        self.size: int = lay.size
        self.sections: list[tuple[str, int, int]] = [
            (sec.name, sec.start, sec.length) for sec in lay.sections
        ]
        self.meanings: dict[str, str] = {sec.name: sec.meaning for sec in lay.sections}
        # Section objects by group name ("own", "seat", "board", ..., "history"): their index tables.
        self.groups: dict[str, ObsSection] = lay.groups
        self.high = np.ones(self.size, dtype=np.float32)
        self.low = np.zeros(self.size, dtype=np.float32)

    # -- public -----------------------------------------------------------------------------------

    def views(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Named slices (views, not copies) of a flat observation."""
        return {name: vec[start : start + length] for name, start, length in self.sections}

    def encode(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` (float32, shape (size,), values in [0, 1]).

        ``out`` (optional) is overwritten and returned instead of a new array."""
        return self.obs_layout.encode(state, seat, out)

    def check_sections(self, state: GameState, seat: int) -> np.ndarray:
        """``encode`` section object by section object, checking that each writes only inside its
        own range and that the result equals ``encode``'s (AssertionError naming the section
        otherwise). For tests: slower than ``encode``."""
        return self.obs_layout.check(state, seat)
