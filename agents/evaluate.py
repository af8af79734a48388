"""Play seeded games with a team and summarise them: win rate with a 95% Wilson interval,
Monsters defeated, Madness received, game length, and per Library Spell the win-rate difference
between games where the team learned it and games where it was in the Library but not learned.

Game ``i`` of a run uses ``GameConfig(seed=base_seed + i)`` and an agent seeded with the same
number, so results do not depend on how games are split across worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bbom_env.engine import GameConfig, GameState, new_game

from .heuristic_agent import HeuristicAgent
from .random_agent import RandomAgent

AGENTS: dict[str, Callable[[int], Any]] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion (good near 0 and 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameResult:
    seed: int
    win: bool
    reason: str
    monsters_defeated: int  # Bonus rounds, plus the final Monster on a win
    madness_received: int
    curses_destroyed: int
    turns: int
    decisions: int
    library: tuple[str, ...]  # Library Spells dealt into the Library piles at setup
    learned: tuple[str, ...]  # Library Spells the team learned
    casts: tuple[tuple[str, int], ...] = ()  # (spell id, activations) for every Spell cast


def play_game(config: GameConfig, agent: Any, max_decisions: int = 100_000) -> GameResult:
    """Play one game to the end with ``agent.act`` deciding for every seat."""
    state = new_game(config)
    library = tuple(sorted(sid for pile in state.library for sid in pile))
    decisions = 0
    while not state.is_terminal():
        state.apply_action(agent.act(state))
        decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"game with seed {config.seed} exceeded {max_decisions} decisions")
    return summarise(state, config.seed, library, decisions)


def summarise(state: GameState, seed: int, library: tuple[str, ...], decisions: int) -> GameResult:
    win = state.outcome == "win"
    learned = tuple(sorted({e[3] for e in state.log if e[1] == "learn"} & set(library)))
    casts: dict[str, int] = {}
    for e in state.log:
        if e[1] == "activate":
            casts[e[3]] = casts.get(e[3], 0) + 1
    return GameResult(
        seed=seed,
        win=win,
        reason=state.reason,
        monsters_defeated=state.stats.get("monsters_defeated", 0) + int(win),
        madness_received=state.stats.get("madness_received", 0),
        curses_destroyed=state.stats.get("curses_destroyed", 0),
        turns=state.turn,
        decisions=decisions,
        library=library,
        learned=learned,
        casts=tuple(sorted(casts.items())),
    )


def _run_one(args: tuple[str, dict, int]) -> GameResult:
    team, cfg, seed = args
    config = GameConfig(**{**cfg, "seed": seed})
    return play_game(config, AGENTS[team](seed))


@dataclass
class Summary:
    team: str
    config: dict
    games: int
    wins: int
    win_ci: tuple[float, float]
    monsters_defeated: float
    madness_received: float
    curses_destroyed: float
    turns: float
    decisions: float
    reasons: dict[str, int]
    # spell id -> (games learned, wins when learned, games available not learned, wins then)
    spells: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    # Library spell id -> (games learned, games learned and cast at least once, activations)
    casts: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def summarise_results(team: str, cfg: dict, results: list[GameResult]) -> Summary:
    n = len(results)
    wins = sum(r.win for r in results)
    reasons: dict[str, int] = {}
    spells: dict[str, list[int]] = {}
    casts: dict[str, list[int]] = {}
    for r in results:
        cast = dict(r.casts)
        for sid in r.learned:
            row = casts.setdefault(sid, [0, 0, 0])
            row[0] += 1
            row[1] += sid in cast
            row[2] += cast.get(sid, 0)
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
        for sid in r.library:
            row = spells.setdefault(sid, [0, 0, 0, 0])
            if sid in r.learned:
                row[0] += 1
                row[1] += r.win
            else:
                row[2] += 1
                row[3] += r.win

    def mean(key: str) -> float:
        return sum(getattr(r, key) for r in results) / n if n else 0.0

    return Summary(
        team=team,
        config=cfg,
        games=n,
        wins=wins,
        win_ci=wilson(wins, n),
        monsters_defeated=mean("monsters_defeated"),
        madness_received=mean("madness_received"),
        curses_destroyed=mean("curses_destroyed"),
        turns=mean("turns"),
        decisions=mean("decisions"),
        reasons=reasons,
        spells={k: tuple(v) for k, v in sorted(spells.items())},  # type: ignore[misc]
        casts={k: tuple(v) for k, v in sorted(casts.items())},  # type: ignore[misc]
    )


def evaluate(
    team: str,
    games: int,
    base_seed: int = 0,
    workers: int = 1,
    progress: Callable[[Iterable], Iterable] | None = None,
    **config: Any,
) -> Summary:
    """Play ``games`` seeded games with team ``"random"`` or ``"heuristic"``; ``config`` holds
    GameConfig fields (num_players, difficulty, mode, payment, pack ...)."""
    if team not in AGENTS:
        raise ValueError(f"unknown team {team!r}; known: {sorted(AGENTS)}")
    GameConfig(**config)  # validate once, before spawning workers
    jobs = [(team, config, base_seed + i) for i in range(games)]
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            it: Iterable = pool.imap(_run_one, jobs, chunksize=4)
            results = list(progress(it) if progress else it)
    else:
        it = map(_run_one, jobs)
        results = list(progress(it) if progress else it)
    return summarise_results(team, config, results)


def main(argv: list[str] | None = None) -> None:
    """``python -m agents.evaluate [--team heuristic] [--games 200] [--players 2] [--level 1]``:
    win rate and, per Library Spell the team learned, how often it then cast it."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--team", default="heuristic", choices=sorted(AGENTS))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--pack", default="default")
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    s = evaluate(a.team, a.games, workers=a.workers, pack=a.pack, num_players=a.players, difficulty=a.level)
    lo, hi = s.win_ci
    print(
        f"{a.team} {a.players}p L{a.level}: {s.wins}/{s.games} wins "
        f"({100 * s.win_rate:.1f}%, CI {100 * lo:.1f}-{100 * hi:.1f})"
    )
    print(f"monsters {s.monsters_defeated:.2f} curses {s.curses_destroyed:.1f} decisions {s.decisions:.0f}")
    print("spell: games learned / games learned and cast / activations")
    for sid, (n, c, k) in sorted(s.casts.items(), key=lambda kv: -kv[1][0]):
        print(f"  {sid:32s} {n:5d} {c:5d} {k:6d}")


if __name__ == "__main__":
    main()
