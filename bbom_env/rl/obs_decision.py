"""Base-game observation sections about the flow of play: the pending decision (``decision.*``)
and the last actions taken (``history``)."""

from __future__ import annotations

import numpy as np

from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MAX_PLAYERS
from bbom_env.engine.play.decision import pending

from .obs_core import ObsContext, ObsSection, Part


class Decision(ObsSection):
    """The pending decision: its kind, decider, source card and, for a payment, what is left."""

    group = "decision"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        rules = ctx.rules
        self.kind_index = {k: i for i, k in enumerate(rules.decision_kinds)}
        self.pay_index: dict[str | None, int] = {a: i for i, a in enumerate(rules.pay_actions)}
        sources: list[str] = []
        for table in (ctx.pack.spells, ctx.pack.curses, ctx.pack.pages, ctx.pack.magicians):
            sources += [cid for cid in sorted(table) if cid not in sources]
        self.source_index = {cid: i for i, cid in enumerate(sources)}
        self.parts = [
            Part(
                "decision.kind",
                len(rules.decision_kinds),
                "pending decision kind one-hot (engine DECISION_KINDS)",
            ),
            Part("decision.decider", MAX_PLAYERS, "decider seat offset from the observer, one-hot"),
            Part(
                "decision.source",
                len(sources),
                "source card one-hot over the pack's sorted ids: Spells, then Curses, Grimoire pages, "
                "Magicians",
            ),
            Part(
                "decision.payment_action",
                len(rules.pay_actions),
                f"payment for: {', '.join(rules.pay_actions)}",
            ),
            Part("decision.acquire_target", 8, "payment for Acquire: Element * 2 + (value - 2), one-hot"),
            Part(
                "decision.cost_left",
                5,
                "payment: Elements left to pay (fire, water, earth, air, any) / 6",
                1 / 6,
            ),
            Part(
                "decision.picks", ctx.ntypes, "payment: cards picked so far, count per card type / 6", 1 / 6
            ),
            Part("decision.remaining", 1, "picks the effect still asks for / 6", 1 / 6),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        at = self.at
        d = pending(state)
        on.append(at["decision.kind"] + self.kind_index[d.kind])
        if d.player < 0:
            return
        on.append(at["decision.decider"] + (d.player - seat) % len(state.players))
        if d.source:
            j = self.source_index.get(d.source, -1)
            if j >= 0:
                on.append(at["decision.source"] + j)
            elif d.kind == "payment" and "-" in d.source:  # Acquire: "<element>-<value>"
                e, v = d.source.split("-")
                on.append(at["decision.acquire_target"] + int(e) * 2 + int(v) - 2)
        if d.kind == "payment":
            j = self.pay_index.get(state.stack[-1].get("action"), -1)
            if j >= 0:
                on.append(at["decision.payment_action"] + j)
            o = at["decision.cost_left"]
            idx += (o, o + 1, o + 2, o + 3, o + 4)
            val += d.cost_left
            o = at["decision.picks"]
            tidx = self.ctx.type_index
            for c in d.picks:
                t = tidx[c]
                if t >= 0:
                    idx.append(o + t)
                    val.append(d.picks.count(c))
        idx.append(at["decision.remaining"])
        val.append(d.remaining)


class History(ObsSection):
    """The last ``history`` actions taken, most recent first (none when ``history`` is 0)."""

    group = "history"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        lay = ctx.layout
        nb = len(lay.block_names)
        self.history = ctx.history
        self.o_arg = 1 + nb
        self.o_seat = 2 + nb
        self.record = 2 + nb + MAX_PLAYERS
        # Per action id: (offset of its block's one-hot in a record, argument / (block size - 1)).
        self.feats = [
            (1 + int(lay.block_of[a]), int(lay.arg_of[a]) / max(1, int(lay.block_size[lay.block_of[a]]) - 1))
            for a in range(lay.n)
        ]
        # A card picked from another player's hand may stay hidden (e.g. put on top of their deck),
        # so the argument of their PICK_HAND moves is not shown; its block still is.
        pick_hand = dict((row[0], row[1:3]) for row in lay.table()).get("PICK_HAND", (0, 0))
        self.private_args: frozenset[int] = (
            frozenset()
            if ctx.observe_other_hands
            else frozenset(range(pick_hand[0], pick_hand[0] + pick_hand[1]))
        )
        if ctx.history > 0:
            self.parts = [
                Part(
                    "history",
                    ctx.history * self.record,
                    f"last {ctx.history} actions taken (most recent first) x [present, action block one-hot "
                    f"({nb} blocks), argument / (block size - 1) (0 for another player's PICK_HAND: the card "
                    "may stay hidden, A-66), seat offset of who took it, one-hot]",
                )
            ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        hist = state.history
        if not hist:
            return
        movers = state.movers  # seat that took each move of history
        n = len(state.players)
        r = self.start
        hrec, o_arg, o_seat = self.record, self.o_arg, self.o_seat
        hf = self.feats
        private = self.private_args
        for j in range(1, min(self.history, len(hist)) + 1):
            a = hist[-j]
            block, arg = hf[a]
            on += (r, r + block, r + o_seat + (movers[-j] - seat) % n)  # present, block, mover
            if movers[-j] != seat and a in private:
                arg = 0.0
            if arg > 0.0:
                idx.append(r + o_arg)
                val.append(arg)
            r += hrec
