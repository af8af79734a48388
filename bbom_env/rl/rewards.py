"""Team rewards (design decision 8): one reward shared by every player.

The default is the game's own result: ``win`` (+1) when the team wins, ``loss`` (-1) when it loses
(RULES.md section 6), 0 on every other step. Optional *shaping* terms add a weight times the increase
of an engine statistic (``state.stats``, counted by the engine as events happen) since the previous
step, so the reward of one episode sums to ``outcome + sum(weight * final count)``:

==================  ========================  ===============================================
field               engine statistic          counted when
==================  ========================  ===============================================
curse_destroyed     ``curses_destroyed``      a Curse leaves the track by the Destroy-a-Curse
                                              Action or an effect (section 4.4)
monster_defeated    ``monsters_defeated``     a Monster is vanquished at the end of a round
monster_failed      ``monsters_failed``       a Monster's Failure page applies
madness_received    ``madness_received``      a player takes a Madness card (section 5.3);
                                              use a negative weight
madness_cured       ``madness_cured``         a Madness card goes back to the pile (cure)
spell_learned       ``spells_learned``        the Learn-a-Spell Action
elimination         ``eliminations``          a player is eliminated (section 5.4); negative
==================  ========================  ===============================================

Shaping terms are not potential-based: a large weight can change which policy is optimal (e.g.
``madness_cured`` rewards receiving Madness in order to cure it). Keep them small next to ``win`` and
anneal them to 0; all default to 0.0 so the default reward is exactly ``state.returns()``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from bbom_env.engine import GameState

# RewardConfig shaping field -> engine statistic key (state.stats).
STAT_OF: dict[str, str] = {
    "curse_destroyed": "curses_destroyed",
    "monster_defeated": "monsters_defeated",
    "monster_failed": "monsters_failed",
    "madness_received": "madness_received",
    "madness_cured": "madness_cured",
    "spell_learned": "spells_learned",
    "elimination": "eliminations",
}


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the team reward. ``win``/``loss`` are paid once, on the final step; the others are
    per event (see the module docstring). Build from a dict with ``RewardConfig.coerce``."""

    win: float = 1.0
    loss: float = -1.0
    curse_destroyed: float = 0.0
    monster_defeated: float = 0.0
    monster_failed: float = 0.0
    madness_received: float = 0.0
    madness_cured: float = 0.0
    spell_learned: float = 0.0
    elimination: float = 0.0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"RewardConfig.{f.name}={v!r} must be a number")
            if not math.isfinite(v):
                raise ValueError(f"RewardConfig.{f.name}={v!r} must be a finite number")
            object.__setattr__(self, f.name, float(v))

    @classmethod
    def coerce(cls, value: RewardConfig | dict[str, Any] | None) -> RewardConfig:
        """None -> defaults; a dict -> fields by name (unknown names raise)."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            known = {f.name for f in dataclasses.fields(cls)}
            unknown = sorted(set(value) - known)
            if unknown:
                raise TypeError(f"unknown RewardConfig field(s) {unknown}; known: {sorted(known)}")
            return cls(**value)
        raise TypeError(f"reward must be a RewardConfig, a dict or None, not {type(value).__name__}")

    @property
    def shaping(self) -> tuple[tuple[str, float], ...]:
        """(engine stat key, weight) of the non-zero shaping terms."""
        return tuple((STAT_OF[k], getattr(self, k)) for k in STAT_OF if getattr(self, k) != 0.0)

    def to_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)


class RewardTracker:
    """Computes the per-step team reward of one game: call ``reset(state)`` after the game is created
    and ``step(state)`` after every applied action."""

    def __init__(self, config: RewardConfig | dict[str, Any] | None = None) -> None:
        self.config = RewardConfig.coerce(config)
        self._terms = self.config.shaping
        self._last: list[int] = [0] * len(self._terms)
        self._paid_outcome = False

    def reset(self, state: GameState) -> None:
        # Events that happened during setup (the opening draw) are not rewarded.
        self._last = [state.stats.get(k, 0) for k, _ in self._terms]
        self._paid_outcome = state.over

    def step(self, state: GameState) -> float:
        r = 0.0
        if self._terms:
            stats = state.stats
            for i, (key, weight) in enumerate(self._terms):
                now = stats.get(key, 0)
                if now != self._last[i]:
                    r += weight * (now - self._last[i])
                    self._last[i] = now
        if state.over and not self._paid_outcome:
            self._paid_outcome = True
            r += self.config.win if state.outcome == "win" else self.config.loss
        return r
