"""The modules' cost transforms (``rules.Module.cost_transforms``): functions that add ways to pay
an Action's cost after its "cost" modifiers (docs/rules.md section 4.10), e.g. the Vth Element's
Spontaneous Elements (a pair of Dark Matter cards as one Element, section 4.9) and the Air
conversion (V-12). ``GatedTransform`` gives one a cheap gate and the facts the menu
(``menu.MenuView``) reads to skip it or to check costs with closed forms
(``menu_closed_forms``); ``hooks.adjust_cost`` applies them after the modifiers. A base game has
none. (``hooks`` names everything here too.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.core.rules import ModulesMemo, ruleset

if TYPE_CHECKING:
    from bbom_env.engine.cards.pack import PackMemo
    from bbom_env.engine.core.state import GameState

NO_BAN: frozenset[int] = frozenset()  # shared (hooks.NO_BAN): most payers have no banned Element


def transform_cost(state: GameState, p: int, action: str, req: tuple) -> tuple:
    """The modules' cost transforms applied to an Action's cost (after its "cost" modifiers): a
    ``GatedTransform``'s gate asked directly and, while open, its ``opened`` transform called (its
    contract: the same cost as the transform itself, one call less on every chosen Action)."""
    modules = state.config.modules
    last = _GATES.last  # (inline: every chosen Action asks)
    for gate, call in last[1] if last[0] is modules else _GATES(modules):
        if gate is None or gate(state, p):
            req = call(state, p, action, req)
    return req


def _gates_and_calls(transforms: tuple) -> tuple[tuple[Callable | None, CostTransform], ...]:
    """(gate, transform to call while it is open) per transform, in order: a ``GatedTransform``'s
    ``active`` and ``opened``; a plain transform has no gate (None) and is called itself."""
    return tuple((t.active, t.opened) if type(t) is GatedTransform else (None, t) for t in transforms)


# _gates_and_calls of a module set's cost transforms
_GATES: ModulesMemo[tuple[tuple[Callable | None, CostTransform], ...]] = ModulesMemo(
    lambda modules: _gates_and_calls(ruleset(modules).cost_transforms)
)


def transform_unbanned(state: GameState, p: int, action: str, req: tuple) -> tuple:
    """``transform_cost`` for a payer with no banned Element for any Action (no "forbid" modifier,
    section 4.10; ``hooks.adjust_cost`` has just read them): a ``GatedTransform`` left out
    without asking its gate when p's Magician is not among its ``holders`` (the Air conversion,
    V-12), else its gate asked and, while open, its ``unbanned`` transform called (the same cost
    as ``opened`` for such a payer, the modifiers not read again); a plain one called as is."""
    modules = state.config.modules
    last = _UNBANNED.last
    magician = ""
    for gate, holders, call in last[1] if last[0] is modules else _UNBANNED(modules):
        if holders is not None:  # the memo's look-up, inline
            if not magician:
                magician = state.players[p].magician
            known = holders.last
            if magician not in (known[1] if known[0] is state.pack else holders(state.pack)):  # type: ignore[operator]
                continue  # the gate is closed (GatedTransform.holders)
        if gate is None or gate(state, p):
            req = call(state, p, action, req)
    return req


# (gate, holders, the transform to call while the gate is open) per transform: transform_unbanned
Unbanned = tuple[
    tuple["Callable[[GameState, int], bool] | None", "PackMemo[frozenset[str]] | None", "CostTransform"], ...
]


def _unbanned_calls(transforms: tuple) -> Unbanned:
    """(gate, holders, transform to call while it is open) per transform, in order, for
    ``transform_unbanned``: a ``GatedTransform``'s ``active``, ``holders`` and ``unbanned``; a
    plain transform has neither (None) and is called itself."""
    return tuple(
        (t.active, t.holders, t.unbanned) if type(t) is GatedTransform else (None, None, t)
        for t in transforms
    )


# _unbanned_calls of a module set's cost transforms
_UNBANNED: ModulesMemo[Unbanned] = ModulesMemo(
    lambda modules: _unbanned_calls(ruleset(modules).cost_transforms)
)

CostTransform = Callable[["GameState", int, str, tuple], tuple]


class GatedTransform:
    """A cost transform (``rules.Module.cost_transforms``) with a cheap gate: ``active(state,
    payer)`` is False only when the transform returns every cost of that payer unchanged in this
    state, whatever the Action (a Spontaneous Elements payer without a pair of Dark Matter
    cards, section 4.9; a player without the Air conversion this turn, V-12). The menu asks the
    gate once per query and leaves the transform out while it is closed: with no transform
    left, the Actions compare printed costs with the Element cards directly (its hot path).
    Called, it is the transform itself (``transform_cost``).

    ``uniform``: for a payer whose banned Elements for an Action are B (section 4.10; most
    payers: none), the transform maps every non-free Element-only cost (five numbers) of that
    Action with no part of an Element in B to the same cost with the same module fields set,
    whatever its Element parts (Spontaneous Elements: ``wildcards``; the Air conversion:
    ``convert``, none while Air is banned). The menu then transforms one probe cost (of an Element
    not in B) per Action and query and checks the others with closed forms.

    ``opened``: the transform for a payer whose gate is open (the same answers as ``transform``
    while the state does not change, without asking the gate again): the menu asks the gate once
    per query and then calls this one (``active_transforms``); by default ``transform`` itself.

    ``unbanned``: ``opened`` for a payer with no banned Element for any Action (no "forbid"
    modifier with an Element, section 4.10): the same answers, without reading the payer's
    modifiers for a ban (the menu knows there is none: ``active_transforms(unbanned=True)``; so
    does ``hooks.adjust_cost``, which has just read them: ``transform_unbanned``); by default
    ``opened``.

    ``flag`` (``uniform`` transforms only): the module field (``"wildcards"``, ``"convert"``) it
    sets for a payer with no banned Element on every non-free Element-only cost of the Actions in
    ``flag_actions`` (None: every Action), leaving the others' costs as they are; for a payer
    whose banned Elements for the Action are B, the same on the costs with no part of B, unless
    B holds ``flag_stop`` (the Air conversion stops while Air is banned, section 4.10): declared,
    the menu reads each Action's flags from it instead of transforming a probe cost
    (``declared_flags``).

    ``min_currency``: when not 0, the gate read from the payer's currency cards (those they may pay
    with: ``payment.values_and_currency``, which the menu counts anyway): with at least this many
    the gate is open; with fewer the transform makes no cost payable that is not payable as it is
    (Spontaneous Elements: no pair of Dark Matter cards to pay with, section 4.9, even where the
    gate counts one in an eliminated player's support), so the menu may leave it out without
    asking the gate (``active_transforms(currency=...)``).

    ``holders``: when given, a per-pack memo (``cards.PackMemo``) of the Magicians whose owner
    the gate may open for (the Air conversion is a Magician's ability, V-12): for a payer whose
    Magician is not among them the gate is closed, and ``active_transforms`` and
    ``transform_unbanned`` leave the transform out without asking it (most payers of a module
    game)."""

    __slots__ = (
        "transform", "active", "uniform", "opened", "unbanned", "flag", "flag_actions", "flag_stop",
        "min_currency", "holders",
    )  # fmt: skip

    def __init__(
        self,
        transform: CostTransform,
        active: Callable[[GameState, int], bool],
        uniform: bool = False,
        opened: CostTransform | None = None,
        unbanned: CostTransform | None = None,
        flag: str | None = None,
        flag_actions: frozenset[str] | None = None,
        flag_stop: int | None = None,
        min_currency: int = 0,
        holders: PackMemo[frozenset[str]] | None = None,
    ) -> None:
        self.transform = transform
        self.active = active
        self.uniform = uniform
        self.opened = transform if opened is None else opened
        self.unbanned = self.opened if unbanned is None else unbanned
        self.flag = flag if uniform else None
        self.flag_actions = flag_actions
        self.flag_stop = flag_stop
        self.min_currency = min_currency
        self.holders = holders

    def __call__(self, state: GameState, p: int, action: str, req: tuple) -> tuple:
        return self.transform(state, p, action, req)

    def __repr__(self) -> str:
        return f"GatedTransform({self.transform.__name__}, {self.active.__name__})"


def active_transforms(
    state: GameState,
    p: int,
    transforms: tuple[CostTransform, ...],
    unbanned: bool = False,
    currency: int = -1,
) -> tuple[tuple[CostTransform, ...], bool]:
    """The transforms that may change a cost of payer p now: a ``GatedTransform`` whose gate is
    closed is left out, one whose gate is open kept as its ``opened`` transform (unwrapped, the
    gate not asked again: the caller uses them in this state only), or as its ``unbanned`` one
    when the caller knows p has no banned Element (``unbanned``: no "forbid" modifier, section
    4.10), the others as they are; and whether all those kept are ``uniform``. ``currency``
    (>= 0): p's currency cards, for the gates read from them (``GatedTransform.min_currency``:
    left out below it, kept from it on, the gate not asked)."""
    out = None  # (built for the first one kept: most menus keep none)
    uniform = True
    for t in transforms:
        if type(t) is GatedTransform:
            need = t.min_currency
            if need and currency >= 0:
                if currency < need:
                    continue
            else:
                holders = t.holders
                if holders is not None:  # the memo's look-up, inline (every menu query)
                    last = holders.last
                    ids = last[1] if last[0] is state.pack else holders(state.pack)
                    if state.players[p].magician not in ids:  # type: ignore[operator]
                        continue  # the gate is closed (GatedTransform.holders)
                if not t.active(state, p):
                    continue
            kept = t.unbanned if unbanned else t.opened
            if not t.uniform:
                uniform = False
        else:
            kept = t
            uniform = False
        if out is None:
            out = [kept]
        else:
            out.append(kept)
    return _NONE_KEPT if out is None else (tuple(out), uniform)


_NONE_KEPT: tuple[tuple[CostTransform, ...], bool] = ((), True)  # (also without any transform)


# (sets wildcards, its Actions, the Element whose ban stops it) per transform
Declared = tuple[tuple[bool, frozenset[str] | None, int | None], ...]
# (the declared flags, Action -> the flags of a payer without a banned Element): menu_flags
MenuFlags = tuple[Declared | None, dict[str, tuple[bool, bool] | None]]


def declared_flags(transforms: tuple[CostTransform, ...], kept: tuple[CostTransform, ...]) -> Declared | None:
    """The flags the kept transforms (``active_transforms`` of ``transforms``: their ``unbanned``
    or ``opened`` forms) declare (``GatedTransform.flag``): per transform, whether it sets
    ``wildcards`` (else ``convert``), the Actions it sets it for and the Element whose ban stops
    it; None when one declares none (then the menu probes). Static data of the module set,
    looked up once per kept tuple (``menu_flags``)."""
    return menu_flags(transforms, kept)[0]


def menu_flags(transforms: tuple[CostTransform, ...], kept: tuple[CostTransform, ...]) -> MenuFlags:
    """(``declared_flags``, ``unbanned``) in one look-up (``menu.MenuView``, once per query).
    ``unbanned``: Action -> ``flags_of(declared, action)``, the flags of a payer with no banned
    Element (no "forbid" modifier, section 4.10): a pure function of this static data, so one
    dict per kept tuple, filled as the menu asks (a T menu asks for most Actions), instead of a
    pass over the declared transforms per Action and query (empty while ``declared`` is None)."""
    key = (transforms, kept)
    known = _DECLARED.get(key)
    if known is not None:
        return known
    out: list[tuple[bool, frozenset[str] | None, int | None]] | None = []
    for k in kept:
        t = next(
            (t for t in transforms if type(t) is GatedTransform and (t.unbanned is k or t.opened is k)), None
        )
        if t is None or t.flag is None:
            out = None
            break
        out.append((t.flag == "wildcards", t.flag_actions, t.flag_stop))  # type: ignore[union-attr]
    pair: MenuFlags = (None if out is None else tuple(out), {})
    if len(_DECLARED) < 64:
        _DECLARED[key] = pair
    return pair


_DECLARED: dict[tuple, MenuFlags] = {}


def flags_of(declared: Declared, action: str, banned: frozenset[int] = NO_BAN) -> tuple[bool, bool]:
    """(wildcards, convert) the declared transforms (``declared_flags``) set on this Action's
    non-free Element-only costs with no part of an Element in ``banned`` (the payer's for the
    Action, section 4.10)."""
    wildcards = convert = False
    for sets_wildcards, actions, stop in declared:
        if (actions is None or action in actions) and stop not in banned:
            if sets_wildcards:
                wildcards = True
            else:
                convert = True
    return wildcards, convert
