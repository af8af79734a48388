"""Team rewards (bbom_env.rl.rewards): outcome, shaping terms from engine statistics, validation."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.zones import end_game
from bbom_env.rl.rewards import STAT_OF, RewardConfig, RewardTracker


def play(tracker: RewardTracker, seed: int, players: int = 2) -> tuple[GameState, list[float], dict]:
    state = new_game(GameConfig(pack="test", num_players=players, seed=seed))
    tracker.reset(state)
    start = dict(state.stats)
    rng = random.Random(seed)
    rewards = []
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        rewards.append(tracker.step(state))
    return state, rewards, start


def test_default_reward_is_the_game_result() -> None:
    for seed in range(4):
        state, rewards, _ = play(RewardTracker(), seed)
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == state.returns()[0] == -1.0  # random teams lose on the test pack


def test_win_and_configured_values_paid_once() -> None:
    state = new_game(GameConfig(pack="test", seed=0))
    tracker = RewardTracker(RewardConfig(win=5, loss=-3))
    tracker.reset(state)
    assert tracker.step(state) == 0.0
    end_game(state, "win", "test")
    assert tracker.step(state) == 5.0
    assert tracker.step(state) == 0.0  # the outcome is paid on one step only
    lost = new_game(GameConfig(pack="test", seed=0))
    tracker.reset(lost)
    end_game(lost, "loss", "test")
    assert tracker.step(lost) == -3.0


@pytest.mark.parametrize("field", sorted(STAT_OF))
def test_each_shaping_term_counts_its_statistic(field: str) -> None:
    weight = 0.25
    for seed in range(3):
        state, rewards, start = play(RewardTracker({field: weight}), seed, players=3)
        key = STAT_OF[field]
        delta = state.stats.get(key, 0) - start.get(key, 0)
        assert sum(rewards) == pytest.approx(-1.0 + weight * delta)


def test_shaping_combines_and_is_per_step() -> None:
    cfg = RewardConfig(curse_destroyed=0.1, madness_received=-0.05, madness_cured=0.02)
    tracker = RewardTracker(cfg)
    state = new_game(GameConfig(pack="test", num_players=2, seed=7))
    tracker.reset(state)
    rng = random.Random(7)
    seen_nonzero = False
    while not state.is_terminal():
        before = dict(state.stats)
        state.apply_action(rng.choice(state.legal_actions()))
        r = tracker.step(state)
        expected = sum(
            getattr(cfg, f) * (state.stats.get(k, 0) - before.get(k, 0)) for f, k in STAT_OF.items()
        )
        if state.over:
            expected += cfg.loss if state.outcome == "loss" else cfg.win
        assert r == pytest.approx(expected)
        seen_nonzero |= r != 0.0 and not state.over
    assert seen_nonzero


def test_events_before_the_first_decision_are_not_rewarded() -> None:
    state = new_game(GameConfig(pack="test", seed=4))
    assert state.stats.get("madness_received", 0) > 0  # the opening Monster phase dealt Madness
    tracker = RewardTracker({"madness_received": -1.0})
    tracker.reset(state)
    assert tracker.step(state) == 0.0


def test_coerce_and_validation() -> None:
    assert RewardConfig.coerce(None) == RewardConfig()
    assert RewardConfig.coerce({"win": 2}).win == 2.0
    cfg = RewardConfig(loss=-2)
    assert RewardConfig.coerce(cfg) is cfg and isinstance(cfg.loss, float)
    assert RewardConfig().shaping == ()
    assert RewardConfig(madness_cured=0.1).shaping == (("madness_cured", 0.1),)
    assert RewardConfig.coerce(cfg.to_dict()) == cfg
    with pytest.raises(TypeError, match="unknown RewardConfig field.*wins"):
        RewardConfig.coerce({"wins": 1})
    with pytest.raises(TypeError, match="must be a number"):
        RewardConfig(win="1")
    with pytest.raises(TypeError, match="must be a number"):
        RewardConfig(win=True)
    with pytest.raises(TypeError, match="RewardConfig, a dict or None"):
        RewardConfig.coerce(1.0)


@pytest.mark.parametrize("field", sorted(STAT_OF))
def test_each_term_reads_its_own_statistic(field: str) -> None:
    # Direct check, also for events random play rarely produces (Monsters defeated).
    state = new_game(GameConfig(pack="test", seed=0))
    tracker = RewardTracker({f: (0.5 if f == field else 100.0) for f in STAT_OF})
    tracker.reset(state)
    state.stat(STAT_OF[field], 2)
    assert tracker.step(state) == 1.0
    assert tracker.step(state) == 0.0
