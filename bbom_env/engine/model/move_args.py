"""Typed arguments of move ids (docs/rules.md section 10; design decision 5).

Every move block has one argument kind: a NamedTuple type, the number of ids it spans, and the
two maps between the flat index inside the block and the typed value. Players are seat offsets
from the decider, hand and discard cards are card codes, support cards (seat offset, slot), Curses
(track slot, stack position from the top), so an id means the same thing from every seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from bbom_env.engine.model.constants import (
    ELEMENT_NAMES,
    MAX_PLAYERS,
    MAX_POWER,
    MAX_SPELLS,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENTS,
    NUM_TRACK_SLOTS,
    code_name,
)

ACQUIRABLE_VALUES = (2, 3)  # value-1 cards are never acquired (section 4.3)


class NoArg(NamedTuple):
    def __str__(self) -> str:
        return ""


class SpellPower(NamedTuple):
    """A Spell of the decider's row and the power X it is activated with (section 4.1)."""

    spell: int
    x: int

    def __str__(self) -> str:
        return f"spell#{self.spell} X={self.x}"


class SpellIndex(NamedTuple):
    spell: int

    def __str__(self) -> str:
        return f"spell#{self.spell}"


class ElementArg(NamedTuple):
    element: int

    def __str__(self) -> str:
        return ELEMENT_NAMES[self.element]


class ElementValue(NamedTuple):
    """An Element card of the supply: Element and value 2 or 3."""

    element: int
    value: int

    def __str__(self) -> str:
        return f"{ELEMENT_NAMES[self.element]}-{self.value}"


class CurseRef(NamedTuple):
    """A Curse on the Invocation track: track slot and stack position from the top."""

    slot: int
    pos: int

    def __str__(self) -> str:
        return f"slot{self.slot} pos{self.pos}"


class CardCode(NamedTuple):
    code: int

    def __str__(self) -> str:
        return code_name(self.code)


class SupportRef(NamedTuple):
    """A card in a support: the owner's seat offset from the decider and the slot."""

    offset: int
    slot: int

    def __str__(self) -> str:
        return f"seat+{self.offset} slot{self.slot}"


class SeatOffset(NamedTuple):
    offset: int

    def __str__(self) -> str:
        return f"seat+{self.offset}"


@dataclass(frozen=True)
class ArgKind:
    """How a block's flat index maps to its typed argument and back."""

    type: type
    size: int
    from_index: Callable[[int], Any]
    to_index: Callable[[Any], int]


def _pair(cls: type, outer: int, inner: int, inner_base: int = 0) -> ArgKind:
    return ArgKind(
        cls,
        outer * inner,
        lambda i: cls(i // inner, i % inner + inner_base),
        lambda a: a[0] * inner + a[1] - inner_base,
    )


def _single(cls: type, size: int) -> ArgKind:
    return ArgKind(cls, size, lambda i: cls(i), lambda a: a[0])


NO_ARG = ArgKind(NoArg, 1, lambda i: NoArg(), lambda a: 0)
SPELL_POWER = _pair(SpellPower, MAX_SPELLS, MAX_POWER, 1)
SPELL_INDEX = _single(SpellIndex, MAX_SPELLS)
ELEMENT = _single(ElementArg, NUM_ELEMENTS)
ELEMENT_VALUE = _pair(ElementValue, NUM_ELEMENTS, len(ACQUIRABLE_VALUES), ACQUIRABLE_VALUES[0])
CURSE = _pair(CurseRef, NUM_TRACK_SLOTS, MAX_STACK)
CARD = _single(CardCode, NUM_CODES)
SUPPORT = _pair(SupportRef, MAX_PLAYERS, MAX_SUPPORT_SLOTS)
SEAT = _single(SeatOffset, MAX_PLAYERS)
