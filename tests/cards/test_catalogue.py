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
    assert len(lines) == 179 and lines[-1].startswith("178 cards")
    assert re.search(r"^dark_curse_01 +dark_curse \[dark_matter\] .*~ +partial$", r.stdout, flags=re.M)
    assert re.search(r"^phobia_16 +phobia \[phobias\] .*\* +reconstructed$", r.stdout, flags=re.M)
    base = cli("list", "--base-only").stdout.splitlines()
    assert base[-1].startswith("113 cards") and not any("[dark_matter]" in line for line in base)
    dm = cli("list", "--module", "dark_matter").stdout.splitlines()
    assert dm[-1].startswith("162 cards") and not any("[phobias]" in line for line in dm)
    both = cli("list", "--module", "dark_matter", "--module", "phobias").stdout
    assert both == r.stdout
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
