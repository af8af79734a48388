"""The Dark Matter module's hidden parts for ``bbom_env.engine.resample`` (docs/search.md): the
Black Book's face-down pages. The open spread shows ``book[spread]``'s back and ``book[spread +
1]``'s front (section 4.8); the pages after it are face down: the Inside pages among them are drawn
from the pack's Inside pages not yet seen, the Back page (V-01: one random Back page) from the
pack's Back pages. The Dark Curse pile and the Dark Monster pages of the Grimoire are the engine's
Curse piles and Grimoire, drawn by the resampler itself; the module's setup entry that records the
Grimoire (``dark_grimoire``, ``grimoire.py``) is rewritten here to the sample's Grimoire."""

from __future__ import annotations

import random

from bbom_env.engine.ext import GameState, rewrite_log

from .content import BLACK_PAGE
from .grimoire import GRIMOIRE_EVENT
from .state import dm_state


def resample_black_book(state: GameState, seat: int, new: GameState, rng: random.Random) -> None:
    """Redraw ``new``'s face-down Black Book pages (``state`` is the real state; the book is
    public up to the open spread, so ``seat`` plays no part)."""
    grimoire = tuple(new.grimoire)  # drawn already (the engine's sampler runs first)
    rewrite_log(new, (GRIMOIRE_EVENT,), lambda e: e[:-1] + (grimoire,))
    st = dm_state(state)
    book = st.book
    first_hidden = st.spread + 2
    if first_hidden >= len(book):
        return
    pages = state.pack.sections[BLACK_PAGE.name]
    seen = set(book[:first_hidden])
    insides = sorted(pid for pid, pg in pages.items() if pg.kind == "inside" and pid not in seen)
    backs = sorted(pid for pid, pg in pages.items() if pg.kind == "back")
    hidden_insides = len(book) - 1 - first_hidden  # the last page is the Back page (V-01)
    drawn = rng.sample(insides, hidden_insides) + [backs[rng.randrange(len(backs))]]
    new_book = dm_state(new).book
    new_book[first_hidden:] = drawn
    pages_now = tuple(new_book)
    rewrite_log(new, ("black_book",), lambda e: e[:2] + (pages_now,))
