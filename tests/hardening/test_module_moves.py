"""Bad moves in module games: at a decision that offers a module's move
(ACQUIRE_DARK_MATTER, the Black Book, MOVE_PHOBIA), an illegal id, a value that is not an int or
an id past the module set's layout is refused by ``apply_action``, the Gymnasium and the
PettingZoo steps and ``replay`` with the documented ``IllegalActionError`` / ``MoveTypeError``,
naming the value (decoded with the game's own layout) and the pending decision, the state
unchanged. Before, the message builder decoded the legal list with the base layout and raised
``ValueError: move id 321 is outside the layout (0..320)``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bbom_env
from bbom_env.engine import GameConfig, IllegalActionError, MoveTypeError, new_game, replay
from bbom_env.engine.core.moves import layout, move_to_string
from bbom_env.engine.core.state import GameState
from bbom_env.rl.aec_env import raw_env
from bbom_env.rl.gym_env import BBoMGymEnv

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True)
DM, PH, BOTH = ("dark_matter",), ("phobias",), ("dark_matter", "phobias")


def _kw(modules: tuple[str, ...]) -> dict[str, Any]:
    """Games whose first decisions offer a module move: with both modules the Water Magician who
    moves a Phobia (V-19) plays."""
    magicians = ("magician_vth_phobia", "magician_fire_m") if modules == BOTH else "random"
    return {"num_players": 2, "modules": modules, "magicians": magicians}


def _first_module_move(modules: tuple[str, ...]) -> int:
    """The first id of the game's module blocks wanted at the decision: Acquire Dark Matter, or the
    Phobia move with both modules; a Phobia-only game has no module move offered (its MOVE_PHOBIA
    needs the Dark Matter module's Magician), so any decision will do."""
    lay = layout(modules)
    return (
        lay.by_name["MOVE_PHOBIA" if modules == BOTH else "ACQUIRE_DARK_MATTER"].start
        if DM[0] in modules
        else -1
    )


def _actions(modules: tuple[str, ...], seed: int = 0) -> list[int]:
    """Seeded random moves from a new game to the first decision offering the module move."""
    state = new_game(GameConfig(seed=seed, **_kw(modules)))
    rng = random.Random(seed)
    want = _first_module_move(modules)
    while (want >= 0 and want not in state.legal_actions()) or (want < 0 and len(state.history) < 6):
        assert not state.over, f"no decision offering a module move in {modules}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state.history


PLAYED = {m: _actions(m) for m in (DM, PH, BOTH)}


def _state(modules: tuple[str, ...]) -> GameState:
    return replay(GameConfig(seed=0, **_kw(modules)), PLAYED[modules])


def _bad_values(state: GameState) -> list[Any]:
    legal = state.legal_actions()
    size = layout(state.config.modules).size
    illegal = next(a for a in range(5, size) if a not in legal)
    return [illegal, 1.5, size, -1, float(legal[-1]), "0", np.float32(legal[0])]


def _expect(state: GameState, value: Any) -> type[Exception]:
    return IllegalActionError if isinstance(value, int) else MoveTypeError


def _check_message(msg: str, state: GameState, value: Any) -> None:
    modules = state.config.modules
    assert f"illegal action {value!r} (" in msg, msg
    assert f"pending decision: {pending_text(state)}" in msg, msg
    want = _first_module_move(modules)
    if want >= 0:  # the module's move is named in the legal list, with the game's layout
        assert move_to_string(want, modules) in msg, msg
    if isinstance(value, int) and 0 <= value < layout(modules).size:
        assert f"({move_to_string(value, modules)})" in msg, msg
    elif isinstance(value, int):
        assert "(outside the layout)" in msg, msg


def pending_text(state: GameState) -> str:
    from bbom_env.engine.play.decision import describe

    return describe(state)


MODULE_SETS = pytest.mark.parametrize("modules", [DM, PH, BOTH], ids=["dark_matter", "phobias", "both"])


@MODULE_SETS
def test_apply_action_names_the_move_and_the_decision(modules: tuple[str, ...]) -> None:
    state = _state(modules)
    before = state.to_json()
    for value in _bad_values(state):
        with pytest.raises(_expect(state, value)) as err:
            state.apply_action(value)
        _check_message(str(err.value), state, value)
        assert state.to_json() == before
    state.apply_action(state.legal_actions()[-1])  # still playable


def test_a_module_id_is_named_with_the_module_layout() -> None:
    """A Phobia game's id 321 is MOVE_PHOBIA (not offered without the Dark Matter module's Water
    Magician), not "outside the layout" as the base layout would say."""
    state = _state(PH)
    assert 321 not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=r"^illegal action 321 \(MOVE_PHOBIA\); pending decision: "):
        state.apply_action(321)


@MODULE_SETS
def test_replay_names_the_index_the_move_and_the_decision(modules: tuple[str, ...]) -> None:
    config = GameConfig(seed=0, **_kw(modules))
    state = _state(modules)
    for value in _bad_values(state):
        with pytest.raises(_expect(state, value)) as err:
            replay(config, [*PLAYED[modules], value])
        msg = str(err.value)
        assert msg.startswith(f"replay: actions[{len(PLAYED[modules])}]: illegal action "), msg
        _check_message(msg, state, value)


def _gym(modules: tuple[str, ...]) -> BBoMGymEnv:
    env = BBoMGymEnv(**_kw(modules))
    env.reset(seed=0)
    for a in PLAYED[modules]:
        env.step(a)
    return env


@MODULE_SETS
def test_gym_step_names_the_move_and_the_decision(modules: tuple[str, ...]) -> None:
    env = _gym(modules)
    before = (env.state.to_json(), env._steps, env.action_masks().tobytes())
    for value in _bad_values(env.state):
        with pytest.raises(_expect(env.state, value)) as err:
            env.step(value)
        _check_message(str(err.value), env.state, value)
        assert (env.state.to_json(), env._steps, env.action_masks().tobytes()) == before


@MODULE_SETS
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "wrapped"])
def test_aec_step_names_the_move_and_the_decision(modules: tuple[str, ...], wrapped: bool) -> None:
    env = bbom_env.env(**_kw(modules)) if wrapped else raw_env(**_kw(modules))
    env.reset(seed=0)
    for a in PLAYED[modules]:
        env.step(a)
    game = env.unwrapped.game
    before = game.to_json()
    for value in _bad_values(game):
        with pytest.raises(IllegalActionError) as err:
            env.step(value)
        msg = str(err.value)
        assert "pending decision: " in msg and str(value)[:3] in msg, msg
        if not wrapped or (isinstance(value, int) and 0 <= value < layout(modules).size):
            _check_message(msg, game, value)  # the wrapper refuses what is out of its space itself
        assert game.to_json() == before


# -- property: any value, any module game ------------------------------------------------------

STATES = {m: _state(m) for m in (DM, PH, BOTH)}
N = layout(BOTH).size
values = st.one_of(
    st.integers(-3, N + 3),
    st.integers(),
    st.floats(allow_nan=True),
    st.integers(0, N).map(float),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.lists(st.integers(0, N), max_size=2),
    st.integers(0, N).map(np.float64),
    st.integers(0, N).map(np.int64),
)


@SETTINGS
@given(which=st.sampled_from([DM, PH, BOTH]), value=values)
def test_any_value_is_a_legal_move_or_refused_with_the_state_unchanged(
    which: tuple[str, ...], value: Any
) -> None:
    state = STATES[which].clone()
    legal = state.legal_actions()
    is_int = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if is_int and int(value) in legal:
        state.apply_action(value)
        assert state.history[-1] == int(value)
        return
    before = state.to_json()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(value)
    assert isinstance(err.value, MoveTypeError) == (not is_int)
    assert "pending decision: " in str(err.value)
    assert state.to_json() == before and state.legal_actions() == legal
