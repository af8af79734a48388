"""Run throughput benchmarks of two commits side by side, in one run, and print the ratios.

    python benchmarks/compare_commits.py BASE [--head REF] [--bench engine_throughput env_throughput]
                                        [--rounds R] [--seconds S] [--pack PACK]

A refactor must keep engine and env throughput within 10% of the commit before it, and
two runs minutes apart on a shared machine differ by more than that. So both commits are measured
in the same run, alternating (base, head, base, head, ...) for R rounds, and the median of each
figure is compared. Each commit runs from its own git worktree (created under a temporary folder
and removed at the end) with a copy of the benchmark script, whose first act is to put its own tree
first on ``sys.path``; every run is a fresh process. The script is the working tree's for every
commit (the same measuring code), unless ``--own-scripts``. ``--head`` defaults to the working
tree as it is (uncommitted edits included). ``--pack`` is passed to every run (a path pins the same
card content for both; by default each benchmark's own default pack of each commit is used).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Figures worth comparing per benchmark (keys of their --json line); higher is better unless listed
# in LOWER_IS_BETTER.
LOWER_IS_BETTER = ("mask_us", "obs_us")


def _worktree(ref: str, where: Path) -> Path:
    path = where / ref.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(path), ref],
        check=True,
        capture_output=True,
    )
    return path


def _run(tree: Path, bench: str, seconds: float, pack: str | None) -> dict[str, float]:
    cmd = [sys.executable, str(tree / "benchmarks" / f"{bench}.py"), "--json", "--seconds", str(seconds)]
    if pack:
        cmd += ["--pack", pack]
    out = subprocess.run(cmd, cwd=tree, check=True, capture_output=True, text=True).stdout
    last = out.strip().splitlines()[-1]
    data = json.loads(last)
    return {k: float(v) for k, v in _flatten(data).items() if isinstance(v, (int, float))}


def _flatten(d: dict, prefix: str = "") -> dict:
    out: dict = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, tuple[float, float, float]]]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="the commit to compare against (e.g. a9f21f4)")
    ap.add_argument("--head", default=None, help="a second commit (default: the working tree as it is)")
    ap.add_argument("--bench", nargs="+", default=["engine_throughput", "env_throughput"])
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per commit (default 3)")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per setting per run (default 2)")
    ap.add_argument("--pack", default=None, help="card pack passed to every run (default: each one's own)")
    ap.add_argument(
        "--own-scripts",
        action="store_true",
        help="run each commit's own copy of the benchmark scripts (default: the working tree's for both)",
    )
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    tmp = Path(tempfile.mkdtemp(prefix="bbom_compare_"))
    made: list[Path] = []
    report: dict[str, dict[str, tuple[float, float, float]]] = {}
    try:
        base = _worktree(args.base, tmp)
        made.append(base)
        if args.head is None:
            head = ROOT
        else:
            head = _worktree(args.head, tmp)
            made.append(head)
        for tree in made if not args.own_scripts else ():
            # The same measuring code for every commit: the working tree's benchmark scripts (an
            # older script may lack a later fix, e.g. skipping a peer it cannot import).
            for bench in args.bench:
                shutil.copy(ROOT / "benchmarks" / f"{bench}.py", tree / "benchmarks" / f"{bench}.py")
        for bench in args.bench:
            runs: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
            for r in range(args.rounds):
                for name, tree in (("base", base), ("head", head)):
                    runs[name].append(_run(tree, bench, args.seconds, args.pack))
                    print(f"  {bench} round {r + 1}/{args.rounds} {name} done", file=sys.stderr, flush=True)
            keys = sorted(set(runs["base"][0]) & set(runs["head"][0]))
            print(f"\n{bench}: median of {args.rounds} alternating runs (base {args.base}, head "
                  f"{args.head or 'working tree'})")  # fmt: skip
            print(f"  {'figure':44s} {'base':>12s} {'head':>12s} {'head/base':>10s}")
            report[bench] = {}
            for k in keys:
                b = statistics.median(x[k] for x in runs["base"])
                h = statistics.median(x[k] for x in runs["head"])
                ratio = h / b if b else float("nan")
                report[bench][k] = (b, h, ratio)
                note = " (lower is better)" if k.split(".")[-1] in LOWER_IS_BETTER else ""
                print(f"  {k:44s} {b:12.1f} {h:12.1f} {ratio:10.3f}{note}")
    finally:
        for path in made:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    return report


if __name__ == "__main__":
    main()
