"""The interpreter loop: a stack of frames, each a small dict of plain data (design decision 2).

A frame has a kind ``k``; ``RUN[k](state, f)`` advances it. A frame that needs a choice sets
``f["w"]`` to the deciding seat and stops; ``LEGAL[k]`` lists its legal moves and ``ANSWER[k]``
applies one, after which the frame runs again. Nothing here holds a generator or a closure, so a
state can be cloned, pickled or serialised at any decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState

RUN: dict[str, Callable[[GameState, dict], None]] = {}
LEGAL: dict[str, Callable[[GameState, dict], list[int]]] = {}
ANSWER: dict[str, Callable[[GameState, dict, int], None]] = {}


def frame(kind: str, run=None, legal=None, answer=None) -> None:
    """Register the handlers of a frame kind."""
    if run is not None:
        RUN[kind] = run
    if legal is not None:
        LEGAL[kind] = legal
    if answer is not None:
        ANSWER[kind] = answer


def done(state: GameState, f: dict) -> None:
    """Remove frame f (by identity: frames pushed above it since stay in place)."""
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:
            del stack[i]
            return


def push(state: GameState, *frames: dict) -> None:
    """Push frames so that the first one given runs first."""
    state.stack.extend(reversed(frames))


class IllegalActionError(ValueError):
    """An action that is not legal now; names the action and the pending decision."""


def run(state: GameState) -> None:
    """Advance until a decision is pending or the game is over."""
    from .flow import start_turn

    stack = state.stack
    skip_forced = state.config.skip_forced_decisions
    while not state.over:
        if not stack:
            start_turn(state)
            continue
        f = stack[-1]
        if f.get("w") is not None:
            legal = LEGAL[f["k"]](state, f)
            if not legal:
                raise AssertionError(f"frame {f} waits with no legal move")
            if skip_forced and len(legal) == 1:
                f["w"] = None
                ANSWER[f["k"]](state, f, legal[0])
                continue
            state.legal_cache = legal
            return
        RUN[f["k"]](state, f)
    state.legal_cache = []
