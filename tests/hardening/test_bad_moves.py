"""Bad moves at the engine's entry points (``GameState.apply_action``, ``replay``): every value that is
not a legal move id is refused with ``IllegalActionError`` (``MoveTypeError``, also a TypeError, for a
value that is not an integer), the message names the value and the pending decision, and the state is
exactly as it was. An integer given as a numpy integer is a move, stored as a plain int."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bbom_env.engine import (
    GameConfig,
    IllegalActionError,
    MoveTypeError,
    from_json,
    new_game,
    pending,
    replay,
)
from bbom_env.engine.core.moves import NUM_BASE_MOVES
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.serialize import to_dict

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)
NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
NUMPY_OTHERS = (np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_, np.str_, np.bytes_)


def _played(config: GameConfig, seed: int, steps: int) -> GameState:
    state = new_game(config)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert not state.over
    return state


def _at(config: GameConfig, kind: str, skip: int = 0) -> GameState:
    """Seeded random play to the first decision of ``kind`` after ``skip`` decisions."""
    state = new_game(config)
    rng = random.Random(config.seed)
    while len(state.history) < skip or pending(state).kind != kind:
        assert not state.over, f"no {kind} decision in {config}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


# Decisions of different kinds and owners: the Action menu, a manual payment, an effect's choice.
STATES = [
    _at(GameConfig(num_players=3, seed=5), "action", skip=30),
    _at(GameConfig(num_players=2, pack="test", seed=6, payment="manual"), "payment", skip=20),
    _at(GameConfig(num_players=4, seed=7), "discard", skip=10),
]


# Values that are never a move: no int and no numpy integer (an integral float is no exception).
not_ints = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, NUM_BASE_MOVES).map(float),
    st.text(max_size=5),
    st.integers(0, NUM_BASE_MOVES).map(str),
    st.none(),
    st.booleans(),
    st.binary(max_size=3),
    st.lists(st.integers(0, NUM_BASE_MOVES), max_size=3),
    st.tuples(st.integers(0, NUM_BASE_MOVES)),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.complex_numbers(max_magnitude=1e3),
    st.builds(lambda t, v: t(v), st.sampled_from(NUMPY_OTHERS), st.integers(0, NUM_BASE_MOVES)),
    st.integers(0, NUM_BASE_MOVES).map(np.array),  # arrays (of shape ()) are not moves for the engine
    st.integers(0, NUM_BASE_MOVES).map(lambda v: np.array([v])),
)
# Integers of every kind and size: a move when legal, IllegalActionError otherwise.
any_ints = st.one_of(
    st.integers(-5, NUM_BASE_MOVES + 5),
    st.integers(),
    st.integers(min_value=2**63),
    st.builds(
        lambda t, v: t(v % (np.iinfo(t).max + 1)), st.sampled_from(NUMPY_INTS), st.integers(0, NUM_BASE_MOVES)
    ),
)


def _check_refused(state: GameState, value: Any, kind: type[Exception]) -> None:
    before = to_dict(state)
    legal = list(state.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(value)
    assert isinstance(err.value, kind), (value, type(err.value))
    msg = str(err.value)
    assert msg.startswith("illegal action ") and "pending decision: " in msg, msg
    assert f"by player {state.current_player()}" in msg, msg
    assert to_dict(state) == before and state.legal_actions() == legal


@SETTINGS
@given(which=st.sampled_from(range(len(STATES))), value=not_ints)
def test_non_integers_are_refused_with_a_type_error(which: int, value: Any) -> None:
    state = STATES[which].clone()
    _check_refused(state, value, MoveTypeError)
    assert isinstance(MoveTypeError("x"), TypeError)


@SETTINGS
@given(which=st.sampled_from(range(len(STATES))), value=any_ints)
def test_integers_are_moves_when_legal_and_refused_otherwise(which: int, value: Any) -> None:
    state = STATES[which].clone()
    if int(value) not in state.legal_actions():
        _check_refused(state, value, IllegalActionError)
        return
    twin = state.clone()
    state.apply_action(value)
    twin.apply_action(int(value))
    assert type(state.history[-1]) is int and state == twin
    assert from_json(state.to_json()) == state


@SETTINGS
@given(value=st.one_of(not_ints, st.integers(min_value=NUM_BASE_MOVES), st.integers(max_value=-1)))
def test_replay_refuses_a_bad_move_naming_its_index(value: Any) -> None:
    config = GameConfig(num_players=2, pack="test", seed=3)
    good = _played(config, 3, 12).history
    at = len(good) // 2
    with pytest.raises(IllegalActionError) as err:
        replay(config, good[:at] + [value] + good[at:])
    assert str(err.value).startswith(f"replay: actions[{at}]: illegal action ")
    assert isinstance(err.value, MoveTypeError) == (type(value) is not int)


def test_replay_refuses_what_is_not_a_config_or_a_move_list() -> None:
    config = GameConfig(pack="test")
    for actions in (None, 5, 2.0, "0 1 2", b"\x00"):
        with pytest.raises(TypeError, match="replay: actions must be a sequence of move ids"):
            replay(config, actions)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="replay: config must be a GameConfig"):
        replay({"pack": "test"}, [])  # type: ignore[arg-type]
    assert replay(config, (a for a in [])) == new_game(config)  # any iterable of moves


def test_integral_float_of_a_legal_move_is_refused_and_the_game_goes_on() -> None:
    """The issue's example: 289 legal, 289.0 passed the `in legal` test and broke the game (any
    legal move but END shows it: the games of the default pack change with its content)."""
    state = _played(GameConfig(num_players=2, seed=0), 0, 6)
    move = state.legal_actions()[-1]
    assert move > 0
    before = state.to_json()
    with pytest.raises(
        TypeError, match=rf"illegal action {move}\.0 \(not a move id: moves are ints, got float\)"
    ):
        state.apply_action(float(move))  # type: ignore[arg-type]
    assert state.to_json() == before and state.current_player() >= 0
    state.apply_action(move)
    assert not state.over and state.current_player() >= 0 and state.legal_actions()


def test_numpy_move_is_stored_as_int_and_saves() -> None:
    state = _played(GameConfig(num_players=2, seed=1), 1, 5)
    state.apply_action(np.int64(state.legal_actions()[0]))  # type: ignore[arg-type]
    assert type(state.history[-1]) is int
    assert json.loads(state.to_json())["history"] == state.history
    assert from_json(state.to_json()) == state


def test_bool_is_not_a_move() -> None:
    state = STATES[0].clone()
    assert 0 in state.legal_actions()  # END: False == 0 would pass an `in legal` test
    before = state.to_json()
    with pytest.raises(MoveTypeError, match="got bool"):
        state.apply_action(False)
    assert state.to_json() == before
