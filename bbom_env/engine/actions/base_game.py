"""The base game as the first rules module (``rules.Module``): its move blocks, Actions, frame
kinds, effect ops, decision kinds, modifier kinds, payment Actions, Curse types, card codes and
statistics. Importing this module registers it; ``rules.ruleset`` does so on first use."""

from __future__ import annotations

from bbom_env.engine.actions import base as actions

# Imported for their registrations (frame kinds, ops), which run at import:
from bbom_env.engine.actions import menu  # noqa: F401
from bbom_env.engine.cards.pack import CURSE_TYPES
from bbom_env.engine.cards.vocab import BASE_MODIFIER_KINDS, BASE_OPS
from bbom_env.engine.core.moves import BASE, BASE_BLOCKS
from bbom_env.engine.core.resolver import RUN
from bbom_env.engine.core.rules import Module, register
from bbom_env.engine.model.constants import MADNESS, NUM_ELEMENT_CODES
from bbom_env.engine.payment import frame as payment_frame  # noqa: F401
from bbom_env.engine.play import flow, ops, ops_board, ops_cards  # noqa: F401
from bbom_env.engine.play.decision import DECISION_KINDS

# Progress counters of state.stats (zones.py, actions.py, flow.py keep them).
STATS: tuple[str, ...] = (
    "curses_destroyed",
    "eliminations",
    "madness_cured",
    "madness_received",
    "monsters_defeated",
    "monsters_failed",
    "spells_activated",
    "spells_learned",
)

BASE_MODULE = Module(
    name=BASE,
    blocks=BASE_BLOCKS,
    actions=actions.BASE_ACTIONS,
    frames=tuple(RUN),
    # The base vocabulary's ops (ops.OPS also holds the handlers of modules imported before this).
    ops=tuple(op for op in ops.OPS if op in BASE_OPS),
    decision_kinds=DECISION_KINDS,
    modifier_kinds=BASE_MODIFIER_KINDS,
    pay_actions=actions.PAY_ACTIONS,
    curse_types=CURSE_TYPES,
    card_codes=(*range(NUM_ELEMENT_CODES), MADNESS),
    stats=STATS,
    doc="The Big Book of Madness, base game (docs/rules.md sections 1-8).",
)
register(BASE_MODULE)
