"""Gymnasium and PettingZoo with the Dark Matter module ("RL views"): the module and its
three GameConfig switches (V-01 ``black_book_inside_pages``, V-07 ``dark_curse_destroy_by_effect``,
V-18 ``vth_magicians``) are env keywords; Gymnasium's check_env and PettingZoo's api_test and
seed_test pass; one action layout for 2-5 players with the module's blocks after the base game's
(sections 4.6, 4.8)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bbom_env
from bbom_env.engine import GameConfig, num_moves
from bbom_env.modules.dark_matter.state import dm_state
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.observation import ObservationEncoder
from bbom_env.rl.wrappers import IllegalActionPenalty
from tests.rl.test_aec_env import api_test, seed_test, warnings_as_errors

DM = ("dark_matter",)
MODULE_BLOCKS = ["ACQUIRE_DARK_MATTER", "BLACK_BOOK_LEFT", "BLACK_BOOK_RIGHT"]


def test_action_layout_appends_the_module_blocks_for_every_player_count(dm: None) -> None:
    base = ActionLayout(GameConfig(pack="test"))
    layouts = [ActionLayout(GameConfig(pack="test", modules=DM, num_players=n)) for n in (2, 3, 4, 5)]
    assert {lay.n for lay in layouts} == {num_moves(DM)}
    assert all(lay.table() == layouts[0].table() for lay in layouts)
    table = layouts[0].table()
    assert table[: len(base.table())] == base.table()  # the base ids do not move
    assert [row[0] for row in table[len(base.table()) :]] == MODULE_BLOCKS
    assert layouts[0].n == base.n + len(MODULE_BLOCKS)


def test_gym_make_with_the_module_and_its_switches(dm: None) -> None:
    env = gym.make(
        bbom_env.GYM_ID,
        pack="test",
        num_players=4,
        modules=DM,
        black_book_inside_pages=5,
        dark_curse_destroy_by_effect=True,
        vth_magicians=False,
    )
    obs, info = env.reset(seed=3)
    base = env.unwrapped
    cfg = base.config
    assert cfg.modules == DM and cfg.switch("black_book_inside_pages") == 5
    assert cfg.switch("dark_curse_destroy_by_effect") and not cfg.switch("vth_magicians")
    assert len(dm_state(base.state).book) == 5 + 2  # V-01: Cover, 5 Inside pages, Back page
    assert obs.shape == (ObservationEncoder(GameConfig(pack="test", modules=DM)).size,)
    assert env.action_space.n == num_moves(DM) and info["action_mask"].shape == (num_moves(DM),)
    assert "dark_matter.book" in base.encoder.meanings
    # Without the module the base sizes: the keyword is what switches it on.
    plain = gym.make(bbom_env.GYM_ID, pack="test", num_players=4)
    assert plain.action_space.n == num_moves(()) < env.action_space.n
    assert plain.observation_space.shape[0] < env.observation_space.shape[0]


def test_a_switch_without_the_module_is_refused(dm: None) -> None:
    with pytest.raises(ValueError, match="black_book_inside_pages"):
        gym.make(bbom_env.GYM_ID, pack="test", black_book_inside_pages=5).reset(seed=0)


def test_check_env_with_the_module(dm: None, capsys: pytest.CaptureFixture[str]) -> None:
    base = gym.make(bbom_env.GYM_ID, pack="test", modules=DM, render_mode="ansi").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version.*")
        check_env(IllegalActionPenalty(base))
    assert "decision:" in capsys.readouterr().out


@pytest.mark.parametrize("players", [2, 5])
def test_masked_random_play_uses_the_module(dm: None, players: int) -> None:
    """A whole masked random episode: every step legal, Dark Matter acquired (section 4.6) and the
    Black Book cast (section 4.8) through the env's ids."""
    env = gym.make(bbom_env.GYM_ID, pack="test", modules=DM, num_players=players)
    n = env.action_space.n
    names = [env.unwrapped.layout.action_to_string(a) for a in range(n)]
    rng = np.random.default_rng(players)
    taken: set[str] = set()
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            taken.add(names[a])
            obs, _r, term, trunc, info = env.step(a)
            assert obs in env.observation_space
            done = term or trunc
        assert env.unwrapped.state.is_terminal()
    assert {"ACQUIRE_DARK_MATTER"} <= taken and taken & {"BLACK_BOOK_LEFT", "BLACK_BOOK_RIGHT"}


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_api_test_with_the_module(dm: None, players: int) -> None:
    with warnings_as_errors():
        api_test(
            bbom_env.env(pack="test", num_players=players, modules=DM, black_book_inside_pages=4),
            num_cycles=400,
            verbose_progress=False,
        )


def test_pettingzoo_seed_test_with_the_module(dm: None) -> None:
    with warnings_as_errors():
        seed_test(lambda: bbom_env.env(pack="test", num_players=3, modules=DM), num_cycles=400)


def test_aec_spaces_with_the_module(dm: None) -> None:
    env = bbom_env.raw_env(pack="test", num_players=3, modules=DM, vth_magicians=False)
    env.reset(seed=2)
    size = ObservationEncoder(GameConfig(pack="test", modules=DM)).size
    assert env.state_space.shape == (3 * size,)
    for agent in env.agents:
        o = env.observe(agent)
        assert o in env.observation_space(agent) and o["action_mask"].shape == (num_moves(DM),)
    assert not env.game.config.switch("vth_magicians")


def test_native_vector_env_plays_the_same_games_with_the_module(dm: None) -> None:
    """make_vec's native vector env takes the module keyword: game i of reset(seed=s) is the single
    env's game of seed s + i, observation by observation (Black Book and supply included)."""
    venv = gym.make_vec(
        bbom_env.GYM_ID, num_envs=2, vectorization_mode="vector_entry_point", pack="test", modules=DM
    )
    singles = [gym.make(bbom_env.GYM_ID, pack="test", modules=DM) for _ in range(2)]
    obs, infos = venv.reset(seed=5)
    single = [env.reset(seed=5 + i) for i, env in enumerate(singles)]
    assert venv.single_action_space.n == num_moves(DM)
    rng = np.random.default_rng(1)
    for t in range(60):
        for i, (o, info) in enumerate(single):
            assert np.array_equal(obs[i], o) and np.array_equal(
                infos["action_mask"][i], info["action_mask"]
            ), t
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, _r, terms, truncs, infos = venv.step(actions)
        single = [env.step(int(a))[::4] for env, a in zip(singles, actions, strict=True)]
        assert not (terms.any() or truncs.any())  # 60 steps stay inside the first games
