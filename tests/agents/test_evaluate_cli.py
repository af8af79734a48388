"""``python -m agents.evaluate``: paired seeded deals, determinism across runs and worker counts,
outputs that agree with each other (table, CSV, markdown, JSON), truncation at a decision limit,
clean argument errors, and a trained-policy file evaluated through the CLI."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents import RandomAgent
from agents.evaluate import (
    DEFAULT_MAX_DECISIONS,
    discordant,
    evaluate,
    main,
    paired_difference,
    paired_mean_difference,
    play_game,
)
from bbom_env.engine import GameConfig

ROOT = Path(__file__).resolve().parents[2]


def _run(capsys, tmp_path: Path, *args: str, out: str = "out") -> tuple[dict, Path]:
    """Run the CLI in-process with --json; (the JSON summary, the output directory)."""
    d = tmp_path / out
    assert main([*args, "--out", str(d), "--json", "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    return json.loads(lines[-1]), d


def _games(d: Path) -> list[dict[str, str]]:
    with open(d / "games.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_outputs_agree_and_deals_are_paired(capsys, tmp_path: Path) -> None:
    summary, d = _run(capsys, tmp_path, "--pack", "test", "--games", "6", "--seed", "3")
    teams = summary["teams"]
    assert [t["team"] for t in teams] == ["random", "heuristic"]  # the default teams
    assert summary["config"]["seed"] == 3 and summary["config"]["games"] == 6

    games = _games(d)
    seeds = {t: [int(g["seed"]) for g in games if g["team"] == t] for t in ("random", "heuristic")}
    assert seeds["random"] == seeds["heuristic"] == list(range(3, 9))  # the same deals, in order

    with open(d / "evaluation.csv", newline="") as f:
        rows = {r["team"]: r for r in csv.DictReader(f)}
    md = (d / "evaluation.md").read_text()
    for t in teams:
        mine = [g for g in games if g["team"] == t["team"]]
        row = rows[t["team"]]
        assert t["wins"] == sum(int(g["win"]) for g in mine) == int(row["wins"])
        assert t["curses"] == pytest.approx(sum(int(g["curses"]) for g in mine) / 6)
        assert float(row["curses"]) == pytest.approx(t["curses"])
        assert float(row["win_lo"]) == pytest.approx(t["win_lo"])
        assert t["decisions"] == pytest.approx(sum(int(g["decisions"]) for g in mine) / 6)
        assert f"| {t['team']} | 6 | {100 * t['win_rate']:.1f}% [" in md
        assert f"| {t['curses']:.2f} |" in md
    # the paired difference is recomputed from the per-game rows
    win = {t: [g["win"] == "1" for g in games if g["team"] == t] for t in ("random", "heuristic")}
    diff, lo, hi = paired_difference(win["heuristic"], win["random"])
    h = teams[1]
    assert (h["vs"], h["win_diff"], h["win_diff_lo"], h["win_diff_hi"]) == ("random", diff, lo, hi)
    assert teams[0]["win_diff"] is None and rows["random"]["win_diff"] == ""
    assert f"{100 * diff:+.1f} pp" in md


def test_deterministic_and_independent_of_workers(capsys, tmp_path: Path) -> None:
    args = ("--pack", "test", "--games", "4", "--policy", "random", "--policy", "heuristic")
    one, d1 = _run(capsys, tmp_path, *args, out="a")
    again, d2 = _run(capsys, tmp_path, *args, out="b")
    two, d3 = _run(capsys, tmp_path, *args, "--workers", "2", out="c")
    assert one["teams"] == again["teams"] == two["teams"]
    assert (d1 / "games.csv").read_text() == (d2 / "games.csv").read_text() == (d3 / "games.csv").read_text()
    assert (d1 / "evaluation.md").read_text() == (d3 / "evaluation.md").read_text()


def test_heuristic_destroys_more_curses_than_random(capsys, tmp_path: Path) -> None:
    """Measured on these 10 test-pack deals: about 16 vs 1 Curses per game."""
    summary, _ = _run(capsys, tmp_path, "--pack", "test", "--games", "10")
    rand, heur = summary["teams"]
    assert heur["curses"] >= rand["curses"] + 5
    assert heur["curses_diff_lo"] > 0  # paired interval excludes no difference


def test_truncation_counts_games_as_not_won(capsys, tmp_path: Path) -> None:
    summary, d = _run(capsys, tmp_path, "--policy", "heuristic", "--games", "3", "--max-decisions", "25")
    (t,) = summary["teams"]
    assert t["truncated"] == 3 and t["wins"] == 0 and t["decisions"] == 25
    assert all(g["truncated"] == "1" and g["reason"] == "truncated" for g in _games(d))
    assert "| 3 |" in (d / "evaluation.md").read_text()


def test_play_game_keeps_raising_unless_truncating() -> None:
    cfg = GameConfig(pack="test", seed=1)
    with pytest.raises(RuntimeError, match="exceeded 10 decisions"):
        play_game(cfg, RandomAgent(1), max_decisions=10)
    r = play_game(cfg, RandomAgent(1), max_decisions=10, truncate=True)
    assert r.truncated and not r.win and r.decisions == 10
    full = play_game(cfg, RandomAgent(1), max_decisions=100_000, truncate=True)
    assert not full.truncated and full == play_game(cfg, RandomAgent(1))


def test_default_limit_is_the_env_max_steps() -> None:
    from bbom_env.rl.gym_env import DEFAULT_MAX_STEPS

    assert DEFAULT_MAX_DECISIONS == DEFAULT_MAX_STEPS


def test_paired_intervals_on_hand_computed_examples() -> None:
    a = [True, False, True, True, False, False, True, False]
    b = [False, False, True, False, False, True, False, False]
    # 8 pairs: 3 won only by a, 1 only by b. Agresti-Min: cells + 1/2, n + 2, so p10 = 3.5 / 10 and
    # p01 = 1.5 / 10; half width 1.96 * sqrt((0.5 - 0.2 ** 2) / 10) = 1.96 * 0.214476 = 0.420373.
    assert discordant(a, b) == (3, 1)
    diff, lo, hi = paired_difference(a, b)
    assert diff == pytest.approx(2 / 8)
    assert (lo, hi) == (pytest.approx(0.2 - 0.420373, abs=1e-6), pytest.approx(0.2 + 0.420373, abs=1e-6))
    with pytest.raises(ValueError):
        paired_difference([True], [True, False])
    # differences 2, 3, 1: mean 2, sample sd 1, half width 1.96 / sqrt(3)
    mean, lo, hi = paired_mean_difference([3.0, 5.0, 4.0], [1.0, 2.0, 3.0])
    assert mean == pytest.approx(2.0)
    assert (lo, hi) == (pytest.approx(2 - 1.96 / 3**0.5), pytest.approx(2 + 1.96 / 3**0.5))
    assert paired_mean_difference([1.0, 2.0], [1.0, 2.0]) == (0.0, 0.0, 0.0)


def test_report_names_are_importable_from_evaluate() -> None:
    import agents.evaluate as ev
    import agents.evaluate_report as rep

    for name in ("GAME_COLUMNS", "team_records", "format_text", "format_markdown", "format_spells"):
        assert getattr(ev, name) is getattr(rep, name)
    assert ev.write_outputs is rep.write_outputs
    with pytest.raises(AttributeError):
        ev.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "7"], "--players"),
        (["--players", "two"], "--players"),
        (["--level", "0"], "--level"),
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--max-decisions", "0"], "--max-decisions"),
        (["--mode", "hard"], "--mode"),
        (["--payment", "cash"], "--payment"),
        (["--pack", "no_such_pack"], "no_such_pack"),
        (["--policy", "no/such/model.zip"], "no/such/model.zip"),
    ],
)
def test_bad_values_exit_2(capsys, tmp_path: Path, args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(tmp_path / "out")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_unknown_policy_path_from_the_shell(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "agents.evaluate", "--policy", str(tmp_path / "missing.zip")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert p.returncode == 2
    assert "missing.zip" in p.stderr and "Traceback" not in p.stderr


@pytest.fixture(scope="module")
def tiny_policy(tmp_path_factory) -> Path:
    gym = pytest.importorskip("gymnasium")
    sb3c = pytest.importorskip("sb3_contrib")
    import bbom_env  # noqa: F401  (registers BigBookOfMadness-v2)

    path = tmp_path_factory.mktemp("policy") / "tiny.zip"
    sb3c.MaskablePPO("MlpPolicy", gym.make("BigBookOfMadness-v2"), seed=0).save(path)
    return path


def test_policy_file_through_the_cli(capsys, tmp_path: Path, tiny_policy: Path) -> None:
    args = ("--policy", str(tiny_policy), "--policy", "random", "--games", "2")
    summary, d = _run(capsys, tmp_path, *args)
    pol, rand = summary["teams"]
    assert pol["team"] == str(tiny_policy) and pol["games"] == 2 and rand["vs"] == str(tiny_policy)
    assert [g["seed"] for g in _games(d) if g["team"] == str(tiny_policy)] == ["0", "1"]
    sampled, _ = _run(capsys, tmp_path, *args, "--stochastic", out="s1")
    again, _ = _run(capsys, tmp_path, *args, "--stochastic", out="s2")
    assert sampled["teams"] == again["teams"]  # sampling is seeded per game
    assert sampled["config"]["deterministic"] is False


def test_policy_on_the_wrong_pack_is_a_clean_error(capsys, tmp_path: Path, tiny_policy: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--policy", str(tiny_policy), "--pack", "test", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "observations of" in capsys.readouterr().err


def test_evaluate_api_accepts_a_policy_path(tiny_policy: Path) -> None:
    s = evaluate(str(tiny_policy), 2, max_decisions=DEFAULT_MAX_DECISIONS, num_players=2)
    assert s.team == str(tiny_policy) and s.games == 2 and s.truncated <= 2
    with pytest.raises(ValueError, match="unknown team"):
        evaluate("no_such_team", 1)
