"""The Dark Matter module's part of the card-effect oracle (tests/cards/card_oracle.py): its rich
state, the postconditions of its ops in the style of ``board_checks.CHECKS``, its modifier kinds and
its invariants; registered as ``card_oracle.MODULE_ORACLES["dark_matter"]`` on import.

Module ops (docs/rules.md section 11.11): ``gain_to_deck`` (V-03), ``gain_dark_matter`` (V-04),
``placed_curse_tokens`` (V-14), ``cure_and_rebuild`` (V-15), ``add_dark_curse`` (V-09),
``break_card`` (V-11). Base ops whose meaning the module changes: ``add_tokens`` (V-08: never on a
Dark Curse), ``destroy_curse`` (V-07: effects cannot destroy a Dark Curse by default) and
``modifier`` (the module's modifier kinds: ``lose_ability``, V-10; ``air_conversion``, V-12).
Expectations come from the op's parameters and the rules, never from re-running the module's code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from cards.board_checks import check_add_tokens, check_destroy_curse, check_mod_effect
from cards.card_oracle import MODULE_ORACLES, ModuleOracle
from cards.op_checks import Errors, OpCtx, curse_at, player_view, vec

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import (
    LAST_SPACE,
    MAX_STACK,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    SLOTS_OF_SPACE,
    SPACE_OF_SLOT,
    code_element,
    code_value,
    element_code,
    is_madness,
)
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import affordable, as_cost
from bbom_env.modules.dark_matter.content import DARK_SYMBOL
from bbom_env.modules.dark_matter.module import DARK_MATTER_MODULE, NAME, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER

DARK_SLOT = 1  # the rich state's Dark Curse: on top of slot S3L (space 3, a stack of 2, V-09)
AIR1 = element_code(3, 1)


def is_dark(st: GameState, cid: str) -> bool:
    return st.pack.curses[cid].type == DARK_SYMBOL


def _avoids_marker(st: GameState, cid: str) -> bool:
    # As the base rich state: no Curse that moves the marker on the track (its trigger would chain).
    return not any(op["op"] == "move_marker" for op in st.pack.curses[cid].effect)


# -- the rich state ----------------------------------------------------------------------------


def dress(s: GameState, rng: random.Random) -> None:
    """Dark Matter cards in some hands, decks and discard piles (from the module's supply, so the
    28 stay conserved, section 1.2), a Dark Curse stacked on a base Curse of space 3 (V-09), and
    the "monster" / "curse_placed" log of this round's placement (V-14 reads it: slot order)."""
    st, n = dm_state(s), len(s.players)
    for q, pl in enumerate(s.players):
        rel = (q - s.active) % n
        if rel % 3 == 0:
            pl.hand[DARK_MATTER] += 1
            pl.deck.insert(len(pl.deck) // 3, DARK_MATTER)
            st.supply -= 2
        elif rel % 3 == 1:
            pl.discard[DARK_MATTER] += 1
            st.supply -= 1
        else:
            pl.hand[DARK_MATTER] += 2
            st.supply -= 2
    s.event("monster", s.round, s.grimoire[s.round - 1])
    for slot, stack in enumerate(s.track):
        if stack:
            s.event("curse_placed", slot, stack[0].curse)
    pile = s.curse_piles[DARK_SYMBOL]
    ok = [i for i, cid in enumerate(pile) if _avoids_marker(s, cid)]
    s.track[DARK_SLOT].append(CurseOnTrack(pile.pop(ok[rng.randrange(len(ok))])))


def prepare(s: GameState, cid: str, part: str) -> None:
    """A Dark Curse's effect runs from the track (it is triggered there, section 3.3.5): the card
    under test takes the rich state's Dark Curse's place (which goes back to the pile's place)."""
    if cid not in s.pack.curses or not is_dark(s, cid) or not _avoids_marker(s, cid):
        return
    top = s.track[DARK_SLOT][-1]
    if top.curse == cid:
        return
    pile = s.curse_piles[DARK_SYMBOL]
    pile[pile.index(cid)] = top.curse
    s.track[DARK_SLOT][-1] = top._replace(curse=cid)


# -- invariants ----------------------------------------------------------------------------------


def _with_supply_in_box(st: GameState) -> GameState:
    out = st.clone()
    out.box[DARK_MATTER] += dm_state(out).supply  # the census counts the box, not the module supply
    return out


def invariants(ctx: OpCtx) -> Errors:
    """The base census with the Dark Matter supply counted (section 1.2), then the module's own
    invariants (28 Dark Matter cards, no token on a Dark Curse V-08, no V-11 debt left, the book)."""
    errs = replace(
        ctx, before=_with_supply_in_box(ctx.before), after=_with_supply_in_box(ctx.after)
    ).invariants()
    for inv in DARK_MATTER_MODULE.invariants:
        try:
            inv(ctx.after)
        except AssertionError as e:
            errs.append(str(e))
    return errs


# -- base ops with Dark Curses on the track (V-07, V-08) -------------------------------------------


def _without_dark(ctx: OpCtx) -> tuple[OpCtx, Errors]:
    """The op span with the Dark Curses taken off the track (and the op's Curse picks renumbered),
    so the base check sees the Curses the op may touch; errors if a Dark Curse changed or was picked."""
    b, a = ctx.before.clone(), ctx.after.clone()
    dark_b = Counter(c for slot in ctx.before.track for c in slot if is_dark(ctx.before, c.curse))
    dark_a = Counter(c for slot in ctx.after.track for c in slot if is_dark(ctx.after, c.curse))
    errs = (
        [] if dark_a == dark_b else [f"Dark Curses on the track changed: {dark_b} -> {dark_a} (V-07, V-08)"]
    )
    mine = {id(d) for d in ctx.mine()}
    decs = []
    for d in ctx.decs:
        if id(d) in mine and M.PICK_CURSE <= d.move < M.PICK_CURSE + 5 * MAX_STACK:
            slot, i = curse_at(ctx.before, d.move)
            if is_dark(ctx.before, ctx.before.track[slot][i].curse):
                errs.append(f"a Dark Curse was picked: {ctx.before.track[slot][i]} (V-07, V-08)")
            above = sum(1 for c in ctx.before.track[slot][i + 1 :] if not is_dark(ctx.before, c.curse))
            d = replace(d, move=M.PICK_CURSE + slot * MAX_STACK + above)
        decs.append(d)
    for st in (b, a):
        st.track = [[c for c in slot if not is_dark(st, c.curse)] for slot in st.track]
    return replace(ctx, before=b, after=a, decs=decs), errs


def _base_without_dark(check: Callable[[OpCtx], Errors]) -> Callable[[OpCtx], Errors]:
    def run(ctx: OpCtx) -> Errors:
        if ctx.op["op"] == "destroy_curse" and ctx.before.config.switch("dark_curse_destroy_by_effect"):
            return check(ctx)  # V-07 switch: Dark Curses are Curses an effect may destroy
        view, errs = _without_dark(ctx)
        return errs + check(view)

    return run


def check_lose_ability(before: GameState, after: GameState, q: int, mod: dict) -> Errors:
    """V-10: the ability is off, and the capacities it gave are gone at once (A-68)."""
    pl = after.players[q]
    errs = [] if hooks.ability_lost(after, q) else [f"seat {q}: ability not lost (V-10)"]
    if len(pl.support) > hooks.support_capacity(after, q):
        errs.append(f"seat {q}: {len(pl.support)} support cards over {hooks.support_capacity(after, q)}")
    if len(pl.spells) > hooks.spell_limit(after, q):
        errs.append(f"seat {q}: {len(pl.spells)} Spells over {hooks.spell_limit(after, q)}")
    return errs


def _pays_fire_with_air(st: GameState, q: int) -> tuple[bool, bool]:
    """(marked, payable): a 1-Fire cost of an Action is marked ``convert`` for seat q, and a hand
    of one Air card and no support pool pays it."""
    req = (1, 0, 0, 0, 0)
    s = st.clone()
    s.players[q].hand = [0] * NUM_CODES
    s.players[q].hand[AIR1] = 1
    for pl in s.players:
        pl.support = []
    cost = hooks.transform_cost(s, q, "activate", req)
    return as_cost(cost).convert, affordable(s, q, cost, "activate")


def check_air_conversion(before: GameState, after: GameState, q: int, mod: dict) -> Errors:
    """V-12: with the ability, on its owner's turn, 1 Air card counts as 1 Element of their choice
    (the payment's ``convert`` mark); without it (``before``: the ability lost, V-10) it does not."""
    on, off = _pays_fire_with_air(after, q), _pays_fire_with_air(before, q)
    if on != (True, True) or off != (False, False):
        return [f"Air conversion (marked, pays Fire with Air): with the ability {on}, without {off} (V-12)"]
    return []


MOD_CHECKS: dict[str, Callable[[GameState, GameState, int, dict], Errors]] = {
    "lose_ability": check_lose_ability,
    "air_conversion": check_air_conversion,
}


def check_modifier(ctx: OpCtx) -> Errors:
    """The base ``modifier`` check, with the module's modifier kinds (V-10)."""
    errs = []
    mod = ctx.op["mod"]
    for q in ctx.targets():
        mods_b, mods_a = ctx.before.players[q].mods, ctx.after.players[q].mods
        if mods_a != mods_b + [(mod, ctx.op["duration"], ctx.src)]:
            errs.append(f"seat {q}: modifiers {mods_b} -> {mods_a}")
        errs += MOD_CHECKS.get(mod["kind"], check_mod_effect)(ctx.before, ctx.after, q, mod)
    return errs


# -- the module's ops --------------------------------------------------------------------------------


def _others_unchanged(ctx: OpCtx, seats: set[int]) -> Errors:
    return [
        f"seat {q} is not a target but changed"
        for q in range(len(ctx.before.players))
        if q not in seats and player_view(ctx.before, q) != player_view(ctx.after, q)
    ]


def check_gain_to_deck(ctx: OpCtx) -> Errors:
    """V-03: per target, ``n`` Element cards of ``value`` of the player's choice among the
    non-empty supply piles (A-65: none, nothing), shuffled into the deck; hand, discard pile and
    support unchanged."""
    v, b, a, errs = ctx.op["value"], ctx.before, ctx.after, []
    left = sum(b.supply[e][v - 2] for e in range(NUM_ELEMENTS))
    taken: Counter = Counter()
    for q in ctx.targets():
        picks = ctx.picks(q)
        first = ctx.mine(q)[:1]
        offered = [M.PICK_ELEMENT + e for e in range(NUM_ELEMENTS) if b.supply[e][v - 2] > 0]
        if first and ctx.targets()[0] == q and sorted(first[0].legal) != offered:
            errs.append(f"seat {q}: offered {first[0].legal}, expected the non-empty piles {offered}")
        k = min(ctx.n, left)
        left -= k
        got = Counter(a.players[q].deck) - Counter(b.players[q].deck)
        want = Counter(element_code(d.move - M.PICK_ELEMENT, v) for d in picks)
        if len(picks) != k or got != want or Counter(b.players[q].deck) - Counter(a.players[q].deck):
            errs.append(f"seat {q}: deck gained {dict(got)} by {len(picks)} picks, expected {k} of value {v}")
        bp, ap = b.players[q], a.players[q]
        if (bp.hand, bp.discard, bp.support) != (ap.hand, ap.discard, ap.support):
            errs.append(f"seat {q}: hand, discard pile or support changed (V-03: into the draw pile)")
        taken += want
    spent = Counter(
        {element_code(e, v): b.supply[e][v - 2] - a.supply[e][v - 2] for e in range(NUM_ELEMENTS)}
    )
    if +spent != taken:
        errs.append(f"supply gave {dict(+spent)}, players got {dict(taken)}")
    return errs + _others_unchanged(ctx, set(ctx.targets()))


def check_gain_dark_matter(ctx: OpCtx) -> Errors:
    """V-04: per target, ``n`` Dark Matter cards from the module's supply to the discard pile;
    what the supply lacks is not gained (A-65); nothing else of the player changes."""
    b, a, errs = ctx.before, ctx.after, []
    supply = dm_state(b).supply
    for q in ctx.targets():
        k = min(ctx.n, supply)
        supply -= k
        got = vec(a.players[q].discard) - vec(b.players[q].discard)
        if got != Counter({DARK_MATTER: k} if k else {}) or vec(b.players[q].discard) - vec(
            a.players[q].discard
        ):
            errs.append(f"seat {q}: discard pile got {dict(got)}, expected {k} Dark Matter")
        bp, ap = b.players[q], a.players[q]
        if (bp.hand, bp.deck, bp.support) != (ap.hand, ap.deck, ap.support):
            errs.append(f"seat {q}: hand, deck or support changed (V-04: to the discard pile)")
    if dm_state(a).supply != supply:
        errs.append(f"Dark Matter supply {dm_state(b).supply} -> {dm_state(a).supply}, expected {supply}")
    return errs + _others_unchanged(ctx, set(ctx.targets()))


def _placed(st: GameState) -> list[tuple[int, str]]:
    """(slot, Curse) placed for the current Monster, in order: the log since its "monster" event."""
    out: list[tuple[int, str]] = []
    for ev in st.log:
        if ev[1] == "monster":
            out = []
        elif ev[1] == "curse_placed":
            out.append((ev[2], ev[3]))
    return out


def check_placed_curse_tokens(ctx: OpCtx) -> Errors:
    """V-14, A-62: ``n`` tokens, each at random from the pool, on the ``position``-th Curse placed
    for this Monster; fewer placed, that Curse gone, or a Dark Curse (V-08): nothing."""
    b, a, pos = ctx.before, ctx.after, ctx.op["position"]
    placed = _placed(b)
    where = None
    if len(placed) >= pos:
        slot, cid = placed[pos - 1]
        idx = [i for i, c in enumerate(b.track[slot]) if c.curse == cid]
        if idx and not is_dark(b, cid):
            where = (slot, idx[0])
    errs = []
    for s in range(5):
        for i, cur in enumerate(b.track[s]):
            after = a.track[s][i]
            added = [y - x for x, y in zip(cur.tokens, after.tokens, strict=True)]
            k = min(ctx.n, sum(b.tokens)) if (s, i) == where else 0
            if sum(added) != k or min(added) < 0 or after._replace(tokens=cur.tokens) != cur:
                errs.append(
                    f"Curse {s}/{i} ({cur.curse}): tokens {cur.tokens} -> {after.tokens}, expected +{k}"
                )
            if (s, i) == where and any(d > p for d, p in zip(added, b.tokens, strict=True)):
                errs.append(f"Curse {s}/{i}: got {added}, more than the pool {b.tokens} holds (A-62)")
    return errs + _others_unchanged(ctx, set())


def check_cure_and_rebuild(ctx: OpCtx) -> Errors:
    """V-15: the chosen player's every Madness of discard pile and deck goes under the Madness pile
    (A-67); the rest of both is the new deck, the discard pile is empty; hand and support kept."""
    b, a, errs = ctx.before, ctx.after, []
    ts = ctx.targets()
    if len(ts) != 1:
        return [f"targets {ts}: expected the one player chosen (V-15)"]
    q = ts[0]
    bp, ap = b.players[q], a.players[q]
    cards = Counter(bp.deck) + vec(bp.discard)
    mad = Counter({c: k for c, k in cards.items() if is_madness(c)})
    k = sum(mad.values())
    if Counter(ap.deck) != cards - mad or any(ap.discard):
        errs.append(
            f"seat {q}: deck {dict(Counter(ap.deck))}, discard {dict(vec(ap.discard))}: "
            f"expected {dict(cards - mad)}"
        )
    if a.madness_pile[k:] != b.madness_pile or Counter(a.madness_pile[:k]) != mad:
        errs.append(f"Madness pile {len(b.madness_pile)} -> {len(a.madness_pile)}: {k} cured under it (A-67)")
    if (bp.hand, bp.support, bp.spells) != (ap.hand, ap.support, ap.spells):
        errs.append(f"seat {q}: hand, support or Spells changed")
    return errs + _others_unchanged(ctx, {q})


def next_slot(st: GameState, space: int) -> int | None:
    """V-09, A-45: the slot of the next Curse space after ``space``: an empty one (left first),
    else the top of a stack not yet MAX_STACK deep (on space 3 the right one first); none after
    space 5 (the Invocation space)."""
    if space >= LAST_SPACE:
        return None
    slots = SLOTS_OF_SPACE[space + 1]
    empty = [s for s in slots if not st.track[s]]
    if empty:
        return empty[0]
    room = [s for s in reversed(slots) if len(st.track[s]) < MAX_STACK]
    return room[0] if room else None


def check_add_dark_curse(ctx: OpCtx) -> Errors:
    """V-09, A-45: the Dark Curse pile's top card onto the next Curse space after the triggering
    Curse's own; nothing when the Curse is not on the track, the pile is empty or no room is left."""
    b, a = ctx.before, ctx.after
    src_slot = next((s for s, stack in enumerate(b.track) for c in stack if c.curse == ctx.src), None)
    pile = b.curse_piles[DARK_SYMBOL]
    target = None if src_slot is None else next_slot(b, SPACE_OF_SLOT[src_slot])
    want_track = [list(s) for s in b.track]
    want_pile = list(pile)
    if target is not None and pile:
        want_track[target].append(CurseOnTrack(want_pile.pop()))
    got = [list(s) for s in a.track]
    if got != want_track or a.curse_piles[DARK_SYMBOL] != want_pile:
        return [
            f"track {got}, pile {a.curse_piles[DARK_SYMBOL]}: "
            f"expected {want_track}, {want_pile} (slot {target})"
        ]
    return _others_unchanged(ctx, set())


def check_break_card(ctx: OpCtx) -> Errors:
    """V-11, A-47: each player with a value-2/3 Element card in hand destroys one of their choice;
    once all have chosen, each gets that many value-1 cards of its Element from the reserve to
    the discard pile, as far as the reserve goes (short only when that reserve is empty)."""
    b, a, errs = ctx.before, ctx.after, []
    broken: dict[int, int] = {}
    for q in ctx.targets():
        hand = b.players[q].hand
        opts = [c for c in range(NUM_ELEMENT_CODES) if hand[c] and code_value(c) >= 2]
        lost = vec(hand) - vec(a.players[q].hand)
        decs = ctx.mine(q)
        if not opts:
            if lost or decs:
                errs.append(f"seat {q}: no value-2/3 card, yet lost {dict(lost)} ({len(decs)} choices)")
            continue
        want_legal = sorted(M.PICK_HAND + c for c in opts)
        if len(decs) != 1 or sorted(decs[0].legal) != want_legal or decs[0].decider != q:
            errs.append(
                f"seat {q}: choices {[(d.decider, d.legal) for d in decs]}, expected one of {want_legal}"
            )
            continue
        code = decs[0].move - M.PICK_HAND
        if lost != Counter({code: 1}) or vec(a.players[q].hand) - vec(hand):
            errs.append(f"seat {q}: hand lost {dict(lost)}, expected the chosen {code}")
        broken[q] = code
    destroyed = vec(a.destroyed) - vec(b.destroyed)
    if destroyed != Counter(broken.values()):
        errs.append(f"destroyed {dict(destroyed)}, expected {sorted(broken.values())} (A-47)")
    dealt: Counter = Counter()
    for q in range(len(b.players)):
        got = vec(a.players[q].discard) - vec(b.players[q].discard)
        if vec(b.players[q].discard) - vec(a.players[q].discard):
            errs.append(f"seat {q}: discard pile lost cards")
        if q not in broken:
            if got:
                errs.append(f"seat {q}: broke nothing, got {dict(got)}")
            continue
        e, v = code_element(broken[q]), code_value(broken[q])
        one = element_code(e, 1)
        if set(got) - {one} or got[one] > v:
            errs.append(f"seat {q}: got {dict(got)} for a value-{v} card, expected up to {v} x {one}")
        if got[one] < v and a.reserve1[e] != 0:
            errs.append(
                f"seat {q}: got {got[one]} of {v} value-1 cards while the reserve holds {a.reserve1[e]}"
            )
        dealt[e] += got[one]
    for e in range(NUM_ELEMENTS):
        if b.reserve1[e] - a.reserve1[e] != dealt[e]:
            errs.append(f"value-1 reserve {e}: {b.reserve1[e]} -> {a.reserve1[e]}, dealt {dealt[e]}")
    if dm_state(a).owed:
        errs.append(f"debts left after the op: {dm_state(a).owed} (V-11)")
    return errs


CHECKS_DM: dict[str, Callable[[OpCtx], Errors]] = {
    "gain_to_deck": check_gain_to_deck,
    "gain_dark_matter": check_gain_dark_matter,
    "placed_curse_tokens": check_placed_curse_tokens,
    "cure_and_rebuild": check_cure_and_rebuild,
    "add_dark_curse": check_add_dark_curse,
    "break_card": check_break_card,
    "add_tokens": _base_without_dark(check_add_tokens),
    "destroy_curse": _base_without_dark(check_destroy_curse),
    "modifier": check_modifier,
}

ORACLE = ModuleOracle(
    dress=dress, prepare=prepare, checks=CHECKS_DM, mod_checks=MOD_CHECKS, invariants=invariants
)
MODULE_ORACLES[NAME] = ORACLE
