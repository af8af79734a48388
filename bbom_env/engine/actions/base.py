"""The Actions of the Action phase (docs/rules.md section 4): for each, which ids the menu offers
(``legal``), what choosing one pushes (``choose``: the payment frame, then the Action's frames) and
the frames that carry it out. ``BASE_ACTIONS`` registers them with the base game's module; the
menu (``menu.py``) only loops over registered Actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.actions import rulings
from bbom_env.engine.actions.destroy import CURSE_ELEMENT, legal_destroy_modules
from bbom_env.engine.actions.menu import MenuView, req_of
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import done, frame, push
from bbom_env.engine.core.rules import CurseRule, MenuAction, ruleset
from bbom_env.engine.model import move_args as A
from bbom_env.engine.model.constants import (
    CURE_COST,
    MAX_POWER,
    MAX_SPELLS,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    element_code,
    is_madness,
)
from bbom_env.engine.model.move_args import ACQUIRABLE_VALUES
from bbom_env.engine.model.records import CurseOnTrack, SpellSlot, with_exhausted
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.frame import pay_frame
from bbom_env.engine.play.events import fire, seq
from bbom_env.engine.play.zones import check_immediate_win, remove_curse, return_madness

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.frames import (
        AcquireFrame,
        ActivateFrame,
        CureFrame,
        DestroyFrame,
        ExhaustFrame,
        LearnFrame,
        RewardFrame,
    )

CURE_REQ = (0, 0, 0, 0, CURE_COST)  # 2 Elements of any type(s)
POWERS = tuple(range(1, MAX_POWER + 1))  # the power X a Spell is activated with (section 4.1)
# Move ids the menu yields, looked up (a hot path) and built once with moves.encode: Activate's by
# Spell index and power X - 1, Acquire's by Element and index of the value in ACQUIRABLE_VALUES.
_ACTIVATE_MOVES = tuple(
    tuple(M.encode("ACTIVATE", A.SpellPower(i, x)) for x in POWERS) for i in range(MAX_SPELLS)
)
_ACQUIRE_MOVES = tuple(
    tuple(M.encode("ACQUIRE", A.ElementValue(e, v)) for v in ACQUIRABLE_VALUES) for e in range(NUM_ELEMENTS)
)


def spell_req(state: GameState, p: int, spell_id: str, x: int) -> tuple[int, ...]:
    sp = state.pack.spells[spell_id]
    return hooks.adjust_cost(state, p, "activate", sp.element, req_of(sp.element, sp.activation_cost * x))


def _curse_base(state: GameState, curse: CurseOnTrack) -> tuple[tuple[int, ...], int | None]:
    """Printed cost plus one Element of the token's colour per token (A-62), and its Element."""
    c = state.pack.curses[curse.curse]
    cost, tokens = c.cost, curse.tokens
    base = (cost[0] + tokens[0], cost[1] + tokens[1], cost[2] + tokens[2], cost[3] + tokens[3], 0)
    return base, _CURSE_ELEMENT.get(c.type)


_CURSE_ELEMENT = CURSE_ELEMENT  # a Curse type's Element index (4.4: destroy_menu)


def curse_req(state: GameState, p: int, curse: CurseOnTrack) -> tuple:
    """The Element requirement of destroying a base Curse (4.4); a module's Curse type with a
    ``CurseRule`` costs ``destroy_cost`` instead. With a standing "matching Element" surcharge
    (``hooks.standing_surcharge``: the Phobia's, section 9.2) on an Element Curse with a token of
    another colour, V-32: the surcharge may be paid in the Curse's Element or a token's colour
    (``action_rulings.token_surcharge``)."""
    base, el = _curse_base(state, curse)
    if state.config.modules and el is not None and rulings.other_colours(curse, el):
        extra = hooks.standing_surcharge(state, p, "destroy")
        if extra:
            return rulings.token_surcharge(state, p, curse, base, el, extra)
    return hooks.adjust_cost(state, p, "destroy", el, base)


def curse_rule(state: GameState, curse: CurseOnTrack) -> CurseRule | None:
    """The module rule of a Curse whose type is a module's (a Dark Curse, section 4.7); None for
    the base's types. A base game answers without a lookup (it has no module)."""
    if not state.config.modules:
        return None
    ctype = state.pack.curses[curse.curse].type
    if ctype in _CURSE_ELEMENT:
        return None
    return ruleset(state.config.modules).curse_rules.get(ctype)


def destroy_cost(state: GameState, p: int, curse: CurseOnTrack) -> tuple:
    """What player p pays to destroy this Curse with the Destroy Action: a module's Curse type
    with a ``CurseRule`` costs what its rule says (a Dark Curse: 4 Dark Matter, section 4.7, V-07);
    any other Curse its printed cost with tokens and modifiers (``curse_req``, section 4.4)."""
    rule = curse_rule(state, curse)
    return curse_req(state, p, curse) if rule is None else rule.cost(state, p, curse)


# -- what the menu offers (DP-03) and what choosing pushes ------------------------------------


# The Actions' ``legal`` return lists (the menu extends its list with them: cheaper than resuming
# a generator per id) and, when ``view.plain(action)`` (no modifier touches the Action), compare
# the printed cost with ``view.tot`` inline instead of asking ``view.can_pay_single`` per id: the
# menu is about a third of the engine's time in random play. One-Element costs compare
# with ``view.single_tot`` (``tot`` itself when plain; with the Dark Matter module's Spontaneous
# Elements and Air conversion, ``tot`` plus what they add: section 4.9, V-12).


def legal_activate(state: GameState, view: MenuView) -> list[int]:
    """Section 4.1: a ready Spell (not exhausted, not neutralized), for each power X it can pay."""
    spells = state.pack.spells
    out: list[int] = []
    tot = view.single_tot(state, "activate")  # None: ask can_pay_single
    for i, sp in enumerate(view.player.spells):
        if sp.exhausted or sp.neutralized:
            continue
        moves = _ACTIVATE_MOVES[i]
        spell = spells[sp.spell]
        el = spell.element
        if tot is not None:
            have, cost = tot[el], spell.activation_cost
            for x in POWERS:
                if have < cost * x:
                    break  # a higher X costs more
                out.append(moves[x - 1])
            continue
        if view.forbidden(state, "activate", el):
            continue
        for x in POWERS:
            if not view.can_pay_single(state, "activate", el, spell.activation_cost * x):
                break  # a higher X costs more
            out.append(moves[x - 1])
    return out


def choose_activate(state: GameState, f: dict, mv: M.Move) -> None:
    p, x = f["player"], mv.args.x
    sid = state.players[p].spells[mv.args.spell].spell
    req = req_of(el := state.pack.spells[sid].element, state.pack.spells[sid].activation_cost * x)
    push(
        state,
        pay_frame(p, hooks.adjust_cost(state, p, "activate", el, req), "activate", sid),  # spell_req's cost
        {"kind": "activate", "player": p, "spell": sid, "x": x},
    )


def legal_learn(state: GameState, view: MenuView) -> list[int]:
    """Section 4.2: the top Spell of a Library pile."""
    spells = state.pack.spells
    tot = view.single_tot(state, "learn")  # None: ask can_pay_single
    if tot is not None:
        return [
            M.LEARN + e
            for e, pile in enumerate(state.library)
            if pile and tot[e] >= spells[pile[-1]].learning_cost
        ]
    out: list[int] = []
    for e in range(NUM_ELEMENTS):
        pile = state.library[e]
        if pile and not view.forbidden(state, "learn", e):
            if view.can_pay_single(state, "learn", e, spells[pile[-1]].learning_cost):
                out.append(M.LEARN + e)
    return out


def choose_learn(state: GameState, f: dict, mv: M.Move) -> None:
    p, e = f["player"], mv.args.element
    sid = state.library[e][-1]
    req = hooks.adjust_cost(state, p, "learn", e, req_of(e, state.pack.spells[sid].learning_cost))
    push(
        state, pay_frame(p, req, "learn", sid), {"kind": "learn", "player": p, "element": e, "decider": None}
    )


def legal_acquire(state: GameState, view: MenuView) -> list[int]:
    """Section 4.3: a value-2 or value-3 card of the supply, for its value in its Element."""
    out: list[int] = []
    tot = view.single_tot(state, "acquire")  # None: ask can_pay_single
    for e in range(NUM_ELEMENTS):
        supply, moves = state.supply[e], _ACQUIRE_MOVES[e]  # both by index of ACQUIRABLE_VALUES
        if tot is not None:
            have = tot[e]
            for j, v in enumerate(ACQUIRABLE_VALUES):
                if supply[j] > 0 and have >= v:
                    out.append(moves[j])
            continue
        if view.forbidden(state, "acquire", e):
            continue
        for j, v in enumerate(ACQUIRABLE_VALUES):
            if supply[j] > 0 and view.can_pay_single(state, "acquire", e, v):
                out.append(moves[j])
    return out


def choose_acquire(state: GameState, f: dict, mv: M.Move) -> None:
    p, e, v = f["player"], mv.args.element, mv.args.value
    req = hooks.adjust_cost(state, p, "acquire", e, req_of(e, v))
    push(
        state,
        pay_frame(p, req, "acquire", f"{e}-{v}"),
        {"kind": "acquire", "player": p, "element": e, "value": v},
    )


def legal_destroy(state: GameState, view: MenuView) -> list[int]:
    """Section 4.4: a face-up Curse on the track (neutralized Curses cannot be destroyed, section 7)."""
    if state.config.modules:
        return legal_destroy_modules(state, view)  # module Curse types, transforms, V-32, V-36, 4.10
    out: list[int] = []
    if view.forbidden(state, "destroy", None):
        return out
    budget = view.part_budget(state, "destroy")  # 0 unless a modifier touches it: then ask can_pay
    tot = view.tot
    curses = state.pack.curses
    for slot, stack in enumerate(state.track):
        depth = len(stack)
        for pos in range(depth):
            curse = stack[depth - 1 - pos]
            if curse.neutralized_at >= 0:
                continue
            if budget == 0:
                # _curse_base's cost (printed plus tokens, A-62; no "any" part) against tot, as
                # fits does for a cost without an "any" part.
                cost, tokens = curses[curse.curse].cost, curse.tokens
                if (
                    tot[0] >= cost[0] + tokens[0]
                    and tot[1] >= cost[1] + tokens[1]
                    and tot[2] >= cost[2] + tokens[2]
                    and tot[3] >= cost[3] + tokens[3]
                ):
                    out.append(M.DESTROY_CURSE + M.curse_arg(slot, pos))
                continue
            # A base game's modifiers: each Curse's cost through MenuView.cost and can_pay.
            base, el = _curse_base(state, curse)
            if rulings.destroy_payable(state, view, curse, base, el, rulings.BASE_RULING):
                out.append(M.DESTROY_CURSE + M.curse_arg(slot, pos))
    return out


def choose_destroy(state: GameState, f: dict, mv: M.Move) -> None:
    p = f["player"]
    stack = state.track[mv.args.slot]
    curse = stack[len(stack) - 1 - mv.args.pos]
    push(
        state,
        pay_frame(p, destroy_cost(state, p, curse), "destroy", curse.curse),
        {"kind": "destroy", "player": p, "curse": curse.curse},
    )


# Card codes of Madness cards (Madness and Phobias, section 9.2), for the Cure menu (a hot path).
_MADNESS_CODES = tuple(c for c in range(NUM_ELEMENT_CODES, NUM_CODES) if is_madness(c))
_IS_MADNESS = frozenset(_MADNESS_CODES)


def legal_cure(state: GameState, view: MenuView) -> list[int]:
    """Section 4.5: a Madness card in the decider's hand or in any support (A-11)."""
    out: list[int] = []
    if view.plain("cure"):
        tot = view.tot
        if tot[0] + tot[1] + tot[2] + tot[3] < CURE_COST:  # fits for an "any"-only cost
            return out
    elif view.forbidden(state, "cure", None):
        return out
    elif not rulings.cure_payable(state, view, CURE_REQ):
        return out
    elif view.cure_only and (only := view._reading.cure_targets) is not None:  # hooks.cure_targets
        return rulings.cure_only_moves(state, view, only)  # V-31 (a "cure_only" modifier)
    hand = view.player.hand
    out += [M.CURE_HAND + c for c in _MADNESS_CODES if hand[c]]
    players = state.players
    n = len(players)
    for off in range(n):
        q = players[(view.p + off) % n]
        if q.eliminated or not q.support:
            continue
        for s, slot in enumerate(q.support):
            if slot.card in _IS_MADNESS and s < MAX_SUPPORT_SLOTS:
                out.append(M.CURE_SUPPORT + M.support_arg(off, s))
    return out


def choose_cure(state: GameState, f: dict, mv: M.Move) -> None:
    p = f["player"]
    req = hooks.adjust_cost(state, p, "cure", None, CURE_REQ)
    if mv.block == "CURE_HAND":
        target = {"kind": "cure", "player": p, "owner": -1, "code": mv.args.code}
    elif mv.block == "CURE_SUPPORT":
        q = (p + mv.args.offset) % len(state.players)
        slot = mv.args.slot
        target = {
            "kind": "cure",
            "player": p,
            "owner": q,
            "slot": slot,
            "code": state.players[q].support[slot].card,
        }
    else:
        raise AssertionError(f"cure: unexpected move block {mv.block}")
    push(state, pay_frame(p, req, "cure", ""), target)


def legal_ability(state: GameState, view: MenuView) -> list[int]:
    """A Magician's activated ability: once per turn, on the owner's own turn (A-35)."""
    pl = view.player
    if not pl.ability_used and view.frame["grants"] < 0 and state.pack.magicians[pl.magician].activated:
        if not view.ability_lost(state):  # V-10: also while a lose_ability modifier lasts (hooks)
            return [M.ABILITY]
    return []


def choose_ability(state: GameState, f: dict, mv: M.Move) -> None:
    p = f["player"]
    pl = state.players[p]
    pl.ability_used = True
    state.event("ability", p, pl.magician)
    push(state, seq(pl.magician, "activated", p))


BASE_ACTIONS: tuple[MenuAction, ...] = (
    MenuAction("activate", ("ACTIVATE",), legal_activate, choose_activate),
    MenuAction("learn", ("LEARN",), legal_learn, choose_learn),
    MenuAction("acquire", ("ACQUIRE",), legal_acquire, choose_acquire),
    MenuAction("destroy", ("DESTROY_CURSE",), legal_destroy, choose_destroy),
    MenuAction("cure", ("CURE_HAND", "CURE_SUPPORT"), legal_cure, choose_cure),
    MenuAction("ability", ("ABILITY",), legal_ability, choose_ability),
)
# Actions a payment can be for (the "act" of a pay frame; the observation one-hots it).
PAY_ACTIONS: tuple[str, ...] = ("activate", "learn", "acquire", "destroy", "cure")


# -- the Actions after payment -----------------------------------------------------------------


def run_activate(state: GameState, f: ActivateFrame) -> None:
    """Section 4.1: pay, apply the effect with power X, then exhaust the Spell."""
    done(state, f)
    state.stat("spells_activated")
    state.event("activate", f["player"], f["spell"], f["x"])
    push(
        state,
        seq(f["spell"], "effect", f["player"], f["x"]),
        {"kind": "exhaust", "player": f["player"], "spell": f["spell"]},
    )


def run_exhaust(state: GameState, f: ExhaustFrame) -> None:
    done(state, f)
    pl = state.players[f["player"]]
    i = pl.spell_index(f["spell"])
    if i >= 0:
        pl.spells[i] = with_exhausted(pl.spells[i], True)


def run_learn(state: GameState, f: LearnFrame) -> None:
    """Section 4.2: at the Spell limit, first discard a Spell to the box (DP-10, A-69)."""
    p, e = f["player"], f["element"]
    pl = state.players[p]
    if len(pl.spells) >= hooks.spell_limit(state, p):
        f["decider"] = p
        return
    done(state, f)
    sid = state.library[e].pop()
    pl.spells.append(SpellSlot(sid))
    state.stat("spells_learned")
    state.event("learn", p, sid)


def legal_spell_to_box(state: GameState, f: LearnFrame) -> list[int]:
    return [M.PICK_SPELL + i for i in range(len(state.players[f["player"]].spells))]


def answer_spell_to_box(state: GameState, f: LearnFrame, move: int) -> None:
    pl = state.players[f["player"]]
    sid = pl.spells.pop(move - M.PICK_SPELL).spell
    state.box_spells.append(sid)
    state.event("spell_to_box", f["player"], sid)


def run_acquire(state: GameState, f: AcquireFrame) -> None:
    """Section 4.3: the card goes to the discard pile."""
    done(state, f)
    e, v = f["element"], f["value"]
    state.supply[e][v - 2] -= 1
    state.players[f["player"]].discard[element_code(e, v)] += 1
    state.event("acquire", f["player"], e, v)


def run_destroy(state: GameState, f: DestroyFrame) -> None:
    """Section 4.4: remove the Curse, then the reward (DP-15)."""
    done(state, f)
    p = f["player"]
    for slot, stack in enumerate(state.track):
        for i, curse in enumerate(stack):
            if curse.curse == f["curse"]:
                rule = curse_rule(state, curse)
                remove_curse(state, slot, len(stack) - 1 - i, p)  # to its own pile's bottom
                state.stat("curses_destroyed")
                if rule is not None and rule.stat:
                    state.stat(rule.stat)  # a module's own count (dark_curses_destroyed)
                state.event("destroy", p, f["curse"])
                check_immediate_win(state)
                if state.over:
                    return
                push(state, {"kind": "reward", "player": p, "decider": None})
                fire(state, p, "curse_destroyed")
                return


def _reward_options(state: GameState) -> list[int]:
    # A value-2 card of the Element supply, whatever Curse was destroyed: a Dark Curse's
    # reward too, never a Dark Matter card (A-48, section 4.4: it has no value-2 pile here).
    return [M.PICK_ELEMENT + e for e in range(NUM_ELEMENTS) if state.supply[e][0] > 0]


def run_reward(state: GameState, f: RewardFrame) -> None:
    if not _reward_options(state):  # no value-2 card left, no reward
        done(state, f)
        return
    f["decider"] = f["player"]


def legal_reward(state: GameState, f: RewardFrame) -> list[int]:
    out = _reward_options(state)
    if state.config.reward_optional:
        out.append(M.DECLINE)
    return out


def answer_reward(state: GameState, f: RewardFrame, move: int) -> None:
    done(state, f)
    if move != M.DECLINE:
        e = move - M.PICK_ELEMENT
        state.supply[e][0] -= 1
        state.players[f["player"]].discard[element_code(e, 2)] += 1  # a value-2 card
        state.event("reward", f["player"], e)


def run_cure(state: GameState, f: CureFrame) -> None:
    """Section 4.5: the Madness returns to the Madness pile."""
    done(state, f)
    if f["owner"] < 0:
        state.players[f["player"]].hand[f["code"]] -= 1
    else:
        # Paying may have emptied earlier slots of the same support: find the card again.
        owner = state.players[f["owner"]]
        slot = f["slot"]
        if slot >= len(owner.support) or owner.support[slot].card != f["code"]:
            slot = owner.support_cards().index(f["code"])
        owner.take_support(slot)
    return_madness(state, f["code"])
    state.event("cure", f["player"], f["owner"])


frame("activate", run_activate)
frame("exhaust", run_exhaust)
frame("learn", run_learn, legal_spell_to_box, answer_spell_to_box)
frame("acquire", run_acquire)
frame("destroy", run_destroy)
frame("reward", run_reward, legal_reward, answer_reward)
frame("cure", run_cure)
