"""Game files (bbom_env.view.game_file), the replay page (bbom_env.view.replay_html) and the commands
that write them: ``python -m bbom_env.replay``, ``bbom_env.play --save``, ``agents.evaluate
--save-games``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents.evaluate import evaluation_game, game_file_name
from agents.evaluate_report import main as evaluate_main
from bbom_env import play, replay
from bbom_env.engine import GameConfig, GameState
from bbom_env.engine import replay as engine_replay
from bbom_env.view import board_parts
from bbom_env.view.game_file import GAME_FORMAT, GameFileError, load_game, record_of, save_game
from bbom_env.view.replay_html import game_data, replay_html


def data_of(page: str) -> dict:
    m = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1).replace("<\\/", "</"))


# -- game files --------------------------------------------------------------------------------------


def test_a_game_file_replays_the_game(tmp_path: Path, module_game: list[GameState]) -> None:
    last = module_game[-1]
    path = save_game(tmp_path / "sub" / "g.json", last, ["heuristic"] * 3, "a game")
    data = json.loads(path.read_text())
    assert (
        data["format"] == GAME_FORMAT and data["moves"] == last.history and data["seats"] == ["heuristic"] * 3
    )
    record = load_game(path)
    assert record.config == last.config and record.title == "a game"
    states = [s for s, _ in record.steps()]
    assert len(states) == len(last.history) + 1 and states[-1] == last
    assert all(a == b for a, b in zip(states[::25], module_game[::25], strict=True))


def test_a_state_save_is_a_game_too(tmp_path: Path, base_game: list[GameState]) -> None:
    path = tmp_path / "state.json"
    path.write_text(base_game[100].to_json())
    record = load_game(path)
    assert record.moves == tuple(base_game[100].history) and record.title == "state.json"
    assert engine_replay(record.config, record.moves) == base_game[100]


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: d.update(format="x"), r"not a game file \(format 'x'"),
        (lambda d: d["moves"].__setitem__(3, "8"), r"moves\[3\] = '8' is not a move id"),
        (lambda d: d["config"].update(num_players=9), r"field 'config'.*num_players"),
        (lambda d: d.update(pack_sha256=["0" * 64]), r"field 'pack_sha256'"),
        (lambda d: d.update(seats="heuristic"), r"field 'seats'"),
    ],
)
def test_a_bad_game_file_names_the_field(
    tmp_path: Path, base_game: list[GameState], edit, match: str
) -> None:
    data = json.loads(json.dumps({**record_dict(base_game[-1])}))
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=match):
        load_game(path)


def record_dict(state: GameState) -> dict:
    from bbom_env.view.game_file import game_dict

    return game_dict(record_of(state))


def test_a_move_that_does_not_replay_is_named(tmp_path: Path, base_game: list[GameState]) -> None:
    data = record_dict(base_game[-1])
    data["moves"][5] = 999
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=r"moves\[5\]: move 999 is not legal"):
        list(load_game(path).steps())


# -- the page -----------------------------------------------------------------------------------------


def test_the_page_holds_every_step_and_view(base_game: list[GameState]) -> None:
    record = record_of(base_game[-1], ["heuristic", "heuristic"], "t")
    data = game_data(record)
    n = len(base_game)
    assert len(data["steps"]) == n and set(data["frames"]) == {"spectator", "0", "1"}
    for key, view in (("spectator", None), ("0", 0), ("1", 1)):
        for i in (0, n // 2, n - 1):
            frame = "".join(data["segments"][k] for k in data["frames"][key][i])
            assert frame == "".join(board_parts(base_game[i], view))
    step = data["steps"][10]
    assert step["move_id"] == base_game[-1].history[10] and step["seat"] == base_game[-1].movers[10]
    assert step["turn"] == base_game[10].turn and data["steps"][-1]["move"] is None
    # Segments are stored once: far fewer than frames x parts.
    assert len(data["segments"]) < 3 * n * 8 / 4
    events = [e for s in data["steps"] for e in s["events"]]
    assert any("the Invocation marker moves to" in e for e in events)


def test_the_page_is_self_contained(base_game: list[GameState]) -> None:
    page = replay_html(record_of(base_game[40]))
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    urls = set(re.findall(r"https?://[^\s\"'<>)\\]+", page))
    assert urls == {"http://www.w3.org/2000/svg"}  # the SVG namespace name only: nothing is fetched


def test_cli_writes_a_page_from_a_game_file_and_from_an_evaluation(tmp_path: Path, capsys) -> None:
    assert (
        replay.main(
            [
                "--team",
                "heuristic",
                "--seed",
                "2",
                "--modules",
                "dark_matter,phobias",
                "-o",
                str(tmp_path / "e.html"),
            ]
        )
        == 0
    )
    page = (tmp_path / "e.html").read_text()
    state, _, truncated = evaluation_game(
        "heuristic", {"num_players": 2, "modules": ("dark_matter", "phobias")}, 2, max_decisions=2000
    )
    assert not truncated and len(data_of(page)["steps"]) == len(state.history) + 1
    save_game(tmp_path / "g.json", state)
    assert replay.main([str(tmp_path / "g.json")]) == 0
    assert data_of((tmp_path / "g.html").read_text())["steps"] == data_of(page)["steps"]
    assert "wrote" in capsys.readouterr().out


def test_cli_errors_exit_2_naming_the_problem(tmp_path: Path, capsys) -> None:
    for argv, match in (
        ([], "give GAME"),
        ([str(tmp_path / "none.json")], "cannot read it"),
        (["--team", "nobody"], "unknown team 'nobody'"),
    ):
        with pytest.raises(SystemExit) as exc:
            replay.main(argv)
        assert exc.value.code == 2 and match in capsys.readouterr().err


def test_play_save_and_evaluate_save_games(tmp_path: Path, capsys) -> None:
    out = tmp_path / "played.json"
    assert (
        play.main(
            ["--watch", "--seed", "4", "--max-steps", "30", "--save", str(out)],
            out=open(tmp_path / "log.txt", "w"),
        )
        == 0
    )
    record = load_game(out)
    assert len(record.moves) == 30 and record.seats == ("heuristic", "heuristic")
    folder = tmp_path / "games"
    assert (
        evaluate_main(
            [
                "--team",
                "heuristic",
                "--games",
                "2",
                "--seed",
                "7",
                "--quiet",
                "--out",
                str(tmp_path / "ev"),
                "--save-games",
                str(folder),
            ]
        )
        == 0
    )
    files = sorted(p.name for p in folder.iterdir())
    assert files == [game_file_name("heuristic", 7), game_file_name("heuristic", 8)]
    games = (tmp_path / "ev" / "games.csv").read_text().splitlines()
    state, _, _ = evaluation_game("heuristic", {"num_players": 2}, 7, max_decisions=2000)
    saved = load_game(folder / files[0])
    assert saved.moves == tuple(state.history) and saved.config == GameConfig(num_players=2, seed=7)
    assert len(games) == 3  # header + the two games
