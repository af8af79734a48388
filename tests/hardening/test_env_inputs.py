"""Bad inputs at the RL environments: the Gymnasium env's ``step`` and the PettingZoo AEC env's
``step`` / ``observe`` / ``last`` / spaces. A value that is not an action is refused with an
``IllegalActionError`` (``MoveTypeError`` for a non-integer; ``ActionOutOfSpaceError`` from the
wrapped AEC env for anything outside ``Discrete(n)``) and the game, the step count and the mask stay
as they were; never ``int(0.9) == 0`` played as a move. An unknown agent name is a ValueError listing
the agents, and calls after every agent is done say so (RuntimeError)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bbom_env
from bbom_env.engine import IllegalActionError, MoveTypeError
from bbom_env.engine.core.moves import NUM_BASE_MOVES
from bbom_env.engine.play.zones import eliminate
from bbom_env.rl.aec_env import ActionOutOfSpaceError, raw_env
from bbom_env.rl.gym_env import BBoMGymEnv

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True)
N = NUM_BASE_MOVES
NUMPY_OTHERS = (np.float16, np.float32, np.float64, np.complex128, np.bool_, np.str_)

# Never an action: no int, no numpy integer, no integer array of shape ().
not_actions = st.one_of(
    st.floats(allow_nan=True),
    st.integers(0, N - 1).map(float),
    st.integers(0, N - 1).map(str),
    st.text(max_size=4),
    st.none(),
    st.booleans(),
    st.lists(st.integers(0, N - 1), min_size=1, max_size=2),
    st.builds(lambda t, v: t(v), st.sampled_from(NUMPY_OTHERS), st.integers(0, N - 1)),
    st.integers(0, N - 1).map(lambda v: np.array(float(v))),  # shape (), float dtype
    st.integers(0, N - 1).map(lambda v: np.array([v])),  # shape (1,)
    st.integers(0, N - 1).map(lambda v: np.array(v, dtype=object)),
)
AGENTS_NAMED = r"unknown agent .*the agents are \['player_0', 'player_1', 'player_2'\]"
# Integers outside the action space.
out_of_range = st.one_of(st.integers(max_value=-1), st.integers(min_value=N), st.integers(min_value=2**64))


def _gym() -> tuple[BBoMGymEnv, dict]:
    env = BBoMGymEnv(num_players=3)
    _, info = env.reset(seed=3)  # an Action menu where END (move 0) is legal (default pack v1)
    return env, info


def _gym_snapshot(env: BBoMGymEnv) -> tuple:
    return env.state.to_json(), env._steps, env.action_masks().tobytes()


@SETTINGS
@given(value=st.one_of(not_actions, out_of_range))
def test_gym_step_refuses_what_is_not_an_action(value: Any) -> None:
    env, info = _gym()
    before = _gym_snapshot(env)
    kind = IllegalActionError if type(value) is int else MoveTypeError
    with pytest.raises(kind, match=r"^illegal action .*pending decision: "):
        env.step(value)
    assert _gym_snapshot(env) == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # still playable


@pytest.mark.parametrize(
    "form", [int, np.int64, np.int32, np.uint16, np.array, lambda a: np.array(a, np.int16)]
)
def test_gym_step_takes_ints_numpy_ints_and_integer_arrays_of_shape_0(form: Any) -> None:
    env, info = _gym()
    legal = int(np.flatnonzero(info["action_mask"])[-1])
    env.step(form(legal))
    assert env.state.history == [legal] and type(env.state.history[0]) is int
    env.state.to_json()


def test_gym_step_refuses_a_fraction_and_a_digit_string() -> None:
    """The issue's examples: step(0.9) and step("0") were int()-ed into move 0 (END, legal here)."""
    env, info = _gym()
    assert info["action_mask"][0] == 1
    for value in (0.9, "0", 0.0, False):
        with pytest.raises(TypeError, match=f"illegal action {value!r} \\(not a move id"):
            env.step(value)
    assert env.state.history == [] and env._steps == 0


# -- PettingZoo AEC ----------------------------------------------------------------------------


def _aec(wrapped: bool) -> Any:
    env = bbom_env.env(num_players=3) if wrapped else raw_env(num_players=3)
    env.reset(seed=0)
    return env


def _aec_snapshot(env: Any) -> tuple:
    base = env.unwrapped
    return base.game.to_json(), base.agent_selection, dict(base._cumulative_rewards), base._steps


@SETTINGS
@given(value=st.one_of(not_actions, out_of_range), wrapped=st.booleans())
def test_aec_step_refuses_what_is_not_an_action(value: Any, wrapped: bool) -> None:
    env = _aec(wrapped)
    before = _aec_snapshot(env)
    with pytest.raises(IllegalActionError) as err:
        env.step(value)
    if not wrapped:
        assert isinstance(err.value, MoveTypeError if type(value) is not int else IllegalActionError)
    elif isinstance(value, bool):
        assert isinstance(err.value, MoveTypeError)  # Discrete.contains(True) holds; the engine refuses
    else:
        assert isinstance(err.value, ActionOutOfSpaceError) and isinstance(err.value, AssertionError)
    assert "pending decision" in str(err.value)
    assert _aec_snapshot(env) == before
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))  # still playable


@pytest.mark.parametrize("wrapped", [False, True])
def test_aec_takes_numpy_actions(wrapped: bool) -> None:
    env = _aec(wrapped)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.array(legal[0]))
    env.step(np.int64(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert [type(a) for a in env.unwrapped.game.history] == [int, int]


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("agent", ["player_9", "player_-1", "", 0, None, ("player_0",), ["player_0"]])
def test_unknown_agent_is_named_with_the_valid_ones(wrapped: bool, agent: Any) -> None:
    env = _aec(wrapped)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ValueError, match=AGENTS_NAMED):
            call(agent)


def test_raw_env_calls_before_reset_are_named() -> None:
    env = raw_env(num_players=2)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.state, env.last):
        with pytest.raises(RuntimeError, match="before reset"):
            call()


def _play_to_the_end(env: Any) -> None:
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("wrapped", [False, True])
def test_after_every_agent_is_done(wrapped: bool) -> None:
    env = bbom_env.env(pack="test", num_players=3) if wrapped else raw_env(pack="test", num_players=3)
    env.reset(seed=1)
    _play_to_the_end(env)
    assert env.agents == [] and env.unwrapped.game.over
    for agent in env.possible_agents:  # removed agents still observe: all-ones mask, as when done
        obs = env.observe(agent)
        assert obs["action_mask"].all() and obs in env.observation_space(agent)
    with pytest.raises(RuntimeError, match=r"last\(\) after the episode ended.*call reset\(\)"):
        env.last()
    if not wrapped:  # (the wrapper's OrderEnforcingWrapper only warns there, PettingZoo's choice)
        for action in (None, 0, 0.5):
            with pytest.raises(RuntimeError, match=r"step\(\) after the episode ended"):
                env.step(action)


@pytest.mark.parametrize("wrapped", [False, True])
def test_eliminated_agent_is_done_then_removed_and_observable(wrapped: bool) -> None:
    env = _aec(wrapped)
    game = env.unwrapped.game
    out = next(q for q in range(3) if q not in (game.current_player(), game.active))
    eliminate(game, out)  # section 5.4, as Recuperation does; the env sees it on the next step
    gone = f"player_{out}"
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.agent_selection == gone and env.terminations[gone]
    before = _aec_snapshot(env)
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(0)
    assert _aec_snapshot(env) == before
    if wrapped:
        with pytest.raises(ActionOutOfSpaceError, match="a done agent takes None"):
            env.step(0.5)
    env.step(None)
    assert gone not in env.agents and not game.over
    obs = env.observe(gone)
    assert obs["action_mask"].all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        obs, _, term, trunc, _ = env.last()  # the live decider
    assert not term and not trunc and obs["action_mask"].any() and not obs["action_mask"].all()


@pytest.mark.parametrize("bad", [0.9, "0", None, True, 1.0])
def test_penalty_wrapper_refuses_non_integers(bad: object) -> None:
    """The unmasked-baseline wrapper penalises illegal *moves*, but a value that is no move id is a
    caller bug: TypeError, and the game does not move (int(0.9) would have played move 0)."""
    from bbom_env.rl.wrappers import IllegalActionPenalty

    env = IllegalActionPenalty(BBoMGymEnv(pack="test"))
    env.reset(seed=0)
    before = env.unwrapped.game.to_json()
    with pytest.raises(TypeError, match="actions are integer ids"):
        env.step(bad)
    assert env.unwrapped.game.to_json() == before
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.int64(legal))  # numpy integers are moves


def test_penalty_wrapper_refuses_envs_it_cannot_drive() -> None:
    """The wrapper masks by move id (a Discrete space), and terminate=False switches a BBoMGymEnv to
    its own penalty mode: another env is refused at construction, naming what is wrong."""
    import gymnasium as gym

    from bbom_env.rl.wrappers import IllegalActionPenalty

    with pytest.raises(TypeError, match="Discrete action space"):
        IllegalActionPenalty(gym.make("Pendulum-v1"))  # a Box action space
    with pytest.raises(TypeError, match="the wrapped env is a CartPoleEnv"):
        IllegalActionPenalty(gym.make("CartPole-v1"), terminate=False)
    IllegalActionPenalty(gym.make("CartPole-v1"))  # terminate=True needs only the Discrete space
