"""A scripted team for The Big Book of Madness: the baseline learned policies must beat.

``HeuristicAgent.act(state)`` answers whichever decision is pending (``state.current_player()``
decides; ``bbom_env.engine.pending`` names the kind). The Action-phase policy of the deciding
player, in priority order:

1. Spells that give cards now (draw first; Breeze-like discard-then-draw when worth it), paid
   only from Elements not needed for the Curses it is about to destroy or saving for.
2. Destroy Curses, most urgent first: those on the spaces the Invocation marker enters next
   (section 3.3.2), then those that already triggered (all must go before the round ends,
   section 3.3.4).
3. Give a teammate Actions (Telepathy-like Spells) when that teammate can destroy a Curse.
4. Cure Madness (in hand, or anywhere in the support pool) when it piles up; destroy Madness
   from hand (Combustion-like) when it cannot be cured. With the Phobia module, Phobias first,
   the most harmful first (``heuristic_phobias``, which also answers the crush choice).
5. Fill the support pool (Ice-like): frees hand slots for Recuperation and lets teammates pay
   with the cards (measured: +13 points of win rate on level 1 against doing it last).
6. Learn Library Spells worth their cost, acquire value-3 / value-2 cards with spare Elements,
   other Spells worth their cost, the Magician ability.

Learning and casting use one valuation (``heuristic_eval.spell_value`` = ``spell_gain`` in a
typical context): a Spell is learned only when its typical gain is positive, and cast (step 1, the
cure step, or step 9) when its gain now is positive. Effect choices use ``heuristic_eval`` (least
useful card to discard, the Element the team lacks, the most urgent Curse ...). The choice helpers
live in ``heuristic_choices``. Spells are classified by their effect ops, not by id, so any valid
pack works.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from bbom_env.engine import GameState
from bbom_env.engine.actions.base import CURE_REQ
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import MAX_POWER, MAX_SPELLS
from bbom_env.engine.model.move_args import ACQUIRABLE_VALUES, ElementValue, SpellPower
from bbom_env.engine.modifiers.hooks import adjust_cost, spell_limit, support_capacity
from bbom_env.engine.payment.cost import can_cover, funds_of

from .heuristic_choices import answer_choice, pay_move, reward_element
from .heuristic_dark_matter import dark_matter_acquire, dark_matter_first, stock_up, store_in_support
from .heuristic_eval import (
    ZERO,
    CurseInfo,
    Req,
    add_req,
    can_destroy_count,
    curses,
    destroy_plan,
    effect_value,
    elements_of,
    hand_counts,
    madness_in,
    spell_cast_req,
    spell_gain,
    spell_value,
    team_elements,
)
from .heuristic_phobias import phobia_choice, phobia_cure, phobia_move, phobias_first

_GIVE_NOW = ("draw",)  # Spells whose first op improves this turn's resources
_OWN = ("you", "each")


def _cycles(effect: tuple[dict, ...]) -> bool:
    """Discard from hand, then draw (Breeze-like): gives cards now, and cycles useless ones."""
    ops = [(op["op"], op.get("target", "you")) for op in effect]
    return any(o == "discard" and t in _OWN for o, t in ops) and any(
        o == "draw" and t in _OWN for o, t in ops
    )


# Move ids by typed argument, built once (the menu asks for them in its inner loops).
_ACTIVATE_ID = {
    (i, x): M.encode("ACTIVATE", SpellPower(i, x)) for i in range(MAX_SPELLS) for x in range(1, MAX_POWER + 1)
}
_ACQUIRE_ID = {(e, v): M.encode("ACQUIRE", ElementValue(e, v)) for e in range(4) for v in ACQUIRABLE_VALUES}


def _activate(spell: int, x: int) -> int:
    return _ACTIVATE_ID[spell, x]


@dataclass
class _Turn:
    """What the Action-phase steps of one decision share: the decider ``p``, its legal moves, the
    Element values it can pay with (``counts``: hand and reachable support pool) and the Curses it
    plans to destroy, whose Elements (``plan_req``) and the ``reserve`` no other step spends."""

    state: GameState
    p: int
    legal: list[int]
    L: set[int]
    counts: list[list[int]]
    hand: list[list[int]]
    plan: list[CurseInfo]
    plan_req: Req
    reserve: tuple[int, ...]

    def __post_init__(self) -> None:
        self.pl = self.state.players[self.p]
        self.spells = [(i, sp.spell, self.state.pack.spells[sp.spell]) for i, sp in enumerate(self.pl.spells)]
        self.mh = madness_in(self.pl.hand)
        # The Phobia module: Phobias first, the most harmful first (heuristic_phobias).
        self.cure_hand = phobias_first(
            self.state, self.p, [m for m in self.legal if M.CURE_HAND <= m < M.CURE_SUPPORT]
        )

    @cached_property
    def cure_req(self) -> tuple[int, ...]:
        return adjust_cost(self.state, self.p, "cure", None, CURE_REQ)

    @cached_property
    def pile_low(self) -> bool:
        return len(self.state.madness_pile) <= 2 * len(self.state.alive()) + 2

    def spendable(self, cost: tuple[int, ...], pool: bool = True) -> bool:
        return can_cover(self.counts if pool else self.hand, add_req(self.plan_req, self.reserve, cost))

    def castable(self, i: int, x: int) -> bool:
        return _activate(i, x) in self.L and self.spendable(spell_cast_req(self.state, self.p, i, x))

    def cast_best(self, i: int, max_x: int, gain: bool = False) -> int | None:
        """The highest affordable power up to ``max_x`` (with ``gain``: whose effect is
        worth its cost now, ``spell_gain`` > 0, the rule learning assumed)."""
        for x in range(min(max_x, 3), 0, -1):
            if self.castable(i, x) and (not gain or spell_gain(self.state, self.p, self.spells[i][1], x) > 0):
                return _activate(i, x)
        return None


class HeuristicAgent:
    """Scripted team policy. ``seed`` only breaks ties between equal options."""

    def __init__(
        self, seed: int = 0, reserve_gap: int = 0, learn_threshold: float = 0.2, ice_first: bool = True
    ) -> None:
        self.rng = random.Random(seed)
        self.reserve_gap = reserve_gap
        self.learn_threshold = learn_threshold
        self.ice_first = ice_first

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        if len(legal) == 1:
            return legal[0]
        f = state.stack[-1]
        k = f["kind"]
        if k == "menu":
            move = self._menu(state, f, legal)
        elif k == "pay":
            move = pay_move(state, f, legal)
        elif k == "reward":
            move = reward_element(state, f["player"], legal)
        else:  # the Phobia module's crush and cure choices, else the base game's answers
            choice = phobia_choice(state, f, legal)
            move = answer_choice(state, f, legal) if choice is None else choice
        if move not in legal:  # defensive: never return an illegal move
            move = M.END if M.END in legal else (M.DECLINE if M.DECLINE in legal else legal[0])
        return move

    # -- the Action phase ---------------------------------------------------------------------

    def _menu(self, state: GameState, f: dict, legal: list[int]) -> int:
        if state.log and state.log[-1][1] == "cancel":
            # A manual payment dead-ended (no irreducible completion was left, A-18) and the
            # engine cancelled it: stop rather than pick the same Action again.
            return M.END
        move = dark_matter_first(state, f, legal)  # the Dark Matter module's Dark Curses and Black Book
        if move is not None:
            return move
        t = self._turn(state, f["player"], legal)
        own_turn = f["grants"] < 0
        if own_turn:
            move = self._resources_now(t)
            if move is not None:
                return move
        # 2b. Destroy the most urgent affordable Curse.
        if t.plan:
            return M.DESTROY_CURSE + t.plan[0].arg
        if not own_turn:
            # Granted Actions (section 4.12): the teammate's hand is not refilled, so only the
            # Actions that matter now.
            if t.cure_hand and (t.mh >= 2 or t.pile_low) and t.spendable(t.cure_req):
                return t.cure_hand[0]
            return M.END
        for step in (
            self._dark_matter_stock,
            self._telepathy,
            self._phobias,
            self._move_phobia,
            self._cure,
            self._combustion,
            self._ice_first,
            self._learn_early,
            self._acquire,
            self._dark_matter,
            self._ice,
            self._worth_casting,
            self._ability,
        ):
            move = step(t)
            if move is not None:
                return move
        return M.END

    def _turn(self, state: GameState, p: int, legal: list[int]) -> _Turn:
        counts = funds_of(state, p).counts
        plan, plan_req = destroy_plan(state, p, counts)
        L = set(legal)
        plan = [ci for ci in plan if M.DESTROY_CURSE + ci.arg in L]
        hand = hand_counts(state, p)
        reserve = self._reserve(state, p, plan, plan_req, elements_of(hand), counts)
        return _Turn(state, p, legal, L, counts, hand, plan, plan_req, reserve)

    @staticmethod
    def _resources_now(t: _Turn) -> int | None:
        # 1. Resources for this turn first.
        for i, _sid, sp in t.spells:
            if sp.effect[0]["op"] in _GIVE_NOW and sp.effect[0].get("target", "you") in _OWN:
                move = t.cast_best(i, 3)
            elif _cycles(sp.effect):
                move = t.cast_best(i, 3, gain=True)
            else:
                continue
            if move is not None:
                return move
        # 2a. A Spell that destroys a Curse saves the Action's 4 Elements.
        for i, _sid, sp in t.spells:
            if sp.effect[0]["op"] == "destroy_curse" and effect_value(sp.effect, 1, t.state, t.p) > 0:
                move = t.cast_best(i, 1)
                if move is not None:
                    return move
        return None

    @staticmethod
    def _telepathy(t: _Turn) -> int | None:
        # 3. Telepathy-like: a teammate who can destroy a Curse takes Actions now.
        for i, _sid, sp in t.spells:
            if any(op["op"] == "grant_actions" for op in sp.effect):
                best = max((can_destroy_count(t.state, q) for q in t.state.alive() if q != t.p), default=0)
                if best:
                    move = t.cast_best(i, best)
                    if move is not None:
                        return move
        return None

    @staticmethod
    def _phobias(t: _Turn) -> int | None:
        # 4a. The Phobia module: cure the most harmful Phobia before any plain Madness.
        return phobia_cure(
            t.state,
            t.p,
            t.legal,
            lambda: t.spendable(t.cure_req),
            lambda: can_cover(t.counts, add_req(t.plan_req, t.cure_req)),  # the plan's Curses only
        )

    @staticmethod
    def _move_phobia(t: _Turn) -> int | None:
        # 4b. The Water Magician (both modules, V-19): move a Phobia where it hurts least.
        return phobia_move(t.state, t.p, t.legal)

    @staticmethod
    def _cure(t: _Turn) -> int | None:
        # 4. Cure: a Spring-like Spell first when it costs less than the Cure Action (section 4.5).
        if t.mh:
            for i, _sid, sp in t.spells:
                if sp.effect[0]["op"] == "cure" and sp.effect[0].get("target", "you") in _OWN:
                    move = t.cast_best(i, t.mh, gain=True)
                    if move is not None:
                        return move
        if t.cure_hand and (t.spendable(t.cure_req) or t.mh >= 3 or t.pile_low):
            return t.cure_hand[0]
        cure_support = phobias_first(t.state, t.p, [m for m in t.legal if M.CURE_SUPPORT <= m < M.ABILITY])
        if cure_support and t.spendable(t.cure_req):
            return cure_support[0]
        return None

    @staticmethod
    def _combustion(t: _Turn) -> int | None:
        # 5. Combustion-like: destroy Madness from hand when it cannot be cured.
        if t.mh:
            for i, _sid, sp in t.spells:
                op = sp.effect[0]
                if op["op"] == "destroy" and op["from"] == "hand" and op["filter"] != "element":
                    move = t.cast_best(i, t.mh)
                    if move is not None:
                        return move
        return None

    def _ice_first(self, t: _Turn) -> int | None:
        return self._ice(t) if self.ice_first else None

    def _learn_early(self, t: _Turn) -> int | None:
        # 6. Learn a good Spell (level 1 first: the top of each Library pile, section 4.2).
        return self._learn(t.state, t.p, t.L, t.spendable) if t.state.round <= 5 else None

    @staticmethod
    def _acquire(t: _Turn) -> int | None:
        # 7. Acquire: value 3 first, in the Element the team has least of.
        state = t.state
        if not (state.round <= 5 or state.marker <= 2):
            return None
        team = team_elements(state)
        for v in (3, 2):
            for e in sorted(range(4), key=lambda el: team[el]):
                m = _ACQUIRE_ID[e, v]
                if m in t.L:
                    req = [0, 0, 0, 0, 0]
                    req[e] = v
                    if t.spendable(adjust_cost(state, t.p, "acquire", e, tuple(req)), pool=False):
                        return m
        return None

    @staticmethod
    def _dark_matter(t: _Turn) -> int | None:
        return dark_matter_acquire(t.state, t.state.stack[-1], t.legal)

    @staticmethod
    def _dark_matter_stock(t: _Turn) -> int | None:
        # The Dark Matter module: Dark Matter within one payer's reach for the Dark Curses, Dark
        # Matter in hand stored in the support pool first (every teammate pays with it there).
        room = support_capacity(t.state, t.p) - len(t.pl.support)
        store = store_in_support(t.state, t.p, room)
        if store:
            for i, _sid, sp in t.spells:
                if sp.effect[0]["op"] == "place_in_support" and sp.effect[0].get("target", "you") == "you":
                    move = t.cast_best(i, store)
                    if move is not None:
                        return move
        spare = sum(sum(c) for c in t.hand) - sum(t.reserve[:4])
        return stock_up(t.state, t.state.stack[-1], t.legal, spare)

    @staticmethod
    def _worth_casting(t: _Turn) -> int | None:
        # 9. Any other Spell whose effect is worth its cost now.
        best_move, best_gain = None, 0.0
        for i, _sid, sp in t.spells:
            first = sp.effect[0]
            if (
                first["op"] == "destroy_curse"
                or (first["op"] == "place_in_support" and first.get("target", "you") == "you")
                or any(op["op"] == "grant_actions" for op in sp.effect)
            ):
                continue  # handled above, by their own rules
            for x in (1, 2, 3):
                if not t.castable(i, x):
                    break
                gain = spell_gain(t.state, t.p, _sid, x)
                if gain > best_gain:
                    best_move, best_gain = _activate(i, x), gain
        return best_move

    @staticmethod
    def _ability(t: _Turn) -> int | None:
        # 10. The Magician's activated ability, when its effect is worth using.
        if M.ABILITY in t.L:
            mag = t.state.pack.magicians[t.pl.magician]
            if effect_value(mag.activated, 1, t.state, t.p) > 0:
                return M.ABILITY
        return None

    @staticmethod
    def _ice(t: _Turn) -> int | None:
        """Ice-like: fill the support pool with spare cards (frees hand slots for Recuperation,
        section 5.1, and lets teammates pay with them, section 4.0)."""
        room = support_capacity(t.state, t.p) - len(t.pl.support)
        n_cards = sum(sum(c) for c in t.hand) + store_in_support(t.state, t.p, room)
        for i, _sid, sp in t.spells:
            if sp.effect[0]["op"] == "place_in_support" and sp.effect[0].get("target", "you") == "you":
                x_max = min(3, room, n_cards - sp.activation_cost)
                if x_max > 0:
                    move = t.cast_best(i, x_max)
                    if move is not None:
                        return move
        return None

    def _reserve(self, state, p, plan, plan_req, hand_el, counts) -> tuple[int, ...]:
        """Elements of the hand kept toward a Curse the player nearly affords (short by at most
        ``self.reserve_gap`` Elements with hand + pool). Holding more blocks the hand: kept cards
        are not redrawn at Recuperation (section 5.1)."""
        res = [0, 0, 0, 0, 0]
        if self.reserve_gap < 0:
            return tuple(res)
        pool_el = elements_of(counts)
        planned = {(c.slot, c.pos) for c in plan}
        for ci in curses(state, p):
            if (ci.slot, ci.pos) in planned or not ci.face_up:
                continue
            short = sum(max(0, ci.req[e] - (pool_el[e] - plan_req[e] - res[e])) for e in range(4))
            if short <= self.reserve_gap:
                for e in range(4):
                    res[e] = min(res[e] + ci.req[e], max(0, hand_el[e] - plan_req[e]))
        return tuple(res)

    def _learn(self, state: GameState, p: int, L: set[int], spendable) -> int | None:
        pl = state.players[p]
        current = [spell_value(state, sp.spell) for sp in pl.spells]
        full = len(pl.spells) >= spell_limit(state, p)
        best, best_v = None, self.learn_threshold
        for e in range(4):
            if M.LEARN + e not in L:
                continue
            sid = state.library[e][-1]
            v = spell_value(state, sid)
            if full and v < min(current) + 0.3:
                continue
            sp = state.pack.spells[sid]
            req = list(ZERO)
            req[e] = sp.learning_cost
            if v > best_v and spendable(adjust_cost(state, p, "learn", e, tuple(req)), False):
                best, best_v = M.LEARN + e, v
        return best
