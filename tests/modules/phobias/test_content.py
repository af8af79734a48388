"""The 16 Phobias (V-20; [VthRB]'s quoted texts) and their pack section: the known texts
word for word, the Element ban once per Element, one reconstructed card, every constraint said
as modifiers or a ``needs``, one card code each; ``import bbom_env`` registers the module."""

from __future__ import annotations

from pathlib import Path

import pytest

import bbom_env  # noqa: F401  (registers the default modules)
from bbom_env.engine import GameConfig
from bbom_env.engine.cards.pack import load_pack
from bbom_env.engine.cards.vocab import PackError
from bbom_env.engine.core.rules import MODULES
from bbom_env.modules.phobias.content import SECTION, needs_of, phobia_codes, phobia_of
from bbom_env.modules.phobias.module import PACK, registered
from bbom_env.modules.phobias.state import NUM_PHOBIAS, PHOBIA_BASE

# The twelve Phobia texts The Vth Element's rulebook quotes in its "Description of the Phobias"
# ([VthRB], docs/cards.md "Sources"), copied word for word; the Element ban is quoted for Fire.
QUOTED = (
    "Receive 2 Madness when you shuffle your discard pile.",
    "Destroying a Curse costs you 1 additional matching Element.",
    "Activating Spells costs you 1 additional Element.",
    "You can no longer take the Cure Action (except for this card).",
    "You can no longer use any card in support (even your own).",
    "The Invocation marker advances 2 at the start of your turn.",
    "At the end of your turn, refill your hand to 5 cards instead of 6.",
    "The effect of Curses targeting all players is doubled for you.",
    "You can only refresh one Spell during the Concentration phase.",
    "Acquiring 1 Element card costs you 1 additional identical Element.",
    "You can no longer take an Action using Fire.",
    "You can no longer use your Ability.",
)


def _pack():
    with registered():
        return load_pack("default", (PACK,), modules=("phobias",))


def test_sixteen_phobias_one_code_each_by_sorted_id() -> None:
    """V-20: 16 cards; the Phobias sorted by id take the codes PHOBIA_BASE .. PHOBIA_BASE + 15."""
    sections = _pack().sections
    codes = phobia_codes(sections)
    assert len(codes) == NUM_PHOBIAS
    assert [codes[pid] for pid in sorted(codes)] == list(range(PHOBIA_BASE, PHOBIA_BASE + NUM_PHOBIAS))
    assert phobia_of(sections, PHOBIA_BASE).id == min(codes)
    with pytest.raises(KeyError, match="not a Phobia"):
        phobia_of(sections, 12)


def test_the_rulebooks_texts_word_for_word() -> None:
    """V-20: every Phobia text the rulebook quotes is a card's text exactly, on a partial card."""
    cards = {card.text: card for card in _pack().sections[SECTION].values()}
    assert len(set(QUOTED)) == 12
    missing = [text for text in QUOTED if text not in cards]
    assert not missing, f"quoted texts no card has: {missing}"
    assert all(cards[text].provenance == "partial" and "[VthRB]" in cards[text].source for text in QUOTED)


def test_element_ban_once_per_element_and_one_reconstructed() -> None:
    """V-20: 11 texts + the Element ban x 4 = 15 known; the 16th reconstructed and labelled."""
    cards = _pack().sections[SECTION].values()
    bans = sorted(m["element"] for c in cards for m in c.constraint if m["kind"] == "forbid")
    assert bans == ["air", "earth", "fire", "water"]
    assert [c.provenance for c in cards].count("reconstructed") == 1
    assert all(
        c.provenance == "partial" and c.known and c.source for c in cards if c.provenance != "reconstructed"
    )
    assert len({c.text for c in cards}) == NUM_PHOBIAS


def test_constraints_are_modifiers_or_needs() -> None:
    """Each constraint is data the module's modifier source yields (part B): modifiers of the
    vocabulary; no text waits for a rule any more (``needs`` is for a text no modifier says)."""
    sections = _pack().sections
    cards = sections[SECTION]
    assert all(c.constraint or c.needs for c in cards.values())
    by_text = {c.text: c for c in cards.values()}
    hand5 = by_text["At the end of your turn, refill your hand to 5 cards instead of 6."]
    assert hand5.constraint == ({"kind": "replace", "point": "hand_size", "value": 5},)  # V-35
    assert by_text["You can no longer use your Ability."].constraint == ({"kind": "lose_ability"},)  # V-27
    cure = by_text["You can no longer take the Cure Action (except for this card)."]
    assert cure.constraint == ({"kind": "cure_only"},)  # V-31, read by the engine's Cure Action
    assert needs_of(sections) == []  # part B: every text is said by modifiers (V-31, V-32, V-36)


def test_a_phobia_saying_nothing_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[pack]\nid = "bad"\nname = "bad"\nversion = 1\n\n[[phobia]]\nid = "phobia_x"\nname = "X"\n'
        'text = "Fear."\nprovenance = "reconstructed"\n'
    )
    with (
        registered(),
        pytest.raises(PackError, match=r"bad\.toml.*phobia_x.*neither a 'constraint' nor 'needs'"),
    ):
        load_pack("default", (str(bad),), modules=("phobias",))


def test_registered_by_import() -> None:
    """``import bbom_env`` registers the Phobia module: a game naming it is accepted, alone
    or with Dark Matter."""
    assert "phobias" in MODULES
    assert GameConfig(modules=("phobias",)).modules == ("phobias",)
    assert GameConfig(modules=("dark_matter", "phobias")).modules == ("dark_matter", "phobias")
