"""A policy knows what it was trained on (its run's config.yaml): ``agents.evaluate`` and
``bbom_env.play`` default to that game (players, level, modules ...) and refuse a mismatch with a
clear error; ``--modules`` plays the Vth Element from the command line; ``--json`` prints only JSON
on stdout and nothing is written without ``--out``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.evaluate import main
from agents.train_config import dump, load
from agents.trained_settings import DEFAULTS, SettingsError, game_settings, trained_game


def _run_dir(parent: Path, name: str, *overrides: str) -> Path:
    """A run directory as train.py writes it: config.yaml (resolved) and a model file."""
    run = parent / name
    run.mkdir()
    dump(load(None, list(overrides)), run / "config.yaml")
    (run / "best_model.zip").write_bytes(b"")  # read only by the agent, not by the settings
    return run


@pytest.fixture
def dm_run(tmp_path: Path) -> Path:
    return _run_dir(
        tmp_path,
        "dm",
        "env.game.num_players=3",
        "env.game.difficulty=2",
        "env.game.modules=[phobias,dark_matter]",
    )


def test_run_config_names_its_modules_canonically(dm_run: Path) -> None:
    text = (dm_run / "config.yaml").read_text()
    assert "- dark_matter\n    - phobias" in text or "modules:\n    - dark_matter" in text
    game = trained_game(str(dm_run / "best_model.zip"))
    assert game is not None
    assert game["modules"] == ("dark_matter", "phobias")
    assert (game["num_players"], game["difficulty"]) == (3, 2)
    # found one folder up too (checkpoints/x.zip) and for an RLlib checkpoint folder
    (dm_run / "checkpoints").mkdir()
    assert trained_game(str(dm_run / "checkpoints" / "x.zip")) == game
    assert trained_game(f"rllib:{dm_run / 'checkpoint'}") == game
    assert trained_game("heuristic") is None
    assert trained_game(str(dm_run.parent / "bare.zip")) is None


def test_settings_default_to_the_policy(dm_run: Path) -> None:
    none = dict.fromkeys(("num_players", "difficulty", "mode", "payment", "pack", "modules"))
    settings, source = game_settings(["heuristic"], none)
    assert settings == DEFAULTS and source is None
    policy = str(dm_run / "best_model.zip")
    settings, source = game_settings([policy, "heuristic"], none)
    assert source == policy
    assert settings["num_players"] == 3 and settings["difficulty"] == 2
    assert settings["modules"] == ("dark_matter", "phobias")
    # the same set in the other order is no mismatch
    same, _ = game_settings([policy], {**none, "modules": ("phobias", "dark_matter")})
    assert same == settings


def test_a_mismatch_is_refused_clearly(dm_run: Path) -> None:
    policy = str(dm_run / "best_model.zip")
    none = dict.fromkeys(("num_players", "difficulty", "mode", "payment", "pack", "modules"))
    with pytest.raises(SettingsError, match=r"--players 2: policy .* was trained with num_players=3"):
        game_settings([policy], {**none, "num_players": 2})
    with pytest.raises(SettingsError, match=r"--modules dark_matter: .*modules=dark_matter,phobias"):
        game_settings([policy], {**none, "modules": ("dark_matter",)})
    # players may differ when allowed; the modules never (the policy's ids and observation)
    other, _ = game_settings([policy], {**none, "num_players": 4}, allow_other=True)
    assert other["num_players"] == 4 and other["modules"] == ("dark_matter", "phobias")
    with pytest.raises(SettingsError, match="--modules"):
        game_settings([policy], {**none, "modules": ()}, allow_other=True)


def test_two_policies_of_different_games_are_refused(dm_run: Path, tmp_path: Path) -> None:
    base = _run_dir(tmp_path, "base")
    none = dict.fromkeys(("num_players", "difficulty", "mode", "payment", "pack", "modules"))
    with pytest.raises(SettingsError, match="trained on different games"):
        game_settings([str(dm_run / "best_model.zip"), str(base / "best_model.zip")], none)


def test_evaluate_modules_json_and_no_files(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["--policy", "heuristic", "--modules", "phobias,dark_matter", "--games", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert len(lines) == 1  # stdout is the JSON line alone; the table went to stderr
    summary = json.loads(lines[0])
    assert summary["config"]["modules"] == ["dark_matter", "phobias"]
    assert summary["out"] is None
    assert "modules dark_matter,phobias" in err and "heuristic" in err
    assert list(tmp_path.iterdir()) == []  # no ./runs/eval without --out


@pytest.fixture(scope="module")
def dm_policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny untrained model of a Dark Matter game at 3 players, in a run directory."""
    gym = pytest.importorskip("gymnasium")
    sb3c = pytest.importorskip("sb3_contrib")
    import bbom_env  # noqa: F401

    run = _run_dir(
        tmp_path_factory.mktemp("runs"), "dm", "env.game.num_players=3", "env.game.modules=[dark_matter]"
    )
    env = gym.make("BigBookOfMadness-v2", num_players=3, modules=("dark_matter",))
    sb3c.MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [16]}).save(run / "best_model.zip")
    return run / "best_model.zip"


def test_evaluate_plays_a_policy_in_its_own_game(capsys, dm_policy: Path) -> None:
    assert main(["--policy", str(dm_policy), "--games", "1", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["config"]["num_players"] == 3 and summary["config"]["modules"] == ["dark_matter"]
    assert summary["teams"][0]["games"] == 1
    with pytest.raises(SystemExit) as exc:
        main(["--policy", str(dm_policy), "--modules", "phobias", "--games", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--modules phobias" in err and "trained with modules=dark_matter" in err and "Traceback" not in err


def test_play_watches_a_policy_in_its_own_game(dm_policy: Path) -> None:
    import io

    from bbom_env.play import main as play

    out = io.StringIO()
    assert play(["--watch", "--agents", str(dm_policy), "--max-steps", "5"], out=out) == 0
    text = out.getvalue()
    assert "P2" in text  # three seats, from the policy's run config
    with pytest.raises(SystemExit) as exc:
        play(["--watch", "--agents", str(dm_policy), "--modules", "", "--max-steps", "5"], out=io.StringIO())
    assert exc.value.code == 2


def test_a_rules_switch_from_the_command_line(capsys, tmp_path: Path) -> None:
    """``--switch NAME=VALUE`` plays a module's rules switch (docs/rules_decisions.md): it changes the
    game (the same deals, another Cure cost), it needs its module, an unknown name is refused, and a
    policy trained without it plays it only with --allow-other-settings."""
    from agents.evaluate import play_games

    base = ["--policy", "heuristic", "--modules", "phobias", "--games", "6", "--json", "--quiet"]
    assert main([*base, "--switch", "cure_cost_mode=cards"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["config"]["cure_cost_mode"] == "cards"
    config = {**DEFAULTS, "modules": ("phobias",)}
    by_value = play_games(["heuristic"], 6, 0, 1, None, True, 2000, config)
    by_cards = play_games(["heuristic"], 6, 0, 1, None, True, 2000, {**config, "cure_cost_mode": "cards"})
    assert summary["teams"][0]["wins"] == sum(g.win for g in by_cards[0])
    assert [g.decisions for g in by_value[0]] != [g.decisions for g in by_cards[0]]
    for args, words in (
        (["--switch", "cure=cards"], "expected NAME=VALUE, NAME one of"),
        (["--switch", "cure_cost_mode=both"], "cure_cost_mode='both' is not allowed; allowed: value, cards"),
    ):
        with pytest.raises(SystemExit):
            main([*base, *args])
        assert words in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--policy", "heuristic", "--switch", "phobia_dealing=by_player", "--games", "1"])
    assert "without module 'phobias'" in capsys.readouterr().err
    run = _run_dir(tmp_path, "ph", "env.game.modules=[phobias]")
    none = dict.fromkeys(("num_players", "difficulty", "mode", "payment", "pack", "modules"))
    policy = str(run / "best_model.zip")
    with pytest.raises(
        SettingsError, match="--switch cure_cost_mode=cards: .*trained with cure_cost_mode=value"
    ):
        game_settings([policy], {**none, "switches": {"cure_cost_mode": "cards"}})
    other, _ = game_settings([policy], {**none, "switches": {"cure_cost_mode": "cards"}}, allow_other=True)
    assert other["cure_cost_mode"] == "cards" and other["modules"] == ("phobias",)
