"""The balance benchmark's causal check (benchmarks/balance.py, ablation) and the heuristic team
option of the card-coverage sweep (benchmarks/card_coverage.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from agents.evaluate import GameResult, Summary, discordant, paired_difference, wilson
from bbom_env.engine import GameConfig, load_pack, new_game
from bbom_env.engine.cards.pack import NAMED_PACKS
from bbom_env.engine.cards.vocab import normalize_effect

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str):
    # Registered before running: dataclasses look their module up in sys.modules.
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", _BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


bal = _load("balance")
cov = _load("card_coverage")
needs_default = pytest.mark.skipif(not NAMED_PACKS["default"].exists(), reason="no default pack")
SPELL = "spell_fire_exorcism"


@needs_default
def test_the_ablation_override_replaces_exactly_one_card(tmp_path: Path) -> None:
    base = load_pack("default")
    path = bal.write_override(base.spells[SPELL], tmp_path)
    ab = load_pack("default", (str(path),))
    assert set(ab.spells) == set(base.spells)
    assert [sid for sid in base.spells if ab.spells[sid] != base.spells[sid]] == [SPELL]
    assert (ab.curses, ab.pages, ab.magicians) == (base.curses, base.pages, base.magicians)
    old, new = base.spells[SPELL], ab.spells[SPELL]
    assert new.name == f"{old.name} (ablated)" and new.provenance == "reconstructed"
    keep = ("basic", "element", "level", "activation_cost", "learning_cost")
    assert all(getattr(new, k) == getattr(old, k) for k in keep)
    assert list(new.effect) == normalize_effect([{"op": "draw", "count": "X"}], "draw X")


@needs_default
def test_the_placeholder_keeps_every_deal(tmp_path: Path) -> None:
    path = str(bal.write_override(load_pack("default").spells[SPELL], tmp_path))
    for seed in range(5):
        a = new_game(GameConfig(num_players=2, seed=seed))
        b = new_game(GameConfig(num_players=2, seed=seed, pack_overrides=(path,)))
        assert a.library == b.library and a.grimoire == b.grimoire
        assert [p.deck for p in a.players] == [p.deck for p in b.players]


def test_paired_interval_on_a_known_example() -> None:
    # The benchmark's paired interval is agents.evaluate's (one implementation, not a copy).
    assert bal.paired_difference is paired_difference and bal.discordant is discordant
    # 100 pairs: 15 won only with the card, 5 only with the placeholder, 30 by both.
    a = [True] * 15 + [False] * 5 + [True] * 30 + [False] * 50
    b = [False] * 15 + [True] * 5 + [True] * 30 + [False] * 50
    d, lo, hi = bal.paired_difference(a, b)
    assert d == pytest.approx(0.10)
    # Agresti-Min: cells + 1/2, n + 2: (15.5 - 5.5) / 102 -/+ 1.96 * 0.043866.
    assert (lo, hi) == (pytest.approx(0.012062, abs=1e-5), pytest.approx(0.184017, abs=1e-5))
    assert bal.discordant(a, b) == (15, 5)
    d0, lo0, hi0 = bal.paired_difference([True, False] * 50, [True, False] * 50)
    assert d0 == 0 and lo0 < 0 < hi0  # identical outcomes: still an interval, not a point
    with pytest.raises(ValueError):
        bal.paired_difference([True], [True, False])


def test_verdicts_follow_the_documented_rule() -> None:
    assert bal._VERDICTS[bal._verdict(0.12, 0.03, 0.21)] == "decides games"
    assert bal._VERDICTS[bal._verdict(0.05, 0.01, 0.09)] == "helps, not decisive"
    assert bal._VERDICTS[bal._verdict(0.05, -0.02, 0.12)] == "inconclusive"
    assert bal._VERDICTS[bal._verdict(0.01, -0.04, 0.06)] == "no measurable effect"
    assert bal._VERDICTS[bal._verdict(-0.08, -0.12, -0.01)] == "the placeholder does better"


def _summary(spells: dict[str, tuple[int, int, int, int]]) -> Summary:
    return Summary("heuristic", {}, 100, 30, wilson(30, 100), 0, 0, 0, 0, 0, {}, spells)


def test_candidates_are_the_largest_positive_gaps_among_often_learned_spells() -> None:
    cells = [
        _summary({"a": (30, 15, 70, 10), "b": (40, 20, 60, 20), "c": (5, 5, 95, 10), "d": (60, 10, 40, 20)}),
        _summary({"a": (30, 15, 70, 10), "b": (40, 20, 60, 20), "e": (50, 30, 50, 10)}),
    ]
    # a: 60 learned, 50% vs 14.3%; b: 80, 50% vs 33.3%; c: too rarely learned; d: negative gap;
    # e: 50 learned, 60% vs 20%.
    assert bal.ablation_candidates(cells, 3) == ["e", "a", "b"]
    assert bal.ablation_candidates(cells, 1) == ["e"]
    assert bal.ablation_candidates(cells, 3, min_learned=70) == ["b"]


@needs_default
def test_the_heuristic_team_reaches_bonus_pages_in_the_coverage_sweep() -> None:
    rnd = cov.sweep(24, "default", 0, team="random")
    heu = cov.sweep(24, "default", 0, team="heuristic")
    assert heu["wins"] > rnd["wins"] == 0
    assert any(part == "bonus" for _cid, part in heu["seen"])
    with pytest.raises(ValueError):
        cov.sweep(1, "default", 0, team="nobody")


def _game(seed: int, win: bool, library: tuple[str, ...] = (), learned: tuple[str, ...] = ()) -> GameResult:
    return GameResult(seed, win, "", 0, 0, 0, 10, 100 + win, library, learned)


def test_ablation_rows_split_all_dealt_and_learned_games() -> None:
    # 4 games: 0-1 dealt and learned (won only with the card), 2 dealt not learned, 3 not dealt.
    base = [
        _game(0, True, ("s",), ("s",)),
        _game(1, True, ("s",), ("s",)),
        _game(2, False, ("s",)),
        _game(3, True),
    ]
    abl = [_game(0, False, ("s",)), _game(1, False, ("s",)), _game(2, False, ("s",)), _game(3, True)]
    rows, verdict, diffs = bal._ablation_row("s", "S", "2p L1", base, abl)
    assert [d for d, _lo, _hi in diffs] == [pytest.approx(0.5), pytest.approx(2 / 3), pytest.approx(1.0)]
    assert len(rows) == 1 and "| 3 / 4 | 2 / 0 | 75.0% / 25.0% |" in rows[0] and "| 2 / 0 |" in rows[0]
    # A game without the Spell that plays differently breaks the design: it is reported.
    rows, _, _ = bal._ablation_row("s", "S", "2p L1", base, [*abl[:3], _game(3, False)])
    assert len(rows) == 2 and "played differently" in rows[1]


@needs_default
def test_each_modules_option_is_a_module_set_with_its_own_section(capsys: pytest.CaptureFixture[str]) -> None:
    """``--modules`` repeats: each set plays every cell again and gets its own section (docs/balance.md
    compares Dark Matter, Phobias and both), and the "Generated by" line repeats each set."""
    argv = ["--games", "1", "--teams", "heuristic", "--ablate", "0", "--out", "-"]
    argv += ["--modules", "phobias", "--modules", "dark_matter,phobias"]
    args = bal.build_parser().parse_args(argv)
    assert args.modules == [("phobias",), ("dark_matter", "phobias")]
    assert bal.main(argv) == 0
    text = capsys.readouterr().out
    assert "--modules phobias --modules dark_matter,phobias" in text.splitlines()[2]
    sections = text.split("## With the rules modules ")[1:]
    assert [s.splitlines()[0] for s in sections] == ["phobias", "dark_matter, phobias"]
    for section in sections:  # one row per cell: 2 and 4 players, levels 1-3
        assert sum(line.startswith("| heuristic |") for line in section.splitlines()) == 6
