"""The command lines: bad values are argparse errors (exit 2, one message naming the value,
no traceback), an unknown pack lists the named packs, a closed pipe ends them quietly (exit 0),
``python -m bbom_env`` lists and dispatches the commands, balance.py never writes docs/ unasked."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import bbom_env
from bbom_env import cli
from bbom_env.__main__ import COMMANDS
from bbom_env.__main__ import main as dispatch

ROOT = Path(__file__).resolve().parents[2]
PLAY = ["-m", "bbom_env.play"]
CARDS = ["-m", "bbom_env.cards"]
ENGINE = ["benchmarks/engine_throughput.py"]
ENV = ["benchmarks/env_throughput.py"]
BALANCE = ["benchmarks/balance.py"]
COVERAGE = ["benchmarks/card_coverage.py"]


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (PLAY + ["--players", "9"], "9"),
        (PLAY + ["--seed", "-3"], "-3"),
        (PLAY + ["--delay", "nan"], "nan"),
        (PLAY + ["--max-steps", "0"], "0"),
        (PLAY + ["--pack", "nope"], "nope"),
        (CARDS + ["list", "--pack", "nope"], "nope"),
        (CARDS + ["frobnicate"], "frobnicate"),
        (ENGINE + ["--seconds", "-1"], "-1"),
        (ENGINE + ["--pack", "nope"], "nope"),
        (ENV + ["--seconds", "inf"], "inf"),
        (ENV + ["--pack", "nope"], "nope"),
        (BALANCE + ["--games", "0"], "0"),
        (BALANCE + ["--workers", "x"], "'x'"),
        (BALANCE + ["--teams", "random,wizards"], "wizards"),
        (BALANCE + ["--ablate", "99"], "99"),
        (COVERAGE + ["--games", "-5"], "-5"),
        (COVERAGE + ["--team", "wizards"], "wizards"),
        (COVERAGE + ["--pack", "nope"], "nope"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_bad_values_exit_2_naming_the_value(args: list[str], named: str) -> None:
    res = _run(args)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert "Traceback" not in res.stderr
    last = res.stderr.strip().splitlines()[-1]
    assert "error" in last and named in last, last


def test_an_unknown_pack_lists_the_named_packs() -> None:
    for args in (
        PLAY + ["--pack", "nope"],
        ENGINE + ["--pack", "nope"],
        CARDS + ["show", "x", "--pack", "nope"],
    ):
        res = _run(args)
        assert res.returncode == 2 and "named packs: default, test" in res.stderr, res.stderr


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(f"_bench_cli_{name}", ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # balance.py's dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def test_engine_throughput_rounds_alternate_and_give_the_median_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--rounds 3``: each setting measured three times for the base game and the module, each
    round's ratio its own module figure over its own base figure, the ratio their median, each row
    the round of median speed."""
    bench = _bench("engine_throughput")
    results = bench.main(["--seconds", "0.01", "--modules", "dark_matter", "--rounds", "3", "--json"])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["rounds"] == 3
    for players, payment in bench.SETTINGS:
        base, mod = results[f"{players}p_{payment}"], results[f"{players}p_{payment}+dark_matter"]
        b_runs, m_runs = base["rounds_decisions_per_cpu_s"], mod["rounds_decisions_per_cpu_s"]
        assert len(b_runs) == len(m_runs) == 3
        assert mod["ratio_rounds"] == [m / b for b, m in zip(b_runs, m_runs, strict=True)]
        assert mod["ratio_to_base"] == sorted(mod["ratio_rounds"])[1]
        assert base["decisions_per_cpu_s"] == sorted(b_runs)[1]
        assert mod["decisions_per_cpu_s"] == sorted(m_runs)[1]
    # one round (the default): the figures of one run each, no per-round lists
    one = bench.main(["--seconds", "0.01", "--modules", "dark_matter"])
    assert "ratio_rounds" not in one["2p_auto+dark_matter"]
    assert one["2p_auto+dark_matter"]["ratio_to_base"] == (
        one["2p_auto+dark_matter"]["decisions_per_cpu_s"] / one["2p_auto"]["decisions_per_cpu_s"]
    )


@pytest.mark.parametrize(
    "name",
    [
        "play",
        "engine_throughput",
        "engine_instructions",
        "env_throughput",
        "balance",
        "card_coverage",
        "menu_profile",
    ],
)
def test_every_option_has_a_help_text(name: str) -> None:
    from bbom_env.play import build_parser as play_parser

    parser = play_parser() if name == "play" else _bench(name).build_parser()
    undocumented = [a.option_strings or a.dest for a in parser._actions if not a.help]
    assert undocumented == []


def test_menu_profile_covers_every_menu_and_action(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/menu_profile.py: per module set, the categories' shares sum to 1 over every menu
    decision of the games, each category is a flag pattern (F, C, T, P), and every registered Action
    of the set is timed in each (the base game's six, the modules' four more)."""
    from bbom_env.engine.core.rules import ruleset

    res = _bench("menu_profile").main(
        ["--modules", "dark_matter,phobias", "--games", "2", "--reps", "1", "--json"]
    )
    assert set(res) == {"base", "dark_matter,phobias"}
    for name, modules in (("base", ()), ("dark_matter,phobias", ("dark_matter", "phobias"))):
        cats = {k: v for k, v in res[name].items() if k != "all"}
        assert res[name]["all"]["menus"] > 50
        assert sum(row["share"] for row in cats.values()) == pytest.approx(1.0)
        for cat, row in cats.items():
            assert len(cat) == 4 and all(c in (flag, "-") for c, flag in zip(cat, "FCTP", strict=True)), cat
            assert {f"{a.name}_us" for a in ruleset(modules).actions} <= set(row), (name, cat)
            assert row["menu_us"] > 0
        if not modules:  # no transform and no Phobia without the modules
            assert all(cat[2:] == "--" for cat in cats)
    assert any("T" in cat for cat in res["dark_matter,phobias"])
    assert capsys.readouterr().out.splitlines()[-1].startswith('{"players": 2')


@pytest.mark.parametrize(
    "args",
    [CARDS + ["list"], PLAY + ["--watch", "--seed", "1"], ENGINE + ["--seconds", "0.05"], ["-m", "bbom_env"]],
    ids=["cards", "play", "engine_throughput", "bbom_env"],
)
def test_a_closed_pipe_exits_0_quietly(args: list[str]) -> None:
    # The reader is gone before the first write (what `| head -1` does, without the timing race).
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert err == ""


def test_range_types_name_the_value() -> None:
    with pytest.raises(Exception, match=r"^5 is out of range: must be in 0\.\.4$"):
        cli.int_range(0, 4)("5")
    with pytest.raises(Exception, match="-1 is negative"):
        cli.int_range(0)("-1")
    with pytest.raises(Exception, match="'1.5' is not an integer"):
        cli.int_range(0)("1.5")
    with pytest.raises(Exception, match="0 is out of range: must be a finite number > 0"):
        cli.float_range(0, lo_open=True)("0")
    assert cli.float_range(0, 10)("10") == 10.0 and cli.int_range(1)("7") == 7
    assert cli.pack("test") == "test"


# -- python -m bbom_env ---------------------------------------------------------------------------


def test_bbom_env_lists_and_dispatches(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch([]) == 0
    out = capsys.readouterr().out
    assert bbom_env.__version__ in out and all(f"  {name} " in out for name in COMMANDS)
    assert (
        dispatch(["--version"]) == 0 and capsys.readouterr().out.strip() == f"bbom-env {bbom_env.__version__}"
    )
    assert dispatch(["cards", "show", "no_such_card", "--pack", "test"]) == 1  # bbom_env.cards' own status
    assert "no card 'no_such_card'" in capsys.readouterr().err
    assert dispatch(["conjure"]) == 2
    assert "unknown command 'conjure'; commands: play, cards, evaluate, replay" in capsys.readouterr().err


def test_python_m_bbom_env_runs_a_command() -> None:
    res = _run(["-m", "bbom_env", "play", "--watch", "--seed", "2", "--max-steps", "3", "--pack", "test"])
    assert res.returncode == 0 and "decisions: 3" in res.stdout, res.stderr


# -- balance.py writes docs/ only when asked --------------------------------------------------------


def test_balance_writes_to_stdout_or_a_run_directory_never_docs(tmp_path: Path) -> None:
    docs = ROOT / "docs" / "balance.md"
    before = docs.read_bytes()
    small = ["--games", "1", "--teams", "random", "--ablate", "0", "--pack", "test"]
    res = _run([*BALANCE, *small, "--out", "-"], timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("# Balance benchmark") and "random 2p L1: win" in res.stderr
    out = tmp_path / "report.md"
    res = _run([*BALANCE, *small, "--out", str(out)], timeout=300)
    assert res.returncode == 0 and out.read_text().startswith("# Balance benchmark"), res.stderr
    assert f"--out {out}" in out.read_text()  # the "Generated by" line reproduces the run
    assert docs.read_bytes() == before


def test_balance_default_output_is_a_new_run_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bal = _bench("balance")
    monkeypatch.setattr(bal, "ROOT", tmp_path)
    assert bal.main(["--games", "1", "--teams", "random", "--ablate", "0", "--pack", "test"]) == 0
    (report,) = (tmp_path / "runs" / "balance").glob("*/balance.md")
    assert report.read_text().startswith("# Balance benchmark")
    assert f"wrote {report}" in capsys.readouterr().out
