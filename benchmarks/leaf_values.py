"""Leaf values from a trained network's value head, measured against heuristic rollouts.

    python benchmarks/leaf_values.py [--leaf ppo_2p_l1] [--decisions 40] [--worlds 8]
                                     [--horizons 0,10,40] [--json]

The search team (``agents/search.py``) scores a candidate move by a heuristic rollout to the end of
the game. With ``leaf=NAME`` it cuts the rollout after ``horizon`` decisions and scores the rest
with a network's value head (``agents.value_net.leaf_value``). Whether that pays is measured here, on
Action menus of seeded heuristic games (2 players, level 1, from round 2 on, two drawn from each
game):

- **selection**: at each decision every candidate move is scored in ``--worlds`` worlds drawn from
  the decider's information set (common random numbers, as the search does) by full rollouts and by
  cut rollouts at each horizon; each scorer picks its best move. The picks are then judged in
  ``--worlds`` *other* worlds by full rollouts (the graded value of docs/search.md), so a scorer is
  not judged by its own noise. Reported: the mean judged value of each scorer's pick, and of the
  heuristic's own move, with the CPU seconds each scorer spent.
- **ranking**: the mean Spearman correlation, within a decision, between the candidates' full-rollout
  scores and each horizon's scores.
- **calibration**: across decisions, the value head's win estimate at the decision against the
  fraction of the heuristic move's full rollouts (both world sets) that won.

Times are CPU seconds of this process. With ``--json`` the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import bbom_env  # noqa: E402,F401  (registers the modules)
from agents import HeuristicAgent  # noqa: E402
from agents.search import SearchAgent  # noqa: E402
from agents.value_net import mean_ranks  # noqa: E402
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, GameState, Resampler, new_game  # noqa: E402


def states(config: GameConfig, n: int, per_game: int = 2, seed: int = 0) -> list[GameState]:
    """``n`` Action menus (two or more legal moves, from round 2 on) of seeded heuristic games
    (seeds 0, 1, ...), ``per_game`` of each game drawn at random: many games, so that the figures
    are not one game's."""
    rng = random.Random(seed)
    out: list[GameState] = []
    g = 0
    while len(out) < n:
        s = new_game(config.replace(seed=g))
        agent = HeuristicAgent(g)
        menus: list[GameState] = []
        while not s.is_terminal():
            if s.round >= 2 and s.stack[-1]["kind"] == "menu" and len(s.legal_actions()) > 1:
                menus.append(s.clone())
            s.apply_action(agent.act(s))
        out += rng.sample(menus, min(per_game, len(menus), n - len(out)))
        g += 1
    return out


def _spearman(a: list[float], b: list[float]) -> float | None:
    """Rank correlation (average ranks for ties); None when either side is constant."""
    ra, rb = mean_ranks(a), mean_ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return None
    return float(np.corrcoef(ra, rb)[0, 1])


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean difference and its standard error."""
    d = np.asarray(a) - np.asarray(b)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else 0.0


def measure(leaf: str, decisions: int, worlds: int, horizons: list[int], seed: int = 0) -> dict:
    config = GameConfig(num_players=2, difficulty=1)
    agent = SearchAgent(seed, leaf=leaf)
    assert agent.leaf is not None  # loaded now, so that no scorer's time counts the loading
    full_agent = SearchAgent(seed)
    rng = random.Random(seed)
    picks: dict[str, list[float]] = {"heuristic": [], "full": [], **{f"h{h}": [] for h in horizons}}
    cpu: dict[str, float] = {"full": 0.0, **{f"h{h}": 0.0 for h in horizons}}
    ranks: dict[str, list[float]] = {f"h{h}": [] for h in horizons}
    calib: list[tuple[float, float]] = []
    for state in states(config, decisions, seed=seed):
        seat = state.current_player()
        sampler = Resampler(state, seat)
        legal = state.legal_actions()
        draws = [
            (sampler.sample(random.Random(rng.getrandbits(64))), rng.getrandbits(32))
            for _ in range(2 * worlds)
        ]
        select, judge = draws[:worlds], draws[worlds:]
        prior = HeuristicAgent(select[0][1]).act(select[0][0].clone())
        scores: dict[str, dict[int, float]] = {}
        c0 = time.process_time()
        scores["full"] = {m: float(np.mean([full_agent._rollout(w, m, s) for w, s in select])) for m in legal}
        cpu["full"] += time.process_time() - c0
        for h in horizons:
            c0 = time.process_time()
            scores[f"h{h}"] = {
                m: float(np.mean([agent._rollout(w, m, s, h) for w, s in select])) for m in legal
            }
            cpu[f"h{h}"] += time.process_time() - c0
            r = _spearman([scores["full"][m] for m in legal], [scores[f"h{h}"][m] for m in legal])
            if r is not None:
                ranks[f"h{h}"].append(r)
        chosen = {"heuristic": prior}
        for name, sc in scores.items():
            best = max(sc.values())
            chosen[name] = prior if sc[prior] == best else min(m for m in legal if sc[m] == best)
        judged: dict[int, float] = {}
        for name, move in chosen.items():
            if move not in judged:
                judged[move] = float(np.mean([full_agent._rollout(w, move, s) for w, s in judge]))
            picks[name].append(judged[move])
        wins = [float(full_agent._rollout(w, prior, s) >= 1.0) for w, s in draws]
        calib.append((agent.leaf.win(state), float(np.mean(wins))))
    est, won = zip(*calib, strict=True)
    return {
        "leaf": leaf,
        "decisions": len(picks["full"]),
        "worlds": worlds,
        "judged_value": {k: float(np.mean(v)) for k, v in picks.items()},
        "judged_sem": {k: float(np.std(v) / np.sqrt(len(v))) for k, v in picks.items()},
        # Paired with the heuristic's own move on the same decisions and judging worlds.
        "vs_heuristic": {k: _paired(v, picks["heuristic"]) for k, v in picks.items() if k != "heuristic"},
        "cpu_s_per_decision": {k: v / max(1, len(picks["full"])) for k, v in cpu.items()},
        "spearman": {k: (float(np.mean(v)) if v else None) for k, v in ranks.items()},
        "calibration": {
            "pearson": float(np.corrcoef(est, won)[0, 1]) if np.std(est) and np.std(won) else None,
            "mean_estimate": float(np.mean(est)),
            "mean_won": float(np.mean(won)),
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--leaf", default="ppo_2p_l1", help="the value head: a pretrained policy's name or a model zip"
    )
    ap.add_argument("--decisions", type=cli.int_range(1), default=40, help="Action menus measured")
    ap.add_argument(
        "--worlds", type=cli.int_range(1), default=8, help="worlds to select with (as many judge)"
    )
    ap.add_argument("--horizons", default="0,10,40", help="decisions before the leaf, comma-separated")
    ap.add_argument("--seed", type=int, default=0, help="seed of the world draws")
    ap.add_argument("--json", action="store_true", help="print one JSON object, alone on stdout")
    a = ap.parse_args(argv)
    horizons = [int(h) for h in a.horizons.split(",")]
    with cli.json_stdout(a.json) as stdout:
        out = measure(a.leaf, a.decisions, a.worlds, horizons, a.seed)
        n, w = out["decisions"], out["worlds"]
        print(f"leaf {out['leaf']}: {n} Action menus, {w} worlds to select, as many to judge")
        print(
            f"{'scorer':<10} {'judged value':>15} {'vs heuristic':>17} {'CPU s/decision':>15} {'Spearman':>9}"
        )
        for k, v in out["judged_value"].items():
            c, r = out["cpu_s_per_decision"].get(k), out["spearman"].get(k)
            d = out["vs_heuristic"].get(k)
            diff = "-" if d is None else f"{d[0]:+.3f} ±{d[1]:.3f}"
            print(
                f"{k:<10} {v:>8.3f} ±{out['judged_sem'][k]:.3f} {diff:>17}"
                f" {'-' if c is None else f'{c:.2f}':>15} {'-' if r is None else f'{r:.2f}':>9}"
            )
        cal = out["calibration"]
        est, won = cal["mean_estimate"], cal["mean_won"]
        print(f"calibration: Pearson r {cal['pearson']}, mean estimate {est:.3f}, won {won:.3f}")
        if a.json:
            print(json.dumps(out), file=stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
