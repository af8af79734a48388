"""The Phobia module's part of the game state (``state.ext["phobias"]``): cloned, pickled and
saved by its field types (docs/engine.md, "Writing a module")."""

from __future__ import annotations

from dataclasses import dataclass, field

from bbom_env.engine.ext import GameState
from bbom_env.engine.model.constants import IDENTITY_MADNESS_BASE, NUM_IDENTITY_MADNESS
from bbom_env.engine.model.typed import ModuleState

NAME = "phobias"
# Phobia k's card code is PHOBIA_BASE + k (section 1.2: 16 Phobias): Madness cards that keep their
# identity, the codes the engine keeps for them.
PHOBIA_BASE = IDENTITY_MADNESS_BASE
NUM_PHOBIAS = NUM_IDENTITY_MADNESS
# Section 1.3: the Madness pile with the Phobia module, by player count: (Phobias, Madness); the
# total is the base game's pile (5 x players + 10).
COMPOSITION: dict[int, tuple[int, int]] = {2: (10, 10), 3: (12, 13), 4: (14, 16), 5: (16, 19)}


@dataclass
class PhobiaState(ModuleState):
    """The Phobia module's part of the state (``state.ext["phobias"]``).

    ``chosen``: the card codes of the Phobias in this game (A-77: a random subset of the 16, the
    rest in the box), sorted. ``under``: (Curse id, Phobia code) for each Phobia lying under a
    Curse on the track (V-29: the Sorcerer's Madness keeps its identity; the Curse's ``madness``
    count holds the plain Madness only)."""

    chosen: list[int] = field(default_factory=list)
    under: list[tuple[str, int]] = field(default_factory=list)


def ph_state(state: GameState) -> PhobiaState:
    st = state.ext[NAME]
    assert isinstance(st, PhobiaState)
    return st
