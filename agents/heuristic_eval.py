"""Read-only views of a state for the heuristic team: Curse urgency, the Elements the team wants,
and rough values of cards, Spells and effects.

Everything here reads public zones plus the hands of the team (table talk is allowed, A-66); deck
order is never used (section 1.5: nobody may look at a deck). Values are hand-tuned guesses, not
learned: the heuristic only has to play sensibly.
"""

from __future__ import annotations

from typing import NamedTuple

from bbom_env.engine import GameState
from bbom_env.engine.actions.base import curse_req, spell_req
from bbom_env.engine.model.constants import (
    ELEMENT_NAMES,
    ELEMENTS,
    MAX_STACK,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    SPACE_OF_SLOT,
    code_element,
    code_value,
    element_code,
    is_madness,
)
from bbom_env.engine.payment.cost import can_cover, funds_of

Req = tuple[int, int, int, int, int]
ZERO: Req = (0, 0, 0, 0, 0)


def add_req(*reqs: tuple[int, ...]) -> Req:
    out = [0, 0, 0, 0, 0]
    for r in reqs:
        for i in range(5):
            out[i] += r[i]
    return tuple(out)  # type: ignore[return-value]


def hand_counts(state: GameState, p: int) -> list[list[int]]:
    """counts[element][value-1] of the Element cards in p's hand only."""
    hand = state.players[p].hand
    return [[hand[element_code(e, v)] for v in (1, 2, 3)] for e in ELEMENTS]


def elements_of(counts: list[list[int]]) -> list[int]:
    return [c[0] + 2 * c[1] + 3 * c[2] for c in counts]


def madness_in(cards: list[int]) -> int:
    return sum(cards[c] for c in range(NUM_ELEMENT_CODES, NUM_CODES) if is_madness(c))


class CurseInfo(NamedTuple):
    slot: int
    pos: int  # from the top of the slot's stack (move argument)
    cid: str
    space: int
    face_up: bool
    triggered: bool  # the marker has already entered its space this round
    req: tuple[int, ...]

    @property
    def arg(self) -> int:
        return self.slot * MAX_STACK + self.pos


def curses(state: GameState, payer: int) -> list[CurseInfo]:
    """Curses on the track, most urgent first: untriggered ones by how soon the marker reaches
    them (section 3.3.2), then the ones that already triggered (they still block the Bonus)."""
    out = []
    for slot, stack in enumerate(state.track):
        d = len(stack)
        for pos in range(d):
            c = stack[d - 1 - pos]
            space = SPACE_OF_SLOT[slot]
            out.append(
                CurseInfo(
                    slot, pos, c.curse, space, c.face_up, space <= state.marker, curse_req(state, payer, c)
                )
            )
    out.sort(key=lambda ci: (ci.triggered, ci.space, ci.slot, ci.pos))
    return out


def destroy_plan(state: GameState, p: int, counts: list[list[int]]) -> tuple[list[CurseInfo], Req]:
    """Greedy: the most urgent face-up Curses that p can pay for together (hand + support pool)."""
    plan: list[CurseInfo] = []
    total = ZERO
    for ci in curses(state, p):
        if not ci.face_up:
            continue
        trial = add_req(total, ci.req)
        if can_cover(counts, trial):
            plan.append(ci)
            total = trial
    return plan, total


def next_monster_symbols(state: GameState) -> list[str]:
    """Curse symbols of the next Monster, printed on the right page (section 1.4, item 6)."""
    if state.round < 1 or state.round >= 6:
        return []
    page = state.pack.pages[state.grimoire[state.round]]
    syms = list(page.monster.curse_symbols) if page.monster else []
    k = state.pack.round_track[state.config.difficulty - 1][state.round]
    return syms + ["multi"] * k


def wanted(state: GameState, p: int, skip: tuple[CurseInfo, ...] = ()) -> list[int]:
    """Elements the team still needs for the Curses on the track (minus ``skip``) and, late in
    the round (marker on space 4 or 5), for the next Monster's Curses."""
    want = [0, 0, 0, 0]
    skipped = {(c.slot, c.pos) for c in skip}
    for ci in curses(state, p):
        if (ci.slot, ci.pos) in skipped:
            continue
        for e in range(4):
            want[e] += ci.req[e]
    if state.marker >= 4:
        for sym in next_monster_symbols(state):
            if sym == "multi":
                for e in range(4):
                    want[e] += 1
            elif sym in ELEMENT_NAMES:
                want[ELEMENT_NAMES.index(sym)] += 4
    return want


def team_elements(state: GameState) -> list[int]:
    """Elements owned by the team per Element, all zones (deck composition is public knowledge
    to its owner; only the order is hidden)."""
    tot = [0, 0, 0, 0]
    for pl in state.players:
        if pl.eliminated:
            continue
        cards = [a + b for a, b in zip(pl.hand, pl.discard, strict=True)]
        for c in pl.deck + pl.support_cards():
            cards[c] += 1
        for c in range(NUM_ELEMENT_CODES):
            tot[code_element(c)] += cards[c] * code_value(c)
    return tot


def card_score(code: int, want: list[int]) -> float:
    """How much a card is worth keeping: Madness lowest, then by value, wanted Elements higher."""
    if is_madness(code):
        return -5.0
    if code >= NUM_ELEMENT_CODES:
        return 0.5  # Dark Matter (Vth Element), not used in the base game
    e, v = code_element(code), code_value(code)
    return v + (1.2 if want[e] > 0 else 0.0)


def can_destroy_count(state: GameState, q: int) -> int:
    """How many face-up Curses player q could destroy now with their hand + the support pool."""
    plan, _ = destroy_plan(state, q, funds_of(state, q).counts)
    return len(plan)


# -- effect values -----------------------------------------------------------------------------

OP_BASE: dict[str, float] = {
    "draw": 1.0,
    "place_in_support": 0.9,
    "grant_actions": 1.3,
    "destroy": 0.4,
    "destroy_curse": 4.0,
    "neutralize_curse": 1.4,
    "cure": 1.3,
    "upgrade": 0.8,
    "refresh_spell": 0.7,
    "remove_tokens": 0.5,
    "exchange": 0.2,
    "reshuffle": 0.1,
    "put_on_top": 0.2,
    "discard": -0.3,
    "receive_madness": -2.0,
    "lose_spell": -2.0,
    "exhaust_spell": -0.5,
    "neutralize_spell": -0.5,
    "add_tokens": -1.0,
    "madness_under_curses": -1.0,
    "discard_deck_top": -0.2,
}


# Cycling (section 5.1): a card discarded from hand during one's own turn is replaced by a fresh
# draw at Recuperation, so discarding a card worth less than CYCLE to keep would be a gain. Measured
# (500 games, default pack, level 1): every positive threshold lost win rate (the deck empties
# sooner, and each reshuffle brings a Madness, section 5.2), so no card qualifies: an optional
# discard is declined and a Breeze-like Spell is valued as its draws.
CYCLE = 0.0
PRICE_WANTED, PRICE_SPARE = 0.8, 0.45  # value of one Element paid: needed for Curses / spare
PRICE_TYPICAL = 0.65  # the same without a state (learning: the average of the two)


def element_price(want: list[int], e: int) -> float:
    return PRICE_WANTED if want[e] > 0 else PRICE_SPARE


def keep_value(code: int, want: list[int]) -> float:
    """What a card in hand is worth keeping, in the units of the prices above. A Madness in hand
    is kept for the Cure Action (section 4.5: back to the Madness pile for good, which delays the
    pile running out, section 6); discarding it only delays it to the next reshuffle."""
    if is_madness(code):
        return 0.5
    if code >= NUM_ELEMENT_CODES:
        return 0.3
    return code_value(code) * element_price(want, code_element(code))


def _amount(op: dict, x: int) -> int:
    base, per_x = op.get("count", (1, 0))
    return min(base + per_x * x, 3) if base < 99 else 3


def op_value(op: dict, x: int, state: GameState | None = None, p: int = -1) -> float:
    """Rough value of one op at power X; with a state, context-aware (no Madness: cure is worth
    nothing; no Curse on the track: destroy_curse is worth nothing, ...)."""
    name = op["op"]
    n = _amount(op, x)
    target = op.get("target", "you")
    if name == "may":
        return max(0.0, sum(op_value(o, x, state, p) for o in op["ops"]))
    if name == "discard" and op.get("optional") and op.get("from", "hand") == "hand":
        v = 0.15 * n  # declined unless a card is worth cycling (see CYCLE)
    elif name == "gain":
        v = n * op.get("value", 2) * 0.5
    elif name == "move_marker":
        v = -2.5 * op["steps"]
        if state is not None and op["steps"] < 0:
            # Going back re-triggers the Curses of the space left (section 3.3.2 note): only
            # useful when the current space holds no face-up Curse and Curses remain.
            here = [c for c in curses(state, p) if c.space == state.marker]
            v = 2.5 if state.curses_on_track() and not here and state.marker >= 2 else 0.0
    elif name == "modifier":
        mod = op["mod"]
        if mod["kind"] == "cost":
            v = -1.5 * mod["amount"]
        elif mod["kind"] in ("support_slots", "spell_limit", "hand_size"):
            v = 0.5 * mod["amount"]
        elif mod["kind"] in ("forbid", "no_support_payment"):
            v = -1.0
        else:
            v = 0.0
    else:
        v = OP_BASE.get(name, 0.0) * n
    if state is not None:
        v = _in_context(state, p, op, n, v)
    if target in ("each", "each_other"):
        players = len(state.alive()) if state is not None else 3
        v *= 1.5 if v > 0 else players
    return v


def _in_context(state: GameState, p: int, op: dict, n: int, v: float) -> float:
    name = op["op"]
    pl = state.players[p]
    if name == "cure":
        zone = op.get("from", "hand")
        have = 0
        if zone == "hand":
            have = madness_in(pl.hand)
        elif zone == "support":
            have = sum(1 for s in pl.support if is_madness(s.card))
        else:
            have = madness_in(pl.discard) + sum(1 for c in pl.deck if is_madness(c))
        return OP_BASE["cure"] * min(n, have)
    if name == "destroy_curse":
        return OP_BASE["destroy_curse"] * min(n, sum(1 for c in curses(state, p) if c.face_up))
    if name == "discard" and op.get("target", "you") in ("you", "each") and op.get("from") == "hand":
        # Cycling: the n least useful cards; an optional discard skips cards worth keeping
        # (the same rule as the choice, heuristic_choices.answer_choice).
        want = wanted(state, p)
        cards = sorted(keep_value(c, want) for c in range(NUM_CODES) for _ in range(pl.hand[c]))
        gains = [CYCLE - k for k in cards[:n]]
        return sum(g for g in gains if g > 0 or not op.get("optional"))
    if name == "upgrade" and op.get("from") == "hand":
        # +1 Element on a card kept in the deck for good (section 4.1 effect): worth its price.
        want = wanted(state, p)
        ups = sorted(
            element_price(want, code_element(c))
            for c in range(NUM_ELEMENT_CODES)
            if code_value(c) < 3  # a value-3 card cannot be upgraded
            for _ in range(pl.hand[c])
        )
        return sum(ups[-n:]) + 0.1 * min(n, len(ups)) if ups and n > 0 else 0.0
    if name == "neutralize_curse":
        soon = [c for c in curses(state, p) if c.face_up and c.space == state.marker + 1]
        # A Curse the marker enters next that nobody destroyed this turn triggers (3.3.3).
        return 2.0 * min(n, len(soon)) if state.marker <= 4 else -1.0
    if name == "destroy" and op.get("from") == "hand":
        return 1.5 * min(n, madness_in(pl.hand)) if op.get("filter") != "element" else 0.0
    if name == "grant_actions":
        best = max((can_destroy_count(state, q) for q in state.alive() if q != p), default=0)
        return 4.0 * min(n, best) if best else 0.1
    if name == "remove_tokens":
        return 0.5 * min(n, sum(sum(c.tokens) for s in state.track for c in s))
    return v


def effect_value(
    ops: tuple[dict, ...] | list[dict], x: int, state: GameState | None = None, p: int = -1
) -> float:
    return sum(op_value(op, x, state, p) for op in ops)


def spell_gain(state: GameState, p: int, sid: str, x: int) -> float:
    """What casting Spell ``sid`` at power ``x`` gains now: its effect in context minus the
    Elements paid (activation cost x X of the Spell's Element, section 4.1). The casting rule;
    ``spell_value`` is the same sum in a typical context, the learning rule."""
    sp = state.pack.spells[sid]
    price = element_price(wanted(state, p), sp.element)
    return effect_value(sp.effect, x, state, p) - price * sp.activation_cost * x


def spell_value(state: GameState, sid: str) -> float:
    """Typical gain of casting a Spell per Element of activation cost (``spell_gain`` without a
    state), for learning and for choosing which Spell to lose. Positive only for Spells the team
    casts in typical situations. Higher levels get a small bonus (the book's tip: level 2-3
    Spells are very powerful)."""
    gain = typical_gain(state, sid)
    sp = state.pack.spells[sid]
    per = gain / max(1, sp.activation_cost)
    return per + 0.2 * sp.level if gain > 0 else per


def typical_gain(state: GameState, sid: str) -> float:
    """``spell_gain`` at X = 1 in a typical context: > 0 for a Spell the team will cast."""
    sp = state.pack.spells[sid]
    return effect_value(sp.effect, 1) - PRICE_TYPICAL * sp.activation_cost


def spell_cast_req(state: GameState, p: int, spell_index: int, x: int) -> tuple[int, ...]:
    return spell_req(state, p, state.players[p].spells[spell_index].spell, x)
