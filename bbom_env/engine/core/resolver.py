"""The interpreter loop: a stack of frames, each a small dict of plain data (design decision 2).

A frame has a ``kind`` (its keys and their types: ``frames.py``); ``RUN[kind](state, f)`` advances
it. A frame that needs a choice sets ``f["decider"]`` to the deciding seat and stops;
``LEGAL[kind]`` lists its legal moves and ``ANSWER[kind]`` applies one, after which the frame runs
again. Nothing here holds a generator or a closure, so a state can be cloned, pickled or
serialised at any decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bbom_env.engine.model.frames import FRAME_TYPES, register_frame_type

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

# Handlers take their kind's TypedDict (frames.py), hence Any for the frame here.
RUN: dict[str, Callable[[GameState, Any], None]] = {}
LEGAL: dict[str, Callable[[GameState, Any], list[int]]] = {}
ANSWER: dict[str, Callable[[GameState, Any, int], None]] = {}
# Effect op name -> (run, legal, answer) of its "op" frame (filled by play/ops.py and the modules'
# ``auto_op``/``choice_op``): the table lives here, with the frame handlers, so that the module
# registry (core/rules.py) can check a module's ops without importing the rules above it.
OPS: dict[str, tuple[Callable, Callable, Callable]] = {}
# What runs when the stack is empty: the next turn (play/flow.py registers ``start_turn``). A
# registry, like RUN, so that this loop never imports the turn flow above it.
TURN_START: list[Callable[[GameState], None]] = []


def frame(kind: str, run=None, legal=None, answer=None, typed: type | None = None) -> None:
    """Register the handlers of a frame kind. A module's new kind passes its TypedDict as
    ``typed`` (see frames.py); every kind with handlers has a registered type."""
    if typed is not None:
        register_frame_type(kind, typed)
    elif kind not in FRAME_TYPES:
        raise ValueError(f"frame kind {kind!r} has no TypedDict: pass typed= (frames.register_frame_type)")
    for table, handler in ((RUN, run), (LEGAL, legal), (ANSWER, answer)):
        if handler is not None:
            table[kind] = handler


def done(state: GameState, f: Mapping[str, Any]) -> None:
    """Remove frame f (by identity: frames pushed above it since stay in place)."""
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:
            del stack[i]
            return


def push(state: GameState, *frames: Mapping[str, Any]) -> None:
    """Push frames (plain dicts, typed by frames.py) so that the first one given runs first."""
    state.stack.extend(reversed(frames))  # type: ignore[arg-type]  # TypedDicts are dicts


class IllegalActionError(ValueError):
    """An action that is not legal now; names the action and the pending decision."""


def run(state: GameState) -> None:
    """Advance until a decision is pending or the game is over."""
    stack = state.stack
    skip_forced = state.config.skip_forced_decisions
    while not state.over:
        if not stack:
            TURN_START[0](state)
            continue
        f = stack[-1]
        if f.get("decider") is not None:
            legal = LEGAL[f["kind"]](state, f)
            if not legal:
                raise AssertionError(f"frame {f} waits with no legal move")
            if skip_forced and len(legal) == 1:
                f["decider"] = None
                state.cache_views = None  # (read by the legal moves just found)
                ANSWER[f["kind"]](state, f, legal[0])
                continue
            state.cache_legal = legal
            return
        RUN[f["kind"]](state, f)
    state.cache_legal = []
