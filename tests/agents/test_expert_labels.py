"""Expert label files (agents/expert_labels.py): made once, replayed through the env's encoder into
exactly the rows a live recording gives, resumable, refused with file and line when they do not fit
the run, and read by training through ``imitation.labels``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import expert_labels as xl
from agents.imitation import record
from agents.train_config import TrainConfigError, load
from agents.training import DEMO_SEED, Run
from bbom_env.rl.rewards import RewardConfig

ROOT = Path(__file__).resolve().parents[2]
GAME = {"num_players": 2, "difficulty": 1}
REWARD = RewardConfig.coerce({"win": 1.0, "loss": 0.0, "potential_curse_destroyed": 0.02, "gamma": 0.99})


def _quiet(msg: str) -> None:
    pass


def test_heuristic_labels_replay_into_the_rows_of_a_live_recording(tmp_path: Path) -> None:
    path = xl.make(tmp_path / "h.jsonl", GAME, "heuristic", "heuristic", 2, 40, log=_quiet)
    got = xl.load([path], GAME, REWARD)
    live = record(GAME, 2, 40, REWARD)
    assert len(got) == len(live) > 100
    np.testing.assert_array_equal(got.obs, live.obs)
    np.testing.assert_array_equal(got.masks, live.masks)
    np.testing.assert_array_equal(got.actions, live.actions)
    np.testing.assert_array_equal(got.returns, live.returns)
    assert (got.games, got.wins) == (live.games, live.wins)


def test_an_actor_plays_and_the_teacher_labels(tmp_path: Path) -> None:
    path = xl.make(tmp_path / "r.jsonl", GAME, "heuristic", "random", 1, 7, log=_quiet)
    header, (game,) = xl.read(path)
    assert header["game"]["modules"] == [] and header["env"] == xl.ENV
    assert sum(label != game["moves"][i] for i, label in game["labels"]) > 10  # random plays, not the label
    data = xl.load([path], GAME, REWARD)
    assert list(data.actions) == [label for _, label in game["labels"]]


def test_make_resumes_and_drops_a_partly_written_line(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    xl.make(path, GAME, "heuristic", "heuristic", 2, 0, log=_quiet)
    with path.open("a") as f:
        f.write('{"seed": 2, "moves": [1, 2')  # a run stopped while writing
    logs: list[str] = []
    xl.make(path, GAME, "heuristic", "heuristic", 3, 0, log=logs.append)
    assert logs[0].endswith("2 game(s) already labelled, 1 to play")
    _, games = xl.read(path)
    assert [g["seed"] for g in games] == [0, 1, 2]
    with pytest.raises(xl.LabelFileError, match=r"h\.jsonl:1: teacher is 'heuristic', not 'random'"):
        xl.make(path, GAME, "random", "heuristic", 3, 0, log=_quiet)


def test_a_file_for_another_game_version_or_with_a_bad_move_is_refused(tmp_path: Path) -> None:
    path = xl.make(tmp_path / "h.jsonl", GAME, "heuristic", "heuristic", 1, 3, log=_quiet)
    with pytest.raises(xl.LabelFileError, match=r"h\.jsonl:1: game\.num_players is 2, the run's is 3"):
        xl.load([path], {"num_players": 3}, REWARD)
    header, (game,) = xl.read(path)
    bad_move = r"move\.jsonl:2: seed 3, decision 5 \(\w+\): move 1000000 is not legal"
    bad_label = r"label\.jsonl:2: seed 3, .*label 1000000 is not one of"
    for name, change, match in (
        ("old.jsonl", lambda h, g: h.update(env="v0"), r"old\.jsonl:1: made on env v0"),
        ("move.jsonl", lambda h, g: g["moves"].__setitem__(5, 10**6), bad_move),
        ("label.jsonl", lambda h, g: g["labels"][0].__setitem__(1, 10**6), bad_label),
    ):
        h, g = json.loads(json.dumps(header)), json.loads(json.dumps(game))
        change(h, g)
        (tmp_path / name).write_text(json.dumps(h) + "\n" + json.dumps(g) + "\n")
        with pytest.raises(xl.LabelFileError, match=match):
            xl.load([tmp_path / name], GAME, REWARD)
    (tmp_path / "not.jsonl").write_text('{"format": "other"}\n')
    with pytest.raises(xl.LabelFileError, match=r"not\.jsonl:1: not a label file"):
        xl.read(tmp_path / "not.jsonl")


def test_the_command_makes_and_shows_a_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.jsonl"
    assert (
        xl.main(["make", "--teacher", "heuristic", "--actor", "random", "--games", "1", "--out", str(out)])
        == 0
    )
    assert xl.main(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "1 games, 0 won by the actor" in shown and "labels (" in shown
    assert xl.main(["show", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: no such label file" in capsys.readouterr().err


def test_training_adds_the_labels_to_the_clones_data(tmp_path: Path) -> None:
    labels = xl.make(tmp_path / "x.jsonl", GAME, "heuristic", "random", 2, 0, log=_quiet)
    with pytest.raises(TrainConfigError, match=r"imitation\.labels: '.*nothing\.jsonl': no such file"):
        load(ROOT / "configs" / "smoke.yaml", [f"imitation.labels=[{tmp_path / 'nothing.jsonl'}]"])
    sets = [f"imitation.labels=[{labels}]", "imitation.dagger_rounds=0", "ppo.enabled=false"]
    cfg = load(ROOT / "configs" / "smoke.yaml", sets)
    Run.start(cfg, tmp_path / "run", progress=False, log=_quiet).execute()
    report = json.loads((tmp_path / "run" / "imitation.json").read_text())
    n = sum(len(g["labels"]) for g in xl.read(labels)[1])
    assert report["expert_labels"] == {"files": [str(labels)], "games": 2, "decisions": n}
    assert report["decisions"] == n + len(record(GAME, 6, DEMO_SEED, REWARD))  # the heuristic's 6 games too


def test_the_shipped_labels_and_the_expert_config_fit_each_other() -> None:
    cfg = load(ROOT / "configs" / "expert.yaml")
    (name,) = cfg.imitation.labels
    header, games = xl.read(ROOT / name)
    assert header["teacher"].startswith("search") and header["env"] == xl.ENV
    data = xl.load([ROOT / name], cfg.env.game, cfg.reward_config())
    assert data.games == len(games) and len(data) == sum(len(g["labels"]) for g in games)
