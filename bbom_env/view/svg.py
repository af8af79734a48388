"""The board picture: one SVG drawing of a ``GameState``, from one seat's point of view or as a
spectator who sees everything. It is the one drawing code path behind every picture of the game:
``render_mode="rgb_array"`` (rasterized by ``raster.py``), the replay viewer's frames
(``replay_html.py``) and the screenshots in docs/ (docs/rendering.md).

It shows the round, phase and Active Player; the Invocation track with the marker and each slot's
Curses (stacks top first, neutralized, tokens, Madness under); the Grimoire's open spread, the
Library tops, the supply, tokens, the Madness and Curse piles; each player's Magician, Spells
(ready, exhausted, neutralized), support (with crushed cards), hand (or its size), deck and discard
sizes and temporary modifiers; the pending decision, its legal moves and the last move; with the
Vth Element's modules, Dark Matter, the Black Book's spread, Dark Curse stacks and Phobias. Card
names carry their provenance mark (``*`` reconstructed, ``~`` partial) as in the text views.

A seat's view shows nothing that seat cannot see (docs/rules.md A-66, the rule of the observation
encoder: ``svg_seats`` and ``svg_table`` say what is hidden where). Elements carry ``id`` and
``data-*`` attributes (``#marker[data-space]``, ``.curse[data-name]``, ``#seat-N[data-hand-size]``,
``#decision[data-kind]``...): stable handles for tests and the replay page. The same state and view
give the same bytes in any process (no clock, no randomness, ints only).
"""

from __future__ import annotations

from bbom_env.engine import GameState

from .svg_kit import DECISION_HEIGHT, FONT, PAPER, SEAT_HEIGHT, TOP_HEIGHT, WIDTH, board_size, data
from .svg_seats import decision_panel, seat_row
from .svg_table import SIDE_X, side_panel, title, track

__all__ = ["board_parts", "board_regions", "board_size", "board_svg", "check_view", "opening_tag"]

TITLE_HEIGHT = 32


def board_regions(num_players: int) -> list[tuple[int, int, int, int]]:
    """(x, y, width, height) of each drawn segment of ``board_parts`` (the title bar, the track, the
    side panel, the players' rows, the decision panel), in order: they tile the picture, and each
    segment draws inside its own (``raster.py`` rasterizes and caches them one by one)."""
    band = TOP_HEIGHT - TITLE_HEIGHT
    split = SIDE_X - 8
    return [
        (0, 0, WIDTH, TITLE_HEIGHT),
        (0, TITLE_HEIGHT, split, band),
        (split, TITLE_HEIGHT, WIDTH - split, band),
        *((0, TOP_HEIGHT + i * SEAT_HEIGHT, WIDTH, SEAT_HEIGHT) for i in range(num_players)),
        (0, TOP_HEIGHT + num_players * SEAT_HEIGHT, WIDTH, DECISION_HEIGHT),
    ]


def opening_tag(box: tuple[int, int, int, int], who: str) -> str:
    """The ``<svg>`` tag of a picture of ``box`` (x, y, width, height) of the board, with the paper
    background."""
    x, y, w, h = box
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{x} {y} {w} {h}" '
        f'font-family="{FONT}" {data(view=who)}>'
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{PAPER}"/>'
    )


def check_view(state: GameState, view: int | None) -> None:
    """ValueError unless ``view`` is None (the spectator) or a seat of the game."""
    n = len(state.players)
    if view is not None and (type(view) is not int or not 0 <= view < n):
        raise ValueError(f"view={view!r}: expected None (the spectator) or a seat 0..{n - 1}")


def board_parts(state: GameState, view: int | None = None, observe_other_hands: bool = False) -> list[str]:
    """The picture as its segments, in drawing order: the opening ``<svg>`` tag with the background,
    the title bar, the track, the side panel, one row per player, the decision panel and the closing
    tag. ``"".join`` of them is ``board_svg``; the replay page stores each distinct segment once
    (most segments do not change from one decision to the next)."""
    check_view(state, view)
    w, h = board_size(len(state.players))
    who = "spectator" if view is None else f"P{view}"
    return [
        opening_tag((0, 0, w, h), who),
        title(state, view),
        track(state),
        side_panel(state, view),
        *(seat_row(state, seat, view, observe_other_hands) for seat in range(len(state.players))),
        decision_panel(state, view, observe_other_hands),
        "</svg>",
    ]


def board_svg(state: GameState, view: int | None = None, observe_other_hands: bool = False) -> str:
    """The board picture of ``state`` as SVG text, ``board_size(players)`` pixels.

    Args:
        state: any state of a game (base game or with modules), over or not.
        view: the seat whose view is drawn (what that seat can see: A-66), or None for a spectator
            who sees everything (every hand, the legal moves, the Grimoire's face-down pages).
        observe_other_hands: a seat's view also shows the other players' hands (the env option of
            the same name: A-66 table talk).
    """
    return "".join(board_parts(state, view, observe_other_hands))
