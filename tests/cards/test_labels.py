"""Honest content labels: the provenance marks (``*`` reconstructed, ``~`` partial) wherever cards
are shown, the ``known`` field of partial cards, and unique card names (cards.checks._check_names)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bbom_env.cards import card_lines, mark, render_docs
from bbom_env.engine import GameConfig, PackError, load_pack, new_game
from bbom_env.play_session import _norm
from bbom_env.play_text import card_label, find_cards

SPELL = """
[[spell]]
id = "{id}"
name = "{name}"
kind = "library"
element = "water"
level = 1
activation_cost = 1
text = "Draw X cards."
effect = [{{ op = "draw", count = "X" }}]
{prov}
"""
RECONSTRUCTED = 'provenance = "reconstructed"'


def _override(tmp_path: Path, text: str, name: str = "mine.toml") -> tuple[str, ...]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return (str(path),)


def _refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(PackError) as err:
        load_pack("default", _override(tmp_path, text))
    return str(err.value)


# -- marks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prov, shown", [("printed", "Growth"), ("partial", "Growth~"), ("reconstructed", "Growth*")]
)
def test_mark(prov, shown):
    assert mark("Growth", prov) == shown


def test_render_marks_partial_and_reconstructed_cards():
    state = new_game(GameConfig(num_players=2, seed=0))
    text = str(state)
    # every player holds the 4 Basic Spells, which are partial; the Library tops are reconstructed
    # or partial, never bare
    assert text.count("Growth~") == 2 and "Growth," not in text
    tops = text.splitlines()[2].removeprefix("library tops: ").split(", ")
    assert len(tops) == 4 and all(t.endswith(("*", "~")) for t in tops), tops


def test_render_leaves_printed_cards_bare(tmp_path):
    printed = SPELL.format(
        id="spell_growth", name="Growth", prov='provenance = "printed"\nsource = "own copy"'
    )
    printed = printed.replace(
        'kind = "library"\nelement = "water"\nlevel = 1', 'kind = "basic"\nelement = "earth"'
    )
    state = new_game(GameConfig(num_players=2, seed=0, pack_overrides=_override(tmp_path, printed)))
    text = str(state)
    assert "Growth," in text and "Growth~" not in text and "Ice~" in text
    assert card_label(state, "spell_growth") == "Growth" and card_label(state, "spell_ice") == "Ice~"


def test_play_ui_accepts_a_name_typed_with_its_mark():
    state = new_game(GameConfig(num_players=2, seed=0))
    assert find_cards(state, "Growth~") == find_cards(state, "growth") == ["spell_growth"]
    assert find_cards(state, "Riptide*") == ["curse_water_01"]
    assert _norm("Growth~ ") == _norm("growth") == _norm("Growth*")  # a move named by its card


def test_show_and_docs_say_which_part_is_known():
    pack = load_pack("default")
    title, lines = card_lines(pack, "spell_arctic_circle")
    assert title == "Arctic Circle~"
    assert any(line.startswith("- known: Name, Water, activation cost 3") for line in lines)
    docs = render_docs(pack)
    assert "### Arctic Circle~\n" in docs and "- known: Name, Water, activation cost 3" in docs
    assert re.search(r"## Round track\n(.*\n)*?- known: Level 1", docs)


# -- the `known` field ---------------------------------------------------------------------------


def test_partial_card_without_known_is_refused(tmp_path):
    prov = 'provenance = "partial"\nsource = "own copy"\nnotes = "the effect is real, the name is not"'
    msg = _refused(tmp_path, SPELL.format(id="spell_new", name="Newcomer", prov=prov))
    assert "mine.toml" in msg and "spell 'spell_new'.known" in msg and "partial" in msg


@pytest.mark.parametrize("prov", ["reconstructed", "printed"])
def test_known_on_a_card_that_is_not_partial_is_refused(tmp_path, prov):
    fields = f'provenance = "{prov}"\nsource = "own copy"\nknown = "the effect"'
    msg = _refused(tmp_path, SPELL.format(id="spell_new", name="Newcomer", prov=fields))
    assert "spell 'spell_new'.known" in msg and f"a {prov} card" in msg


def test_partial_card_with_known_loads_and_notes_are_optional(tmp_path):
    fields = 'provenance = "partial"\nsource = "own copy"\nknown = "The effect; not the name."'
    pack = load_pack(
        "default", _override(tmp_path, SPELL.format(id="spell_new", name="Newcomer", prov=fields))
    )
    assert pack.spells["spell_new"].known == "The effect; not the name."
    assert card_lines(pack, "spell_new")[0] == "Newcomer~"


# -- unique names (cards.checks._check_names) ------------------------------------------------------


def test_an_override_card_with_a_taken_name_is_refused(tmp_path):
    msg = _refused(tmp_path, SPELL.format(id="spell_new", name="Riptide", prov=RECONSTRUCTED))
    assert "mine.toml: spell 'spell_new'.name" in msg
    assert "'Riptide' is already the name of 'curse_water_01'" in msg and "base_pack.toml" in msg


def test_names_differing_only_in_case_and_spacing_collide(tmp_path):
    text = SPELL.format(id="spell_a", name="Deep  frost", prov=RECONSTRUCTED)
    text += SPELL.format(id="spell_b", name="deep Frost", prov=RECONSTRUCTED)
    msg = _refused(tmp_path, text)
    assert "spell 'spell_b'.name" in msg and "already the name of 'spell_a'" in msg
    assert "base_pack.toml" not in msg  # both in the override: one file named


def test_a_monster_name_collides_with_a_spell_name(tmp_path):
    msg = _refused(tmp_path, SPELL.format(id="spell_new", name="Gelatinous cube", prov=RECONSTRUCTED))
    assert "already the name of 'monster_gelatinous_cube'" in msg


def test_replacing_a_card_keeps_its_name_free(tmp_path):
    """An override of the same id replaces the card, so reusing its name is no collision."""
    text = SPELL.format(id="spell_water_undertow", name="Undertow", prov=RECONSTRUCTED)
    pack = load_pack("default", _override(tmp_path, text))
    assert pack.spells["spell_water_undertow"].effect[0]["op"] == "draw"


def test_a_name_ending_with_a_mark_is_refused(tmp_path):
    msg = _refused(tmp_path, SPELL.format(id="spell_new", name="Newcomer*", prov=RECONSTRUCTED))
    assert "spell 'spell_new'.name" in msg and "provenance mark" in msg


def test_end_page_name(tmp_path):
    assert load_pack("default").card_name("grimoire_end_page") == "End page"
    cover = """
[[grimoire]]
id = "monster_bee"
name = "Bee"
kind = "cover"
provenance = "reconstructed"
[grimoire.monster]
name = "Bee-like Monster"
curse_symbols = ["air", "water", "fire"]
"""
    msg = _refused(tmp_path, cover)
    assert "grimoire 'monster_bee'.name" in msg and "monster.name" in msg


def test_marked_name_and_the_decision_line_of_the_render():
    """The render's "decision:" line names the card that asks (``source``) with its mark too."""
    pack = load_pack("default")
    assert (
        pack.marked_name("spell_growth") == "Growth~"
        and pack.marked_name("curse_fire_01") == "Burning Hands*"
    )
    assert pack.marked_name("no_such_card") == "no_such_card"
    state = new_game(GameConfig(num_players=2, seed=3))
    rng = random.Random(3)
    sources = []
    for _ in range(3000):
        if state.is_terminal():
            break
        line = str(state).splitlines()[-1]
        sources += re.findall(r"\(source: (.+?) \[", line)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    # every card of the default pack is partial or reconstructed: no source may show bare
    assert sources and all(name.endswith(("*", "~")) for name in sources), sources[:5]
