"""Fingerprint of whole seeded games, to prove that a refactor changes no game.

    python benchmarks/fingerprint.py [--games N] [--pack PATH] [--modules NAMES] [--json]

Plays N seeded games for each of {2, 4 players} x {auto, manual payment} x {random, heuristic
team} through the public API (``new_game``, ``legal_actions``, ``apply_action``, the Gymnasium
env's observation and mask) and hashes, per setting, every legal set, every move, every
observation vector and mask, the outcome, the reason, the log and the statistics. Run it before and
after a change that must not alter games and compare the printed digests (``--pack`` pins a copy
of the card pack, so that content changes made meanwhile do not show up as engine changes).
``--modules`` plays the same settings with rules modules on (e.g. ``dark_matter``: the module's own
cards are read from its pack file, ``rules.Module.pack_files``, not pinned by ``--pack``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, new_game  # noqa: E402
from bbom_env.rl.observation import ObservationEncoder  # noqa: E402


def play(
    players: int,
    payment: str,
    team: str,
    seed: int,
    pack: str,
    with_obs: bool,
    modules: tuple[str, ...] = (),
) -> bytes:
    from agents.heuristic_agent import HeuristicAgent

    config = GameConfig(num_players=players, payment=payment, pack=pack, seed=seed, modules=modules)
    state = new_game(config)
    rng = random.Random(seed)
    agent = HeuristicAgent() if team == "heuristic" else None
    encoder = ObservationEncoder(config) if with_obs else None
    h = hashlib.sha256()
    while not state.is_terminal():
        legal = state.legal_actions()
        h.update(repr((state.current_player(), legal)).encode())
        if encoder is not None:
            obs = encoder.encode(state, state.current_player())
            h.update(np.ascontiguousarray(obs).tobytes())
        move = agent.act(state) if agent is not None else legal[rng.randrange(len(legal))]
        h.update(str(move).encode())
        state.apply_action(move)
    h.update(repr((state.outcome, state.reason, state.returns(), state.log, state.stats)).encode())
    return h.digest()


def main(argv: list[str] | None = None) -> dict[str, str]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per setting (default 100)")
    ap.add_argument("--obs-games", type=int, default=10, help="of which with observations hashed")
    ap.add_argument("--pack", default="default", help='card pack: "default", "test" or a path')
    ap.add_argument(
        "--modules", type=cli.modules, default=(), help="rules modules, comma-separated (default: none)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out: dict[str, str] = {}
    for players in (2, 4):
        for payment in ("auto", "manual"):
            for team in ("random", "heuristic"):
                h = hashlib.sha256()
                for seed in range(args.games):
                    h.update(
                        play(players, payment, team, seed, args.pack, seed < args.obs_games, args.modules)
                    )
                key = f"p{players}_{payment}_{team}"
                out[key] = h.hexdigest()[:16]
                if not args.json:
                    print(f"{key:24s} {out[key]}", flush=True)
    if args.json:
        print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
