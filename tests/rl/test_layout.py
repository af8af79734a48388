"""The RL action layout (bbom_env.rl.layout): size, masks, names, blocks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bbom_env.engine import GameConfig, GameState, decode, new_game, num_moves
from bbom_env.rl.layout import ActionLayout


def random_states(players: int, payment: str, seed: int) -> list[GameState]:
    """Every decision state of one random legal game (the terminal state included)."""
    state = new_game(GameConfig(pack="test", num_players=players, payment=payment, seed=seed))
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


def test_size_matches_engine_and_is_the_same_for_2_to_5_players() -> None:
    layouts = [ActionLayout(GameConfig(pack="test", num_players=n)) for n in (2, 3, 4, 5)]
    assert {lay.n for lay in layouts} == {num_moves(())}
    assert all(lay.table() == layouts[0].table() for lay in layouts)
    assert all(lay._names == layouts[0]._names for lay in layouts)


def test_blocks_tile_the_id_range_in_order() -> None:
    lay = ActionLayout(GameConfig(pack="test"))
    nxt = 0
    for name, start, size, arg in lay.table():
        assert start == nxt and size > 0 and arg
        assert decode(start).block == name and decode(start + size - 1).block == name
        nxt = start + size
    assert nxt == lay.n
    # block_of / arg_of agree with the engine's decoder for every id
    for a in range(lay.n):
        name = decode(a).block
        assert (
            lay.block_names[lay.block_of[a]] == name and lay.arg_of[a] == a - lay.table()[lay.block_of[a]][1]
        )


def test_every_id_has_a_distinct_name() -> None:
    lay = ActionLayout(GameConfig(pack="test"))
    names = [lay.action_to_string(a) for a in range(lay.n)]
    assert all(names) and len(set(names)) == lay.n
    assert lay.action_to_string(np.int64(0)) == "END"
    for bad in (-1, lay.n):
        with pytest.raises(ValueError, match="outside the layout"):
            lay.action_to_string(bad)


@pytest.mark.parametrize("payment", ["auto", "manual"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mask_is_exactly_the_legal_actions(players: int, payment: str) -> None:
    lay = ActionLayout(GameConfig(pack="test", num_players=players))
    states = random_states(players, payment, seed=players * 7 + (payment == "manual"))
    assert len(states) > 50
    for state in states:
        mask = lay.mask(state)
        assert mask.dtype == np.int8 and mask.shape == (lay.n,)
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        if not state.is_terminal():
            assert mask.any()  # never an all-zero mask for the acting seat
    assert not lay.mask(states[-1]).any()  # terminal: all zero (documented)
    assert set(np.unique(lay.mask(states[0]))) <= {0, 1}


def test_mask_returns_a_fresh_array() -> None:
    lay = ActionLayout(GameConfig(pack="test"))
    state = new_game(GameConfig(pack="test", seed=3))
    a = lay.mask(state)
    a[:] = 0
    assert lay.mask(state).any()
