"""Pictures of the game (docs/rendering.md): the board as SVG (``board_svg``: one drawing code path),
rasterized to an RGB array for ``render_mode="rgb_array"`` (``raster.py``, the ``render`` extra),
and the replay viewer, one self-contained HTML page per game (``replay_html.py``;
``python -m bbom_env.replay``)."""

from .svg import board_parts, board_size, board_svg

__all__ = ["board_parts", "board_size", "board_svg"]
