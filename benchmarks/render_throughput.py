"""How fast the board is drawn (docs/rendering.md): SVG build, rasterization (the whole picture at
once, and segment by segment with the cache of ``bbom_env.view.raster``, what ``render_mode=
"rgb_array"`` does), a whole game recorded with ``gymnasium.wrappers.RecordVideo``, and the replay
page of that game (time and size).

    python benchmarks/render_throughput.py [--players 2] [--modules dark_matter,phobias] [--seed 0]
                                           [--raster-frames 30] [--no-video] [--json]

The game is the heuristic team's game of that seed (the same in every run). Frames per second are
wall-clock over the game's decision states in order (a video's frames), one process, so they depend
on the machine and its load: the CPU seconds are printed beside them. Rasterizing needs the ``render``
extra (``pip install -e ".[render]"``), RecordVideo also moviepy (in the extra).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import make_agent  # noqa: E402
from bbom_env import cli  # noqa: E402
from bbom_env.engine import GameConfig, GameState, new_game  # noqa: E402
from bbom_env.view import board_svg  # noqa: E402
from bbom_env.view.game_file import record_of  # noqa: E402
from bbom_env.view.replay_html import replay_html  # noqa: E402


def heuristic_game(config: GameConfig) -> list[GameState]:
    state = new_game(config)
    agent = make_agent("heuristic", seed=config.seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(agent.act(state))
        states.append(state.clone())
    return states


def clocked(fn: Any) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds of this process)."""
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def rates(frames: int, wall: float, cpu: float) -> dict[str, float]:
    return {"frames": frames, "fps": round(frames / wall, 2), "cpu_fps": round(frames / cpu, 2)}


def measure_svg(states: list[GameState]) -> dict[str, float]:
    _, wall, cpu = clocked(lambda: [board_svg(s) for s in states])
    return rates(len(states), wall, cpu)


def measure_raster(states: list[GameState], frames: int) -> dict[str, dict[str, float]]:
    from bbom_env.view.raster import SegmentCache, board_array, svg_to_array

    run = states[: max(1, frames)]
    _, wall, cpu = clocked(lambda: [svg_to_array(board_svg(s)) for s in run])
    whole = rates(len(run), wall, cpu)
    cache = SegmentCache()
    _, wall, cpu = clocked(lambda: [board_array(s, cache=cache) for s in states])
    segments = rates(len(states), wall, cpu)
    segments["cache_hit_rate"] = round(cache.hits / max(1, cache.hits + cache.misses), 3)
    return {"whole_picture": whole, "segments_cached": segments}


def measure_video(config: GameConfig, folder: Path) -> dict[str, float]:
    """A whole game through ``gym.make(..., render_mode="rgb_array")`` wrapped in RecordVideo."""
    import gymnasium as gym
    from gymnasium.wrappers import RecordVideo

    import bbom_env

    kwargs = {k: v for k, v in config.to_dict().items() if k != "seed"}
    made = gym.make(bbom_env.GYM_ID, render_mode="rgb_array", **kwargs)
    env = RecordVideo(made, str(folder), episode_trigger=lambda e: True, disable_logger=True)
    agent = make_agent("heuristic", seed=config.seed)

    def episode() -> int:
        env.reset(seed=config.seed)
        steps, done = 0, False
        while not done:
            _, _, term, trunc, _ = env.step(agent.act(env.unwrapped.state))
            done, steps = term or trunc, steps + 1
        env.close()
        return steps

    steps, wall, cpu = clocked(episode)
    video = next(folder.glob("*.mp4"))
    return {
        "steps": steps,
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "mp4_bytes": video.stat().st_size,
    }


def measure_page(states: list[GameState]) -> dict[str, float]:
    record = record_of(states[-1], ["heuristic"] * len(states[0].players))
    page, wall, _ = clocked(lambda: replay_html(record))
    return {"seconds": round(wall, 2), "bytes": len(page.encode()), "decisions": len(record.moves)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="benchmarks/render_throughput.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=cli.int_range(2, 5), default=2)
    ap.add_argument(
        "--modules", default="", metavar="NAME,...", help="rules modules, e.g. dark_matter,phobias"
    )
    ap.add_argument("--seed", type=cli.int_range(0), default=0, help="the game's seed (default 0)")
    ap.add_argument(
        "--raster-frames", type=cli.int_range(1), default=30, help="frames of the whole-picture rasterization"
    )
    ap.add_argument("--no-video", action="store_true", help="skip the RecordVideo game")
    ap.add_argument("--json", action="store_true", help="print every figure as one JSON line, last")
    a = ap.parse_args(argv)
    modules = tuple(m.strip() for m in a.modules.split(",") if m.strip())
    try:
        config = GameConfig(num_players=a.players, seed=a.seed, modules=modules)
    except ValueError as e:
        ap.error(str(e))
    states = heuristic_game(config)
    out: dict[str, Any] = {
        "players": a.players,
        "modules": list(modules),
        "seed": a.seed,
        "states": len(states),
    }
    out["svg"] = measure_svg(states)
    setting = f"{a.players} players, {', '.join(modules) or 'base game'}, seed {a.seed}"
    print(f"game: {len(states) - 1} decisions ({setting})")
    print(f"SVG build: {out['svg']['fps']} frames/s ({out['svg']['cpu_fps']} per CPU second)")
    from bbom_env.view.raster import missing

    if missing():
        print(f"rasterizing skipped: the render extra is not installed ({', '.join(missing())})")
    else:
        out["raster"] = measure_raster(states, a.raster_frames)
        for name, r in out["raster"].items():
            extra = f", cache hit rate {r['cache_hit_rate']}" if "cache_hit_rate" in r else ""
            speed = f"{r['fps']} frames/s ({r['cpu_fps']} per CPU s{extra})"
            print(f"rasterize ({name}, {r['frames']} frames): {speed}")
        if not a.no_video:
            with tempfile.TemporaryDirectory() as tmp:
                out["video"] = v = measure_video(config, Path(tmp) / "videos")
            cpu = f"{v['cpu_seconds']} CPU s in this process; ffmpeg runs beside it"
            print(f"RecordVideo of the whole game: {v['steps']} steps in {v['seconds']} s ({cpu}), ", end="")
            print(f"mp4 {v['mp4_bytes'] / 1e6:.1f} MB")
    out["page"] = p = measure_page(states)
    print(f"replay page: {p['bytes'] / 1e6:.2f} MB for {p['decisions']} decisions, built in {p['seconds']} s")
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
