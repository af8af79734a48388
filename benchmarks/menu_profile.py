"""Where the Action menu's time goes: the menu query (``menu.menu_legal``) timed on fixed states,
by kind of decider and by Action, for the base game and a module set side by side.

    python benchmarks/menu_profile.py [--modules NAMES] [--players N] [--games G] [--reps R] [--json]

It collects every menu decision of G seeded random games (auto payment), then times, per category
of decider, the whole query and each registered Action's ``legal`` (and the decider's seat view,
``payment/seat.py``, built for them), in CPU time, the best of R passes over the same states. The
categories (docs/rules.md 4.10, 9.1, 9.2): ``F`` a "forbid" modifier, ``C`` a "cost" modifier,
``T`` a module cost transform open (a pair of Dark Matter cards, the Air conversion), ``P`` a
Phobia in the decider's support; ``-`` where not. It says which menus and which Actions cost the
most, beside the base game's (``engine_throughput.py --modules``). No game is changed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, GameState, new_game  # noqa: E402
from bbom_env.engine.actions.menu import menu_legal  # noqa: E402
from bbom_env.engine.core.rules import ruleset  # noqa: E402
from bbom_env.engine.model.frames import MenuFrame  # noqa: E402
from bbom_env.engine.modifiers import hooks  # noqa: E402
from bbom_env.engine.payment.seat import SeatView  # noqa: E402
from bbom_env.modules.phobias.state import PHOBIA_BASE  # noqa: E402

Menus = list[tuple[GameState, MenuFrame]]


def menu_states(config: GameConfig, games: int) -> Menus:
    """Every menu decision of ``games`` seeded random games (copies: the states are timed later)."""
    out: Menus = []
    for seed in range(games):
        state = new_game(config.replace(seed=seed))
        rng = random.Random(seed)
        while not state.over:
            top = state.stack[-1] if state.stack else None
            if top is not None and top["kind"] == "menu" and top.get("decider") is not None:
                copy = state.clone()
                out.append((copy, copy.stack[-1]))  # type: ignore[arg-type]
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return out


def category(state: GameState, f: MenuFrame) -> str:
    p = f["player"]
    kinds = {m["kind"] for m in hooks.player_mods(state, p)}
    transform = any(t.applies(state, p) for t in state.rules.cost_transforms)
    phobia = any(slot.card >= PHOBIA_BASE for slot in state.players[p].support)
    flags = (("F", "forbid" in kinds), ("C", "cost" in kinds), ("T", transform), ("P", phobia))
    return "".join(flag if on else "-" for flag, on in flags)


def _queries(menus: Menus) -> None:
    for state, f in menus:
        state.cache_views = None  # (the view kept by the last pass: each query makes its own)
        menu_legal(state, f)


def _views(menus: Menus) -> None:
    for state, f in menus:
        SeatView(state, f["player"])


Legal = Callable[[GameState, Any], Iterable[int]]  # a MenuAction's legal (rules.MenuAction.legal)


def _legal(legal: Legal, pairs: list[tuple[GameState, SeatView]]) -> None:
    for state, view in pairs:
        legal(state, view)


def _best(fn: Callable[[], object], reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def profile(config: GameConfig, games: int, reps: int) -> dict[str, dict[str, float]]:
    """Per category: its share of the menus, the query's mean microseconds, then the view's and
    each Action's (``all``: every menu)."""
    states = menu_states(config, games)
    by_cat: dict[str, Menus] = defaultdict(list)
    for state, f in states:
        by_cat[category(state, f)].append((state, f))
    actions = ruleset(config.modules).actions
    out: dict[str, dict[str, float]] = {}
    total = 0.0
    for cat, menus in sorted(by_cat.items(), key=lambda kv: -len(kv[1])):
        n = len(menus)
        whole = _best(partial(_queries, menus), reps)
        total += whole
        views = [SeatView(s, f["player"]) for s, f in menus]
        row = {"share": n / len(states), "menu_us": whole / n * 1e6}
        row["view_us"] = _best(partial(_views, menus), reps) / n * 1e6
        pairs = [(s, v) for (s, _f), v in zip(menus, views, strict=True)]
        for action in actions:
            t = _best(partial(_legal, action.legal, pairs), reps)
            row[action.name + "_us"] = t / n * 1e6
        out[cat] = row
    out["all"] = {"share": 1.0, "menu_us": total / max(1, len(states)) * 1e6, "menus": float(len(states))}
    return out


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchmarks/menu_profile.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--modules",
        type=cli.modules,
        default=(),
        help="rules modules, comma-separated (e.g. dark_matter,phobias): profiled beside the base game",
    )
    ap.add_argument("--players", type=cli.int_range(2, 5), default=2, help="players, 2-5 (default 2)")
    ap.add_argument("--games", type=cli.int_range(1, 10_000), default=30, help="seeded games (default 30)")
    ap.add_argument(
        "--reps", type=cli.int_range(1, 100), default=5, help="timed passes, best kept (default 5)"
    )
    ap.add_argument("--pack", type=cli.pack, default="default", help=f"{cli.PACK_HELP} (default default)")
    ap.add_argument(
        "--json",
        action="store_true",
        help="stdout is one JSON object with every figure (the table goes to stderr)",
    )
    return ap


def main(argv: list[str] | None = None) -> dict[str, dict[str, dict[str, float]]]:
    args = build_parser().parse_args(argv)
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        results: dict[str, dict[str, dict[str, float]]] = {}
        sets = [()] + ([args.modules] if args.modules else [])
        for modules in sets:
            name = ",".join(modules) or "base"
            config = GameConfig(num_players=args.players, payment="auto", pack=args.pack, modules=modules)
            new_game(config)  # load the pack outside the timings
            res = results[name] = profile(config, args.games, args.reps)
            print(
                f"{name}: {int(res['all']['menus'])} menus, mean query {res['all']['menu_us']:.2f} us (CPU)"
            )
            for cat, row in res.items():
                if cat == "all":
                    continue
                timed = sorted(
                    ((k[:-3], v) for k, v in row.items() if k.endswith("_us") and k != "menu_us"),
                    key=lambda kv: -kv[1],
                )
                parts = f"query {row['menu_us']:.1f} us | " + " ".join(f"{k} {v:.1f}" for k, v in timed)
                print(f"  {cat} {100 * row['share']:5.1f}% of menus | {parts}")
        if args.json:
            print(json.dumps({"players": args.players, "games": args.games, "results": results}), file=stdout)
        return results


def _script() -> int:
    main()
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(_script))
