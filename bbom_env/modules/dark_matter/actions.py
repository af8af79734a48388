"""The Dark Matter module's Actions (RULES.md sections 4.6-4.9). IN PROGRESS (issue 11)."""

from __future__ import annotations

from bbom_env.engine.moves import BlockSpec
from bbom_env.engine.rules import MenuAction

BLOCKS: tuple[BlockSpec, ...] = ()
ACTIONS: tuple[MenuAction, ...] = ()
FRAMES: tuple[str, ...] = ()
PAY_ACTIONS: tuple[str, ...] = ()
