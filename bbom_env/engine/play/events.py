"""Card effects and triggers as frames: ``seq`` is the frame that resolves one effect part of a card
(docs/rules.md sections 7 and 10.5), ``fire`` pushes a player's trigger effects on an event (Magician
triggers; a module's sources too). Zones, the turn flow, the Actions and the ops all push them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core.resolver import push
from bbom_env.engine.modifiers import hooks

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


def seq(src: str, part: str, c: int, x: int = 1, path: tuple = ()) -> dict:
    """A frame that resolves the effect ``part`` of card ``src`` with controller c and power X."""
    return {"kind": "seq", "source": src, "part": part, "path": path, "step": 0, "controller": c, "x": x}


def fire(state: GameState, p: int, event: str) -> None:
    """Event hooks (Magician triggers now, Phobias later): push the trigger effects of player p."""
    for src, part in hooks.triggers(state, p, event):
        push(state, seq(src, part, p))
