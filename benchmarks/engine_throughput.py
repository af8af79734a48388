"""Engine throughput: uniform random legal play on one core.

    python benchmarks/engine_throughput.py [--seconds S] [--json] [--pack NAME] [--modules M] [--rounds K]

For each setting (2 and 5 players, auto and manual payment) it plays seeded games for about S
seconds and reports decisions/s (calls of ``apply_action``, forced moves skipped by the engine not
counted), games/s and the mean decisions per game. With ``--json`` stdout is one
JSON object of those figures (plus decisions per CPU second, steadier on a busy machine).
The agent's own cost (``legal_actions`` + one ``randrange``) is included, as in training.

With ``--modules`` each setting is measured for the base game and with the modules, side by side,
and their ratio printed. With ``--rounds K`` (K > 1) the two are measured K times each, alternating
(base, modules, base, ...), so that a slow spell of the machine falls on both: each row is the
round of median decisions per CPU second, and the ratio is the median of the K rounds' ratios, with
their lowest and highest (``ratio_rounds`` in the JSON).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, new_game  # noqa: E402

SETTINGS = ((2, "auto"), (5, "auto"), (2, "manual"), (5, "manual"))


def measure(
    players: int, payment: str, pack: str, seconds: float, modules: tuple[str, ...] = ()
) -> dict[str, float]:
    """Play games with seeds 0, 1, 2 ... until ``seconds`` have passed (whole games only)."""
    games = decisions = 0
    busy = cpu = 0.0
    while busy < seconds or games == 0:
        config = GameConfig(num_players=players, payment=payment, pack=pack, seed=games, modules=modules)
        t0, c0 = time.perf_counter(), time.process_time()
        decisions += play_game(config)
        busy += time.perf_counter() - t0
        cpu += time.process_time() - c0
        games += 1
    return {
        "decisions_per_s": decisions / busy,
        "games_per_s": games / busy,
        "decisions_per_game": decisions / games,
        "games": games,
        # Per CPU second of this process: steadier than wall time on a shared, busy machine.
        "decisions_per_cpu_s": decisions / max(cpu, 1e-9),
    }


def setting_key(players: int, payment: str, modules: tuple[str, ...] = ()) -> str:
    """A setting's key in the figures (and the JSON): ``2p_auto``, ``2p_auto+dark_matter``."""
    return f"{players}p_{payment}" + "".join(f"+{m}" for m in modules)


def play_game(config: GameConfig) -> int:
    """One game of uniform random legal play, the agent's RNG seeded with ``config.seed``: its
    decisions (``apply_action`` calls)."""
    rng = random.Random(config.seed)
    state = new_game(config)
    decisions = 0
    while not state.over:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        decisions += 1
    return decisions


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchmarks/engine_throughput.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--seconds",
        type=cli.float_range(0, 3600, lo_open=True),
        default=5.0,
        help="seconds of play per setting, > 0 and <= 3600 (default 5; whole games, at least one)",
    )
    ap.add_argument(
        "--json",
        action="store_true",
        help="stdout is one JSON object with every figure (the table goes to stderr)",
    )
    ap.add_argument("--pack", type=cli.pack, default="test", help=f"{cli.PACK_HELP} (default test)")
    ap.add_argument(
        "--modules",
        type=cli.modules,
        default=(),
        help="rules modules, comma-separated (e.g. dark_matter): each setting is measured for the base "
        "game and with the modules, side by side, with the ratio (the module goal: >= 0.80)",
    )
    ap.add_argument(
        "--rounds",
        type=cli.int_range(1, 100),
        default=1,
        help="measure each setting K times, the base game and the modules alternating, 1-100 (default "
        "1): rows are the median round, the ratio the median of the rounds' ratios with its range",
    )
    return ap


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    args = build_parser().parse_args(argv)
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        results: dict[str, dict[str, float]] = {}
        sets = [()] + ([args.modules] if args.modules else [])
        for modules in sets:  # load and cache each pack (with the modules' sections) outside the timings
            new_game(GameConfig(pack=args.pack, modules=modules))
        print(f"engine throughput | pack={args.pack} python={platform.python_version()} one core")
        head = ("setting", "decisions/s", "games/s", "decisions/game", "games", "dec/cpu-s")
        print("{:<12} {:>12} {:>9} {:>15} {:>6} {:>10}".format(*head))
        rounds: dict[str, list[dict[str, float]]] = {}
        for players, payment in SETTINGS:
            for _ in range(args.rounds):  # (alternating: base, modules, base, modules, ...)
                for modules in sets:
                    key = setting_key(players, payment, modules)
                    rounds.setdefault(key, []).append(
                        measure(players, payment, args.pack, args.seconds, modules)
                    )
            for modules in sets:
                key = setting_key(players, payment, modules)
                r = results[key] = dict(_median_round(rounds[key]))
                if args.rounds > 1:  # (each round's figure, in the order measured: a list in the JSON)
                    r["rounds_decisions_per_cpu_s"] = [x["decisions_per_cpu_s"] for x in rounds[key]]  # type: ignore[assignment]
                print(
                    f"{key:<12} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>9.1f} "
                    f"{r['decisions_per_game']:>15.1f} {r['games']:>6d} {r['decisions_per_cpu_s']:>10,.0f}"
                )
        if args.modules:
            tag = "".join(f"+{m}" for m in args.modules)
            over = f", median of {args.rounds} rounds [lowest, highest]" if args.rounds > 1 else ""
            print(f"with {', '.join(args.modules)} / base game (decisions per CPU second{over}):")
            for players, payment in SETTINGS:
                key = setting_key(players, payment)
                ratios = [
                    m["decisions_per_cpu_s"] / b["decisions_per_cpu_s"]
                    for b, m in zip(rounds[key], rounds[key + tag], strict=True)
                ]
                ratio = statistics.median(ratios)
                results[key + tag]["ratio_to_base"] = ratio
                shown = f"{ratio:.2f}"
                if args.rounds > 1:
                    results[key + tag]["ratio_rounds"] = ratios  # type: ignore[assignment]  # (a list in the JSON)
                    shown = f"{ratio:.3f} [{min(ratios):.3f}, {max(ratios):.3f}]"
                print(f"  {key:<10} {shown}")
        if args.json:
            figures = {"pack": args.pack, "seconds": args.seconds, "rounds": args.rounds, "results": results}
            print(json.dumps(figures), file=stdout)
        return results


def _median_round(runs: list[dict[str, float]]) -> dict[str, float]:
    """The round whose decisions per CPU second are the median (the lower middle one of an even
    count): its figures stay those of one run."""
    ranked = sorted(runs, key=lambda r: r["decisions_per_cpu_s"])
    return ranked[(len(ranked) - 1) // 2]


def _script() -> int:
    main()  # returns the figures, for callers; the script's exit status is 0
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(_script))
