"""Enums and limits of The Big Book of Madness (docs/rules.md sections 1.3, 1.4 and 1.6).

Cards in zones are small integers ("card codes") so that zones are cheap to copy and count:

* Element card of Element ``e`` and value ``v``: ``e * 3 + (v - 1)`` -> 0..11
* Madness: 12;
* the codes a rules module may add (``rules.Module.card_codes``, named by the module's
  ``card_names``): 13, the currency (a non-Element card some costs count in cards, section 4.0),
  and 14 + k, a Madness card that keeps its identity (section 9.2).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Element(IntEnum):
    """The four Elements, in the order used by every array in the engine."""

    FIRE = 0
    WATER = 1
    EARTH = 2
    AIR = 3


ELEMENTS: tuple[Element, ...] = tuple(Element)
ELEMENT_NAMES: tuple[str, ...] = ("fire", "water", "earth", "air")
ELEMENT_BY_NAME: dict[str, Element] = {n: Element(i) for i, n in enumerate(ELEMENT_NAMES)}
NUM_ELEMENTS: Final = 4
NUM_VALUES: Final = 3  # an Element card's value is 1, 2 or 3 (section 1.1)
MAX_VALUE: Final = NUM_VALUES

MADNESS = 12
# The codes kept for modules: the currency, which ``payment.Cost.currency`` and ``wildcards`` count,
# and from IDENTITY_MADNESS_BASE on Madness cards that keep their identity (section 9.2: never
# discarded to make room, the only cards that crush the support card they are placed on).
CURRENCY = 13
IDENTITY_MADNESS_BASE = 14
NUM_IDENTITY_MADNESS = 16
NUM_CODES = IDENTITY_MADNESS_BASE + NUM_IDENTITY_MADNESS  # 30
NUM_ELEMENT_CODES = NUM_ELEMENTS * NUM_VALUES  # 12

# A cost's base parts (section 4.0): one per Element (by Element index), then "any" (an amount of
# Elements of any kind); ``payment.Cost``'s first fields, the five numbers a base-game save writes.
COST_ANY: Final = 4
COST_PARTS: Final = 5
# ``payment.Cost``'s other parts (``one_of`` with its Elements, ``one_of_set``): ways to pay only a
# module's costs use, each declared by those modules (``rules.Module.cost_parts``).
MODULE_COST_PARTS: tuple[str, ...] = ("one_of", "distinct", "currency", "wildcards", "convert", "cards")


def element_code(element: int, value: int) -> int:
    """Card code of an Element card (section 1.4)."""
    return element * NUM_VALUES + value - 1


def code_element(code: int) -> int:
    """The Element of an Element card code (section 1.4)."""
    return code // NUM_VALUES


def code_value(code: int) -> int:
    """Elements produced by a card when paid: 0 for anything that is not an Element card."""
    return code % NUM_VALUES + 1 if code < NUM_ELEMENT_CODES else 0


# The same as tables, for hot loops (a function call there costs), indexed by card code: the Element
# of a card (NO_ELEMENT for a card that is not an Element card: never equal to an Element index),
# its value (``code_value``: 0 for a card that is not an Element card), and for an Element card
# where a counts[element][value - 1] table keeps it; then the codes of each Element by value 1, 2, 3.
NO_ELEMENT = -1
CODE_ELEMENT: tuple[int, ...] = tuple(
    code_element(c) if c < NUM_ELEMENT_CODES else NO_ELEMENT for c in range(NUM_CODES)
)
CODE_VALUE: tuple[int, ...] = tuple(code_value(c) for c in range(NUM_CODES))
CODE_COUNT_INDEX: tuple[tuple[int, int], ...] = tuple(
    (code_element(c), code_value(c) - 1) for c in range(NUM_ELEMENT_CODES)
)
ELEMENT_CODES: tuple[tuple[int, ...], ...] = tuple(
    tuple(element_code(e, v) for v in range(1, NUM_VALUES + 1)) for e in range(NUM_ELEMENTS)
)


def is_madness(code: int) -> bool:
    """Madness, and the Madness cards that keep their identity, are Madness cards (section 9.2)."""
    return code == MADNESS or code >= IDENTITY_MADNESS_BASE


# The module codes' names (``rules.register`` writes them from ``Module.card_names``).
MODULE_CARD_NAMES: dict[int, str] = {}


def code_name(code: int) -> str:
    if code < NUM_ELEMENT_CODES:
        return f"{ELEMENT_NAMES[code_element(code)]}-{code_value(code)}"
    if code == MADNESS:
        return "madness"
    return MODULE_CARD_NAMES.get(code) or f"card-{code}"


# Section 1.1 / 1.3 / 1.6 constants.
ROUNDS = 6
LIBRARY_LEVELS = 3  # Library Spell levels per Element (section 1.1: 4 Elements x 3 levels x 3 cards)
LAST_SPACE = 5  # the Invocation marker's last space on the Round track (section 3.3.2)
# Track slots in placement order S2, S3L, S3R, S4, S5 (section 3.3.1, A-01, A-02).
NUM_TRACK_SLOTS = 5
SLOTS_OF_SPACE: dict[int, tuple[int, ...]] = {2: (0,), 3: (1, 2), 4: (3,), 5: (4,)}
SPACE_OF_SLOT: tuple[int, ...] = (2, 3, 3, 4, 5)
HAND_SIZE = 6
SUPPORT_SLOTS = 3
SPELL_LIMIT = 5
MAX_POWER = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 5
ELEMENT_CARDS_PER_VALUE = {1: 18, 2: 10, 3: 6}  # per Element (section 1.1)
ELEMENT_TOKENS_PER_ELEMENT = 4
DESTROY_ELEMENT_CURSE_COST = 4
CURE_COST = 2
MADNESS_IN_BOX = 35


def madness_pile_size(players: int) -> int:
    """20 / 25 / 30 / 35 for 2..5 players (section 1.3)."""
    return 5 * players + 10


# Maxima that fix the action layout for every player count (design decision 5).
MAX_SPELLS = 6  # spell limit 5, plus one for a Magician whose ability raises it
MAX_SUPPORT_SLOTS = 8  # 3 + 2 for a Magician with extra slots + Madness beyond capacity
MAX_STACK = 3  # Curses stacked on one slot (a module's Curse type that stacks, V-09); base game: 1


class Phase(IntEnum):
    SETUP = 0
    CONCENTRATION = 1
    MONSTER = 2
    ACTION = 3
    RECUPERATION = 4
    OVER = 5


PHASE_NAMES = ("setup", "concentration", "monster", "action", "recuperation", "over")
