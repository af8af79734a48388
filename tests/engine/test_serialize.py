"""JSON save/load (serialize.py, design decision 3) and the illegal-action contract of
``apply_action``: an illegal move raises IllegalActionError naming it and changes nothing."""

from __future__ import annotations

import json
import random
import re

import pytest

from bbom_env.engine import GameConfig, IllegalActionError, from_json, move_to_string, new_game, replay
from bbom_env.engine.core.moves import NUM_BASE_MOVES
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.serialize import FORMAT, to_dict

CONFIGS = [
    GameConfig(num_players=2, pack="test", seed=21, payment="manual"),
    GameConfig(num_players=4, pack="test", seed=22, mode="fear", difficulty=2),
    GameConfig(
        num_players=5, pack="test", seed=23, mode="nightmare", difficulty=3, skip_forced_decisions=False
    ),
    GameConfig(
        num_players=3,
        pack="test",
        seed=24,
        final_win_timing="invocation_check",
        neutralized_curse_release="start_of_next_turn",
        destroyed_curse_destination="out",
        arrival_effect_after_placement=False,
        irreducible_payments=False,
        reward_optional=False,
    ),
]


def _ids(c: GameConfig) -> str:
    return f"{c.num_players}p-{c.mode}-{c.payment}-seed{c.seed}"


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_json_round_trip_at_every_decision(config: GameConfig) -> None:
    rng = random.Random(config.seed)
    state = new_game(config)
    steps = 0
    while not state.over:
        text = state.to_json()
        back = from_json(text)
        assert back == state
        assert back.to_json() == text  # stable: save(load(save)) == save
        assert back.legal_actions() == state.legal_actions()
        assert back.current_player() == state.current_player()
        legal = state.legal_actions()
        move = legal[rng.randrange(len(legal))]
        state.apply_action(move)
        back.apply_action(move)  # the restored game continues identically
        assert back == state
        steps += 1
    assert steps > 20
    end = from_json(state.to_json())
    assert end == state and end.is_terminal() and end.legal_actions() == [] and end.current_player() == -1
    assert end.returns() == state.returns()


def test_json_is_plain_json_with_a_format_tag() -> None:
    state = new_game(GameConfig(num_players=3, pack="test", seed=5))
    data = json.loads(state.to_json())
    assert data["format"] == FORMAT
    assert data == json.loads(json.dumps(to_dict(state)))  # nothing outside JSON types
    assert data["config"] == state.config.to_dict()


def test_wrong_format_is_refused() -> None:
    data = json.loads(new_game(GameConfig(pack="test")).to_json())
    data["format"] = "something-else/9"
    with pytest.raises(ValueError, match="not a saved bbom state"):
        from_json(json.dumps(data))


def test_replay_reproduces_a_game() -> None:
    config = CONFIGS[1]
    rng = random.Random(3)
    state = new_game(config)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert replay(config, state.history) == state


# -- illegal actions ---------------------------------------------------------------------------


def _midgame(payment: str = "auto") -> GameState:
    state = new_game(GameConfig(num_players=3, pack="test", seed=31, payment=payment))
    rng = random.Random(31)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert not state.over
    return state


def _illegal_moves(state: GameState) -> list:
    legal = set(state.legal_actions())
    inside = [m for m in range(NUM_BASE_MOVES) if m not in legal]
    return [inside[0], inside[len(inside) // 2], inside[-1], -1, NUM_BASE_MOVES, 10**6, "END", None, 2.5]


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_illegal_action_raises_and_leaves_state_unchanged(payment: str) -> None:
    state = _midgame(payment)
    before = to_dict(state)
    legal = list(state.legal_actions())
    for move in _illegal_moves(state):
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(move)
        msg = str(err.value)
        assert f"illegal action {move!r}" in msg
        assert "pending decision" in msg and f"by player {state.current_player()}" in msg
        assert to_dict(state) == before
        assert state.legal_actions() == legal
    # Still playable afterwards, and identical to a game that never saw the illegal moves.
    state.apply_action(legal[0])
    twin = replay(state.config, state.history)
    assert twin == state


def test_illegal_action_message_names_the_move() -> None:
    state = _midgame()
    move = next(m for m in range(NUM_BASE_MOVES) if m not in state.legal_actions())
    with pytest.raises(IllegalActionError, match=re.escape(f"({move_to_string(move)})")):
        state.apply_action(move)


def test_no_action_is_legal_once_the_game_is_over() -> None:
    state = new_game(GameConfig(num_players=2, pack="test", seed=8))
    rng = random.Random(8)
    while not state.over:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    before = to_dict(state)
    with pytest.raises(IllegalActionError, match="none \\(game over\\)"):
        state.apply_action(0)
    assert to_dict(state) == before


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, ValueError)
