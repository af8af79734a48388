"""``render_mode="rgb_array"`` (the ``render`` extra): the array's size and type, that the segment-cached
rasterization is pixel for pixel the whole picture's, Gymnasium's check_env, the AEC env, and a video
recorded with ``gymnasium.wrappers.RecordVideo``."""

from __future__ import annotations

import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import bbom_env
from bbom_env.engine import GameConfig, GameState
from bbom_env.view import board_size, board_svg
from bbom_env.view.raster import SegmentCache, board_array, missing, svg_to_array

pytestmark = pytest.mark.skipif(
    bool(missing()),
    reason=f"the render extra is not installed ({', '.join(missing())}): pip install -e '.[render]'",
)


def test_board_array_size_and_type(module_game: list[GameState]) -> None:
    state = module_game[20]
    arr = board_array(state)
    w, h = board_size(3)
    assert arr.shape == (h, w, 3) == (288 + 3 * 128 + 160, 1280, 3) and arr.dtype == np.uint8
    assert arr.flags.writeable and arr.std() > 10  # drawn, not blank


@pytest.mark.parametrize("game", ["base_game", "module_game"])
def test_layers_rasterize_to_the_whole_picture(game: str, request) -> None:
    """``board_array`` (segments, their shapes and each text drawn apart and blended, all cached) is
    the whole picture's rasterization to within rounding on anti-aliased edges: a text that ran
    under a shape drawn after it, or a text drawn in the wrong place, differs by far more."""
    states: list[GameState] = request.getfixturevalue(game)
    cache = SegmentCache()
    for i, state in enumerate(states[:: len(states) // 12]):
        view = None if i % 2 else i % len(state.players)
        layered, whole = board_array(state, view, cache=cache), svg_to_array(board_svg(state, view))
        diff = np.abs(layered.astype(int) - whole)
        assert diff.max() <= 3, (i, np.argwhere(diff > 3)[:5].tolist())
    assert cache.texts and cache.hits == 0
    assert np.array_equal(board_array(states[1], cache=cache), board_array(states[1], cache=cache))
    assert cache.hits >= len(states[1].players) + 3  # the second time every segment was reused


def test_the_pixels_are_deterministic(base_game: list[GameState]) -> None:
    state = base_game[80]
    assert np.array_equal(
        board_array(state, cache=SegmentCache()), board_array(state.clone(), cache=SegmentCache())
    )
    assert not np.array_equal(board_array(state, 0), board_array(state))  # P0 does not see P1's hand


def test_gym_env_rgb_array_and_check_env() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make(bbom_env.GYM_ID, render_mode="rgb_array", illegal_action="penalty", pack="test").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)  # renders rgb_array after reset and checks the array
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (704, 1280, 3) and frame.dtype == np.uint8


def test_aec_env_rgb_array_with_modules() -> None:
    aec = bbom_env.env(num_players=2, render_mode="rgb_array", modules=("dark_matter", "phobias"))
    aec.reset(seed=1)
    frame = aec.render()
    assert frame.shape == (704, 1280, 3) and frame.dtype == np.uint8
    assert bbom_env.raw_env.metadata["render_fps"] == 4


def test_record_video_of_an_episode(tmp_path: Path) -> None:
    pytest.importorskip("moviepy", reason="RecordVideo writes with moviepy (the render extra)")
    from gymnasium.wrappers import RecordVideo

    from agents import make_agent

    made = gym.make(bbom_env.GYM_ID, render_mode="rgb_array", pack="test", max_episode_steps=40)
    folder = tmp_path / "videos"  # a new folder: RecordVideo warns when it would overwrite
    env = RecordVideo(made, str(folder), episode_trigger=lambda e: True, disable_logger=True)
    agent = make_agent("random", seed=0)
    env.reset(seed=0)
    done = False
    steps = 0
    while not done:
        _, _, term, trunc, _ = env.step(agent.act(env.unwrapped.state))
        done = term or trunc
        steps += 1
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 10_000 and steps > 1


def test_game_config_modules_render(module_game: list[GameState]) -> None:
    assert module_game[0].config.modules == ("dark_matter", "phobias")
    assert isinstance(module_game[0].config, GameConfig)
    assert board_array(module_game[-1]).shape == (832, 1280, 3)
