"""The observation layout: the ordered sections, their lengths, meanings and scales, and the index
tables ``ObservationEncoder.encode`` needs, all computed once from the pack and the module set.

Every section has a name, a length, a meaning (for docs/observation.md) and a per-feature scale:
the encoder writes raw values (1 for one-hots and flags, counts for counts), multiplies by the
scale and clips to 1. Lengths come from the pack (sorted ids) and constants only, never from the
player count. A module (Dark Matter, Black Book, Phobias) adds its sections through
``MODULE_SECTIONS``; none is implemented yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bbom_env.engine.cards import CURSE_TYPES, Pack
from bbom_env.engine.constants import (
    ELEMENT_BY_NAME,
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_TOKENS_PER_ELEMENT,
    MADNESS,
    MADNESS_IN_BOX,
    MAX_PLAYERS,
    MAX_SPELLS,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_TRACK_SLOTS,
    PHASE_NAMES,
    ROUNDS,
    code_name,
)
from bbom_env.engine.decision import DECISION_KINDS
from bbom_env.engine.vocab import MOD_SCHEMAS

from .layout import ActionLayout

# Actions a payment can be for (the "act" of a pay frame, engine actions.py).
PAY_ACTIONS: tuple[str, ...] = ("activate", "learn", "acquire", "destroy", "cure")
LEVEL_NAMES = ("basic", "level 1", "level 2", "level 3")


@dataclass
class Section:
    name: str
    start: int
    length: int
    meaning: str


@dataclass
class Spec:
    """Everything the encoder needs: sections, scales and index tables (see ``build``)."""

    sections: list[Section] = field(default_factory=list)
    scales: list[float] = field(default_factory=list)
    size: int = 0
    scale: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    # card types
    codes_list: list[int] = field(default_factory=list)
    codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    codes_prefix: bool = True
    ntypes: int = 0
    type_index: list[int] = field(default_factory=list)
    # per seat (offsets relative to seat_start[k])
    seat_start: list[int] = field(default_factory=list)
    seat_stride: int = 0
    o_present: int = 0
    o_absent: int = 1
    o_active: int = 2
    o_eliminated: int = 3
    o_ability_used: int = 4
    o_ability_lost: int = 5
    o_magician: int = 0
    o_sizes: int = 0
    o_discard: int = 0
    o_hand: int = -1
    o_support: int = 0
    o_spells: int = 0
    o_mods: int = 0
    magician_index: dict[str, int] = field(default_factory=dict)
    spell_record: int = 0
    spell_feats: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    spell_o_exhausted: int = 0
    spell_o_neutralized: int = 0
    mod_index: dict[str, int] = field(default_factory=dict)
    # board
    library_offsets: list[int] = field(default_factory=list)
    library_index: list[dict[str, int]] = field(default_factory=list)
    library_empty: list[int] = field(default_factory=list)
    curse_pile_types: tuple[str, ...] = ()
    track_depth: int = 1
    curse_record: int = 0
    curse_feats: dict[str, tuple[int, int, tuple[int, ...]]] = field(default_factory=dict)
    curse_o_neutralized: int = 0
    curse_o_tokens: int = 0
    monster_index: dict[str, int] = field(default_factory=dict)
    right_index: dict[str, int] = field(default_factory=dict)
    page_symbols: dict[str, tuple[int, ...]] = field(default_factory=dict)
    source_index: dict[str, int] = field(default_factory=dict)
    history: int = 4
    history_record: int = 0
    history_o_arg: int = 0
    history_o_seat: int = 0

    def add(self, name: str, length: int, meaning: str, scale: float | list[float] = 1.0) -> int:
        """Append a section; returns its start. ``scale`` is one value or one per feature."""
        if length <= 0:
            raise ValueError(f"section {name!r} has length {length}")
        start = self.size
        self.sections.append(Section(name, start, length, meaning))
        if isinstance(scale, list):
            if len(scale) != length:
                raise AssertionError(f"section {name!r}: {len(scale)} scales for {length} features")
            self.scales += scale
        else:
            self.scales += [scale] * length
        self.size += length
        return start


# Module name -> function(spec, pack) appending that module's sections (Vth Element, later).
MODULE_SECTIONS: dict[str, Callable[[Spec, Pack], None]] = {}


def card_codes(modules: tuple[str, ...]) -> list[int]:
    """Card types shown in count and one-hot sections: the 12 Element cards and Madness; Dark
    Matter (13) and the Phobias (14..29) only with their modules."""
    codes = list(range(MADNESS + 1))
    if "dark_matter" in modules:
        codes.append(MADNESS + 1)
    if "phobias" in modules:
        codes += list(range(MADNESS + 2, NUM_CODES))
    return codes


def build(
    pack: Pack, modules: tuple[str, ...], layout: ActionLayout, observe_other_hands: bool, history: int
) -> Spec:
    s = Spec()
    s.codes_list = card_codes(modules)
    s.codes = np.array(s.codes_list, dtype=np.int64)
    s.codes_prefix = s.codes_list == list(range(len(s.codes_list)))
    s.ntypes = T = len(s.codes_list)
    s.type_index = [-1] * NUM_CODES
    for i, c in enumerate(s.codes_list):
        s.type_index[c] = i
    types = ", ".join(code_name(c) for c in s.codes_list)

    # -- the observer's private zones --------------------------------------------------------------
    s.add("own.hand", T, f"observer's hand: count per card type ({types}) / 8", 1 / 8)
    s.add(
        "own.deck",
        T,
        "observer's deck composition (the multiset, not the order: the owner can count what is "
        "in deck + discard) / 16",
        1 / 16,
    )

    # -- per seat ------------------------------------------------------------------------------------
    magicians = sorted(pack.magicians)
    s.magician_index = {m: i for i, m in enumerate(magicians)}
    groups: dict[tuple[bool, int, int], list[str]] = {}
    for sp in pack.spells.values():
        groups.setdefault((sp.basic, sp.element, sp.level), []).append(sp.id)
    variants = max(len(g) for g in groups.values())
    for (_basic, element, level), ids in groups.items():
        for v, sid in enumerate(sorted(ids)):
            s.spell_feats[sid] = (element, 4 + level, 8 + v)
    s.spell_o_exhausted = 8 + variants
    s.spell_o_neutralized = 9 + variants
    s.spell_record = 10 + variants
    mod_kinds = sorted(MOD_SCHEMAS)
    s.mod_index = {k: i for i, k in enumerate(mod_kinds)}
    hands = observe_other_hands
    for k in range(MAX_PLAYERS):
        who = "the observer" if k == 0 else f"the player {k} seat(s) clockwise from the observer"
        p = f"seat{k}."
        start = s.add(
            p + "status",
            6,
            f"{who}: present, absent (seat offset >= player count), Active Player, eliminated, "
            "ability used this turn, ability lost",
        )
        s.seat_start.append(start)
        s.o_magician = s.add(p + "magician", len(magicians), "Magician one-hot (pack ids sorted)") - start
        s.o_sizes = (
            s.add(
                p + "sizes",
                6,
                f"hand size /12, deck size /40, discard size /40, support cards /{MAX_SUPPORT_SLOTS}, "
                f"support capacity /{MAX_SUPPORT_SLOTS}, Spell limit /{MAX_SPELLS}",
                [1 / 12, 1 / 40, 1 / 40, 1 / MAX_SUPPORT_SLOTS, 1 / MAX_SUPPORT_SLOTS, 1 / MAX_SPELLS],
            )
            - start
        )
        s.o_discard = (
            s.add(p + "discard", T, "discard pile: count per card type / 16 (public, A-66)", 1 / 16) - start
        )
        if hands:  # every seat gets the section so that all seats share one layout
            s.o_hand = (
                s.add(
                    p + "hand",
                    T,
                    "hand: count per card type / 8 (only with observe_other_hands, A-66)",
                    1 / 8,
                )
                - start
            )
        s.o_support = (
            s.add(
                p + "support",
                MAX_SUPPORT_SLOTS * T,
                f"{MAX_SUPPORT_SLOTS} support slots x card-type one-hot (Madness included; empty slot: "
                "all 0)",
            )
            - start
        )
        s.o_spells = (
            s.add(
                p + "spells",
                MAX_SPELLS * s.spell_record,
                f"{MAX_SPELLS} Spell slots (row order, = the ACTIVATE/PICK_SPELL index) x [Element one-hot "
                f"(4), basic/level 1/2/3 one-hot (4), variant one-hot ({variants}: rank among the pack's "
                "sorted ids of that Element and level), exhausted, neutralized]; empty slot: all 0",
            )
            - start
        )
        s.o_mods = (
            s.add(
                p + "temp_mods",
                len(mod_kinds),
                f"temporary modifiers on the player: one flag per kind ({', '.join(mod_kinds)})",
            )
            - start
        )
        s.seat_stride = s.size - start

    # -- Library, Curse piles, Invocation track ----------------------------------------------------
    tops_len = 0
    for e in range(4):
        ids = sorted(sp.id for sp in pack.spells.values() if not sp.basic and sp.element == e)
        s.library_offsets.append(tops_len)
        s.library_index.append({sid: i for i, sid in enumerate(ids)})
        s.library_empty.append(len(ids))
        tops_len += len(ids) + 1
    s.add(
        "library.tops",
        tops_len,
        "per Element (fire, water, earth, air): top Spell one-hot over the pack's Library Spells of "
        "that Element (sorted ids), then an 'empty pile' flag",
    )
    s.add("library.sizes", 4, "Library pile sizes / 3", 1 / 3)
    s.curse_pile_types = tuple(CURSE_TYPES)
    pile_max = [max(1, sum(1 for c in pack.curses.values() if c.type == t)) for t in s.curse_pile_types]
    s.add(
        "curse_piles.sizes",
        len(s.curse_pile_types),
        f"Curse pile sizes ({', '.join(s.curse_pile_types)}) / pack count of that type",
        [1 / m for m in pile_max],
    )
    curses = sorted(pack.curses)
    ctypes = list(s.curse_pile_types)
    C, Ty = len(curses), len(ctypes)
    for i, cid in enumerate(curses):
        c = pack.curses[cid]
        s.curse_feats[cid] = (1 + i, 1 + C + ctypes.index(c.type), tuple(c.cost))
    s.curse_o_neutralized = 1 + C + Ty
    s.curse_o_tokens = 2 + C + Ty
    s.curse_record = 2 + C + Ty + 9
    # The base game never stacks Curses; the Dark Matter module's "add a Dark Curse" does (MAX_STACK).
    s.track_depth = MAX_STACK if "dark_matter" in modules else 1
    tok = 1 / ELEMENT_TOKENS_PER_ELEMENT
    rec_scale = [1.0] * (2 + C + Ty) + [tok] * 4 + [1 / 8] * 4 + [1 / 5]
    s.add(
        "track",
        NUM_TRACK_SLOTS * s.track_depth * s.curse_record,
        f"{NUM_TRACK_SLOTS} slots (S2, S3L, S3R, S4, S5) x {s.track_depth} stack position(s) (top first) "
        f"x [present, Curse one-hot ({C}, sorted ids), type one-hot ({', '.join(ctypes)}), neutralized, "
        "Element tokens per Element /4, destroy cost per Element (card + tokens) /8, Madness under /5]",
        rec_scale * (NUM_TRACK_SLOTS * s.track_depth),
    )

    # -- board -----------------------------------------------------------------------------------------
    s.add("board.invocation_marker", 6, "Invocation marker one-hot: Invocation space (0), spaces 1..5")
    s.add("board.round", ROUNDS + 1, "Round marker one-hot: 0 (Grimoire closed), rounds 1..6")
    s.add("board.difficulty", 3, "difficulty one-hot (1..3)")
    s.add("board.mode", 2, "Fear mode, Nightmare mode (section 2.4)")
    s.add("board.phase", len(PHASE_NAMES), f"phase one-hot ({', '.join(PHASE_NAMES)})")
    s.add("board.turn", 1, "turn counter / 64", 1 / 64)
    s.add("board.outcome", 2, "game over: win, loss")

    # -- Grimoire spread ------------------------------------------------------------------------------
    monster_pages = sorted(p.id for p in pack.pages.values() if p.monster is not None)
    right_pages = sorted(p.id for p in pack.pages.values() if p.kind in ("inside", "end"))
    s.monster_index = {pid: i for i, pid in enumerate(monster_pages)}
    s.right_index = {pid: i for i, pid in enumerate(right_pages)}
    for pid in monster_pages:
        monster = pack.pages[pid].monster
        assert monster is not None
        s.page_symbols[pid] = tuple(int(ELEMENT_BY_NAME[x]) for x in monster.curse_symbols)
    s.add("grimoire.closed", 1, "the Grimoire is closed (before the first Monster phase)")
    s.add("grimoire.monster", len(monster_pages), "current Monster: left page one-hot (pages with a Monster)")
    s.add("grimoire.monster_symbols", 12, "current Monster's 3 Curse symbols x Element one-hot")
    s.add(
        "grimoire.right_page",
        len(right_pages),
        "right page (Bonus/Failure side) one-hot (Inside and End pages)",
    )
    s.add(
        "grimoire.next_symbols",
        12,
        "next Monster's 3 Curse symbols (printed on the right page) x Element one-hot; 0 on the last round",
    )

    # -- supply ------------------------------------------------------------------------------------------
    v2, v3 = ELEMENT_CARDS_PER_VALUE[2], ELEMENT_CARDS_PER_VALUE[3]
    s.add(
        "supply.piles",
        8,
        f"supply piles (fire-2, fire-3, water-2, ..., air-3) / {v2} (value 2) or / {v3} (value 3)",
        [1 / v2, 1 / v3] * 4,
    )
    s.add(
        "supply.reserve1",
        4,
        f"value-1 cards in the box reserve per Element / {ELEMENT_CARDS_PER_VALUE[1]} (A-41)",
        1 / ELEMENT_CARDS_PER_VALUE[1],
    )
    s.add("supply.tokens", 4, "Element token pool per Element / 4", tok)
    s.add("supply.madness_pile", 1, f"Madness pile size / {MADNESS_IN_BOX}", 1 / MADNESS_IN_BOX)

    # -- pending decision ------------------------------------------------------------------------------
    s.add("decision.kind", len(DECISION_KINDS), "pending decision kind one-hot (engine DECISION_KINDS)")
    s.add("decision.decider", MAX_PLAYERS, "decider seat offset from the observer, one-hot")
    sources: list[str] = []
    for table in (pack.spells, pack.curses, pack.pages, pack.magicians):
        sources += [cid for cid in sorted(table) if cid not in sources]
    s.source_index = {cid: i for i, cid in enumerate(sources)}
    s.add(
        "decision.source",
        len(sources),
        "source card one-hot over the pack's sorted ids: Spells, then Curses, Grimoire pages, Magicians",
    )
    s.add("decision.payment_action", len(PAY_ACTIONS), f"payment for: {', '.join(PAY_ACTIONS)}")
    s.add("decision.acquire_target", 8, "payment for Acquire: Element * 2 + (value - 2), one-hot")
    s.add("decision.cost_left", 5, "payment: Elements left to pay (fire, water, earth, air, any) / 6", 1 / 6)
    s.add("decision.picks", T, "payment: cards picked so far, count per card type / 6", 1 / 6)
    s.add("decision.remaining", 1, "picks the effect still asks for / 6", 1 / 6)

    # -- last actions ----------------------------------------------------------------------------------
    nb = len(layout.block_names)
    s.history = history
    s.history_o_arg = 1 + nb
    s.history_o_seat = 2 + nb
    s.history_record = 2 + nb + MAX_PLAYERS
    if history > 0:
        s.add(
            "history",
            history * s.history_record,
            f"last {history} actions taken (most recent first) x [present, action block one-hot ({nb} "
            "blocks), argument / (block size - 1) (0 for another player's PICK_HAND: the card may stay "
            "hidden, A-66), seat offset of who took it, one-hot]",
        )

    for module in modules:
        MODULE_SECTIONS[module](s, pack)

    s.scale = np.array(s.scales, dtype=np.float32)
    total = sum(sec.length for sec in s.sections)
    if total != s.size or len(s.scale) != s.size:
        raise AssertionError(f"observation sections sum to {total}, size {s.size}, scales {len(s.scale)}")
    return s
