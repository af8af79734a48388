"""The Destroy Action's menu (docs/rules.md section 4.4) in a game with modules: ``actions.legal_destroy``
hands a module game's query here (a base game keeps its own loop there). Besides the base Curses
(printed cost plus tokens, A-62), a module's Curse types cost what their ``rules.CurseRule`` says
(a Dark Curse: Dark Matter only, section 4.7), the modules' cost transforms add ways to pay
(Spontaneous Elements, 4.9; the Air conversion, V-12), and the Phobias' standing modifiers ban
Elements (V-36) and add a "matching Element" surcharge (V-32, A-49): ``action_rulings``.

Everything read once per query: the decider's standing surcharge (``standing_destroy_surcharge``:
0 without a "same" cost modifier on the Action, asked of ``hooks.standing_surcharge`` once
otherwise, not once per Dark Curse), the module Curse types of the pack (``_MODULE_TYPES``, a
per-pack memo, on the plain path; ``_open_curses`` tells them by ``CURSE_ELEMENT`` for the slow
paths) and the slow path's ``DestroyRuling``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.actions import rulings
from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.constants import ELEMENT_NAMES, MAX_STACK, NUM_ELEMENTS, NUM_TRACK_SLOTS
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.closed_forms import AIR, curse_payable

if TYPE_CHECKING:
    from bbom_env.engine.actions.menu import MenuView
    from bbom_env.engine.cards.card_types import Curse
    from bbom_env.engine.cards.pack import Pack
    from bbom_env.engine.core.rules import CurseRule
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.records import CurseOnTrack

# A Curse type's Element index; a Multi-Element Curse (or a module's Curse type) has none (4.4).
CURSE_ELEMENT: dict[str, int | None] = {"multi": None, **{name: i for i, name in enumerate(ELEMENT_NAMES)}}


def _module_types(pack: Pack) -> dict[str, str]:
    """The Curses of the pack whose type is none of the base's (a Dark Curse, section 4.7), by id."""
    return {cid: c.type for cid, c in pack.curses.items() if c.type not in CURSE_ELEMENT}


_MODULE_TYPES: PackMemo[dict[str, str]] = PackMemo(_module_types)


# The move id of a Curse's slot's top Curse (``moves.curse_arg(slot, 0)``); position pos adds pos.
_SLOT_MOVES = tuple(M.DESTROY_CURSE + slot * MAX_STACK for slot in range(NUM_TRACK_SLOTS))
_MODULE_TYPE = -1  # CURSE_ELEMENT.get's answer for a type none of the base's (a module's Curse type)
# _open_curses' items: (move id, the Curse, its card, its Element index, a module type's rule)
OpenCurse = tuple[int, "CurseOnTrack", "Curse", "int | None", "CurseRule | None"]


def _open_curses(state: GameState) -> list[OpenCurse]:
    """The Curses the Destroy Action may target: every Curse on the track but the neutralized ones
    (section 7), the top of each stack first (position 0), each as (move id, ``moves.curse_arg``;
    the Curse; its card; its Element index, None for a Multi-Element Curse or a module's Curse
    type; the module Curse type's ``rules.CurseRule``, None for a base Curse). (One pass over the
    slots, asked by the slow paths on every query: 0.81 us a call, against 1.16 for the index
    arithmetic and a per-pack map it used before.)"""
    out: list[OpenCurse] = []
    curses = state.pack.curses
    rules: dict[str, CurseRule] | None = None  # read at the first module Curse (most tracks: none)
    slot = -1
    for stack in state.track:
        slot += 1
        if not stack:
            continue
        move = _SLOT_MOVES[slot]
        for curse in reversed(stack) if len(stack) > 1 else stack:
            if curse.neutralized_at < 0:
                card = curses[curse.curse]
                el = CURSE_ELEMENT.get(card.type, _MODULE_TYPE)
                if el != _MODULE_TYPE:
                    out.append((move, curse, card, el, None))
                else:  # a module's Curse type (a Dark Curse, 4.7): its rule, if any
                    if rules is None:
                        rules = ruleset(state.config.modules).curse_rules
                    out.append((move, curse, card, None, rules.get(card.type)))
            move += 1
    return out


def standing_destroy_surcharge(state: GameState, view: MenuView) -> int:
    """``hooks.standing_surcharge(state, view.p, "destroy")``, once per query: the modules'
    sources yield only modifiers that are among the decider's (``hooks.player_mods``, which the
    view read), so without a "cost" modifier adding "same" Elements to the Destroy Action (or to
    every Action) the standing surcharge is 0 (V-32, A-49: the Phobia's text) without asking."""
    if view._cost:
        for m in view._cost_mods:
            if m["element"] == "same" and (m["action"] == "destroy" or m["action"] == "all"):
                return hooks.standing_surcharge(state, view.p, "destroy")
    return 0


def legal_destroy_modules(state: GameState, view: MenuView) -> list[int]:
    """``actions.legal_destroy`` in a game with modules (none while forbidden, section 4.10). When
    no modifier touches the Action and no transform is open (``part_budget`` 0, most queries): a
    base Curse's cost (printed plus tokens, A-62; no "any" part) against ``tot``, as
    ``menu.fits`` does for a cost without an "any" part; a module's Curse type by its rule, the
    standing surcharge 0 (``standing_destroy_surcharge``: no "cost" modifier on the Action).
    Else ``_general``."""
    # The checks of view.forbidden and view.part_budget written out (one query each, no call on
    # the plain path): "forbid" modifiers (section 4.10) go to _under_forbid; a "cost" modifier
    # on the Action or an open transform to _general (part_budget 0 exactly without either).
    modified = view._cost and ("destroy" in view._cost_actions or "all" in view._cost_actions)
    if view._forbid:
        return _under_forbid(state, view, modified)
    if modified or view._transforms:
        return _general(state, view, view.part_budget(state, "destroy"))
    out: list[int] = []
    tot = view.tot
    pack = state.pack
    last = _MODULE_TYPES.last  # the memo's look-up, inline
    mtypes: dict[str, str] = last[1] if last[0] is pack else _MODULE_TYPES(pack)  # type: ignore[assignment]
    curses = pack.curses
    rules: dict[str, CurseRule] | None = None  # read at the first module Curse (most tracks: none)
    # (the base game's loop, actions.legal_destroy: the plain path is the base game's work)
    for slot, stack in enumerate(state.track):
        depth = len(stack)
        for pos in range(depth):  # the top of the stack first (position 0)
            curse = stack[depth - 1 - pos]
            if curse.neutralized_at >= 0:
                continue  # neutralized Curses cannot be destroyed (section 7)
            cid = curse.curse
            if cid in mtypes:
                if rules is None:
                    rules = ruleset(state.config.modules).curse_rules
                rule = rules.get(mtypes[cid])
                if rule is not None:
                    # No "cost" modifier on the Action (part_budget 0): no standing surcharge
                    if _module_curse_payable(state, view, rule, curse, 0):
                        out.append(M.DESTROY_CURSE + slot * MAX_STACK + pos)  # M.curse_arg, inline
                    continue
            cost, tokens = curses[cid].cost, curse.tokens
            if (
                tot[0] >= cost[0] + tokens[0]
                and tot[1] >= cost[1] + tokens[1]
                and tot[2] >= cost[2] + tokens[2]
                and tot[3] >= cost[3] + tokens[3]
            ):
                out.append(M.DESTROY_CURSE + slot * MAX_STACK + pos)
    return out


def _under_forbid(state: GameState, view: MenuView, modified: bool) -> list[int]:
    """``legal_destroy_modules`` under "forbid" modifiers (section 4.10): none while the Action is
    forbidden; ``_banned_only`` without a "cost" modifier on it (``modified``) or an open
    transform; else ``_general`` (``part_budget``: None under a "forbid" modifier)."""
    if view._reading.forbidden("destroy", None):
        return []
    if not (modified or view._transforms):
        return _banned_only(state, view)
    return _general(state, view, None)


def _banned_only(state: GameState, view: MenuView) -> list[int]:
    """``_with_adds`` with nothing to add (no "cost" modifier on the Action: no standing
    surcharge either, A-49) and no transform open, under "forbid" modifiers (the Phobias' V-36
    bans, section 4.10), without its ``DestroyRuling``: a base Curse that needs a banned Element
    (its own, a token's; a Multi-Element Curse's any) is left out, the others' costs (printed plus
    tokens, A-62) against the funds' values (``MenuView._funds``: a banned Element's cards none)."""
    out: list[int] = []
    banned = view._reading.banned("destroy")
    # The funds' values (MenuView._funds: a banned Element's cards none), without their counts.
    t0, t1, t2, t3 = view.tot
    if banned:
        t0, t1 = (0 if 0 in banned else t0), (0 if 1 in banned else t1)
        t2, t3 = (0 if 2 in banned else t2), (0 if 3 in banned else t3)
    for move, curse, c, el, rule in _open_curses(state):
        if rule is not None:
            if _module_curse_payable(state, view, rule, curse, 0):
                out.append(move)
            continue
        tokens = curse.tokens
        if banned:
            if el is None or el in banned or (tokens != _NO_TOKENS and _any_of(tokens, banned)):
                continue  # V-36: forbidden (destroy_payable)
        cost = c.cost
        if (
            t0 >= cost[0] + tokens[0]
            and t1 >= cost[1] + tokens[1]
            and t2 >= cost[2] + tokens[2]
            and t3 >= cost[3] + tokens[3]
        ):
            out.append(move)
    return out


def _general(state: GameState, view: MenuView, budget: int | None) -> list[int]:
    """``legal_destroy_modules`` when a modifier touches the Action or a transform is open:
    ``budget``, the Spontaneous Elements that may pay (``MenuView.part_budget``), or None."""
    # The Air conversion open (V-12), no modifier: the pairs (4.9), then a closed form per Curse.
    air = view.part_air(state, "destroy") if budget is None else None
    convert = air is not None
    if convert:
        budget = air
    surcharge = 0  # (a budget: no "cost" modifier on the Action, no standing surcharge, A-49)
    ruling = None
    if budget is None:
        surcharge = standing_destroy_surcharge(state, view)
        ruling = rulings.DestroyRuling(state, view, surcharge)
        if ruling.written is not None:
            return _with_adds(state, view, ruling)
    out: list[int] = []
    tot, air_counts = view.tot, view.counts[AIR]
    for move, curse, c, _el, rule in _open_curses(state):
        if rule is not None:
            ok = _module_curse_payable(state, view, rule, curse, surcharge)
        elif budget is not None:  # A-62's cost, Spontaneous Elements (4.9), the Air conversion (V-12)
            ok = curse_payable(tot, air_counts, c.cost, curse.tokens, budget, convert)
        else:
            ok = _slow_payable(state, view, curse, ruling)  # type: ignore[arg-type]  # (budget None: set)
        if ok:
            out.append(move)
    return out


def _with_adds(state: GameState, view: MenuView, ruling: rulings.DestroyRuling) -> list[int]:
    """``_general`` when every "cost" modifier on the Action adds (``ruling.written``: the
    Phobias' surcharges, section 9.2; their V-36 bans in ``ruling.banned``) and no transform is
    open, or only uniform ones (``_flagged_payable``): ``action_rulings.destroy_payable`` per
    base Curse, written out for the Curses it settles by comparing sums (the cost with the
    additions, no "any" part, against ``ruling.tot``); a Curse whose cost has an "any" part or
    takes the V-32 surcharge in a token's colour asks it."""
    out: list[int] = []
    banned, surcharge = ruling.banned, ruling.surcharge
    adds: tuple[int, ...] = ruling.written  # type: ignore[assignment]  # (the caller checks it)
    t0, t1, t2, t3 = ruling.tot
    flagged = ruling.pairs or ruling.convert  # uniform transforms open (section 4.9, V-12)
    # The additions per Curse Element ("same" on the Curse's own part, section 4.10; index 4: a
    # Multi-Element Curse's); None where the cost has an "any" part ("same" of a Multi-Element
    # Curse is "any"): destroy_payable.
    by_el = _NO_ADDS if adds is rulings.NO_ADDS else _by_element(adds)
    for move, curse, c, el, rule in _open_curses(state):
        if rule is not None:
            if _module_curse_payable(state, view, rule, curse, surcharge):
                out.append(move)
            continue
        tokens = curse.tokens
        if banned and (el is None or el in banned or (tokens != _NO_TOKENS and _any_of(tokens, banned))):
            continue  # V-36: forbidden (destroy_payable)
        ad = by_el[4 if el is None else el]
        if ad is None or (
            surcharge and el is not None and tokens != _NO_TOKENS and _other_colours(tokens, el)
        ):  # an "any" part, or V-32's surcharge in a token's colour: the general form
            if _slow_payable(state, view, curse, ruling):
                out.append(move)
            continue
        cost = c.cost
        if flagged:
            ok = _flagged_payable(state, view, curse, cost, ad, ruling)
            if ok:
                out.append(move)
        elif (
            t0 >= cost[0] + tokens[0] + ad[0]
            and t1 >= cost[1] + tokens[1] + ad[1]
            and t2 >= cost[2] + tokens[2] + ad[2]
            and t3 >= cost[3] + tokens[3] + ad[3]
        ):
            out.append(move)
    return out


_NO_TOKENS = (0, 0, 0, 0)
_NO_ADDS = (_NO_TOKENS,) * 5  # _by_element of no additions


def _by_element(adds: tuple[int, ...]) -> tuple[tuple[int, int, int, int] | None, ...]:
    """``_with_adds``' additions per Curse Element (0-3; 4: a Multi-Element Curse)."""
    a0, a1, a2, a3, any_, same = adds
    if any_:
        return (None, None, None, None, None)
    return (
        (a0 + same, a1, a2, a3),
        (a0, a1 + same, a2, a3),
        (a0, a1, a2 + same, a3),
        (a0, a1, a2, a3 + same),
        None if same else (a0, a1, a2, a3),
    )


def _any_of(tokens: tuple[int, ...], banned: frozenset[int]) -> bool:
    """A token of a banned Element on the Curse (V-36)."""
    return any(tokens[e] for e in banned)


def _flagged_payable(
    state: GameState,
    view: MenuView,
    curse: CurseOnTrack,
    cost: tuple[int, ...],
    ad: tuple[int, ...],
    ruling: rulings.DestroyRuling,
) -> bool:
    """``_with_adds`` with uniform transforms open: the cost plus the additions (no "any" part)
    through ``menu_closed_forms.curse_payable`` with the Spontaneous Elements and the Air
    conversion (what ``view.can_pay`` answers through ``pays_flagged``); a cost with a part of
    a banned Element (section 4.10: the flags hold for costs needing none) asks the general form."""
    banned = ruling.banned
    if banned and any(cost[e] + ad[e] for e in banned):
        return _slow_payable(state, view, curse, ruling)
    air = _NO_CARDS if AIR in banned else view.counts[AIR]
    full = (cost[0] + ad[0], cost[1] + ad[1], cost[2] + ad[2], cost[3] + ad[3])
    return curse_payable(ruling.tot, air, full, curse.tokens, ruling.pairs, ruling.convert)


_NO_CARDS = [0, 0, 0]  # the counts of a banned Element's cards (MenuView._funds)


def _other_colours(tokens: tuple[int, ...], el: int) -> bool:
    """``action_rulings.other_colours``: a token of another colour than the Curse's Element (A-62)."""
    return any(tokens[e] for e in range(NUM_ELEMENTS) if e != el)


def _slow_payable(
    state: GameState, view: MenuView, curse: CurseOnTrack, ruling: rulings.DestroyRuling
) -> bool:
    """A base Curse when a modifier or a transform touches the Action:
    ``action_rulings.destroy_payable`` of its cost as ``actions._curse_base`` says (printed plus
    tokens, A-62; its Element)."""
    c = state.pack.curses[curse.curse]
    cost, tokens = c.cost, curse.tokens
    base = (cost[0] + tokens[0], cost[1] + tokens[1], cost[2] + tokens[2], cost[3] + tokens[3], 0)
    return rulings.destroy_payable(state, view, curse, base, CURSE_ELEMENT.get(c.type), ruling)


def _module_curse_payable(
    state: GameState, view: MenuView, rule: CurseRule, curse: CurseOnTrack, surcharge: int
) -> bool:
    """A module's Curse type costs what its rule says (a Dark Curse: Dark Matter only, section
    4.7; with the standing surcharge read once per query, ``CurseRule.surcharged``, A-49), paid
    through the one payment solver (``MenuView.affordable``: a closed form for a cost in cards)."""
    surcharged = rule.surcharged
    mcost = rule.cost(state, view.p, curse) if surcharged is None else surcharged(state, curse, surcharge)
    return view.affordable(state, "destroy", mcost)
