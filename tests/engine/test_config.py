"""GameConfig validation (docs/rules.md section 2.5): every bad value raises ConfigError naming the field
and the allowed values; an unknown Magician id is named with the pack's Magicians."""

from __future__ import annotations

import re

import pytest

from bbom_env.engine import ConfigError, GameConfig, load_pack, new_game

# (field, bad value, words the message must contain besides the field name)
BAD_VALUES = [
    ("num_players", 1, ["from 2 to 5"]),
    ("num_players", 6, ["from 2 to 5"]),
    ("num_players", "3", ["from 2 to 5"]),
    ("num_players", True, ["from 2 to 5"]),
    ("difficulty", 0, ["1, 2 or 3"]),
    ("difficulty", 4, ["1, 2 or 3"]),
    ("difficulty", 2.0, ["1, 2 or 3"]),
    ("mode", "hard", ["normal", "fear", "nightmare", "fear+nightmare"]),
    ("payment", "semi", ["auto", "manual"]),
    ("final_win_timing", "never", ["immediate", "invocation_check"]),
    ("neutralized_curse_release", "soon", ["after_next_monster_phase", "start_of_next_turn"]),
    ("destroyed_curse_destination", "top", ["bottom", "out"]),
    ("arrival_effect_after_placement", 1, ["True or False"]),
    ("irreducible_payments", "yes", ["True or False"]),
    ("reward_optional", None, ["True or False"]),
    ("skip_forced_decisions", 0, ["True or False"]),
    ("seed", -1, ["non-negative int"]),
    ("seed", 1.5, ["non-negative int"]),
    ("pack", "", ['"default", "test" or a path']),
    ("pack", 3, ['"default", "test" or a path']),
    ("modules", ("fear",), ["unknown module(s) ['fear']", "available modules: 'dark_matter', 'phobias'"]),
    ("modules", None, ["a tuple of module names"]),
    ("black_book_inside_pages", 0, ["an int from 1 to 12"]),
    ("black_book_inside_pages", 4, ["its default 3 without module 'dark_matter'"]),
    ("dark_curse_destroy_by_effect", 1, ["True or False"]),
    ("dark_curse_destroy_by_effect", True, ["its default False without module 'dark_matter'"]),
    ("vth_magicians", "no", ["True or False"]),
    ("vth_magicians", False, ["its default True without module 'dark_matter'"]),
    ("phobia_elimination", "second", ["no_slot, literal_second_phobia"]),
    ("phobia_elimination", "literal_second_phobia", ["its default 'no_slot' without module 'phobias'"]),
    ("phobia_leaves_support", 1, ["True or False"]),  # V-26
    ("phobia_leaves_support", True, ["its default False without module 'phobias'"]),
    ("phobia_dealing", "sideways", ["round_robin, by_player"]),  # V-24
    ("phobia_dealing", "by_player", ["its default 'round_robin' without module 'phobias'"]),
    ("spell_surcharge_element", "fire", ["any, spell"]),
    ("spell_surcharge_element", "spell", ["its default 'any' without module 'phobias'"]),
    ("cure_cost_mode", "both", ["value, cards"]),  # V-37
    ("cure_cost_mode", "cards", ["its default 'value' without module 'phobias'"]),
    ("switches", 5, ["a mapping of switches"]),
    ("pack_overrides", None, ["override pack paths"]),
    ("pack_overrides", 5, ["override pack paths"]),
    ("pack_overrides", ("a.toml", 3), ["override pack paths (str)"]),
    ("seed", 2**64, ["below 2**64"]),
    ("magicians", 3, ['"random" or a list of Magician ids']),
    ("magicians", ("a", 2), ['"random" or a list of Magician ids']),
    ("magicians", ("a",), ["exactly num_players=2"]),
    ("magicians", ("a", "a"), ["distinct"]),
]


@pytest.mark.parametrize(("name", "value", "words"), BAD_VALUES, ids=lambda v: repr(v)[:30])
def test_bad_value_names_field_and_allowed_values(name: str, value: object, words: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        GameConfig(**{name: value})
    msg = str(err.value)
    assert f"GameConfig.{name}=" in msg
    assert "allowed" in msg
    for w in words:
        assert w in msg, f"{w!r} missing from {msg!r}"


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_every_choice_field_is_covered() -> None:
    """Each validated field of GameConfig has at least one bad value above."""
    covered = {name for name, _, _ in BAD_VALUES}
    fields = set(GameConfig.known_names())  # its fields and the registered modules' switches
    assert fields <= covered, sorted(fields - covered)


def test_good_values_are_accepted_and_normalised() -> None:
    c = GameConfig(
        num_players=3,
        difficulty=3,
        mode="fear+nightmare",
        payment="manual",
        magicians=["test_mag_fire", "test_mag_water", "test_mag_air"],
        pack="test",
        pack_overrides="extra.toml",
        seed=0,
    )
    assert c.magicians == ("test_mag_fire", "test_mag_water", "test_mag_air")
    assert c.pack_overrides == ("extra.toml",)
    assert c.fear and c.nightmare
    assert GameConfig.from_dict(c.to_dict()) == c


def test_replace_is_validated() -> None:
    with pytest.raises(ConfigError, match=r"GameConfig\.num_players=9"):
        GameConfig().replace(num_players=9)


def test_unknown_field_in_from_dict_is_named() -> None:
    with pytest.raises(ConfigError, match=r"unknown GameConfig field\(s\) \['players'\]"):
        GameConfig.from_dict({"players": 2})


def test_unknown_magician_id_is_named_with_the_allowed_ids() -> None:
    config = GameConfig(num_players=2, pack="test", magicians=("test_mag_fire", "merlin"))
    with pytest.raises(ConfigError) as err:
        new_game(config)
    msg = str(err.value)
    assert re.search(r"GameConfig\.magicians\[1\]='merlin'", msg)
    for mid in load_pack("test").magicians:
        assert mid in msg


def test_fixed_magicians_sit_in_order() -> None:
    ids = ("test_mag_calm", "test_mag_fire", "test_mag_earth")
    state = new_game(GameConfig(num_players=3, pack="test", magicians=ids, seed=4))
    assert tuple(p.magician for p in state.players) == ids
