"""Packaging: the licence, ``__version__``, console scripts, metadata, a light install (the
engine and envs without torch or SB3) and the set-up script's Python check."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bbom_env

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]


def test_licence_file_is_mit_and_declared() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "bbom-env contributors" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_version_comes_from_the_distribution_with_a_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bbom_env.__version__ == importlib.metadata.version("bbom-env") == PROJECT["version"]

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert bbom_env._version() == "0+unknown"


def test_console_scripts_point_at_callables() -> None:
    scripts = PROJECT["scripts"]
    assert {"bbom-env", "bbom-play", "bbom-cards"} <= set(scripts)
    for target in scripts.values():
        module, attr = target.split(":")
        assert callable(getattr(importlib.import_module(module), attr)), target


def test_metadata_has_classifiers_and_light_base_dependencies() -> None:
    assert "Programming Language :: Python :: 3.11" in PROJECT["classifiers"]
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]  # PEP 639: SPDX only
    names = sorted(d.split(">")[0].split("<")[0].split("=")[0] for d in PROJECT["dependencies"])
    assert names == ["gymnasium", "numpy", "pettingzoo"]
    train = " ".join(PROJECT["optional-dependencies"]["train"])
    assert "torch" in train and "stable-baselines3" in train and "sb3-contrib" in train


# Imports refused in the light-install check: what the train extra brings, and what it pulls in.
HEAVY = ("torch", "stable_baselines3", "sb3_contrib", "yaml", "tensorboard", "matplotlib", "tqdm", "rich")

LIGHT = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {HEAVY!r}:
            raise ImportError("blocked for the light-install test: " + name)
        return None
sys.meta_path.insert(0, Block())
import numpy as np
import gymnasium as gym
import bbom_env
env = gym.make(bbom_env.GYM_ID, pack="test")
obs, info = env.reset(seed=0)
for _ in range(30):
    obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
aec = bbom_env.env(pack="test")
aec.reset(seed=0)
obs, *_ = aec.last()
aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
from bbom_env.__main__ import main
assert main(["cards", "list", "--pack", "test"]) == 0
print("light ok", env.unwrapped.state.turn, sorted(set(sys.modules) & set({HEAVY!r})))
"""


def test_engine_and_envs_work_without_the_train_extra() -> None:
    res = subprocess.run([sys.executable, "-c", LIGHT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1].startswith("light ok") and res.stdout.strip().endswith("[]")


def _fake_python(tmp_path: Path, version: tuple[int, int]) -> Path:
    """An interpreter that reports ``version`` (the real one, with sys.version_info replaced)."""
    fake = tmp_path / f"python{version[0]}.{version[1]}"
    dotted = f"{version[0]}.{version[1]}.0"
    prefix = f"import sys; sys.version_info = {version + (0,)!r}; sys.version = '{dotted} fake'; "
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f'if [ "$1" = "-c" ]; then exec {sys.executable} -c "{prefix}$2"; fi\n'
        "echo 'fake python: refused to run' >&2; exit 99\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return fake


@pytest.mark.skipif(os.name != "posix", reason="bash script")
def test_setup_script_refuses_an_old_python_before_installing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "setup.sh").write_text((ROOT / "scripts" / "setup.sh").read_text())
    env = {**os.environ, "PYTHON": str(_fake_python(tmp_path, (3, 10)))}
    res = subprocess.run(
        ["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 1
    assert "needs Python >= 3.11" in res.stderr and "3.10.0" in res.stderr
    assert not (repo / ".venv").exists()  # nothing was created or installed
    env["PYTHON"] = str(tmp_path / "no-such-python")
    res = subprocess.run(
        ["bash", "scripts/setup.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 1 and "no Python interpreter" in res.stderr
    assert not (repo / ".venv").exists()
