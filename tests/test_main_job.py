"""The main job (``python -m bbom_env.play``) runs end to end and prints its summary."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _play(*args: str) -> str:
    res = subprocess.run(
        [sys.executable, "-m", "bbom_env.play", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


def test_play_prints_the_summary() -> None:
    out = _play("--games", "3", "--pack", "test")
    assert re.search(r"^random team \| pack=test players=2 ", out, re.M), out
    assert re.search(r"^games\s+3$", out, re.M), out
    m = re.search(r"^win rate\s+(\d\.\d{3}) \((\d+) wins\)$", out, re.M)
    assert m and 0.0 <= float(m.group(1)) <= 1.0 and int(m.group(2)) <= 3, out
    m = re.search(r"^decisions/game\s+([\d.]+)$", out, re.M)
    assert m and float(m.group(1)) > 10, out
    m = re.search(r"^decisions/s\s+([\d,]+) \(", out, re.M)
    assert m and int(m.group(1).replace(",", "")) > 0, out
    # Every game is accounted for by an end reason.
    reasons = [int(k) for k in re.findall(r"^\s+(\d+) x ", out, re.M)]
    assert sum(reasons) == 3, out


def test_play_is_reproducible() -> None:
    """Same arguments, same games: every line but the timing is identical."""
    args = ("--games", "2", "--pack", "test", "--players", "4", "--mode", "fear", "--payment", "manual")
    a, b = (_play(*args), _play(*args))

    def strip(s: str) -> list[str]:
        return [line for line in s.splitlines() if not line.startswith("decisions/s")]

    assert strip(a) == strip(b)
    assert "players=4" in a and "mode=fear" in a and "payment=manual" in a
