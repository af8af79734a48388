"""Environment throughput on one core: random masked play of our Gymnasium and AEC envs, and of the
anchors PettingZoo ``texas_holdem_v4`` (needs ``rlcard`` and ``pygame-ce``: ``pip install
-e .[bench]``) and OpenSpiel ``hanabi`` (when ``open_spiel`` is installed).

    python benchmarks/env_throughput.py [--seconds S] [--pack default|test] [--json]

Every env runs the same loop for S seconds: reset, then a uniformly random legal action (from the
mask) per decision until the episode ends, then reset again; steps/s counts decisions (PettingZoo
dead steps are not counted; resets are included in the time). The mask and observation figures are
per call of ``ActionLayout.mask`` and ``ObservationEncoder.encode`` at the decision states of random
games. The figures the project's performance targets are set on (``GOALS``: >= 5,000 steps/s at 2
players, >= 1.5x texas_holdem_v4, mask <= 20 us, observation <= 50 us) are printed beside their
targets, as figures; the JSON's ``goals_met`` compares them. With ``--json`` stdout is one JSON
object with every figure (the table goes to stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bbom_env import cli  # noqa: E402

GOALS = {"steps_per_s_2p": 5000.0, "ratio_vs_texas": 1.5, "mask_us": 20.0, "obs_us": 50.0}


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to cpu {cpu}"
    return "not pinned (no sched_setaffinity)"


def timed(seconds: float, one_episode: Callable[[], int]) -> float:
    """Decisions per second of repeated episodes for about ``seconds``."""
    steps = 0
    t0 = time.perf_counter()
    while True:
        steps += one_episode()
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return steps / dt


def gym_episode(env: Any, rng: np.random.Generator) -> Callable[[], int]:
    def run() -> int:
        _, info = env.reset(seed=int(rng.integers(1 << 30)))
        n = 0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
            n += 1
            done = term or trunc
        return n

    return run


def aec_episode(env: Any, rng: np.random.Generator) -> Callable[[], int]:
    def run() -> int:
        env.reset(seed=int(rng.integers(1 << 30)))
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    return run


def hanabi_episode(players: int, rng: np.random.Generator) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game(f"hanabi(players={players})")

    def run() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            p = state.current_player()
            state.observation_tensor(p)
            legal = np.flatnonzero(np.asarray(state.legal_actions_mask(p), dtype=np.int8))
            state.apply_action(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    return run


def mask_obs_cost(
    pack: str, players: int, decisions: int = 4000, modules: tuple[str, ...] = ()
) -> dict[str, float]:
    """Mean microseconds per call at the decision states of random games: ``mask`` (the env's call,
    ``ActionLayout.mask`` on the legal list the engine already computed while advancing to the
    decision), ``legal`` (the engine's legal-move generation itself, cache cleared) and ``obs``
    (``ObservationEncoder.encode``); and the mean fraction of legal ids."""
    from bbom_env.engine import GameConfig, new_game
    from bbom_env.rl.layout import ActionLayout
    from bbom_env.rl.observation import ObservationEncoder

    cfg = GameConfig(pack=pack, num_players=players, modules=modules)
    layout, encoder = ActionLayout(cfg), ObservationEncoder(cfg)
    rng = np.random.default_rng(0)
    t_legal = t_mask = t_obs = 0
    legal_frac = 0.0
    n = seed = 0
    clock = time.perf_counter_ns
    while n < decisions:
        state = new_game(cfg.replace(seed=seed))
        seed += 1
        while not state.is_terminal() and n < decisions:
            t0 = clock()
            mask = layout.mask(state)
            t1 = clock()
            encoder.encode(state, state.current_player())
            t2 = clock()
            state.legal_cache = None
            state.legal_actions()
            t3 = clock()
            t_mask += t1 - t0
            t_obs += t2 - t1
            t_legal += t3 - t2
            legal = np.flatnonzero(mask)
            legal_frac += len(legal) / layout.n
            n += 1
            state.apply_action(int(legal[rng.integers(len(legal))]))
    return {
        "mask_us": t_mask / n / 1e3,
        "legal_us": t_legal / n / 1e3,
        "obs_us": t_obs / n / 1e3,
        "legal_frac": legal_frac / n,
    }


def peer_missing_errors() -> tuple[type[BaseException], ...]:
    """What making a peer env raises when its dependencies are missing: ImportError, and what
    ``pettingzoo.make`` raises instead (its registry's FailedToImport, not an ImportError) or
    Gymnasium's DependencyNotInstalled (raised by older pettingzoo classic envs)."""
    from gymnasium.error import DependencyNotInstalled

    errors: list[type[BaseException]] = [ImportError, DependencyNotInstalled]
    try:
        from pettingzoo.env_registry.exceptions import FailedToImport

        errors.append(FailedToImport)
    except ImportError:  # pettingzoo < 1.27 has no registry
        pass
    return tuple(errors)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="benchmarks/env_throughput.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--seconds",
        type=cli.float_range(0, 3600, lo_open=True),
        default=3.0,
        help="seconds per measured env, > 0 and <= 3600 (default 3)",
    )
    ap.add_argument("--pack", type=cli.pack, default="default", help=f"{cli.PACK_HELP} (default: default)")
    ap.add_argument(
        "--json",
        action="store_true",
        help="stdout is one JSON object with every figure (the table goes to stderr)",
    )
    ap.add_argument(
        "--modules",
        type=cli.modules,
        default=(),
        help="rules modules, comma-separated (e.g. dark_matter): our envs are measured again with them, "
        "beside the base game, with the ratio (the module goal: >= 0.80)",
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with cli.json_stdout(args.json) as stdout:  # with --json, stdout is the JSON line alone
        pack = args.pack
        out: dict[str, Any] = {"pack": pack, "seconds": args.seconds, "core": pin_one_core()}
        print(f"bbom-env throughput, pack={pack}, {args.seconds:g} s per env, {out['core']}")
        rng = np.random.default_rng(0)  # one stream, ours first then the peers (the order is part of the run)
        _measure_ours(out, pack, args.seconds, rng)
        if args.modules:  # the same envs with the rules modules, beside the base game (goal >= 0.80)
            _measure_ours(out, pack, args.seconds, rng, args.modules)
            _report_module_ratios(out, args.modules)
        _measure_peers(out, args.seconds, rng)
        _report_ratios(out)
        _report_goals(out)
        if args.json:
            print(json.dumps(out, sort_keys=True), file=stdout)
        return 0


def _measure_ours(
    out: dict[str, Any], pack: str, seconds: float, rng: np.random.Generator, modules: tuple[str, ...] = ()
) -> None:
    import bbom_env  # noqa: F401  (registers the envs)
    from bbom_env.rl.aec_env import raw_env
    from bbom_env.rl.gym_env import BBoMGymEnv

    tag = "".join(f"+{m}" for m in modules)
    for players in (2, 5):
        gym_env = BBoMGymEnv(pack=pack, num_players=players, modules=modules)
        out[f"gym_{players}p{tag}"] = timed(seconds, gym_episode(gym_env, rng))
        aec = raw_env(pack=pack, num_players=players, modules=modules)
        out[f"aec_{players}p{tag}"] = timed(seconds, aec_episode(aec, rng))
        cost = mask_obs_cost(pack, players, modules=modules)
        for k, v in cost.items():
            out[f"{k}_{players}p{tag}"] = v
        print(
            f"  {players}p{tag}: gym {out[f'gym_{players}p{tag}']:6.0f} steps/s | "
            f"aec {out[f'aec_{players}p{tag}']:6.0f} "
            f"steps/s | mask {cost['mask_us']:5.1f} us | obs {cost['obs_us']:5.1f} us | engine legal moves "
            f"{cost['legal_us']:5.1f} us | {100 * cost['legal_frac']:4.1f}% of ids legal"
        )


def _measure_peers(out: dict[str, Any], seconds: float, rng: np.random.Generator) -> None:
    """PettingZoo's texas_holdem_v4 and OpenSpiel's hanabi, each skipped (None) when not installed."""
    missing = peer_missing_errors()
    try:
        import warnings

        import pettingzoo

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # rlcard's own deprecation noise
            texas = pettingzoo.make("aec", "classic/texas_holdem-v4")
        out["texas_holdem_v4"] = timed(seconds, aec_episode(texas, rng))
        print(f"  pettingzoo texas_holdem_v4: {out['texas_holdem_v4']:8.0f} steps/s")
    except missing as exc:
        out["texas_holdem_v4"] = None
        reason = " ".join(str(exc).split())
        print(f"  pettingzoo texas_holdem_v4: skipped, a dependency is missing ({reason})")
        print('    (the peers come with the bench extra: pip install -e ".[bench]")')
    try:
        import pyspiel  # noqa: F401

        for players in (2, 5):
            out[f"openspiel_hanabi_{players}p"] = timed(seconds, hanabi_episode(players, rng))
            rate = out[f"openspiel_hanabi_{players}p"]
            print(f"  openspiel hanabi {players}p (obs tensor + mask): {rate:8.0f} steps/s")
    except missing:
        out["openspiel_hanabi_2p"] = out["openspiel_hanabi_5p"] = None
        print('  openspiel hanabi: skipped, open_spiel is not installed (pip install -e ".[bench]")')


def _report_module_ratios(out: dict[str, Any], modules: tuple[str, ...]) -> None:
    tag = "".join(f"+{m}" for m in modules)
    print(f"  with {', '.join(modules)} / base game (steps/s, same run):")
    for env in ("gym", "aec"):
        for players in (2, 5):
            key = f"{env}_{players}p"
            ratio = out[key + tag] / out[key]
            out[f"{key}{tag}/base"] = ratio
            print(f"    {key}: {ratio:.2f}")


def _report_ratios(out: dict[str, Any]) -> None:
    ratios: dict[str, float] = {}
    for ref in ("texas_holdem_v4", "openspiel_hanabi_2p"):
        if out.get(ref):
            for ours in ("gym_2p", "aec_2p"):
                ratios[f"{ours}/{ref}"] = out[ours] / out[ref]
    out["ratios"] = ratios
    for k, v in ratios.items():
        print(f"  ratio {k}: {v:.2f}x")


def _report_goals(out: dict[str, Any]) -> None:
    # (name, measured, comparison, threshold): the output states each goal, so it needs no lookup.
    checks = [
        ("steps_per_s_2p", min(out["gym_2p"], out["aec_2p"]), ">=", GOALS["steps_per_s_2p"]),
        ("mask_us", max(out["mask_us_2p"], out["mask_us_5p"]), "<=", GOALS["mask_us"]),
        ("obs_us", max(out["obs_us_2p"], out["obs_us_5p"]), "<=", GOALS["obs_us"]),
    ]
    if out.get("texas_holdem_v4"):
        ratio = min(out["gym_2p"], out["aec_2p"]) / out["texas_holdem_v4"]
        checks.append(("ratio_vs_texas", ratio, ">=", GOALS["ratio_vs_texas"]))
    goals = {k: (v >= t if op == ">=" else v <= t) for k, v, op, t in checks}
    out["goals_met"] = goals
    print("  the figures the project's targets are set on (the JSON's goals_met compares them):")
    for k, v, _op, t in checks:
        print(f"    {k}: {v:.4g} (target {_op} {t:g})")


if __name__ == "__main__":
    sys.exit(cli.run(main))
