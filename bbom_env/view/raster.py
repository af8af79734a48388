"""The board picture as pixels: ``board_array(state)`` is an ``(H, W, 3) uint8`` RGB array of
``svg.board_svg`` (``svg_kit.board_size``: 1280 wide, 288 + 128 per player + 160 high), what
``render_mode="rgb_array"`` returns (Gymnasium's ``RecordVideo`` writes it to a video).

The rasterizer is resvg (the ``resvg-py`` wheel: Rust, no system library) with Pillow to read its
PNG, both in the ``render`` extra (``pip install "bbom-env[render]"``), not the core install. Text is
drawn with the DejaVu Sans fonts that matplotlib's wheel ships (also in the extra), so a machine
without system fonts draws the same picture; without matplotlib resvg falls back on the system's.

Speed: resvg outlines every glyph on every call (no glyph cache), so the text costs most of a
frame. ``board_array`` therefore rasterizes the picture segment by segment (``svg.board_regions``:
the title bar, the track, the side panel, each player's row, the decision panel) and keeps the
pixels of recent segments: from one decision to the next most segments are unchanged, and only the
changed ones are drawn again (benchmarks/render_throughput.py measures both paths).
"""

from __future__ import annotations

import importlib.util
import io
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bbom_env.engine import GameState

from .svg import board_parts, board_regions, board_size, opening_tag

EXTRA = "render"
INSTALL = f'pip install "bbom-env[{EXTRA}]" (from a checkout: pip install -e ".[{EXTRA}]")'
CACHE_SEGMENTS = 64  # segment pictures kept (a 2-player frame has 6; at most 1280 x 160 x 3 bytes each)


class RenderExtraMissing(ImportError):
    """The rasterizer of the ``render`` extra is not installed (the message says how to install)."""


def missing() -> list[str]:
    """The packages of the ``render`` extra that are not importable (empty when rendering works)."""
    return [name for name in ("resvg_py", "PIL") if importlib.util.find_spec(name) is None]


def require() -> None:
    """Raise ``RenderExtraMissing`` naming the extra when a package of it is missing."""
    gone = missing()
    if gone:
        raise RenderExtraMissing(
            f"drawing the board as pixels needs the '{EXTRA}' extra ({', '.join(gone)} not "
            f"installed): {INSTALL}"
        )


@cache
def font_files() -> tuple[str, ...]:
    """DejaVu Sans (regular and bold) from matplotlib's wheel, without importing matplotlib; () when
    it is not installed (resvg then loads the system fonts)."""
    spec = importlib.util.find_spec("matplotlib")
    for root in spec.submodule_search_locations or () if spec is not None else ():
        ttf = Path(root) / "mpl-data" / "fonts" / "ttf"
        files = tuple(str(ttf / f) for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))
        if all(Path(f).is_file() for f in files):
            return files
    return ()


def svg_to_array(svg: str) -> np.ndarray:
    """Rasterize SVG text at its own size: an ``(H, W, 3) uint8`` array (a new, writable one)."""
    require()
    import resvg_py
    from PIL import Image

    fonts = font_files()
    options: dict[str, Any] = {"skip_system_fonts": True, "font_files": list(fonts)} if fonts else {}
    png = resvg_py.svg_to_bytes(svg_string=svg, **options)
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.array(image.convert("RGB"), dtype=np.uint8)


class SegmentCache:
    """The pixels of recently drawn segments, by their SVG text (least recently used dropped)."""

    def __init__(self, size: int = CACHE_SEGMENTS) -> None:
        self.size = size
        self.tiles: OrderedDict[str, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def tile(self, svg: str) -> np.ndarray:
        tile = self.tiles.get(svg)
        if tile is not None:
            self.tiles.move_to_end(svg)
            self.hits += 1
            return tile
        self.misses += 1
        tile = svg_to_array(svg)
        tile.flags.writeable = False
        self.tiles[svg] = tile
        if len(self.tiles) > self.size:
            self.tiles.popitem(last=False)
        return tile


_CACHE = SegmentCache()


def board_array(
    state: GameState,
    view: int | None = None,
    observe_other_hands: bool = False,
    cache: SegmentCache | None = None,
) -> np.ndarray:
    """The board picture of ``state`` (arguments as ``svg.board_svg``) as an ``(H, W, 3) uint8``
    array, ``(H, W) = board_size(players)[::-1]``; a new array each call. Drawn segment by segment
    (module docstring); ``cache`` defaults to one shared by the process."""
    require()
    parts = board_parts(state, view, observe_other_hands)
    who = "spectator" if view is None else f"P{view}"
    w, h = board_size(len(state.players))
    out = np.empty((h, w, 3), dtype=np.uint8)
    store = _CACHE if cache is None else cache
    for part, box in zip(parts[1:-1], board_regions(len(state.players)), strict=True):
        x, y, bw, bh = box
        out[y : y + bh, x : x + bw] = store.tile(opening_tag(box, who) + part + "</svg>")
    return out
