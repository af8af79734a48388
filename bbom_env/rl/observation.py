"""The observation encoder: one flat float32 vector per seat, values in [0, 1] (docs/observation.md).

Design (RL_ANCHORS.md section 13, "encode like HLE"):

* seats are relative to the observer: the section of seat offset 0 is the observer, offset 1 the
  next player clockwise, ..., padded to 5 seats with an ``absent`` flag, so one network plays
  every seat and the size does not depend on the player count;
* card identities are one-hots over the pack's sorted ids, so the size depends only on the pack
  and the module set;
* counts are written raw and scaled by a per-feature constant, then clipped to 1 (so a count
  above its scale saturates instead of leaving the Box bounds);
* nothing hidden is read (A-66): other players' hands (unless ``observe_other_hands``), deck
  order, face-down Grimoire pages, Library cards below the top, Curse pile order.

The section list is built once in ``__init__`` (``observation_sections.build``); ``encode`` only
writes indices into a fresh zero vector.
"""

from __future__ import annotations

import numpy as np

from bbom_env.engine import GameConfig, GameState, load_pack
from bbom_env.engine.cards import CURSE_TYPES
from bbom_env.engine.constants import MAX_PLAYERS, MAX_SPELLS, MAX_SUPPORT_SLOTS, NUM_CODES
from bbom_env.engine.decision import KIND_INDEX, pending
from bbom_env.engine.hooks import spell_limit, support_capacity

from .layout import ActionLayout
from .observation_sections import PAY_ACTIONS, Spec, build

PAY_INDEX = {act: i for i, act in enumerate(PAY_ACTIONS)}

__all__ = ["ObservationEncoder"]


class ObservationEncoder:
    """Encodes a ``GameState`` from one seat's point of view (see the module docstring).

    Args:
        config: the game's config; only the pack and the module set change the layout.
        observe_other_hands: A-66 option: also show the other players' hands (default False).
        history: how many of the last actions taken are encoded.
    """

    def __init__(self, config: GameConfig, observe_other_hands: bool = False, history: int = 4) -> None:
        self.config = config
        self.pack = load_pack(config.pack, config.pack_overrides)
        self.layout = ActionLayout(config)
        self.observe_other_hands = observe_other_hands
        self.spec: Spec = build(self.pack, tuple(config.modules), self.layout, observe_other_hands, history)
        s = self.spec
        self.size: int = s.size
        self.sections: list[tuple[str, int, int]] = [(sec.name, sec.start, sec.length) for sec in s.sections]
        self.meanings: dict[str, str] = {sec.name: sec.meaning for sec in s.sections}
        self.high = np.ones(self.size, dtype=np.float32)
        self.low = np.zeros(self.size, dtype=np.float32)
        self._scale = s.scale
        self._at = {sec.name: sec.start for sec in s.sections}
        # Absolute offsets of every seat block's fields (encode unpacks one tuple per seat).
        self._seat = [
            (b + s.o_present, b + s.o_absent, b + s.o_active, b + s.o_eliminated, b + s.o_ability_used,
             b + s.o_ability_lost, b + s.o_magician, b + s.o_sizes, b + s.o_discard,
             b + s.o_hand if s.o_hand >= 0 else -1, b + s.o_support, b + s.o_spells, b + s.o_mods)
            for b in s.seat_start
        ]  # fmt: skip
        self._discard_idx = [tuple(range(row[8], row[8] + s.ntypes)) for row in self._seat]
        # Per action id: (offset of its block's one-hot in a history record, argument / (size - 1)).
        lay = self.layout
        self._hist_feats = [
            (1 + int(lay.block_of[a]), int(lay.arg_of[a]) / max(1, int(lay.block_size[lay.block_of[a]]) - 1))
            for a in range(lay.n)
        ]
        # A card picked from another player's hand may stay hidden (e.g. put on top of their deck),
        # so the argument of their PICK_HAND moves is not shown; its block still is.
        pick_hand = dict((row[0], row[1:3]) for row in lay.table()).get("PICK_HAND", (0, 0))
        self._private_args: frozenset[int] = (
            frozenset()
            if observe_other_hands
            else frozenset(range(pick_hand[0], pick_hand[0] + pick_hand[1]))
        )
        # Support capacity and Spell limit before temporary modifiers and clipping, per Magician and
        # ability-lost flag: the same sums as engine hooks (section 4.11, a lost ability drops the
        # sheet's modifiers). With a module (a third modifier source) encode calls the hooks.
        self._fast_limits: dict[str, tuple[tuple[int, int], tuple[int, int]]] | None = None
        if not config.modules:
            self._fast_limits = {}
            for mid, mag in self.pack.magicians.items():
                slots = sum(m["amount"] for m in mag.mods if m["kind"] == "support_slots")
                extra = sum(m["amount"] for m in mag.mods if m["kind"] == "spell_limit")
                self._fast_limits[mid] = (
                    (mag.support_slots + slots, mag.spell_limit + extra),
                    (mag.support_slots, mag.spell_limit),
                )

    # -- public -----------------------------------------------------------------------------------

    def views(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Named slices (views, not copies) of a flat observation."""
        return {name: vec[start : start + length] for name, start, length in self.sections}

    def encode(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` (float32, shape (size,), values in [0, 1]).

        ``out`` (optional) is overwritten and returned instead of a new array."""
        if out is None:
            vec = np.zeros(self.size, dtype=np.float32)
        else:
            vec = out
            vec.fill(0.0)
        # Raw values are gathered in Python lists and written with two fancy assignments at the end:
        # one numpy call per feature would cost more than the whole encoding (perf target 50 us).
        on: list[int] = []  # indices set to 1 (one-hots, flags)
        idx: list[int] = []  # indices set to a raw value (scaled afterwards)
        val: list[float] = []
        s = self.spec
        at = self._at
        players = state.players
        n = len(players)
        nt = s.ntypes
        prefix = s.codes_prefix

        # -- the observer's private zones ---------------------------------------------------
        me = players[seat]
        o = at["own.hand"]
        vec[o : o + nt] = me.hand[:nt] if prefix else self._types(me.hand)
        if me.deck:
            counts = [0] * NUM_CODES
            for c in me.deck:
                counts[c] += 1
            o = at["own.deck"]
            vec[o : o + nt] = counts[:nt] if prefix else self._types(counts)

        # -- every seat, relative to the observer ---------------------------------------------
        tidx = s.type_index
        feats = s.spell_feats
        rec = s.spell_record
        o_ex, o_neu = s.spell_o_exhausted, s.spell_o_neutralized
        fast = self._fast_limits
        mod_index = s.mod_index
        disc_idx = self._discard_idx
        for k in range(MAX_PLAYERS):
            (b_present, b_absent, b_active, b_elim, b_used, b_lost, b_mag, b_sizes, b_disc, b_hand, b_sup,
             b_spells, b_mods) = self._seat[k]  # fmt: skip
            if k >= n:
                on.append(b_absent)
                continue
            p = (seat + k) % n
            pl = players[p]
            on.append(b_present)
            on.append(b_mag + s.magician_index[pl.magician])
            if p == state.active:
                on.append(b_active)
            if pl.eliminated:
                on.append(b_elim)
            if pl.ability_used:
                on.append(b_used)
            if pl.ability_lost:
                on.append(b_lost)
            if fast is None:
                cap, lim = support_capacity(state, p), spell_limit(state, p)
                for mod, _duration, _src in pl.mods:
                    on.append(b_mods + mod_index[mod["kind"]])
            else:
                cap, lim = fast[pl.magician][pl.ability_lost]
                if pl.mods:
                    for mod, _duration, _src in pl.mods:
                        kind = mod["kind"]
                        on.append(b_mods + mod_index[kind])
                        if kind == "support_slots":
                            cap += mod["amount"]
                        elif kind == "spell_limit":
                            lim += mod["amount"]
                cap = cap if cap > 0 else 0
                lim = lim if lim > 1 else 1
            idx += (b_sizes, b_sizes + 1, b_sizes + 2, b_sizes + 3, b_sizes + 4, b_sizes + 5)
            ndiscard = sum(pl.discard)
            val += (sum(pl.hand), len(pl.deck), ndiscard, len(pl.support), cap, lim)
            if ndiscard:
                idx += disc_idx[k]
                val += pl.discard[:nt] if prefix else self._types(pl.discard)
            if b_hand >= 0:
                vec[b_hand : b_hand + nt] = pl.hand[:nt] if prefix else self._types(pl.hand)
            for slot, code in enumerate(pl.support[:MAX_SUPPORT_SLOTS]):
                t = tidx[code]
                if t >= 0:
                    on.append(b_sup + slot * nt + t)
            r = b_spells
            for sp in pl.spells[:MAX_SPELLS]:
                fe, fl, fv = feats[sp[0]]
                on += (r + fe, r + fl, r + fv)
                if sp[1]:
                    on.append(r + o_ex)
                if sp[2]:
                    on.append(r + o_neu)
                r += rec

        # -- Library, Curse piles, track ------------------------------------------------------
        o = at["library.tops"]
        o2 = at["library.sizes"]
        for e, pile in enumerate(state.library):
            if pile:
                on.append(o + s.library_offsets[e] + s.library_index[e][pile[-1]])
                idx.append(o2 + e)
                val.append(len(pile))
            else:
                on.append(o + s.library_offsets[e] + s.library_empty[e])
        o = at["curse_piles.sizes"]
        piles = state.curse_piles
        for i, t in enumerate(s.curse_pile_types):
            pile = piles.get(t)
            if pile:
                idx.append(o + i)
                val.append(len(pile))
        o = at["track"]
        depth = s.track_depth
        crec = s.curse_record
        for slot, stack in enumerate(state.track):
            if not stack:
                continue
            for pos in range(min(depth, len(stack))):
                cid, neutralized, tokens, under = stack[len(stack) - 1 - pos]  # top first
                r = o + (slot * depth + pos) * crec
                f_id, f_type, cost = s.curse_feats[cid]
                on += (r, r + f_id, r + f_type)  # present, id, type
                if neutralized >= 0:
                    on.append(r + s.curse_o_neutralized)
                c = r + s.curse_o_tokens
                t0, t1, t2, t3 = tokens
                idx += (c, c + 1, c + 2, c + 3, c + 4, c + 5, c + 6, c + 7, c + 8)
                val += (t0, t1, t2, t3, cost[0] + t0, cost[1] + t1, cost[2] + t2, cost[3] + t3, under)

        # -- board, Grimoire spread, supply --------------------------------------------------------
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
        r = state.round
        if r == 0:
            on.append(at["grimoire.closed"])
        else:
            # Left page: the back of page r-1 (this Monster); right page: the front of page r
            # (Bonus/Failure and the next Monster's Curse symbols) (RULES.md section 1.5, A-66).
            left = state.grimoire[r - 1]
            on.append(at["grimoire.monster"] + s.monster_index[left])
            o = at["grimoire.monster_symbols"]
            for j, e in enumerate(s.page_symbols[left]):
                on.append(o + j * 4 + e)
            if r < len(state.grimoire):
                right = state.grimoire[r]
                on.append(at["grimoire.right_page"] + s.right_index[right])
                o = at["grimoire.next_symbols"]
                for j, e in enumerate(s.page_symbols.get(right, ())):
                    on.append(o + j * 4 + e)
        o = at["supply.piles"]
        sup = state.supply
        idx += (o, o + 1, o + 2, o + 3, o + 4, o + 5, o + 6, o + 7)
        val += (sup[0][0], sup[0][1], sup[1][0], sup[1][1], sup[2][0], sup[2][1], sup[3][0], sup[3][1])
        o = at["supply.reserve1"]
        idx += (o, o + 1, o + 2, o + 3)
        val += state.reserve1
        o = at["supply.tokens"]
        idx += (o, o + 1, o + 2, o + 3)
        val += state.tokens
        idx.append(at["supply.madness_pile"])
        val.append(len(state.madness_pile))

        # -- the pending decision ------------------------------------------------------------------
        d = pending(state)
        on.append(at["decision.kind"] + KIND_INDEX[d.kind])
        if d.player >= 0:
            on.append(at["decision.decider"] + (d.player - seat) % n)
            if d.source:
                j = s.source_index.get(d.source, -1)
                if j >= 0:
                    on.append(at["decision.source"] + j)
                elif d.kind == "payment" and "-" in d.source:  # Acquire: "<element>-<value>"
                    e, v = d.source.split("-")
                    on.append(at["decision.acquire_target"] + int(e) * 2 + int(v) - 2)
            if d.kind == "payment":
                j = PAY_INDEX.get(state.stack[-1].get("act"), -1)
                if j >= 0:
                    on.append(at["decision.payment_action"] + j)
                o = at["decision.cost_left"]
                idx += (o, o + 1, o + 2, o + 3, o + 4)
                val += d.cost_left
                o = at["decision.picks"]
                for c in d.picks:
                    t = tidx[c]
                    if t >= 0:
                        idx.append(o + t)
                        val.append(d.picks.count(c))
            idx.append(at["decision.remaining"])
            val.append(d.remaining)

        # -- the last actions taken ----------------------------------------------------------------
        hist = state.history
        if hist:
            movers = state.movers  # seat that took each move of history
            r = at["history"]
            hrec = s.history_record
            o_arg, o_seat = s.history_o_arg, s.history_o_seat
            hf = self._hist_feats
            private = self._private_args
            for j in range(1, min(s.history, len(hist)) + 1):
                a = hist[-j]
                block, arg = hf[a]
                on += (r, r + block)  # present, block one-hot
                mover = movers[-j]
                on.append(r + o_seat + (mover - seat) % n)
                if mover != seat and a in private:
                    arg = 0.0
                if arg > 0.0:
                    idx.append(r + o_arg)
                    val.append(arg)
                r += hrec

        vec[on] = 1.0
        vec[idx] = val
        vec *= self._scale
        np.minimum(vec, 1.0, out=vec)
        return vec

    # -- helpers ----------------------------------------------------------------------------------

    def _types(self, counts: list[int]) -> list[int]:
        """A count vector indexed by card code, restricted to the card types of this layout."""
        codes = self.spec.codes_list
        if self.spec.codes_prefix:
            return counts[: len(codes)]
        return [counts[c] for c in codes]


# Re-exported for the docs and the tests (the curse-pile order of the layout).
CURSE_PILE_TYPES = CURSE_TYPES
