"""Small things a new user meets (one test or more each): the same figure in every tool, option
names shared by the training scripts, relative RLlib paths, quiet JSON, progress and figures in
the scripts, the named reward presets, the typing marker."""

from __future__ import annotations

import io
import re
from pathlib import Path

from agents import HeuristicAgent
from agents.evaluate import play_game
from bbom_env.engine import GameConfig

ROOT = Path(__file__).resolve().parents[2]


def test_play_and_evaluate_count_the_same_monsters() -> None:
    """The last Monster of a won game is defeated (vanquishing it wins): the play summary and
    agents.evaluate both count it."""
    from bbom_env.play import main as play

    won = lost = None
    for seed in range(12):
        result = play_game(GameConfig(seed=seed), HeuristicAgent(seed))
        if result.win and won is None:
            won = (seed, result)
        if not result.win and lost is None:
            lost = (seed, result)
    assert won is not None and lost is not None
    for seed, result in (won, lost):
        out = io.StringIO()
        assert play(["--watch", "--agents", "heuristic", "--seed", str(seed)], out=out) == 0
        shown = int(re.search(r"^Monsters defeated: (\d+)$", out.getvalue(), re.M).group(1))  # type: ignore[union-attr]
        assert shown == result.monsters_defeated
    # the Bonus rounds, and the last Monster of a won game
    seed, result = won
    state = _final_state(seed)
    assert result.monsters_defeated == state.stats["monsters_defeated"] + 1


def _final_state(seed: int):  # type: ignore[no-untyped-def]
    from bbom_env.engine import new_game

    state = new_game(GameConfig(seed=seed))
    agent = HeuristicAgent(seed)
    while not state.is_terminal():
        state.apply_action(agent.act(state))
    return state


def test_rllib_paths_are_made_absolute(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """RLlib reads checkpoints through pyarrow, which takes a relative path for a URI ("URI has
    empty scheme"): train_rllib.py's run directory and an rllib:DIR agent's folder are absolute
    whatever the command line says (the documented commands use relative paths). The run itself:
    tests/rllib (where ray is installed)."""
    import train_rllib
    from agents.rllib_agent import checkpoint_dir

    monkeypatch.chdir(tmp_path)
    run = train_rllib.run_directory("runs/rllib_smoke_1", "configs/rllib/smoke.yaml")
    assert run.is_absolute() and run == tmp_path / "runs" / "rllib_smoke_1"
    default = train_rllib.run_directory(None, "configs/rllib/smoke.yaml")
    assert default == tmp_path / "runs" / "rllib_smoke_1"
    assert checkpoint_dir("runs/x/checkpoint") == tmp_path / "runs" / "x" / "checkpoint"


def test_train_scripts_share_the_run_directory_option() -> None:
    """--run-dir in both training scripts; --out is the same option in both (an alias)."""
    import train
    import train_rllib

    for script in (train, train_rllib):
        text = Path(script.__file__).read_text()
        assert '"--run-dir",\n        "--out",\n        dest="run_dir"' in text, script.__name__


def _bench(name: str):  # type: ignore[no-untyped-def]
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_json_alone_on_stdout_and_figures_not_verdicts(capsys) -> None:  # type: ignore[no-untyped-def]
    """--json: stdout is one JSON object (the table goes to stderr); without it the table is on
    stdout. The benchmarks print figures, never verdicts such as "BELOW GOAL" or "MISSED"."""
    import json

    runs = {
        "engine_throughput": ["--seconds", "0.01", "--modules", "dark_matter"],
        "env_throughput": ["--seconds", "0.02", "--pack", "test", "--modules", "dark_matter"],
        "menu_profile": ["--games", "1", "--reps", "1"],
    }
    for name, args in runs.items():
        bench = _bench(name)
        bench.main([*args, "--json"])
        out, err = capsys.readouterr()
        assert len(out.strip().splitlines()) == 1, (name, out[:300])
        json.loads(out)
        assert err.strip(), name  # the human table
        bench.main(args)
        out, err = capsys.readouterr()
        assert len(out.strip().splitlines()) > 1 and not out.lstrip().startswith("{"), name
        for verdict in ("BELOW GOAL", "MISSED", " ok\n", ": met"):
            assert verdict not in out, (name, verdict)


def test_setup_scripts_say_what_they_do(tmp_path: Path) -> None:
    """scripts/setup.sh is not silent for a minute: a line on stderr before each step (pip stays
    --quiet); here its first step, with an interpreter that passes the version check and then
    refuses to create the venv."""
    import os
    import stat
    import subprocess
    import sys

    for script in ("setup.sh", "setup_rllib.sh"):
        lines = (ROOT / "scripts" / script).read_text().splitlines()
        for i, line in enumerate(lines):
            if "-m pip install" in line and not line.lstrip().startswith(("#", "step ", "echo ")):
                assert "echo" in lines[i - 1] or lines[i - 1].lstrip().startswith("step "), (script, line)
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "setup.sh").write_text((ROOT / "scripts" / "setup.sh").read_text())
    fake = tmp_path / "python3"
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f'if [ "$1" = "-c" ]; then exec {sys.executable} -c "$2"; fi\n'
        "echo 'fake python: refused to run' >&2; exit 99\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    res = subprocess.run(
        ["bash", "scripts/setup.sh"],
        cwd=repo,
        env={**os.environ, "PYTHON": str(fake)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 99 and "setup.sh: creating .venv with" in res.stderr


def test_reward_presets() -> None:
    """reward="shaped" is train.py's reward; "outcome" (+1 / -1) is the env's default."""
    import gymnasium as gym
    import pytest

    import bbom_env
    from agents.train_config import TrainConfig
    from bbom_env import RewardConfig

    assert RewardConfig.coerce(None) == RewardConfig.preset("outcome") == RewardConfig(win=1.0, loss=-1.0)
    shaped = RewardConfig.preset("shaped")
    assert RewardConfig.coerce("shaped") == shaped
    assert shaped == RewardConfig.coerce(TrainConfig().env.reward)  # what train.py uses by default
    assert shaped.loss == 0.0 and shaped.potential
    assert RewardConfig.preset("shaped", gamma=0.999).gamma == 0.999
    env = gym.make(bbom_env.GYM_ID, pack="test", reward="shaped")
    assert env.unwrapped.reward_config == shaped
    with pytest.raises(ValueError, match="unknown reward preset 'dense'; presets: outcome, shaped"):
        RewardConfig.coerce("dense")


def test_the_wheel_ships_py_typed(tmp_path: Path) -> None:
    """PEP 561: the built wheel holds bbom_env/py.typed (and agents/py.typed), so users' type
    checkers read the annotations. Built from a copy (setuptools writes build/ beside the source)."""
    import shutil
    import subprocess
    import sys
    import zipfile

    import pytest

    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    for pkg in ("bbom_env", "agents"):
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if res.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {res.stderr[-300:]}")
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "bbom_env/py.typed" in names and "agents/py.typed" in names


def test_readme_commands_write_no_tracked_file_and_versions_are_explained() -> None:
    """A README command copied literally never overwrites a tracked doc; the package version and
    the env id are both named, with why they differ."""
    import tomllib

    import bbom_env

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", readme, flags=re.S)
    for line in "".join(blocks).splitlines():
        assert not re.search(r"--out\s+(docs|README|bbom_env|tests|configs)", line), line
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    section = readme.split("## Versions", 1)[1]
    assert bbom_env.GYM_ID in section and "package version" in section
    assert version.split(".")[0] in ("0",) or version in section  # 0.x: the text says "still 0.x"
