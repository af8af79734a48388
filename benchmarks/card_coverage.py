"""Card-effect coverage of playouts: which card effects resolve in real games.

Usage: ``python benchmarks/card_coverage.py [--games N] [--pack default|test] [--seed S]
[--team random|heuristic]``

Games sweep 2-5 players, the 3 difficulty levels and both payment modes. A card effect counts as
exercised when the engine's event log shows it resolving: "activate" (Spell effects),
"curse_triggers" (Curse effects), "monster" (Monster arrivals), "bonus" / "failure" (Grimoire
pages), "ability" (Magician activated abilities); Magician triggers are seen through
``hooks.triggers`` (they leave no log event), passive Magician abilities count when the Magician
plays, and the End page when a game reaches the end of round 6. The players pick uniformly among
the legal moves, except that they end their Action phase (END) or cancel a payment only 1 time in
10 when something else is legal, and take an affordable Destroy a Curse Action 7 times in 10, so
that games reach later Monsters and some rounds end with every Curse destroyed (Bonus). That
biased random team (``--team random``, the default) almost never wins a round's Bonus late in the
game; ``--team heuristic`` plays the scripted team of agents/heuristic_agent.py instead (seeded with
the game's seed), which reaches Bonus pages and later Monsters but learns only the Spells it values.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.heuristic_agent import HeuristicAgent  # noqa: E402
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, load_pack, new_game
from bbom_env.engine.cards.pack import Pack  # noqa: E402
from bbom_env.engine.core import moves as M  # noqa: E402
from bbom_env.engine.modifiers import hooks  # noqa: E402

MAX_MOVES = 3000
TEAMS = ("random", "heuristic")


def effect_units(pack: Pack) -> dict[str, list[str]]:
    """card id -> the effect parts that can be exercised (a card is covered when all are)."""
    out: dict[str, list[str]] = {}
    for sid in pack.spells:
        out[sid] = ["effect"]
    for cid in pack.curses:
        out[cid] = ["effect"]
    for pid, page in pack.pages.items():
        parts = [p for p in ("arrival", "bonus", "failure") if pack.effects.get((pid, p))]
        out[pid] = parts or (["final"] if page.kind == "end" else ["placement"])
    for mid, mag in pack.magicians.items():
        parts = ["activated"] if mag.activated else []
        parts += [f"trigger{i}" for i, m in enumerate(mag.mods) if m["kind"] == "trigger"]
        if any(m["kind"] != "trigger" for m in mag.mods):
            parts.append("passive")
        out[mid] = parts
    return out


def _units_from_log(state, seen: Counter) -> None:
    for ev in state.log:
        kind = ev[1]
        if kind == "activate":
            seen[(ev[3], "effect")] += 1
        elif kind == "curse_triggers":
            seen[(ev[2], "effect")] += 1
        elif kind == "monster":
            seen[(ev[3], "arrival")] += 1
            seen[(ev[3], "placement")] += 1
        elif kind in ("bonus", "failure"):
            seen[(ev[2], kind)] += 1
        elif kind == "ability":
            seen[(ev[3], "activated")] += 1
        elif kind == "setup":
            for mid in ev[2]:
                seen[(mid, "passive")] += 1
    if state.round == 6 and state.marker == 0 and state.over:  # the End page resolved
        seen[(state.grimoire[-1], "final")] += 1


def choose(state, rng: random.Random) -> int:
    legal = state.legal_actions()
    top = state.stack[-1]
    if len(legal) > 1 and rng.random() > 0.1:
        if top["kind"] == "menu":
            destroy = [a for a in legal if M.DESTROY_CURSE <= a < M.CURE_HAND]
            legal = destroy if destroy and rng.random() < 0.7 else [a for a in legal if a != M.END]
        elif top["kind"] == "pay":
            legal = [a for a in legal if a != M.PAY_CANCEL]
    return legal[rng.randrange(len(legal))]


def configs(games: int, pack: str, seed: int) -> list[GameConfig]:
    out = []
    for g in range(games):
        out.append(
            GameConfig(
                num_players=2 + g % 4,
                difficulty=1 + (g // 4) % 3,
                payment=("auto", "manual")[(g // 12) % 2],
                pack=pack,
                seed=seed + g,
            )
        )
    return out


def sweep(games: int = 48, pack: str = "default", seed: int = 0, team: str = "random") -> dict:
    """Play the sweep with ``team`` ("random": the biased random players of ``choose``;
    "heuristic": agents.heuristic_agent); return {units, seen, covered cards, rounds reached, wins}."""
    if team not in TEAMS:
        raise ValueError(f"unknown team {team!r}; known: {list(TEAMS)}")
    p = load_pack(pack)
    seen: Counter = Counter()
    real_triggers = hooks.triggers

    def watched(state, player, event):
        found = real_triggers(state, player, event)
        for src, part in found:
            seen[(src, part)] += 1
        return found

    hooks.triggers = watched
    rounds: Counter = Counter()
    wins = 0
    try:
        for cfg in configs(games, pack, seed):
            rng = random.Random(cfg.seed)
            agent = HeuristicAgent(cfg.seed) if team == "heuristic" else None
            state = new_game(cfg)
            for _ in range(MAX_MOVES):
                if state.is_terminal():
                    break
                state.apply_action(agent.act(state) if agent else choose(state, rng))
            _units_from_log(state, seen)
            rounds[state.round] += 1
            wins += state.outcome == "win"
    finally:
        hooks.triggers = real_triggers
    units = effect_units(p)
    covered = [cid for cid, parts in units.items() if all(seen[(cid, part)] for part in parts)]
    missing = [(cid, part) for cid, parts in sorted(units.items()) for part in parts if not seen[(cid, part)]]
    n_units = sum(len(v) for v in units.values())
    return {
        "cards": len(units),
        "covered_cards": covered,
        "units": n_units,
        "missing_units": missing,
        "card_share": len(covered) / len(units),
        "unit_share": 1 - len(missing) / n_units,
        "rounds": dict(sorted(rounds.items())),
        "wins": wins,
        "seen": seen,
    }


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchmarks/card_coverage.py",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 2)[2],
    )
    ap.add_argument(
        "--games",
        type=cli.int_range(1, 1_000_000),
        default=96,
        help="games to play, 1..1000000 (default 96; a multiple of 24 covers every setting equally)",
    )
    ap.add_argument("--pack", type=cli.pack, default="default", help=f"{cli.PACK_HELP} (default: default)")
    ap.add_argument(
        "--seed", type=cli.int_range(0, 2**31 - 1), default=0, help="seed of game 0; game i uses seed+i"
    )
    ap.add_argument("--team", choices=TEAMS, default="random", help="who plays (default: biased random)")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    t = time.perf_counter()
    r = sweep(args.games, args.pack, args.seed, args.team)
    dt = time.perf_counter() - t
    covered, parts = len(r["covered_cards"]), r["units"] - len(r["missing_units"])
    print(
        f"pack {args.pack}, team {args.team}: {args.games} games in {dt:.1f} s; last round: {r['rounds']}; "
        f"wins {r['wins']}"
    )
    print(f"cards with every effect exercised: {covered}/{r['cards']} = {r['card_share']:.1%}")
    print(f"effect parts exercised: {parts}/{r['units']} = {r['unit_share']:.1%}")
    if r["missing_units"]:
        print("never exercised:")
        for cid, part in r["missing_units"]:
            print(f"  {cid} ({part})")


if __name__ == "__main__":
    sys.exit(cli.run(main))
