"""The Dark Matter module's observation sections (docs/rules.md sections 1.2, 4.6-4.8,
9.1; V-01, V-02, V-05, V-09), registered after the base game's in a layout whose
module set holds ``"dark_matter"``.

What the base sections already show with the module on (they read ``rules.ruleset(modules)``):
Dark Matter in every zone (card code 13 is one of the ruleset's card codes, so ``own.hand``,
``own.deck``, ``seatK.discard``, ``seatK.hand`` with ``observe_other_hands``, ``seatK.support`` and
``decision.picks`` count it), the Dark Curse pile's size (``curse_piles.sizes``: "dark_matter" is
a Curse type), the Dark Curse on top of a track slot (``track``: Dark Curses are Curses of the pack),
the Dark Matter symbol of a Monster (``grimoire.*_symbols``), lost abilities (``seatK.status``: the
engine's ``hooks.ability_lost``, which reads the module's "lose_ability" modifiers, V-10).

What this module adds (``dark_matter.*``): the supply; the Curses below the top of each track slot
(V-09: stacks up to ``MAX_STACK`` deep) and every track position's Dark Matter destroy cost
(section 4.7); the Black Book (section 4.8): closed, used this turn, the spread, both visible
Black Spells (identity, cost, whether it closes the book, V-02); what a Dark Matter payment still
owes. Not shown: the 5 Dark Matter tokens (V-05: no card uses them) and everything hidden (the Black
Book's pages after the open spread, the Dark Curse pile's order: A-66).

The module itself (``bbom_env.modules``) sits below the views and never imports them, so its
sections live here and ``observation_sections.py`` registers them.
"""

from __future__ import annotations

import numpy as np

from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MAX_STACK, NUM_ELEMENTS, NUM_TRACK_SLOTS
from bbom_env.engine.payment.cost import left_to_pay
from bbom_env.engine.play.decision import Decision, pending
from bbom_env.modules.dark_matter.black_book import BLACK_BOOK
from bbom_env.modules.dark_matter.content import BLACK_PAGE, DARK_CURSE
from bbom_env.modules.dark_matter.state import DARK_MATTER_CARDS, NAME, DarkMatterState

from .obs_board import Track
from .obs_core import ObsContext, ObsModule, ObsSection, Part

__all__ = ["DARK_MATTER_SECTIONS", "DarkMatterSections"]

COST_SCALE = 1 / 8  # Dark Matter costs (4 for a Dark Curse, 1-5 for Black Spells by default)


class DarkMatterSections(ObsSection):
    """Every ``dark_matter.*`` section (one object: they share the module state)."""

    group = NAME

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        sections = ctx.pack.sections
        if DARK_CURSE.name not in sections or BLACK_PAGE.name not in sections:
            raise ValueError(
                f"observation sections of module {NAME!r}: the pack has no {DARK_CURSE.name!r} or "
                f"{BLACK_PAGE.name!r} section (was it loaded with the module?)"
            )
        self.track = Track(ctx)  # the base Curse record, for the Curses below the top
        self.curse_cost = {cid: c.cost for cid, c in sections[DARK_CURSE.name].items()}
        pages = sections[BLACK_PAGE.name]
        # Left page = a page's back (Covers, Inside pages), right page = a page's front (Inside and
        # Back pages), section 4.8; one-hots over the pack's sorted ids of the pages with that face.
        self.left_index = {pid: i for i, pid in enumerate(sorted(p for p in pages if pages[p].back))}
        self.right_index = {pid: i for i, pid in enumerate(sorted(p for p in pages if pages[p].front))}
        # Spreads: book[spread] | book[spread + 1]; at most (Inside pages of the pack) + 1 (V-01).
        self.spreads = 1 + sum(1 for p in pages.values() if p.kind == "inside")
        # What each page shows on each side, built once (encode looks one up per side): (one-hot
        # offset, cost, closes the book) of its Black Spell, None for a side without one.
        self.faces: tuple[dict[str, tuple[int, int, bool] | None], ...] = tuple(
            {
                pid: None if (face := getattr(page, side)) is None else (index[pid], face.cost, face.closes)
                for pid, page in pages.items()
            }
            for side, index in (("back", self.left_index), ("front", self.right_index))
        )
        below = MAX_STACK - 1
        self.below_stride = below * self.track.record
        self.parts = [
            Part(
                "dark_matter.supply",
                1,
                f"Dark Matter cards in the supply / {DARK_MATTER_CARDS} (section 1.2)",
                1 / DARK_MATTER_CARDS,
            ),
            Part(
                "dark_matter.track_below",
                NUM_TRACK_SLOTS * self.below_stride,
                f"{NUM_TRACK_SLOTS} slots (S2, S3L, S3R, S4, S5) x the {below} stack positions below the top "
                f"(V-09: stacks up to {MAX_STACK} deep; the top is in `track`) x {self.track.rec_meaning}",
                self.track.rec_scale * (NUM_TRACK_SLOTS * below),
            ),
            Part(
                "dark_matter.track_cost",
                NUM_TRACK_SLOTS * MAX_STACK,
                f"{NUM_TRACK_SLOTS} slots x {MAX_STACK} stack positions (top first): Dark Matter cards that "
                "destroy the Curse there (a Dark Curse's cost, section 4.7) / 8; 0 for other Curses",
                COST_SCALE,
            ),
            Part(
                "dark_matter.book",
                3,
                "Black Book (section 4.8): closed (V-02), used this turn (A-60), the right page is the last "
                "(casting it closes the book, V-02)",
            ),
            Part(
                "dark_matter.book_spread",
                self.spreads,
                "open spread one-hot (0: the Cover's back and Inside page 1's front, ...; the pages after it "
                "stay face down, A-66); all 0 when closed",
            ),
            Part(
                "dark_matter.book_left",
                len(self.left_index) + 2,
                f"left page's Black Spell (a page's back): page one-hot ({len(self.left_index)}, sorted "
                "ids of the pages with a back), cost in Dark Matter / 8, closes the book (V-02); all 0 "
                "when closed",
                (1.0,) * len(self.left_index) + (COST_SCALE, 1.0),
            ),
            Part(
                "dark_matter.book_right",
                len(self.right_index) + 2,
                f"right page's Black Spell (a page's front): page one-hot ({len(self.right_index)}, "
                "sorted ids of the pages with a front), cost in Dark Matter / 8, closes the book (V-02); "
                "all 0 when closed",
                (1.0,) * len(self.right_index) + (COST_SCALE, 1.0),
            ),
            Part(
                "dark_matter.payment",
                4,
                "payment: Dark Matter cards left to pay / 8, different Elements left to pay (Acquire Dark "
                "Matter, V-17) / 4, pays for the Black Book's left page, right page",
                (COST_SCALE, 1 / NUM_ELEMENTS, 1.0, 1.0),
            ),
        ]

    def bind(self, start: int) -> None:
        super().bind(start)
        self.o_book, self.o_spread = self.at["dark_matter.book"], self.at["dark_matter.book_spread"]
        # Per side of the spread: (offset of its part, pages one-hotted there, faces, 0 left / 1 right).
        self.sides = tuple(
            (self.at[part], len(index), faces, side)
            for side, (part, index, faces) in enumerate(
                (
                    ("dark_matter.book_left", self.left_index, self.faces[0]),
                    ("dark_matter.book_right", self.right_index, self.faces[1]),
                )
            )
        )

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        st = state.ext[NAME]
        assert isinstance(st, DarkMatterState)
        idx.append(self.start)
        val.append(st.supply)
        self._track(state, on, idx, val)
        self._book(state, st, on, idx, val)
        # A payment waits only with a "pay" frame on top (decision.pending: the one slow call).
        if state.stack and state.stack[-1]["kind"] == "pay":
            self._payment(state, st, pending(state), on, idx, val)

    def _payment(
        self,
        state: GameState,
        st: DarkMatterState,
        d: Decision,
        on: list[int],
        idx: list[int],
        val: list[float],
    ) -> None:
        if d.kind == "payment":
            f = state.stack[-1]
            left = left_to_pay(d.picks, f["cost"])
            o = self.at["dark_matter.payment"]
            idx += (o, o + 1)
            val += (left.currency, left.distinct)
            if f["action"] == BLACK_BOOK and not st.closed:
                # The payment's source is the page (black_book.choose_black_book): left or right.
                for side in (0, 1):
                    if st.book[st.spread + side] == f["target"]:
                        on.append(o + 2 + side)

    def _track(self, state: GameState, on: list[int], idx: list[int], val: list[float]) -> None:
        track, cost = self.track, self.curse_cost
        below = self.at["dark_matter.track_below"]
        o_cost = self.at["dark_matter.track_cost"]
        rec = track.record
        for s, stack in enumerate(state.track):
            if not stack:
                continue
            if len(stack) == 1:  # most slots: no Curse below the top (V-09), only its cost
                n = cost.get(stack[0].curse, 0)
                if n:
                    idx.append(o_cost + s * MAX_STACK)
                    val.append(n)
                continue
            # Top first (the track section's order, V-09: triggered top first).
            for pos, curse in enumerate(reversed(stack[-MAX_STACK:])):
                if pos > 0:
                    track.encode_curse(curse, below + s * self.below_stride + (pos - 1) * rec, on, idx, val)
                n = cost.get(curse.curse, 0)
                if n:
                    idx.append(o_cost + s * MAX_STACK + pos)
                    val.append(n)

    def _book(
        self, state: GameState, st: DarkMatterState, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        o = self.o_book
        if st.closed:
            on.append(o)
            return
        if st.used_turn == state.turn:
            on.append(o + 1)
        if st.spread + 2 >= len(st.book):
            on.append(o + 2)
        on.append(self.o_spread + st.spread)
        book, spread = st.book, st.spread
        for b, n, faces, side in self.sides:  # the left page (a page's back), then the right
            face = faces[book[spread + side]]
            if face is None:  # the book's invariant rules this out; nothing is shown then
                continue
            on.append(b + face[0])
            idx.append(b + n)
            val.append(face[1])
            if face[2]:
                on.append(b + n + 1)


DARK_MATTER_SECTIONS = ObsModule(
    NAME,
    (DarkMatterSections,),
    doc="The Vth Element's Dark Matter module (docs/rules.md section 9.1): supply, stacks, Black Book.",
)
