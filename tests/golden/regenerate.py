"""Golden playthroughs (OpenSpiel-style): readable traces of the first steps of fixed games.

Each trace plays ``BBoMGymEnv`` (pack "test") with a seeded random agent and writes, per step: the
engine's text state, the decider and decision kind, the observation by named section (non-zero
entries only, ``index=value``, a bare index for 1), the legal actions by name, the action taken and
the reward. Any change of rules, encoding, action layout or env shows up as a readable diff;
``test_golden.py`` fails on it.

    python tests/golden/regenerate.py        # rewrite every trace after an intended change
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CASES: tuple[tuple[int, int], ...] = ((2, 0), (2, 1), (4, 0), (4, 1))  # (players, seed)
STEPS = 40  # first steps only: traces stay short enough to read a diff


def trace_path(players: int, seed: int) -> Path:
    return HERE / f"p{players}_seed{seed}.txt"


def _compact(values: np.ndarray) -> str:
    parts = []
    for i in np.flatnonzero(values):
        v = float(values[i])
        parts.append(str(i) if v == 1.0 else f"{i}={v:.4g}")
    return " ".join(parts)


def trace(players: int, seed: int, steps: int = STEPS) -> str:
    """The golden text of one game (pure function of the code: no clock, no global RNG)."""
    from bbom_env.rl.gym_env import BBoMGymEnv

    env = BBoMGymEnv(pack="test", num_players=players, render_mode="ansi")
    layout, encoder = env.layout, env.encoder
    agent = random.Random(seed)
    obs, info = env.reset(seed=seed)
    out = [
        f"# golden playthrough: BBoMGymEnv(pack='test', num_players={players}), reset(seed={seed}),",
        f"# random agent random.Random({seed}) over the legal actions, first {steps} steps.",
        "# pack 'test' is the engine's fixture pack: its cards are reconstructed content (marked *).",
        "# regenerate: python tests/golden/regenerate.py",
        f"# actions: Discrete({layout.n}); observation: {encoder.size} floats in "
        f"{len(encoder.sections)} sections",
        "",
    ]
    for step in range(steps + 1):
        state = env.state
        out.append(f"=== step {step} ===")
        out.extend("  " + line for line in env.render().splitlines())
        out.append(f"decider: P{info['player']}  decision: {info['decision']}")
        out.append("observation (non-zero):")
        for name, view in encoder.views(obs).items():
            text = _compact(view)
            if text:
                out.append(f"  {name}: {text}")
        if state.is_terminal() or step == steps:
            end = f"over, {state.outcome} ({state.reason})" if state.over else "cut"
            out.append(f"end: {end}")
            break
        legal = np.flatnonzero(info["action_mask"])
        out.append("legal: " + ", ".join(layout.action_to_string(int(a)) for a in legal))
        action = int(legal[agent.randrange(len(legal))])
        obs, reward, term, trunc, info = env.step(action)
        out.append(f"action: {action} {layout.action_to_string(action)}  reward: {reward:g}")
    return "\n".join(out) + "\n"


def main() -> int:
    for players, seed in CASES:
        path = trace_path(players, seed)
        path.write_text(trace(players, seed))
        print(f"wrote {path.relative_to(HERE.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
