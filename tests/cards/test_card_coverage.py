"""Random playouts exercise the card effects (benchmarks/card_coverage.py): a light sweep on the
engine test pack here; the default pack's sweep is marked slow."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bbom_env.engine.cards.pack import NAMED_PACKS

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "card_coverage.py"
_spec = importlib.util.spec_from_file_location("card_coverage", _PATH)
cov = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cov)


def test_the_sweep_spans_player_counts_levels_and_payment_modes() -> None:
    cfgs = cov.configs(24, "test", 0)
    assert {(c.num_players, c.difficulty, c.payment) for c in cfgs} == {
        (n, d, p) for n in (2, 3, 4, 5) for d in (1, 2, 3) for p in ("auto", "manual")
    }


def test_random_playouts_exercise_the_test_pack() -> None:
    r = cov.sweep(160, "test", 0)
    print(f"test pack: {r['card_share']:.1%} of cards, missing {r['missing_units']}")
    assert r["card_share"] >= 0.9
    # Only a Bonus (every Curse of a round destroyed) may stay rare in random play.
    assert all(part == "bonus" for _cid, part in r["missing_units"]), r["missing_units"]
    assert r["seen"][("test_mag_calm", "trigger0")] > 0  # triggers are seen too


def test_units_name_every_card_effect() -> None:
    from bbom_env.engine import load_pack

    p = load_pack("test")
    units = cov.effect_units(p)
    assert set(units) == set(p.spells) | set(p.curses) | set(p.pages) | set(p.magicians)
    assert all(units.values())
    assert units["test_page_4"] == ["arrival", "bonus", "failure"]
    assert units["test_mag_calm"] == ["trigger0", "passive"] and units["test_end"] == ["final"]


@pytest.mark.slow
@pytest.mark.skipif(not NAMED_PACKS["default"].exists(), reason="no default pack yet")
def test_random_playouts_exercise_the_default_pack() -> None:
    r = cov.sweep(480, "default", 0)
    print(f"default pack: {r['card_share']:.1%} of cards, missing {r['missing_units']}")
    assert r["card_share"] >= 0.9
