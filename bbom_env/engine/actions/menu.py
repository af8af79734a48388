"""The Action menu (docs/rules.md section 3.4, DP-03): END plus every registered Action the decider can
take now. The menu names no Action: it loops over ``ruleset(config.modules).actions`` and hands a
chosen id to the Action that owns its block (``rules.MenuAction``).

A menu frame (``frames.MenuFrame``) has the ``player`` whose menu it is and ``grants``: -1 on the
Active Player's own Action phase (unlimited Actions), else the number of granted Actions left
(section 4.12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.actions import rulings
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, frame
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.constants import COST_ANY, COST_PARTS, Element
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers import transforms as transform_seams  # (read by attribute: tests swap them)
from bbom_env.engine.modifiers.reading import ForbidOnly, ModReading
from bbom_env.engine.modifiers.reading import read as read_mods
from bbom_env.engine.modifiers.transforms import menu_flags
from bbom_env.engine.payment.closed_forms import ban_tot, distinct_held, fits, flagged_tot, pays_flagged
from bbom_env.engine.payment.cost import (
    NO_BAN,
    affordable,
    as_cost,
    available_values,
    can_cover_module,
    values_and_currency,
)

if TYPE_CHECKING:
    from bbom_env.engine.core.rules import Ruleset
    from bbom_env.engine.core.state import GameState, PlayerState
    from bbom_env.engine.model.frames import MenuFrame

Req = tuple[int, ...]
AIR = Element.AIR  # the Element of the Air conversion (V-12)


def req_of(e: int, n: int) -> Req:
    """A cost of n Elements of Element e: (fire, water, earth, air, any)."""
    r = [0] * COST_PARTS
    r[e] = n
    return tuple(r)


class MenuView:
    """What every Action's ``legal`` needs, computed once per menu query (never kept between
    queries: modifiers are read fresh, design decision 9). A player without "forbid" / "cost"
    modifiers skips those hooks (the hot path of random play). A game whose modules transform
    costs (``rules.Module.cost_transforms``: Spontaneous Elements, section 4.9) applies them in
    ``cost`` and checks the costs they make with the payment solver; a base game never does. In a
    module game the currency cards (Dark Matter) are counted with the Element cards (``currency``)."""

    __slots__ = (
        "frame", "p", "player", "counts", "tot", "_forbid", "_cost", "_cost_mods",
        "_transforms", "_currency", "_cost_actions", "_flags", "_funds_of",
        "_ban_tot", "cure_only", "_declared", "_reading", "_mods",
    )  # fmt: skip
    _reading: ModReading  # (set with a "forbid" or "cure_only" modifier)

    def __init__(self, state: GameState, f: MenuFrame, rules: Ruleset | None = None) -> None:
        self.frame = f
        p = self.p = f["player"]
        self.player: PlayerState = state.players[p]
        mods = hooks.player_mods(state, p)
        if state.config.modules:
            # The currency cards (Dark Matter, sections 4.6-4.9) counted in the same pass over the
            # support pool: a module game's Actions ask for them on most queries. The modifiers
            # read once for the query: a "no_support_payment" among them leaves the pool out (V-30).
            counts, self._currency = values_and_currency(state, p, mods)
            self._mods = mods  # (ability_lost: read only in a module game)
        else:
            counts = available_values(state, p)  # a base game (the hot path)
        self.counts = counts
        self.tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
        forbid = cure_only = False
        cost_mods: list[dict] = []
        for m in mods:  # one pass (a hot path: a pass measured cheaper than finding the reading)
            kind = m["kind"]
            if kind == "cost":
                cost_mods.append(m)
            elif kind == "forbid":
                forbid = True
            elif kind == "cure_only":
                cure_only = True
        self._forbid = forbid
        if forbid or cure_only:
            # The reading of the modifiers (mod_reading.read: banned Elements and forbidden
            # Actions worked out once per modifier tuple, found again by identity: the Magician's,
            # the Phobias' in support and their merge), and the funds per Action read once.
            modules = state.config.modules
            if modules or cure_only:
                r = self._reading = read_mods(mods)
            else:  # a base game's "forbid" (its hot path as before: a pass per question)
                r = self._reading = ForbidOnly(mods)  # type: ignore[arg-type]  # (a tuple or a list)
            if forbid:
                # by Action and by banned Elements (Actions with the same ban share them)
                self._funds_of: dict[str | frozenset[int], tuple[list[int], list[list[int]]]] = {}
                self._ban_tot = ban_tot(self.tot, r.ban_all) if modules else None
        self._cost_mods = cost_mods
        self._cost = bool(cost_mods) or cure_only
        # Whether a "cure_only" modifier is among the player's (V-31): without one,
        # hooks.cure_targets (which reads the same modifiers) answers None.
        self.cure_only = cure_only
        modules = state.config.modules
        if modules:
            # Only the transforms that may change this player's costs now (hooks.GatedTransform:
            # no pair of Dark Matter cards, no Air conversion this turn): with none left the
            # Actions take the plain path, with the same answers (the transforms would return
            # every cost unchanged, and a five-number cost the Element cards fail stays failed).
            # Without a "forbid" modifier no Element is banned for any Action (section 4.10): the
            # transforms' variants that do not read the modifiers again (GatedTransform.unbanned).
            # The gates read from the currency count (GatedTransform.min_currency) are not asked.
            # (``rules``: the ruleset of the game's modules where the caller has it: menu_legal)
            cost_transforms = (rules if rules is not None else ruleset(modules)).cost_transforms
            transforms, uniform = transform_seams.active_transforms(
                state, p, cost_transforms, not forbid, self._currency
            )
            self._transforms = transforms
            # Uniform transforms: the module flags each Action's costs get (those that need no
            # banned Element), found once per Action (hooks.GatedTransform.uniform): from what
            # the transforms declare (GatedTransform.flag), if all do, else from a probe cost.
            self._flags: dict[str, tuple[bool, bool] | None] | None = None
            if transforms and uniform:  # (_declared is read only with _flags)
                declared, unbanned = menu_flags(cost_transforms, transforms)
                self._declared = declared
                # No banned Element: each Action's flags are the declared ones, static data
                # shared by every such query (cost_transforms.menu_flags); else this query's.
                self._flags = unbanned if declared is not None and not forbid else {}
        else:
            self._transforms = ()  # a base game: no transform, no currency (a hot path)
        # The Actions a "cost" modifier names ("all": every one): the others are priced as printed;
        # and the Cure Action under a "cure_only" modifier (V-31: its targets, actions.legal_cure).
        self._cost_actions = frozenset(m["action"] for m in cost_mods) if cost_mods else frozenset()
        if cure_only:
            self._cost_actions |= _CURE

    def plain(self, action: str) -> bool:
        """True when no modifier can change what this Action costs or whether it is allowed (no
        "forbid" modifier, no "cost" modifier naming it, no "cure_only" for the Cure Action) and
        no module transforms this player's costs now (Spontaneous Elements, the Air conversion:
        ``hooks.GatedTransform``): its ``legal`` may then compare the printed cost with ``tot``
        directly (the hot path of random play; the same answers as ``can_pay_single``/``can_pay``
        give for an unmodified cost)."""
        if self._forbid or self._transforms:
            return False
        return not self._cost or (action not in self._cost_actions and "all" not in self._cost_actions)

    def single_tot(self, state: GameState, action: str) -> list[int] | None:
        """The value per Element that decides this Action's one-Element costs as printed (n of
        Element e payable exactly when ``tot[e] >= n``), or None when its ``legal`` must ask
        ``can_pay_single``: ``tot`` when ``plain``; with uniform module transforms (no banned
        Element, no "cost" modifier on the Action: ``hooks.GatedTransform.uniform``), ``tot`` plus
        a Spontaneous Element per pair of currency cards (section 4.9) and, with the Air
        conversion (V-12), the best Air card for each other Element (``_flagged_tot`` with a ban
        or a "same" modifier; ``menu_closed_forms.pays_flagged``). In a module game without
        transforms, also under "forbid" modifiers (``_ban_tot``: Elements banned for every
        Action, ``menu_closed_forms.ban_tot``; else ``ModReading.ban_tot``) and "cost" modifiers
        that add "same" or "any" Elements (the Phobias' V-36 bans and surcharges, section 9.2):
        ``action_rulings.modified_tot``."""
        if self._forbid or (self._cost and (action in self._cost_actions or "all" in self._cost_actions)):
            if self._transforms:
                return self._flagged_tot(state, action)
            if not state.config.modules:
                return None  # (a base game's modifiers: its general path, as printed)
            if not self._forbid:
                return rulings.modified_tot(self.tot, self.counts, self._cost_mods, action)
            base = self._forbid_tot(action)
            if not self._cost or (action not in self._cost_actions and "all" not in self._cost_actions):
                return base  # no "cost" modifier on the Action: modified_tot's answer
            return rulings.modified_tot(base, self._funds(state, action)[1], self._cost_mods, action)
        if not self._transforms:
            return self.tot
        flags = self._flags
        if flags is None:
            return None
        # (_action_flags' memo read inline: every Action asks on a T menu)
        known = flags[action] if action in flags else self._action_flags(state, action)
        if known is None:
            return None
        wildcards, convert = known
        bonus = self._currency // 2 if wildcards else 0
        air = 0
        if convert:
            a = self.counts[AIR]
            air = 3 if a[2] else 2 if a[1] else 1 if a[0] else 0
        tot = self.tot
        if not (bonus or air):
            return tot
        return [tot[0] + bonus + air, tot[1] + bonus + air, tot[2] + bonus + air, tot[3] + bonus]

    def _flagged_tot(self, state: GameState, action: str) -> list[int] | None:
        """``single_tot`` with uniform transforms open and a modifier on the Action: under
        "forbid" modifiers (section 4.10: a banned Element's -1, its Actions are forbidden; every
        Element's when the whole Action is, V-31) and "cost" modifiers that add or take "same"
        Elements (the Phobias' +1, 9.2; a Magician's -1, clamped at 0: n of e costs
        max(0, n + same)), the value per Element plus what the transforms add to a cost that needs
        no banned Element (``_action_flags`` with the ban: a Spontaneous Element per pair, section
        4.9; the best Air card unless Air is banned, V-12), less ``same``. None otherwise (then
        ``can_pay_single``)."""
        if self._flags is None:
            return None
        same = 0
        if self._cost and (action in self._cost_actions or "all" in self._cost_actions):
            for m in self._cost_mods:
                if m["action"] == action or m["action"] == "all":
                    if m["element"] != "same":
                        return None  # "any" or an Element's part: can_pay_single
                    same += m["amount"]
        known = self._action_flags(state, action)
        if known is None:
            return None
        base = self._forbid_tot(action) if self._forbid else self.tot
        air = self._funds(state, action)[1][AIR] if known[1] else _NO_CARDS
        return flagged_tot(base, self._currency // 2 if known[0] else 0, air, same)

    def _forbid_tot(self, action: str) -> list[int]:
        """Under "forbid" modifiers (section 4.10), the value per Element of the cards that may pay
        this Action, -1 for an Element whose cost of it is forbidden: ``_ban_tot`` (V-36 bans for
        every Action), else the reading's (the Action's own bans; every Element's -1 when the
        whole Action is forbidden)."""
        return self._ban_tot if self._ban_tot is not None else self._reading.ban_tot(action, self.tot)

    def part_budget(self, state: GameState, action: str) -> int | None:
        """For this Action's costs of Element parts without "any" (a Curse's, A-62), as printed:
        the Spontaneous Elements that may pay them (section 4.9), so that a cost is payable
        exactly when its parts' shortfalls against ``tot`` sum to at most this (each Element's
        cards pay only its part, a pair pays 1 of any part: ``can_cover_pairs``); 0 when
        ``plain``; None when its ``legal`` must ask ``can_pay`` (a modifier, a banned Element,
        a transform that is not uniform, or the Air conversion)."""
        if self._forbid:
            return None
        if self._cost and (action in self._cost_actions or "all" in self._cost_actions):
            return None
        if not self._transforms:
            return 0
        if self._flags is None:
            return None
        known = self._action_flags(state, action)
        if known is None or known[1]:
            return None
        return self._currency // 2 if known[0] else 0

    def part_air(self, state: GameState, action: str) -> int | None:
        """Where ``part_budget`` is None only because the Air conversion is open (V-12; no
        modifier touches the Action, no banned Element, uniform transforms): the Spontaneous
        Elements that may pay besides (section 4.9), so that this Action's costs of Element parts
        without "any" are payable exactly when ``menu_closed_forms.parts_payable`` with the
        conversion says so (what ``can_pay`` answers: ``menu_closed_forms.pays_flagged``); else None."""
        if self._forbid or self._flags is None:
            return None
        if self._cost and (action in self._cost_actions or "all" in self._cost_actions):
            return None
        known = self._action_flags(state, action)
        if known is None or not known[1]:
            return None
        return self._currency // 2 if known[0] else 0

    def forbidden(self, state: GameState, action: str, element: int | None) -> bool:
        return self._forbid and self._reading.forbidden(action, element)

    def cost(self, state: GameState, action: str, element: int | None, req: Req) -> Req:
        """The cost after the player's "cost" modifiers (section 4.10). The modules' cost
        transforms (``hooks.adjust_cost`` applies them next) only add ways to pay
        (``rules.Module.cost_transforms``): ``can_pay`` applies them where this cost alone fails."""
        return hooks.apply_cost_mods(self._cost_mods, action, element, req) if self._cost else req

    def _funds(self, state: GameState, action: str) -> tuple[list[int], list[list[int]]]:
        """(value per Element, counts) the player can pay this Action with: an Element banned
        for it (a "forbid" modifier with an Element, section 4.10) is left out."""
        if self._forbid:
            funds = self._funds_of.get(action)
            if funds is None:
                banned = self._reading.banned(action)
                funds = self._funds_of.get(banned) if banned else (self.tot, self.counts)
                if funds is None:
                    # available_values(state, p, banned): a banned Element's cards none (written out)
                    c, t, b = self.counts, self.tot, banned
                    counts = [_NO_CARDS if 0 in b else c[0], _NO_CARDS if 1 in b else c[1], c[2], c[3]]
                    counts[2:] = (_NO_CARDS if 2 in b else c[2], _NO_CARDS if 3 in b else c[3])
                    tot = [0 if 0 in b else t[0], 0 if 1 in b else t[1], 0 if 2 in b else t[2], t[3]]
                    tot[3] = 0 if 3 in b else t[3]
                    funds = self._funds_of[banned] = (tot, counts)
                self._funds_of[action] = funds
            return funds
        return self.tot, self.counts

    def banned(self, action: str) -> frozenset[int]:
        """``hooks.banned_elements`` of the decider for this Action, with the modifiers read once
        per query (none without a "forbid" modifier)."""
        return self._reading.banned(action) if self._forbid else NO_BAN

    def _fits(self, state: GameState, action: str, req: Req) -> bool:
        """Whether the Element cards pay an Element-only cost (five numbers)."""
        if self._forbid:
            tot, counts = self._funds(state, action)
            return fits(tot, counts, req)
        return fits(self.tot, self.counts, req)

    def can_pay(self, state: GameState, action: str, req: Req) -> bool:
        """Whether an Element cost (five numbers, after ``cost``) can be paid for this Action."""
        if self._forbid:
            tot, counts = self._funds(state, action)
            if fits(tot, counts, req):
                return True
        elif fits(self.tot, self.counts, req):  # the hot path, written out
            return True
        if not self._transforms:
            return False
        return self._transformed(state, action, req)

    def can_pay_single(self, state: GameState, action: str, element: int, n: int) -> bool:
        """Whether n Elements of one Element (before modifiers) can be paid for this Action."""
        if self._cost:
            return self.can_pay(
                state, action, hooks.apply_cost_mods(self._cost_mods, action, element, req_of(element, n))
            )
        if self._forbid:
            ok = self._funds(state, action)[0][element] >= n
        else:
            ok = self.tot[element] >= n  # what fits says of an unmodified one-Element cost
        if ok or not self._transforms:
            return ok
        return self._transformed(state, action, req_of(element, n), element)

    def _transformed(self, state: GameState, action: str, req: Req, element: int = -1) -> bool:
        """An Element cost the Element cards alone do not pay, after the modules' cost transforms
        (Spontaneous Elements, section 4.9; the Air conversion, V-12). ``element``: the cost's one
        Element part, when it has only that one (``can_pay_single``)."""
        flags = self._flags
        if flags is not None:
            known = flags[action] if action in flags else self._action_flags(state, action)
            if known is not None:
                if not self._forbid:
                    return pays_flagged(self.tot, self.counts, req, element, known, self._currency)
                banned = self.banned(action)
                # The flags hold for a cost that needs no banned Element (hooks.GatedTransform.uniform).
                if not any(req[e] for e in banned):
                    tot, counts = self._funds(state, action)
                    return pays_flagged(tot, counts, req, element, known, self._currency)
        out = req
        for transform in self._transforms:  # hooks.transform_cost, the tuple read once per query
            out = transform(state, self.p, action, out)
        return len(out) != COST_PARTS and self._can_pay_module(state, action, out, plain_checked=True)

    def _action_flags(self, state: GameState, action: str) -> tuple[bool, bool] | None:
        """The flags once per Action and query (``_flags`` is a dict here): declared, or ``_probe``."""
        flags = self._flags
        assert flags is not None
        if action in flags:
            return flags[action]
        banned = self.banned(action)
        if self._declared is not None and len(banned) <= AIR:  # an Element left: the declared flags
            declared = flags[action] = transform_seams.flags_of(self._declared, action, banned)
            return declared
        # A banned Element (section 4.10): the flags of the costs that need none of them, from a
        # probe cost of another Element (hooks.GatedTransform.uniform); every Element banned: none.
        probe = _PROBE if not banned else next((_PROBES[e] for e in range(AIR + 1) if e not in banned), None)
        known = None if probe is None else self._probe(state, action, probe)
        flags[action] = known
        return known

    def _probe(self, state: GameState, action: str, probe: Req) -> tuple[bool, bool] | None:
        """(wildcards, convert) the uniform transforms give this Action's Element costs, read
        from a probe cost; None when they give something else (then each cost is transformed)."""
        out = probe
        for transform in self._transforms:
            out = transform(state, self.p, action, out)
        if len(out) == COST_PARTS:
            return (False, False)
        cost = as_cost(out)
        # The probe cost with only its flags set (``_flagged(probe, ...)``, compared field by field).
        if cost[:COST_PARTS] != probe or cost.one_of or cost.one_of_set or cost.distinct or cost.currency:
            return None
        return (cost.wildcards, cost.convert)

    def _can_pay_module(self, state: GameState, action: str, req: tuple, plain_checked: bool = False) -> bool:
        """A cost with a module's parts. Spontaneous Elements (section 4.9) and the Air
        conversion (V-12) only add ways to pay: the Element parts alone are checked by the closed
        form first, and the exact solver runs only when they fall short (for Spontaneous
        Elements alone: and the player holds a pair of currency cards)."""
        cost = as_cost(req)
        if not (cost.one_of or cost.distinct or cost.currency):
            if not plain_checked and self._fits(state, action, tuple(cost[:COST_PARTS])):
                return True
            pairs = 0
            if cost.wildcards:
                pairs = self._currency // 2
            if not (pairs or cost.convert):
                return False  # the Element cards alone fall short (checked above)
            # The closed forms with pairs (section 4.9) and the Air conversion (V-12).
            return can_cover_module(self._funds(state, action)[1], cost, pairs)
        return self.affordable(state, action, cost)

    def affordable(self, state: GameState, action: str, req: tuple) -> bool:
        """``payment.affordable`` for this player and Action: without a "forbid" modifier (read
        once per query) no Element is banned, so the payment's ban look-up is skipped, and a
        cost counted in cards (currency cards: a Dark Curse, a Black Spell, sections 4.7, 4.8;
        cards of different Elements: Acquire Dark Matter, 4.6) is checked with this query's
        counts (``payment.affordable``'s closed form; the funds for the Action under a ban)."""
        cost = as_cost(req)
        if cost.one_of or cost[0] or cost[1] or cost[2] or cost[3] or cost[COST_ANY]:
            return affordable(state, self.p, cost, action, self.banned(action) if self._forbid else NO_BAN)
        if cost.currency and self._currency < cost.currency:
            return False
        if cost.convert:  # the Air conversion (V-12): a second Air card as a missing Element
            return not cost.distinct or distinct_held(self._funds(state, action)[1], True) >= cost.distinct
        return not cost.distinct or self.elements_held(state, action) >= cost.distinct

    def elements_held(self, state: GameState, action: str) -> int:
        """How many Elements the player holds a card of that may pay for this Action (hand and
        usable support; an Element banned for it left out): what a cost of "n cards of different
        Elements" asks (section 4.6, ``payment.affordable``'s closed form)."""
        tot = self.tot  # a card of Element e held exactly when its value tot[e] > 0
        if not self._forbid:
            return (tot[0] > 0) + (tot[1] > 0) + (tot[2] > 0) + (tot[3] > 0)
        # A banned Element's cards may not pay (the funds, _funds, are not built for this).
        b = self._reading.banned(action)
        return (
            (tot[0] > 0 and 0 not in b)
            + (tot[1] > 0 and 1 not in b)
            + (tot[2] > 0 and 2 not in b)
            + (tot[3] > 0 and 3 not in b)
        )

    def ability_lost(self, state: GameState) -> bool:
        """``hooks.ability_lost`` of the decider (V-10, V-27), its modules' sources not asked
        again when the modifiers read for this query hold no "lose_ability" one (then none of
        the temporary or sourced ones does: ``hooks.player_mods`` keeps them all)."""
        if self.player.ability_lost:
            return True
        if not state.config.modules:
            return False  # "lose_ability" is a module kind (hooks.ability_lost)
        for m in self._mods:
            if m["kind"] == "lose_ability":
                return hooks.ability_lost(state, self.p)  # (e.g. one on the Magician's own sheet)
        return False

    def currency(self, state: GameState) -> int:
        """Currency cards the player may pay with (hand and usable support: ``currency_cards``),
        counted with ``counts`` (a module game's query; a base game has none)."""
        return self._currency

    def transform(self, state: GameState, action: str, req: tuple) -> tuple:
        """``hooks.transform_cost`` with only the transforms that may change this player's
        costs now (the others would return the cost unchanged: ``hooks.GatedTransform``)."""
        for t in self._transforms:
            req = t(state, self.p, action, req)
        return req


_CURE = frozenset(("cure",))
_NO_CARDS = [0, 0, 0]  # counts of an Element whose cards may not pay (never changed)
_PROBES: tuple[Req, ...] = tuple(req_of(e, 1) for e in range(AIR + 1))  # one per Element
_PROBE: Req = _PROBES[0]  # a non-free Element cost (hooks.GatedTransform.uniform)


def menu_legal(state: GameState, f: MenuFrame) -> list[int]:
    """DP-03: END plus every Action whose target exists and whose cost can be paid."""
    rules = ruleset(state.config.modules)
    view = MenuView(state, f, rules)
    out = [M.END]
    for action in rules.actions:
        out.extend(action.legal(state, view))
    out.sort()
    return out


def run_menu(state: GameState, f: MenuFrame) -> None:
    if f["grants"] == 0 or state.players[f["player"]].eliminated:
        done(state, f)  # granted Actions used up, or A-73
        return
    f["decider"] = f["player"]


def answer_menu(state: GameState, f: dict, move: int) -> None:  # rules.MenuAction.choose takes a dict
    if move == M.END:
        done(state, f)
        return
    if f["grants"] > 0:
        f["grants"] -= 1
    modules = state.config.modules
    mv = M.decode(move, modules)
    action = ruleset(modules).action_of_block.get(mv.block)
    if action is None:
        raise AssertionError(f"menu: no registered Action owns move block {mv.block} ({mv})")
    action.choose(state, f, mv)


frame("menu", run_menu, menu_legal, answer_menu)
