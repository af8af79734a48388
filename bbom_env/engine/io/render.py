"""Readable text rendering of a state (used by ``str(state)``, golden traces and the ansi render).

Reconstructed cards are marked ``*`` and partial ones (only partly the real card) ``~``
(design decision 4: nothing invented is presented as the real card)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import ELEMENT_NAMES, NUM_CODES, PHASE_NAMES, code_name
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.engine.play.decision import describe

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


def _slot_name(slot: SupportSlot) -> str:
    """A support slot's card, and the card crushed under it in brackets (V-21)."""
    name = code_name(slot.card)
    return name if slot.crushed == NO_CARD else f"{name}[{code_name(slot.crushed)}]"


def _counts(v: list[int]) -> str:
    parts = [f"{code_name(c)}x{v[c]}" for c in range(NUM_CODES) if v[c]]
    return " ".join(parts) or "-"


def render(state: GameState) -> str:
    mark = state.pack.marked_name
    lines = [
        f"turn {state.turn} round {state.round} marker {state.marker} phase "
        f"{PHASE_NAMES[state.phase]} active P{state.active}"
        + (f" | OVER: {state.outcome} ({state.reason})" if state.over else ""),
        f"madness pile {len(state.madness_pile)}  tokens {state.tokens}  supply "
        + " ".join(f"{ELEMENT_NAMES[e]}:{s[0]}/{s[1]}" for e, s in enumerate(state.supply)),
        "library tops: " + ", ".join(mark(pile[-1]) if pile else "-" for pile in state.library),
    ]
    if 0 < state.round:
        lines.append(f"monster: {mark(state.grimoire[state.round - 1])}")
    for slot, stack in enumerate(state.track):
        for curse in stack:
            flags = []
            if curse.neutralized_at >= 0:
                flags.append("neutralized")
            if any(curse.tokens):
                flags.append(f"tokens {list(curse.tokens)}")
            if curse.madness:
                flags.append(f"madness under {curse.madness}")
            lines.append(f"  slot {slot}: {mark(curse.curse)} {' '.join(flags)}".rstrip())
    for i, pl in enumerate(state.players):
        if pl.eliminated:
            lines.append(f"P{i} {mark(pl.magician)}: eliminated")
            continue
        spells = ", ".join(
            mark(s.spell) + ("(ex)" if s.exhausted else "") + ("(neu)" if s.neutralized else "")
            for s in pl.spells
        )
        lines.append(
            f"P{i} {mark(pl.magician)}: hand [{_counts(pl.hand)}] deck {len(pl.deck)} discard "
            f"[{_counts(pl.discard)}] support [{' '.join(_slot_name(s) for s in pl.support) or '-'}]"
        )
        lines.append(f"    spells: {spells}")
    for part in state.rules.render:  # the modules' render parts (rules.Module)
        lines += part(state)
    lines.append(f"decision: {describe(state)}")
    return "\n".join(lines)
