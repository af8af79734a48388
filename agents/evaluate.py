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

    python -m agents.evaluate --policy runs/ppo/best_model.zip --policy heuristic --games 500

prints a table, writes ``evaluation.csv``, ``games.csv`` and ``evaluation.md`` to ``--out`` (default
``runs/eval``) and, with ``--json``, one JSON line last on stdout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bbom_env.engine import GameConfig, GameState, new_game

from . import SCRIPTED, make_agent

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


def paired_difference(a: list[bool], b: list[bool], z: float = 1.96) -> tuple[float, float, float]:
    """Win rate of ``a`` minus win rate of ``b`` on the same deals, with the Agresti-Min adjusted
    Wald 95% interval (add 1/2 to each cell of the 2x2 table of outcomes; unlike plain Wald it does
    not collapse to a point when few pairs disagree). Same formula as benchmarks/balance.py."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    n = len(a)
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
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


def play_game(
    config: GameConfig, agent: Any, max_decisions: int = 100_000, truncate: bool = False
) -> GameResult:
    """Play one game with ``agent.act`` deciding for every seat. Past ``max_decisions`` decisions
    it raises RuntimeError, or with ``truncate`` stops there (like the env's ``max_steps``: a game
    not over after ``max_decisions`` decisions) and returns a result marked truncated, not won."""
    state = new_game(config)
    library = tuple(sorted(sid for pile in state.library for sid in pile))
    decisions = 0
    while not state.is_terminal():
        state.apply_action(agent.act(state))
        decisions += 1
        if truncate and decisions >= max_decisions and not state.is_terminal():
            return summarise(state, config.seed, library, decisions, truncated=True)
        if decisions > max_decisions:
            raise RuntimeError(f"game with seed {config.seed} exceeded {max_decisions} decisions")
    return summarise(state, config.seed, library, decisions)


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
        monsters_defeated=state.stats.get("monsters_defeated", 0) + int(win),
        madness_received=state.stats.get("madness_received", 0),
        curses_destroyed=state.stats.get("curses_destroyed", 0),
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
    """Raise ValueError unless ``team`` is a scripted team name or an existing policy file."""
    if team not in AGENTS and not Path(team).is_file():
        raise ValueError(
            f"unknown team {team!r}: not one of {sorted(AGENTS)} and no policy file at that path "
            "(a MaskablePPO .zip saved by train.py)"
        )


def _agent(team: str, seed: int, deterministic: bool = True) -> Any:
    """The agent of game ``seed``. A policy is loaded once per process (loading takes about a
    second); an argmax policy ignores its seed, a sampling one gets a fresh generator per game."""
    if team in AGENTS:
        return AGENTS[team](seed)
    path = Path(team).resolve()
    key = (str(path), path.stat().st_mtime_ns, deterministic)  # a rewritten file is loaded again
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


def _run_one(args: tuple) -> GameResult:
    """One game: ``(team, config dict, seed)`` plays to the end (raising past 100k decisions);
    ``(team, config dict, seed, options)`` reads ``deterministic`` and ``max_decisions`` (truncate)."""
    team, cfg, seed = args[:3]
    opts: dict[str, Any] = args[3] if len(args) > 3 else {}
    config = GameConfig(**{**cfg, "seed": seed})
    agent = _agent(team, seed, opts.get("deterministic", True))
    limit = opts.get("max_decisions")
    if limit is None:
        return play_game(config, agent)
    return play_game(config, agent, max_decisions=limit, truncate=True)


def play_games(
    teams: list[str],
    games: int,
    base_seed: int = 0,
    workers: int = 1,
    progress: Callable[[Iterable], Iterable] | None = None,
    deterministic: bool = True,
    max_decisions: int | None = None,
    config: dict[str, Any] | None = None,
) -> list[list[GameResult]]:
    """Per team (in order), its results on games ``base_seed .. base_seed + games - 1`` in seed
    order. All teams share one pool of "spawn" workers; ``max_decisions`` None keeps play_game's
    raising limit, an int truncates there."""
    cfg = dict(config or {})
    for team in teams:
        check_team(team)
    GameConfig(**cfg)  # validate once, before spawning workers
    opts = {"deterministic": deterministic, "max_decisions": max_decisions}
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


# -- reports ---------------------------------------------------------------------------------------

# (report column, GameResult / Summary attribute)
_PER_GAME = (("seed", "seed"), ("win", "win"), ("truncated", "truncated"), ("monsters", "monsters_defeated"))
_PER_GAME += (("curses", "curses_destroyed"), ("madness", "madness_received"), ("decisions", "decisions"))
_PER_GAME += (("turns", "turns"), ("reason", "reason"))
_MEANS = (("monsters", "monsters_defeated"), ("curses", "curses_destroyed"), ("madness", "madness_received"))
_MEANS += (("decisions", "decisions"), ("turns", "turns"))
GAME_COLUMNS = ("team", *(col for col, _ in _PER_GAME))


def team_records(summaries: list[Summary], results: list[list[GameResult]]) -> list[dict[str, Any]]:
    """One flat record per team (the CSV rows and the JSON ``teams``); from the second team on, the
    paired differences against the first team on the same deals (None for the first)."""
    first = results[0]
    records = []
    for k, (s, res) in enumerate(zip(summaries, results, strict=True)):
        rec: dict[str, Any] = {"team": s.team, "games": s.games, "wins": s.wins, "win_rate": s.win_rate}
        rec.update(win_lo=s.win_ci[0], win_hi=s.win_ci[1])
        rec.update((key, getattr(s, attr)) for key, attr in _MEANS)
        rec["truncated"] = s.truncated
        diff: tuple[Any, ...] = (None,) * 7
        if k > 0:
            win = paired_difference([r.win for r in res], [r.win for r in first])
            cur = paired_mean_difference(
                [r.curses_destroyed for r in res], [r.curses_destroyed for r in first]
            )
            diff = (summaries[0].team, *win, *cur)
        keys = "vs win_diff win_diff_lo win_diff_hi curses_diff curses_diff_lo curses_diff_hi".split()
        rec.update(zip(keys, diff, strict=True))
        records.append(rec)
    return records


def _describe(cfg: dict[str, Any]) -> str:
    seeds = f"seeds {cfg['seed']}..{cfg['seed'] + cfg['games'] - 1}"
    return (
        f"{cfg['num_players']} players, level {cfg['difficulty']}, mode {cfg['mode']}, payment "
        f"{cfg['payment']}, pack {cfg['pack']}; {cfg['games']} games ({seeds}), the same deals for every "
        f"team; policies {'argmax' if cfg['deterministic'] else 'sampled'}; games cut off after "
        f"{cfg['max_decisions']} decisions count as not won (truncated)"
    )


_HEAD = "team|games|win rate [95% CI]|monsters|curses|madness|decisions|turns|truncated".split("|")


def _cells(rec: dict[str, Any]) -> list[str]:
    return [
        rec["team"],
        str(rec["games"]),
        f"{100 * rec['win_rate']:.1f}% [{100 * rec['win_lo']:.1f}, {100 * rec['win_hi']:.1f}]",
        f"{rec['monsters']:.2f}",
        f"{rec['curses']:.2f}",
        f"{rec['madness']:.2f}",
        f"{rec['decisions']:.1f}",
        f"{rec['turns']:.1f}",
        str(rec["truncated"]),
    ]


def _diff_line(rec: dict[str, Any]) -> tuple[str, str]:
    return (
        f"{100 * rec['win_diff']:+.1f} pp [{100 * rec['win_diff_lo']:+.1f}, {100 * rec['win_diff_hi']:+.1f}]",
        f"{rec['curses_diff']:+.2f} [{rec['curses_diff_lo']:+.2f}, {rec['curses_diff_hi']:+.2f}]",
    )


def format_text(records: list[dict[str, Any]]) -> str:
    """The terminal table, then the paired differences against the first team."""
    rows = [list(_HEAD)] + [_cells(r) for r in records]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEAD))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    if len(records) > 1:
        lines.append(
            f"paired vs {records[0]['team']} (same deals): win rate (Agresti-Min 95%), curses (normal 95%)"
        )
        name_w = max(len(r["team"]) for r in records[1:])
        for r in records[1:]:
            win, cur = _diff_line(r)
            lines.append(f"  {r['team'].ljust(name_w)}  win {win}  curses {cur}")
    return "\n".join(lines)


def format_markdown(records: list[dict[str, Any]], cfg: dict[str, Any]) -> str:
    """evaluation.md: the configuration, the table and the paired differences."""
    out = ["# Evaluation", "", _describe(cfg) + ".", ""]
    out.append("| " + " | ".join(_HEAD) + " |")
    out.append("|" + "|".join(["---"] + ["---:"] * (len(_HEAD) - 1)) + "|")
    out += ["| " + " | ".join(_cells(r)) + " |" for r in records]
    if len(records) > 1:
        out += [
            "",
            f"Paired differences against **{records[0]['team']}** on the same deals (win rate: "
            "Agresti-Min 95% interval; Curses destroyed per game: normal 95% interval).",
            "",
        ]
        out += ["| team | win rate difference | Curses destroyed difference |", "|---|---:|---:|"]
        out += ["| " + " | ".join((r["team"], *_diff_line(r))) + " |" for r in records[1:]]
    return "\n".join(out) + "\n"


def format_spells(s: Summary) -> str:
    """Per Library Spell: games learned (win rate then), games dealt but not learned (win rate then),
    games learned and cast at least once, activations."""
    lines = [f"{s.team}: spell  learned (win%)  not learned (win%)  learned+cast  activations"]
    for sid, (n_l, w_l, n_n, w_n) in sorted(s.spells.items(), key=lambda kv: -kv[1][0]):
        _, cast, acts = s.casts.get(sid, (0, 0, 0))
        pl = f"{100 * w_l / n_l:5.1f}" if n_l else "    -"
        pn = f"{100 * w_n / n_n:5.1f}" if n_n else "    -"
        lines.append(f"  {sid:32s} {n_l:5d} ({pl})  {n_n:5d} ({pn})  {cast:5d}  {acts:6d}")
    return "\n".join(lines)


def write_outputs(
    out: Path, records: list[dict[str, Any]], results: list[list[GameResult]], cfg: dict
) -> None:
    """evaluation.csv (a row per team, with the configuration), games.csv (a row per game and
    team) and evaluation.md under ``out``."""
    import csv

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "evaluation.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(dict.fromkeys([*records[0], *cfg])))
        w.writeheader()
        w.writerows({k: "" if v is None else v for k, v in {**r, **cfg}.items()} for r in records)
    with open(out / "games.csv", "w", newline="", encoding="utf-8") as f:
        w2 = csv.writer(f)
        w2.writerow(GAME_COLUMNS)
        for rec, res in zip(records, results, strict=True):
            for r in res:
                values = (getattr(r, attr) for _, attr in _PER_GAME)
                w2.writerow([rec["team"], *(int(v) if isinstance(v, bool) else v for v in values)])
    (out / "evaluation.md").write_text(format_markdown(records, cfg), encoding="utf-8")


# -- command line ----------------------------------------------------------------------------------


def _int_in(lo: int, hi: int | None = None) -> Callable[[str], int]:
    import argparse

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < lo or (hi is not None and v > hi):
            want = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"{v} is out of range (an integer {want})")
        return v

    return parse


def main(argv: list[str] | None = None) -> int:
    """Evaluate teams on the same seeded deals: win rate (95% Wilson interval), Monsters defeated,
    Curses destroyed, Madness received, game length, truncations, and paired differences against
    the first team. Writes evaluation.csv, games.csv and evaluation.md to --out."""
    import argparse
    import json
    import sys
    import time

    from bbom_env.engine.config import MODES, PAYMENTS

    ap = argparse.ArgumentParser(prog="python -m agents.evaluate", description=main.__doc__)
    ap.add_argument(
        "--policy",
        "--team",
        dest="policies",
        action="append",
        metavar="PATH|random|heuristic",
        help="a team: random, heuristic or a MaskablePPO .zip; repeat to compare (default: "
        "random and heuristic; differences are against the first)",
    )
    ap.add_argument("--players", type=_int_in(2, 5), default=2)
    ap.add_argument("--level", type=_int_in(1, 3), default=1, help="difficulty 1-3")
    ap.add_argument("--mode", choices=MODES, default="normal")
    ap.add_argument("--payment", choices=PAYMENTS, default="auto")
    ap.add_argument("--pack", default="default", help='"default", "test" or a pack TOML path')
    ap.add_argument("--games", type=_int_in(1), default=200)
    ap.add_argument("--seed", type=_int_in(0), default=0, help="game i uses seed SEED+i")
    ap.add_argument("--workers", type=_int_in(1), default=1, help="processes (results do not depend on it)")
    ap.add_argument(
        "--max-decisions",
        type=_int_in(1),
        default=DEFAULT_MAX_DECISIONS,
        help="cut a game off after this many decisions: not won, counted as truncated",
    )
    ap.add_argument("--stochastic", action="store_true", help="policies sample moves instead of argmax")
    ap.add_argument("--out", default="runs/eval", help="directory for the CSV and markdown reports")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON line, last")
    ap.add_argument("--spells", action="store_true", help="per Library Spell: learned, cast, win rates")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    a = ap.parse_args(argv)

    teams = a.policies or ["random", "heuristic"]
    _init_worker()  # one torch thread here too
    config = dict(num_players=a.players, difficulty=a.level, mode=a.mode, payment=a.payment, pack=a.pack)
    deterministic = not a.stochastic
    try:
        new_game(GameConfig(**config, seed=a.seed))  # a bad pack fails here, not in a worker
    except (ValueError, OSError) as e:
        ap.error(str(e))
    for team in teams:
        try:
            check_team(team)
        except ValueError as e:
            ap.error(str(e))
        try:  # a corrupt or foreign zip raises anything: report it, no traceback
            agent = _agent(team, a.seed, deterministic)  # loads (and caches) a policy once, here
            if hasattr(agent, "_views"):
                agent._views(GameConfig(**config))  # observation size vs the pack: a clear error
        except Exception as e:
            ap.error(f"policy {team!r}: {e}")

    progress = None
    if not a.quiet and sys.stderr.isatty():
        try:
            from tqdm import tqdm

            progress = lambda it: tqdm(it, total=len(teams) * a.games, desc="games", leave=False)  # noqa: E731
        except ImportError:
            pass
    t0 = time.perf_counter()
    results = play_games(teams, a.games, a.seed, a.workers, progress, deterministic, a.max_decisions, config)
    wall = time.perf_counter() - t0
    summaries = [summarise_results(t, config, res) for t, res in zip(teams, results, strict=True)]
    records = team_records(summaries, results)
    cfg = {**config, "games": a.games, "seed": a.seed, "deterministic": deterministic}
    cfg["max_decisions"] = a.max_decisions

    print(_describe(cfg))
    print(format_text(records))
    if a.spells:
        for s in summaries:
            print(format_spells(s))
    out = Path(a.out)
    write_outputs(out, records, results, cfg)
    print(f"wrote {out / 'evaluation.csv'}, {out / 'games.csv'}, {out / 'evaluation.md'} ({wall:.1f} s)")
    if a.json:
        print(json.dumps({"config": cfg, "teams": records, "wall_s": round(wall, 3), "out": str(out)}))
    return 0


if __name__ == "__main__":
    import sys

    from agents.evaluate import main as _main  # workers pickle agents.evaluate._run_one, not __main__'s

    sys.exit(_main())
