"""Text rendering of both envs: "human" prints on reset and after every step; after a step
the text says who did what (the seat, the move by name, the card it points at) and what it set off."""

from __future__ import annotations

import numpy as np
import pytest

import bbom_env
from bbom_env.engine import move_to_string
from bbom_env.engine.core.moves import BLOCKS
from bbom_env.rl.gym_env import BBoMGymEnv


def _learn_move(mask: np.ndarray) -> int:
    """A legal LEARN id (it points at the top card of a Library pile)."""
    block = BLOCKS["LEARN"]
    ids = [a for a in np.flatnonzero(mask) if block.start <= a < block.start + block.size]
    assert ids, "no LEARN legal at this state"
    return int(ids[0])


def test_human_prints_on_reset_and_names_seat_move_and_card(capsys: pytest.CaptureFixture[str]) -> None:
    env = BBoMGymEnv(pack="test", render_mode="human")
    _, info = env.reset(seed=0)
    assert capsys.readouterr().out.strip() == str(env.state)  # the board, before any move
    seat = env.state.current_player()
    action = _learn_move(info["action_mask"])
    card = env.state.library[action - BLOCKS["LEARN"].start][-1]
    name = env.state.pack.card_name(card)
    env.step(action)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"P{seat} played {move_to_string(action)} - {name}")
    assert any(f"P{seat} learns {name}" in line for line in lines[1:])  # what the move set off
    assert "\n".join(lines).endswith(str(env.state))


def test_ansi_returns_the_same_text_without_printing(capsys: pytest.CaptureFixture[str]) -> None:
    env = BBoMGymEnv(pack="test", render_mode="ansi")
    _, info = env.reset(seed=0)
    assert env.render() == str(env.state)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    text = env.render()
    assert text.startswith("P") and " played " in text.splitlines()[0] and text.endswith(str(env.state))
    env.reset(seed=1)
    assert env.render() == str(env.state)  # a new game forgets the last move
    assert capsys.readouterr().out == ""


def test_a_refused_action_leaves_the_render_unchanged() -> None:
    env = BBoMGymEnv(pack="test", render_mode="ansi")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    before = env.render()
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(TypeError):
        env.step("0")
    assert env.render() == before


def test_no_render_mode_records_nothing() -> None:
    env = BBoMGymEnv(pack="test")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env._last_move is None  # training pays nothing for the words


def test_aec_human_prints_on_reset_and_says_who_played(capsys: pytest.CaptureFixture[str]) -> None:
    env = bbom_env.env(pack="test", num_players=3, render_mode="human")
    env.reset(seed=4)
    game = env.unwrapped.game
    assert capsys.readouterr().out.strip() == str(game)
    agent = env.agent_selection
    obs, *_ = env.last()
    action = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"P{env.unwrapped.seat_of(agent)} played {move_to_string(action)}")
