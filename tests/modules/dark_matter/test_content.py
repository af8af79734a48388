"""The Dark Matter module's cards (bbom_env/data/vth_dark_matter.toml; docs/rules.md section 1.2,
V-01, V-02, V-13, V-16, V-18; design decision 4: every card says where it comes from;
[VthRB]: the known texts, copied exactly)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bbom_env.cards import main as cards_main
from bbom_env.engine.cards.pack import load_pack
from bbom_env.engine.cards.vocab import PackError
from bbom_env.modules.dark_matter.content import SECTIONS, BlackPage, needs_of
from bbom_env.modules.dark_matter.module import PACK


@pytest.fixture
def pack(dm: None):  # noqa: ANN201
    return load_pack("default", (PACK,))


def test_the_module_has_exactly_its_components(pack) -> None:  # noqa: ANN001
    """Section 1.2: 12 Dark Curses, 20 Black Book cards (4 Covers, 12 Inside, 4 Back pages, V-01),
    13 Grimoire cards (3 Covers, 10 Inside), 4 Magicians (V-18)."""
    s = pack.sections
    assert {n: len(s[n]) for n in s} == {
        "dark_curse": 12,
        "black_page": 20,
        "dark_grimoire": 13,
        "vth_magician": 4,
    }
    assert Counter(p.kind for p in s["black_page"].values()) == {"cover": 4, "inside": 12, "back": 4}
    assert Counter(p.kind for p in s["dark_grimoire"].values()) == {"cover": 3, "inside": 10}
    prefixes = {"dark_curse": "dark_curse_", "black_page": "black_page_", "dark_grimoire": "dark_monster_"}
    for section, prefix in prefixes.items():  # ids say their kind
        assert all(cid.startswith(prefix) for cid in s[section]), section
    assert all(cid.startswith("magician_vth_") for cid in s["vth_magician"])
    assert load_pack("default").magicians.keys() == pack.magicians.keys()  # V-18: not base Magicians


def test_black_book_faces_costs_and_the_closing_spell(pack) -> None:  # noqa: ANN001
    """Section 1.2: a Cover's Black Spell on its back, an Inside page's on both sides, a Back
    page's on its front; V-02: by default the Back page's front (the value-5 spell, A-79) closes."""
    for page in pack.sections["black_page"].values():
        assert isinstance(page, BlackPage)
        assert (page.front is not None, page.back is not None) == {
            "cover": (False, True),
            "inside": (True, True),
            "back": (True, False),
        }[page.kind]
        for face in (page.front, page.back):
            if face is not None:
                assert face.closes == (page.kind == "back" and face is page.front)
                assert 1 <= face.cost <= 5
        if page.kind == "back":
            assert page.front.cost == 5


def test_dark_monsters_show_three_symbols_with_the_dark_matter_symbol(pack) -> None:  # noqa: ANN001
    """V-16: every Monster shows exactly 3 Curse symbols, the Dark Matter symbol in any position."""
    positions = set()
    for page in pack.sections["dark_grimoire"].values():
        symbols = page.monster.curse_symbols
        assert len(symbols) == 3 and "dark_matter" in symbols
        positions.add(symbols.index("dark_matter"))
    assert positions == {0, 1, 2}


# The known texts, word for word as the rulebook quotes them ([VthRB]: the Dark Curse clarifications
# and the sample faces of its component illustration). The Phobia Magician's sample sheet is cut off
# after "to any other" (its card is partial).
KNOWN_TEXTS = {
    ("dark_curse_01", "text"): "All players lose their Ability until the next Monster.",
    ("dark_curse_02", "text"): (
        "All players discard 1 Element card of value 2 or 3 from their hand and place 2 or 3 value-1 "
        "cards of the same type on their discard."
    ),
    ("dark_curse_03", "text"): "Add 1 Dark Curse to the next Curse space.",
    ("black_page_inside_01", "front"): "Add 1 Element card of value 3 to your draw pile",
    ("black_page_inside_02", "back"): "Add a Dark Matter card to your discard pile",
    ("dark_monster_01", "arrival"): "Add 2 tokens at random to the third Curse card",
    ("dark_monster_02", "bonus"): (
        "A player cures all the Madness in their discard pile and draw pile, then shuffles them to "
        "rebuild their draw pile"
    ),
    ("dark_monster_03", "failure"): "All players place 1 Madness on their draw pile",
    ("magician_vth_air", "ability"): (
        "During your turn, you may consider 1 Air card as 1 Element of your choice."
    ),
    ("magician_vth_phobia", "ability"): (
        "During your turn, you spend 1 Dark Matter to move 1 Phobia from a support slot to any other"
        " support slot."
    ),
}


def _text(card, part: str) -> str:  # noqa: ANN001
    return {
        "text": lambda: card.text,
        "front": lambda: card.front.text,
        "back": lambda: card.back.text,
        "arrival": lambda: card.monster.text,
        "bonus": lambda: card.bonus_text,
        "failure": lambda: card.failure_text,
        "ability": lambda: card.sheet.ability_text,
    }[part]()


def test_known_texts_are_exact_and_their_cards_partial_with_a_source(pack) -> None:  # noqa: ANN001
    for (cid, part), text in KNOWN_TEXTS.items():
        card = pack.module_card(cid)
        assert _text(card, part) == text, cid
        # The names are never known, so no card is "printed" whole (README policy 2).
        assert card.provenance == "partial" and card.source.startswith("[VthRB]") and card.known, cid
    partial = {cid for sec in pack.sections.values() for cid, c in sec.items() if c.provenance == "partial"}
    assert partial == {cid for cid, _ in KNOWN_TEXTS}


def test_provenance_counts(pack) -> None:  # noqa: ANN001
    counts = {
        name: dict(Counter(c.provenance for c in cards.values())) for name, cards in pack.sections.items()
    }
    assert counts == {
        "dark_curse": {"partial": 3, "reconstructed": 9},
        "black_page": {"partial": 2, "reconstructed": 18},
        "dark_grimoire": {"partial": 3, "reconstructed": 10},
        "vth_magician": {"partial": 2, "reconstructed": 2},
    }


def test_effects_are_in_the_vocabulary_or_named_for_part_b(pack) -> None:  # noqa: ANN001
    """The effect of V-10's Dark Curse is a lose_ability modifier until the next Monster; the texts
    the vocabulary cannot say yet name the rule part B adds (and only those)."""
    assert pack.effect("dark_curse_01", "effect") == (
        {
            "op": "modifier",
            "target": "each",
            "mod": {"kind": "lose_ability"},
            "duration": "until_next_monster",
        },
    )
    assert pack.effect("dark_monster_03", "failure")[0]["to"] == "deck_top"  # V-13's Failure
    needs = {(cid, part): text.split(" ")[0] for cid, part, text in needs_of(pack.sections)}
    assert needs == {}  # V-12's air_conversion and V-19's move_phobia are built
    for cid, part in needs:  # a card waiting for part B has no effect on that part
        card = pack.module_card(cid)
        if part in ("front", "back"):
            assert getattr(card, part).effect == ()
        elif cid.startswith("dark_curse"):
            assert card.effect == ()


def test_every_card_has_a_unique_name_and_is_marked(pack) -> None:  # noqa: ANN001
    names = [c.name for sec in pack.sections.values() for c in sec.values()]
    assert len({n.casefold() for n in names}) == len(names) == 49
    assert pack.marked_name("dark_curse_01").endswith("~") and pack.marked_name("dark_curse_04").endswith("*")


def test_the_pack_is_refused_while_the_module_is_not_registered(no_dm: None) -> None:
    """A module's sections are known while it is registered (``import bbom_env`` registers it)."""
    with pytest.raises(PackError, match=r"vth_dark_matter\.toml: unknown section\(s\)"):
        load_pack("default", (PACK,))


def test_the_catalogue_lists_the_cards_with_their_module(
    dm: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cards_main(["list", "--override", PACK]) == 0
    lines = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert lines["dark_curse_01"][:3] == ["dark_curse_01", "dark_curse", "[dark_matter]"]
    assert lines["dark_curse_01"][-1] == "partial" and lines["dark_curse_04"][-1] == "reconstructed"
    for cid, section in (("black_page_back_1", "black_page"), ("dark_monster_cover_1", "dark_grimoire")):
        assert lines[cid][1:3] == [section, "[dark_matter]"]
    assert lines["magician_vth_air"][1:3] == ["vth_magician", "[dark_matter]"]
    assert sum(1 for v in lines.values() if v[2:3] == ["[dark_matter]"]) == 49
    assert cards_main(["show", "magician_vth_phobia", "--override", PACK]) == 0
    out = capsys.readouterr().out
    assert "- [[vth_magician]] card of module dark_matter" in out and "move_phobia()" in out
    assert "- element: water;" in out and "'" not in out.split("- ability:")[0]  # no Python reprs


# -- bad entries: errors name the file, the entry and the field -------------------------------------

CURSE = '[[dark_curse]]\nid = "dark_curse_x"\nname = "X"\ntext = "Draw."\nprovenance = "reconstructed"\n'
PAGE = '[[black_page]]\nid = "black_page_x"\nname = "X"\nkind = "{kind}"\nprovenance = "reconstructed"\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (CURSE, r"dark_curse 'dark_curse_x': the text 'Draw\.' has neither an 'effect' nor 'needs'"),
        (
            CURSE + 'effect = [{ op = "draw" }]\ncost = 0\n',
            r"dark_curse 'dark_curse_x'\.cost: expected an int 1\.\.10, got 0",
        ),
        (
            CURSE + 'needs = "x"\ncolour = "black"\n',
            r"dark_curse 'dark_curse_x': unknown field\(s\) \['colour'\]",
        ),
        (
            PAGE.format(kind="cover") + 'front = { cost = 1, text = "t", effect = [{ op = "draw" }] }\n',
            r"black_page 'black_page_x'\.front: a cover page has a Black Spell only on its back",
        ),
        (
            PAGE.format(kind="back")
            + 'front = { cost = 5, text = "t", effect = [{ op = "draw", count = "X" }] }\n',
            r"black_page 'black_page_x'\.front\.effect: a Black Spell has no X",
        ),
        (
            PAGE.format(kind="inside")
            + 'front = { text = "t", needs = "n" }\nback = { cost = 1, text = "t", needs = "n" }\n',
            r"black_page 'black_page_x'\.front: missing field 'cost'",
        ),
        (PAGE.format(kind="spine"), r"black_page 'black_page_x'\.kind: 'spine' is not one of"),
        (
            '[[dark_grimoire]]\nid = "dark_monster_x"\nkind = "cover"\nprovenance = "reconstructed"\n'
            '[dark_grimoire.monster]\nname = "X"\ncurse_symbols = ["fire", "void", "air"]\n',
            r"dark_grimoire 'dark_monster_x'\.monster\.curse_symbols\[1\]: 'void' is not one of",
        ),
        (
            '[[dark_grimoire]]\nid = "dark_monster_x"\nkind = "cover"\nprovenance = "reconstructed"\n'
            '[dark_grimoire.monster]\nname = "X"\ncurse_symbols = ["fire", "dark_matter"]\n',
            r"dark_grimoire 'dark_monster_x'\.monster\.curse_symbols: a Monster shows 3 Curse symbols",
        ),
        (
            '[[vth_magician]]\nid = "magician_vth_x"\nname = "X"\nelement = "air"\n'
            'starting_deck = { air-1 = 4 }\nability_text = "Fly."\nprovenance = "reconstructed"\n',
            r"vth_magician 'magician_vth_x': the ability 'Fly\.' has neither",
        ),
        (
            '[[vth_magician]]\nid = "magician_vth_x"\nname = "X"\nelement = "air"\n'
            'starting_deck = { air-1 = 4 }\nprovenance = "partial"\nsource = "[VthRB]"\n',
            r"vth_magician 'magician_vth_x'\.known: a partial card must say which part is known",
        ),
    ],
)
def test_bad_entries_are_refused_naming_file_entry_and_field(
    dm: None, tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PackError, match=r"bad\.toml: " + message):
        load_pack("default", (PACK, str(path)))


def test_every_section_is_declared_once() -> None:
    assert [s.name for s in SECTIONS] == ["dark_curse", "black_page", "dark_grimoire", "vth_magician"]
