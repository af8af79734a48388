"""Write a game as one self-contained HTML page to step through in a browser (docs/rendering.md).

  python -m bbom_env.replay game.json -o game.html         # a game file or a state save
  python -m bbom_env.replay --team heuristic --seed 3 -o game.html   # game 3 of an evaluation

GAME is a game file (``python -m bbom_env.play --save``, ``python -m agents.evaluate --save-games``,
or written by hand: {"format": "bbom-game/1", "config": {...}, "moves": [...]}) or a state save
(``state.to_json()``). Or play game SEED of an evaluation of TEAM (random, heuristic or a trained
model .zip) as ``agents.evaluate`` plays it (same deal, same agent seed, same decision limit).
The page needs no server and no network: open it from disk.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bbom_env.engine.core.config import MODES, PAYMENTS
from bbom_env.engine.model.constants import MAX_PLAYERS, MIN_PLAYERS

from . import cli
from .view.game_file import GameFileError, GameRecord, load_game, record_of
from .view.replay_html import write_replay

DEFAULT_MAX_DECISIONS = 2000  # agents.evaluate's --max-decisions default


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m bbom_env.replay",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("game", nargs="?", metavar="GAME", help="a game file or a state save (JSON)")
    ap.add_argument(
        "-o", "--out", metavar="HTML", help="the page to write (default: GAME with .html, or replay.html)"
    )
    ap.add_argument(
        "--observe-other-hands",
        action="store_true",
        help="a seat's view shows every hand too (the env option of that name)",
    )
    ev = ap.add_argument_group("an evaluation game (instead of GAME)")
    ev.add_argument("--team", metavar="TEAM", help="random, heuristic or a model .zip: play its game --seed")
    ev.add_argument("--seed", type=cli.int_range(0), default=0, help="the game's seed (default 0)")
    ev.add_argument("--players", type=cli.int_range(MIN_PLAYERS, MAX_PLAYERS), default=2)
    ev.add_argument("--level", type=cli.int_range(1, 3), default=1, help="difficulty 1-3")
    ev.add_argument("--mode", choices=MODES, default="normal")
    ev.add_argument("--payment", choices=PAYMENTS, default="auto")
    ev.add_argument("--pack", type=cli.pack, default="default", help=cli.PACK_HELP)
    ev.add_argument(
        "--modules", default="", metavar="NAME,...", help="rules modules, e.g. dark_matter,phobias"
    )
    ev.add_argument(
        "--max-decisions",
        type=cli.int_range(1),
        default=DEFAULT_MAX_DECISIONS,
        help="cut the game off there, as agents.evaluate does (default 2000)",
    )
    ev.add_argument("--stochastic", action="store_true", help="a policy samples its moves instead of argmax")
    return ap


def evaluation_record(args: argparse.Namespace) -> GameRecord:
    """Game ``--seed`` of an evaluation of ``--team`` (agents.evaluate.evaluation_game)."""
    from agents.evaluate import check_team, evaluation_game  # the agents package only for this

    check_team(args.team)
    modules = [m.strip() for m in args.modules.split(",") if m.strip()]
    cfg = dict(
        num_players=args.players,
        difficulty=args.level,
        mode=args.mode,
        payment=args.payment,
        pack=args.pack,
        modules=tuple(modules),
    )
    state, _library, truncated = evaluation_game(
        args.team, cfg, args.seed, not args.stochastic, args.max_decisions
    )
    title = f"{args.team}, seed {args.seed}" + (" (truncated)" if truncated else "")
    return record_of(state, [args.team] * args.players, title)


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if (args.game is None) == (args.team is None):
        ap.error("give GAME (a game file or a state save) or --team TEAM (an evaluation game), one of them")
    try:
        record = load_game(args.game) if args.game is not None else evaluation_record(args)
    except (GameFileError, ValueError, OSError) as exc:
        ap.error(str(exc))
    out = (
        Path(args.out)
        if args.out
        else (Path(args.game).with_suffix(".html") if args.game else Path("replay.html"))
    )
    try:
        path = write_replay(record, out, args.observe_other_hands)
    except GameFileError as exc:  # a move that does not replay
        ap.error(f"{args.game or args.team}: {exc}")
    size = path.stat().st_size
    print(f"wrote {path} ({len(record.moves)} decisions, {size / 1e6:.1f} MB): open it in a browser")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
