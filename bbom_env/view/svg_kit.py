"""SVG primitives of the board picture (``svg.py``): escaped text, boxes, colours and the sizes of the
picture. Plain strings, built with presentation attributes only (no CSS, no script, no font file),
so that every renderer draws them alike: a browser, resvg (``raster.py``), an editor.

Two rules of the drawing that ``raster.py`` relies on: every ``<text>`` is written by ``text`` (one
element, attributes in its order, no child element), and no shape is drawn over a text (texts are
the top layer): the rasterizer draws the shapes and the texts of a segment separately.

Numbers are written as ints: the same state gives the same bytes in every process."""

from __future__ import annotations

from html import escape

WIDTH = 1280  # px: the picture's width for every player count
TOP_HEIGHT = 288  # the round, the Invocation track, the Grimoire, Library, supply (and modules)
SEAT_HEIGHT = 128  # one player's row
DECISION_HEIGHT = 160  # the pending decision, its legal moves and the last move
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"  # DejaVu: what raster.py gives resvg

# Colours of the Elements and the Curse types (the card frames), and of a card's state.
TYPE_COLOURS = {
    "fire": "#c0392b",
    "water": "#2e6fbe",
    "earth": "#4f8a2b",
    "air": "#b58d12",
    "multi": "#7d3c98",
    "dark_matter": "#2b2b2b",
}
INK = "#1d1d1d"
MUTED = "#6b6b6b"
PAPER = "#fbf8f1"
PANEL = "#efe9dc"
READY = "#e4f2df"
EXHAUSTED = "#f3e3c3"
NEUTRALIZED = "#d9d9d9"
HIGHLIGHT = "#ffd84d"


def board_size(num_players: int) -> tuple[int, int]:
    """(width, height) in pixels of the picture of a ``num_players`` game: 1280 wide, 288 + 128 per
    player + 160 high (2 players: 1280 x 704; 5 players: 1280 x 1088). Every size is a multiple of
    16, so video encoders take the frames as they are (no resize)."""
    return WIDTH, TOP_HEIGHT + SEAT_HEIGHT * num_players + DECISION_HEIGHT


def esc(text: object) -> str:
    """Text or an attribute value, escaped for XML (quotes included)."""
    return escape(str(text), quote=True)


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the cut marked with an ellipsis (names are drawn in
    boxes of a fixed width; the full name stays in the element's ``data-name``)."""
    return text if len(text) <= chars else text[: max(chars - 1, 1)] + "\u2026"


def text(
    x: int,
    y: int,
    body: str,
    size: int = 12,
    *,
    fill: str = INK,
    bold: bool = False,
    anchor: str = "start",
    attrs: str = "",
) -> str:
    """One line of text at (x, y) (the baseline); ``body`` is escaped here."""
    weight = ' font-weight="bold"' if bold else ""
    end = f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra = f" {attrs}" if attrs else ""
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{weight}{end}{extra}>{esc(body)}</text>'


def rect(
    x: int, y: int, w: int, h: int, fill: str, *, stroke: str = "none", width: int = 1, rx: int = 4
) -> str:
    line = f' stroke="{stroke}" stroke-width="{width}"' if stroke != "none" else ""
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}"{line}/>'


def group(body: list[str], attrs: str = "") -> str:
    """A ``<g>`` of the parts (one segment of the picture: see ``svg.board_parts``)."""
    extra = f" {attrs}" if attrs else ""
    return f"<g{extra}>" + "".join(body) + "</g>"


def data(**values: object) -> str:
    """``data-*`` attributes (escaped): the stable handles tests and the replay page read."""
    return " ".join(f'data-{k.replace("_", "-")}="{esc(v)}"' for k, v in values.items())
