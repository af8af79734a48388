"""The Actions of the Action phase (RULES.md section 4) and paying for them (section 4.0, 10.4).

The menu frame offers every Action the decider can pay for now (DP-03); choosing one pushes a pay
frame and the Action's own frames. ``payment="auto"`` pays with the canonical least-waste payment;
``"manual"`` asks for each card (PAY_HAND / PAY_SUPPORT), then PAY_CONFIRM, or PAY_CANCEL, which
returns to the menu with nothing spent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import hooks
from . import moves as M
from .constants import (
    CURE_COST,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    is_madness,
)
from .flow import fire, seq
from .payment import (
    auto_payment,
    available_values,
    can_cover,
    completable_pick,
    covers,
    irreducible,
    source_code,
    usable_support,
)
from .resolver import done, frame, push
from .zones import check_immediate_win, remove_curse, return_madness

if TYPE_CHECKING:
    from .state import GameState

CURE_REQ = (0, 0, 0, 0, CURE_COST)  # 2 Elements of any type(s)


def _req(e: int, n: int) -> tuple[int, int, int, int, int]:
    r = [0, 0, 0, 0, 0]
    r[e] = n
    return tuple(r)  # type: ignore[return-value]


def spell_req(state: GameState, p: int, spell_id: str, x: int) -> tuple[int, ...]:
    sp = state.pack.spells[spell_id]
    return hooks.adjust_cost(state, p, "activate", sp.element, _req(sp.element, sp.activation_cost * x))


def _curse_base(state: GameState, curse: list) -> tuple[tuple[int, ...], int | None]:
    """Printed cost plus one Element of the token's colour per token (A-62), and its Element."""
    c = state.pack.curses[curse[0]]
    cost, tokens = c.cost, curse[2]
    base = (cost[0] + tokens[0], cost[1] + tokens[1], cost[2] + tokens[2], cost[3] + tokens[3], 0)
    el = None if c.type == "multi" else ("fire", "water", "earth", "air").index(c.type)
    return base, el


def curse_req(state: GameState, p: int, curse: list) -> tuple[int, ...]:
    base, el = _curse_base(state, curse)
    return hooks.adjust_cost(state, p, "destroy", el, base)


def _never(state: GameState, p: int, action: str, element: int | None) -> bool:
    return False


def _unchanged(
    state: GameState, p: int, action: str, element: int | None, req: tuple[int, ...]
) -> tuple[int, ...]:
    return req


def _fits(tot: list[int], counts: list[list[int]], req: tuple[int, ...]) -> bool:
    """Fast affordability: single-Element costs compare sums; the rest use the exact check."""
    if req[4] == 0:
        return tot[0] >= req[0] and tot[1] >= req[1] and tot[2] >= req[2] and tot[3] >= req[3]
    if req[0] == req[1] == req[2] == req[3] == 0:
        return tot[0] + tot[1] + tot[2] + tot[3] >= req[4]
    return can_cover(counts, req)


def menu_legal(state: GameState, f: dict) -> list[int]:
    """DP-03: END plus every Action whose target exists and whose cost can be paid."""
    p = f["p"]
    pl = state.players[p]
    counts = available_values(state, p)
    tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
    out = [M.END]
    # The player's modifiers are read once per call (still fresh: never kept between calls); a
    # player without "forbid" / "cost" modifiers skips those hooks (the hot path of random play).
    kinds = {m["kind"] for m in hooks.player_mods(state, p)}
    fb = hooks.forbidden if "forbid" in kinds else _never
    adj = hooks.adjust_cost if "cost" in kinds else _unchanged
    if "cost" in kinds:

        def single(action: str, el: int, n: int) -> bool:
            return _fits(tot, counts, hooks.adjust_cost(state, p, action, el, _req(el, n)))
    else:

        def single(action: str, el: int, n: int) -> bool:
            return tot[el] >= n  # what _fits says of an unmodified cost of one Element

    spells = state.pack.spells
    for i, sp in enumerate(pl.spells):
        if sp[1] or sp[2]:
            continue
        spell = spells[sp[0]]
        el = spell.element
        if fb(state, p, "activate", el):
            continue
        for x in (1, 2, 3):
            if single("activate", el, spell.activation_cost * x):
                out.append(M.ACTIVATE + i * 3 + x - 1)
            else:
                break
    for e in range(4):
        pile = state.library[e]
        if pile and not fb(state, p, "learn", e):
            if single("learn", e, spells[pile[-1]].learning_cost):
                out.append(M.LEARN + e)
    for e in range(4):
        if fb(state, p, "acquire", e):
            continue
        for v in (2, 3):
            if state.supply[e][v - 2] > 0 and single("acquire", e, v):
                out.append(M.ACQUIRE + e * 2 + v - 2)
    if not fb(state, p, "destroy", None):
        for slot, stack in enumerate(state.track):
            depth = len(stack)
            for pos in range(depth):
                curse = stack[depth - 1 - pos]
                if curse[1] >= 0:  # neutralized Curses cannot be destroyed (section 7)
                    continue
                base, el = _curse_base(state, curse)
                if _fits(tot, counts, adj(state, p, "destroy", el, base)):
                    out.append(M.DESTROY_CURSE + slot * MAX_STACK + pos)
    if not fb(state, p, "cure", None):
        req = adj(state, p, "cure", None, CURE_REQ)
        if _fits(tot, counts, req):
            for c in range(NUM_ELEMENT_CODES, NUM_CODES):
                if pl.hand[c] and is_madness(c):
                    out.append(M.CURE_HAND + c)
            n = len(state.players)
            for off in range(n):
                q = state.players[(p + off) % n]
                if q.eliminated:
                    continue
                for s, code in enumerate(q.support):
                    if is_madness(code) and s < MAX_SUPPORT_SLOTS:
                        out.append(M.CURE_SUPPORT + off * MAX_SUPPORT_SLOTS + s)
    mag = state.pack.magicians[pl.magician]
    if mag.activated and f["n"] < 0 and not pl.ability_used and not pl.ability_lost:
        out.append(M.ABILITY)  # once per turn, on the owner's own turn
    out.sort()
    return out


def run_menu(state: GameState, f: dict) -> None:
    if f["n"] == 0 or state.players[f["p"]].eliminated:
        done(state, f)  # granted Actions used up, or A-73
        return
    f["w"] = f["p"]


def answer_menu(state: GameState, f: dict, move: int) -> None:
    p = f["p"]
    if move == M.END:
        done(state, f)
        return
    if f["n"] > 0:
        f["n"] -= 1
    pl = state.players[p]
    if move < M.LEARN:
        i, x = divmod(move - M.ACTIVATE, 3)
        sid = pl.spells[i][0]
        push(
            state,
            _pay(p, spell_req(state, p, sid, x + 1), "activate", sid),
            {"k": "activate", "p": p, "s": sid, "X": x + 1},
        )
    elif move < M.ACQUIRE:
        e = move - M.LEARN
        sid = state.library[e][-1]
        req = hooks.adjust_cost(state, p, "learn", e, _req(e, state.pack.spells[sid].learning_cost))
        push(state, _pay(p, req, "learn", sid), {"k": "learn", "p": p, "e": e, "w": None})
    elif move < M.DESTROY_CURSE:
        e, v = divmod(move - M.ACQUIRE, 2)
        req = hooks.adjust_cost(state, p, "acquire", e, _req(e, v + 2))
        push(state, _pay(p, req, "acquire", f"{e}-{v + 2}"), {"k": "acquire", "p": p, "e": e, "v": v + 2})
    elif move < M.CURE_HAND:
        slot, pos = divmod(move - M.DESTROY_CURSE, MAX_STACK)
        curse = state.track[slot][len(state.track[slot]) - 1 - pos]
        push(
            state,
            _pay(p, curse_req(state, p, curse), "destroy", curse[0]),
            {"k": "destroy", "p": p, "cid": curse[0]},
        )
    elif move < M.ABILITY:
        req = hooks.adjust_cost(state, p, "cure", None, CURE_REQ)
        if move < M.CURE_SUPPORT:
            target = {"k": "cure", "p": p, "q": -1, "code": move - M.CURE_HAND}
        else:
            off, slot = divmod(move - M.CURE_SUPPORT, MAX_SUPPORT_SLOTS)
            q = (p + off) % len(state.players)
            target = {"k": "cure", "p": p, "q": q, "slot": slot, "code": state.players[q].support[slot]}
        push(state, _pay(p, req, "cure", ""), target)
    else:  # ABILITY
        pl.ability_used = True
        state.event("ability", p, pl.magician)
        push(state, seq(pl.magician, "activated", p))


frame("menu", run_menu, menu_legal, answer_menu)


# -- payment -----------------------------------------------------------------------------------


def _pay(p: int, req: tuple[int, ...], action: str, what: str) -> dict:
    return {"k": "pay", "p": p, "req": req, "picks": (), "act": action, "what": what, "w": None}


def _discard_sources(state: GameState, p: int, sources: list) -> None:
    """Paid cards go to their owners' discard piles (section 4.0); support slots close up."""
    pl = state.players[p]
    taken: dict[int, list[int]] = {}
    for src in sources:
        if src[0] == "h":
            pl.hand[src[1]] -= 1
            pl.discard[src[1]] += 1
        else:
            taken.setdefault(src[1], []).append(src[2])
    for q, slots in taken.items():
        owner = state.players[q]
        for s in sorted(slots, reverse=True):
            owner.discard[owner.support.pop(s)] += 1


def run_pay(state: GameState, f: dict) -> None:
    p = f["p"]
    if state.config.payment == "auto" or not any(f["req"]):
        sources = auto_payment(state, p, f["req"])
        codes = tuple(source_code(state, s) for s in sources)
        _discard_sources(state, p, sources)
        state.event("pay", p, f["act"], f["what"], codes)
        done(state, f)
        return
    f["w"] = p


def _picked_codes(state: GameState, f: dict) -> list[int]:
    return [source_code(state, s) for s in f["picks"]]


def legal_pay(state: GameState, f: dict) -> list[int]:
    """DP-P1..P3, P6: a card is offered if its Element still has an uncovered need (or the
    ``any`` part is uncovered) and, with irreducible payments, the payment it makes is not
    reducible (A-18)."""
    p, req = f["p"], f["req"]
    picked = _picked_codes(state, f)
    out = [M.PAY_CANCEL]
    if covers(picked, req):
        out.append(M.PAY_CONFIRM)
        if state.config.irreducible_payments:
            out.sort()
            return out
    hand = state.players[p].hand
    used_hand = [0] * NUM_CODES
    used_slots = set()
    for s in f["picks"]:
        if s[0] == "h":
            used_hand[s[1]] += 1
        else:
            used_slots.add((s[1], s[2]))
    n = len(state.players)
    # What is still available to pick: (move, code) pairs, and counts by code.
    offers = [(M.PAY_HAND + c, c) for c in range(NUM_ELEMENT_CODES) if hand[c] > used_hand[c]]
    pool = [hand[c] - used_hand[c] if c < NUM_ELEMENT_CODES else 0 for c in range(NUM_CODES)]
    for q, s, code in usable_support(state, p):
        if (q, s) not in used_slots and s < MAX_SUPPORT_SLOTS:
            offers.append((M.PAY_SUPPORT + ((q - p) % n) * MAX_SUPPORT_SLOTS + s, code))
            pool[code] += 1
    have = [0, 0, 0, 0]
    for c in picked:
        have[c // 3] += c % 3 + 1
    need_any = req[4] > 0 and not covers(picked, req)
    irreducible_only = state.config.irreducible_payments
    verdict: dict[int, bool] = {}  # equal codes get equal answers

    def useful(code: int) -> bool:
        if code in verdict:
            return verdict[code]
        e = code // 3
        ok = have[e] < req[e] or need_any
        if ok and irreducible_only:
            exact = completable_pick(picked, pool, req, code)
            if exact is None:  # mixed cost: at least no reducible payment is ever confirmed
                trial = picked + [code]
                ok = not covers(trial, req) or irreducible(trial, req)
            else:
                ok = exact
        verdict[code] = ok
        return ok

    out += [m for m, code in offers if useful(code)]
    out.sort()
    return out


def answer_pay(state: GameState, f: dict, move: int) -> None:
    p = f["p"]
    if move == M.PAY_CANCEL:
        # Nothing was spent: drop the pay frame and the Action's frames, back to the menu.
        while state.stack and state.stack[-1]["k"] != "menu":
            state.stack.pop()
        menu = state.stack[-1] if state.stack else None
        if menu is not None and menu["n"] >= 0:
            menu["n"] += 1  # a granted Action (4.12) cancelled is not used up: give it back
        state.event("cancel", p, f["act"])
        return
    if move == M.PAY_CONFIRM:
        codes = tuple(_picked_codes(state, f))
        _discard_sources(state, p, list(f["picks"]))
        state.event("pay", p, f["act"], f["what"], codes)
        done(state, f)
        return
    if move < M.PAY_SUPPORT:
        f["picks"] = f["picks"] + (("h", move - M.PAY_HAND),)
    else:
        off, s = divmod(move - M.PAY_SUPPORT, MAX_SUPPORT_SLOTS)
        f["picks"] = f["picks"] + (("s", (p + off) % len(state.players), s),)


frame("pay", run_pay, legal_pay, answer_pay)


# -- the Actions after payment -----------------------------------------------------------------


def run_activate(state: GameState, f: dict) -> None:
    """Section 4.1: pay, apply the effect with power X, then exhaust the Spell."""
    done(state, f)
    state.stat("spells_activated")
    state.event("activate", f["p"], f["s"], f["X"])
    push(state, seq(f["s"], "effect", f["p"], f["X"]), {"k": "exhaust", "p": f["p"], "s": f["s"]})


def run_exhaust(state: GameState, f: dict) -> None:
    done(state, f)
    pl = state.players[f["p"]]
    i = pl.spell_index(f["s"])
    if i >= 0:
        pl.spells[i][1] = True


def run_learn(state: GameState, f: dict) -> None:
    """Section 4.2: at the Spell limit, first discard a Spell to the box (DP-10, A-69)."""
    p, e = f["p"], f["e"]
    pl = state.players[p]
    if len(pl.spells) >= hooks.spell_limit(state, p):
        f["w"] = p
        return
    done(state, f)
    sid = state.library[e].pop()
    pl.spells.append([sid, False, ""])
    state.stat("spells_learned")
    state.event("learn", p, sid)


def legal_learn(state: GameState, f: dict) -> list[int]:
    return [M.PICK_SPELL + i for i in range(len(state.players[f["p"]].spells))]


def answer_learn(state: GameState, f: dict, move: int) -> None:
    pl = state.players[f["p"]]
    sid = pl.spells.pop(move - M.PICK_SPELL)[0]
    state.box_spells.append(sid)
    state.event("spell_to_box", f["p"], sid)


def run_acquire(state: GameState, f: dict) -> None:
    """Section 4.3: the card goes to the discard pile."""
    done(state, f)
    e, v = f["e"], f["v"]
    state.supply[e][v - 2] -= 1
    state.players[f["p"]].discard[e * 3 + v - 1] += 1
    state.event("acquire", f["p"], e, v)


def run_destroy(state: GameState, f: dict) -> None:
    """Section 4.4: remove the Curse, then the reward (DP-15)."""
    done(state, f)
    p = f["p"]
    for slot, stack in enumerate(state.track):
        for i, curse in enumerate(stack):
            if curse[0] == f["cid"]:
                remove_curse(state, slot, len(stack) - 1 - i, p)
                state.stat("curses_destroyed")
                state.event("destroy", p, f["cid"])
                check_immediate_win(state)
                if state.over:
                    return
                push(state, {"k": "reward", "p": p, "w": None})
                fire(state, p, "curse_destroyed")
                return


def _reward_options(state: GameState) -> list[int]:
    return [M.PICK_ELEMENT + e for e in range(4) if state.supply[e][0] > 0]


def run_reward(state: GameState, f: dict) -> None:
    if not _reward_options(state):  # no value-2 card left, no reward
        done(state, f)
        return
    f["w"] = f["p"]


def legal_reward(state: GameState, f: dict) -> list[int]:
    out = _reward_options(state)
    if state.config.reward_optional:
        out.append(M.DECLINE)
    return out


def answer_reward(state: GameState, f: dict, move: int) -> None:
    done(state, f)
    if move != M.DECLINE:
        e = move - M.PICK_ELEMENT
        state.supply[e][0] -= 1
        state.players[f["p"]].discard[e * 3 + 1] += 1
        state.event("reward", f["p"], e)


def run_cure(state: GameState, f: dict) -> None:
    """Section 4.5: the Madness returns to the Madness pile."""
    done(state, f)
    if f["q"] < 0:
        state.players[f["p"]].hand[f["code"]] -= 1
    else:
        # Paying may have emptied earlier slots of the same support: find the card again.
        support = state.players[f["q"]].support
        slot = f["slot"]
        if slot >= len(support) or support[slot] != f["code"]:
            slot = support.index(f["code"])
        support.pop(slot)
    return_madness(state, f["code"])
    state.event("cure", f["p"], f["q"])


frame("activate", run_activate)
frame("exhaust", run_exhaust)
frame("learn", run_learn, legal_learn, answer_learn)
frame("acquire", run_acquire)
frame("destroy", run_destroy)
frame("reward", run_reward, legal_reward, answer_reward)
frame("cure", run_cure)
