"""Configs of module games: a valid config always starts (5 players,
Nightmare, Dark Matter, random Magicians failed on about 30% of seeds: three Magicians of one
Element need more value-1 cards than exist), a fixed list that cannot be dealt is refused naming
the field and the shortage, and the messages name the setting to change: the ``vth_magicians``
switch, the module, the AEC ``seed``."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest

import bbom_env
from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.core.rules import game_pack, offered_magicians
from bbom_env.engine.io.setup import shortage
from bbom_env.rl.aec_env import raw_env

DM, BOTH = ("dark_matter",), ("dark_matter", "phobias")


@pytest.mark.parametrize("modules", [DM, BOTH], ids=["dark_matter", "both"])
@pytest.mark.parametrize("mode", ["nightmare", "fear+nightmare"])
def test_every_seed_of_a_five_player_nightmare_game_starts(modules: tuple[str, ...], mode: str) -> None:
    """Seeds 0..199: each starts with Magicians whose decks can be dealt; a seed whose first draw
    can be dealt keeps it (the game is the one it was), the others (the rare redraw) differ."""
    redrawn = 0
    for seed in range(200):
        config = GameConfig(num_players=5, mode=mode, modules=modules, magicians="random", seed=seed)
        state = new_game(config)
        mags = [p.magician for p in state.players]
        assert not shortage(state.pack, mags, nightmare=True)
        first = random.Random(seed).sample(offered_magicians(config, state.pack), 5)
        if shortage(state.pack, first, nightmare=True):
            redrawn += 1
            assert mags != first
        else:
            assert mags == first  # the draw of every game that could start before
        assert [p.magician for p in new_game(config).players] == mags  # deterministic
    assert 20 < redrawn < 120, redrawn  # about 30% of the first draws cannot be dealt


def test_a_fixed_list_that_cannot_be_dealt_names_the_field_and_the_shortage() -> None:
    mags = ("magician_earth_m", "magician_fire_f", "magician_vth_air", "magician_air_f", "magician_air_m")
    config = GameConfig(num_players=5, mode="nightmare", modules=DM, magicians=mags)
    with pytest.raises(
        ConfigError,
        match=r"^GameConfig\.magicians=\[.*\]: their starting decks need 19 value-1 air cards in Nightmare ",
    ):
        new_game(config)
    new_game(config.replace(mode="normal"))  # the same Magicians deal without Nightmare


def test_the_base_game_s_magicians_always_deal_in_nightmare() -> None:
    """Two Magicians per Element: every set of 5 deals (no redraw can change a base game)."""
    config = GameConfig(num_players=5, mode="nightmare")
    pack = game_pack(config)
    sets = list(combinations(offered_magicians(config, pack), 5))
    assert len(sets) == 56 and all(not shortage(pack, c, nightmare=True) for c in sets)


@pytest.mark.parametrize(
    ("kw", "mid", "message"),
    [
        (
            {"modules": DM, "vth_magicians": False},
            "magician_vth_fire",
            r"is a Magician of module 'dark_matter' left out by GameConfig\.vth_magicians=False; allowed",
        ),
        (
            {"modules": DM, "vth_magicians": False},
            "magician_vth_phobia",
            r"is a Magician of module 'dark_matter' left out by GameConfig\.vth_magicians=False; allowed",
        ),
        ({}, "magician_vth_fire", r"is a Magician of module 'dark_matter', which this game does not play"),
        (
            {"modules": ("phobias",)},
            "magician_vth_earth",
            r"module 'dark_matter', which this game does not play",
        ),
        ({"modules": DM}, "magician_nope", r"is not a Magician of pack 'base'; allowed"),
    ],
)
def test_a_magician_left_out_names_the_setting(kw: dict[str, Any], mid: str, message: str) -> None:
    config = GameConfig(num_players=2, magicians=(mid, "magician_fire_m"), **kw)
    with pytest.raises(ConfigError, match=rf"^GameConfig\.magicians\[0\]='{mid}' (is )?.*" + message):
        new_game(config)


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (-1, ValueError, r"^reset\(seed=-1\): seed must be None or an int from 0 to 2\*\*64 - 1$"),
        (2**64, ValueError, r"^reset\(seed=18446744073709551616\): seed must be"),
        (1.5, TypeError, r"^reset\(seed=1\.5\): seed must be None or an int, got float$"),
        ("3", TypeError, r"^reset\(seed='3'\): seed must be None or an int, got str$"),
        (True, TypeError, r"got bool$"),
    ],
)
@pytest.mark.parametrize("wrapped", [False, True])
def test_aec_reset_names_the_seed(seed: Any, error: type[Exception], message: str, wrapped: bool) -> None:
    env = bbom_env.env(num_players=2, modules=DM) if wrapped else raw_env(num_players=2)
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    env.reset(seed=np.int64(3))  # a numpy integer is a seed
    env.reset(seed=2**64 - 1)
