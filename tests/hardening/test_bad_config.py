"""Bad GameConfig values never slip through: every field is type-checked on construction,
and a refusal is a ConfigError naming the field and the allowed values, never a late crash.

A property test throws values of every type at every field: each is refused with that ConfigError,
or accepted, and then an accepted config round-trips through to_dict/from_dict and starts a game (or
refuses cleanly: an unknown Magician id is a ConfigError, a missing pack file a PackError).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bbom_env.engine import ConfigError, GameConfig, PackError, from_json, new_game
from bbom_env.engine.core.config import MAX_SEED

FIELDS = GameConfig.known_names()  # its fields and the registered modules' switches
GOOD = {  # values each field accepts, mixed into the random ones
    "num_players": [2, 5],
    "difficulty": [1, 3],
    "mode": ["fear+nightmare"],
    "payment": ["manual"],
    "magicians": [("magician_fire_m", "magician_water_f")],
    "pack": ["test", "default"],
    "pack_overrides": [(), []],
    "seed": [0, MAX_SEED],
    "final_win_timing": ["invocation_check"],
    "arrival_effect_after_placement": [False],
    "neutralized_curse_release": ["start_of_next_turn"],
    "irreducible_payments": [False],
    "destroyed_curse_destination": ["out"],
    "reward_optional": [False],
    "skip_forced_decisions": [False],
    "modules": [()],
    "switches": [{}, ()],
    # The Dark Matter module's switches: only their defaults without the module.
    "black_book_inside_pages": [3],
    "dark_curse_destroy_by_effect": [False],
    "vth_magicians": [True],
    # The Phobia module's switches (A-52, V-26, V-24, A-50, V-37): the same.
    "phobia_elimination": ["no_slot"],
    "phobia_leaves_support": [False],
    "phobia_dealing": ["round_robin"],
    "spell_surcharge_element": ["any"],
    "cure_cost_mode": ["value"],
}
ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([-1, 0, 1, 6, 2**64, -(2**70)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=3),
    st.lists(st.one_of(st.text(max_size=4), st.integers(), st.none()), max_size=3),
    st.tuples(st.text(max_size=4)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()),
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_value_of_any_field_is_refused_by_name_or_works(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(FIELDS))
    value = data.draw(st.one_of(ANY, st.sampled_from(GOOD[name])))
    try:
        config = GameConfig(**{name: value})
    except ConfigError as exc:
        msg = str(exc)
        if name == "switches":  # the mapping's own keys are named: a switch's value, or an unknown name
            assert msg.startswith(("GameConfig.", "unknown GameConfig field(s) [")), msg
        else:
            assert msg.startswith(f"GameConfig.{name}=") and "allowed: " in msg, msg
        assert "\n" not in msg and len(msg) < 400, msg
        return
    assert GameConfig.from_dict(config.to_dict()) == config
    try:
        state = new_game(config)
    except ConfigError as exc:  # an unknown Magician id: named, with the pack's ids
        assert name == "magicians" and "GameConfig.magicians[" in str(exc), str(exc)
        return
    except PackError as exc:  # a pack path that is not there
        assert name in ("pack", "pack_overrides") and "card pack file not found" in str(exc), str(exc)
        return
    assert state.legal_actions()


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("pack_overrides", None, ["a tuple (or list) of override pack paths"]),
        ("pack_overrides", 5, ["a tuple (or list) of override pack paths"]),
        ("pack_overrides", (5,), ["override pack paths (str)"]),
        ("pack_overrides", ("",), ["override pack paths"]),
        ("pack_overrides", ("a\0b.toml",), ["override pack paths"]),
        ("pack_overrides", {"a.toml": 1}, ["override pack paths"]),
        ("pack", None, ['"default", "test" or a path']),
        ("pack", "x\0y", ['"default", "test" or a path']),
        ("modules", None, ["a tuple of module names"]),
        ("modules", 0, ["a tuple of module names"]),
        ("modules", "dark_matter", ["a tuple of module names"]),
        ("modules", (1,), ["a tuple of module names"]),
        # Only registered modules (import bbom_env registers the Vth Element's two); the base game
        # is not one to name.
        ("modules", ["fear"], ["unknown module(s) ['fear']", "available modules: 'dark_matter', 'phobias'"]),
        ("modules", ("base",), ["unknown module(s) ['base']", "() for the base game"]),
        ("seed", math.nan, ["non-negative int below 2**64"]),
        ("seed", MAX_SEED + 1, ["non-negative int below 2**64"]),
        ("seed", True, ["non-negative int"]),
        ("seed", "7", ["non-negative int"]),
        ("num_players", math.nan, ["from 2 to 5"]),
        ("difficulty", math.inf, ["1, 2 or 3"]),
        ("mode", ["normal"], ["normal, fear"]),
        ("mode", None, ["normal, fear"]),
        ("payment", b"auto", ["auto, manual"]),
        ("magicians", ("magician_fire_m", ""), ['"random" or a list of Magician ids']),
        ("magicians", ("magician_fire_m", None), ['"random" or a list of Magician ids']),
        ("magicians", None, ['"random" or a list of Magician ids']),
        ("magicians", "magician_fire_m", ['"random" or a list of Magician ids']),
        ("skip_forced_decisions", "False", ["True or False"]),
        ("reward_optional", math.nan, ["True or False"]),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_bad_value_is_named(name: str, value: Any, words: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        GameConfig(**{name: value})
    msg = str(err.value)
    assert msg.startswith(f"GameConfig.{name}=") and "allowed" in msg, msg
    for w in words:
        assert w in msg, msg


def test_a_seed_too_long_to_print_is_named() -> None:
    with pytest.raises(ConfigError, match=r"^GameConfig\.seed=<an int of \d+ bits> is not allowed"):
        GameConfig(seed=10**5000)


def test_paths_are_accepted_as_strings() -> None:
    config = GameConfig(pack=Path("x.toml"), pack_overrides=[Path("a.toml"), "b.toml"])
    assert config.pack == "x.toml" and config.pack_overrides == ("a.toml", "b.toml")
    assert GameConfig(pack_overrides=Path("a.toml")).pack_overrides == ("a.toml",)


def test_seed_bounds() -> None:
    assert GameConfig(seed=MAX_SEED).seed == MAX_SEED
    state = new_game(GameConfig(seed=MAX_SEED))
    assert from_json(state.to_json()).config.seed == MAX_SEED


def test_replace_and_from_dict_refuse_unknown_fields_by_name() -> None:
    with pytest.raises(ConfigError, match=r"unknown GameConfig field\(s\) \['players'\]"):
        GameConfig().replace(players=3)
    with pytest.raises(ConfigError, match=r"unknown GameConfig field\(s\) \[1\]"):
        GameConfig.from_dict({1: 2})  # type: ignore[dict-item]
    for data in (None, [("seed", 1)], "seed=1"):
        with pytest.raises(ConfigError, match="read from a dict of its fields"):
            GameConfig.from_dict(data)  # type: ignore[arg-type]


def test_a_missing_pack_fails_at_new_game_naming_it() -> None:
    """The config cannot know files; the loader names them (and the named packs)."""
    with pytest.raises(
        PackError, match=r"^nowhere\.toml: card pack file not found \(named packs: default, test"
    ):
        new_game(GameConfig(pack="nowhere.toml"))
    with pytest.raises(PackError, match=r"^gone\.toml: card pack file not found"):
        new_game(GameConfig(pack_overrides=("gone.toml",)))
