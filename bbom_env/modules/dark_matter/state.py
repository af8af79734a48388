"""The Dark Matter module's part of the game state (``state.ext["dark_matter"]``): cloned, pickled
and saved by its field types (docs/engine.md, "Writing a module")."""

from __future__ import annotations

from dataclasses import dataclass, field

from bbom_env.engine.ext import GameState
from bbom_env.engine.model.constants import CURRENCY
from bbom_env.engine.model.typed import ModuleState

NAME = "dark_matter"
# The Dark Matter card's code (section 1.2): the engine's currency code, which the payment counts
# (section 4.0: costs in Dark Matter cards, and Spontaneous Elements, section 4.9).
DARK_MATTER = CURRENCY
DARK_MATTER_CARDS = 28  # section 1.2: 28 Dark Matter cards, all of value 1
DARK_MATTER_TOKENS = 5  # section 1.2; V-05: a pool no rule uses, only cards that say so


@dataclass
class DarkMatterState(ModuleState):
    """The Dark Matter module's part of the state (``state.ext["dark_matter"]``).

    ``supply``: Dark Matter cards in the 9th supply pile (section 2.2 step 4); never an Element.
    ``tokens``: the 5 Dark Matter tokens (V-05: a pool no rule uses; no card of the pack uses it).
    ``book``: the Black Book's pages in reading order (V-01: Cover, Inside pages, Back page).
    ``spread``: the open spread: the left page is ``book[spread]``'s back, the right page
    ``book[spread + 1]``'s front (section 4.8). ``used_turn``: the turn the book was last used
    (used this turn iff it equals ``state.turn``: once per turn, A-60). ``closed``: the closing
    Black Spell was cast, or the last right page was (V-02)."""

    supply: int = DARK_MATTER_CARDS
    tokens: int = DARK_MATTER_TOKENS
    book: list[str] = field(default_factory=list)
    spread: int = 0
    used_turn: int = -1
    closed: bool = False
    # V-11 (the Dark Curse "discard 1 Element card of value 2 or 3 ..."): the value-1 cards owed,
    # (seat, Element, cards) in choice order, kept until every player has chosen and they are
    # dealt (dark_curses.py); empty otherwise.
    owed: list[tuple[int, int, int]] = field(default_factory=list)


def dm_state(state: GameState) -> DarkMatterState:
    # The module registers a DarkMatterState under NAME in every game with the module (its
    # ``new_state``; saves load it by its field types): no type check on this hot path (the menu
    # reads it on every query).
    return state.ext[NAME]  # type: ignore[return-value]
