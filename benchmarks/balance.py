"""Balance benchmark: the random and heuristic teams on levels 1-3 with 2 and 4 players (Normal
mode), and the effect of each Library Spell on the heuristic team's win rate. Writes a Markdown
report to a new run directory (runs/balance/TIME/balance.md), to stdout with ``--out -``, or to a
path with ``--out PATH``: ``--out docs/balance.md`` updates the docs page (only then).

    python benchmarks/balance.py [--games 500] [--out PATH|-] [--pack default] [--workers 2]
                                 [--ablate 3] [--teams random,heuristic]

Game i of every cell uses seed i (the agent too), so the figures do not depend on --workers.

Two checks per Library Spell, both on the heuristic team: an observational screen (win rate when
learned minus when in the Library but not learned, confounded) and, for the ``--ablate`` Spells the
screen flags most, a causal check (ablation): the level-1 cells are replayed on the same seeds with
the Spell replaced by a neutral "draw X" placeholder (an override pack), and the paired win-rate
difference says how much the card itself is worth.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "benchmarks"):  # run as a script from anywhere; balance_report beside it
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from balance_report import (  # noqa: E402  (the Markdown report: benchmarks/balance_report.py)
    _VERDICTS,  # noqa: F401  (re-exported with the report's pieces the tests check)
    MIN_LEARNED,
    TEAMS,
    Ablation,
    ModuleCell,
    _ablation_row,  # noqa: F401
    _pct,
    _pp,
    _rate,
    _verdict,  # noqa: F401
    report,
    screen_gaps,
)

from agents.evaluate import (  # noqa: E402
    GameResult,
    Summary,
    _run_one,
    discordant,  # noqa: F401  (re-exported: the tests read the report's statistics here)
    paired_difference,  # noqa: F401
    summarise_results,
)
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, load_pack  # noqa: E402
from bbom_env.engine.cards.pack import Spell  # noqa: E402
from bbom_env.engine.model.constants import ELEMENT_NAMES  # noqa: E402

LEVELS = (1, 2, 3)
PLAYERS = (2, 4)
ABLATION_CELLS = ((2, 1), (4, 1))  # (players, level): where the heuristic team wins often enough


def _progress(label: str, total: int):
    """tqdm when installed, else a plain text progress line (bench extra: pip install tqdm)."""
    try:
        from tqdm import tqdm

        return lambda it: tqdm(it, total=total, desc=label, leave=False)
    except ImportError:

        def plain(it: Iterable) -> Iterator:
            # On a terminal one line rewritten in place; in a log, a line every 25%.
            tty = sys.stderr.isatty()
            step = max(1, total // (20 if tty else 4))
            for i, x in enumerate(it, 1):
                if i % step == 0 or i == total:
                    if tty:
                        print(f"\r{label}: {i}/{total}", end="", file=sys.stderr, flush=True)
                    else:
                        print(f"{label}: {i}/{total}", file=sys.stderr, flush=True)
                yield x
            if tty:
                print(file=sys.stderr)

        return plain


def play_cell(
    team: str,
    games: int,
    workers: int = 1,
    progress: Callable[[Iterable], Iterable] | None = None,
    **config: Any,
) -> list[GameResult]:
    """Like ``agents.evaluate.evaluate`` (game i: seed i, agent seed i) but returns the per-game
    results in seed order: the ablation pairs games by seed."""
    GameConfig(**config)  # validate once, before spawning workers
    jobs = [(team, config, i) for i in range(games)]
    if workers > 1:
        import multiprocessing as mp

        # "spawn" workers import their function: _run_one lives in agents.evaluate, not here.
        with mp.get_context("spawn").Pool(workers) as pool:
            it: Iterable = pool.imap(_run_one, jobs, chunksize=4)
            return list(progress(it) if progress else it)
    it = map(_run_one, jobs)
    return list(progress(it) if progress else it)


# -- Library Spells: observational screen, then ablation ------------------------------------------


def ablation_candidates(cells: list[Summary], n: int, min_learned: int = MIN_LEARNED) -> list[str]:
    """The ``n`` Library Spells with the largest positive screening gap among those learned in
    >= ``min_learned`` games (heuristic cells pooled)."""
    gaps = screen_gaps(cells, min_learned)
    return sorted((sid for sid in gaps if gaps[sid] > 0), key=lambda sid: (-gaps[sid], sid))[:n]


def placeholder_toml(sp: Spell) -> str:
    """An override pack replacing Library Spell ``sp`` (same id, so the Library deal is unchanged)
    by a neutral placeholder: same Element, level and costs, effect "draw X"."""
    q = json.dumps  # a JSON string is a valid TOML basic string
    return "\n".join(
        [
            "# Written by benchmarks/balance.py (ablation): a neutral placeholder, not a real card.",
            "[pack]",
            'id = "ablation"',
            f"name = {q('Ablation of ' + sp.id)}",
            "",
            "[[spell]]",
            f"id = {q(sp.id)}",
            f"name = {q(sp.name + ' (ablated)')}",
            'kind = "library"',
            f"element = {q(ELEMENT_NAMES[sp.element])}",
            f"level = {sp.level}",
            f"activation_cost = {sp.activation_cost}",
            f"learning_cost = {sp.learning_cost}",
            'text = "Draw X cards."',
            'effect = [{ op = "draw", count = "X" }]',
            'provenance = "reconstructed"',
            f"notes = {q('Ablation placeholder for ' + sp.name + ': measures what the card is worth.')}",
            "",
        ]
    )


def write_override(sp: Spell, directory: str | Path) -> Path:
    path = Path(directory) / f"ablate_{sp.id}.toml"
    path.write_text(placeholder_toml(sp))
    return path


def run_ablations(
    pack: str, spells: list[str], games: int, workers: int, base: dict[tuple[int, int], list[GameResult]]
) -> list[Ablation]:
    """Replay the ABLATION_CELLS with each Spell replaced by its placeholder (override pack in a
    temporary directory, which must outlive the games: workers load the pack themselves)."""
    p = load_pack(pack)
    out = []
    with tempfile.TemporaryDirectory(prefix="bbom_ablation_") as tmp:
        for sid in spells:
            path = str(write_override(p.spells[sid], tmp))
            for players, level in ABLATION_CELLS:
                cfg = dict(num_players=players, difficulty=level, mode="normal", pack=pack)
                if (players, level) not in base:
                    label = f"heuristic {players}p L{level}"
                    base[(players, level)] = play_cell(
                        "heuristic", games, workers, _progress(label, games), **cfg
                    )
                label = f"ablate {p.spells[sid].name} {players}p L{level}"
                res = play_cell(
                    "heuristic", games, workers, _progress(label, games), **cfg, pack_overrides=(path,)
                )
                ab = Ablation(sid, players, level, base[(players, level)], res)
                out.append(ab)
                d, lo, hi = paired_difference([r.win for r in ab.base], [r.win for r in ab.ablated])
                rates = f"{_pct(_rate(ab.base))} -> {_pct(_rate(ab.ablated))}"
                print(f"{label}: {rates} ({_pp(d)} [{_pp(lo)}, {_pp(hi)}])", flush=True)
    return out


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="benchmarks/balance.py", description=__doc__.split("\n\n")[0])
    add, count = ap.add_argument, cli.int_range
    add("--games", type=count(1, 100_000), default=500, help="games per cell, 1..100000 (default 500)")
    add("--out", metavar="PATH|-", help="write the report to PATH (--out docs/balance.md updates the docs "
        "page) or to stdout (-); default: a new run directory runs/balance/TIME/")  # fmt: skip
    add("--pack", type=cli.pack, default="default", help=f"{cli.PACK_HELP} (default: default)")
    add("--workers", type=count(1, 256), default=1, help="processes, 1..256 (results do not depend on it)")
    add("--teams", type=cli.comma_list(TEAMS), default=",".join(TEAMS), help=f"of: {', '.join(TEAMS)}")
    add("--ablate", type=count(0, 50), default=3, help="Library Spells to ablate, 0..50 (default 3; 0: none)")
    add("--modules", type=cli.modules, action="append", default=[], help="rules modules, comma-separated "
        "(e.g. dark_matter or dark_matter,phobias): every cell is played again with them, same seeds, and "
        "compared in its own section; repeat for more module sets")  # fmt: skip
    return ap


def _module_cells(args: argparse.Namespace, modules: tuple[str, ...], log: Any) -> list[ModuleCell]:
    """Every cell again with one ``--modules`` set (same teams, seeds and settings)."""
    out = []
    for team in args.teams.split(","):
        for players in PLAYERS:
            for level in LEVELS:
                label = f"{team} {players}p L{level} +{'+'.join(modules)}"
                cfg = dict(
                    num_players=players, difficulty=level, mode="normal", pack=args.pack, modules=modules
                )
                results = play_cell(team, args.games, args.workers, _progress(label, args.games), **cfg)
                s = summarise_results(team, cfg, results)
                print(
                    f"{label}: win {_pct(s.win_rate)} monsters {s.monsters_defeated:.2f}",
                    file=log,
                    flush=True,
                )
                out.append((s, results))
    return out


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # The report goes to a new run directory unless --out says where: the docs page only when asked.
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path: Path | None = Path(args.out) if args.out else ROOT / "runs" / "balance" / stamp / "balance.md"
    if args.out == "-":
        path = None
    log = sys.stdout if path is not None else sys.stderr  # with --out -, stdout carries the report only
    start = time.time()
    cells = []
    heuristic: dict[tuple[int, int], list[GameResult]] = {}
    for team in args.teams.split(","):
        for players in PLAYERS:
            for level in LEVELS:
                label = f"{team} {players}p L{level}"
                cfg = dict(num_players=players, difficulty=level, mode="normal", pack=args.pack)
                results = play_cell(team, args.games, args.workers, _progress(label, args.games), **cfg)
                s = summarise_results(team, cfg, results)
                if team == "heuristic":
                    heuristic[(players, level)] = results
                lo, hi = s.win_ci
                print(
                    f"{label}: win {_pct(s.win_rate)} [{_pct(lo)}, {_pct(hi)}] monsters "
                    f"{s.monsters_defeated:.2f}",
                    file=log,
                    flush=True,
                )
                cells.append(s)
    module_runs = [(m, _module_cells(args, m, log)) for m in args.modules]
    ablations = None
    hcells = [s for s in cells if s.team == "heuristic"]
    if args.ablate > 0 and hcells:
        spells = ablation_candidates(hcells, args.ablate)
        ablations = run_ablations(args.pack, spells, args.games, args.workers, heuristic)
    text = report(cells, args, time.time() - start, ablations, module_runs)
    if path is None:
        sys.stdout.write(text)
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"wrote {path}" + ("" if args.out else " (--out docs/balance.md updates the docs page)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(cli.run(main))
