"""What the pending decision is, in words and as data (docs/rules.md section 10).

``pending(state)`` gives a ``Decision``: the kind (a stable name used by the observation encoder),
the decider, the source card, the remaining cost and the picks so far for payments, and how many
picks the effect still asks for. A module's waiting frame kind is described by the function the
module registers for it (``rules.Module.decisions``); its kind must be one of the ruleset's
``decision_kinds`` (the base game's, then the modules'), which the observation one-hot reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import COST_PARTS, code_name
from bbom_env.engine.modifiers.hooks import spell_limit
from bbom_env.engine.payment.cost import left_text, left_to_pay, source_code
from bbom_env.engine.play.ops import lookup

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

# Stable decision kinds (the observation encodes their index).
DECISION_KINDS: tuple[str, ...] = (
    "none",
    "action",
    "granted_action",
    "payment",
    "recuperation_discard",
    "spell_to_box",
    "destroy_reward",
    "choose_player",
    "discard",
    "destroy",
    "place_in_support",
    "put_on_top",
    "upgrade",
    "neutralize_spell",
    "exhaust_spell",
    "refresh_spell",
    "lose_spell",
    "neutralize_curse",
    "destroy_curse",
    "add_tokens",
    "remove_tokens",
    "receive_madness",
    "gain",
    "exchange",
    "may",
)


_NOTHING_OWED = (0,) * COST_PARTS  # cost_left of every decision that is not a payment


@dataclass(frozen=True)
class Decision:
    kind: str
    player: int
    source: str  # card id ("" when none)
    remaining: int  # picks the effect still asks for (1 for single choices)
    cost_left: tuple[int, ...] = _NOTHING_OWED  # payment: Elements left per (fire, water, earth, air, any)
    picks: tuple[int, ...] = ()  # payment: card codes picked so far


# Frame kinds whose decision is one pick of the kind named here (a target's source card, if any).
_ONE_PICK = {"recup": "recuperation_discard", "reward": "destroy_reward", "tgt": "choose_player"}


def pending(state: GameState) -> Decision:
    if state.over or not state.stack or state.stack[-1].get("decider") is None:
        return Decision("none", -1, "", 0)
    f = state.stack[-1]
    k = f["kind"]
    w = f["decider"]
    if k == "menu":
        return Decision("action" if f["grants"] < 0 else "granted_action", w, "", max(f["grants"], 1))
    if k == "pay":
        codes = tuple(source_code(state, s) for s in f["picks"])
        # The payment solver's answer: zero exactly when the picks cover the cost (never by
        # splitting a card between an Element part and "any", [PROPOSED] 4.0).
        left = left_to_pay(codes, f["cost"])
        return Decision("payment", w, f["target"], 1, tuple(left[:COST_PARTS]), codes)
    if k in _ONE_PICK:
        return Decision(_ONE_PICK[k], w, f.get("source", ""), 1)
    if k == "learn":
        return Decision("spell_to_box", w, state.library[f["element"]][-1], 1)
    if k == "limits":  # a limit shrank (flow.py): put a Spell in the box or discard support
        spells = len(state.players[f["player"]].spells) > spell_limit(state, f["player"])
        return Decision("lose_spell" if spells else "discard", w, "", 1)
    if k == "refresh_choice":  # a rule point lowered the Concentration refresh
        return Decision("refresh_spell", w, "", f["left"])
    if k == "op":
        op = lookup(state, f)["op"]
        return Decision(op, w, f["source"], max(f["count"], 1))
    return _module_decision(state, f)


def _module_decision(state: GameState, f: dict) -> Decision:
    """The decision of a module's waiting frame, as its module describes it (``Module.decisions``)."""

    rules = state.rules
    describe = rules.decisions.get(f["kind"])
    if describe is None:
        raise ValueError(
            f"frame kind {f['kind']!r} waits for a decision, but no module of this game "
            f"{rules.modules} describes it (rules.Module.decisions)"
        )
    d = describe(state, f)
    if not isinstance(d, Decision) or d.kind not in rules.decision_kinds:
        kind = d.kind if isinstance(d, Decision) else type(d).__name__
        raise ValueError(
            f"frame kind {f['kind']!r}: its describe function gave decision kind {kind!r}, not one of "
            f"the ruleset's decision_kinds (add it to the module's decision_kinds)"
        )
    return d


def describe(state: GameState) -> str:
    d = pending(state)
    if d.kind == "none":
        return "none (game over)" if state.over else "none"
    text = f"{d.kind} by player {d.player}"
    if d.source:
        text += f" (source: {state.pack.marked_name(d.source)} [{d.source}])"
    if d.kind == "payment":
        left = left_text(d.picks, state.stack[-1]["cost"])  # every part, a module's too (Dark Matter)
        text += f", left to pay: {left}; picked: {[code_name(c) for c in d.picks]}"
    elif d.remaining > 1:
        text += f", {d.remaining} picks left"
    return text
