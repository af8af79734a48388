"""Op-level postconditions of the board, Spell and standing-effect ops (docs/rules.md sections 4.10-4.12,
7; A-19, A-33, A-43, A-62), and ``CHECKS``, the table of every op's check. See ``op_checks.py``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, MADNESS, SLOTS_OF_SPACE
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers.hooks import has_mod

from .op_checks import (
    Errors,
    OpCtx,
    capacity,
    check_cure,
    check_destroy,
    check_discard,
    check_discard_deck_top,
    check_draw,
    check_exchange,
    check_gain,
    check_place,
    check_put_on_top,
    check_receive,
    check_reshuffle,
    check_upgrade,
    curse_at,
    curses_view,
    player_view,
    vec,
)


def _spell_op(
    ok: Callable[[list], bool], changed: Callable[[list, list], bool], removes: bool = False
) -> Callable[[OpCtx], Errors]:
    def check(ctx: OpCtx) -> Errors:
        errs = []
        for q in ctx.targets():
            bs, as_ = ctx.before.players[q].spells, ctx.after.players[q].spells
            k = min(ctx.n, sum(1 for sp in bs if ok(sp)))
            if removes:
                lost = Counter(sp.spell for sp in bs) - Counter(sp.spell for sp in as_)
                boxed = Counter(ctx.after.box_spells) - Counter(ctx.before.box_spells)
                if sum(lost.values()) != k or boxed != lost:
                    errs.append(f"seat {q}: lost {dict(lost)} (boxed {dict(boxed)}), expected {k} Spells")
                continue
            diff = [i for i, (x, y) in enumerate(zip(bs, as_, strict=True)) if x != y]
            if [x.spell for x in bs] != [y.spell for y in as_] or len(diff) != k:
                errs.append(f"seat {q}: Spells {bs} -> {as_}, expected {k} changed")
            if any(not ok(bs[i]) or not changed(bs[i], as_[i]) for i in diff):
                errs.append(f"seat {q}: wrong Spell change {bs} -> {as_}")
        return errs

    return check


def check_neutralize_spell(ctx: OpCtx) -> Errors:
    d = ctx.op["duration"]
    return _spell_op(
        lambda sp: not sp.neutralized, lambda x, y: y.neutralized == d and y.exhausted == x.exhausted
    )(ctx)


def check_neutralize_curse(ctx: OpCtx) -> Errors:
    b, a = curses_view(ctx.before), curses_view(ctx.after)
    face_up = sum(1 for slot in b for c in slot if c.face_up)
    k = min(ctx.n, face_up)
    changed = [(x, y) for sb, sa in zip(b, a, strict=True) for x, y in zip(sb, sa, strict=True) if x != y]
    if [len(s) for s in b] != [len(s) for s in a] or len(changed) != k:
        return [f"track {b} -> {a}: expected {k} Curses neutralized"]
    if any(
        not x.face_up
        or y.neutralized_at != ctx.after.turn
        or x._replace(neutralized_at=0) != y._replace(neutralized_at=0)
        for x, y in changed
    ):
        return [f"wrong neutralization {changed} (turn {ctx.after.turn}, A-19)"]
    return []


def check_destroy_curse(ctx: OpCtx) -> Errors:
    b, a, errs = ctx.before, ctx.after, []
    face_up = [c for slot in b.track for c in slot if c.face_up]
    gone = Counter(c.curse for s in b.track for c in s) - Counter(c.curse for s in a.track for c in s)
    k = min(ctx.n, len(face_up))
    if sum(gone.values()) != k:
        errs.append(f"{dict(gone)} destroyed, expected {k} face-up Curses")
    if any(cid not in {c.curse for c in face_up} for cid in gone):
        errs.append("a neutralized Curse was destroyed (section 7)")
    for cid in gone:
        pile = a.curse_piles[b.pack.curses[cid].type]
        if cid not in pile[: len(gone)]:
            errs.append(f"{cid} not at the bottom of its pile (A-08)")
    under = sum(c.madness for c in face_up if c.curse in gone)
    rewards = [d for d in ctx.decs if d.copy["kind"] == "reward" and d.move != M.DECLINE]
    got = vec(a.players[ctx.c].discard) - vec(b.players[ctx.c].discard)
    want = Counter({MADNESS: under}) + Counter(3 * (d.move - M.PICK_ELEMENT) + 1 for d in rewards)
    if +want != got:
        errs.append(f"destroyer's discard got {dict(got)}, expected {dict(want)} (reward, A-43 Madness)")
    n_offers = len([d for d in ctx.decs if d.copy["kind"] == "reward"])
    if ctx.op["reward"] != bool(n_offers) and k:
        errs.append(f"reward={ctx.op['reward']} but {n_offers} reward choices were offered")
    return errs


def check_add_tokens(ctx: OpCtx) -> Errors:
    o, b, a, errs = ctx.op, ctx.before, ctx.after, []
    pool = list(b.tokens)
    want = [[list(c.tokens) for c in slot] for slot in b.track]
    if o["curse"] == "slot":  # the top Curse of that slot
        slot = o["slot"]
        targets = [(slot, len(b.track[slot]) - 1)] if 0 <= slot < 5 and b.track[slot] else []
    elif o["curse"] == "all":
        targets = [(s, i) for s in range(5) for i in range(len(b.track[s]))]
    else:  # one chosen Curse gets them all
        targets = [curse_at(b, d.move) for d in ctx.picks()]
    random_el = []
    for s, i in targets:
        ctype = b.pack.curses[b.track[s][i].curse].type
        el = o["element"] if o["element"] in ELEMENT_NAMES else ctype if o["element"] == "curse" else ""
        el = "" if el == "multi" else el
        for _ in range(ctx.n):
            if el:
                e = ELEMENT_NAMES.index(el)
                if pool[e] == 0:
                    break
                pool[e] -= 1
                want[s][i][e] += 1
            elif sum(pool):  # at random from the pool: only the count is known
                pool[0] -= 1
                want[s][i][0] += 1
                random_el.append((s, i))
    got = [[list(c.tokens) for c in slot] for slot in a.track]
    for s in range(5):
        for i in range(len(want[s])):
            if sum(want[s][i]) != sum(got[s][i]) or (not random_el and want[s][i] != got[s][i]):
                before = b.track[s][i].tokens
                errs.append(f"Curse {s}/{i}: tokens {before} -> {tuple(got[s][i])}, expected {want[s][i]}")
            if any(
                g < w
                for g, w in zip(
                    got[s][i],
                    [x if (s, i) not in random_el else 0 for x in b.track[s][i].tokens],
                    strict=True,
                )
            ):
                errs.append(f"Curse {s}/{i} lost tokens while adding")
    if o["curse"] == "choose" and ctx.n and not ctx.picks() and any(b.track):
        errs.append("no Curse was chosen for the tokens")
    return errs


def check_remove_tokens(ctx: OpCtx) -> Errors:
    b, a = ctx.before, ctx.after
    if ctx.op["curse"] == "all":
        targets = {(s, i) for s in range(5) for i in range(len(b.track[s]))}
    else:
        targets = {curse_at(b, d.move) for d in ctx.picks()}
        if not targets and any(any(c.tokens) for slot in b.track for c in slot):
            return ["no Curse with tokens was chosen"]
    errs = []
    for s in range(5):
        for i, cur in enumerate(b.track[s]):
            k = min(ctx.n, sum(cur.tokens)) if (s, i) in targets else 0
            after = a.track[s][i].tokens
            if sum(cur.tokens) - sum(after) != k or any(
                x < y for x, y in zip(cur.tokens, after, strict=True)
            ):
                errs.append(f"Curse {s}/{i}: tokens {cur.tokens} -> {after}, expected {k} removed")
    return errs


def check_move_marker(ctx: OpCtx) -> Errors:
    b, a, steps = ctx.before, ctx.after, ctx.op["steps"]
    new_log = a.log[len(b.log) :]
    trig = [e[2] for e in new_log if e[1] == "curse_triggers"]
    if b.round == 0:
        want, want_trig = b.marker, []
    elif steps < 0:  # moving back triggers nothing
        want, want_trig = max(1, b.marker + steps), []
    else:
        want = b.marker + steps
        if want > 5:
            return []  # passes the Invocation space: a new Monster (checked by flow tests)
        slots = [s for sp in range(b.marker + 1, want + 1) for s in SLOTS_OF_SPACE[sp]]
        want_trig = [c.curse for s in slots for c in reversed(b.track[s]) if c.face_up]
    if a.marker != want or trig != want_trig:
        return [f"marker {b.marker} -> {a.marker} triggering {trig}; expected {want} triggering {want_trig}"]
    return []


def check_grant(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        menus = [d for d in ctx.decs if d.copy["kind"] == "menu" and d.copy["player"] == q]
        if ctx.n > 0 and (not menus or menus[0].copy["grants"] != ctx.n):
            errs.append(f"seat {q}: no Action menu for {ctx.n} Actions (section 4.12)")
            continue
        first = menus[0].frame if menus else None
        taken = [d for d in menus if d.frame is first and d.move != M.END]
        if len(taken) > ctx.n or any(M.ABILITY in d.legal for d in menus if d.frame is first):
            errs.append(f"seat {q}: {len(taken)} granted Actions taken (<= {ctx.n}; no ability, A-35)")
        if any(f.get("kind") == "menu" and f is first for f in ctx.after.stack):
            errs.append(f"seat {q}: granted menu still open")
    return errs


def check_mod_effect(before: GameState, after: GameState, q: int, mod: dict) -> Errors:
    """What a standing modifier changes for player q (sections 4.10, 4.11)."""
    kind = mod["kind"]
    if kind in ("support_slots", "spell_limit", "hand_size"):
        fn = {"support_slots": capacity, "spell_limit": hooks.spell_limit, "hand_size": hooks.hand_size}[kind]
        base = fn(before, q)
        want = max(0 if kind == "support_slots" else 1, base + mod["amount"])
        return [] if fn(after, q) == want else [f"{kind}: {base} -> {fn(after, q)}, expected {want}"]
    if kind == "cost":
        act = "activate" if mod["action"] == "all" else mod["action"]
        el = None if act == "cure" else 1
        idx = {"same": 4 if el is None else el, "any": 4}.get(mod["element"])
        idx = ELEMENT_NAMES.index(mod["element"]) if idx is None else idx
        req = (3, 3, 3, 3, 3)
        b, a = hooks.adjust_cost(before, q, act, el, req), hooks.adjust_cost(after, q, act, el, req)
        want = list(b)
        want[idx] = max(0, want[idx] + mod["amount"])
        return [] if list(a) == want else [f"cost of {act}: {b} -> {a}, expected {tuple(want)}"]
    if kind == "forbid":
        el = 0 if mod["element"] == "any" else ELEMENT_NAMES.index(mod["element"])
        act = "activate" if mod["action"] == "all" else mod["action"]
        el = None if act in ("destroy", "cure") else el
        return [] if hooks.forbidden(after, q, act, el) else [f"{act} is not forbidden"]
    if kind == "no_support_payment":
        return (
            []
            if has_mod(after, q, kind) and not has_mod(before, q, kind)
            else ["support payment not blocked"]
        )
    return [f"unchecked modifier kind {kind}"]


def check_modifier(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        mods_b, mods_a = ctx.before.players[q].mods, ctx.after.players[q].mods
        if mods_a != mods_b + [(ctx.op["mod"], ctx.op["duration"], ctx.src)]:
            errs.append(f"seat {q}: modifiers {mods_b} -> {mods_a}")
        errs += check_mod_effect(ctx.before, ctx.after, q, ctx.op["mod"])
    return errs


def check_may(ctx: OpCtx) -> Errors:
    ts, asks = ctx.targets(), ctx.mine()
    if sorted(d.copy["player"] for d in asks) != sorted(ts) or any(
        d.decider != d.copy["player"] for d in asks
    ):
        return [f"'may' asked {[d.copy['player'] for d in asks]}, expected {ts} (DP-E15)"]
    if all(d.move == M.DECLINE for d in asks):
        if any(
            player_view(ctx.before, q) != player_view(ctx.after, q) for q in range(len(ctx.before.players))
        ):
            return ["declining a 'may' changed the state"]
    return []  # accepted: the nested ops are checked op by op by the oracle


def check_madness_under(ctx: OpCtx) -> Errors:
    b, a = ctx.before, ctx.after
    pile = len(b.madness_pile)
    errs = []
    for s in range(5):
        for i, cur in enumerate(b.track[s]):
            k = 1 if pile > 0 else 0
            pile -= k
            if a.track[s][i].madness != cur.madness + k:
                errs.append(f"Curse {s}/{i}: Madness under {cur.madness} -> {a.track[s][i].madness} (A-43)")
    return errs


CHECKS: dict[str, Callable[[OpCtx], Errors]] = {
    "draw": check_draw,
    "discard": check_discard,
    "destroy": check_destroy,
    "place_in_support": check_place,
    "receive_madness": check_receive,
    "cure": check_cure,
    "exchange": check_exchange,
    "neutralize_curse": check_neutralize_curse,
    "neutralize_spell": check_neutralize_spell,
    "exhaust_spell": _spell_op(
        lambda sp: not sp.exhausted and not sp.neutralized,
        lambda x, y: y.exhausted and y.neutralized == x.neutralized,
    ),
    "refresh_spell": _spell_op(
        lambda sp: sp.exhausted and not sp.neutralized,
        lambda x, y: not y.exhausted and y.neutralized == x.neutralized,
    ),
    "lose_spell": _spell_op(lambda sp: True, lambda x, y: True, removes=True),
    "put_on_top": check_put_on_top,
    "upgrade": check_upgrade,
    "grant_actions": check_grant,
    "add_tokens": check_add_tokens,
    "remove_tokens": check_remove_tokens,
    "move_marker": check_move_marker,
    "gain": check_gain,
    "madness_under_curses": check_madness_under,
    "discard_deck_top": check_discard_deck_top,
    "destroy_curse": check_destroy_curse,
    "modifier": check_modifier,
    "may": check_may,
    "reshuffle": check_reshuffle,
}


def unchecked_ops() -> set[str]:
    from bbom_env.engine.cards.vocab import OP_SCHEMAS

    return set(OP_SCHEMAS) - set(CHECKS)
