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
   the best mean (ties: the base policy's own move first, then the lowest id), unless its gain over
   the base policy's move, on the same worlds, is ``margin`` or less (SPARTA's rule: the search
   leaves the base policy only for a gain it can tell from noise).

``select="halving"`` spends the same budget (``worlds`` rollouts a candidate on average) by
sequential halving: rounds of fresh worlds, the worse half of the candidates dropped after each
(never the base policy's move), so the last few candidates get several times ``worlds`` rollouts.

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
0 = all; else the base policy's move plus the first others by id), ``select`` (uniform | halving),
``margin`` (float, default 0), ``leaf`` (what scores a rollout cut after ``horizon`` decisions: a
value network of ``agents.value_net``, ``value_2p_l1`` or a ``.pt`` file, or a policy's value head,
a pretrained policy's name or a model ``.zip``, ``value_net.leaf_value``; default none: rollouts
to the end) and ``horizon`` (int, default 20).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
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
    select: str = "uniform"
    margin: float = 0.0
    leaf: str = ""
    horizon: int = 20

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"search: worlds={self.worlds}: need at least 1")
        if self.ms is not None and self.ms <= 0:
            raise ValueError(f"search: ms={self.ms}: need a positive time budget")
        if self.rollout not in ("heuristic", "random"):
            raise ValueError(f"search: rollout={self.rollout!r}: one of heuristic, random")
        if self.decisions not in ("menu", "all"):
            raise ValueError(f"search: decisions={self.decisions!r}: one of menu, all")
        if self.select not in ("uniform", "halving"):
            raise ValueError(f"search: select={self.select!r}: one of uniform, halving")
        if self.select == "halving" and self.ms is not None:
            raise ValueError("search: select=halving spends a budget of worlds; ms needs select=uniform")
        if self.margin < 0:
            raise ValueError(f"search: margin={self.margin}: 0 or more")
        if self.max_candidates < 0:
            raise ValueError(f"search: max_candidates={self.max_candidates}: 0 (all) or more")
        if self.horizon < 0:
            raise ValueError(f"search: horizon={self.horizon}: 0 or more decisions")
        if self.leaf:
            from .value_net import check_leaf

            check_leaf(self.leaf, "search: ")


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
        self._leaf: Any = None  # the leaf network, loaded on first use

    @classmethod
    def from_spec(cls, spec: str, seed: int = 0) -> SearchAgent:
        return cls(seed, parse_search_spec(spec))

    @property
    def leaf(self) -> Any:
        """What scores a rollout cut at ``horizon``: ``win(state)``, a chance to win (None: rollouts
        to the end); ``value_net.leaf_value`` loads it."""
        if self.config.leaf and self._leaf is None:
            from .value_net import leaf_value

            self._leaf = leaf_value(self.config.leaf)
        return self._leaf

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

    def _draw(self, sampler: Resampler) -> tuple[GameState, int]:
        """One world from the decider's information set, and the base policy's seed for it."""
        world = sampler.sample(random.Random(self.rng.getrandbits(64)))
        return world, self.rng.getrandbits(32)

    def _search(self, sampler: Resampler, legal: list[int]) -> int:
        cfg = self.config
        world, seed = self._draw(sampler)
        prior = self._base(seed).act(world.clone())
        candidates = self._candidates(legal, prior)
        totals = dict.fromkeys(candidates, 0.0)
        counts = dict.fromkeys(candidates, 0)

        def play(alive: list[int], world: GameState, seed: int) -> None:
            for move in alive:  # common random numbers: one world and one seed for every candidate
                totals[move] += self._rollout(world, move, seed)
                counts[move] += 1

        if len(candidates) == 1:
            return prior
        if cfg.select == "halving":
            self._halving(candidates, prior, totals, counts, play, (world, seed), sampler)
        else:
            deadline = None if cfg.ms is None else time.perf_counter() + cfg.ms / 1000
            w = 0
            while True:
                play(candidates, world, seed)
                w += 1
                if (w >= cfg.worlds) if deadline is None else (time.perf_counter() >= deadline):
                    break
                world, seed = self._draw(sampler)
        mean = {m: totals[m] / counts[m] for m in candidates if counts[m]}
        best = max(mean.values())
        ties = [m for m in candidates if mean.get(m) == best]
        move = prior if prior in ties else min(ties)
        # SPARTA's rule: leave the base policy's move only for a gain above the margin, measured on
        # the same worlds (the base move is searched in every world, under halving too)
        return move if mean[move] - mean[prior] > cfg.margin or move == prior else prior

    def _halving(
        self,
        candidates: list[int],
        prior: int,
        totals: dict[int, float],
        counts: dict[int, int],
        play: Callable[[list[int], GameState, int], None],
        first: tuple[GameState, int],
        sampler: Resampler,
    ) -> None:
        """Sequential halving (Karnin, Koren and Somekh 2013): the budget, ``worlds`` rollouts a
        candidate on average, spent in ceil(log2 n) rounds of equal cost; each round plays every
        surviving candidate in fresh worlds, then keeps the better half by mean (the base policy's
        move always stays, so the margin compares it on the same worlds as the best)."""
        n = len(candidates)
        rounds = max(1, math.ceil(math.log2(n)))
        budget = self.config.worlds * n
        alive = list(candidates)
        pending: tuple[GameState, int] | None = first
        for r in range(rounds):
            for _ in range(max(1, budget // (rounds * len(alive)))):
                world, seed = pending or self._draw(sampler)
                pending = None
                play(alive, world, seed)
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda m: (-totals[m] / counts[m], m != prior, m))
                alive = ranked[: math.ceil(len(alive) / 2)]
                if prior not in alive:
                    alive.append(prior)

    def _candidates(self, legal: list[int], prior: int) -> list[int]:
        k = self.config.max_candidates
        if not k or len(legal) <= k:
            return legal
        return [prior] + [m for m in legal if m != prior][: k - 1]

    def _rollout(self, world: GameState, move: int, seed: int, horizon: int | None = None) -> float:
        """The graded value of ``move`` in ``world``, the base policy playing on to the end, or
        for ``horizon`` decisions when a leaf value head is set (``horizon`` defaults to the
        config's), the head's estimate of the win then standing for the rest."""
        s = world.clone()
        curses0 = s.stats.get("curses_destroyed", 0)
        monsters0 = s.stats.get("monsters_defeated", 0)
        s.apply_action(move)
        base = self._base(seed)
        leaf = self.leaf
        limit = ROLLOUT_LIMIT if leaf is None else self.config.horizon if horizon is None else horizon
        n = 0
        while not s.over and n < limit:
            s.apply_action(base.act(s))
            n += 1
        if not s.over and leaf is None:
            return 0.0  # past ROLLOUT_LIMIT: a loss (never seen)
        self.rollouts += 1
        cfg = self.config
        # A win defeats the last Monster: its credit comes with the win (the leaf's estimate too).
        win = float(s.outcome == "win") if s.over else leaf.win(s)
        return (
            win
            + cfg.curse_weight * (s.stats.get("curses_destroyed", 0) - curses0)
            + cfg.monster_weight * (s.stats.get("monsters_defeated", 0) + win - monsters0)
        )
