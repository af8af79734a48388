"""Engine work per decision in instructions, counted by valgrind: a figure that does not drift.

    python benchmarks/engine_instructions.py [--games N] [--pack NAME] [--modules M] [--settings S]
                                             [--jobs J] [--json]

``engine_throughput.py`` reports decisions per CPU second. On a shared machine two runs minutes
apart differ by a few per cent, as much as a small optimisation gains. This script counts the
instructions that play the same games (user space, valgrind's ``cachegrind`` tool), which repeat
to within a few instructions per decision from run to run and machine to machine.

For each setting (players and payment, ``engine_throughput.SETTINGS`` by default) it plays the
games that ``engine_throughput.py`` plays first (seeds 0 to N-1, uniform random legal moves) in a
child process under cachegrind. It runs the same child once more with no game: the start-up
(interpreter, imports, the pack, one warm-up game). The difference, divided by the decisions, is
the instructions per decision. With ``--modules`` each setting is counted for the base game and with
the modules, with their ratio (base / modules): the throughput ratio that would hold if every
instruction took the same time.

They do not all take the same time. Cache misses and mispredicted branches cost more on some code
than on other code, and a count ignores them: use it to compare two versions of the same code, not
in place of ``engine_throughput.py``'s time. The child runs with ``PYTHONHASHSEED=0`` and one BLAS
thread: otherwise the counts vary by about 1%. ``--play`` is the child's own mode.
Needs valgrind (``apt install valgrind``); without it the script says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig  # noqa: E402

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))
from engine_throughput import SETTINGS, play_game, setting_key  # noqa: E402

WARM_UP_SEED = 10**6  # the warm-up game's seed: outside the counted seeds 0 to N-1
# The child's environment: string hashes fixed, one thread per numeric library (idle BLAS threads
# spin), so that the count repeats.
CHILD_ENV = {
    "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def play(players: int, payment: str, pack: str, modules: tuple[str, ...], games: int) -> int:
    """The child's work: one warm-up game, then games with seeds 0 to games-1; their decisions."""
    config = GameConfig(num_players=players, payment=payment, pack=pack, modules=modules)
    play_game(config.replace(seed=WARM_UP_SEED))
    return sum(play_game(config.replace(seed=seed)) for seed in range(games))


def instructions(stderr: str) -> int:
    """The instruction count in cachegrind's summary ("I refs: 1,234"); ValueError without one."""
    found = _REFS.search(stderr)
    if found is None:
        raise ValueError(f"no instruction count in valgrind's output:\n{stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count(players: int, payment: str, pack: str, modules: tuple[str, ...], games: int) -> tuple[int, int]:
    """(instructions, decisions) of the child playing ``games`` games under cachegrind."""
    cmd = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, str(HERE), "--play", str(players), payment, str(games),
        "--pack", pack, "--modules", ",".join(modules),
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **CHILD_ENV}, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stderr[-2000:]}")
    return instructions(proc.stderr), int(proc.stdout.split()[-1])


def per_decision(
    players: int, payment: str, pack: str, modules: tuple[str, ...], games: int
) -> dict[str, float]:
    """Instructions per decision of ``games`` games: the run with them less the run without."""
    with_games, decisions = count(players, payment, pack, modules, games)
    start_up, none = count(players, payment, pack, modules, 0)
    assert none == 0
    return {"instructions_per_decision": (with_games - start_up) / decisions, "decisions": decisions}


def _settings(text: str) -> tuple[tuple[int, str], ...]:
    """``2p_auto,5p_manual``: the settings to count."""
    known = {setting_key(p, pay): (p, pay) for p, pay in SETTINGS}
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown setting(s) {bad or text!r}; known: {', '.join(known)}")
    return tuple(known[n] for n in names)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchmarks/engine_instructions.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--games", type=cli.int_range(1, 10_000), default=20, help="games per setting, 1-10000 (default 20)"
    )
    ap.add_argument("--pack", type=cli.pack, default="test", help=f"{cli.PACK_HELP} (default test)")
    ap.add_argument(
        "--modules",
        type=cli.modules,
        default=(),
        help="rules modules, comma-separated: each setting is counted for the base game and with them, "
        "with the ratio base / modules",
    )
    ap.add_argument(
        "--settings",
        type=_settings,
        default=SETTINGS,
        help="settings, comma-separated (default all: 2p_auto,5p_auto,2p_manual,5p_manual)",
    )
    ap.add_argument(
        "--jobs", type=cli.int_range(1, 64), default=2, help="valgrind runs at once, 1-64 (default 2)"
    )
    ap.add_argument(
        "--json",
        action="store_true",
        help="stdout is one JSON object with every figure (the table goes to stderr)",
    )
    ap.add_argument(
        "--play",
        nargs=3,
        metavar=("PLAYERS", "PAYMENT", "GAMES"),
        help="the child's mode (what runs under valgrind): play the games in this process, print "
        "their decisions",
    )
    return ap


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]] | int:
    parser = build_parser()
    args = parser.parse_args(argv)
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        if args.play:
            players, payment, games = args.play
            if not (players.isdigit() and games.isdigit()):
                parser.error(f"--play: PLAYERS and GAMES are counts, got {players!r} and {games!r}")
            print(play(int(players), payment, args.pack, args.modules, int(games)))
            return {}
        if shutil.which("valgrind") is None:
            print(
                "benchmarks/engine_instructions.py needs valgrind on PATH (apt install valgrind)",
                file=sys.stderr,
            )
            return 2
        sets = [()] + ([args.modules] if args.modules else [])
        jobs = [(p, pay, m) for p, pay in args.settings for m in sets]
        print(
            f"counting {len(jobs)} settings under valgrind, {args.jobs} at a time (about a minute each)",
            file=sys.stderr,
            flush=True,
        )
        t0 = time.perf_counter()
        done = [0]

        def count_one(job: tuple) -> dict[str, float]:
            row = per_decision(job[0], job[1], args.pack, job[2], args.games)
            done[0] += 1  # (progress: each setting as it finishes, on stderr)
            key = setting_key(*job)
            print(
                f"  {key} counted ({done[0]}/{len(jobs)}, {time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
            return row

        with ThreadPoolExecutor(args.jobs) as pool:  # (each job is a child process: threads suffice)
            counted = list(pool.map(count_one, jobs))
        results: dict[str, dict[str, float]] = {}
        print(f"engine instructions | pack={args.pack} games={args.games} per setting (valgrind cachegrind)")
        print("{:<28} {:>14} {:>10}".format("setting", "instr/decision", "decisions"))
        for (players, payment, modules), row in zip(jobs, counted, strict=True):
            key = setting_key(players, payment, modules)
            results[key] = row
            print(f"{key:<28} {row['instructions_per_decision']:>14,.0f} {row['decisions']:>10,.0f}")
        if args.modules:
            tag = "".join(f"+{m}" for m in args.modules)
            print(f"base game / with {', '.join(args.modules)} (instructions per decision):")
            for players, payment in args.settings:
                key = setting_key(players, payment)
                ratio = (
                    results[key]["instructions_per_decision"]
                    / results[key + tag]["instructions_per_decision"]
                )
                results[key + tag]["ratio_to_base"] = ratio
                print(f"  {key:<10} {ratio:.3f}")
        if args.json:
            print(json.dumps({"pack": args.pack, "games": args.games, "results": results}), file=stdout)
        return results


def _script() -> int:
    out = main()  # the figures, for callers; 2 without valgrind
    return out if isinstance(out, int) else 0


if __name__ == "__main__":
    sys.exit(cli.run(_script))
