"""The seat view: what the rules ask of one seat in one state, read once (docs/rules.md sections
4.0, 4.10, 4.11).

A ``SeatView`` holds the seat's modifiers merged from every source (the Magician's sheet unless
the ability is lost, the temporary ones, the modules' sourced ones: ``hooks.player_mods``), the
Elements banned and the Actions forbidden by them, the cost of an Action after its "cost"
modifiers and the modules' cost transforms (``hooks.adjust_cost``'s answer), and the funds the
seat may pay with. "Can this seat pay this Action now?" is ``view.can_pay``, which asks the one
solver (``payment/solver.py``).

``seat_view(state, p)`` keeps the view on the state while a decision waits
(``GameState.cache_views``, never saved): the Action menu, the payment decision and the
observation read the same one; every move drops it, as it drops the legal moves. Between
decisions (while effects resolve) a view is made fresh on each request, so no derived fact
outlives a change of the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import Cost, as_cost, pool_funds
from bbom_env.engine.payment.solver import Funds, can_pay

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

Req = tuple[int, ...]
NO_BAN: frozenset[int] = hooks.NO_BAN


class SeatView:
    """Player ``p``'s standing facts in ``state`` (see the module doc). ``frame``: the pending
    decision's frame when the view was made for it (the Action menu reads its ``grants``)."""

    __slots__ = (
        "state", "p", "player", "frame", "mods", "funds_all", "_cost_mods", "_forbid", "_funds",
        "_lost", "_transforms", "_plain", "_costed",
    )  # fmt: skip

    def __init__(self, state: GameState, p: int) -> None:
        self.state = state
        self.p = p
        self.player = state.players[p]
        self.frame: Any = state.stack[-1] if state.stack else None  # (None once the game is over)
        mods = hooks.player_mods(state, p)
        if type(mods) is not tuple and type(mods) is not list:
            mods = tuple(mods)  # any iterable a module's source yields: read once
        self.mods = mods
        cost_mods: list[dict] | None = None
        forbid = no_pool = False
        for m in mods:
            kind = m["kind"]
            if kind == "cost":
                if cost_mods is None:
                    cost_mods = []
                cost_mods.append(m)
            elif kind == "forbid":
                forbid = True
            elif kind == "no_support_payment":
                no_pool = True  # V-30: the support pool does not pay for this player
        self._cost_mods = cost_mods
        # The Actions a "cost" modifier names ("all": every one); the others cost as printed.
        self._costed = None if cost_mods is None else frozenset(m["action"] for m in cost_mods)
        self._forbid = forbid
        self._funds: dict[frozenset[int], Funds] | None = None
        self._lost: bool | None = None
        self.funds_all = pool_funds(state, p, no_pool)  # the cards it may pay with, no ban
        # The modules' cost transforms that apply to this seat now (section 4.9, V-12).
        rules = state.rules.cost_transforms
        self._transforms = [t.transform for t in rules if t.applies(state, p)] if rules else None
        # The value per Element that decides a cost without an "any" part when no Element is
        # banned and no transform applies (``can_pay``: the solver's first closed form).
        self._plain = None if forbid or self._transforms else self.funds_all.tot

    @property
    def currency(self) -> int:
        """Currency cards (Dark Matter) the seat may pay with: hand and usable support pool."""
        return self.funds_all.currency

    @property
    def ability_lost(self) -> bool:
        """``hooks.ability_lost`` (V-10, V-27)."""
        if self._lost is None:
            self._lost = hooks.ability_lost(self.state, self.p)
        return self._lost

    @property
    def limits(self) -> tuple[int, int]:
        """(support capacity, Spell limit) with the seat's modifiers (``hooks.limits_of``)."""
        return hooks.limits_of(self.state, self.p, self.mods)

    def forbidden(self, action: str, element: int | None) -> bool:
        """Whether a "forbid" modifier stops this Action (its whole, or its own Element; 4.10)."""
        return self._forbid and hooks.forbidden_by(self.mods, action, element)

    def banned(self, action: str) -> frozenset[int]:
        """Elements whose cards may not pay for this Action (section 4.10)."""
        return hooks.banned_by(self.mods, action) if self._forbid else NO_BAN

    def funds(self, action: str) -> Funds:
        """The cards that may pay for this Action: a banned Element's left out (section 4.10)."""
        if not self._forbid:
            return self.funds_all
        banned = hooks.banned_by(self.mods, action)
        if not banned:
            return self.funds_all
        known = self._funds
        if known is None:
            known = self._funds = {}
        funds = known.get(banned)
        if funds is None:
            funds = known[banned] = self.funds_all.without(banned)
        return funds

    def transformed(self, action: str, req: Req) -> Req:
        """``req`` after the modules' cost transforms that apply to the seat now (Spontaneous
        Elements, 4.9; the Air conversion, V-12)."""
        if self._transforms:
            banned = self.banned(action)
            for transform in self._transforms:
                req = transform(self.state, self.p, action, req, banned)
        return req

    def cost(self, action: str, element: int | None, req: Req) -> Req:
        """What this Action costs the seat: ``hooks.adjust_cost``'s answer (the "cost" modifiers,
        then the modules' cost transforms; ``element``: the Action's own, for "same": 4.10)."""
        costed = self._costed
        if costed is not None and (action in costed or "all" in costed):
            req = hooks.apply_cost_mods(self._cost_mods, action, element, req)  # type: ignore[arg-type]
        return self.transformed(action, req)

    def can_pay(self, action: str, element: int | None, req: Req) -> bool:
        """Whether the seat can pay this Action's printed cost ``req`` (five numbers; a printed
        ``Cost``: ``payable(action, cost(...))``) now: its
        ``cost``, asked of the one solver with the seat's ``funds`` for the Action. The cost
        transforms only add ways to pay (``rules.CostTransform``), so a cost the cards pay as
        modified is payable without them: the solver's closed form answers it first."""
        costed = self._costed
        if costed is not None and (action in costed or "all" in costed):
            req = hooks.apply_cost_mods(self._cost_mods, action, element, req)  # type: ignore[arg-type]
        tot = self._plain
        if tot is not None and not req[4]:  # can_pay's first case (every menu asks it many times)
            return tot[0] >= req[0] and tot[1] >= req[1] and tot[2] >= req[2] and tot[3] >= req[3]
        funds = self.funds(action) if self._forbid else self.funds_all
        if can_pay(funds, req):
            return True
        if not self._transforms:
            return False
        cost = self.transformed(action, req)
        return cost is not req and can_pay(funds, as_cost(cost))

    def payable(self, action: str, cost: tuple) -> bool:
        """Whether the seat's funds for this Action pay ``cost`` (already adjusted)."""
        if len(cost) != 5 and type(cost) is not Cost:
            cost = as_cost(cost)  # (a cost's fields as a plain tuple: "cost" modifiers give one)
        return can_pay(self.funds(action) if self._forbid else self.funds_all, cost)


def seat_view(state: GameState, p: int) -> SeatView:
    """Player p's view in this state: the one kept while the pending decision waits, else a new
    one (kept when a decision waits: see the module doc)."""
    views = state.cache_views
    if views is not None:
        view = views.get(p)
        if view is not None:
            return view
    view = SeatView(state, p)
    stack = state.stack
    if stack and stack[-1].get("decider") is not None:
        if views is None:
            views = state.cache_views = {}
        views[p] = view
    return view
