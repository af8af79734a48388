"""Every ```python block of README.md and docs/*.md runs as written, and every command output they
show (a marked transcript) is what the command prints.

A block that cannot run here (it needs a trained model, or it trains for minutes) is skipped only
when the line before its fence is a marker with a reason:
``<!-- no-test: needs a trained model in runs/ -->``. Skips show in pytest's report with that reason.
Blocks run in a fresh namespace, in a temporary directory that holds ``my_cards.toml`` (a copy of
examples/override_pack.toml), the override pack the docs' examples name. Blocks that import
sb3_contrib are skipped when the ``train`` extra is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
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


# -- transcripts -------------------------------------------------------------------------------------
# A block of a command's output shown in a doc is marked, on the line before its fence, with the
# command and the lines typed into it:
#   <!-- transcript: python -m bbom_env.play --seats human,heuristic --seed 1 | input: 3 / 7 / quit -->
# The test runs the command from the repository root (``python`` is this interpreter) and checks that
# the block's lines are the output's, in order; a line "..." in the block stands for lines left out.
TRANSCRIPT = re.compile(
    r"<!--\s*transcript:\s*(.*?)\s*(?:\|\s*input:\s*(.*?))?\s*-->\n```[a-z]*\n(.*?)^```", re.S | re.M
)


def transcripts() -> list[tuple[str, int, str, list[str], str]]:
    """(doc, line of the marker, command, input lines, block) for every marked transcript."""
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in TRANSCRIPT.finditer(text):
            typed = [t.strip() for t in m.group(2).split("/")] if m.group(2) else []
            line = text.count("\n", 0, m.start()) + 1
            out.append((str(doc.relative_to(ROOT)), line, m.group(1), typed, m.group(3)))
    return out


def shown_in(block: str, output: str) -> str | None:
    """None when every chunk of the block (chunks split at "..." lines) is a run of consecutive
    output lines, the chunks in order and the first at the block's start; else what is missing."""
    lines = [ln.rstrip() for ln in output.splitlines()]
    chunks: list[list[str]] = [[]]
    for ln in block.rstrip("\n").splitlines():
        if ln.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(ln.rstrip())
    at = 0
    for chunk in (c for c in chunks if c):
        found = next(
            (i for i in range(at, len(lines) - len(chunk) + 1) if lines[i : i + len(chunk)] == chunk), None
        )
        if found is None:
            return _first_difference(chunk, lines, at)
        at = found + len(chunk)
    return None


def _first_difference(chunk: list[str], lines: list[str], at: int) -> str:
    """Where a chunk that is not in the output parts from it: at the first output line (from
    ``at``) equal to the chunk's first line."""
    near = next((i for i in range(at, len(lines)) if lines[i] == chunk[0]), None)
    if near is None:
        return f"no output line {chunk[0]!r}"
    for k, want in enumerate(chunk):
        got = lines[near + k] if near + k < len(lines) else "(the end of the output)"
        if want != got:
            return f"from {chunk[0]!r}: {want!r} where the output has {got!r}"
    return "?"  # unreachable: the chunk would have been found at ``near``


TRANSCRIPTS = transcripts()


def test_the_docs_have_transcripts_and_the_check_works() -> None:
    assert TRANSCRIPTS, "no marked transcript found: is the scan broken?"
    output = "a\nb\nc\nd\n"
    assert shown_in("a\nb\n...\nd\n", output) is None
    assert shown_in("b\nc\n", output) is None
    assert shown_in("a\nc\n", output) == "from 'a': 'c' where the output has 'b'"
    assert shown_in("c\n...\nb\n", output) == "no output line 'b'"


@pytest.mark.parametrize(
    ("doc", "line", "command", "typed", "block"), TRANSCRIPTS, ids=[f"{t[0]}:{t[1]}" for t in TRANSCRIPTS]
)
def test_transcript_is_what_the_command_prints(
    doc: str, line: int, command: str, typed: list[str], block: str
) -> None:
    argv = shlex.split(command)
    if argv[0] == "python":
        argv[0] = sys.executable
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        argv,
        cwd=ROOT,
        input="".join(t + "\n" for t in typed),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    missing = shown_in(block, done.stdout + done.stderr)
    assert missing is None, f"{doc}:{line}: `{command}` no longer prints what the doc shows: {missing}"


# -- shell commands ----------------------------------------------------------------------------------
# A shell block's `python -m MODULE ...` / `python SCRIPT.py ...` lines (with or without .venv/bin/)
# name a tool that exists, and every --option they use is one its --help lists. Running them whole
# would train for hours; the options are what goes stale. Lines for the RLlib venv (.venv-rllib) need
# ray and are checked only for the script's existence (slow: each --help imports its tool).
COMMAND = re.compile(r"^(\.venv(?:-rllib)?/bin/)?python\s+(-m\s+[\w.]+|[\w./-]+\.py)((?:\s.*)?)$")


def shell_commands() -> dict[tuple[str, bool], dict[str, str]]:
    """{(tool, needs ray): {option: "doc:line" of its first use}} over README.md and docs/*.md."""
    tools: dict[tuple[str, bool], dict[str, str]] = {}
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in _fenced(text):
            start, body = block
            for k, raw in enumerate(body.splitlines()):
                line = raw.split("  #")[0].strip()
                m = COMMAND.match(line)
                if not m:
                    continue
                where = f"{doc.relative_to(ROOT)}:{start + k + 1}"
                key = (re.sub(r"^-m\s+", "-m ", m.group(2)), m.group(1) == ".venv-rllib/bin/")
                opts = tools.setdefault(key, {})
                for opt in re.findall(r"(?<!\S)(--[\w-]+)", m.group(3)):
                    opts.setdefault(opt, where)
                opts.setdefault("", where)
    return tools


def _fenced(text: str) -> list[tuple[int, str]]:
    """(line of the fence, body) of each bash / sh / plain fenced block; python, toml... are skipped."""
    out, lines, i = [], text.splitlines(keepends=True), 0
    while i < len(lines):
        if lines[i].startswith("```"):
            lang, j = lines[i][3:].strip(), i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if lang in ("bash", "sh", ""):
                out.append((i + 1, "".join(lines[i + 1 : j])))
            i = j + 1
        else:
            i += 1
    return out


SHELL = shell_commands()


def _help(tool: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, *tool.split(), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, f"{tool} --help failed: {done.stderr[-1000:]}"
    return done.stdout


def test_the_docs_have_shell_commands() -> None:
    tools = {tool for tool, _ in SHELL}
    assert {"-m bbom_env.play", "train.py", "-m agents.evaluate"} <= tools, sorted(tools)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tool", "rllib"), sorted(SHELL), ids=[f"{t}{' (rllib)' if r else ''}" for t, r in sorted(SHELL)]
)
def test_shell_command_options_exist(tool: str, rllib: bool) -> None:
    opts = SHELL[(tool, rllib)]
    if not tool.startswith("-m "):
        assert (ROOT / tool).is_file(), f"{opts['']}: {tool} does not exist"
    else:
        assert importlib.util.find_spec(tool.removeprefix("-m ")) is not None, f"{opts['']}: no module {tool}"
    if rllib:
        return  # its --help imports ray (the rllib extra, its own venv)
    helps = _help(tool)
    # A tool with subcommands ("list", "show" ...): their options are in their own --help.
    choices = re.search(r"\{([\w,-]+)\}", helps.split("\n\n")[0])
    for sub in choices.group(1).split(",") if choices else ():
        helps += _help(f"{tool} {sub}")
    unknown = {opt: where for opt, where in opts.items() if opt and opt not in helps}
    assert not unknown, f"{tool}: options the docs use that its --help does not list: {unknown}"
