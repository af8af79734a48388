"""Team rewards (bbom_env.rl.rewards): outcome, shaping terms from engine statistics, validation."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.play.zones import end_game
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
    with pytest.raises(TypeError, match=r"RewardConfig, a dict, a preset name \(outcome, shaped\) or None"):
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


def test_potential_terms_telescope_to_nothing_over_a_game() -> None:
    """Undiscounted potential-based shaping sums to -phi(s_0) = 0 over any game (phi is 0 at the
    end), while paying along the way when Curses fall."""
    cfg = RewardConfig(potential_curse_destroyed=0.5, potential_monster_defeated=2.0, loss=0.0)
    for seed in range(4):
        state, rewards, start = play(RewardTracker(cfg), seed)
        assert state.over
        phi0 = 0.5 * start.get("curses_destroyed", 0) + 2.0 * start.get("monsters_defeated", 0)
        assert sum(rewards) == pytest.approx(-phi0 + (cfg.win if state.outcome == "win" else 0.0))
        if state.stats.get("curses_destroyed", 0) > start.get("curses_destroyed", 0):
            assert max(rewards[:-1]) == pytest.approx(0.5)  # a Curse destroyed pays at once


def test_discounted_potential_matches_its_formula() -> None:
    """With gamma < 1 each step pays gamma * phi(s') - phi(s), recomputed here from the stats."""
    gamma = 0.9
    cfg = RewardConfig(potential_curse_destroyed=1.0, potential_madness_received=-0.25, gamma=gamma)
    tracker = RewardTracker(cfg)
    state = new_game(GameConfig(pack="test", seed=3))
    tracker.reset(state)
    rng = random.Random(3)

    def phi(s: GameState) -> float:
        stats = s.stats
        return 0.0 if s.over else stats.get("curses_destroyed", 0) - 0.25 * stats.get("madness_received", 0)

    before = phi(state)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        outcome = (cfg.win if state.outcome == "win" else cfg.loss) if state.over else 0.0
        assert tracker.step(state) == pytest.approx(gamma * phi(state) - before + outcome)
        before = phi(state)


@pytest.mark.parametrize("gamma", [0.0, -0.5, 1.5, float("nan")])
def test_gamma_out_of_range_is_refused(gamma: float) -> None:
    with pytest.raises(ValueError, match="gamma"):
        RewardConfig(gamma=gamma)


@pytest.mark.parametrize("field", ["win", "potential_curse_destroyed", "madness_received"])
def test_non_finite_weights_are_refused(field: str) -> None:
    with pytest.raises(ValueError, match=f"RewardConfig.{field}=inf must be a finite number"):
        RewardConfig(**{field: float("inf")})
