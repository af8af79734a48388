"""Base-game observation sections about players: the observer's private zones (``own.*``) and one
block per seat relative to the observer (``seat0.*`` ... ``seat4.*``)."""

from __future__ import annotations

import numpy as np
from numpy import frombuffer, uint8

from bbom_env.engine.core.state import GameState, PlayerState
from bbom_env.engine.model.constants import MAX_PLAYERS, MAX_SPELLS, MAX_SUPPORT_SLOTS, NUM_CODES
from bbom_env.engine.payment.seat import seat_view

from .obs_core import ObsContext, ObsSection, Part

_NO_CARDS = bytes(NUM_CODES)  # a count vector of no card, as bytes (ObsContext.codes_all)


class OwnZones(ObsSection):
    """The observer's hand and the composition of their deck."""

    group = "own"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.parts = [
            Part(
                "own.hand",
                ctx.ntypes,
                f"observer's hand: count per card type ({ctx.type_names()}) / 8",
                1 / 8,
            ),
            Part(
                "own.deck",
                ctx.ntypes,
                "observer's deck composition (the multiset, not the order: the owner can count what is "
                "in deck + discard) / 16",
                1 / 16,
            ),
        ]
        # Count vectors: a plain slice (the base game's 13 codes), else whole as bytes
        # (ObsContext.codes_all) or through ctx.types (the Phobia module alone).
        self.sliced = ctx.codes_prefix and not ctx.codes_all
        self.whole = ctx.codes_all

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        ctx = self.ctx
        nt = ctx.ntypes
        me = state.players[seat]
        o = self.start
        if self.sliced:
            vec[o : o + nt] = me.hand[:nt]
        elif self.whole:  # own.hand then own.deck (contiguous): one run of bytes, counted in place
            run = bytearray(me.hand)
            run += _NO_CARDS
            for c in me.deck:
                run[nt + c] += 1
            vec[o : o + 2 * nt] = frombuffer(run, uint8)
            return
        else:
            vec[o : o + nt] = ctx.types(me.hand)
        if me.deck:
            counts = [0] * NUM_CODES
            for c in me.deck:
                counts[c] += 1
            o += nt
            vec[o : o + nt] = counts[:nt] if self.sliced else ctx.types(counts)


def _spell_features(ctx: ObsContext) -> tuple[dict[str, tuple[int, int, int]], int]:
    """Per Spell id: offsets of its Element, level and variant features in a Spell record; and the
    number of variants (Spells sharing an Element and level)."""
    groups: dict[tuple[bool, int, int], list[str]] = {}
    for sp in ctx.pack.spells.values():
        groups.setdefault((sp.basic, sp.element, sp.level), []).append(sp.id)
    feats: dict[str, tuple[int, int, int]] = {}
    for (_basic, element, level), ids in groups.items():
        for v, sid in enumerate(sorted(ids)):
            feats[sid] = (element, 4 + level, 8 + v)
    return feats, max(len(g) for g in groups.values())


def modifier_kinds(ctx: ObsContext) -> list[str]:
    """Temporary modifier kinds: the base game's sorted (the order the layout has always had; the
    engine's list is in declaration order), then the modules' additions in ruleset order."""
    base = sorted(ctx.rules.parts[0].modifier_kinds)
    return base + [k for k in ctx.rules.modifier_kinds if k not in base]


# Card types up to which a seat's discard counts are gathered rather than written in place.
_GATHER_MAX = 16
# Offsets of a seat block's fields from its start (the status flags are 0..5).
_PRESENT, _ABSENT, _ACTIVE, _ELIMINATED, _USED, _LOST = range(6)


class Seats(ObsSection):
    """One block per seat offset from the observer, padded to MAX_PLAYERS with ``absent``."""

    group = "seat"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.magician_index = {m: i for i, m in enumerate(sorted(ctx.pack.magicians))}
        self.spell_feats, variants = _spell_features(ctx)
        self.spell_o_exhausted = 8 + variants
        self.spell_o_neutralized = 9 + variants
        self.spell_record = 10 + variants
        mod_kinds = modifier_kinds(ctx)
        self.mod_index = {k: i for i, k in enumerate(mod_kinds)}
        for k in range(MAX_PLAYERS):
            self.parts += self._seat_parts(k, variants, mod_kinds)

    def _seat_parts(self, k: int, variants: int, mod_kinds: list[str]) -> list[Part]:
        ctx = self.ctx
        T = ctx.ntypes
        who = "the observer" if k == 0 else f"the player {k} seat(s) clockwise from the observer"
        p = f"seat{k}."
        parts = [
            Part(
                p + "status",
                6,
                f"{who}: present, absent (seat offset >= player count), Active Player, eliminated, "
                "ability used this turn, ability lost",
            ),
            Part(p + "magician", len(self.magician_index), "Magician one-hot (pack ids sorted)"),
            Part(
                p + "sizes",
                6,
                f"hand size /12, deck size /40, discard size /40, support cards /{MAX_SUPPORT_SLOTS}, "
                f"support capacity /{MAX_SUPPORT_SLOTS}, Spell limit /{MAX_SPELLS}",
                (1 / 12, 1 / 40, 1 / 40, 1 / MAX_SUPPORT_SLOTS, 1 / MAX_SUPPORT_SLOTS, 1 / MAX_SPELLS),
            ),
            Part(p + "discard", T, "discard pile: count per card type / 16 (public, A-66)", 1 / 16),
        ]
        if ctx.observe_other_hands:  # every seat gets the section so that all seats share one layout
            parts.append(
                Part(
                    p + "hand",
                    T,
                    "hand: count per card type / 8 (only with observe_other_hands, A-66)",
                    1 / 8,
                )
            )
        return parts + [
            Part(
                p + "support",
                MAX_SUPPORT_SLOTS * T,
                f"{MAX_SUPPORT_SLOTS} support slots x card-type one-hot (Madness included; empty slot: "
                "all 0)",
            ),
            Part(
                p + "spells",
                MAX_SPELLS * self.spell_record,
                f"{MAX_SPELLS} Spell slots (row order, = the ACTIVATE/PICK_SPELL index) x [Element one-hot "
                f"(4), basic/level 1/2/3 one-hot (4), variant one-hot ({variants}: rank among the pack's "
                "sorted ids of that Element and level), exhausted, neutralized]; empty slot: all 0",
            ),
            Part(
                p + "temp_mods",
                len(mod_kinds),
                f"temporary modifiers on the player: one flag per kind ({', '.join(mod_kinds)})",
            ),
        ]

    def bind(self, start: int) -> None:
        super().bind(start)
        at = self.at
        self.seat_start = [at[f"seat{k}.status"] for k in range(MAX_PLAYERS)]
        self.seat_stride = self.seat_start[1] - self.seat_start[0]
        hands = self.ctx.observe_other_hands
        # Absolute offsets of every seat block's fields (encode unpacks one tuple per seat).
        self.rows = [
            (at[f"seat{k}.magician"], at[f"seat{k}.sizes"], at[f"seat{k}.discard"],
             at[f"seat{k}.hand"] if hands else -1, at[f"seat{k}.support"], at[f"seat{k}.spells"],
             at[f"seat{k}.temp_mods"])
            for k in range(MAX_PLAYERS)
        ]  # fmt: skip
        nt = self.ctx.ntypes
        self.discard_idx = [tuple(range(row[2], row[2] + nt)) for row in self.rows]
        # A discard pile's counts go through the layout's gather (idx/val) for the base game's few
        # card types; a module set's longer run (30 codes with both Vth Element modules) is cheaper
        # written in place: each gathered index costs about as much as a slice of 30 (measured).
        # With every card code (ObsContext.codes_all) the sizes and the discard pile, contiguous,
        # are one run of bytes.
        self.discard_gathered = self.ctx.codes_prefix and nt <= _GATHER_MAX
        if any(row[2] != row[1] + 6 for row in self.rows):
            raise AssertionError("seatK.discard must follow seatK.sizes (6 features)")
        self.sliced = self.ctx.codes_prefix and not self.ctx.codes_all  # as OwnZones'

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        players = state.players
        n = len(players)
        for k in range(MAX_PLAYERS):
            b = self.seat_start[k]
            if k >= n:
                on.append(b + _ABSENT)
                continue
            p = (seat + k) % n
            pl = players[p]
            on.append(b + _PRESENT)
            if p == state.active:
                on.append(b + _ACTIVE)
            if pl.eliminated:
                on.append(b + _ELIMINATED)
            if pl.ability_used:
                on.append(b + _USED)
            # The seat's view of the rules (kept while the decision waits): lost for good, or while a
            # lose_ability modifier lasts (V-10, V-27); the limits with every modifier (4.11).
            view = seat_view(state, p)
            if view.ability_lost:
                on.append(b + _LOST)
            self._player(pl, k, view.limits, vec, on, idx, val)

    def _player(
        self,
        pl: PlayerState,
        k: int,
        limits: tuple[int, int],
        vec: np.ndarray,
        on: list[int],
        idx: list[int],
        val: list[float],
    ) -> None:
        ctx = self.ctx
        nt = ctx.ntypes
        b_mag, b_sizes, b_disc, b_hand, b_sup, b_spells, b_mods = self.rows[k]
        on.append(b_mag + self.magician_index[pl.magician])
        cap, lim = limits
        mod_index = self.mod_index
        for m in pl.mods:  # the seat's temporary modifiers, by kind
            on.append(b_mods + mod_index[m.modifier["kind"]])
        if ctx.codes_all:  # seatK.sizes then seatK.discard (contiguous): one run of bytes
            run = bytearray((sum(pl.hand), len(pl.deck), sum(pl.discard), len(pl.support), cap, lim))
            run.extend(pl.discard)
            vec[b_sizes : b_disc + nt] = frombuffer(run, uint8)
        else:
            idx += (b_sizes, b_sizes + 1, b_sizes + 2, b_sizes + 3, b_sizes + 4, b_sizes + 5)
            ndiscard = sum(pl.discard)
            val += (sum(pl.hand), len(pl.deck), ndiscard, len(pl.support), cap, lim)
            if ndiscard:
                if self.discard_gathered:  # the base game's 13 card types: gathered with the sizes
                    idx += self.discard_idx[k]
                    val += pl.discard[:nt]
                else:  # written in place (the layout scales it as the others)
                    vec[b_disc : b_disc + nt] = ctx.types(pl.discard)
        if b_hand >= 0:
            self._hand(pl, b_hand, vec)
        tidx = ctx.type_index
        for slot, sup in enumerate(pl.support[:MAX_SUPPORT_SLOTS]):
            t = tidx[sup.card]
            if t >= 0:
                on.append(b_sup + slot * nt + t)
        feats = self.spell_feats
        o_ex, o_neu, rec = self.spell_o_exhausted, self.spell_o_neutralized, self.spell_record
        r = b_spells
        for sp in pl.spells[:MAX_SPELLS]:
            fe, fl, fv = feats[sp.spell]
            on += (r + fe, r + fl, r + fv)
            if sp.exhausted:
                on.append(r + o_ex)
            if sp.neutralized:
                on.append(r + o_neu)
            r += rec

    def _hand(self, pl: PlayerState, b_hand: int, vec: np.ndarray) -> None:
        """``seatK.hand`` (observe_other_hands, A-66): the count vector as the layout shows it."""
        ctx = self.ctx
        nt = ctx.ntypes
        if self.sliced:
            vec[b_hand : b_hand + nt] = pl.hand[:nt]
        elif ctx.codes_all:
            vec[b_hand : b_hand + nt] = frombuffer(bytes(pl.hand), uint8)
        else:
            vec[b_hand : b_hand + nt] = ctx.types(pl.hand)
