"""The card catalogue CLI (python -m bbom_env.cards) and the generated docs/cards.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bbom_env.cards import count_text, module_files, render_docs
from bbom_env.engine import load_pack
from bbom_env.engine.cards.vocab import MOD_SCHEMAS, OP_SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "cards.md"
FORMAT_DOC = ROOT / "docs" / "card_pack_format.md"
EXAMPLE = ROOT / "examples" / "override_pack.toml"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bbom_env.cards", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_docs_are_not_stale():
    # The default pack and every registered module's cards (the Dark Matter module's).
    assert DOCS.read_text(encoding="utf-8") == render_docs(load_pack("default", module_files(None))), (
        "docs/cards.md is stale: run `python -m bbom_env.cards docs`"
    )


def test_docs_mark_reconstructed_cards():
    text = DOCS.read_text(encoding="utf-8")
    assert "not the real game's cards" in text
    pack = load_pack("default")
    found = re.findall(r"^### (.+)\n\n`([a-z0-9_]+)`", text, flags=re.M)
    headings = {cid: title for title, cid in found}
    assert len(headings) == 113 + 49 + 16  # the base pack, then the Dark Matter and Phobia modules' cards
    for card in [
        *pack.magicians.values(),
        *pack.spells.values(),
        *pack.curses.values(),
        *pack.pages.values(),
    ]:
        assert headings[card.id].endswith("*") == (card.provenance == "reconstructed"), card.id
        assert headings[card.id].endswith("~") == (card.provenance == "partial"), card.id


def test_format_doc_covers_the_vocabulary():
    text = FORMAT_DOC.read_text(encoding="utf-8")
    for name in [*OP_SCHEMAS, *MOD_SCHEMAS]:
        assert f"| `{name}` |" in text, name


@pytest.mark.parametrize("count, text", [((3, 0), "3"), ((0, 1), "X"), ((0, 2), "2X"), ((99, 0), "all")])
def test_count_text(count, text):
    assert count_text(count) == text


def test_cli_list():
    r = cli("list")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # The base pack's 113 cards, the Dark Matter module's 49 and the Phobia module's 16 (their pack
    # files, Module.pack_files).
    assert len(lines) == 179 and lines[-1].startswith("178 cards in pack 'default' + every module's cards")
    assert len({line.split()[0] for line in lines[:-1]}) == 178  # each card once
    assert re.search(r"^dark_curse_01 +dark_curse \[dark_matter\] .*~ +partial$", r.stdout, flags=re.M)
    assert re.search(
        r"^magician_vth_fire +vth_magician \[dark_matter\] .*\* +reconstructed$", r.stdout, flags=re.M
    )
    assert re.search(r"^phobia_16 +phobia \[phobias\] .*\* +reconstructed$", r.stdout, flags=re.M)
    base = cli("list", "--base-only").stdout.splitlines()
    assert base[-1].startswith("113 cards in pack 'default' (no module)")
    assert not any("[dark_matter]" in line for line in base)
    # --module lists that module's cards only
    dm = cli("list", "--module", "dark_matter").stdout.splitlines()
    assert dm[-1].startswith("49 cards of module dark_matter in pack 'default'")
    assert all("[dark_matter]" in line for line in dm[:-1]) and len(dm) == 50
    ph = cli("list", "--module", "phobias").stdout.splitlines()
    assert ph[-1].startswith("16 cards of module phobias") and all(" phobia [phobias] " in x for x in ph[:-1])
    assert not any(x.startswith(("spell_", "curse_", "magician_fire")) for x in dm + ph)
    both = cli("list", "--module", "phobias", "--module", "dark_matter").stdout.splitlines()
    assert both[-1].startswith("65 cards of module dark_matter, phobias")
    assert sorted(x.split() for x in both[:-1]) == sorted(x.split() for x in dm[:-1] + ph[:-1])
    bad = cli("list", "--module", "fear")
    assert (
        bad.returncode == 2
        and "--module 'fear': no such module; registered modules: ['dark_matter', 'phobias']" in bad.stderr
    )
    growth = next(line for line in lines if line.startswith("spell_growth "))
    assert growth.split()[-1] == "partial" and "spell/basic" in growth
    assert re.search(r"^curse_fire_01 .*\* +reconstructed$", r.stdout, flags=re.M)
    assert re.search(r"^spell_growth .*Growth~ +partial$", r.stdout, flags=re.M)


def test_cli_show():
    r = cli("show", "monster_spider")
    assert r.returncode == 0, r.stderr
    assert "Spider-like Monster" in r.stdout and "[HJ-FAQ] ruling 9" in r.stdout
    assert "filter=element" in r.stdout and "provenance: partial" in r.stdout
    assert "Spider-like Monster~" in r.stdout and "- known: Curse symbols Air, Earth, Water" in r.stdout
    r = cli("show", "no_such_card")
    assert r.returncode == 1 and "no_such_card" in r.stderr


def test_cli_show_module_cards_readably():
    """Every module card in words: no Python reprs (dataclasses, dicts, tuples), no empty fields."""
    from bbom_env.cards import card_lines, module_card_ids

    ids = sorted(module_card_ids(["dark_matter", "phobias"]))
    assert len(ids) == 65
    pack = load_pack("default", module_files(None), modules=("dark_matter", "phobias"))
    for cid in ids:
        title, lines = card_lines(pack, cid)
        text = "\n".join(lines)
        for raw in (
            "{'",
            "('",
            "=(",
            "BlackSpell(",
            "DarkMonster(",
            "Magician(",
            ": None",
            ": ()",
            ": []",
            " 0, 0",
        ):
            assert raw not in text, (cid, raw)
        assert not [line for line in lines if line.rstrip().endswith(":")], (cid, lines)
    r = cli("show", "magician_vth_fire")
    assert (
        r.returncode == 0
        and "- element: fire;" in r.stdout
        and "starting deck (12 cards): 4 x fire-1" in r.stdout
    )
    r = cli("show", "black_page_inside_01")
    assert '- front: cost 3; "Add 1 Element card of value 3 to your draw pile"' in r.stdout
    assert "- front spell: gain_to_deck(target=you)" in r.stdout
    r = cli("show", "phobia_03")
    assert (
        "- constraint: cost(action=activate, element=any, amount=1)" in r.stdout and "needs" not in r.stdout
    )


def test_cli_validate_ok():
    r = cli("validate", "default")
    assert r.returncode == 0 and r.stdout.startswith("OK:") and "113 cards" in r.stdout
    r = cli("validate", "default", "--override", str(EXAMPLE))
    assert r.returncode == 0 and "override_pack.toml" in r.stdout


def test_cli_validate_reports_file_card_and_field(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text(
        '[[curse]]\nid = "curse_fire_01"\nname = "X"\ntype = "fire"\ntext = "?"\n'
        'effect = [{ op = "discard", from = "pocket" }]\nprovenance = "printed"\nsource = "own copy"\n'
    )
    r = cli("validate", "default", "--override", str(bad))
    assert r.returncode == 1 and r.stdout == ""
    assert "broken.toml" in r.stderr and "curse_fire_01" in r.stderr and "effect[0].from" in r.stderr
    r = cli("validate", str(tmp_path / "missing.toml"))
    assert r.returncode == 1 and "not found" in r.stderr


def test_cli_docs_writes_the_catalogue(tmp_path):
    out = tmp_path / "cards.md"
    r = cli("docs", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == render_docs(load_pack("default", module_files(None)))
