"""The Gymnasium env's illegal-action mode (``illegal_action="raise"`` / ``"penalty"``), used by the
unmasked arms of benchmarks/masking.py (docs/masking.md)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bbom_env  # noqa: F401  (registers the env)
from bbom_env.engine import IllegalActionError
from bbom_env.rl.gym_env import DEFAULT_ILLEGAL_CAP, BBoMGymEnv
from bbom_env.rl.wrappers import IllegalActionPenalty


def _illegal(info: dict) -> int:
    return int(np.flatnonzero(info["action_mask"] == 0)[0])


def _legal(info: dict) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def test_raise_mode_is_the_default_and_unchanged() -> None:
    env = BBoMGymEnv(pack="test")
    assert env.illegal_action == "raise" and env.illegal is None
    _, info = env.reset(seed=0)
    assert "invalid_actions" not in info  # no new keys in the default mode
    before = env.state.to_json()
    with pytest.raises(IllegalActionError, match=r"illegal action .*pending decision"):
        env.step(_illegal(info))
    assert env.state.to_json() == before
    _, _, _, _, info = env.step(_legal(info))
    assert "illegal_action" not in info


@pytest.mark.parametrize("dict_obs", [False, True])
def test_penalty_mode_does_not_advance_the_game_and_counts(dict_obs: bool) -> None:
    env = BBoMGymEnv(pack="test", illegal_action="penalty", illegal_penalty=-0.25, dict_obs=dict_obs)
    obs, info = env.reset(seed=3)
    assert (info["invalid_actions"], info["invalid_in_decision"], info["illegal_action"]) == (0, 0, False)
    before, decision, player = env.state.to_json(), info["decision"], info["player"]
    bad = _illegal(info)
    for k in range(1, 4):
        o, r, term, trunc, inf = env.step(bad if k != 2 else 10_000)  # out of range is illegal too
        assert env.state.to_json() == before  # the game did not move
        assert (r, term, trunc) == (-0.25, False, False)
        assert (inf["illegal_action"], inf["invalid_actions"], inf["invalid_in_decision"]) == (True, k, k)
        assert (inf["decision"], inf["player"], inf["step"]) == (decision, player, k)
        got, want = (o["observation"], obs["observation"]) if dict_obs else (o, obs)
        assert np.array_equal(got, want) and got is not want
        assert np.array_equal(inf["action_mask"], info["action_mask"])
    _, r, _, _, inf = env.step(_legal(info))
    assert env.state.to_json() != before and r != -0.25
    # A legal move: the decision count restarts, the episode count stays.
    assert (inf["illegal_action"], inf["invalid_actions"], inf["invalid_in_decision"]) == (False, 3, 0)
    _, inf = env.reset(seed=3)
    assert (inf["invalid_actions"], inf["invalid_in_decision"]) == (0, 0)


def test_penalty_mode_plays_the_same_game_as_raise_mode_with_the_illegal_tries_removed() -> None:
    rng = np.random.default_rng(1)
    pen = BBoMGymEnv(pack="test", illegal_action="penalty", illegal_cap=None, max_steps=None)
    ref = BBoMGymEnv(pack="test", max_steps=None)
    _, info = pen.reset(seed=9)
    ref.reset(seed=9)
    done = False
    while not done:
        a = int(rng.integers(0, pen.action_space.n))  # unmasked uniform play: mostly illegal
        legal = bool(info["action_mask"][a])
        _, r, term, trunc, info = pen.step(a)
        if legal:
            _, r2, t2, _, _ = ref.step(a)
            assert (r, term) == (r2, t2)
        done = term or trunc
    assert pen.state == ref.state and ref.state.over
    assert info["invalid_actions"] > 0


def test_the_cap_truncates_the_episode_and_never_plays_for_the_agent() -> None:
    env = BBoMGymEnv(pack="test", illegal_action="penalty", illegal_cap=4)
    _, info = env.reset(seed=0)
    before = env.state.to_json()
    for k in range(1, 5):
        _, r, term, trunc, inf = env.step(_illegal(info))
        assert not term and trunc == (k == 4)
    assert inf["illegal_cap"] is True and inf["action_mask"].all() and env.action_masks().all()
    assert env.state.to_json() == before  # no legal move was swapped in
    with pytest.raises(RuntimeError, match="episode ended"):
        env.step(_legal(info))
    # The default cap, and a cap per decision (not per episode): 3 + legal + 3 never reaches 4.
    assert BBoMGymEnv(pack="test", illegal_action="penalty").illegal.cap == DEFAULT_ILLEGAL_CAP == 100
    _, info = env.reset(seed=0)
    for _ in range(2):
        for _ in range(3):
            _, _, _, trunc, info = env.step(_illegal(info))
            assert not trunc
        _, _, _, trunc, info = env.step(_legal(info))
        assert not trunc
    assert info["invalid_actions"] == 6


def test_step_limit_counts_illegal_attempts_on_both_paths() -> None:
    env = BBoMGymEnv(pack="test", illegal_action="penalty", max_steps=3)
    _, info = env.reset(seed=0)
    out = [env.step(_illegal(info)) for _ in range(3)]
    assert [o[3] for o in out] == [False, False, True] and out[-1][4]["illegal_cap"] is False
    made = gym.make("BigBookOfMadness-v2", pack="test", illegal_action="penalty", max_episode_steps=3)
    assert made.unwrapped.illegal_action == "penalty"  # the keyword goes through gym.make
    _, info = made.reset(seed=0)
    out = [made.step(_illegal(info)) for _ in range(3)]
    assert [o[3] for o in out] == [False, False, True]


def test_check_env_passes_in_penalty_mode(capsys: pytest.CaptureFixture[str]) -> None:
    for dict_obs in (False, True):
        made = gym.make(
            "BigBookOfMadness-v2",
            pack="test",
            illegal_action="penalty",
            dict_obs=dict_obs,
            render_mode="human",
        )
        env = made.unwrapped  # check_env steps with random unmasked ids: now penalised no-ops
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env)
    assert "decision:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"illegal_action": "ignore"}, r"illegal_action='ignore': expected one of \('raise', 'penalty'\)"),
        ({"illegal_action": None}, "illegal_action=None"),
        ({"illegal_penalty": float("nan")}, "illegal_penalty=nan must be a finite number"),
        ({"illegal_penalty": "1"}, "illegal_penalty='1'"),
        ({"illegal_cap": 0}, "illegal_cap=0 must be a positive int or None"),
        ({"illegal_cap": 2.5}, "illegal_cap=2.5"),
    ],
)
def test_bad_values_are_refused_by_name(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        BBoMGymEnv(pack="test", **kwargs)
    with pytest.raises(ValueError, match=match):
        gym.make("BigBookOfMadness-v2", pack="test", **kwargs)


@pytest.mark.parametrize("bad", [0.9, "0", None, True])
def test_non_integers_are_caller_bugs_in_penalty_mode(bad: object) -> None:
    env = BBoMGymEnv(pack="test", illegal_action="penalty")
    _, info = env.reset(seed=0)
    before = env.state.to_json()
    with pytest.raises(TypeError, match="actions are integer ids"):
        env.step(bad)
    assert env.state.to_json() == before and env.illegal.episode == 0


def test_penalty_wrapper_without_terminate_is_the_env_mode() -> None:
    env = IllegalActionPenalty(BBoMGymEnv(pack="test"), penalty=-0.5, terminate=False)
    assert env.unwrapped.illegal_action == "penalty" and env.unwrapped.illegal.cap is None
    _, info = env.reset(seed=0)
    _, r, term, trunc, inf = env.step(_illegal(info))
    assert (r, term, trunc, inf["illegal_action"], inf["invalid_actions"]) == (-0.5, False, False, True, 1)


def test_an_unknown_keyword_lists_the_illegal_action_options() -> None:
    """The Gymnasium env's error for a misspelt keyword names its own options, the illegal-action
    mode included; the AEC env (no such mode) does not offer them."""
    from bbom_env.rl.aec_env import raw_env

    with pytest.raises(TypeError, match=r"illegal_action, illegal_penalty, illegal_cap") as err:
        BBoMGymEnv(pack="test", ilegal_action="penalty")
    assert "['ilegal_action']" in str(err.value)
    with pytest.raises(TypeError) as err:
        raw_env(pack="test", illegal_action="penalty")
    assert "illegal_cap" not in str(err.value) and "['illegal_action']" in str(err.value)
