"""Play The Big Book of Madness in the terminal, with agents in the other seats, or watch agents play.

  python -m bbom_env.play                                  # you (P0) and a heuristic teammate
  python -m bbom_env.play --seats human,heuristic,random   # three players, you are P0
  python -m bbom_env.play --players 3 --human 1 --agents runs/x/model.zip
  python -m bbom_env.play --watch --agents heuristic --seed 3 --delay 0.5
  python -m bbom_env.play --watch --seed 3 --save game.json   # then: python -m bbom_env.replay game.json

A seat is "human", "random", "heuristic", "search[:key=value,...]" (the search team,
docs/search.md) or the path of a trained model (.zip saved by train.py);
a trained model plays the game of its run's config.yaml (players, level, modules ...) unless told
otherwise, and a setting that differs from it is refused. --modules plays the Vth Element:

  python -m bbom_env.play --modules dark_matter,phobias
Players are numbered from 0 (P0, P1 ...), as on the board. At your decision the legal moves are
listed by number; answer with the number, the move name or #ID (help lists the commands).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.config import MODES, PAYMENTS
from bbom_env.engine.model.constants import MAX_PLAYERS, MIN_PLAYERS

from . import cli
from .play_session import AgentError, InputFn, Seat, run_session

AGENT_NAMES = ("random", "heuristic")


def build_parser() -> argparse.ArgumentParser:
    """The command line (kept separate so tests and docs can inspect it)."""
    ap = argparse.ArgumentParser(
        prog="python -m bbom_env.play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    who = ap.add_mutually_exclusive_group()
    who.add_argument(
        "--seats",
        metavar="SPEC,SPEC,...",
        help="one entry per player: human, random, heuristic, search[:...] or a model .zip (sets --players)",
    )
    who.add_argument(
        "--human",
        metavar="SEAT",
        type=cli.int_range(0, MAX_PLAYERS - 1),
        action="append",
        help="a seat played by a person (repeatable; default: seat 0); the others play --agents",
    )
    ap.add_argument("--watch", action="store_true", help="no person: agents play every seat")
    ap.add_argument(
        "--agents",
        default="heuristic",
        metavar="SPEC",
        help="agent of the seats not given by --seats: random, heuristic, search[:key=value,...] or a "
        "model .zip (default heuristic)",
    )
    ap.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        help=f"{MIN_PLAYERS}-{MAX_PLAYERS} (default: the length of --seats, else a trained agent's, else 2)",
    )
    mine = "default: a trained agent's, else %s"
    ap.add_argument(
        "--level",
        "--difficulty",
        dest="level",
        type=int,
        choices=(1, 2, 3),
        help="difficulty (" + mine % "1" + ")",
    )
    ap.add_argument("--mode", choices=MODES, help="rule variant (" + mine % "normal" + ")")
    ap.add_argument("--payment", choices=PAYMENTS, help="manual: pick each card paid (" + mine % "auto" + ")")
    ap.add_argument("--pack", type=cli.pack, help=f"{cli.PACK_HELP} (" + mine % "default" + ")")
    ap.add_argument(
        "--modules",
        type=cli.modules,
        metavar="NAME,...",
        help="the Vth Element's rules modules: dark_matter, phobias or dark_matter,phobias; '' for "
        "none (" + mine % "none" + ")",
    )
    cli.add_switch_option(ap)
    ap.add_argument(
        "--allow-other-settings",
        action="store_true",
        help="let a trained agent play at other players, level, mode, payment or rules switches than it was "
        "trained on",
    )
    ap.add_argument(
        "--seed",
        type=cli.int_range(0),
        default=0,
        help="game seed, >= 0 (agents are seeded from it; default 0)",
    )
    ap.add_argument(
        "--delay",
        type=cli.float_range(0, 3600),
        default=0.0,
        help="seconds to pause after each agent move, 0..3600 (default 0)",
    )
    ap.add_argument("--step", action="store_true", help="wait for Enter after each agent move")
    ap.add_argument("--max-steps", type=cli.int_range(1), help="stop after this many decisions (>= 1)")
    ap.add_argument(
        "--save",
        metavar="PATH",
        help="write the game played (also when stopped early) to PATH as a game file; "
        "python -m bbom_env.replay PATH makes a page to step through it",
    )
    return ap


def save(path: str, state: Any, seats: list[Seat], out: Any) -> None:
    """Write the game to ``path`` (bbom_env.view.game_file) and say where."""
    from .view.game_file import save_game

    labels = [s.label for s in seats]
    title = f"{', '.join(labels)}, seed {state.config.seed}"
    written = save_game(path, state, labels, title)
    out.write(f"game saved to {written} (python -m bbom_env.replay {written} -o game.html)\n")


def seat_specs(args: argparse.Namespace, ap: argparse.ArgumentParser) -> list[str]:
    """One spec per seat from --seats / --human / --watch, or an argparse error (exit 2)."""
    if args.watch and (args.human or args.agents == "human"):
        ap.error("--watch has no human seat: give agents (--agents, --seats)")
    if args.seats is not None:
        specs = [s.strip() for s in args.seats.split(",")]
        if any(not s for s in specs):
            ap.error(f"--seats {args.seats!r} has an empty entry")
        if args.watch and "human" in specs:
            ap.error("--watch has no human seat: --seats must name agents only")
        if args.players is not None and len(specs) != args.players:
            ap.error(f"--seats names {len(specs)} seats but --players is {args.players}")
        if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
            ap.error(f"--seats names {len(specs)} seats; the game takes {MIN_PLAYERS} to {MAX_PLAYERS}")
        return specs
    n = args.players or 2
    humans = set() if args.watch else set(args.human or [0])
    bad = sorted(h for h in humans if h >= n)
    if bad:
        ap.error(f"--human {bad[0]}: seats are numbered 0 to {n - 1} in a {n}-player game")
    return ["human" if i in humans else args.agents for i in range(n)]


def game_settings(args: argparse.Namespace, ap: argparse.ArgumentParser) -> dict[str, Any]:
    """The game's settings: a trained agent's own (its run's config.yaml, agents.trained_settings)
    for what the command line does not set; a setting that differs from the agent's is an
    argparse error (exit 2). Sets ``args.players`` when neither --players nor --seats did."""
    seats = [s.strip() for s in args.seats.split(",")] if args.seats is not None else None
    agents = [s for s in seats if s != "human"] if seats is not None else [args.agents]
    asked = {
        "num_players": args.players or (len(seats) if seats else None),
        "difficulty": args.level,
        "mode": args.mode,
        "payment": args.payment,
        "pack": args.pack,
        "modules": args.modules,
        "switches": dict(args.switches or ()),
    }
    if all(a in ("human", *AGENT_NAMES) for a in agents):  # no policy: no run config to read
        default = GameConfig()
        switches = asked.pop("switches")
        return {**{k: getattr(default, k) if v is None else v for k, v in asked.items()}, **switches}
    from agents.trained_settings import SettingsError
    from agents.trained_settings import game_settings as settings_of

    try:
        settings, _source = settings_of(agents, asked, args.allow_other_settings)
    except SettingsError as e:
        ap.error(str(e))
    if args.players is None and seats is None:
        args.players = settings["num_players"]
    return settings


def build_seats(specs: list[str], seed: int) -> list[Seat]:
    """Seats with their agents; one agent per distinct spec (the agents are team agents: one
    object answers for every seat it plays). ValueError / FileNotFoundError for a bad spec."""
    agents: dict[str, Any] = {}
    for spec in specs:
        if spec != "human" and spec not in agents:
            from agents import make_agent  # the agents package (and torch for a model) only now

            agents[spec] = make_agent(spec, seed=seed)
    humans = specs.count("human")
    seats = []
    for spec in specs:
        if spec == "human":
            seats.append(Seat(spec, None, "you" if humans == 1 else "human"))
        else:
            label = spec if spec in AGENT_NAMES else spec.replace("\\", "/").rsplit("/", 1)[-1]
            seats.append(Seat(spec, agents[spec], label))
    return seats


def _echoing(input_fn: InputFn, out: Any) -> InputFn:
    """When stdin is a pipe, show what was read, so a transcript reads like a terminal session."""

    def read(prompt: str) -> str:
        line = input_fn(prompt)
        out.write(line + "\n")
        return line

    return read


def main(argv: list[str] | None = None, input_fn: InputFn | None = None, out: Any = None) -> int:
    """Run the command line; returns the exit status (0, 1 when an agent fails, 130 on Ctrl-C)."""
    ap = build_parser()
    args = ap.parse_args(argv)
    settings = game_settings(args, ap)
    specs = seat_specs(args, ap)
    out = out or sys.stdout
    if input_fn is None:
        input_fn = input if sys.stdin.isatty() else _echoing(input, out)
    try:
        config = GameConfig(**{**settings, "num_players": len(specs)}, seed=args.seed)
        seats = build_seats(specs, args.seed)  # unknown spec, missing model file
        state = new_game(config)  # unknown pack, pack file errors
    except (ValueError, OSError) as e:
        ap.error(str(e))
    try:
        result = run_session(
            state, seats, input_fn, out, delay=args.delay, step=args.step, max_steps=args.max_steps
        )
    except KeyboardInterrupt:  # during an agent's move or a --delay pause
        out.write("\ninterrupted\n")
        if args.save:  # the session plays on ``state`` itself: the game so far
            save(args.save, state, seats, out)
        return 130
    except AgentError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.save:
        save(args.save, result.state, seats, out)
    return 130 if result.status == "interrupted" else 0


if __name__ == "__main__":
    sys.exit(cli.run(main))  # a closed pipe (piped into head) ends it quietly
