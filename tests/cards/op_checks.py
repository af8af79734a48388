"""Op-level postconditions of the effect vocabulary (docs/rules.md section 7; schemas in vocab.py).

``CHECKS[op](ctx)`` returns a list of error strings for one op span: ``ctx.before`` is the state
when the op started, ``ctx.after`` when the next op started, ``ctx.decs`` the decisions taken in
between. Expectations are computed from the op parameters, its count ``ctx.n`` and its targets,
never by asking the engine to redo the op. This module: the ops on players' cards; the board,
Spell and standing-effect ops and the ``CHECKS`` table are in ``board_checks.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, MADNESS, MAX_STACK, NUM_ELEMENT_CODES, is_madness

Errors = list[str]
ELEMENT_ACTIONS = ("activate", "learn", "acquire")


def vec(v: list[int]) -> Counter:
    return Counter({c: k for c, k in enumerate(v) if k})


def census(st: GameState) -> tuple:
    """Where every card, Spell, Curse and token is: each must stay in exactly one place."""
    cards: Counter = Counter()
    for pl in st.players:
        cards.update(pl.deck)
        cards.update(pl.support_cards())
        cards.update(vec(pl.hand))
        cards.update(vec(pl.discard))
    cards.update(vec(st.destroyed))
    cards.update(vec(st.box))
    cards.update(st.madness_pile)
    for e in range(4):
        cards[3 * e] += st.reserve1[e]
        cards[3 * e + 1] += st.supply[e][0]
        cards[3 * e + 2] += st.supply[e][1]
    cards[MADNESS] += sum(cur.madness for slot in st.track for cur in slot)
    spells = Counter(sp.spell for pl in st.players for sp in pl.spells) + Counter(st.box_spells)
    spells.update(s for pile in st.library for s in pile)
    curses = Counter(cur.curse for slot in st.track for cur in slot)
    curses.update(c for pile in st.curse_piles.values() for c in pile)
    tokens = list(st.tokens)
    for slot in st.track:
        for cur in slot:
            tokens = [a + b for a, b in zip(tokens, cur.tokens, strict=True)]
    return +cards, +spells, +curses, tokens


def player_view(st: GameState, q: int) -> tuple:
    pl = st.players[q]
    return (pl.deck, pl.hand, pl.discard, pl.support, pl.spells, pl.mods, pl.eliminated)


def curses_view(st: GameState) -> list:
    return [list(slot) for slot in st.track]


def curse_at(st: GameState, move: int) -> tuple[int, int]:
    slot, pos = divmod(move - M.PICK_CURSE, MAX_STACK)
    return slot, len(st.track[slot]) - 1 - pos


def filter_ok(flt: str, code: int) -> bool:
    return code < NUM_ELEMENT_CODES if flt == "element" else is_madness(code) if flt == "madness" else True


def capacity(st: GameState, q: int) -> int:
    """Support slots from the data: the sheet plus every support_slots modifier (section 1.6)."""
    pl = st.players[q]
    mag = st.pack.magicians[pl.magician]
    mods = ([] if pl.ability_lost else list(mag.mods)) + [m.modifier for m in pl.mods]
    return max(0, mag.support_slots + sum(m["amount"] for m in mods if m["kind"] == "support_slots"))


@dataclass
class OpCtx:
    op: dict
    n: int
    c: int
    path: tuple
    before: GameState
    after: GameState
    decs: list
    src: str
    part: str = "effect"

    def mine(self, q: int | None = None, kind: str = "op") -> list:
        """Decisions of this op (not of effects it set off, e.g. Curses a marker move triggers)."""
        key = (kind, self.src, self.part, self.path)
        return [
            d
            for d in self.decs
            if (d.copy["kind"], d.copy.get("source"), d.copy.get("part"), d.copy.get("path")) == key
            and (q is None or d.copy.get("player") == q)
        ]

    def declined(self, q: int) -> bool:
        return any(d.move == M.DECLINE for d in self.mine(q))

    def picks(self, q: int | None = None) -> list:
        return [d for d in self.mine(q) if d.move != M.DECLINE]

    def expect(self, q: int, avail: int) -> int:
        """Picks an op should make: all it can (n, or what is there: section 8.2), unless the
        player declined an optional op, which stops it."""
        if self.declined(q):
            return len(self.picks(q))
        return min(self.n, max(0, avail))

    def targets(self) -> list[int]:
        t = self.op.get("target")
        alive = self.before.order_from_active()
        if t == "you":
            out = [self.c]
        elif t == "active":
            out = [self.before.active]
        elif t == "each":
            out = alive
        elif t == "each_other":
            out = [q for q in alive if q != self.c]
        else:
            tg = self.mine(kind="tgt")
            out = [(self.c + d.move - M.PICK_PLAYER) % len(self.before.players) for d in tg]
        return [q for q in out if not self.before.players[q].eliminated]

    def invariants(self) -> Errors:
        errs = []
        b, a = census(self.before), census(self.after)
        for name, x, y in zip(("cards", "spells", "curses", "tokens"), b, a, strict=True):
            if x != y:
                errs.append(f"{name} census changed: {x} -> {y}")
        n = len(self.before.players)
        for d in self.mine(kind="tgt"):
            cands = self.before.order_from_active()
            if self.op.get("target") == "another_player":
                cands = [q for q in cands if q != self.c]
            want = sorted(M.PICK_PLAYER + (q - self.c) % n for q in cands)
            if d.decider != self.c or sorted(d.legal) != want:
                errs.append(f"target choice by {d.decider} among {d.legal}, expected {self.c} among {want}")
        seats = list(dict.fromkeys(d.copy["player"] for d in self.mine()))
        if "target" in self.op and seats != [q for q in self.targets() if q in seats]:
            errs.append(f"players chose in the order {seats}, not from the Active Player (section 8.3)")
        who = DECIDER.get(self.op["op"], "p")
        for d in self.mine():
            want_w = {"p": d.copy["player"], "c": self.c}.get(who)
            if who == "x":
                want_w = self.c if d.copy["stage"] == 0 else d.copy["player"]
            if d.decider != want_w:
                errs.append(f"decision of seat {d.decider}, expected seat {want_w} ({who})")
        if self.op["op"] in QUIET_FOR_OTHERS:
            ts = set(self.targets()) | ({self.c} if self.op["op"] == "destroy_curse" else set())
            for q in range(n):
                if q not in ts and player_view(self.before, q) != player_view(self.after, q):
                    errs.append(f"seat {q} is not a target but changed")
        return errs


# Who decides an op's picks: the affected player, the controller, or the exchange
# giver in turn ("x", A-37).
DECIDER = {
    "neutralize_curse": "c",
    "destroy_curse": "c",
    "add_tokens": "c",
    "remove_tokens": "c",
    "exchange": "x",
}
QUIET_FOR_OTHERS = {
    "draw", "discard", "destroy", "place_in_support", "receive_madness", "cure", "neutralize_spell",
    "exhaust_spell", "refresh_spell", "lose_spell", "put_on_top", "upgrade", "gain", "discard_deck_top",
    "reshuffle", "modifier", "neutralize_curse", "add_tokens", "remove_tokens", "madness_under_curses",
    "destroy_curse",
}  # fmt: skip


def _zone(st: GameState, q: int, zone: str) -> Counter:
    pl = st.players[q]
    if zone == "hand":
        return vec(pl.hand)
    if zone == "discard":
        return vec(pl.discard)
    if zone == "support":
        return Counter(pl.support_cards()[:5])
    return Counter(pl.deck)


def _moved(ctx: OpCtx, q: int, zone: str, flt: str, dest: Callable[[GameState], Counter]) -> Errors:
    """Cards picked from ``zone`` (matching ``flt``) and sent to ``dest``."""
    b, a = _zone(ctx.before, q, zone), _zone(ctx.after, q, zone)
    avail = sum(k for c, k in b.items() if filter_ok(flt, c))
    if zone == "support":
        b, a = Counter(ctx.before.players[q].support_cards()), Counter(ctx.after.players[q].support_cards())
    removed, added = b - a, a - b
    k = ctx.expect(q, avail)
    errs = []
    if added or sum(removed.values()) != k:
        errs.append(f"seat {q}: {zone} lost {dict(removed)} gained {dict(added)}, expected {k} cards out")
    if any(not filter_ok(flt, c) for c in removed):
        errs.append(f"seat {q}: removed {dict(removed)} outside filter {flt}")
    if dest(ctx.after) - dest(ctx.before) != removed:
        errs.append(
            f"seat {q}: destination got {dict(dest(ctx.after) - dest(ctx.before))}, not {dict(removed)}"
        )
    return errs


def _deck_top_to(ctx: OpCtx, q: int, dest: Callable[[GameState], Counter]) -> Errors:
    """Top n cards of the deck (A-23: refilled first when empty)."""
    bd, ad = ctx.before.players[q].deck, ctx.after.players[q].deck
    got = dest(ctx.after) - dest(ctx.before)
    if len(bd) >= ctx.n:
        top = Counter(bd[len(bd) - ctx.n :])
        if ad != bd[: len(bd) - ctx.n] or got != top:
            return [f"seat {q}: deck top {dict(top)} should move, got {dict(got)}"]
    elif sum(got.values()) != ctx.n:
        return [f"seat {q}: {ctx.n} cards should move from a short deck, got {dict(got)}"]
    return []


def check_draw(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        got = vec(ctx.after.players[q].hand) - vec(ctx.before.players[q].hand)
        if sum(ctx.after.players[q].hand) - sum(ctx.before.players[q].hand) != ctx.n:
            errs.append(f"seat {q}: hand grew by {dict(got)}, expected {ctx.n} cards")
        errs += _deck_top_to(ctx, q, lambda s, q=q: vec(s.players[q].hand))
    return errs


def check_discard(ctx: OpCtx) -> Errors:
    o = ctx.op
    return [
        e
        for q in ctx.targets()
        for e in _moved(ctx, q, o["from"], o["filter"], lambda s, q=q: vec(s.players[q].discard))
    ]


def check_destroy(ctx: OpCtx) -> Errors:
    """Destroyed cards leave the game (section 7); the destroyed pile is shared, so each target
    is checked against what it alone sent, then the pile against the sum."""
    o, errs, sent = ctx.op, [], Counter()
    for q in ctx.targets():
        b, a = ctx.before.players[q], ctx.after.players[q]
        own = lambda s, q=q: (
            vec(s.players[q].hand) + vec(s.players[q].discard) + Counter(s.players[q].support_cards())
        )
        lost = Counter(b.deck) + own(ctx.before) - Counter(a.deck) - own(ctx.after)
        if o["from"] == "deck_top":
            errs += _deck_top_to(ctx, q, lambda s, lost=lost, q=q: lost if s is ctx.after else Counter())
        else:
            errs += _moved(
                ctx, q, o["from"], o["filter"], lambda s, lost=lost: lost if s is ctx.after else Counter()
            )
        sent += lost
    if vec(ctx.after.destroyed) - vec(ctx.before.destroyed) != sent:
        got = vec(ctx.after.destroyed) - vec(ctx.before.destroyed)
        errs.append(f"destroyed pile got {dict(got)}, not {dict(sent)}")
    return errs


def check_discard_deck_top(ctx: OpCtx) -> Errors:
    return [e for q in ctx.targets() for e in _deck_top_to(ctx, q, lambda s, q=q: vec(s.players[q].discard))]


def check_place(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        bs, as_ = ctx.before.players[q].support_cards(), ctx.after.players[q].support_cards()
        room = capacity(ctx.before, q) - len(bs)  # never beyond capacity by placing
        k = ctx.expect(q, min(room, sum(ctx.before.players[q].hand)))
        out = vec(ctx.before.players[q].hand) - vec(ctx.after.players[q].hand)
        if as_[: len(bs)] != bs or len(as_) != len(bs) + k or Counter(as_[len(bs) :]) != out:
            errs.append(f"seat {q}: support {bs} -> {as_}, hand lost {dict(out)}; expected {k} placed")
    return errs


def check_receive(ctx: OpCtx) -> Errors:
    o, errs = ctx.op, []
    ts = ctx.targets()
    taken = len(ctx.before.madness_pile) - len(ctx.after.madness_pile)
    if taken != ctx.n * len(ts):
        errs.append(f"Madness pile gave {taken}, expected {ctx.n} x {len(ts)} targets")
    for q in ts:
        bp, ap = ctx.before.players[q], ctx.after.players[q]
        if o["to"] in ("discard", "hand"):
            b, a = (bp.discard, ap.discard) if o["to"] == "discard" else (bp.hand, ap.hand)
            if vec(a) - vec(b) != Counter({MADNESS: ctx.n}) or vec(b) - vec(a):
                errs.append(
                    f"seat {q}: {o['to']} {dict(vec(b))} -> {dict(vec(a))}, expected +{ctx.n} Madness"
                )
        elif o["to"] == "deck_top":
            if ap.deck != bp.deck + [MADNESS] * ctx.n:
                errs.append(f"seat {q}: deck top should gain {ctx.n} Madness")
        else:
            free = max(0, capacity(ctx.before, q) - len(bp.support))
            # Bagpipe ruling: with no free slot a support card is discarded for each Madness;
            # otherwise the support is exceeded.
            swap = 0 if o["full_support"] == "exceed" or not bp.support else max(0, ctx.n - free)
            out = vec(ap.discard) - vec(bp.discard)  # the replaced cards, if any
            want = Counter(bp.support_cards()) + Counter({MADNESS: ctx.n})  # a new Madness may be swapped too
            if Counter(ap.support_cards()) + out != want or len(ap.support) != len(bp.support) + ctx.n - swap:
                errs.append(f"seat {q}: support {bp.support} -> {ap.support}, expected {swap} replaced")
            if sum(out.values()) != swap or vec(bp.discard) - vec(ap.discard):
                errs.append(f"seat {q}: {swap} replaced support cards must go to the discard pile, got {out}")
    return errs


def check_cure(ctx: OpCtx) -> Errors:
    o, errs, total = ctx.op, [], 0
    zones = {"discard_and_deck": ("discard", "deck")}.get(o["from"], (o["from"],))
    for q in ctx.targets():
        mb = sum(_mad(_zone(ctx.before, q, z)) for z in zones)
        ma = sum(_mad(_zone(ctx.after, q, z)) for z in zones)
        k = min(ctx.n, mb)
        total += k
        if mb - ma != k:
            errs.append(f"seat {q}: {zones} Madness {mb} -> {ma}, expected {k} cured")
        for z in zones:
            nb = {c: v for c, v in _zone(ctx.before, q, z).items() if not is_madness(c)}
            if nb != {c: v for c, v in _zone(ctx.after, q, z).items() if not is_madness(c)}:
                errs.append(f"seat {q}: non-Madness cards of {z} changed")
    if len(ctx.after.madness_pile) - len(ctx.before.madness_pile) != total:
        errs.append(f"Madness pile should regain {total}")
    return errs


def _mad(c: Counter) -> int:
    return sum(k for code, k in c.items() if is_madness(code))


def check_exchange(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        c = ctx.c
        if q == c:
            if player_view(ctx.before, c) != player_view(ctx.after, c):
                errs.append("exchanging with yourself changed your cards")
            continue
        both_b = vec(ctx.before.players[c].hand) + vec(ctx.before.players[q].hand)
        both_a = vec(ctx.after.players[c].hand) + vec(ctx.after.players[q].hand)
        gives = [d.decider for d in ctx.mine(q)]
        want = [c, q] * ctx.n if sum(ctx.before.players[c].hand) and sum(ctx.before.players[q].hand) else None
        if both_a != both_b:
            errs.append("exchange created or lost cards")
        if want is not None and gives != want:
            errs.append(f"exchange gives by {gives}, expected {want} (A-37)")
        for p in (c, q):
            if want is not None and sum(ctx.after.players[p].hand) != sum(ctx.before.players[p].hand):
                errs.append(f"seat {p}: hand size changed in an exchange")
    return errs


def check_gain(ctx: OpCtx) -> Errors:
    o, b, a, errs = ctx.op, ctx.before, ctx.after, []
    v = o["value"]
    avail = [b.reserve1[e] if v == 1 else b.supply[e][v - 2] for e in range(4)]
    fixed = None
    if o["element"] in ELEMENT_NAMES:
        fixed = ELEMENT_NAMES.index(o["element"])
    elif o["element"] == "spell":
        sp = b.pack.spells.get(ctx.src)
        fixed = sp.element if sp else b.pack.magicians[b.players[ctx.c].magician].element
    for q in ctx.targets():
        bp, ap = b.players[q], a.players[q]
        if o["to"] == "deck_top":
            got = Counter(ap.deck[len(bp.deck) :]) if ap.deck[: len(bp.deck)] == bp.deck else Counter({-1: 1})
        else:
            z = "hand" if o["to"] == "hand" else "discard"
            got = _zone(a, q, z) - _zone(b, q, z)
        k = min(ctx.n, avail[fixed] if fixed is not None else sum(avail))
        if sum(got.values()) != k or any(c >= NUM_ELEMENT_CODES or c % 3 != v - 1 for c in got):
            errs.append(f"seat {q}: gained {dict(got)}, expected {k} value-{v} cards")
        if fixed is not None and any(c // 3 != fixed for c in got):
            errs.append(f"seat {q}: gained {dict(got)}, expected Element {ELEMENT_NAMES[fixed]}")
        for c, m in got.items():
            if 0 <= c < NUM_ELEMENT_CODES:
                avail[c // 3] -= m
    after = [a.reserve1[e] if v == 1 else a.supply[e][v - 2] for e in range(4)]
    if after != avail:
        errs.append(f"supply of value {v}: {after}, expected {avail}")
    return errs


def check_put_on_top(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        bp, ap = ctx.before.players[q], ctx.after.players[q]
        zb, za = _zone(ctx.before, q, ctx.op["from"]), _zone(ctx.after, q, ctx.op["from"])
        k = ctx.expect(q, sum(zb.values()))
        if (
            ap.deck[: len(bp.deck)] != bp.deck
            or Counter(ap.deck[len(bp.deck) :]) != zb - za
            or len(ap.deck) != len(bp.deck) + k
        ):
            top = ap.deck[len(bp.deck) :]
            errs.append(f"seat {q}: deck top got {top}, {ctx.op['from']} lost {dict(zb - za)}, expected {k}")
    return errs


def _supply_value(st: GameState) -> tuple[int, int]:
    return (
        sum(st.reserve1) + sum(sum(s) for s in st.supply),
        sum(st.reserve1[e] + 2 * st.supply[e][0] + 3 * st.supply[e][1] for e in range(4)),
    )


def check_upgrade(ctx: OpCtx) -> Errors:
    errs, total = [], 0
    for q in ctx.targets():
        zb, za = _zone(ctx.before, q, ctx.op["from"]), _zone(ctx.after, q, ctx.op["from"])
        picks = len(ctx.picks(q))
        total += picks
        if (
            not ctx.declined(q)
            and picks < ctx.n
            and any(c < 12 and c % 3 < 2 and (ctx.after.supply[c // 3][c % 3] > 0) for c in za)
        ):
            errs.append(f"seat {q}: stopped after {picks} upgrades with upgradable cards left")
        val = lambda z: sum((c % 3 + 1) * k for c, k in z.items() if c < NUM_ELEMENT_CODES)
        per_el = lambda z: Counter(
            {e: sum(k for c, k in z.items() if c < 12 and c // 3 == e) for e in range(4)}
        )
        if sum(za.values()) != sum(zb.values()) or val(za) - val(zb) != picks or per_el(za) != per_el(zb):
            errs.append(f"seat {q}: {dict(zb)} -> {dict(za)}, expected {picks} one-step upgrades")
    cb, vb = _supply_value(ctx.before)
    ca, va = _supply_value(ctx.after)
    if ca != cb or vb - va != total:
        errs.append(f"supply value {vb} -> {va}, expected -{total}")
    return errs


def check_reshuffle(ctx: OpCtx) -> Errors:
    errs = []
    for q in ctx.targets():
        bp, ap = ctx.before.players[q], ctx.after.players[q]
        if any(ap.discard) or Counter(ap.deck) != Counter(bp.deck) + vec(bp.discard):
            errs.append(f"seat {q}: discard pile not shuffled into the deck")
    if ctx.after.madness_pile != ctx.before.madness_pile:
        errs.append("shuffling by an effect gave a Madness (section 7)")
    return errs
