"""benchmarks/engine_instructions.py: instructions per decision counted by valgrind, for the games
``engine_throughput.py`` plays, with the start-up (imports, pack, warm-up game) subtracted."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_instr_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


BENCH = _bench("engine_instructions")


def test_the_child_counts_the_games_engine_throughput_plays_without_the_warm_up() -> None:
    """The counted games are engine_throughput's (seed 0 first, the same agent RNG); the warm-up
    game is played but not counted."""
    throughput = _bench("engine_throughput")
    for modules in ((), ("dark_matter",)):
        first = throughput.measure(2, "auto", "test", 1e-9, modules)  # (one game: seed 0)
        assert first["games"] == 1
        assert BENCH.play(2, "auto", "test", modules, 1) == first["decisions_per_game"]
        assert BENCH.play(2, "auto", "test", modules, 0) == 0
    two = [
        throughput.play_game(throughput.GameConfig(num_players=5, payment="manual", pack="test", seed=s))
        for s in (0, 1)
    ]
    assert BENCH.play(5, "manual", "test", (), 2) == sum(two)


@pytest.mark.parametrize(
    ("stderr", "refs"),
    [
        ("==12== Collected : 7\n==12== \n==12== I   refs:      2,566,683,120\n", 2_566_683_120),
        ("==3== I refs:        1,234\n", 1234),
    ],
)
def test_the_instruction_count_is_read_from_cachegrinds_summary(stderr: str, refs: int) -> None:
    assert BENCH.instructions(stderr) == refs


def test_a_summary_without_a_count_is_an_error_that_shows_it() -> None:
    with pytest.raises(ValueError, match="(?s)no instruction count.*valgrind: Bad option"):
        BENCH.instructions("valgrind: Bad option: --cache-sim=no\n")


def test_settings_by_name_and_bad_values_exit_2_naming_them() -> None:
    assert BENCH.build_parser().parse_args(["--settings", "5p_manual,2p_auto"]).settings == (
        (5, "manual"),
        (2, "auto"),
    )
    res = subprocess.run(
        [sys.executable, "benchmarks/engine_instructions.py", "--settings", "3p_auto"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "3p_auto" in res.stderr.splitlines()[-1], res.stderr
    res = subprocess.run(
        [sys.executable, "benchmarks/engine_instructions.py", "--play", "2", "auto", "x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "'x'" in res.stderr.splitlines()[-1], res.stderr


def test_without_valgrind_it_says_so_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(BENCH.shutil, "which", lambda name: None)
    assert BENCH.main(["--games", "1"]) == 2
    assert "needs valgrind" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_counts_repeat_and_the_ratio_is_base_over_modules() -> None:
    """Under valgrind (about 25 s): one 2p game per side; the decisions are the child's own, the
    counts per decision plausible for this engine, the ratio base / modules, and a second count of
    the same games within 0.1% of the first (the child's fixed hash seed; measured: within 2
    instructions per decision)."""
    res = BENCH.main(["--games", "1", "--settings", "2p_auto", "--modules", "dark_matter", "--jobs", "2"])
    assert isinstance(res, dict)
    base, mod = res["2p_auto"], res["2p_auto+dark_matter"]
    assert base["decisions"] == BENCH.play(2, "auto", "test", (), 1)
    assert mod["decisions"] == BENCH.play(2, "auto", "test", ("dark_matter",), 1)
    for row in (base, mod):
        assert 10_000 < row["instructions_per_decision"] < 10_000_000
    assert mod["ratio_to_base"] == base["instructions_per_decision"] / mod["instructions_per_decision"]
    again = BENCH.per_decision(2, "auto", "test", (), 1)
    assert again["instructions_per_decision"] == pytest.approx(base["instructions_per_decision"], rel=1e-3)
