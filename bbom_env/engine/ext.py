"""The module SDK: what a rules module (``bbom_env/modules/``) builds on, in one place.

A module imports the engine's public API (``bbom_env.engine``), the value types
(``bbom_env.engine.model``) and this module, nothing else of the engine (tests/test_layering.py
checks it). The names below are the seams docs/engine.md, "Writing a module", describes: the module
record and its registry, move blocks, frames and the interpreter loop, effect ops, modifier hooks and
cost transforms, payment, zones, the pack loader's typed readers. An engine change that keeps these
names and their meaning leaves every module working.
"""

from __future__ import annotations

from bbom_env.engine.cards.card_types import check_arrival, parse_magician
from bbom_env.engine.cards.checks import MAX_COST, check_fields, choice, int_in, labels, opt, req
from bbom_env.engine.cards.pack import (
    COMMON_FIELDS,
    Curse,
    GrimoirePage,
    Magician,
    Monster,
    Pack,
    PackIndex,
    PackSection,
)
from bbom_env.engine.cards.vocab import TARGETS, IntRange, PackError, normalize_effect, normalize_mod, show
from bbom_env.engine.core.config import GameConfig
from bbom_env.engine.core.moves import (
    PICK_ELEMENT,
    PICK_HAND,
    PICK_SUPPORT,
    BlockSpec,
    Move,
    block_start,
    decode,
    num_moves,
    support_arg,
)
from bbom_env.engine.core.resample import register_hidden, rewrite_log
from bbom_env.engine.core.resolver import done, frame, push
from bbom_env.engine.core.rules import (
    CostTransform,
    CurseRule,
    MenuAction,
    Module,
    Switch,
    register,
    registered,
    ruleset,
    unregister,
)
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import card_totals
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.typed import ModuleState
from bbom_env.engine.modifiers.hooks import (
    ability_lost,
    adjust_cost,
    banned_elements,
    hand_size,
    player_mods,
    rule_point,
    standing_surcharge,
    support_capacity,
    transform_cost,
)
from bbom_env.engine.payment.cost import Cost, as_cost
from bbom_env.engine.payment.frame import pay_frame
from bbom_env.engine.payment.seat import SeatView
from bbom_env.engine.play.decision import Decision
from bbom_env.engine.play.flow import enforce_limits, react
from bbom_env.engine.play.ops import OPS, auto_op, choice_op, lookup
from bbom_env.engine.play.zones import eliminate, madness_in_hand, return_madness, seq

__all__ = [
    "CostTransform",
    "BlockSpec",
    "COMMON_FIELDS",
    "Cost",
    "Curse",
    "CurseRule",
    "Decision",
    "GameConfig",
    "GameState",
    "GrimoirePage",
    "IntRange",
    "MADNESS",
    "MAX_COST",
    "Magician",
    "MenuAction",
    "Module",
    "ModuleState",
    "Monster",
    "Move",
    "OPS",
    "PICK_ELEMENT",
    "PICK_HAND",
    "PICK_SUPPORT",
    "Pack",
    "PackError",
    "PackIndex",
    "SeatView",
    "Switch",
    "PackSection",
    "TARGETS",
    "ability_lost",
    "adjust_cost",
    "as_cost",
    "auto_op",
    "banned_elements",
    "block_start",
    "card_totals",
    "check_arrival",
    "check_fields",
    "choice",
    "choice_op",
    "decode",
    "done",
    "eliminate",
    "enforce_limits",
    "frame",
    "hand_size",
    "int_in",
    "labels",
    "lookup",
    "madness_in_hand",
    "normalize_effect",
    "normalize_mod",
    "num_moves",
    "opt",
    "parse_magician",
    "pay_frame",
    "player_mods",
    "push",
    "react",
    "register",
    "register_hidden",
    "registered",
    "req",
    "return_madness",
    "rewrite_log",
    "rule_point",
    "ruleset",
    "seq",
    "show",
    "standing_surcharge",
    "support_arg",
    "support_capacity",
    "transform_cost",
    "unregister",
]
