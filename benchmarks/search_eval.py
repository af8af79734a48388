"""Paired evaluation of a search team against the heuristic team, run in chunks and pooled.

A search team costs seconds a decision, so an evaluation of many deals is run as chunks of
``agents.evaluate`` (each its own ``--out`` folder, a stopped run loses one chunk at most), and this
script pools their ``games.csv`` files by deal (seed):

    python benchmarks/search_eval.py run --team search:worlds=2 --games 40 --chunk 4 --out runs/search_eval/w2
    python benchmarks/search_eval.py pool runs/search_eval/w2_s*  # or the folders `run` wrote
    python benchmarks/search_eval.py curve runs/search_eval/w1 runs/search_eval/w2 ... --png curve.png

``run`` plays chunks ``--seed``, ``--seed + chunk``, ... (the heuristic team and the search team on
the same deals, one process, one core) and skips the chunks already written; each chunk's CPU
seconds go to ``cpu.txt``. ``pool`` prints, per team, deals and wins, then the paired difference of
the search team against the first team (Agresti-Min 95% interval, ``agents.evaluate``) with the
deals won by one team only; with ``--json`` one JSON line last. ``curve`` pools several ``run``
folders (one search setting each) into one table, a row a setting: the budget (rollouts a candidate),
deals, wins of the search and of the heuristic on the same deals, the paired difference, and the CPU
seconds a deal (both teams; the heuristic's part is about 0.1 s); ``--png`` draws the win rate
against the budget with matplotlib.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evaluate import discordant, paired_difference  # noqa: E402
from bbom_env import cli  # noqa: E402


def pool(folders: list[Path]) -> dict:
    """Per team, its games by seed, from every folder's games.csv; then the paired figures."""
    teams: dict[str, dict[int, dict]] = {}
    order: list[str] = []
    for folder in folders:
        path = folder / "games.csv"
        if not path.is_file():
            raise SystemExit(f"{path}: no games.csv (a chunk still running, or not an evaluate --out folder)")
        with path.open(newline="") as f:
            for row in csv.DictReader(f):
                team = row["team"]
                if team not in teams:
                    teams[team] = {}
                    order.append(team)
                teams[team][int(row["seed"])] = row
    seeds = sorted(set.intersection(*(set(g) for g in teams.values())))
    out: dict = {"deals": len(seeds), "seeds": [seeds[0], seeds[-1]] if seeds else [], "teams": []}
    first = [teams[order[0]][s]["win"] == "1" for s in seeds]
    for team in order:
        wins = [teams[team][s]["win"] == "1" for s in seeds]
        rec: dict = {"team": team, "wins": sum(wins), "decisions": _mean(teams[team], seeds, "decisions")}
        rec["curses"] = _mean(teams[team], seeds, "curses")
        rec["monsters"] = _mean(teams[team], seeds, "monsters")
        if team != order[0]:
            diff, lo, hi = paired_difference(wins, first)
            only, only_first = discordant(wins, first)
            rec.update(diff=diff, lo=lo, hi=hi, only_this=only, only_first=only_first)
        out["teams"].append(rec)
    return out


def _mean(games: dict[int, dict], seeds: list[int], key: str) -> float:
    return sum(float(games[s][key]) for s in seeds) / max(1, len(seeds))


def run(
    team: str, games: int, chunk: int, seed: int, out: Path, players: int, level: int, modules: str = ""
) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    folders = []
    for s in range(seed, seed + games, chunk):
        folder = out / f"s{s}"
        folders.append(folder)
        if (folder / "games.csv").is_file():
            continue
        n = min(chunk, seed + games - s)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "agents.evaluate", "--policy", "heuristic", "--policy", team,
             "--players", str(players), "--level", str(level), "--games", str(n), "--seed", str(s),
             "--modules", modules, "--workers", "1", "--quiet", "--out", str(folder)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with (out / "cpu.txt").open("a") as f:
            f.write(f"s{s} games {n} cpu_s {after.ru_utime - before.ru_utime:.1f}\n")
    return folders


def curve(runs: list[Path]) -> list[dict]:
    """One record a ``run`` folder: its search setting, the pooled figures, CPU seconds a deal."""
    from agents.search import parse_search_spec

    rows = []
    for run_dir in runs:
        chunks = sorted(p for p in run_dir.glob("s*") if (p / "games.csv").is_file())
        if not chunks:
            raise SystemExit(f"{run_dir}: no finished chunk (s*/games.csv)")
        res = pool(chunks)
        heur, team = res["teams"][0], res["teams"][-1]
        cfg = parse_search_spec(team["team"])
        cpu = run_dir / "cpu.txt"
        spent = [line.split() for line in cpu.read_text().splitlines()] if cpu.is_file() else []
        games = sum(int(w[2]) for w in spent)
        rows.append(
            {
                "team": team["team"], "worlds": cfg.worlds, "select": cfg.select, "margin": cfg.margin,
                "deals": res["deals"], "seeds": res["seeds"], "wins": team["wins"], "heuristic": heur["wins"],
                "diff": team["diff"], "lo": team["lo"], "hi": team["hi"],
                "cpu_s_per_deal": sum(float(w[4]) for w in spent) / games if games else None,
            }
        )  # fmt: skip
    return rows


def plot_curve(rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from agents.evaluate import wilson

    fig, ax = plt.subplots(figsize=(6, 4))
    for label in sorted({(r["select"], r["margin"]) for r in rows}):
        pts = sorted((r for r in rows if (r["select"], r["margin"]) == label), key=lambda r: r["worlds"])
        x = [r["worlds"] for r in pts]
        y = [100 * r["wins"] / r["deals"] for r in pts]
        ci = [wilson(r["wins"], r["deals"]) for r in pts]
        err = [
            [yy - 100 * lo for yy, (lo, _) in zip(y, ci, strict=True)],
            [100 * hi - yy for yy, (_, hi) in zip(y, ci, strict=True)],
        ]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"search, {label[0]}, margin {label[1]:g}")
    heur = [100 * r["heuristic"] / r["deals"] for r in rows]
    ax.axhline(sum(heur) / len(heur), color="grey", ls="--", label="heuristic (same deals, mean)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("budget: rollouts a candidate move (worlds)")
    ax.set_ylabel("wins (%)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play the chunks not yet written, then pool them")
    r.add_argument("--team", default="search:worlds=2")
    r.add_argument("--games", type=cli.int_range(1), default=40)
    r.add_argument("--chunk", type=cli.int_range(1), default=4)
    r.add_argument("--seed", type=cli.int_range(0), default=0)
    r.add_argument("--players", type=cli.int_range(2, 5), default=2)
    r.add_argument("--level", type=cli.int_range(1, 3), default=1)
    r.add_argument("--modules", default="", help="dark_matter, phobias or dark_matter,phobias ('' none)")
    r.add_argument("--out", type=Path, default=Path("runs/search_eval/run"))
    r.add_argument("--json", action="store_true")
    p = sub.add_parser("pool", help="pool the games.csv of evaluate --out folders")
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--json", action="store_true")
    c = sub.add_parser("curve", help="one row a run folder (a search setting): the budget curve")
    c.add_argument("runs", nargs="+", type=Path)
    c.add_argument("--png", type=Path, help="also draw the win rate against the budget")
    c.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.cmd == "curve":
        rows = curve(a.runs)
        print("| search | budget | deals | wins | heuristic | paired difference | CPU s a deal |")
        print("|---|---:|---:|---:|---:|---|---:|")
        for row in rows:
            cpu = "" if row["cpu_s_per_deal"] is None else f"{row['cpu_s_per_deal']:.0f}"
            print(
                f"| `{row['team']}` | {row['worlds']} | {row['deals']} | {row['wins']} "
                f"| {row['heuristic']} | "
                f"{100 * row['diff']:+.1f} [{100 * row['lo']:+.1f}, {100 * row['hi']:+.1f}] | {cpu} |"
            )
        if a.png:
            plot_curve(rows, a.png)
            print(f"wrote {a.png}", file=sys.stderr)
        if a.json:
            print(json.dumps(rows))
        return 0
    if a.cmd == "run":
        folders = run(a.team, a.games, a.chunk, a.seed, a.out, a.players, a.level, a.modules)
    else:
        folders = a.folders
    res = pool(folders)
    print(f"{res['deals']} deals (seeds {res['seeds']})")
    for t in res["teams"]:
        line = f"  {t['team']}: {t['wins']} wins, {t['curses']:.1f} Curses, {t['monsters']:.2f} Monsters"
        if "diff" in t:
            line += (
                f"; paired vs {res['teams'][0]['team']}: {100 * t['diff']:+.1f} points "
                f"[{100 * t['lo']:+.1f}, {100 * t['hi']:+.1f}], won only by it {t['only_this']}, "
                f"only by {res['teams'][0]['team']} {t['only_first']}"
            )
        print(line)
    if a.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
