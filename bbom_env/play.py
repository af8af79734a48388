"""The main job until training lands: play seeded games with the random team and summarise.

python -m bbom_env.play --games 200 --players 2
"""

from __future__ import annotations

import argparse
import random
import time

from .engine import GameConfig, new_game


def play_random(config: GameConfig, agent_seed: int) -> tuple[str, str, int, dict]:
    """One game of uniform random legal play; returns (outcome, reason, decisions, stats)."""
    rng = random.Random(agent_seed)
    state = new_game(config)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return state.outcome, state.reason, n, state.stats


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--difficulty", type=int, default=1)
    ap.add_argument("--mode", default="normal")
    ap.add_argument("--payment", default="auto")
    ap.add_argument("--pack", default="default")
    ap.add_argument("--seed", type=int, default=0, help="first game seed; game i uses seed + i")
    args = ap.parse_args(argv)

    wins = decisions = defeated = madness = 0
    reasons: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(args.games):
        cfg = GameConfig(
            num_players=args.players,
            difficulty=args.difficulty,
            mode=args.mode,
            payment=args.payment,
            pack=args.pack,
            seed=args.seed + i,
        )
        outcome, reason, n, stats = play_random(cfg, agent_seed=args.seed + i)
        wins += outcome == "win"
        decisions += n
        defeated += stats.get("monsters_defeated", 0)
        madness += stats.get("madness_received", 0)
        reasons[reason] = reasons.get(reason, 0) + 1
    dt = time.perf_counter() - t0
    g = max(args.games, 1)
    print(
        f"random team | pack={args.pack} players={args.players} difficulty={args.difficulty} "
        f"mode={args.mode} payment={args.payment}"
    )
    print(f"games            {args.games}")
    print(f"win rate         {wins / g:.3f} ({wins} wins)")
    print(f"decisions/game   {decisions / g:.1f}")
    print(f"monsters beaten  {defeated / g:.2f} per game")
    print(f"madness received {madness / g:.1f} per game")
    print(f"decisions/s      {decisions / dt:,.0f} ({dt:.1f} s)")
    for reason, k in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {k:5d} x {reason}")


if __name__ == "__main__":
    main()
