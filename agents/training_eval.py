"""Evaluation inside a training run: the periodic evaluation of the live model (metrics.csv, best
model) and the final table of the run (results.json / results.md).

Games are played through the engine, not the Gymnasium env: the same deals for every team (game i
uses ``GameConfig(seed=base + i)``; a scripted team is seeded with the same number), so the
comparisons are paired. A game that reaches ``env.max_steps`` decisions is cut off, counted as not
won and reported in ``truncated`` (a policy may loop inside the Action phase; the env truncates
there too).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from bbom_env.engine import GameConfig

from .evaluate import GameResult, play_game, wilson

METRIC_FIELDS = [
    "timesteps",
    "wall_s",
    "eval_games",
    "eval_win_rate",
    "eval_win_lo",
    "eval_win_hi",
    "eval_monsters",
    "eval_curses",
    "eval_madness",
    "eval_decisions",
    "train_episodes",
    "train_ep_return",
    "train_ep_len",
    "train_win_rate",
]


def figures(results: list[GameResult]) -> dict[str, Any]:
    """Summary figures of a team's games (win rate with its Wilson interval, means per game)."""
    n = len(results)
    g = max(1, n)
    wins = sum(r.win for r in results)
    lo, hi = wilson(wins, n)
    return {
        "games": n,
        "wins": wins,
        "win_rate": wins / g,
        "win_lo": lo,
        "win_hi": hi,
        "monsters": sum(r.monsters_defeated for r in results) / g,
        "curses": sum(r.curses_destroyed for r in results) / g,
        "madness": sum(r.madness_received for r in results) / g,
        "decisions": sum(r.decisions for r in results) / g,
        "truncated": sum(r.truncated for r in results),
    }


def play_games(make_agent: Any, game: dict, games: int, seed: int, max_decisions: int) -> dict[str, Any]:
    """Play ``games`` games with ``make_agent(game_seed)`` deciding for every seat; summary figures.
    In-process, for a live model (agents.evaluate plays saved models in worker processes)."""
    results = [
        play_game(GameConfig(**game, seed=seed + i), make_agent(seed + i), max_decisions, truncate=True)
        for i in range(games)
    ]
    return figures(results)


def evaluate_model(model: Any, cfg: Any, games: int, seed: int) -> dict[str, Any]:
    """The periodic evaluation of the live model: the ``eval_*`` fields of a metrics.csv row."""
    from .policy_agent import PolicyAgent

    agent = PolicyAgent(
        model, deterministic=cfg.evaluation.deterministic, observe_other_hands=cfg.env.observe_other_hands
    )
    was_training = model.policy.training
    res = play_games(lambda _s: agent, cfg.env.game, games, seed, cfg.env.max_steps)
    model.policy.set_training_mode(was_training)
    return {
        "eval_games": games,
        "eval_win_rate": round(res["win_rate"], 4),
        "eval_win_lo": round(res["win_lo"], 4),
        "eval_win_hi": round(res["win_hi"], 4),
        "eval_monsters": round(res["monsters"], 3),
        "eval_curses": round(res["curses"], 2),
        "eval_madness": round(res["madness"], 2),
        "eval_decisions": round(res["decisions"], 1),
    }


def final_table(run: Any, workers: int = 2) -> dict[str, Any]:
    """random, heuristic, the clone (imitation.zip), the best and the last model on the same deals
    (``agents.evaluate.play_games``, ``workers`` processes), each with its paired difference in win
    rate against the heuristic team; written to results.json and results.md in the run directory."""
    from .evaluate import paired_difference
    from .evaluate import play_games as play_teams

    cfg = run.cfg
    ev = cfg.evaluation
    labels = {"random": "random", "heuristic": "heuristic"}
    models = (("imitation.zip", "imitation"), ("best_model.zip", "ppo best"), ("model.zip", "ppo last"))
    for fname, label in models:
        if (run.dir / fname).is_file():
            labels[str(run.dir / fname)] = label
    t0 = time.perf_counter()
    per_team = play_teams(
        list(labels), ev.final_games, base_seed=ev.final_seed, workers=workers,
        deterministic=ev.deterministic, max_decisions=cfg.env.max_steps, config=dict(cfg.env.game),
    )  # fmt: skip
    heuristic = [r.win for r in per_team[1]]
    clone = dict(zip(labels.values(), per_team, strict=True)).get("imitation")
    rows = []
    for (spec, label), results in zip(labels.items(), per_team, strict=True):
        wins = [r.win for r in results]
        row = {
            "team": label,
            "model": spec if spec.endswith(".zip") else None,
            **figures(results),
            "vs_heuristic": list(paired_difference(wins, heuristic)),
            "vs_imitation": (
                list(paired_difference(wins, [r.win for r in clone]))
                if clone is not None and label.startswith("ppo")
                else None
            ),
        }
        lo, hi = row["win_lo"], row["win_hi"]
        rows.append(row)
        run.log(
            f"final {label:10s}: {100 * row['win_rate']:5.1f}% wins ({100 * lo:.1f}-{100 * hi:.1f}), "
            f"monsters {row['monsters']:.2f}, curses {row['curses']:.1f}"
        )
    imitation = run.dir / "imitation.json"
    table: dict[str, Any] = {
        "game": cfg.env.game,
        "games": ev.final_games,
        "first_seed": ev.final_seed,
        # The run's model is the last one: the best of many 100-game periodic evaluations is a
        # maximum of noisy figures (each +-10 points), biased up, and was measured to be no better
        # than the last on fresh deals (docs/training.md, "Which model the run reports").
        "chosen": "ppo last" if "ppo last" in labels.values() else None,
        "ppo_timesteps": run.state["timesteps"],
        "best_timesteps": run.state["best_timesteps"],
        "train_wall_s": round(run.wall_s, 1),
        "final_eval_s": round(time.perf_counter() - t0, 1),
        "imitation": json.loads(imitation.read_text(encoding="utf-8")) if imitation.is_file() else None,
        "teams": rows,
    }
    for name, text in (("results.json", json.dumps(table, indent=1)), ("results.md", markdown(table))):
        tmp = run.dir / (name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, run.dir / name)
    return table


def markdown(results: dict[str, Any]) -> str:
    g = results["game"]
    desc = ", ".join(f"{k}={v}" for k, v in g.items())
    lines = [
        f"{results['games']} games per team on the same deals (seeds {results['first_seed']}.."
        f"{results['first_seed'] + results['games'] - 1}; {desc}); argmax play for trained teams.",
        "",
        "| team | win rate (95% CI) | vs heuristic, paired (95% CI) | vs the clone, paired (95% CI) "
        "| Monsters defeated | Curses destroyed | Madness received | decisions/game | truncated |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def diff(d: list[float] | None) -> str:
        return "" if d is None else f"{100 * d[0]:+.1f} ({100 * d[1]:+.1f} to {100 * d[2]:+.1f})"

    for r in results["teams"]:
        chosen = " (the run's model)" if r["team"] == results.get("chosen") else ""
        lines.append(
            f"| {r['team']}{chosen} | {100 * r['win_rate']:.1f}% ({100 * r['win_lo']:.1f}-"
            f"{100 * r['win_hi']:.1f}) | {'' if r['team'] == 'heuristic' else diff(r['vs_heuristic'])} "
            f"| {diff(r.get('vs_imitation'))} | {r['monsters']:.2f} | {r['curses']:.1f} | {r['madness']:.1f} "
            f"| {r['decisions']:.0f} | {r['truncated']} |"
        )
    if results.get("chosen"):
        lines += [
            "",
            "The run's model is `model.zip` (ppo last). `best_model.zip` (ppo best) is the best of the "
            "periodic evaluations, shown for reference: a maximum of noisy figures, not a choice.",
        ]
    return "\n".join(lines) + "\n"
