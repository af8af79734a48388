"""Evaluate teams (random, heuristic, trained policies) on the same seeded deals and report win rates
with 95% intervals, Monsters defeated, Curses destroyed, Madness received, game length and
truncations; per Library Spell, how often a team learned it, cast it, and won with and without it.

Why paired deals: game ``i`` of a run uses ``GameConfig(seed=base_seed + i)`` and an agent seeded
with the same number, for every team. Two teams are then compared on identical deals, so the paired
difference of their win rates (Agresti-Min interval) is much tighter than two independent Wilson
intervals suggest, and results do not depend on how games are split across worker processes.

Why truncation: a trained policy can loop (e.g. pass forever); the CLI cuts a game off after
``--max-decisions`` decisions (default 2000, the Gymnasium env's ``max_steps``) and counts it as not
won, in its own column. ``play_game`` keeps raising past its limit unless asked to truncate, as the
benchmarks expect.

    python -m agents.evaluate --policy runs/ppo/model.zip --policy heuristic --games 500

prints a table, writes ``evaluation.csv``, ``games.csv`` and ``evaluation.md`` to ``--out`` (default
``runs/eval``) and, with ``--json``, one JSON line last on stdout. The reports and the command line
live in ``agents.evaluate_report``; their public names are importable from here too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.play_session import monsters_defeated

from . import SCRIPTED, make_agent
from .search import SearchAgent, is_search_spec, parse_search_spec

AGENTS: dict[str, Callable[[int], Any]] = dict(SCRIPTED)
DEFAULT_MAX_DECISIONS = 2000  # bbom_env.rl.gym_env.DEFAULT_MAX_STEPS (a test keeps them equal)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion (good near 0 and 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def discordant(a: list[bool], b: list[bool]) -> tuple[int, int]:
    """(pairs won only in ``a``, pairs won only in ``b``)."""
    pairs = list(zip(a, b, strict=True))
    return sum(x and not y for x, y in pairs), sum(y and not x for x, y in pairs)


def paired_difference(a: list[bool], b: list[bool], z: float = 1.96) -> tuple[float, float, float]:
    """Win rate of ``a`` minus win rate of ``b`` on the same deals, with the Agresti-Min adjusted
    Wald 95% interval (add 1/2 to each cell of the 2x2 table of outcomes; unlike plain Wald it does
    not collapse to a point when few pairs disagree). benchmarks/balance.py uses it too."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    n = len(a)
    only_a, only_b = discordant(a, b)
    diff = (only_a - only_b) / n if n else 0.0
    m = n + 2
    p10, p01 = (only_a + 0.5) / m, (only_b + 0.5) / m
    half = z * math.sqrt(max(0.0, (p10 + p01 - (p10 - p01) ** 2) / m))
    return diff, p10 - p01 - half, p10 - p01 + half


def paired_mean_difference(a: list[float], b: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired games with a normal 95% interval (sample sd of the differences)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


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
    truncated: bool = False  # cut off at the decision limit (counted as not won)
    # The statistics of the game's rules modules (e.g. the Dark Matter module's dark_matter_acquired,
    # black_spells_cast, dark_curses_destroyed), sorted by name; () in a base game.
    module_stats: tuple[tuple[str, int], ...] = ()


def play_game(
    config: GameConfig, agent: Any, max_decisions: int = 100_000, truncate: bool = False
) -> GameResult:
    """Play one game with ``agent.act`` deciding for every seat. Past ``max_decisions`` decisions
    it raises RuntimeError, or with ``truncate`` stops there (like the env's ``max_steps``: a game
    not over after ``max_decisions`` decisions) and returns a result marked truncated, not won."""
    return _result(config, *play_state(config, agent, max_decisions, truncate))


def play_state(
    config: GameConfig, agent: Any, max_decisions: int = 100_000, truncate: bool = False
) -> tuple[GameState, tuple[str, ...], bool]:
    """``play_game``'s game itself: (the last state, the Library dealt at setup, truncated)."""
    state = new_game(config)
    library = tuple(sorted(sid for pile in state.library for sid in pile))
    decisions = 0
    while not state.is_terminal():
        state.apply_action(agent.act(state))
        decisions += 1
        if truncate and decisions >= max_decisions and not state.is_terminal():
            return state, library, True
        if decisions > max_decisions:
            raise RuntimeError(f"game with seed {config.seed} exceeded {max_decisions} decisions")
    return state, library, False


def _result(config: GameConfig, state: GameState, library: tuple[str, ...], truncated: bool) -> GameResult:
    return summarise(state, config.seed, library, len(state.history), truncated=truncated)


def _module_stats(state: GameState) -> tuple[tuple[str, int], ...]:
    names = [n for m in ruleset(state.config.modules).parts[1:] for n in m.stats]
    return tuple((n, state.stats.get(n, 0)) for n in sorted(names))


def summarise(
    state: GameState, seed: int, library: tuple[str, ...], decisions: int, truncated: bool = False
) -> GameResult:
    win = state.outcome == "win" and not truncated
    learned = tuple(sorted({e[3] for e in state.log if e[1] == "learn"} & set(library)))
    casts: dict[str, int] = {}
    for e in state.log:
        if e[1] == "activate":
            casts[e[3]] = casts.get(e[3], 0) + 1
    return GameResult(
        seed=seed,
        win=win,
        reason="truncated" if truncated else state.reason,
        monsters_defeated=monsters_defeated(state) if win else state.stats.get("monsters_defeated", 0),
        madness_received=state.stats.get("madness_received", 0),
        curses_destroyed=state.stats.get("curses_destroyed", 0),
        module_stats=_module_stats(state),
        turns=state.turn,
        decisions=decisions,
        library=library,
        learned=learned,
        casts=tuple(sorted(casts.items())),
        truncated=truncated,
    )


# -- agents, cached per process --------------------------------------------------------------------

_POLICIES: dict[tuple[str, int, bool], Any] = {}  # (path, mtime, deterministic) -> loaded PolicyAgent
_ONE_THREAD = False  # worker processes and the CLI: one torch thread (a 64x64 MLP gains nothing from
# more, and with all cores busy torch's spinning threads made a decision 60x slower, measured)


def _init_worker() -> None:
    global _ONE_THREAD
    _ONE_THREAD = True


def check_team(team: str) -> None:
    """Raise ValueError unless ``team`` is a scripted team name, a search team (``search:...``,
    agents/search.py, its settings checked) or an existing policy file."""
    if is_search_spec(team):
        parse_search_spec(team)
        return
    if team.startswith("pretrained:"):
        from bbom_env import pretrained

        pretrained.info(team)  # PretrainedError (a ValueError) naming the ones shipped
        return
    if team.startswith("rllib:"):
        if not Path(team.removeprefix("rllib:")).is_dir():
            raise ValueError(
                f"team {team!r}: no RLlib checkpoint folder at that path (train_rllib.py's RUN/checkpoint)"
            )
        return
    if team not in AGENTS and not Path(team).is_file():
        raise ValueError(
            f"unknown team {team!r}: not one of {sorted(AGENTS)}, not search[:key=value,...] and no "
            "policy file at that path "
            "(a MaskablePPO .zip saved by train.py, or rllib:DIR for an RLlib checkpoint)"
        )


def _agent(team: str, seed: int, deterministic: bool = True) -> Any:
    """The agent of game ``seed``. A policy is loaded once per process (loading takes about a
    second); an argmax policy ignores its seed, a sampling one gets a fresh generator per game."""
    if team in AGENTS:
        return AGENTS[team](seed)
    if is_search_spec(team):
        return SearchAgent.from_spec(team, seed)
    prefix = "rllib:" if team.startswith("rllib:") else ""
    if team.startswith("pretrained:"):
        from bbom_env import pretrained

        prefix, path = "pretrained:", pretrained.path(team)
    else:
        path = Path(team.removeprefix(prefix)).resolve()
    key = (prefix + str(path), path.stat().st_mtime_ns, deterministic)  # a rewritten file is loaded again
    base = _POLICIES.get(key)
    if base is None:
        if _ONE_THREAD:
            import torch

            torch.set_num_threads(1)
        base = _POLICIES[key] = make_agent(team, seed, deterministic)
    if deterministic:
        return base
    agent = type(base)(
        base.model, deterministic=False, observe_other_hands=base.observe_other_hands, seed=seed
    )
    agent._cache = base._cache  # encoders per pack: shared, they hold no per-game state
    return agent


def evaluation_game(
    team: str, cfg: dict[str, Any], seed: int, deterministic: bool = True, max_decisions: int | None = None
) -> tuple[GameState, tuple[str, ...], bool]:
    """Game ``seed`` of an evaluation of ``team`` (the deal and the agent's seed that ``play_games``
    gives it): (last state, Library dealt, truncated). ``python -m bbom_env.replay --team`` replays it."""
    config = GameConfig(**{**cfg, "seed": seed})
    agent = _agent(team, seed, deterministic)
    if max_decisions is None:
        return play_state(config, agent)
    return play_state(config, agent, max_decisions=max_decisions, truncate=True)


def game_file_name(team: str, seed: int) -> str:
    """The file ``--save-games`` writes game ``seed`` of ``team`` to: the team's name (a policy by
    its path, its separators as ``_``) and the seed."""
    slug = "".join(c if c.isalnum() or c in "-." else "_" for c in team).strip("_.") or "team"
    return f"{slug}_seed{seed}.json"


def _run_one(args: tuple) -> GameResult:
    """One game: ``(team, config dict, seed)`` plays to the end (raising past 100k decisions);
    ``(team, config dict, seed, options)`` reads ``deterministic``, ``max_decisions`` (truncate) and
    ``save_games`` (a folder: the game is written there as a game file, bbom_env.view.game_file)."""
    team, cfg, seed = args[:3]
    opts: dict[str, Any] = args[3] if len(args) > 3 else {}
    state, library, truncated = evaluation_game(
        team, cfg, seed, opts.get("deterministic", True), opts.get("max_decisions")
    )
    if opts.get("save_games"):
        from bbom_env.view.game_file import save_game

        title = f"{team}, seed {seed}" + (" (truncated)" if truncated else "")
        seats = [team] * len(state.players)
        save_game(Path(opts["save_games"]) / game_file_name(team, seed), state, seats, title)
    return _result(state.config, state, library, truncated)


def play_games(
    teams: list[str],
    games: int,
    base_seed: int = 0,
    workers: int = 1,
    progress: Callable[[Iterable], Iterable] | None = None,
    deterministic: bool = True,
    max_decisions: int | None = None,
    config: dict[str, Any] | None = None,
    save_games: str | Path | None = None,
) -> list[list[GameResult]]:
    """Per team (in order), its results on games ``base_seed .. base_seed + games - 1`` in seed
    order. All teams share one pool of "spawn" workers; ``max_decisions`` None keeps play_game's
    raising limit, an int truncates there. ``save_games``: a folder each game is written to as a
    game file (``game_file_name``; ``python -m bbom_env.replay FILE`` shows it)."""
    cfg = dict(config or {})
    for team in teams:
        check_team(team)
    GameConfig(**cfg)  # validate once, before spawning workers
    opts: dict[str, Any] = {"deterministic": deterministic, "max_decisions": max_decisions}
    if save_games is not None:
        Path(save_games).mkdir(parents=True, exist_ok=True)
        opts["save_games"] = str(save_games)
    jobs = [(team, cfg, base_seed + i, opts) for team in teams for i in range(games)]
    if workers > 1 and len(jobs) > 1:
        import multiprocessing as mp

        chunk = max(1, min(8, len(jobs) // (4 * workers)))
        with mp.get_context("spawn").Pool(workers, initializer=_init_worker) as pool:
            it: Iterable = pool.imap(_run_one, jobs, chunksize=chunk)
            flat = list(progress(it) if progress else it)
    else:
        it = map(_run_one, jobs)
        flat = list(progress(it) if progress else it)
    return [flat[k * games : (k + 1) * games] for k in range(len(teams))]


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
    truncated: int = 0  # games cut off at the decision limit

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
        truncated=sum(r.truncated for r in results),
    )


def evaluate(
    team: str,
    games: int,
    base_seed: int = 0,
    workers: int = 1,
    progress: Callable[[Iterable], Iterable] | None = None,
    *,
    deterministic: bool = True,
    max_decisions: int | None = None,
    **config: Any,
) -> Summary:
    """Play ``games`` seeded games with team ``"random"``, ``"heuristic"`` or a policy path;
    ``config`` holds GameConfig fields (num_players, difficulty, mode, payment, pack ...).
    ``max_decisions`` None: a game runs to its end (play_game raises past 100k decisions); an int
    truncates games there."""
    check_team(team)
    results = play_games([team], games, base_seed, workers, progress, deterministic, max_decisions, config)[0]
    return summarise_results(team, config, results)


# -- reports and command line: agents/evaluate_report.py -------------------------------------------

_REPORT_NAMES = frozenset(
    ("GAME_COLUMNS", "team_records", "format_text", "format_markdown", "format_spells", "write_outputs")
)


def __getattr__(name: str) -> Any:
    """The report names, importable from here as before (loaded on first use: evaluate_report
    imports this module, so it cannot be imported at the top)."""
    if name in _REPORT_NAMES:
        from . import evaluate_report

        return getattr(evaluate_report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """The command line (agents.evaluate_report.main): evaluate teams on the same seeded deals and
    write evaluation.csv, games.csv and evaluation.md to --out."""
    from .evaluate_report import main as _main

    return _main(argv)


if __name__ == "__main__":
    import sys

    from agents.evaluate import main as _main  # workers pickle agents.evaluate._run_one, not __main__'s

    sys.exit(_main())
