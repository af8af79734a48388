"""Golden playthroughs: regenerate each trace in memory and diff it against the checked-in file."""

from __future__ import annotations

import difflib

import pytest

from .regenerate import CASES, STEPS, trace, trace_path

HOW = "If the change is intended, run `python tests/golden/regenerate.py` and commit the new traces."


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_golden_trace_unchanged(players: int, seed: int) -> None:
    path = trace_path(players, seed)
    assert path.exists(), f"missing golden trace {path.name}. {HOW}"
    expected = path.read_text()
    got = trace(players, seed)
    if got != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), got.splitlines(), f"{path.name} (checked in)", "regenerated", lineterm=""
        )
        lines = list(diff)
        more = f"\n... ({len(lines) - 80} more diff lines)" if len(lines) > 80 else ""
        shown = "\n".join(lines[:80]) + more
        pytest.fail(f"golden trace {path.name} changed:\n{shown}\n{HOW}", pytrace=False)


def test_traces_cover_steps_and_sections() -> None:
    text = trace_path(*CASES[0]).read_text()
    assert f"=== step {STEPS} ===" in text or "end: over" in text
    for marker in ("decider: P", "legal: ", "action: ", "own.hand: ", "decision.kind: "):
        assert marker in text
