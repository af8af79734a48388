"""examples/quickstart.py runs as its docstring says: a random game, a short training run, and the
evaluation of the saved model beside the random and heuristic teams (a tiny budget: --seconds 2
--games 2). It imports torch and trains, so it is marked slow (about 25 s on 2 busy cores)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="needs the train extra")
def test_quickstart_plays_trains_and_evaluates(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "examples/quickstart.py", "--seconds", "2", "--games", "2", "--out", str(tmp_path)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert re.search(r"^random game \(seed 0\): (win|loss) after \d+ decisions", out, re.M), out
    steps = re.search(r"^trained (\d+) steps in \d+ s -> (.+model\.zip)$", out, re.M)
    assert steps and int(steps.group(1)) > 0 and Path(steps.group(2)).is_file(), out
    for team in ("random", "heuristic", str(tmp_path / "model.zip")):
        assert re.search(rf"^  {re.escape(team)} +\d+\.\d%", out, re.M), f"no win rate for {team}:\n{out}"


def test_quickstart_refuses_a_bad_budget() -> None:
    """A bad budget is a usage error (exit 2 naming the option), before any game is played."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "examples/quickstart.py", "--seconds", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2 and "--seconds must be > 0" in done.stderr
