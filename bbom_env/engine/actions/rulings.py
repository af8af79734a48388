"""Rulings on the Actions (docs/rules.md sections 4.4, 4.5, 4.10; V-31, V-32, V-36) that
read the standing modifiers of cards active in a zone (the modules' ``modifier_sources``: the Vth
Element's Phobias, section 9.2). ``actions.py`` and ``destroy_menu.py`` ask them only in a game
with modules, on the paths a modifier already takes off the base game's fast path; they never
name a module. ``cure_payable``: the Cure Action's cost under "forbid" modifiers (A-11, V-36).

* V-32, "Destroying a Curse costs you 1 additional matching Element" on a Curse with tokens: the
  extra Element may be of the Curse's Element or of a token's colour (``token_surcharge``).
* V-36, "You can no longer take an Action using <Element>": destroying a Curse of that Element, a
  Multi-Element Curse or a Curse with a token of it is forbidden (``destroy_payable``); the
  payment filter itself is ``hooks.banned_elements``.
* V-31, "You can no longer take the Cure Action (except for this card)": the Cure Action's targets
  (``cure_only_moves``, with ``hooks.cure_targets``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import (
    COST_ANY,
    ELEMENT_NAMES,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    is_madness,
)
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import Cost, _min_sum_at_least

if TYPE_CHECKING:
    from bbom_env.engine.actions.menu import MenuView
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.records import CurseOnTrack

_MADNESS_CODES = tuple(c for c in range(NUM_ELEMENT_CODES, NUM_CODES) if is_madness(c))


def other_colours(curse: CurseOnTrack, el: int) -> bool:
    """Whether the Curse carries an Element token of another colour than its Element (A-62)."""
    tokens = curse.tokens
    return any(tokens[e] for e in range(NUM_ELEMENTS) if e != el)


def token_surcharge(
    state: GameState, p: int, curse: CurseOnTrack, base: tuple[int, ...], el: int, extra: int
) -> tuple:
    """V-32: the cost of destroying an Element Curse (``base``: printed cost plus tokens, Element
    ``el``) for player p, whose standing "matching Element" surcharge ``extra``
    (``hooks.standing_surcharge``) may be paid in the Curse's Element or any token's colour on it.
    Said as the payment's one-of part (``payment.Cost.one_of``: ``extra`` Elements among those
    colours): the payer chooses the colour by the cards they pay with (auto payment: the canonical
    least-waste payment), and the cost is payable when any colour makes it so. The other modifiers
    apply as usual, then the modules' cost transforms (Spontaneous Elements, the Air conversion)."""
    req = list(hooks.apply_cost_mods(hooks.player_mods(state, p), "destroy", el, base))
    req[el] = max(0, req[el] - extra)  # the surcharge leaves the Curse's part for the one-of part
    colours = tuple(e for e in range(NUM_ELEMENTS) if e == el or curse.tokens[e])
    cost = Cost(req[0], req[1], req[2], req[3], req[4], one_of=extra, one_of_set=colours)
    return hooks.transform_cost(state, p, "destroy", cost)


class DestroyRuling:
    """The Destroy menu's reads for its slow path in a module game (``destroy_menu._general``: a
    modifier or a cost transform touches the Destroy Action), once per query: ``banned``, the
    decider's Elements barred for it (V-36), and ``surcharge``, their standing "matching
    Element" surcharge (V-32, A-49: 0 without a module source). Without a cost transform and
    when every "cost" modifier on the Action adds (none is a discount, clamped at 0: section
    4.10), ``adds`` is what they add to a base Curse's cost (Element parts, "any", and "same": to
    the Curse's Element, or to "any" for a Multi-Element Curse, as ``hooks.apply_cost_mods``
    places it) and ``tot`` the value per Element of the funds that may pay
    (``MenuView._funds``): ``destroy_payable`` then checks the cost written out."""

    __slots__ = ("banned", "surcharge", "adds", "tot", "written", "pairs", "convert")

    def __init__(self, state: GameState, view: MenuView, surcharge: int) -> None:
        self.banned = view.banned("destroy")
        self.surcharge = surcharge  # (destroy_menu.standing_destroy_surcharge: read once per query)
        self.adds: tuple[int, int, int, int, int, int] | None = None
        # ``written``: the additions, also with uniform transforms open (MenuView._action_flags:
        # ``pairs`` Spontaneous Elements, section 4.9; ``convert``, the Air conversion, V-12),
        # for destroy_menu._with_adds' closed forms (what view.can_pay answers through
        # menu_closed_forms.pays_flagged for a cost without "any" and no banned part).
        self.written: tuple[int, int, int, int, int, int] | None = None
        self.pairs, self.convert = 0, False
        written = _additions(view)
        if written is None:
            return  # a discount, clamped at 0 in its order: hooks.apply_cost_mods
        if view._transforms:
            flags = view._action_flags(state, "destroy") if view._flags is not None else None
            if flags is None:
                return  # the transforms' costs: view.can_pay (and the transforms' own closed forms)
            self.pairs = view._currency // 2 if flags[0] else 0
            self.convert = flags[1]
        else:
            self.adds = written
        self.written = written
        # The funds' values (MenuView._funds: a banned Element's cards left out, value 0), without
        # building their counts (view._fits builds them for a cost with an "any" part).
        tot, banned = view.tot, self.banned
        if banned:  # (written out: a comprehension's frame costs more than the four values)
            tot = [
                0 if 0 in banned else tot[0],
                0 if 1 in banned else tot[1],
                0 if 2 in banned else tot[2],
                0 if 3 in banned else tot[3],
            ]
        self.tot = tot


def _additions(view: MenuView) -> tuple[int, int, int, int, int, int] | None:
    """What the decider's "cost" modifiers on the Destroy Action add (Element parts, "any",
    "same"; section 4.10), or None when one is a discount (clamped at 0 in its order)."""
    if not view._cost:
        return NO_ADDS
    add = [0, 0, 0, 0, 0, 0]
    for m in view._cost_mods:
        if m["action"] != "destroy" and m["action"] != "all":
            continue
        amount, el = m["amount"], m["element"]
        if amount < 0:
            return None
        add[5 if el == "same" else COST_ANY if el == "any" else ELEMENT_NAMES.index(el)] += amount
    return (add[0], add[1], add[2], add[3], add[4], add[5])


NO_ADDS = (0, 0, 0, 0, 0, 0)  # DestroyRuling.adds without a "cost" modifier


def _base_ruling() -> DestroyRuling:
    ruling = DestroyRuling.__new__(DestroyRuling)
    ruling.banned, ruling.surcharge, ruling.adds, ruling.written = hooks.NO_BAN, 0, None, None
    return ruling


# A base game's slow path (its own modifiers): no V-36 ban, no V-32 surcharge (module rulings),
# each Curse's cost through MenuView.cost and can_pay, as printed.
BASE_RULING = _base_ruling()


def destroy_payable(
    state: GameState,
    view: MenuView,
    curse: CurseOnTrack,
    base: tuple[int, ...],
    el: int | None,
    ruling: DestroyRuling,
) -> bool:
    """Whether the decider may destroy this base Curse (``base``, ``el``: ``actions._curse_base``)
    when a modifier or a cost transform touches the Action (the Destroy menu's slow path).
    ``ruling.banned``: the Elements barred for them (V-36: a Curse of one, a Multi-Element Curse
    and a Curse with a token of one are forbidden; Dark Curses are not base Curses and stay
    allowed). ``ruling.surcharge``: their standing "matching Element" surcharge, which a token's
    colour may pay (V-32, ``token_surcharge``)."""
    tokens = curse.tokens
    banned = ruling.banned
    if banned:
        if el is None or el in banned:
            return False
        for e in banned:
            if tokens[e]:
                return False
    surcharge = ruling.surcharge
    if surcharge and el is not None:
        for e in range(NUM_ELEMENTS):  # other_colours, inline (a loop per Curse on the track)
            if tokens[e] and e != el:
                if ruling.adds is not None:
                    known = _token_payable(view, ruling, tokens, base, el, surcharge)
                    if known is not None:
                        return known
                cost = token_surcharge(state, view.p, curse, base, el, surcharge)
                return view.affordable(state, "destroy", cost)
    if ruling.adds is None:
        return view.can_pay(state, "destroy", view.cost(state, "destroy", el, base))
    return _payable_with_adds(state, view, ruling, base, el)


def _token_payable(
    view: MenuView, ruling: DestroyRuling, tokens: tuple[int, ...], base: tuple[int, ...], el: int, extra: int
) -> bool | None:
    """``token_surcharge``'s cost (V-32: ``extra`` Elements among the Curse's Element and its
    tokens' colours) against the funds, without a transform, written out; None when the cost has
    an "any" part (the payment search decides). Each card's whole value goes to one part
    (``payment_search``): a colour's cards pay its own part with the least sum at or above it
    (``_min_sum_at_least``) and what is left of them the surcharge, so the cost is payable
    exactly when every part is and those leftovers reach ``extra``."""
    adds: tuple[int, ...] = ruling.adds  # type: ignore[assignment]  # (the caller checks it)
    if adds[COST_ANY]:
        return None
    tot, counts = ruling.tot, view.counts  # (a colour is never banned: destroy_payable)
    left = 0
    for e in range(NUM_ELEMENTS):
        r = base[e] + adds[e]
        if e == el:
            r += adds[5] - extra  # the surcharge leaves the Curse's part (token_surcharge)
            if r < 0:
                r = 0
        if tot[e] < r:
            return False
        if e == el or tokens[e]:
            if r:
                n1, n2, n3 = _min_sum_at_least(r, *counts[e])  # type: ignore[misc]  # r <= tot[e]
                left += tot[e] - n1 - 2 * n2 - 3 * n3
            else:
                left += tot[e]
    return left >= extra


def _payable_with_adds(
    state: GameState, view: MenuView, ruling: DestroyRuling, base: tuple[int, ...], el: int | None
) -> bool:
    adds: tuple[int, ...] = ruling.adds  # type: ignore[assignment]  # (destroy_payable: not None)
    # view.cost and view.can_pay without a transform, written out: the modifiers' additions
    # (section 4.10) to the printed cost plus tokens, against the funds (menu.fits).
    r0, r1, r2, r3 = base[0] + adds[0], base[1] + adds[1], base[2] + adds[2], base[3] + adds[3]
    any_ = adds[COST_ANY]
    if el is None:
        any_ += adds[5]  # "same" of an Action without an Element of its own: "any"
    elif el == 0:
        r0 += adds[5]
    elif el == 1:
        r1 += adds[5]
    elif el == 2:
        r2 += adds[5]
    else:
        r3 += adds[5]
    if not any_:
        tot = ruling.tot
        return tot[0] >= r0 and tot[1] >= r1 and tot[2] >= r2 and tot[3] >= r3
    return view._fits(state, "destroy", (r0, r1, r2, r3, any_))


def cure_payable(state: GameState, view: MenuView, req: tuple[int, ...]) -> bool:
    """Whether the decider can pay the Cure Action's cost ``req`` (2 Elements of any type(s),
    A-11) when ``view.plain("cure")`` is False: ``view.can_pay`` of ``view.cost``. In a module
    game without a "cost" modifier on the Cure, its first step written out: the funds' values
    (an Element banned for the Action left out, section 4.10; V-36) summed against the "any"
    part (``menu.fits`` for an "any"-only cost); short of it, only the cost transforms may
    still pay it (Spontaneous Elements, 4.9; the Air conversion, V-12: ``view.can_pay``)."""
    if state.config.modules and (
        not view._cost or ("cure" not in view._cost_actions and "all" not in view._cost_actions)
    ):
        ft = view._forbid_tot("cure") if view._forbid else view.tot  # (-1: a banned Element's)
        total = (ft[0] if ft[0] > 0 else 0) + (ft[1] if ft[1] > 0 else 0)
        if total + (ft[2] if ft[2] > 0 else 0) + (ft[3] if ft[3] > 0 else 0) >= req[COST_ANY]:
            return True
        if not view._transforms:
            return False
    return view.can_pay(state, "cure", view.cost(state, "cure", None, req))


def cure_only_moves(state: GameState, view: MenuView, only: frozenset[int]) -> list[int]:
    """V-31: the decider's Cure Action may target only the cards in ``only`` (``hooks.cure_targets``:
    the Phobia "except for this card", in their support), paid as any Cure; other players' menus
    are not touched (they may still cure this player's Madness)."""
    hand = view.player.hand
    out = [M.CURE_HAND + c for c in _MADNESS_CODES if hand[c] and c in only]
    players = state.players
    n = len(players)
    for off in range(n):
        q = players[(view.p + off) % n]
        if q.eliminated:
            continue
        for s, slot in enumerate(q.support):
            if slot.card in only and is_madness(slot.card) and s < MAX_SUPPORT_SLOTS:
                out.append(M.CURE_SUPPORT + M.support_arg(off, s))
    return out


def modified_tot(
    base: list[int], counts: list[list[int]], cost_mods: Sequence[dict], action: str
) -> list[int] | None:
    """``MenuView.single_tot`` of an Action whose "cost" modifiers only add Elements, "same" (of
    the Action's Element) or "any" (section 4.10: the Phobias' surcharges, 9.2): the value per
    Element ``t`` such that a printed cost of n of Element e is payable exactly when
    ``t[e] >= n``, as ``can_pay_single`` answers (no transform). ``base``: the value per Element
    of the cards the decider may pay with, -1 for an Element whose Actions are forbidden
    (``MenuView._ban_tot``, V-36); ``counts``: those cards by value. None for other modifiers.

    The cost is ``r = n + same`` of e plus ``extra`` of any. Paid as ``payment.can_cover``
    does, e's part takes the least sum ``S(r) >= r`` of e's cards and the rest pays "any": so r
    is payable when ``r <= base[e]`` and ``S(r) <= free`` (all funds' value less ``extra``).
    S never decreases in r, so the payable r are those up to a largest one, and as S(r) wastes at
    most 2 (a card of value 3 at most), it lies within 2 of ``min(base[e], free)``."""
    same = extra = 0
    for m in cost_mods:
        if m["action"] == action or m["action"] == "all":
            amount, el = m["amount"], m["element"]
            if amount < 0 or (el != "same" and el != "any"):
                return None  # a discount (clamped at 0) or an Element's part: can_pay_single
            if el == "same":
                same += amount
            else:
                extra += amount
    if not extra:
        return base if not same else [v - same if v >= same else -1 for v in base]
    free = sum(v for v in base if v > 0) - extra
    out = []
    for e, v in enumerate(base):
        if v < 0 or free < 0:
            out.append(-1)
            continue
        r = v if v <= free else free  # S(base[e]) = base[e]: every card of e
        if r < v:
            c1, c2, c3 = counts[e]
            while r > 0:
                n1, n2, n3 = _min_sum_at_least(r, c1, c2, c3)  # type: ignore[misc]  # r <= base[e]
                if n1 + 2 * n2 + 3 * n3 <= free:
                    break
                r -= 1
        out.append(r - same if r >= same else -1)
    return out
