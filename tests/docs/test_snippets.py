"""Every ```python block of README.md and docs/*.md runs as written.

A block that cannot run here (it needs a trained model, or it is an API summary with placeholders)
is skipped only when the line before its fence is a marker with a reason:
``<!-- no-test: needs a trained model in runs/ -->``. Skips show in pytest's report with that reason.
Blocks run in a fresh namespace, in a temporary directory that holds ``my_cards.toml`` (a copy of
examples/override_pack.toml), the override pack the docs' examples name. Blocks that import
sb3_contrib are skipped when the ``train`` extra is not installed.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NO_TEST = re.compile(r"<!--\s*no-test:\s*(.*?)\s*-->")


def blocks() -> list[tuple[str, int, str, str | None]]:
    """(doc, line of the fence, code, skip reason or None) for every python block."""
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = NO_TEST.search(before)
            out.append((str(doc.relative_to(ROOT)), line, m.group(1), marker.group(1) if marker else None))
    return out


BLOCKS = blocks()


def test_the_docs_have_snippets_and_skips_say_why() -> None:
    run = [b for b in BLOCKS if b[3] is None]
    assert len(run) >= 8, f"only {len(run)} python blocks to run: is the scan broken?"
    no_reason = [f"{doc}:{line}" for doc, line, _, reason in BLOCKS if reason == ""]
    assert not no_reason, f"no-test markers without a reason: {no_reason}"


@pytest.mark.parametrize(("doc", "line", "code", "skip"), BLOCKS, ids=[f"{b[0]}:{b[1]}" for b in BLOCKS])
def test_snippet_runs(
    doc: str, line: int, code: str, skip: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if skip is not None:
        pytest.skip(f"{doc}:{line}: no-test: {skip}")
    if "sb3_contrib" in code and importlib.util.find_spec("sb3_contrib") is None:
        pytest.skip("the train extra (sb3_contrib) is not installed")
    shutil.copy(ROOT / "examples" / "override_pack.toml", tmp_path / "my_cards.toml")
    monkeypatch.chdir(tmp_path)
    # Line numbers in a traceback point into the doc: the block starts on the line after the fence.
    # dont_inherit: a snippet runs as a reader's script would, without this file's __future__ imports
    # (string annotations would break a snippet's dataclass, whose module is not in sys.modules).
    exec(compile("\n" * line + code, doc, "exec", dont_inherit=True), {"__name__": "docs_snippet"})
