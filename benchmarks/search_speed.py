"""The search team's inner loop, timed: ``state.clone()``, ``resample`` (what a seat knows, once per
decision, then one draw per world), a heuristic rollout (split into the heuristic's ``act`` and the
engine's ``apply_action``), and the search's time per searched decision at each budget.

    python benchmarks/search_speed.py [--states N] [--budgets 1,2,4] [--decisions D] [--json]

The states are decision points of seeded heuristic games (2 players base game, 4 players base game,
2 players with both Vth Element modules), from round 2 on. Times are CPU seconds of this process
(``time.process_time``: steadier than wall time on a shared machine), per call. With ``--json``
the last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bbom_env  # noqa: E402,F401  (registers the modules)
from agents import HeuristicAgent  # noqa: E402
from agents.search import SearchAgent  # noqa: E402
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, GameState, Resampler, new_game  # noqa: E402

SETTINGS = {
    "2p": GameConfig(num_players=2, difficulty=1),
    "4p": GameConfig(num_players=4, difficulty=1),
    "2p+dark_matter+phobias": GameConfig(num_players=2, difficulty=1, modules=("dark_matter", "phobias")),
}


def states(config: GameConfig, n: int) -> list[GameState]:
    """``n`` Action menus of seeded heuristic games, from round 2 on (one in five)."""
    out: list[GameState] = []
    seed = 0
    while len(out) < n:
        s = new_game(config.replace(seed=seed))
        agent = HeuristicAgent(seed)
        k = 0
        while not s.is_terminal() and len(out) < n:
            if s.round >= 2 and s.stack[-1]["kind"] == "menu" and len(s.legal_actions()) > 1:
                k += 1
                if k % 5 == 0:
                    out.append(s.clone())
            s.apply_action(agent.act(s))
        seed += 1
    return out


def per_call(fn, reps: int) -> float:
    c0 = time.process_time()
    for _ in range(reps):
        fn()
    return (time.process_time() - c0) / reps


def rollout_split(states_: list[GameState]) -> dict[str, float]:
    """Heuristic play to the end from each state: CPU per decision in act and in apply_action."""
    act = apply = 0.0
    n = 0
    for st in states_:
        s = st.clone()
        agent = HeuristicAgent(0)
        while not s.over:
            c0 = time.process_time()
            m = agent.act(s)
            c1 = time.process_time()
            s.apply_action(m)
            c2 = time.process_time()
            act += c1 - c0
            apply += c2 - c1
            n += 1
    return {
        "rollout_decisions": n / len(states_),
        "act_ms": 1000 * act / n,
        "apply_ms": 1000 * apply / n,
        "rollout_ms": 1000 * (act + apply) / len(states_),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=cli.int_range(1), default=10, help="decision points per setting")
    ap.add_argument("--budgets", default="1,2,4", help="worlds per searched decision, comma-separated")
    ap.add_argument("--decisions", type=cli.int_range(1), default=3, help="searched decisions per budget")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    budgets = [int(b) for b in a.budgets.split(",")]
    out: dict[str, dict] = {}
    for name, config in SETTINGS.items():
        sts = states(config, a.states)
        row: dict[str, float] = {}
        row["clone_us"] = 1e6 * sum(per_call(s.clone, 200) for s in sts) / len(sts)
        row["resampler_us"] = (
            1e6 * sum(per_call(lambda s=s: Resampler(s, s.current_player()), 50) for s in sts) / len(sts)
        )
        rng = random.Random(0)
        samplers = [Resampler(s, s.current_player()) for s in sts]
        draws = [per_call(lambda r=r, g=rng: r.sample(g), 200) for r in samplers]
        row["sample_us"] = 1e6 * sum(draws) / len(sts)
        row["legal_moves"] = sum(len(s.legal_actions()) for s in sts) / len(sts)
        row.update(rollout_split(sts[: max(1, a.states // 2)]))
        for w in budgets:
            agent = SearchAgent(0, worlds=w)
            c0 = time.process_time()
            for s in sts[: a.decisions]:
                agent.act(s)
            row[f"search_s_worlds{w}"] = (time.process_time() - c0) / min(a.decisions, len(sts))
        out[name] = row
        print(name, " ".join(f"{k}={v:.4g}" for k, v in row.items()), flush=True)
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
