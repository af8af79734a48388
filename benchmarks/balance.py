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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.evaluate import (  # noqa: E402
    GameResult,
    Summary,
    _run_one,
    discordant,
    paired_difference,
    summarise_results,
)
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, load_pack  # noqa: E402
from bbom_env.engine.cards import Pack, Spell  # noqa: E402
from bbom_env.engine.constants import ELEMENT_NAMES  # noqa: E402
from bbom_env.engine.pack_checks import marked  # noqa: E402

TEAMS = ("random", "heuristic")
LEVELS = (1, 2, 3)
PLAYERS = (2, 4)
ABLATION_CELLS = ((2, 1), (4, 1))  # (players, level): where the heuristic team wins often enough
MIN_LEARNED = 50  # a Spell learned in fewer games has too noisy a screening gap to rank
DECISIVE_PP = 10.0  # verdict threshold, see _VERDICT_TEXT


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


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


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


def pooled_spells(cells: list[Summary]) -> dict[str, tuple[int, int, int, int]]:
    """spell id -> (games learned, wins then, games in the Library but not learned, wins then),
    pooled over ``cells``."""
    rows: dict[str, list[int]] = {}
    for s in cells:
        for sid, counts in s.spells.items():
            row = rows.setdefault(sid, [0, 0, 0, 0])
            for i in range(4):
                row[i] += counts[i]
    return {k: tuple(v) for k, v in rows.items()}  # type: ignore[misc]


def screen_gaps(cells: list[Summary], min_learned: int = 1) -> dict[str, float]:
    """spell id -> win rate when learned minus when in the Library but not learned (``cells``
    pooled), for the Spells learned in >= ``min_learned`` games and not learned in some."""
    rows = pooled_spells(cells).items()
    return {sid: w_l / n_l - w_n / n_n for sid, (n_l, w_l, n_n, w_n) in rows if n_l >= min_learned and n_n}


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


@dataclass
class Ablation:
    spell: str
    players: int
    level: int
    base: list[GameResult]  # the heuristic cell as played with the pack
    ablated: list[GameResult]  # the same seeds with the Spell replaced by the placeholder


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


def _rate(results: list[GameResult]) -> float:
    return sum(r.win for r in results) / len(results) if results else 0.0


def _pp(x: float) -> str:
    return f"{100 * x:+.1f} pp"


_VERDICTS = (
    "the placeholder does better",
    "no measurable effect",
    "helps, not decisive",
    "inconclusive",
    "decides games",
)
_VERDICT_TEXT = (
    f"A Spell **decides games** when replacing it lowers the heuristic team's win rate, in the games "
    f"where it was dealt, by at least {DECISIVE_PP:.0f} pp with a 95% interval above 0 (for scale, "
    "compare the level-1 to level-3 gap in the win-rate table); **inconclusive** when the interval "
    f"contains 0 but reaches {DECISIVE_PP:.0f} pp; **helps, not decisive** when the interval is above 0 "
    f"and the estimate below {DECISIVE_PP:.0f} pp; **no measurable effect** when the interval contains 0 "
    f"and stays below {DECISIVE_PP:.0f} pp; **the placeholder does better** when the interval is below 0. "
    "A Spell's verdict is that of its pooled row (both level-1 cells, still paired by cell and seed: "
    "the narrowest interval), or **decides games** when a single cell says so. Spells not ablated "
    f"(smaller screening gap, or learned in fewer than {MIN_LEARNED} games) have no causal verdict: the "
    "screen only ranks them."
)


def _verdict(d: float, lo: float, hi: float) -> int:
    if hi < 0:
        return 0
    if lo > 0:
        return 4 if 100 * d >= DECISIVE_PP else 2
    return 3 if 100 * hi >= DECISIVE_PP else 1


def report(
    cells: list[Summary],
    args: argparse.Namespace,
    seconds: float,
    ablations: list[Ablation] | None = None,
    module_runs: list[ModuleRun] | None = None,
) -> str:
    pack = load_pack(args.pack)
    out = [
        "# Balance benchmark",
        "",
        f"Generated by `python benchmarks/balance.py --games {args.games} --pack {args.pack} --ablate "
        f"{args.ablate}{_extra_args(args)}` ({seconds:.0f} s). Pack: `{pack.id}` ({pack.name}). "
        'Normal mode, `payment="auto"`, '
        f"seeds 0..{args.games - 1} in every cell (the same deals for both teams).",
        "",
        "Most cards of the default pack are reconstructed (docs/cards.md): these figures measure the "
        "pack as written, not the printed game.",
        "",
        "Teams: `random` picks uniformly among legal moves; `heuristic` is the scripted team of "
        "`agents/heuristic_agent.py` (the baseline learned policies must beat).",
        "",
        "## Win rates",
        "",
        "| team | players | level | games | win rate | 95% CI (Wilson) | Monsters defeated | "
        "Curses destroyed | Madness received | turns | decisions |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in cells:
        lo, hi = s.win_ci
        out.append(
            f"| {s.team} | {s.config['num_players']} | {s.config['difficulty']} | {s.games} | "
            f"{_pct(s.win_rate)} | {_pct(lo)} - {_pct(hi)} | {s.monsters_defeated:.2f} / 6 | "
            f"{s.curses_destroyed:.1f} | {s.madness_received:.1f} | {s.turns:.1f} | {s.decisions:.0f} |"
        )
    out += ["", "How games end (all cells of a team pooled):", ""]
    for team in TEAMS:
        reasons: dict[str, int] = {}
        for s in cells:
            if s.team == team:
                for k, v in s.reasons.items():
                    reasons[k] = reasons.get(k, 0) + v
        total = sum(reasons.values())
        parts = ", ".join(
            f"{k}: {_pct(v / total)}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])
        )
        out.append(f"- {team}: {parts}")
    hcells = [s for s in cells if s.team == "heuristic"]
    out += _spell_section(hcells, pack)
    out += _ablation_section(ablations, pack, args, screen_gaps(hcells))
    for run in module_runs or ():
        out += _module_section(cells, run)
    return "\n".join(out) + "\n"


def _spell_section(cells: list[Summary], pack: Pack) -> list[str]:
    """Per Library Spell: heuristic win rate when learned minus when available but not learned,
    pooled over all heuristic cells. A confounded observational figure (a team that is doing well
    learns more), meant to flag outliers, not to measure causal effects."""
    rows = pooled_spells(cells)
    out = [
        "",
        "## Library Spells (heuristic team, all its cells pooled)",
        "",
        "Win rate in games where the team learned the Spell minus the win rate in games where it was "
        "in the Library but not learned. Observational (good games give more chances to learn): a "
        "large gap flags a card to look at, it does not prove the card decides games (the Ablation "
        "section tests the largest gaps causally).",
        "",
        "| Spell | Element | level | learned (games) | win rate learned | not learned (games) | "
        "win rate not learned | difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for sid, (n_l, w_l, n_n, w_n) in sorted(
        rows.items(), key=lambda kv: (pack.spells[kv[0]].element, pack.spells[kv[0]].level, kv[0])
    ):
        sp = pack.spells[sid]
        name = marked(sp.name, sp.provenance)
        r_l = w_l / n_l if n_l else float("nan")
        r_n = w_n / n_n if n_n else float("nan")
        diff = f"{100 * (r_l - r_n):+.1f} pp" if n_l and n_n else "-"
        out.append(
            f"| {name} (`{sid}`) | {ELEMENT_NAMES[sp.element]} | {sp.level} | {n_l} | "
            f"{_pct(r_l) if n_l else '-'} | {n_n} | {_pct(r_n) if n_n else '-'} | {diff} |"
        )
    out += ["", "`*` reconstructed card (not the printed text); `~` partial card (partly the printed one)."]
    return out


def _ablation_row(
    sid: str, name: str, label: str, base: list[GameResult], abl: list[GameResult]
) -> tuple[list[str], int, list[tuple[float, float, float]]]:
    """Table row(s) of one ablated cell: (rows, verdict, [overall, when dealt, when learned] as
    (difference, low, high))."""
    a, b = [r.win for r in base], [r.win for r in abl]
    dealt = [i for i, r in enumerate(base) if sid in r.library]
    # Seeds where the team learned the card in the run with it. The heuristic team looks at a Library
    # Spell only when it considers learning it, so both runs share their history up to that choice and
    # the paired difference there is the card's effect on the games where it is taken.
    learned = [i for i, r in enumerate(base) if sid in r.learned]
    diffs = [
        paired_difference([a[i] for i in idx], [b[i] for i in idx]) for idx in (range(len(a)), dealt, learned)
    ]
    v = _verdict(*diffs[1])
    only_a, only_b = discordant(a, b)
    ci = [f"{_pp(d)} ({_pp(lo)} to {_pp(hi)})" for d, lo, hi in diffs]
    n_learned = f"{len(learned)} / {sum(sid in r.learned for r in abl)}"
    rows = [
        f"| {name} | {label} | {len(dealt)} / {len(a)} | {n_learned} | {_pct(_rate(base))} / "
        f"{_pct(_rate(abl))} | {' | '.join(ci)} | {only_a} / {only_b} | {_VERDICTS[v]} |"
    ]
    # Check of the design: a seed without the Spell in its Library must play identically.
    undealt = set(range(len(a))) - set(dealt)
    differ = sum((base[i].win, base[i].decisions) != (abl[i].win, abl[i].decisions) for i in undealt)
    if differ:
        rows.append(
            f"| (warning) | {label} | {differ} games without the Spell in the Library played differently: "
            "the placeholder changed more than the card | | | | | | |"
        )
    return rows, v, diffs


def _ablation_section(
    ablations: list[Ablation] | None, pack: Pack, args: argparse.Namespace, screen: dict[str, float]
) -> list[str]:
    """The Ablation section; ``screen``: spell id -> observational learned-minus-not gap."""
    if not ablations:
        return ["", "## Ablation", "", "Not run (`--ablate 0`, or no heuristic cells).", "", _VERDICT_TEXT]
    out = [
        "",
        "## Ablation (causal check)",
        "",
        f"The {args.ablate} Spells with the largest positive gap in the table above, among those learned in "
        f">= {MIN_LEARNED} games, are each replaced by a neutral placeholder of the same Element, level and "
        'costs whose effect is "draw X" (an override pack, `GameConfig.pack_overrides`; same card id, so '
        "the Library deal of every seed is unchanged), and the heuristic team replays the level-1 cells "
        f"on the same seeds 0..{args.games - 1}. Only the card changes, so the difference is causal: what "
        "the card is worth to this team over a plain draw Spell, including how the team values it "
        "(the heuristic team learns and casts Spells by their effect ops, so it may learn the "
        "placeholder more or less often than the card).",
        "",
        "Intervals are **paired** (the same seed is played with the card and with the placeholder): "
        "Agresti-Min adjusted Wald 95% intervals for the difference of two paired proportions. The "
        "difference is given over all games, over the games where the Spell was dealt into the Library "
        "(the others cannot differ: the verdict uses this one), and over the games where the team "
        "learned the card (the run with the placeholder shares the game's history up to about that "
        "choice: the card's worth once taken, the causal counterpart of the screening gap).",
        "",
        "| Spell | cell | dealt (games) | learned: card / placeholder | win rate: card / placeholder | "
        "difference (95% CI) | when dealt | when learned | won only with card / only with placeholder | "
        "verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[str, list[Ablation]] = {}
    for ab in ablations:
        groups.setdefault(ab.spell, []).append(ab)
    verdicts: dict[str, int] = {}
    notes: list[str] = []
    confounded: list[str] = []
    for sid, abs_ in groups.items():
        sp = pack.spells[sid]
        name = marked(sp.name, sp.provenance)
        cells = [(f"{ab.players}p L{ab.level}", ab.base, ab.ablated) for ab in abs_]
        if len(cells) > 1:  # pooled over the cells, still paired (by cell and seed)
            cells.append(
                ("pooled", [r for ab in abs_ for r in ab.base], [r for ab in abs_ for r in ab.ablated])
            )
        parts, cell_v = [], []
        for label, base, abl in cells:
            row, v, diffs = _ablation_row(sid, name, label, base, abl)
            out += row
            cell_v.append(v)
            parts.append(f"{_pp(diffs[0][0])} overall, {_pp(diffs[1][0])} when dealt ({label})")
        # Card verdict: the pooled row (narrowest interval), unless one cell alone decides games.
        verdicts[sid] = 4 if 4 in cell_v else cell_v[-1]
        (dl, dl_lo, dl_hi), gap = diffs[2], screen.get(sid, float("nan"))  # last (pooled) row
        if gap > dl_hi:
            confounded.append(sp.name)
        notes.append(
            f"- {sp.name}: replacing it by the placeholder changes the win rate by {'; '.join(parts)}: "
            f"**{_VERDICTS[verdicts[sid]]}**. In the games where the team learned it: {_pp(dl)} "
            f"({_pp(dl_lo)} to {_pp(dl_hi)}), against a screening gap of {_pp(gap)}"
            + (" (a strong card once taken)." if 100 * dl_lo >= DECISIVE_PP else ".")
        )
    out += ["", "Interpretation:", "", *notes]
    named = {v: [pack.spells[sid].name for sid, w in verdicts.items() if w == v] for v in range(5)}
    if named[4]:
        conclusion = f"Conclusion: {', '.join(named[4])} decide(s) games by the rule below: tune down."
    else:
        conclusion = "Conclusion: none of the ablated Spells is shown to decide games by the rule below"
        conclusion += (
            f"; {', '.join(named[3])}: inconclusive at this number of games (rerun with more --games)."
            if named[3]
            else "."
        )
    if confounded:
        conclusion += (
            f" The screening gap of {', '.join(confounded)} lies above the 95% interval of the effect when "
            "learned: most of that observational gap is confounding (good games learn more), not the card."
            if len(confounded) == 1
            else f" The screening gaps of {', '.join(confounded)} lie above the 95% intervals of their "
            "effects when learned: most of those observational gaps are confounding (good games learn more)."
        )
    out += [
        "",
        conclusion,
        "",
        "### How the card-level verdict is reached",
        "",
        "1. Screen: every Library Spell's learned-minus-not-learned gap (table above, all heuristic cells). "
        "It is confounded, so it only ranks Spells.",
        f"2. Ablate the top {args.ablate} of the screen (positive gap, learned in >= {MIN_LEARNED} games) on "
        "the level-1 cells, where the team wins often enough for a card to show.",
        "3. " + _VERDICT_TEXT,
        "",
        "`*` reconstructed card (not the printed text); `~` partial card (only partly the printed one). "
        "The placeholders exist only in this benchmark.",
    ]
    return out


def _extra_args(args: argparse.Namespace) -> str:
    """The options of the run that the report's "Generated by" line must repeat to reproduce it."""
    teams = "" if args.teams == ",".join(TEAMS) else f" --teams {args.teams}"
    modules = "".join(f" --modules {','.join(m)}" for m in getattr(args, "modules", None) or ())
    return teams + modules + (f" --out {args.out}" if args.out not in (None, "-") else "")


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


ModuleCell = tuple[Summary, list[GameResult]]
ModuleRun = tuple[tuple[str, ...], list[ModuleCell]]  # a module set and its cells


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


def _module_section(cells: list[Summary], run: ModuleRun) -> list[str]:
    """The cells with one module set beside the same cells without it (same seeds: paired deals)."""
    modules, module_cells = run
    if not module_cells:
        return []
    names = sorted({n for _s, results in module_cells for r in results for n, _v in r.module_stats})
    base = {(s.team, s.config["num_players"], s.config["difficulty"]): s for s in cells}
    out = [
        "",
        f"## With the rules modules {', '.join(modules)}",
        "",
        f"Each cell again with `GameConfig(modules={tuple(modules)!r})`, the same seeds and teams "
        "(`--modules`); the module's statistics are per game. The module's cards are mostly "
        "reconstructed (docs/vth_element.md): these figures measure the module as written.",
        "",
        "| team | players | level | games | win rate without | win rate with | 95% CI with | Monsters "
        "defeated with | " + " | ".join(names) + " |",
        "|---|---|---|---|---|---|---|---|" + "---|" * len(names),
    ]
    for s, results in module_cells:
        b = base.get((s.team, s.config["num_players"], s.config["difficulty"]))
        lo, hi = s.win_ci
        per_game = {
            n: sum(dict(r.module_stats).get(n, 0) for r in results) / max(1, len(results)) for n in names
        }
        out.append(
            f"| {s.team} | {s.config['num_players']} | {s.config['difficulty']} | {s.games} | "
            f"{_pct(b.win_rate) if b else '-'} | {_pct(s.win_rate)} | {_pct(lo)} - {_pct(hi)} | "
            f"{s.monsters_defeated:.2f} / 6 | " + " | ".join(f"{per_game[n]:.2f}" for n in names) + " |"
        )
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
