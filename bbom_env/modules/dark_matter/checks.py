"""The Dark Matter module's state checked field by field (``rules.Module.save_checks``): what a
loaded save must hold before any rule reads it (the Black Book's spread indexes the book), and
what every decision keeps (the module lists the check among its invariants too). Each failure is
an AssertionError whose message starts with the field path (``ext.dark_matter.spread: ...``);
``from_json`` raises it as a ``SaveError``. Conservation (28 Dark Matter cards over every zone) is
``module.check_dark_matter``'s, which runs after."""

from __future__ import annotations

from bbom_env.engine.ext import GameState
from bbom_env.engine.model.constants import NUM_ELEMENTS

from .content import BLACK_PAGE
from .state import DARK_MATTER_CARDS, DARK_MATTER_TOKENS, NAME, dm_state

WHERE = f"ext.{NAME}"


def check_fields(state: GameState) -> None:
    """The supply and the token pool within their sizes (section 1.2, V-05); the Black Book as V-01
    builds it for ``config.black_book_inside_pages``, its spread on it, its last use not after this
    turn (A-60); the V-11 debts each a (seat, Element, value 2 or 3)."""
    st = dm_state(state)
    if not 0 <= st.supply <= DARK_MATTER_CARDS:
        raise AssertionError(
            f"{WHERE}.supply: {st.supply} is not 0..{DARK_MATTER_CARDS} (the Dark Matter supply pile)"
        )
    if not 0 <= st.tokens <= DARK_MATTER_TOKENS:
        raise AssertionError(f"{WHERE}.tokens: {st.tokens} is not 0..{DARK_MATTER_TOKENS} (V-05)")
    _check_book(state)
    if not -1 <= st.used_turn <= state.turn:
        raise AssertionError(f"{WHERE}.used_turn: {st.used_turn} is not -1..{state.turn} (the turn now)")
    n = len(state.players)
    for i, entry in enumerate(st.owed):
        p, e, v = entry
        if not (0 <= p < n and 0 <= e < NUM_ELEMENTS and v in (2, 3)):
            raise AssertionError(f"{WHERE}.owed[{i}]: {entry} is no (seat, Element, 2 or 3)")


def _check_book(state: GameState) -> None:
    """V-01: a Cover, ``config.black_book_inside_pages`` Inside pages and a Back page, each a page
    of the pack's ``[[black_page]]`` section of its kind, none twice; the open spread on the book."""
    st = dm_state(state)
    inside = state.config.switch("black_book_inside_pages")
    if len(st.book) != inside + 2:
        raise AssertionError(
            f"{WHERE}.book: {len(st.book)} pages, but config.black_book_inside_pages={inside} makes a book "
            f"of {inside + 2} (a Cover, {inside} Inside pages, a Back page: V-01)"
        )
    pages = state.pack.sections.get(BLACK_PAGE.name, {})
    kinds = ["cover"] + ["inside"] * inside + ["back"]
    for i, pid in enumerate(st.book):
        if pid not in pages or pages[pid].kind != kinds[i]:
            raise AssertionError(f"{WHERE}.book[{i}]: {pid!r} is not a {kinds[i]} page")
        if pid in st.book[:i]:
            raise AssertionError(f"{WHERE}.book[{i}]: {pid!r} is in the book twice")
    if not 0 <= st.spread <= len(st.book) - 2:
        raise AssertionError(f"{WHERE}.spread: {st.spread} is not 0..{len(st.book) - 2}")
