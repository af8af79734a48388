"""Reports and command line of ``python -m agents.evaluate``: the terminal table, evaluation.csv,
games.csv, evaluation.md and the JSON line, from the games played by :mod:`agents.evaluate`.

The game-playing and summarising API stays in ``agents.evaluate``, which also re-exports this
module's public names and whose ``main`` delegates here; the CLI's workers still pickle
``agents.evaluate._run_one``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bbom_env import cli
from bbom_env.cli import int_range
from bbom_env.engine import GameConfig, new_game

from .evaluate import (
    DEFAULT_MAX_DECISIONS,
    GameResult,
    Summary,
    _agent,
    _init_worker,
    check_team,
    paired_difference,
    paired_mean_difference,
    play_games,
    summarise_results,
)

# -- reports ---------------------------------------------------------------------------------------

# (report column, GameResult / Summary attribute)
_PER_GAME: tuple[tuple[str, str], ...] = (("seed", "seed"), ("win", "win"), ("truncated", "truncated"))
_PER_GAME += (("monsters", "monsters_defeated"), ("curses", "curses_destroyed"))
_PER_GAME += (
    ("madness", "madness_received"),
    ("decisions", "decisions"),
    ("turns", "turns"),
    ("reason", "reason"),
)
_MEANS: tuple[tuple[str, str], ...] = (("monsters", "monsters_defeated"), ("curses", "curses_destroyed"))
_MEANS += (("madness", "madness_received"), ("decisions", "decisions"), ("turns", "turns"))
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
    mods = ",".join(cfg.get("modules", ())) or "none"
    names = GameConfig.switch_names()  # the rules switches the run sets (``--switch``)
    switches = "".join(f", {k}={v}" for k, v in cfg.items() if k in names)
    return (
        f"{cfg['num_players']} players, level {cfg['difficulty']}, mode {cfg['mode']}, payment "
        f"{cfg['payment']}, pack {cfg['pack']}, modules {mods}{switches}; {cfg['games']} games ({seeds}), "
        f"the same deals for every team; policies {'argmax' if cfg['deterministic'] else 'sampled'}; "
        f"games cut off after {cfg['max_decisions']} decisions count as not won (truncated)"
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


def _parser() -> Any:
    import argparse

    from bbom_env.cli import modules as modules_type
    from bbom_env.cli import pack as pack_type
    from bbom_env.engine.core.config import MODES, PAYMENTS

    ap = argparse.ArgumentParser(prog="python -m agents.evaluate", description=main.__doc__)
    ap.add_argument(
        "--policy",
        "--team",
        dest="policies",
        action="append",
        metavar="PATH|random|heuristic",
        help="a team: random, heuristic, a MaskablePPO .zip or rllib:DIR; repeat to compare (default: "
        "random and heuristic; differences are against the first)",
    )
    mine = "default: the policy's, else %s"
    ap.add_argument("--players", type=int_range(2, 5), help=mine % 2)
    ap.add_argument("--level", type=int_range(1, 3), help="difficulty 1-3 (" + mine % 1 + ")")
    ap.add_argument("--mode", choices=MODES, help=mine % "normal")
    ap.add_argument("--payment", choices=PAYMENTS, help=mine % "auto")
    ap.add_argument(
        "--pack", type=pack_type, help='"default", "test" or a pack TOML path (' + mine % "default" + ")"
    )
    ap.add_argument(
        "--modules",
        type=modules_type,
        metavar="NAME,...",
        help="rules modules: dark_matter, phobias or dark_matter,phobias; '' for none ("
        + mine % "none"
        + ")",
    )
    ap.add_argument(
        "--allow-other-settings",
        action="store_true",
        help="play a policy at other players, level, mode, payment or rules switches than it was trained on",
    )
    ap.add_argument("--games", type=int_range(1), default=200)
    ap.add_argument("--seed", type=int_range(0), default=0, help="game i uses seed SEED+i")
    ap.add_argument("--workers", type=int_range(1), default=1, help="processes (results do not depend on it)")
    ap.add_argument(
        "--max-decisions",
        type=int_range(1),
        default=DEFAULT_MAX_DECISIONS,
        help="cut a game off after this many decisions: not won, counted as truncated",
    )
    cli.add_switch_option(ap)
    ap.add_argument("--stochastic", action="store_true", help="policies sample moves instead of argmax")
    ap.add_argument("--out", help="write evaluation.csv, games.csv and evaluation.md to this directory")
    ap.add_argument("--json", action="store_true", help="stdout is one JSON line (the table goes to stderr)")
    ap.add_argument("--spells", action="store_true", help="per Library Spell: learned, cast, win rates")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument(
        "--save-games",
        metavar="DIR",
        help="write every game to DIR as a game file (TEAM_seedN.json) that python -m bbom_env.replay "
        "turns into a page to step through",
    )
    return ap


def _config(ap: Any, a: Any, teams: list[str]) -> dict[str, Any]:
    """The game's settings (the policies' own unless told otherwise), checked: a bad pack, a
    policy file that does not load or does not fit the game is an argparse error."""
    from .trained_settings import SettingsError, game_settings

    for team in teams:
        try:
            check_team(team)
        except ValueError as e:
            ap.error(str(e))
    asked = dict(num_players=a.players, difficulty=a.level, mode=a.mode, payment=a.payment, pack=a.pack)
    asked["modules"] = a.modules
    asked["switches"] = dict(a.switches or ())
    try:
        config, _source = game_settings(teams, asked, a.allow_other_settings)
    except SettingsError as e:
        ap.error(str(e))
    try:
        new_game(GameConfig(**config, seed=a.seed))  # a bad pack fails here, not in a worker
    except (ValueError, OSError) as e:
        ap.error(str(e))
    for team in teams:
        try:  # a corrupt or foreign zip raises anything: report it, no traceback
            agent = _agent(team, a.seed, not a.stochastic)  # loads (and caches) a policy once, here
            if hasattr(agent, "_views"):
                agent._views(GameConfig(**config))  # observation size vs the pack: a clear error
        except Exception as e:
            ap.error(f"policy {team!r}: {e}")
    return config


def main(argv: list[str] | None = None) -> int:
    """Evaluate teams on the same seeded deals: win rate (95% Wilson interval), Monsters defeated,
    Curses destroyed, Madness received, game length, truncations, and paired differences against
    the first team. A trained policy is played in the game of its run's config.yaml (players,
    level, mode, payment, pack, modules) unless told otherwise; --out DIR also writes
    evaluation.csv, games.csv and evaluation.md there."""
    import json
    import sys
    import time

    ap = _parser()
    a = ap.parse_args(argv)
    teams = a.policies or ["random", "heuristic"]
    _init_worker()  # one torch thread here too
    config = _config(ap, a, teams)
    deterministic = not a.stochastic

    progress = None
    if not a.quiet and sys.stderr.isatty():
        try:
            from tqdm import tqdm  # type: ignore[import-untyped]

            progress = lambda it: tqdm(it, total=len(teams) * a.games, desc="games", leave=False)  # noqa: E731
        except ImportError:
            pass
    t0 = time.perf_counter()
    results = play_games(
        teams, a.games, a.seed, a.workers, progress, deterministic, a.max_decisions, config, a.save_games
    )
    wall = time.perf_counter() - t0
    summaries = [summarise_results(t, config, res) for t, res in zip(teams, results, strict=True)]
    records = team_records(summaries, results)
    cfg = {**config, "modules": list(config.get("modules", ())), "games": a.games, "seed": a.seed}
    cfg.update(deterministic=deterministic, max_decisions=a.max_decisions)

    human = sys.stderr if a.json else sys.stdout  # with --json, stdout is the JSON line alone
    print(_describe(cfg), file=human)
    print(format_text(records), file=human)
    if a.spells:
        for s in summaries:
            print(format_spells(s), file=human)
    out = Path(a.out) if a.out else None
    if out is not None:
        write_outputs(out, records, results, cfg)
        written = f"{out / 'evaluation.csv'}, {out / 'games.csv'}, {out / 'evaluation.md'}"
        print(f"wrote {written} ({wall:.1f} s)", file=human)
    else:
        print(f"({wall:.1f} s; --out DIR writes the CSV and markdown reports)", file=human)
    if a.save_games:
        n = len(teams) * a.games
        print(f"saved {n} games to {a.save_games} (python -m bbom_env.replay FILE -o game.html)", file=human)
    if a.json:
        print(
            json.dumps(
                {"config": cfg, "teams": records, "wall_s": round(wall, 3), "out": str(out) if out else None}
            )
        )
    return 0
