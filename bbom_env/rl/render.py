"""Rendering shared by the Gymnasium and AEC envs: text (``render_mode="ansi"`` / ``"human"``) and the
board picture (``"rgb_array"``).

After ``reset`` the text is the board, ``str(state)`` (the engine's rendering: card names, reconstructed
cards marked ``*``). After a step, the board is preceded by who did what: the seat, the move by name
with the card it points at (``play_text.move_label``: ``move_to_string`` plus e.g. the Spell's name,
read before the move changes the state) and what the move set off, one line per event of the log.

``"rgb_array"`` returns the board picture as an ``(H, W, 3) uint8`` array, H x W = (288 + 128 x
players) x 1280 (``bbom_env.view.raster.board_array``, the spectator's view: every hand shown). It needs
the ``render`` extra (the rasterizer); without it the mode is refused at construction with
``UnsupportedRenderModeError`` naming the extra. The picture is drawn from the state alone (the last
move from its history), so ``before_move`` runs for the text modes only: an env made with
``"rgb_array"`` (SB3 asks for it, below) pays nothing per step until ``render()`` is called.

Gymnasium's convention for a render mode the env does not have: ``gym.make`` only warns
(``metadata["render_modes"]`` lists the modes) and leaves refusing it to the env, whose
``render_mode`` must be None or one of those modes (Gymnasium's env checker asserts it). The envs
refuse it with ``UnsupportedRenderModeError``, a ValueError that is also a TypeError: SB3's
``make_vec_env`` and its algorithms given an env id ask for ``render_mode="rgb_array"`` and, on a
TypeError, make the env again without a render mode (stable_baselines3 ``maybe_make_env``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from bbom_env.engine import GameState
from bbom_env.view.raster import missing as _render_missing

TEXT_MODES = ("ansi", "human")
# "rgb_array" is listed in the envs' metadata only where the ``render`` extra is installed, so that
# Gymnasium's check_env (which tries every listed mode) passes on a core install too.
RENDER_MODES = (*TEXT_MODES, "rgb_array") if not _render_missing() else TEXT_MODES


class UnsupportedRenderModeError(ValueError, TypeError):
    """A ``render_mode`` the env does not have: a ValueError naming it and the modes there are, and
    a TypeError so that SB3 falls back to no render mode (see the module docstring)."""


def check_render_mode(mode: object, modes: Sequence[str] = RENDER_MODES) -> None:
    if mode == "rgb_array" and "rgb_array" not in modes and _render_missing():
        modes = (*modes, "rgb_array")  # (the message below names the extra to install)
    if mode is not None and mode not in modes:
        raise UnsupportedRenderModeError(
            f"render_mode={mode!r} is not supported; the modes are None, {list(modes)} (SB3 then makes "
            "the env without a render mode)"
        )
    if mode == "rgb_array":
        from bbom_env.view.raster import INSTALL, missing

        gone = missing()
        if gone:
            raise UnsupportedRenderModeError(
                f"render_mode='rgb_array' needs the 'render' extra ({', '.join(gone)} not installed): "
                f"{INSTALL}; the text modes 'ansi' and 'human' need nothing more"
            )


def render_array(state: GameState) -> np.ndarray:
    """``render_mode="rgb_array"``: the spectator's board picture as an ``(H, W, 3) uint8`` array."""
    from bbom_env.view.raster import board_array  # the drawing code: loaded only when rendering

    return board_array(state)


@dataclass(frozen=True)
class LastMove:
    """Who did what, taken before the move is applied (the label reads the state it points into)."""

    seat: int
    label: str
    log_start: int


def before_move(state: GameState, action: object) -> LastMove | None:
    """The seat and the words of ``action``, and where its events will start in ``state.log``; None
    for an action that is not legal (the engine refuses it next, with its own error). Called only
    when rendering, so training without a render mode pays nothing."""
    from bbom_env.play_text import move_label  # loads the card catalogue code: only when rendering

    if not isinstance(action, Integral) or isinstance(action, bool) or action not in state.legal_actions():
        return None
    move = int(action)
    return LastMove(state.current_player(), move_label(state, move), len(state.log))


def render_text(state: GameState, last: LastMove | None) -> str:
    """The board, preceded (after a step) by the line of who did what and its events."""
    if last is None:
        return str(state)
    from bbom_env.play_text import event_lines

    lines = [f"P{last.seat} played {last.label}", *event_lines(state, last.log_start), str(state)]
    return "\n".join(lines)
