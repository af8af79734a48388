"""The engine is rules only: it imports and plays with the RL libraries absent (design decision 1).

Each test runs a fresh interpreter: a meta path finder makes every import of gymnasium, pettingzoo,
torch, stable_baselines3 and sb3_contrib fail as if they were not installed; importing
``bbom_env.engine`` and playing a game must still work, and none of them may be in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")

_CHILD = """
import json, sys

BLOCKED = {blocked!r}
attempts = []

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            attempts.append(name)
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked by the test)", name=name)
        return None

if {block}:
    sys.meta_path.insert(0, Block())

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.io import invariants, render  # noqa: F401
from bbom_env.engine.play import decision  # noqa: F401

state = new_game(GameConfig(num_players=3, pack="test", seed=1))
steps = 0
while not state.over and steps < 200:
    state.apply_action(state.legal_actions()[0])
    steps += 1
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
try:  # the blocker itself works (checked after the snapshot above)
    import torch  # noqa: F401
    blocker_works = False
except ModuleNotFoundError:
    blocker_works = True
print(json.dumps({{"steps": steps, "loaded": loaded, "attempts": attempts, "blocker_works": blocker_works}}))
"""


def _run(block: bool) -> dict:
    code = _CHILD.format(blocked=BLOCKED, block=block)
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_engine_imports_and_plays_with_rl_libraries_blocked() -> None:
    out = _run(block=True)
    assert out["blocker_works"]
    assert out["steps"] > 0
    assert out["loaded"] == []


def test_engine_import_never_loads_torch_or_sb3() -> None:
    """Unblocked, ``import bbom_env`` may register the envs with gymnasium / pettingzoo (both are
    dependencies), but the training stack stays out of an engine-only process."""
    out = _run(block=False)
    heavy = [m for m in out["loaded"] if m.split(".")[0] in ("torch", "stable_baselines3", "sb3_contrib")]
    assert heavy == []
