"""Train a team for The Big Book of Madness: imitation of the heuristic team, then MaskablePPO.

    python train.py                                   # configs/default.yaml into runs/default_<N>
    python train.py --config configs/smoke.yaml --run-dir runs/smoke
    python train.py --set budget.timesteps=100000 --set env.game.num_players=4
    python train.py --resume runs/default             # continue an interrupted run

Every key of the config, its default and its range: agents/train_config.py (and configs/default.yaml,
which spells them all out). The run directory's files are listed in agents/training.py; the last
lines printed are the final table (random, heuristic, the clone and the trained team on the same
deals), also in RUN_DIR/results.md. A bad config exits with status 2 and one line naming the key.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DEFAULT_CONFIG = ROOT / "configs" / "default.yaml"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", type=Path, help=f"YAML config (default: {DEFAULT_CONFIG.relative_to(ROOT)})")
    ap.add_argument(
        "--run-dir",
        "--out",
        dest="run_dir",
        type=Path,
        help="a new directory for the run (default: runs/<config>_<N>, first free N; --out: the same, "
        "as train_rllib.py accepts it)",
    )
    ap.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key, e.g. --set ppo.learning_rate=1e-4 (repeatable)")  # fmt: skip
    ap.add_argument("--resume", type=Path, metavar="RUN_DIR", help="continue the run in RUN_DIR")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars (logs stay readable)")
    a = ap.parse_args(argv)

    from agents.train_config import TrainConfigError, load
    from agents.training import Run

    progress = not a.no_progress and sys.stderr.isatty()
    try:
        if a.resume is not None:
            if a.config is not None or a.overrides or a.run_dir is not None:
                ap.error("--resume takes the run's own config.yaml: drop --config, --set and --run-dir")
            run = Run.resume(a.resume, progress=progress, log=_log)
        else:
            path = a.config or DEFAULT_CONFIG
            cfg = load(path, a.overrides)
            run_dir = a.run_dir or next_run_dir(ROOT / "runs", Path(path).stem)
            run = Run.start(cfg, run_dir, progress=progress, log=_log)
    except (TrainConfigError, FileExistsError, FileNotFoundError) as e:
        print(f"train.py: error: {e}", file=sys.stderr)
        return 2
    _log(f"run directory: {run.dir}")
    results = run.execute()
    from agents.training_eval import markdown

    print()
    print(markdown(results), end="")
    print(f"\n(run directory {run.dir}; training took {results['train_wall_s']:.0f} s)")
    return 0


def next_run_dir(parent: Path, name: str) -> Path:
    """runs/NAME_1, runs/NAME_2, ...: the first that does not exist (a rerun never overwrites)."""
    i = 1
    while (parent / f"{name}_{i}").exists():
        i += 1
    return parent / f"{name}_{i}"


def _log(msg: str) -> None:
    print(msg, flush=True)


if __name__ == "__main__":
    sys.exit(main())
