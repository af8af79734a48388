"""Small things a new user meets (one test or more each): the same figure in every tool, option
names shared by the training scripts, relative RLlib paths, quiet JSON, progress and figures in
the scripts, the named reward presets, the typing marker."""

from __future__ import annotations

import io
import re
from pathlib import Path

from agents import HeuristicAgent
from agents.evaluate import play_game
from bbom_env.engine import GameConfig

ROOT = Path(__file__).resolve().parents[2]


def test_play_and_evaluate_count_the_same_monsters() -> None:
    """The last Monster of a won game is defeated (vanquishing it wins): the play summary and
    agents.evaluate both count it."""
    from bbom_env.play import main as play

    won = lost = None
    for seed in range(12):
        result = play_game(GameConfig(seed=seed), HeuristicAgent(seed))
        if result.win and won is None:
            won = (seed, result)
        if not result.win and lost is None:
            lost = (seed, result)
    assert won is not None and lost is not None
    for seed, result in (won, lost):
        out = io.StringIO()
        assert play(["--watch", "--agents", "heuristic", "--seed", str(seed)], out=out) == 0
        shown = int(re.search(r"^Monsters defeated: (\d+)$", out.getvalue(), re.M).group(1))  # type: ignore[union-attr]
        assert shown == result.monsters_defeated
    # the Bonus rounds, and the last Monster of a won game
    seed, result = won
    state = _final_state(seed)
    assert result.monsters_defeated == state.stats["monsters_defeated"] + 1


def _final_state(seed: int):  # type: ignore[no-untyped-def]
    from bbom_env.engine import new_game

    state = new_game(GameConfig(seed=seed))
    agent = HeuristicAgent(seed)
    while not state.is_terminal():
        state.apply_action(agent.act(state))
    return state
