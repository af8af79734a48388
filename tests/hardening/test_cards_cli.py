"""The cards CLI (python -m bbom_env.cards) answers bad input with one clear line on stderr and a
non-zero exit status, never a traceback; a pipe closed early is not an error.

Exit statuses: 0 done, 1 ``validate`` found the pack invalid (or ``show`` no such card), 2 bad
input. Most tests run the CLI in a subprocess, as a user does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bbom_env.cards import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "override_pack.toml"


def cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bbom_env.cards", *args],
        cwd=ROOT,
        capture_output="stdout" not in kwargs,
        text=True,
        timeout=60,
        **kwargs,  # type: ignore[arg-type]
    )


def one_error_line(r: subprocess.CompletedProcess, status: int) -> str:
    """The run failed with ``status`` and exactly one line on stderr, no traceback; that line."""
    assert r.returncode == status, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_list_with_a_missing_pack_file() -> None:
    r = cli("list", "--pack", "missing.toml")
    line = one_error_line(r, 2)
    assert line.startswith("error: missing.toml: card pack file not found"), line
    assert "named packs: default, test" in line and r.stdout == ""


def test_an_unknown_pack_name_lists_the_named_packs() -> None:
    line = one_error_line(cli("show", "spell_growth", "--pack", "defualt"), 2)
    assert "defualt" in line and "named packs: default, test" in line, line


def test_validate_a_binary_file(tmp_path: Path) -> None:
    binary = tmp_path / "cards.toml"
    binary.write_bytes(bytes(range(128, 256)) + bytes(range(128)))
    line = one_error_line(cli("validate", str(binary)), 1)
    assert line.startswith(f"INVALID: {binary}: line 1: not UTF-8 text"), line


@pytest.mark.parametrize("content", [None, "", "spell = = 1\n"], ids=["directory", "empty", "syntax"])
def test_validate_bad_files(tmp_path: Path, content: str | None) -> None:
    target = tmp_path / "pack.toml"
    if content is None:
        target.mkdir()
    else:
        target.write_text(content, encoding="utf-8")
    line = one_error_line(cli("validate", str(target)), 1)
    what = {None: "is a directory", "": "the file is empty", "spell = = 1\n": "not valid TOML"}[content]
    assert line.startswith(f"INVALID: {target}: {what}"), line


def test_a_path_with_a_newline_stays_one_line(tmp_path: Path) -> None:
    line = one_error_line(cli("validate", str(tmp_path / "two\nlines.toml")), 1)
    assert "not a usable file path" in line, line


def test_show_and_docs_with_a_directory_as_pack(tmp_path: Path) -> None:
    for args in (("show", "spell_growth", "--pack", str(tmp_path)), ("docs", "--pack", str(tmp_path))):
        line = one_error_line(cli(*args), 2)
        assert line == f"error: {tmp_path}: is a directory, not a card pack file (.toml)", line


def test_docs_to_an_unwritable_place(tmp_path: Path) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    line = one_error_line(cli("docs", "--out", str(blocker / "cards.md")), 2)
    assert line.startswith("error: ") and "a_file" in line, line


@pytest.mark.parametrize("args", [(), ("frobnicate",), ("list", "--colour", "red")])
def test_usage_errors_are_one_line(args: tuple[str, ...]) -> None:
    line = one_error_line(cli(*args), 2)
    assert "error:" in line and "--help" in line, line


def test_list_into_a_closed_pipe_exits_cleanly() -> None:
    """`cards list | head -1` where the reader has gone before the first write."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = cli("list", stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


@pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("head") is None, reason="needs bash and head"
)
def test_list_piped_to_head() -> None:
    cmd = f"set -o pipefail; {sys.executable!s} -m bbom_env.cards list | head -1"
    r = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and len(r.stdout.splitlines()) == 1


def test_validate_an_override_pack_alone() -> None:
    """README: `cards validate my_cards.toml` on an override pack (only some cards)."""
    r = cli("validate", str(EXAMPLE))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("OK: ") and str(EXAMPLE) in r.stdout
    assert "checked as an override pack on top of the default pack" in r.stdout


def test_validate_a_bad_override_pack_alone(tmp_path: Path) -> None:
    bad = tmp_path / "my_cards.toml"
    bad.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace('count = "X"', 'count = "lots"', 1), encoding="utf-8"
    )
    line = one_error_line(cli("validate", str(bad)), 1)
    assert line.startswith(f"INVALID: {bad}: spell 'spell_growth'.effect[0].count"), line
    assert line.endswith("checked as an override pack on top of the default pack)"), line


def test_a_full_pack_is_still_validated_as_a_full_pack() -> None:
    r = cli("validate", "test")
    assert r.returncode == 0 and "override" not in r.stdout, r.stdout


def test_main_in_process_returns_the_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--pack", "missing.toml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.toml" in err
    assert main(["validate", "default"]) == 0
