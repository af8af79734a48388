"""The heuristic team with the Water Magician seated (both Vth Element modules, V-19): win rate and
Phobias moved per game, with the move (``agents/heuristic_phobias.py``, step 4) or without it.

    python -m agents.phobia_move_eval --games 200            # the team as it plays
    python -m agents.phobia_move_eval --games 200 --no-move  # the same seeds, never moving

Seat 0 is the Water Magician (``magician_vth_phobia``); the other seats draw their Magicians from
those the game offers with ``random.Random(seed)``, so both runs deal the same games (seeds 0 to
games - 1). ``--no-move`` sets the move's threshold out of reach: the team then plays as it did
before it moved Phobias.
"""

from __future__ import annotations

import argparse
import random

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.rules import offered_magicians

from . import heuristic_phobias
from .heuristic_agent import HeuristicAgent

MODULES = ("dark_matter", "phobias")
MOVER = "magician_vth_phobia"


def play(seed: int, players: int, level: int) -> tuple[bool, int]:
    """One game: (won, Phobias moved)."""
    base = GameConfig(seed=seed, num_players=players, modules=MODULES, difficulty=level)
    offered = sorted(m for m in offered_magicians(base, new_game(base).pack) if m != MOVER)
    others = tuple(random.Random(seed).sample(offered, players - 1))
    state = new_game(
        GameConfig(
            seed=seed, num_players=players, modules=MODULES, difficulty=level, magicians=(MOVER, *others)
        )
    )
    agent = HeuristicAgent(seed)
    while not state.over:
        state.apply_action(agent.act(state))
    return state.outcome == "win", state.stats.get("phobias_moved", 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--no-move", action="store_true", help="never move a Phobia (the team before)")
    args = ap.parse_args(argv)
    if args.no_move:
        heuristic_phobias.MOVE_GAIN = float("inf")
    wins = moved = 0
    for seed in range(args.games):
        won, n = play(seed, args.players, args.level)
        wins += won
        moved += n
    g = args.games
    print(
        f"{g} games, {args.players}p level {args.level}: won {wins} ({100 * wins / g:.1f}%), "
        f"Phobias moved {moved} ({moved / g:.3f} a game)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
