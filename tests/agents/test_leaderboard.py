"""The leaderboard (agents/leaderboard.py): the repository's page and README table are the render of
its results file, on the current env version; a rerun plays only the missing deals, in saved
chunks; a changed model file or another env version is played again; differences are paired on
the deals both teams played."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from agents import leaderboard as lb
from agents.evaluate import paired_difference, play_games


def test_repository_docs_are_the_render_of_the_results() -> None:
    records = lb.load()
    assert lb.differences(records) == []
    assert {r["env"] for r in records} == {lb.ENV}
    for setting in lb.SETTINGS:
        teams = {r["team"]: len(r["games"]) for r in records if r["setting"] == setting}
        assert teams.get("random") == teams.get("heuristic") == 500, setting


def _fake_play(calls: list[tuple[str, int, int]], fail_at: int | None = None):  # type: ignore[no-untyped-def]
    def play(teams, n, base_seed=0, workers=1, max_decisions=None, config=None):  # type: ignore[no-untyped-def]
        if fail_at is not None and len(calls) == fail_at:
            raise KeyboardInterrupt
        calls.append((teams[0], base_seed, n))
        return [
            [
                SimpleNamespace(win=(base_seed + i) % 2 == 0, curses_destroyed=3, monsters_defeated=1)
                for i in range(n)
            ]
        ]

    return play


def test_a_rerun_plays_only_the_missing_deals_in_saved_chunks(tmp_path, monkeypatch) -> None:
    path = tmp_path / "results.json"
    calls: list[tuple[str, int, int]] = []
    monkeypatch.setattr(lb, "play_games", _fake_play(calls, fail_at=2))
    records: list[dict] = []
    with pytest.raises(KeyboardInterrupt):  # stopped in the third chunk: two chunks are saved
        lb.measure(records, "heuristic", "2p-l1", 5, 2, 1, path, log=lambda m: None)
    saved = lb.load(path)
    assert [len(r["games"]) for r in saved] == [4]
    monkeypatch.setattr(lb, "play_games", _fake_play(calls))
    assert lb.measure(saved, "heuristic", "2p-l1", 5, 2, 1, path, log=lambda m: None) == 1
    assert lb.measure(saved, "heuristic", "2p-l1", 5, 2, 1, path, log=lambda m: None) == 0
    assert calls == [("heuristic", 0, 2), ("heuristic", 2, 2), ("heuristic", 4, 1)]
    (rec,) = lb.load(path)
    assert [g[0] for g in rec["games"]] == [1, 0, 1, 0, 1] and rec["env"] == lb.ENV


def test_other_env_versions_and_changed_model_files_are_played_again(tmp_path, monkeypatch) -> None:
    path = tmp_path / "results.json"
    calls: list[tuple[str, int, int]] = []
    monkeypatch.setattr(lb, "play_games", _fake_play(calls))
    old = {"team": "heuristic", "setting": "2p-l1", "env": "v0", "sha256": None, "games": [[1, 0, 0]] * 3}
    records = [old]
    lb.measure(records, "heuristic", "2p-l1", 3, 10, 1, path, log=lambda m: None)
    assert calls == [("heuristic", 0, 3)]  # the v0 record counts for nothing
    (row,) = lb.rows(records, "2p-l1")  # only the current version's figures are shown
    assert (row["deals"], row["wins"]) == (3, 2)
    assert lb.differences(records, tmp_path / "absent_page", _readme(tmp_path, records))[0] == (
        f"records on env v0, not {lb.ENV}"
    )
    model = tmp_path / "model.zip"
    model.write_bytes(b"one")
    lb.measure(records, f"net={model}", "2p-l1", 2, 10, 1, path, log=lambda m: None)
    lb.measure(records, f"net={model}", "2p-l1", 2, 10, 1, path, log=lambda m: None)  # cached
    model.write_bytes(b"two")
    lb.measure(records, f"net={model}", "2p-l1", 2, 10, 1, path, log=lambda m: None)
    assert calls[1:] == [(str(model), 0, 2), (str(model), 0, 2)]
    assert [r["team"] for r in records if r["env"] == lb.ENV] == ["heuristic", "net"]


def _readme(tmp_path, records):  # type: ignore[no-untyped-def]
    readme = tmp_path / "README.md"
    readme.write_text("intro\n" + lb.readme_table(records) + "\nafter\n")
    return readme


def test_tables_pair_on_the_deals_both_teams_played(tmp_path) -> None:
    heur = [[1, 10, 2], [0, 8, 1], [1, 12, 3], [0, 9, 1]]
    search = [[1, 5, 1], [1, 6, 1]]
    records = [
        {"team": "heuristic", "setting": "2p-l1", "env": lb.ENV, "sha256": None, "games": heur},
        {"team": "search:worlds=8", "setting": "2p-l1", "env": lb.ENV, "sha256": None, "games": search},
        {"team": "heuristic", "setting": "4p-l1", "env": lb.ENV, "sha256": None, "games": heur},
    ]
    h, s = lb.rows(records, "2p-l1")
    assert (h["team"], h["deals"], h["wins"], h["diff"]) == ("heuristic", 4, 2, None)
    assert s["diff"] == (2, *paired_difference([True, True], [True, False]))
    assert s["curses"] == pytest.approx(5.5) and h["monsters"] == pytest.approx(1.75)
    text = lb.page(records)
    assert "## 2 players, level 1, base game (`2p-l1`)" in text and "on 2 |" in text
    assert "| `search:worlds=8` | 2 | 2 | 100.0% (" in text
    table = lb.readme_table(records)
    assert "| 2 players, level 1, base game | 50.0% (4) | 100.0% (2) |" in table
    assert "| 4 players, level 1, base game | 50.0% (4) |  |" in table
    page = tmp_path / "leaderboard.md"
    page.write_text(text)
    readme = _readme(tmp_path, records)
    assert lb.differences(records, page, readme) == []
    readme.write_text(readme.read_text().replace("100.0% (2)", "99.0% (2)"))
    assert lb.differences(records, page, readme) == ["README.md's results table differs"]


def test_real_games_are_the_evaluate_games(tmp_path) -> None:
    """Deal i is seed i, as agents.evaluate plays it."""
    path = tmp_path / "results.json"
    records: list[dict] = []
    lb.measure(records, "heuristic", "2p-l2", 3, 2, 1, path, log=lambda m: None)
    (want,) = play_games(["heuristic"], 3, config={"num_players": 2, "difficulty": 2})
    assert records[0]["games"] == [[int(r.win), r.curses_destroyed, r.monsters_defeated] for r in want]
    assert json.loads(path.read_text())["records"][0]["games"] == records[0]["games"]


def test_import_takes_the_games_agents_evaluate_played(tmp_path) -> None:
    """--import: agents.evaluate --out folders give the same records as playing; a folder of
    another setting, or a gap in the deals, is refused."""
    from agents.evaluate import main as evaluate

    for seed in (0, 2):
        out = tmp_path / f"s{seed}"
        args = ["--policy", "heuristic", "--policy", "random", "--games", "2", "--seed", str(seed), "--quiet"]
        assert evaluate([*args, "--level", "2", "--out", str(out)]) == 0
    path = tmp_path / "results.json"
    imported: list[dict] = []
    assert lb.import_games(imported, "random", "2p-l2", [tmp_path / "s0", tmp_path / "s2"], path) == 4
    played: list[dict] = []
    lb.measure(played, "random", "2p-l2", 4, 4, 1, tmp_path / "played.json", log=lambda m: None)
    assert imported[0]["games"] == played[0]["games"] and lb.load(path) == imported
    with pytest.raises(SystemExit, match="not a 2p-l1 evaluation"):
        lb.import_games([], "random", "2p-l1", [tmp_path / "s0"], path)
    with pytest.raises(SystemExit, match="deals must be 0 to n-1"):
        lb.import_games([], "random", "2p-l2", [tmp_path / "s2"], path)
