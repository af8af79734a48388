"""Team rewards (design decision 8): one reward shared by every player.

The default (preset "outcome") is the game's own result: ``win`` (+1) when the team wins, ``loss``
(-1) when it loses (docs/rules.md section 6), 0 on every other step. ``reward="shaped"`` is the reward
train.py learns with (``PRESETS``: +1 / 0 and potential-based terms; why: ``PRESETS``' comment).
Optional *shaping* terms add a weight times the increase
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

These event terms are not potential-based: a large weight can change which policy is optimal (e.g.
``madness_cured`` rewards receiving Madness in order to cure it). Keep them small next to ``win`` and
anneal them to 0; all default to 0.0 so the default reward is exactly ``state.returns()``.

*Potential-based* shaping (Ng, Harada and Russell 1999) is the safe alternative: with a potential
``phi(s) = sum(weight * stat)`` over the ``potential_*`` fields (statistics as above), each step pays
``gamma * phi(s') - phi(s)``, and ``phi`` is 0 once the game is over. Over an episode these terms
add up to ``-phi(s_0) = 0`` (undiscounted), so they change no policy's value ordering: they only move
credit earlier (a Curse destroyed pays at once, and the end of the game takes it back). ``gamma``
must be the learner's discount (train.py sets it). They cannot pay for stalling: with ``gamma < 1``
holding a potential costs ``(1 - gamma) * phi`` per step.
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

# Statistics a potential may weigh (``potential_<name>`` fields of RewardConfig).
POTENTIAL_FIELDS = ("curse_destroyed", "monster_defeated", "madness_received")


# Named rewards: ``reward="shaped"`` (any env) or ``RewardConfig.preset("shaped", gamma=0.999)``.
# "outcome" is the default: the game's own result, +1 / -1, nothing else, so an episode's return
# says whether the team won (what evaluation and the env's users read). "shaped" is the reward
# train.py learns with (configs/default.yaml, docs/training.md "The reward"): a loss pays 0, since
# with -1 and gamma < 1 a learner is paid for delaying the loss (it learned to stall), and
# potential-based terms move credit to each Curse destroyed and Monster defeated without changing
# which policy is best; give it the learner's gamma.
PRESETS: dict[str, dict[str, float]] = {
    "outcome": {"win": 1.0, "loss": -1.0},
    "shaped": {"win": 1.0, "loss": 0.0, "potential_curse_destroyed": 0.02, "potential_monster_defeated": 0.1},
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
    potential_curse_destroyed: float = 0.0
    potential_monster_defeated: float = 0.0
    potential_madness_received: float = 0.0
    gamma: float = 1.0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"RewardConfig.{f.name}={v!r} must be a number")
            if not math.isfinite(v):
                raise ValueError(f"RewardConfig.{f.name}={v!r} must be a finite number")
            object.__setattr__(self, f.name, float(v))
        if not 0.0 < self.gamma <= 1.0:
            raise ValueError(f"RewardConfig.gamma={self.gamma!r} must be in (0, 1]")

    @classmethod
    def preset(cls, name: str, **changes: float) -> RewardConfig:
        """A named reward (``PRESETS``: "outcome", the default, or "shaped", train.py's), with
        ``changes`` to its fields (e.g. ``gamma=0.999``); ValueError naming the presets."""
        if name not in PRESETS:
            raise ValueError(f"unknown reward preset {name!r}; presets: {', '.join(PRESETS)}")
        return cls.coerce({**PRESETS[name], **changes})

    @classmethod
    def coerce(cls, value: RewardConfig | dict[str, Any] | str | None) -> RewardConfig:
        """None -> defaults ("outcome"); a preset name ("outcome", "shaped"); a dict -> fields by
        name (unknown names raise)."""
        if value is None:
            return cls()
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            known = {f.name for f in dataclasses.fields(cls)}
            unknown = sorted(set(value) - known)
            if unknown:
                raise TypeError(f"unknown RewardConfig field(s) {unknown}; known: {sorted(known)}")
            return cls(**value)
        raise TypeError(
            f"reward must be a RewardConfig, a dict, a preset name ({', '.join(PRESETS)}) or None, "
            f"not {type(value).__name__}"
        )

    @property
    def shaping(self) -> tuple[tuple[str, float], ...]:
        """(engine stat key, weight) of the non-zero shaping terms."""
        return tuple((STAT_OF[k], getattr(self, k)) for k in STAT_OF if getattr(self, k) != 0.0)

    @property
    def potential(self) -> tuple[tuple[str, float], ...]:
        """(engine stat key, weight) of the non-zero potential terms."""
        return tuple(
            (STAT_OF[k], getattr(self, "potential_" + k))
            for k in POTENTIAL_FIELDS
            if getattr(self, "potential_" + k) != 0.0
        )

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
        self._potential = self.config.potential
        self._gamma = self.config.gamma
        self._phi = 0.0

    def phi(self, state: GameState) -> float:
        """The shaping potential of ``state`` (0 once the game is over, so it telescopes away)."""
        if state.over or not self._potential:
            return 0.0
        stats = state.stats
        return sum(w * stats.get(k, 0) for k, w in self._potential)

    def reset(self, state: GameState) -> None:
        # Events that happened during setup (the opening draw) are not rewarded.
        self._last = [state.stats.get(k, 0) for k, _ in self._terms]
        self._paid_outcome = state.over
        self._phi = self.phi(state)

    def step(self, state: GameState) -> float:
        r = 0.0
        if self._terms:
            stats = state.stats
            for i, (key, weight) in enumerate(self._terms):
                now = stats.get(key, 0)
                if now != self._last[i]:
                    r += weight * (now - self._last[i])
                    self._last[i] = now
        if self._potential:
            phi = self.phi(state)
            r += self._gamma * phi - self._phi
            self._phi = phi
        if state.over and not self._paid_outcome:
            self._paid_outcome = True
            r += self.config.win if state.outcome == "win" else self.config.loss
        return r
