"""The board picture as pixels: ``board_array(state)`` is an ``(H, W, 3) uint8`` RGB array of
``svg.board_svg`` (``svg_kit.board_size``: 1280 wide, 288 + 128 per player + 160 high), what
``render_mode="rgb_array"`` returns (Gymnasium's ``RecordVideo`` writes it to a video).

The rasterizer is resvg (the ``resvg-py`` wheel: Rust, no system library) with Pillow to read its
PNG, both in the ``render`` extra (``pip install "bbom-env[render]"``), not the core install. Text is
drawn with the DejaVu Sans fonts that matplotlib's wheel ships (also in the extra), so a machine
without system fonts draws the same picture; without matplotlib resvg falls back on the system's.

Speed: resvg outlines and fills every glyph on every call (no glyph cache), so the text costs most
of a frame (about 3,000 glyphs). ``board_array`` therefore rasterizes the picture segment by segment
(``svg.board_regions``: the title bar, the track, the side panel, each player's row, the decision
panel) and keeps the pixels of recent segments: from one decision to the next most segments are
unchanged. A changed segment is drawn in two layers, both by resvg from the segment's own SVG: its
shapes (the segment without its texts, cached: they seldom change) and then each text, rasterized
alone on a transparent canvas (cached: most lines are the same from one frame to the next) and
blended over them (texts are the drawing's top layer, ``svg_kit``). The result is the whole
picture's rasterization to within rounding (a level or two of 255 on anti-aliased edges; tested).
benchmarks/render_throughput.py measures both paths.
"""

from __future__ import annotations

import importlib.util
import io
import re
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bbom_env.engine import GameState

from .svg import board_parts, board_regions, board_size, opening_tag
from .svg_kit import FONT

EXTRA = "render"
INSTALL = f'pip install "bbom-env[{EXTRA}]" (from a checkout: pip install -e ".[{EXTRA}]")'
CACHE_SEGMENTS = 96  # segment pictures kept, whole or without their texts (at most 1280 x 160 x 3 bytes each)
CACHE_TEXTS = 2048  # single texts kept (a line of text: about 10 KB)


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


def svg_to_array(svg: str, alpha: bool = False) -> np.ndarray:
    """Rasterize SVG text at its own size: an ``(H, W, 3) uint8`` array (a new, writable one);
    ``(H, W, 4)`` RGBA with ``alpha`` (what is not drawn is transparent)."""
    require()
    import resvg_py
    from PIL import Image

    fonts = font_files()
    options: dict[str, Any] = {"skip_system_fonts": True, "font_files": list(fonts)} if fonts else {}
    png = resvg_py.svg_to_bytes(svg_string=svg, **options)
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.array(image.convert("RGBA" if alpha else "RGB"), dtype=np.uint8)


class SegmentCache:
    """Pixels of recently drawn pictures by their SVG text (least recently used dropped): whole
    segments, segments without their texts, and single texts (``board_array``)."""

    def __init__(self, size: int = CACHE_SEGMENTS, texts: int = CACHE_TEXTS) -> None:
        self.size = size
        self.tiles: OrderedDict[str, np.ndarray] = OrderedDict()
        self.texts: OrderedDict[str, TextTile | None] = OrderedDict()
        self.text_size = texts
        self.hits = 0  # whole segments found
        self.misses = 0  # whole segments drawn (from their shapes and texts)

    def tile(self, svg: str) -> np.ndarray:
        """The pixels of ``svg`` (rasterized on a miss)."""
        tile = _lru_get(self.tiles, svg)
        if tile is None:
            tile = svg_to_array(svg)
            tile.flags.writeable = False
            _lru_put(self.tiles, svg, tile, self.size)
        return tile

    def segment(self, part: str, box: tuple[int, int, int, int], who: str) -> np.ndarray:
        """The pixels of one segment of ``board_parts`` in its region ``box``."""
        key = opening_tag(box, who) + part + "</svg>"
        tile = _lru_get(self.tiles, key)
        if tile is not None:
            self.hits += 1
            return tile
        self.misses += 1
        shapes = HANDLES.sub("", TEXT.sub("", part))  # ids and data-* change no pixel: one key
        out = self.tile(opening_tag(box, "") + shapes + "</svg>").copy()
        for m in TEXT.finditer(part):
            text = self.text(m, box)
            if text is not None:
                text.blend(out, box)
        out.flags.writeable = False
        _lru_put(self.tiles, key, out, self.size)
        return out

    def text(self, m: re.Match[str], box: tuple[int, int, int, int]) -> TextTile | None:
        look, body = m.group("look"), m.group("body")  # the ids and data-* do not change pixels
        key = f"{box}{look}>{body}"
        if key in self.texts:
            self.texts.move_to_end(key)
            return self.texts[key]
        tile = TextTile.draw(m, look + ">" + body + "</text>", box)
        _lru_put(self.texts, key, tile, self.text_size)
        return tile


# One ``<text>`` as ``svg_kit.text`` writes it: its look (position, size, colour, weight, anchor), its
# ids and data-* attributes, its body.
TEXT = re.compile(
    r'(?P<look><text x="(?P<x>-?\d+)" y="(?P<y>-?\d+)" font-size="(?P<size>\d+)" fill="[^"]*"'
    r'(?: font-weight="bold")?(?: text-anchor="(?P<anchor>\w+)")?)(?P<attrs>[^>]*)>(?P<body>[^<]*)</text>'
)


# Attributes that change no pixel (the handles of tests and the replay page).
HANDLES = re.compile(r' (?:id|class|data-[\w-]+)="[^"]*"')


class TextTile:
    """One text rasterized alone on a transparent canvas, cropped to its ink: blended over the
    shapes of its segment (texts are the drawing's top layer: svg_kit)."""

    def __init__(self, x: int, y: int, rgb: np.ndarray, alpha: np.ndarray) -> None:
        self.x, self.y, self.rgb, self.alpha = x, y, rgb, alpha

    @classmethod
    def draw(cls, m: re.Match[str], element: str, box: tuple[int, int, int, int]) -> TextTile | None:
        """Rasterize the text in a canvas around its baseline, clipped to the segment's region as the
        whole segment's picture clips it; None when it leaves no ink (blank text)."""
        bx, by, bw, bh = box
        x, y, size, anchor = int(m.group("x")), int(m.group("y")), int(m.group("size")), m.group("anchor")
        # Wide enough for any line: no glyph of DejaVu Sans (Bold) is wider than 1.1 em.
        reach = (size * len(m.group("body")) * 11 + 9) // 10 + 4
        left = {"end": x - reach, "middle": x - reach // 2}.get(anchor or "start", x - 4)
        right = {"end": x + 4, "middle": x + reach // 2}.get(anchor or "start", x + reach)
        top, bottom = y - (size * 5 + 3) // 4, y + (size + 1) // 2
        left, right, top, bottom = max(left, bx), min(right, bx + bw), max(top, by), min(bottom, by + bh)
        if right <= left or bottom <= top:
            return None
        w, h = right - left, bottom - top
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="{left} {top} {w} {h}" font-family="{FONT}">{element}</svg>'
        )
        rgba = svg_to_array(svg, alpha=True)
        ink = np.nonzero(rgba[:, :, 3])
        if not len(ink[0]):
            return None
        r0, r1, c0, c1 = ink[0].min(), ink[0].max() + 1, ink[1].min(), ink[1].max() + 1
        crop = rgba[r0:r1, c0:c1]
        return cls(
            left + int(c0), top + int(r0), crop[:, :, :3].astype(np.uint16), crop[:, :, 3:].astype(np.uint16)
        )

    def blend(self, out: np.ndarray, box: tuple[int, int, int, int]) -> None:
        """Over ``out`` (the segment's pixels, ``box`` its region): out = ink x alpha + out x (1 - alpha)."""
        h, w = self.alpha.shape[:2]
        r, c = self.y - box[1], self.x - box[0]
        under = out[r : r + h, c : c + w].astype(np.uint16)
        out[r : r + h, c : c + w] = (self.rgb * self.alpha + under * (255 - self.alpha) + 127) // 255


def _lru_get(table: OrderedDict[str, Any], key: str) -> Any:
    value = table.get(key)
    if value is not None:
        table.move_to_end(key)
    return value


def _lru_put(table: OrderedDict[str, Any], key: str, value: Any, size: int) -> None:
    table[key] = value
    if len(table) > size:
        table.popitem(last=False)


_CACHE = SegmentCache()


def board_array(
    state: GameState,
    view: int | None = None,
    observe_other_hands: bool = False,
    cache: SegmentCache | None = None,
) -> np.ndarray:
    """The board picture of ``state`` (arguments as ``svg.board_svg``) as an ``(H, W, 3) uint8``
    array, ``(H, W) = board_size(players)[::-1]``; a new array each call. Drawn segment by segment
    and text by text (module docstring); ``cache`` defaults to one shared by the process."""
    require()
    parts = board_parts(state, view, observe_other_hands)
    who = "spectator" if view is None else f"P{view}"
    w, h = board_size(len(state.players))
    out = np.empty((h, w, 3), dtype=np.uint8)
    store = _CACHE if cache is None else cache
    for part, box in zip(parts[1:-1], board_regions(len(state.players)), strict=True):
        x, y, bw, bh = box
        out[y : y + bh, x : x + bw] = store.segment(part, box, who)
    return out
