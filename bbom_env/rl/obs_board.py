"""Base-game observation sections about the table: the Library, the Curse piles, the Invocation
track, the board markers, the Grimoire spread and the supply."""

from __future__ import annotations

import numpy as np

from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import (
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_NAMES,
    ELEMENT_TOKENS_PER_ELEMENT,
    ELEMENTS,
    MADNESS_IN_BOX,
    NUM_TRACK_SLOTS,
    PHASE_NAMES,
    ROUNDS,
)
from bbom_env.engine.model.records import CurseOnTrack

from .obs_core import ObsContext, ObsSection, Part

TOKEN_SCALE = 1 / ELEMENT_TOKENS_PER_ELEMENT
N_ELEMENTS = len(ELEMENTS)
MONSTER_SYMBOLS = 3  # Curse symbols printed per Monster (docs/rules.md section 1.5)


class Library(ObsSection):
    """The top Spell of each Library pile (the cards below stay hidden, A-66) and the pile sizes."""

    group = "library"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.offsets: list[int] = []  # per Element: offset of its one-hot in library.tops
        self.index: list[dict[str, int]] = []
        self.empty: list[int] = []  # per Element: index of its "empty pile" flag
        tops_len = 0
        for e in range(N_ELEMENTS):
            ids = sorted(sp.id for sp in ctx.pack.spells.values() if not sp.basic and sp.element == e)
            self.offsets.append(tops_len)
            self.index.append({sid: i for i, sid in enumerate(ids)})
            self.empty.append(len(ids))
            tops_len += len(ids) + 1
        self.parts = [
            Part(
                "library.tops",
                tops_len,
                "per Element (fire, water, earth, air): top Spell one-hot over the pack's Library Spells "
                "of that Element (sorted ids), then an 'empty pile' flag",
            ),
            Part("library.sizes", N_ELEMENTS, "Library pile sizes / 3", 1 / 3),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        o = self.start
        o2 = self.at["library.sizes"]
        for e, pile in enumerate(state.library):
            if pile:
                on.append(o + self.offsets[e] + self.index[e][pile[-1]])
                idx.append(o2 + e)
                val.append(len(pile))
            else:
                on.append(o + self.offsets[e] + self.empty[e])


class CursePiles(ObsSection):
    """The size of each Curse pile (their order stays hidden, A-66)."""

    group = "curse_piles"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.types = ctx.rules.curse_types
        pack = ctx.pack
        pile_max = [max(1, sum(1 for c in pack.curses.values() if c.type == t)) for t in self.types]
        self.parts = [
            Part(
                "curse_piles.sizes",
                len(self.types),
                f"Curse pile sizes ({', '.join(self.types)}) / pack count of that type",
                tuple(1 / m for m in pile_max),
            )
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        o = self.start
        piles = state.curse_piles
        for i, t in enumerate(self.types):
            pile = piles.get(t)
            if pile:
                idx.append(o + i)
                val.append(len(pile))


class Track(ObsSection):
    """The Curse on top of each Invocation track slot. The base game never stacks Curses; a module
    that does (Dark Matter's "add a Dark Curse") adds its own section for the Curses below."""

    group = "track"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        pack = ctx.pack
        curses = sorted(pack.curses)
        ctypes = list(ctx.rules.curse_types)
        C, Ty = len(curses), len(ctypes)
        # Per Curse id: offsets of its id and type one-hots in a record, and its printed cost.
        self.feats = {
            cid: (1 + i, 1 + C + ctypes.index(pack.curses[cid].type), tuple(pack.curses[cid].cost))
            for i, cid in enumerate(curses)
        }
        self.o_neutralized = 1 + C + Ty
        self.o_tokens = 2 + C + Ty
        self.record = 2 + C + Ty + 9
        # One Curse record's scales and meaning: a module that stacks Curses (Dark Matter, V-09)
        # encodes the Curses below the top with the same record (``encode_curse``).
        self.rec_scale = (1.0,) * (2 + C + Ty) + (TOKEN_SCALE,) * 4 + (1 / 8,) * 4 + (1 / 5,)
        self.rec_meaning = (
            f"[present, Curse one-hot ({C}, sorted ids), type one-hot ({', '.join(ctypes)}), "
            "neutralized, Element tokens per Element /4, destroy cost per Element (card + tokens) /8, "
            "Madness under /5]"
        )
        self.parts = [
            Part(
                "track",
                NUM_TRACK_SLOTS * self.record,
                f"{NUM_TRACK_SLOTS} slots (S2, S3L, S3R, S4, S5) x 1 stack position(s) (top first) "
                f"x {self.rec_meaning}",
                self.rec_scale * NUM_TRACK_SLOTS,
            )
        ]

    def encode_curse(
        self, curse: CurseOnTrack, r: int, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        """One Curse record at ``r``: present, id, type, neutralized, its tokens, its cost with them
        and the Madness under it (``encode`` writes each slot's top Curse; the Dark Matter module's
        section the Curses below)."""
        f_id, f_type, cost = self.feats[curse.curse]
        on += (r, r + f_id, r + f_type)
        if curse.neutralized_at >= 0:
            on.append(r + self.o_neutralized)
        c = r + self.o_tokens
        t0, t1, t2, t3 = curse.tokens
        idx += (c, c + 1, c + 2, c + 3, c + 4, c + 5, c + 6, c + 7, c + 8)
        val += (t0, t1, t2, t3, cost[0] + t0, cost[1] + t1, cost[2] + t2, cost[3] + t3, curse.madness)

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        r = self.start
        crec = self.record
        for stack in state.track:
            if stack:
                self.encode_curse(stack[-1], r, on, idx, val)
            r += crec


class Board(ObsSection):
    """Markers and game settings: ``board.*``."""

    group = "board"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.parts = [
            Part(
                "board.invocation_marker", 6, "Invocation marker one-hot: Invocation space (0), spaces 1..5"
            ),
            Part("board.round", ROUNDS + 1, "Round marker one-hot: 0 (Grimoire closed), rounds 1..6"),
            Part("board.difficulty", 3, "difficulty one-hot (1..3)"),
            Part("board.mode", 2, "Fear mode, Nightmare mode (section 2.4)"),
            Part("board.phase", len(PHASE_NAMES), f"phase one-hot ({', '.join(PHASE_NAMES)})"),
            Part("board.turn", 1, "turn counter / 64", 1 / 64),
            Part("board.outcome", 2, "game over: win, loss"),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        at = self.at
        cfg = state.config
        on += (
            at["board.invocation_marker"] + state.marker,
            at["board.round"] + state.round,
            at["board.difficulty"] + cfg.difficulty - 1,
            at["board.phase"] + int(state.phase),
        )
        if cfg.fear:
            on.append(at["board.mode"])
        if cfg.nightmare:
            on.append(at["board.mode"] + 1)
        idx.append(at["board.turn"])
        val.append(state.turn)
        if state.over:
            on.append(at["board.outcome"] + (0 if state.outcome == "win" else 1))


class Grimoire(ObsSection):
    """The open spread: the current Monster (left page) and the right page; later pages stay
    face down (A-66)."""

    group = "grimoire"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        pages = ctx.pack.pages
        monster_pages = sorted(p.id for p in pages.values() if p.monster is not None)
        right_pages = sorted(p.id for p in pages.values() if p.kind in ("inside", "end"))
        self.monster_index = {pid: i for i, pid in enumerate(monster_pages)}
        self.right_index = {pid: i for i, pid in enumerate(right_pages)}
        # Curse symbols: the 4 Elements, then the symbols of the modules' Curse types (a Monster's
        # Dark Matter symbol places a Dark Curse, docs/rules.md section 9.1); the base game's are the 4.
        base_types = ctx.rules.parts[0].curse_types
        self.symbols = list(ELEMENT_NAMES) + [t for t in ctx.rules.curse_types if t not in base_types]
        symbol_index = {name: i for i, name in enumerate(self.symbols)}
        self.nsym = S = len(self.symbols)
        names = "Element" if S == N_ELEMENTS else f"symbol ({', '.join(self.symbols)})"
        self.page_symbols: dict[str, tuple[int, ...]] = {}
        for pid in monster_pages:
            monster = pages[pid].monster
            assert monster is not None
            self.page_symbols[pid] = tuple(symbol_index[x] for x in monster.curse_symbols)
        self.parts = [
            Part("grimoire.closed", 1, "the Grimoire is closed (before the first Monster phase)"),
            Part(
                "grimoire.monster",
                len(monster_pages),
                "current Monster: left page one-hot (pages with a Monster)",
            ),
            Part(
                "grimoire.monster_symbols",
                MONSTER_SYMBOLS * S,
                f"current Monster's 3 Curse symbols x {names} one-hot",
            ),
            Part(
                "grimoire.right_page",
                len(right_pages),
                "right page (Bonus/Failure side) one-hot (Inside and End pages)",
            ),
            Part(
                "grimoire.next_symbols",
                MONSTER_SYMBOLS * S,
                f"next Monster's 3 Curse symbols (printed on the right page) x {names} one-hot; 0 on the "
                "last round",
            ),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        at = self.at
        r = state.round
        if r == 0:
            on.append(at["grimoire.closed"])
            return
        # Left page: the back of page r-1 (this Monster); right page: the front of page r
        # (Bonus/Failure and the next Monster's Curse symbols) (docs/rules.md section 1.5, A-66).
        left = state.grimoire[r - 1]
        on.append(at["grimoire.monster"] + self.monster_index[left])
        o = at["grimoire.monster_symbols"]
        S = self.nsym
        for j, e in enumerate(self.page_symbols[left]):
            on.append(o + j * S + e)
        if r < len(state.grimoire):
            right = state.grimoire[r]
            on.append(at["grimoire.right_page"] + self.right_index[right])
            o = at["grimoire.next_symbols"]
            for j, e in enumerate(self.page_symbols.get(right, ())):
                on.append(o + j * S + e)


class Supply(ObsSection):
    """Supply piles, the value-1 reserve, the Element token pool and the Madness pile."""

    group = "supply"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        v1, v2, v3 = ELEMENT_CARDS_PER_VALUE[1], ELEMENT_CARDS_PER_VALUE[2], ELEMENT_CARDS_PER_VALUE[3]
        self.parts = [
            Part(
                "supply.piles",
                N_ELEMENTS * 2,  # a value-2 and a value-3 pile per Element
                f"supply piles (fire-2, fire-3, water-2, ..., air-3) / {v2} (value 2) or / {v3} (value 3)",
                (1 / v2, 1 / v3) * N_ELEMENTS,
            ),
            Part(
                "supply.reserve1",
                N_ELEMENTS,
                f"value-1 cards in the box reserve per Element / {v1} (A-41)",
                1 / v1,
            ),
            Part("supply.tokens", N_ELEMENTS, "Element token pool per Element / 4", TOKEN_SCALE),
            Part("supply.madness_pile", 1, f"Madness pile size / {MADNESS_IN_BOX}", 1 / MADNESS_IN_BOX),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        o = self.start  # piles (8), reserve1 (4), tokens (4), madness pile (1): contiguous
        sup = state.supply
        idx += range(o, o + 17)
        val += (sup[0][0], sup[0][1], sup[1][0], sup[1][1], sup[2][0], sup[2][1], sup[3][0], sup[3][1])
        val += state.reserve1
        val += state.tokens
        val.append(len(state.madness_pile))
