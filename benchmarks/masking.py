"""The action-masking benchmark (method and results: docs/masking.md).

    python benchmarks/masking.py [--budget N] [--seeds K] [--arms A ...] [--out DIR] [--smoke] [--jobs J]
    python benchmarks/masking.py --report DIR      # only regenerate the doc and figures of a run

Trains every arm (agents/masking_policies.py: masked, naive, penalty0 .. penalty1, aux) on every
seed from scratch, ``--jobs`` runs at a time in worker processes, and writes to ``--out``:
``parts/ARM_sSEED_bBUDGET.csv`` (one finished run each: a rerun with the same --out skips them),
``curves.csv`` (all rows), ``mask_cost.json`` (the per-step cost of the mask), ``masking.png`` and
``summary.json``; then the figures part of the doc (``--doc``; docs/masking.md, or DIR/masking.md
with --smoke).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.masking_policies import TRAIN_ARMS  # noqa: E402
from agents.masking_run import ROW_FIELDS, run_arm  # noqa: E402

# Shared by every arm: configs/default.yaml's ppo section, except the learning rate (3e-4, the
# from-scratch rate of docs/training.md's Early measurements; 5e-5 is the rate for fine-tuning a
# clone) and target_kl (off: every arm makes the same number of updates, and its KL is measured,
# not capped).
HYPER = {
    "n_envs": 8, "n_steps": 256, "batch_size": 512, "n_epochs": 4, "learning_rate": 3e-4,
    "gamma": 0.999, "gae_lambda": 0.95, "clip_range": 0.1, "ent_coef": 0.0, "vf_coef": 0.5,
    "max_grad_norm": 0.5, "target_kl": None, "net_arch": [256, 256],
}  # fmt: skip
DEFAULT_BUDGET = 100_000  # env steps per run; sized from the --smoke steps/s, see docs/masking.md
DEFAULT_SEEDS = 5
SMOKE = {"budget": 4096, "seeds": 2, "eval_games": 2, "evals": 1}


def _job(arm: str, seed: int, budget: int, eval_games: int, evals: int, part: str) -> tuple[str, int, float]:
    t0 = time.perf_counter()
    rows = run_arm(arm, seed, budget, HYPER, eval_games, evals)
    write_csv(Path(part), rows)
    return arm, seed, time.perf_counter() - t0


def write_csv(path: Path, rows: list[dict]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=ROW_FIELDS)
        w.writeheader()
        w.writerows({k: r.get(k) for k in ROW_FIELDS} for r in rows)
    os.replace(tmp, path)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=None, help=f"env steps per run (default {DEFAULT_BUDGET})")
    ap.add_argument("--seeds", type=int, default=None, help=f"seeds 0..K-1 per arm (default {DEFAULT_SEEDS})")
    ap.add_argument("--arms", nargs="+", default=list(TRAIN_ARMS), metavar="ARM", help=f"of {TRAIN_ARMS}")
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "masking", help="output directory")
    ap.add_argument("--smoke", action="store_true", help="every arm for a few thousand steps (the test)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time, one process each (default 2)")
    ap.add_argument("--eval-games", type=int, default=None, help="games per evaluation (default 16)")
    ap.add_argument("--evals", type=int, default=None, help="evaluations per run (default 4)")
    ap.add_argument("--doc", type=Path, default=None, help="doc whose figures part is regenerated")
    ap.add_argument("--report", type=Path, default=None, metavar="DIR", help="only regenerate from DIR")
    a = ap.parse_args(argv)
    bad = [x for x in a.arms if x not in TRAIN_ARMS]
    if bad:
        ap.error(f"--arms: unknown arm(s) {bad}; arms: {' '.join(TRAIN_ARMS)}")
    for name in ("budget", "seeds", "jobs", "eval_games", "evals"):
        v = getattr(a, name)
        if v is not None and v < 1:
            ap.error(f"--{name.replace('_', '-')}={v}: must be a positive integer")
    s = SMOKE if a.smoke else {}
    a.budget = a.budget or s.get("budget", DEFAULT_BUDGET)
    a.seeds = a.seeds or s.get("seeds", DEFAULT_SEEDS)
    a.eval_games = a.eval_games or s.get("eval_games", 16)
    a.evals = a.evals or s.get("evals", 4)
    if a.doc is None:
        a.doc = (a.report or a.out) / "masking.md" if a.smoke else ROOT / "docs" / "masking.md"
    return a


def run(a: argparse.Namespace) -> Path:
    from agents.masking_report import mask_cost

    out: Path = a.out
    (out / "parts").mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps({**vars(a), "out": str(out), "doc": str(a.doc),
                                               "report": None, "hyper": HYPER}, indent=1))  # fmt: skip
    if not (out / "mask_cost.json").is_file():
        cost = mask_cost(games=3 if a.smoke else 20)
        (out / "mask_cost.json").write_text(json.dumps(cost, indent=1))
        print(f"mask cost: {cost}", flush=True)
    jobs = []
    for seed in range(a.seeds):  # seed-major: a run cut short still has every arm on its first seeds
        for arm in a.arms:
            part = out / "parts" / f"{arm}_s{seed}_b{a.budget}.csv"
            if part.is_file():
                print(f"skip {part.name} (done)", flush=True)
            else:
                jobs.append((arm, seed, a.budget, a.eval_games, a.evals, str(part)))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(_job, *j) for j in jobs]
        for i, fut in enumerate(as_completed(futures), 1):
            arm, seed, dt = fut.result()
            rate = a.budget / dt
            print(f"[{time.perf_counter() - t0:7.0f} s] {i}/{len(jobs)} {arm} seed {seed}: {dt:.0f} s "
                  f"({rate:.0f} steps/s with its evaluations)", flush=True)  # fmt: skip
    return merge(out, a.budget)


def merge(out: Path, budget: int | None = None) -> Path:
    parts = sorted((out / "parts").glob("*.csv"))
    if budget is not None:
        parts = [p for p in parts if p.stem.endswith(f"_b{budget}")]
    rows = []
    for p in parts:
        with p.open(newline="", encoding="utf-8") as f:
            rows.extend(csv.DictReader(f))
    write_csv(out / "curves.csv", rows)
    return out / "curves.csv"


def main(argv: list[str] | None = None) -> int:
    from agents.masking_report import report

    a = parse_args(argv)
    if a.report is not None:
        if not (a.report / "parts").is_dir() and not (a.report / "curves.csv").is_file():
            print(f"--report {a.report}: no run there (no curves.csv or parts/)", file=sys.stderr)
            return 2
        if (a.report / "parts").is_dir():
            args = a.report / "args.json"  # the parts of the run's own budget (a dir may hold others)
            merge(a.report, json.loads(args.read_text())["budget"] if args.is_file() else None)
        report(a.report, a.doc)
        print(f"wrote {a.doc}, {a.report / 'masking.png'}, {a.report / 'summary.json'}")
        return 0
    csv_path = run(a)
    report(a.out, a.doc)
    print(f"wrote {csv_path}, {a.doc}, {a.out / 'masking.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
