"""The Black Book (docs/rules.md section 4.8; V-01 to V-04; A-59, A-60, A-79).

**Use the Black Book** is a module Action with two move blocks, ``BLACK_BOOK_LEFT`` (the left
page, the Bookmark) and ``BLACK_BOOK_RIGHT`` (the right page, the Arrow), one id each (one size for
2 to 5 players). Two argument-less blocks rather than one block with a 2-valued argument: the
engine's argument kinds (``move_args``) have no "page" kind, and two named ids read the same in
move names, logs and the action layout as the base game's two cure blocks do.

* Legal (section 4.8, A-60): only for the Active Player in their own Action phase (never through
  a granted Action, ``grants >= 0``), once per turn (``DarkMatterState.used_turn``), while the book
  is open, for a page whose Black Spell has an effect and whose printed cost (A-79: its "value")
  the player can pay in Dark Matter cards from hand and support pool (``dark_matter_cost``: Element
  cards never pay it, V-06), unless a "forbid" modifier forbids ``black_book``. Black Spells are
  not Spells: no exhaust, no X, no Spell modifiers (section 4.8 [VE]).
* Chosen: the payment frame (``pay_frame(..., "black_book", page id)``: the decision's source is
  the page), then ``dm_black_book``: the book is marked used this turn (only once paid: a
  cancelled payment leaves it unused, as any cancelled Action), the Black Spell's effect resolves
  (``pack.effect(page, "back_spell")`` for the left page, ``"front_spell"`` for the right), then
  ``dm_book_page`` turns the page after a right-page Spell. The book closes (V-02) when the cast
  face has ``closes`` (by default the Back page's front, cost 5) or when the last right page was
  cast.

Two effect ops say the two known Black Spell texts the base vocabulary cannot (V-03, V-04):
``gain_to_deck`` (an Element card of the player's choice from a supply pile of ``value``, shuffled
into the deck; piles that are empty are not offered; all empty: nothing, A-65) and
``gain_dark_matter`` (a Dark Matter card from the module's supply to the discard pile; empty
supply: nothing, A-65).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import (
    PICK_ELEMENT,
    TARGETS,
    BlockSpec,
    IntRange,
    MenuAction,
    Move,
    PackIndex,
    as_cost,
    auto_op,
    block_start,
    choice_op,
    done,
    frame,
    pay_frame,
    push,
    seq,
)
from bbom_env.engine.model.constants import NUM_ELEMENTS, element_code
from bbom_env.engine.model.frames import Frame, Seat, Stage, Text
from bbom_env.engine.model.move_args import NO_ARG

from .actions import dark_matter_cost
from .content import BLACK_PAGE, BlackPage, BlackSpell
from .state import DARK_MATTER, NAME, DarkMatterState, dm_state

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack, SeatView

BLACK_BOOK = "black_book"  # the Action's name: payment frames and "forbid" modifiers read it
LEFT, RIGHT = 0, 1  # the pages of the open spread (the frames' ``side``)
BLOCK_NAMES = ("BLACK_BOOK_LEFT", "BLACK_BOOK_RIGHT")  # indexed by side
SIDE_NAMES = ("left", "right")
# The left page is the back of book[spread], the right page the front of book[spread + 1]
# (DarkMatterState); content.black_page_effects indexes the faces' effects under these parts.
PARTS = ("back_spell", "front_spell")
STAT = "black_spells_cast"


def shown_spell(state: GameState, side: int) -> tuple[str, BlackSpell] | None:
    """(page id, Black Spell) of the open spread's ``side`` (LEFT or RIGHT); None when the book is
    closed or that page has no face there (section 4.8)."""
    st = dm_state(state)
    if st.closed:
        return None
    pid = st.book[st.spread + side]
    page: BlackPage = state.pack.sections[BLACK_PAGE.name][pid]
    face = page.back if side == LEFT else page.front
    return None if face is None else (pid, face)


def legal_black_book(state: GameState, view: SeatView) -> list[int]:
    """The ids of the pages the decider may cast now (section 4.8, A-60; see the module doc): a
    list, not a generator (the menu asks on every query)."""
    p = view.p
    # the Active Player's own Action phase only; a granted Action menu has grants >= 0.
    if view.frame["grants"] >= 0 or p != state.active:
        return []
    # A Black Spell costs Dark Matter only (section 4.8, ``dark_matter_cost``): the menu's count of
    # the Dark Matter cards the player may pay with decides (no Element ban reaches them). Every
    # printed cost is at least 1 (``content``'s pack check): without one, no page is castable.
    have = view.currency
    if not have:
        return []
    st: DarkMatterState = state.ext[NAME]  # type: ignore[assignment]  # dm_state, inline (every menu)
    if st.closed or st.used_turn == state.turn or view.forbidden(BLACK_BOOK, None):
        return []
    costs = _CASTABLE(state.pack)
    left = costs[LEFT].get(st.book[st.spread])
    right = costs[RIGHT].get(st.book[st.spread + 1])
    out = []
    if left is not None and left <= have:
        out.append(block_start(BLOCK_NAMES[LEFT], state.config.modules))
    if right is not None and right <= have:
        out.append(block_start(BLOCK_NAMES[RIGHT], state.config.modules))
    return out


def _castable(pack: Pack) -> tuple[dict[str, int], dict[str, int]]:
    """For each side (LEFT, RIGHT): page id -> the printed cost of its Black Spell on that side,
    for the faces that can be cast (the face exists and its text has an effect, not a ``needs``:
    ``shown_spell`` and ``pack.effects``); built once per pack (``_CASTABLE``: the menu asks on
    every query)."""
    sides: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for pid, page in pack.sections[BLACK_PAGE.name].items():
        for side, face in ((LEFT, page.back), (RIGHT, page.front)):
            if face is not None and (pid, PARTS[side]) in pack.effects:
                sides[side][pid] = face.cost
    return sides


_CASTABLE: PackIndex[tuple[dict[str, int], dict[str, int]]] = PackIndex(_castable)


class BlackBookFrame(Frame):
    """``player`` has paid for the Black Spell of ``page`` on ``side`` (0 left, 1 right): cast it."""

    player: Seat
    page: Text
    side: Stage


class BookPageFrame(Frame):
    """After the Black Spell of ``page`` on ``side`` resolved: turn the page or close the book."""

    player: Seat
    page: Text
    side: Stage


def choose_black_book(state: GameState, f: dict, mv: Move) -> None:
    p = f["player"]
    side = BLOCK_NAMES.index(mv.block)
    shown = shown_spell(state, side)
    assert shown is not None  # offered only for a shown face (legal_black_book)
    pid, face = shown
    target: BlackBookFrame = {"kind": "dm_black_book", "player": p, "page": pid, "side": side}
    push(state, pay_frame(p, dark_matter_cost(face.cost), BLACK_BOOK, pid), target)


def run_black_book(state: GameState, f: BlackBookFrame) -> None:
    done(state, f)
    p, pid, side = f["player"], f["page"], f["side"]
    # Marked now, once paid: a payment cancelled (PAY_CANCEL) is no use of the book.
    dm_state(state).used_turn = state.turn
    state.stat(STAT)
    state.event("black_book_cast", p, pid, SIDE_NAMES[side])
    after: BookPageFrame = {"kind": "dm_book_page", "player": p, "page": pid, "side": side}
    # Section 4.8: apply the effect (never multiplied: X = 1), then turn the page.
    push(state, seq(pid, PARTS[side], p), after)


def run_book_page(state: GameState, f: BookPageFrame) -> None:
    done(state, f)
    st = dm_state(state)
    page: BlackPage = state.pack.sections[BLACK_PAGE.name][f["page"]]
    face = page.back if f["side"] == LEFT else page.front
    assert face is not None
    if face.closes:  # V-02: the closing Black Spell (by default the Back page's front, cost 5)
        st.closed = True
    elif f["side"] == RIGHT:
        if st.spread + 2 < len(st.book):
            st.spread += 1  # section 4.8: the right page's Spell is cast once, then the page turns
        else:
            st.closed = True  # V-02: the last right page was cast
    if st.closed:
        state.event("black_book_closed", f["player"], f["page"])


frame("dm_black_book", run_black_book, typed=BlackBookFrame)
frame("dm_book_page", run_book_page, typed=BookPageFrame)


def check_black_book(state: GameState) -> None:
    """The book was not used in a later turn than now, and every pending Black Book frame (its
    payment included) names a page of the book with a Black Spell on its side (a save that says
    otherwise is refused, naming the frame)."""
    st = dm_state(state)
    if st.used_turn > state.turn:
        raise AssertionError(
            f"dark_matter: ext.dark_matter.used_turn: {st.used_turn} is after turn {state.turn}"
        )
    pages = state.pack.sections.get(BLACK_PAGE.name, {})
    for i, f in enumerate(state.stack):
        kind = f["kind"]
        if kind in FRAMES:
            key, side = "page", f["side"]
        elif kind == "pay" and f["action"] == BLACK_BOOK:
            key, side = "target", -1
        else:
            continue
        pid = f[key]
        page = pages.get(pid) if pid in st.book else None
        faces = (page.back, page.front) if page is not None else (None, None)
        if page is None or (side >= 0 and faces[side] is None):
            raise AssertionError(f"dark_matter: stack[{i}].{key}: {pid!r} is no Black Spell page of the book")


def render_payment(state: GameState) -> list[str]:
    """While a Black Book payment waits: which page's Black Spell it pays for and its Dark Matter
    cost (the engine's payment line counts Element parts only)."""
    if len(state.stack) < 2 or state.stack[-1]["kind"] != "pay" or state.stack[-1]["action"] != BLACK_BOOK:
        return []
    pay, cast = state.stack[-1], state.stack[-2]
    shown = shown_spell(state, cast["side"]) if cast["kind"] == "dm_black_book" else None
    if shown is None:
        return []
    picked = len(pay["picks"])
    name = state.pack.marked_name(shown[0])
    return [
        f"paying for the Black Book's {SIDE_NAMES[cast['side']]} page, {name}: {shown[1].text!r} "
        f"({as_cost(pay['cost']).currency} Dark Matter, {picked} picked)"
    ]


# -- the ops of the two known Black Spell texts (V-03, V-04) ------------------------------------

GAIN_TO_DECK = "gain_to_deck"
GAIN_DARK_MATTER = "gain_dark_matter"
GAIN_TO_DECK_SCHEMA = {"target": (TARGETS, "you"), "count": ("count", 1), "value": (IntRange(2, 3), 3)}
GAIN_DARK_MATTER_SCHEMA = {"target": (TARGETS, "you"), "count": ("count", 1)}


def _deck_gain_options(state: GameState, f: dict, op: dict) -> list[int]:
    """V-03: an Element of the player's choice among the non-empty piles of that value (A-65)."""
    v = op["value"]
    return [PICK_ELEMENT + e for e in range(NUM_ELEMENTS) if state.supply[e][v - 2] > 0]


def _gain_to_deck(state: GameState, f: dict, op: dict, move: int) -> None:
    """V-03: "add to your draw pile" = shuffle the card into the deck."""
    e, v = move - PICK_ELEMENT, op["value"]
    state.supply[e][v - 2] -= 1
    code = element_code(e, v)
    deck = state.players[f["player"]].deck
    deck.append(code)
    state.rng.shuffle(deck)
    state.event("gain", f["player"], code)


choice_op(GAIN_TO_DECK, _deck_gain_options, _gain_to_deck)


def _gain_dark_matter(state: GameState, f: dict, op: dict) -> None:
    """V-04: Dark Matter cards from the module's supply to the discard pile; what the supply
    lacks is not gained (A-65)."""
    st = dm_state(state)
    n = min(f["count"], st.supply)
    if n > 0:
        st.supply -= n
        state.players[f["player"]].discard[DARK_MATTER] += n
        state.event("gain_dark_matter", f["player"], n)


auto_op(GAIN_DARK_MATTER, _gain_dark_matter)

BLOCKS: tuple[BlockSpec, ...] = (
    BlockSpec(BLOCK_NAMES[LEFT], NO_ARG, "cast the Black Book's left page (Bookmark, 4.8)"),
    BlockSpec(BLOCK_NAMES[RIGHT], NO_ARG, "cast the Black Book's right page (Arrow, then it turns, 4.8)"),
)
ACTIONS: tuple[MenuAction, ...] = (MenuAction(BLACK_BOOK, BLOCK_NAMES, legal_black_book, choose_black_book),)
FRAMES: tuple[str, ...] = ("dm_black_book", "dm_book_page")
PAY_ACTIONS: tuple[str, ...] = (BLACK_BOOK,)
OPS: tuple[str, ...] = (GAIN_TO_DECK, GAIN_DARK_MATTER)
OP_SCHEMAS = ((GAIN_TO_DECK, GAIN_TO_DECK_SCHEMA), (GAIN_DARK_MATTER, GAIN_DARK_MATTER_SCHEMA))
# A choice op's pending decision is named after the op (decision.pending): the observation's
# decision-kind one-hot must know it.
DECISION_KINDS: tuple[str, ...] = (GAIN_TO_DECK,)
