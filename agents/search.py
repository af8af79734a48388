"""A search team: determinized one-ply search (PIMC) over the Action menu, with heuristic rollouts.

At each Action menu with two or more legal moves, the decider (every seat plays for the team):

1. draws ``worlds`` states from its own information set (``bbom_env.engine.Resampler``: its hand,
   its deck's composition and everything public kept, everything hidden drawn uniformly, the RNG
   reseeded), so it never reads what its seat cannot see;
2. plays every legal move in every world, then the base policy (the heuristic team, or the random
   team) to the end of the game: common random numbers, since every candidate of one world starts
   from the same cards and the same RNG state and the base policy gets the same seed;
3. scores each rollout with a graded value, the team's win plus small credits for progress from
   the decision on (``win + 0.02 x Curses destroyed + 0.1 x Monsters defeated``: the issue's probe;
   a win alone is too coarse to rank ten moves with a handful of rollouts), and plays the move of
   the best mean (ties: the base policy's own move first, then the lowest id).

Every other decision (payments, effect choices, Recuperation, ...) is delegated to the heuristic
team, asked in one world drawn from the decider's information set, so that it too reads nothing
hidden. ``decisions="all"`` searches those as well (slower; docs/search.md measures both).

Budget: ``worlds`` (rollouts per candidate move), or ``ms`` (milliseconds per searched decision:
worlds are added one at a time until the time is spent, at least one; not reproducible, since the
number of worlds then depends on the machine's speed).

Name it ``search`` or ``search:key=value,...`` wherever a team is named (``agents.evaluate
--policy``, ``bbom_env.play --agents``, ``agents.make_agent``); keys: ``worlds`` (int, default 8),
``ms`` (float, default none), ``rollout`` (heuristic | random), ``decisions`` (menu | all),
``curse_weight`` (default 0.02), ``monster_weight`` (default 0.1), ``max_candidates`` (int,
0 = all; else the base policy's move plus the first others by id).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, fields, replace
from typing import Any

from bbom_env.engine import GameState, Resampler

from .heuristic_agent import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["SearchAgent", "SearchConfig", "is_search_spec", "parse_search_spec"]

PREFIX = "search"
ROLLOUT_LIMIT = 20_000  # decisions: a rollout past it is scored as a loss (never seen: games take ~200)


@dataclass(frozen=True)
class SearchConfig:
    """The search's settings (see the module docstring)."""

    worlds: int = 8
    ms: float | None = None
    rollout: str = "heuristic"
    decisions: str = "menu"
    curse_weight: float = 0.02
    monster_weight: float = 0.1
    max_candidates: int = 0

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"search: worlds={self.worlds}: need at least 1")
        if self.ms is not None and self.ms <= 0:
            raise ValueError(f"search: ms={self.ms}: need a positive time budget")
        if self.rollout not in ("heuristic", "random"):
            raise ValueError(f"search: rollout={self.rollout!r}: one of heuristic, random")
        if self.decisions not in ("menu", "all"):
            raise ValueError(f"search: decisions={self.decisions!r}: one of menu, all")
        if self.max_candidates < 0:
            raise ValueError(f"search: max_candidates={self.max_candidates}: 0 (all) or more")


def is_search_spec(spec: str) -> bool:
    return spec == PREFIX or spec.startswith(PREFIX + ":")


def parse_search_spec(spec: str) -> SearchConfig:
    """``search`` or ``search:worlds=8,rollout=heuristic,...`` -> a SearchConfig; ValueError naming
    the bad key or value."""
    if not is_search_spec(spec):
        raise ValueError(f"not a search team: {spec!r} (search or search:key=value,...)")
    types = {f.name: f.type for f in fields(SearchConfig)}
    cfg = SearchConfig()
    body = spec[len(PREFIX) + 1 :]
    for item in filter(None, body.split(",")):
        key, eq, value = item.partition("=")
        if not eq or key not in types:
            raise ValueError(
                f"search team {spec!r}: bad setting {item!r}; keys: {', '.join(types)} (key=value)"
            )
        kind = str(types[key])
        try:
            parsed: Any = (
                int(value) if kind == "int" else float(value) if kind in ("float", "float | None") else value
            )
        except ValueError:
            raise ValueError(f"search team {spec!r}: {key}={value!r} is not a {kind.split()[0]}") from None
        cfg = replace(cfg, **{key: parsed})
    return cfg


class SearchAgent:
    """The search team (module docstring). ``act(state)`` answers the pending decision."""

    def __init__(self, seed: int = 0, config: SearchConfig | None = None, **settings: Any) -> None:
        self.config = replace(config or SearchConfig(), **settings)
        self.rng = random.Random(seed)
        self.searched = 0  # decisions searched, and their total time (benchmarks read these)
        self.search_s = 0.0
        self.rollouts = 0

    @classmethod
    def from_spec(cls, spec: str, seed: int = 0) -> SearchAgent:
        return cls(seed, parse_search_spec(spec))

    def _base(self, seed: int) -> Any:
        return HeuristicAgent(seed) if self.config.rollout == "heuristic" else RandomAgent(seed)

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        sampler = Resampler(state, seat)
        searched = self.config.decisions == "all" or state.stack[-1]["kind"] == "menu"
        if not searched:
            world = sampler.sample(random.Random(self.rng.getrandbits(64)))
            return HeuristicAgent(self.rng.getrandbits(32)).act(world)
        t0 = time.perf_counter()
        move = self._search(sampler, legal)
        self.searched += 1
        self.search_s += time.perf_counter() - t0
        return move

    def _search(self, sampler: Resampler, legal: list[int]) -> int:
        cfg = self.config
        deadline = None if cfg.ms is None else time.perf_counter() + cfg.ms / 1000
        totals = [0.0] * len(legal)
        candidates = legal
        prior = None
        w = 0
        while True:
            world = sampler.sample(random.Random(self.rng.getrandbits(64)))
            base_seed = self.rng.getrandbits(32)
            if prior is None:
                prior = self._base(base_seed).act(world.clone())
                candidates = self._candidates(legal, prior)
                totals = [0.0] * len(candidates)
            for i, move in enumerate(candidates):
                totals[i] += self._rollout(world, move, base_seed)
            w += 1
            if deadline is None:
                if w >= cfg.worlds:
                    break
            elif time.perf_counter() >= deadline:
                break
        best = max(totals)
        ties = [m for m, v in zip(candidates, totals, strict=True) if v == best]
        return prior if prior in ties else min(ties)

    def _candidates(self, legal: list[int], prior: int) -> list[int]:
        k = self.config.max_candidates
        if not k or len(legal) <= k:
            return legal
        return [prior] + [m for m in legal if m != prior][: k - 1]

    def _rollout(self, world: GameState, move: int, seed: int) -> float:
        """The graded value of ``move`` in ``world``, the base policy playing on to the end."""
        s = world.clone()
        curses0 = s.stats.get("curses_destroyed", 0)
        monsters0 = s.stats.get("monsters_defeated", 0)
        s.apply_action(move)
        base = self._base(seed)
        n = 0
        while not s.over:
            s.apply_action(base.act(s))
            n += 1
            if n > ROLLOUT_LIMIT:
                return 0.0
        self.rollouts += 1
        cfg = self.config
        win = s.outcome == "win"
        return (
            float(win)
            + cfg.curse_weight * (s.stats.get("curses_destroyed", 0) - curses0)
            + cfg.monster_weight * (s.stats.get("monsters_defeated", 0) + int(win) - monsters0)
        )
