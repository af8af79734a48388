"""Learning curves of training runs: ``python -m agents.plot RUN_DIR [RUN_DIR ...] [--out FILE.png]``.

A run directory written by train.py holds ``metrics.csv``, one row per periodic evaluation of the live
model (columns ``timesteps``, ``eval_win_rate``, ``eval_win_lo`` / ``eval_win_hi`` (95% Wilson
interval), ``eval_curses``, ``eval_monsters``, ``train_ep_return`` ...; the ``train_*`` means may be
empty when no training episode ended since the previous row). Three panels against timesteps:

1. evaluation win rate with its 95% interval as a band: the figure that says whether the policy
   plays the game better; the band shows whether two points differ at all;
2. Curses destroyed and Monsters defeated in the evaluation games: progress shows there long before
   wins do (the random team destroys about 1 Curse per game, the heuristic team about 16);
3. training episode return: what PPO optimises (reward shaping included), to tell a policy that
   learns the reward but not the game from one that learns nothing.

Several run directories overlay as labelled lines (label: the directory name). Uses matplotlib's
Agg backend, so it works without a display.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

COLUMNS = (
    "timesteps,wall_s,eval_games,eval_win_rate,eval_win_lo,eval_win_hi,eval_monsters,eval_curses,"
    "eval_madness,eval_decisions,train_episodes,train_ep_return,train_ep_len,train_win_rate"
).split(",")
REQUIRED = ("timesteps", "eval_win_rate", "eval_win_lo", "eval_win_hi", "eval_monsters", "eval_curses")


class MetricsError(ValueError):
    """A run directory without a usable metrics.csv."""


def _num(text: str | None) -> float:
    """A float, or NaN for an empty cell (matplotlib leaves a gap there)."""
    if text is None or text.strip() == "":
        return math.nan
    return float(text)


def read_metrics(run_dir: str | Path) -> dict[str, list[float]]:
    """The columns of ``run_dir/metrics.csv`` as float lists (NaN where a cell is empty), rows sorted
    by timesteps. Raises MetricsError when the file is missing, empty, lacks a required column or
    holds a value that is not a number."""
    path = Path(run_dir) / "metrics.csv"
    if not path.is_file():
        raise MetricsError(f"{path}: no such file (a run directory written by train.py holds metrics.csv)")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise MetricsError(
                f"{path}: missing column(s) {missing}; expected the header {','.join(COLUMNS)}"
            )
        try:
            rows = [{k: _num(row.get(k)) for k in COLUMNS} for row in reader]
        except ValueError as e:
            raise MetricsError(f"{path}, line {reader.line_num}: {e}") from None
    if not rows:
        raise MetricsError(f"{path}: no evaluation rows yet (the run writes one per evaluation)")
    rows.sort(key=lambda r: r["timesteps"])
    return {k: [r[k] for r in rows] for k in COLUMNS}


def _labels(run_dirs: list[str | Path]) -> list[str]:
    """Directory names; the last two path parts where names repeat (runs/a/ppo vs runs/b/ppo)."""
    paths = [Path(d).resolve() for d in run_dirs]
    names = [p.name for p in paths]
    return [f"{p.parent.name}/{p.name}" if names.count(p.name) > 1 else p.name for p in paths]


def plot_runs(run_dirs: list[str | Path], out: str | Path) -> Path:
    """Draw the three panels for ``run_dirs`` (overlaid) into the PNG ``out``; returns its path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [(label, read_metrics(d)) for label, d in zip(_labels(run_dirs), run_dirs, strict=True)]
    fig, (ax_win, ax_prog, ax_ret) = plt.subplots(3, 1, figsize=(8, 10), sharex=True)
    for i, (label, m) in enumerate(runs):
        colour = f"C{i}"
        t = m["timesteps"]
        ax_win.plot(t, [100 * x for x in m["eval_win_rate"]], color=colour, marker=".", label=label)
        lo, hi = [100 * x for x in m["eval_win_lo"]], [100 * x for x in m["eval_win_hi"]]
        ax_win.fill_between(t, lo, hi, color=colour, alpha=0.2, linewidth=0)
        ax_prog.plot(t, m["eval_curses"], color=colour, marker=".", label=f"{label}: Curses destroyed")
        ax_prog.plot(t, m["eval_monsters"], color=colour, linestyle="--", label=f"{label}: Monsters defeated")
        ax_ret.plot(t, m["train_ep_return"], color=colour, marker=".", label=label)
    ax_win.set_ylabel("evaluation win rate (%)\n95% Wilson band")
    ax_win.set_ylim(-2, 102)
    ax_prog.set_ylabel("per evaluation game")
    ax_ret.set_ylabel("training episode return\n(mean of recent episodes)")
    ax_ret.set_xlabel("timesteps")
    for ax in (ax_win, ax_prog, ax_ret):
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="best")
    ax_win.set_title("Learning curves: " + ", ".join(label for label, _ in runs))
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    """Draw learning curves (evaluation win rate with its 95% band, Curses destroyed and Monsters
    defeated, training return) from the metrics.csv of one or more training run directories."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m agents.plot", description=main.__doc__)
    ap.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="directories holding metrics.csv")
    ap.add_argument("--out", help="PNG to write (default: RUN_DIR/learning_curves.png of the first)")
    a = ap.parse_args(argv)
    out = a.out or str(Path(a.run_dirs[0]) / "learning_curves.png")
    try:
        path = plot_runs(a.run_dirs, out)
    except (MetricsError, OSError) as e:
        print(f"{ap.prog}: error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
