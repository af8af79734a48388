"""Card-pack loading errors (cards.py, vocab.py): every bad pack raises PackError whose message
names the file, the card id and the field; and the engine test pack covers the whole vocabulary.

Bad packs are the test pack with one card edited, written to ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bbom_env.engine import PackError, load_pack
from bbom_env.engine.cards.pack import NAMED_PACKS
from bbom_env.engine.cards.vocab import BASE_OPS, MOD_SCHEMAS

TEST_PACK = NAMED_PACKS["test"].read_text(encoding="utf-8")


def _blocks(text: str) -> list[list[str]]:
    """The file as blocks of lines, each starting at a table header (``[x]`` / ``[[x]]``)."""
    out: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith("["):
            out.append([])
        out[-1].append(line)
    return out


def edit_card(text: str, card_id: str, change: Callable[[list[str]], list[str]]) -> str:
    blocks = _blocks(text)
    hits = [b for b in blocks if f'id = "{card_id}"' in b]
    assert len(hits) == 1, f"card {card_id} not found once in the test pack"
    hits[0][:] = change(hits[0])
    return "\n".join(line for b in blocks for line in b) + "\n"


def set_field(key: str, value: str) -> Callable[[list[str]], list[str]]:
    def change(lines: list[str]) -> list[str]:
        idx = [i for i, line in enumerate(lines) if line.startswith(f"{key} =")]
        assert len(idx) == 1, f"field {key} not found once"
        lines[idx[0]] = f"{key} = {value}"
        return lines

    return change


def drop_field(key: str) -> Callable[[list[str]], list[str]]:
    def change(lines: list[str]) -> list[str]:
        kept = [line for line in lines if not line.startswith(f"{key} =")]
        assert len(kept) == len(lines) - 1, f"field {key} not found once"
        return kept

    return change


def add_field(key: str, value: str) -> Callable[[list[str]], list[str]]:
    return lambda lines: lines[:1] + [f"{key} = {value}"] + lines[1:]


def _write(tmp_path: Path, text: str, name: str = "bad_pack.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# (case id, edit of the test pack, card id expected in the message, field words expected)
CARD_CASES = [
    (
        "unknown_op",
        "test_growth",
        set_field("effect", '[{ op = "teleport", count = "X" }]'),
        ["op", "teleport"],
    ),
    ("bad_count", "test_growth", set_field("effect", '[{ op = "draw", count = "Y" }]'), ["count", "'Y'"]),
    ("negative_count", "test_growth", set_field("effect", '[{ op = "draw", count = -2 }]'), ["count", "-2"]),
    ("missing_field", "test_growth", drop_field("text"), ["missing field 'text'"]),
    (
        "missing_op_param",
        "test_growth",
        set_field("effect", '[{ op = "modifier" }]'),
        ["missing field 'mod'"],
    ),
    ("bad_element", "test_growth", set_field("element", '"aether"'), [".element", "aether", "fire"]),
    ("bad_provenance", "test_growth", set_field("provenance", '"guessed"'), [".provenance", "guessed"]),
    ("printed_without_source", "test_growth", set_field("provenance", '"printed"'), [".source", "printed"]),
    (
        "partial_without_known",
        "test_growth",
        lambda ls: add_field("source", '"x"')(set_field("provenance", '"partial"')(ls)),
        [".known", "partial"],
    ),
    ("unknown_field", "test_growth", add_field("colour", '"green"'), ["unknown field", "colour"]),
    ("unknown_op_field", "test_growth", set_field("effect", '[{ op = "draw", cards = 2 }]'), ["cards"]),
    (
        "bad_bool",
        "test_ice",
        set_field("effect", '[{ op = "place_in_support", optional = "yes" }]'),
        ["optional"],
    ),
    (
        "bad_choice",
        "test_growth",
        set_field("effect", '[{ op = "draw", target = "nobody" }]'),
        ["target", "nobody"],
    ),
    ("bad_kind", "test_growth", set_field("kind", '"secret"'), [".kind", "secret"]),
    ("bad_level", "test_fire_1", set_field("level", "4"), [".level", "4"]),
    ("bad_activation_cost", "test_growth", set_field("activation_cost", "0"), [".activation_cost"]),
    (
        "wrong_type",
        "test_growth",
        set_field("activation_cost", '"one"'),
        [".activation_cost", "expected int"],
    ),
    ("bad_curse_type", "test_curse_fire_a", set_field("type", '"lava"'), [".type", "lava"]),
    ("unknown_mod_kind", "test_mag_water", set_field("ability", '[{ kind = "flight" }]'), ["kind", "flight"]),
    (
        "bad_deck_key",
        "test_mag_mixed",
        set_field("starting_deck", "{ fire-4 = 1 }"),
        ["starting_deck", "fire-4"],
    ),
    ("bad_support_slots", "test_mag_water", set_field("support_slots", "9"), [".support_slots", "9"]),
    (
        "support_slots_with_ability",
        "test_mag_water",
        set_field("support_slots", "4"),
        [".ability", "support_slots 4", "(+2) is 6"],
    ),
    ("negative_learning_cost", "test_fire_1", add_field("learning_cost", "-1"), [".learning_cost", "0..10"]),
    ("string_curse_cost", "test_curse_fire_a", add_field("cost", '{ fire = "4" }'), [".cost.fire", "'4'"]),
    ("huge_count", "test_growth", set_field("effect", '[{ op = "draw", count = 31 }]'), ["count", "0..30"]),
    ("gain_value", "test_growth", set_field("effect", '[{ op = "gain", value = 9 }]'), [".value", "1..3"]),
    (
        "trigger_as_temporary_mod",
        "test_growth",
        set_field("effect", '[{ op = "modifier", mod = { kind = "trigger", effect = [] } }]'),
        ["trigger"],
    ),
]


@pytest.mark.parametrize(("case", "card", "change", "words"), CARD_CASES, ids=[c[0] for c in CARD_CASES])
def test_bad_card_names_file_card_and_field(
    tmp_path: Path, case: str, card: str, change: Callable, words: list[str]
) -> None:
    path = _write(tmp_path, edit_card(TEST_PACK, card, change))
    with pytest.raises(PackError) as err:
        load_pack(path)
    msg = str(err.value)
    assert str(path) in msg, msg
    assert f"'{card}'" in msg, msg
    for w in words:
        assert w in msg, f"{w!r} missing from {msg!r}"


def test_duplicate_id_across_kinds_names_both(tmp_path: Path) -> None:
    path = _write(tmp_path, edit_card(TEST_PACK, "test_curse_fire_a", set_field("id", '"test_growth"')))
    with pytest.raises(PackError) as err:
        load_pack(path)
    assert str(err.value) == (
        f"{path}: curse 'test_growth'.id: id already used by spell 'test_growth' "
        "(ids are unique across all kinds)"
    )


def test_duplicate_id_names_the_id(tmp_path: Path) -> None:
    path = _write(tmp_path, edit_card(TEST_PACK, "test_ice", set_field("id", '"test_growth"')))
    with pytest.raises(PackError) as err:
        load_pack(path)
    assert str(err.value) == f"{path}: spell 'test_growth'.id: duplicate id"


def test_missing_round_track(tmp_path: Path) -> None:
    blocks = [b for b in _blocks(TEST_PACK) if b[0] != "[round_track]"]
    path = _write(tmp_path, "\n".join(line for b in blocks for line in b))
    with pytest.raises(PackError, match="missing \\[round_track\\] table") as err:
        load_pack(path)
    assert str(path) in str(err.value) and "round_track" in str(err.value)


def test_bad_round_track_row(tmp_path: Path) -> None:
    text = TEST_PACK.replace("[0, 0, 0, 1, 1, 1]", "[0, 0, 0, 1, 1, 7]", 1)
    assert text != TEST_PACK
    path = _write(tmp_path, text)
    with pytest.raises(PackError, match=r"round_track\.levels\[0\]\[5\]: expected 0, 1 or 2, got 7") as err:
        load_pack(path)
    assert str(path) in str(err.value)


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, TEST_PACK + "\nthis is = = not toml\n")
    with pytest.raises(PackError, match="not valid TOML") as err:
        load_pack(path)
    assert str(path) in str(err.value)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="card pack file not found") as err:
        load_pack(tmp_path / "nowhere.toml")
    assert "nowhere.toml" in str(err.value)


def test_unknown_section_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, TEST_PACK + '\n[[dragon]]\nid = "smaug"\n')
    with pytest.raises(PackError, match=r"unknown section\(s\) \['dragon'\]") as err:
        load_pack(path)
    assert str(path) in str(err.value)


def test_unplayable_pack_is_refused(tmp_path: Path) -> None:
    """Structural minimum (setup steps 3-8): here a Basic Spell is missing."""
    blocks = [b for b in _blocks(TEST_PACK) if 'id = "test_growth"' not in b]
    path = _write(tmp_path, "\n".join(line for b in blocks for line in b))
    with pytest.raises(PackError, match="exactly 4 Basic Spells") as err:
        load_pack(path)
    assert str(path) in str(err.value)


def test_override_replaces_a_card_by_id(tmp_path: Path) -> None:
    override = _write(
        tmp_path,
        '[[spell]]\nid = "test_growth"\nname = "Big Growth"\nkind = "basic"\nelement = "earth"\n'
        'activation_cost = 2\ntext = "Draw 2X cards."\neffect = [{ op = "draw", count = "2X" }]\n'
        'provenance = "reconstructed"\n',
        "override.toml",
    )
    pack = load_pack("test", (str(override),))
    assert pack.spells["test_growth"].name == "Big Growth"
    assert pack.spells["test_growth"].effect[0]["count"] == (0, 2)
    assert str(override) in pack.files
    assert load_pack("test").spells["test_growth"].name == "Test Growth"  # the base pack is untouched


def test_bad_override_names_the_override_file(tmp_path: Path) -> None:
    override = _write(tmp_path, '[[spell]]\nid = "test_growth"\nname = "X"\n', "override.toml")
    with pytest.raises(PackError, match="missing field") as err:
        load_pack("test", (str(override),))
    assert str(override) in str(err.value) and "'test_growth'" in str(err.value)


# -- the engine test pack covers the vocabulary ------------------------------------------------


def _mod_kinds(effect: list[dict] | tuple[dict, ...]) -> set[str]:
    out: set[str] = set()
    for op in effect:
        if op["op"] == "modifier":
            out.add(op["mod"]["kind"])
        if op["op"] == "may":
            out |= _mod_kinds(op["ops"])
    return out


def test_test_pack_uses_every_op() -> None:
    pack = load_pack("test")
    assert BASE_OPS <= pack.all_ops(), sorted(BASE_OPS - pack.all_ops())


def test_test_pack_uses_every_modifier_kind() -> None:
    pack = load_pack("test")
    kinds = {m["kind"] for mag in pack.magicians.values() for m in mag.mods}
    for effect in pack.effects.values():
        kinds |= _mod_kinds(effect)
    assert set(MOD_SCHEMAS) <= kinds, sorted(set(MOD_SCHEMAS) - kinds)


def test_test_pack_cards_are_all_marked_reconstructed() -> None:
    """The test pack is fixtures, never game content (design: cards as data with provenance)."""
    pack = load_pack("test")
    cards = [*pack.magicians.values(), *pack.spells.values(), *pack.curses.values(), *pack.pages.values()]
    assert {c.provenance for c in cards} == {"reconstructed"}
    assert pack.round_track_provenance == "reconstructed"


_FORBID_CURE = 'op = "modifier", target = "active", mod = { kind = "forbid", action = "cure" }'


@pytest.mark.parametrize(
    ("arrival", "field"),
    [
        (f"[{{ {_FORBID_CURE} }}]", "arrival[0]"),
        (
            f'[{{ op = "may", ops = [{{ {_FORBID_CURE}, duration = "until_next_monster" }}] }}]',
            "arrival[0].ops[0]",
        ),
    ],
    ids=["default_duration", "inside_may"],
)
def test_an_arrival_modifier_on_the_active_player_must_last_this_turn(
    tmp_path: Path, arrival: str, field: str
) -> None:
    """V-39: a Monster's arrival modifier aimed at the Active Player lasts this turn only; a pack that
    lets it last longer (the vocabulary's default duration included) is refused, naming the file,
    the page and the field."""
    base = NAMED_PACKS["default"].read_text(encoding="utf-8")
    good = (
        'arrival = [{ op = "modifier", target = "active", mod = { kind = "forbid", action = "cure" }, '
        'duration = "this_turn" }]'
    )
    assert good in base
    path = _write(tmp_path, base.replace(good, f"arrival = {arrival}"))
    with pytest.raises(PackError) as err:
        load_pack(path)
    msg = str(err.value)
    assert str(path) in msg and "'monster_mirror_imp'" in msg and f".monster.{field}.duration" in msg, msg
    assert "V-39" in msg and 'duration = "this_turn"' in msg, msg
