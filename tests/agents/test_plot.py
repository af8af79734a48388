"""``python -m agents.plot``: learning curves from synthetic metrics.csv files (a PNG that is really
written, several runs overlaid, empty train_* cells tolerated) and clean errors for runs without
usable metrics."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from agents.plot import COLUMNS, main, read_metrics  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _write_run(d: Path, rows: int = 5, scale: float = 1.0) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    with open(d / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for i in range(rows):
            p = min(1.0, 0.1 * i * scale)
            train = ["", "", "", ""] if i == 0 else [10 * i, -1 + 0.2 * i, 150, p]  # no episode yet
            ev = [50, p, max(0, p - 0.1), min(1, p + 0.1), 0.3 * i, 2 * i, 20, 150]
            w.writerow([(rows - i) * 1000, i, *ev, *train])
    return d


def test_plot_writes_a_png_into_the_run_dir(tmp_path: Path, capsys) -> None:
    run = _write_run(tmp_path / "ppo_run")
    assert main([str(run)]) == 0
    png = run / "learning_curves.png"
    data = png.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000
    assert str(png) in capsys.readouterr().out


def test_plot_overlays_runs_into_out(tmp_path: Path) -> None:
    a, b = _write_run(tmp_path / "a"), _write_run(tmp_path / "b", rows=3, scale=0.5)
    out = tmp_path / "figs" / "curves.png"
    assert main([str(a), str(b), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert not (a / "learning_curves.png").exists()


def test_read_metrics_sorts_rows_and_keeps_gaps(tmp_path: Path) -> None:
    m = read_metrics(_write_run(tmp_path / "r"))
    assert m["timesteps"] == sorted(m["timesteps"])
    assert m["train_ep_return"][-1] != m["train_ep_return"][-1]  # NaN: the first row had no episode
    assert m["eval_win_rate"][0] == pytest.approx(0.4)


@pytest.mark.parametrize("content", [None, "", ",".join(COLUMNS) + "\n", "timesteps,wall_s\n1,2\n"])
def test_unusable_metrics_exit_2(tmp_path: Path, capsys, content: str | None) -> None:
    run = tmp_path / "run"
    run.mkdir()
    if content is not None:
        (run / "metrics.csv").write_text(content)
    assert main([str(run)]) == 2
    err = capsys.readouterr().err
    assert "metrics.csv" in err and "Traceback" not in err
    assert not (run / "learning_curves.png").exists()


def test_bad_number_exit_2(tmp_path: Path, capsys) -> None:
    run = _write_run(tmp_path / "run")
    with open(run / "metrics.csv", "a") as f:
        f.write("abc" + "," * (len(COLUMNS) - 1) + "\n")
    assert main([str(run)]) == 2
    assert "line" in capsys.readouterr().err


def test_missing_run_from_the_shell(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "agents.plot", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert p.returncode == 2
    assert "nope" in p.stderr and "metrics.csv" in p.stderr and "Traceback" not in p.stderr
