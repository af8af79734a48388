"""Card-effect oracle: run any card effect on a rich, controlled state and check every op of it.

For a card part (Spell effect with X = 1..3, Curse effect, Monster arrival, page Bonus/Failure,
Magician activated ability and triggers) the oracle builds a state where every zone is non-trivial
(``rich_state``), pushes ``flow.seq(card, part, controller, X)`` above a halting menu frame and
drives ``resolver.run`` / ``apply_action`` with a deterministic policy ("first" or "last" legal
move). A hook on the ``seq`` frame snapshots the state before each op, so every op is checked on
its own span: the expected deltas come from the op's parameters and targets (``op_checks.py``,
``board_checks.py``), never from re-running the engine. Every op span also keeps the global
invariants: each card, Spell, Curse and Element token stays in exactly one place.

A rules module's cards run through the same oracle with ``modules=(name,)``: the module's tests
register a ``ModuleOracle`` in ``MODULE_ORACLES`` (its part of the rich state, the postconditions of
its ops, its modifier kinds and invariants; e.g. tests/modules/dark_matter/board_checks_dm.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bbom_env.engine import GameConfig
from bbom_env.engine.cards.pack import Pack, load_pack
from bbom_env.engine.core import resolver
from bbom_env.engine.core.rules import game_pack
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.setup import setup
from bbom_env.engine.model.constants import MADNESS, NUM_CODES, Phase
from bbom_env.engine.model.records import CurseOnTrack, SpellSlot, SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.zones import seq

from .board_checks import CHECKS, check_mod_effect
from .op_checks import Errors, OpCtx

POLICIES = ("first", "last")


@dataclass(frozen=True)
class ModuleOracle:
    """A rules module's part of the oracle. ``dress(state, rng)``: the module's zones in the rich
    state (after the base layout, so a base rich state is unchanged); ``prepare(state, card, part)``:
    the state a card part of the module runs in (e.g. a Curse on the track); ``checks``: postconditions
    of its ops, and of base ops whose meaning it changes, over ``CHECKS``; ``mod_checks``: what its
    modifier kinds change (``check_mod_effect``'s signature); ``invariants``: replaces
    ``OpCtx.invariants`` (e.g. the module's own supply in the card census; with several modules,
    the last one's, which must cover the others)."""

    dress: Callable[[GameState, random.Random], None]
    prepare: Callable[[GameState, str, str], None]
    checks: dict[str, Callable[[OpCtx], Errors]]
    mod_checks: dict[str, Callable[[GameState, GameState, int, dict], Errors]]
    invariants: Callable[[OpCtx], Errors]


MODULE_ORACLES: dict[str, ModuleOracle] = {}  # filled by the modules' tests


def oracles(modules: tuple[str, ...]) -> list[ModuleOracle]:
    missing = [m for m in modules if m not in MODULE_ORACLES]
    if missing:
        raise KeyError(f"no ModuleOracle registered for module(s) {missing} (MODULE_ORACLES)")
    return [MODULE_ORACLES[m] for m in modules]


def oracle_pack(pack: str, modules: tuple[str, ...] = ()) -> Pack:
    """The pack a game with ``modules`` plays with (their pack files and base-table cards)."""
    return game_pack(GameConfig(pack=pack, modules=modules)) if modules else load_pack(pack)


# -- the rich state ----------------------------------------------------------------------------


def _take_supply(s: GameState, code: int) -> bool:
    e, v = divmod(code, 3)
    pile = s.reserve1 if v == 0 else s.supply[e]
    i = e if v == 0 else v - 1
    if pile[i] <= 0:
        return False
    pile[i] -= 1
    return True


def _pick_curse(s: GameState, ctype: str, avoid_marker: bool) -> str | None:
    pile = s.curse_piles[ctype]
    for i in range(len(pile) - 1, -1, -1):
        ops = s.pack.curses[pile[i]].effect
        if not avoid_marker or not any(op["op"] == "move_marker" for op in ops):
            return pile.pop(i)
    return pile.pop() if pile else None


def rich_state(
    pack: str,
    num_players: int = 3,
    seed: int = 0,
    controller: int = 0,
    magician: str | None = None,
    modules: tuple[str, ...] = (),
) -> GameState:
    """A mid-game state (round 2, marker on space 2, Action phase of ``controller``) with varied
    hands, decks, discard piles (Madness in some), supports (with room / full / empty, Madness in
    some), ready, exhausted and neutralized Spells, five Curses on the track (with and without
    tokens, one neutralized, one with Madness under it) and non-empty supply and Madness pile.
    Every card is taken from the zones setup made, so the card census is exact. With ``modules``,
    each module's ``ModuleOracle.dress`` then adds its own zones."""
    p = oracle_pack(pack, modules)
    names = sorted(p.magicians)
    seats = [m for m in names if m != magician][:num_players]
    if magician is not None:
        seats = seats[: num_players - 1]
        seats.insert(controller, magician)
    cfg = GameConfig(
        pack=pack,
        num_players=num_players,
        seed=seed,
        magicians=tuple(seats),
        skip_forced_decisions=False,
        modules=modules,
    )
    s = setup(cfg)
    rng = random.Random(seed)  # a local instance: layout only
    n = num_players
    for q, pl in enumerate(s.players):
        rel = (q - controller) % n
        cards = pl.deck + [c for c in range(NUM_CODES) for _ in range(pl.hand[c])]
        for extra in (3 * (q % 4) + 1, 3 * ((q + 1) % 4) + 2, 0, 3, 6, 9):
            if _take_supply(s, extra):
                cards.append(extra)
        rng.shuffle(cards)
        pl.hand = [0] * NUM_CODES
        for c in cards[:5]:
            pl.hand[c] += 1
        for c in cards[5:8]:
            pl.discard[c] += 1
        rest = cards[8:]
        cap = hooks.support_capacity(s, q)
        room = {0: 1, 1: 0, 2: cap}[rel % 3]  # room left: 1 / full / empty support
        take = max(0, cap - room - (1 if rel % 3 == 0 else 0))
        pl.support = [SupportSlot(c) for c in rest[:take]]
        rest = rest[take:]
        if rel % 3 == 0:
            pl.support.append(SupportSlot(s.madness_pile.pop()))
        if rel % 3 == 1 and pl.support:
            pl.support[-1] = SupportSlot(MADNESS)
            s.madness_pile.pop()
            rest.append(3 * (q % 4))  # the replaced card stays in the census
            if not _take_supply(s, 3 * (q % 4)):
                rest.pop()
        if rel != 2:
            pl.hand[MADNESS] += 1
            s.madness_pile.pop()
        if rel % 2 == 0:
            pl.discard[MADNESS] += 1
            s.madness_pile.pop()
        if rel == 1:
            rest.insert(len(rest) // 2, s.madness_pile.pop())
        pl.deck = rest
        e = q % 4
        if s.library[e]:
            pl.spells.append(SpellSlot(s.library[e].pop(), rel % 2 == 1))
        if rel == 0:
            pl.spells[1] = pl.spells[1]._replace(exhausted=True)  # one exhausted Basic Spell
        if rel == 1:
            pl.spells[0] = pl.spells[0]._replace(neutralized="until_next_monster")  # one neutralized
    types = ["fire", "water", "earth", "air", "multi"]
    for slot in range(5):
        cid = None
        for k in range(5):
            cid = _pick_curse(s, types[(slot + k) % 5], avoid_marker=True)
            if cid:
                break
        if cid:
            s.track[slot].append(CurseOnTrack(cid))
    s.turn, s.round, s.marker, s.active, s.phase = 7, 2, 2, controller, Phase.ACTION
    _tokens(s, 0, (0, 0, 1, 0))
    _tokens(s, 3, (1, 0, 0, 1))
    if s.track[2]:
        s.track[2][-1] = s.track[2][-1]._replace(neutralized_at=s.turn)  # neutralized this turn
    if s.track[4]:
        s.track[4][-1] = s.track[4][-1]._replace(madness=1)
        s.madness_pile.pop()
    s.stack = []
    for o in oracles(modules):
        o.dress(s, rng)
    return s


def _tokens(s: GameState, slot: int, add: tuple[int, ...]) -> None:
    if s.track[slot]:
        s.track[slot][-1] = s.track[slot][-1]._replace(tokens=add)
        s.tokens = [t - a for t, a in zip(s.tokens, add, strict=True)]


# -- running an effect -------------------------------------------------------------------------


@dataclass
class Decision:
    frame: dict  # the live frame (identity)
    copy: dict  # its fields when the decision was asked
    decider: int
    legal: list[int]
    move: int


@dataclass
class Trace:
    state: GameState
    src: str
    part: str
    roots: list[dict]
    records: list[tuple[dict, int, GameState, int]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def choose(policy: Any, legal: list[int]) -> int:
    if policy == "first":
        return legal[0]
    if policy == "last":
        return legal[-1]
    return legal[policy.randrange(len(legal))]  # a random.Random instance


def run_effect(
    state: GameState,
    src: str,
    part: str,
    c: int,
    x: int = 1,
    policy: Any = "first",
    provoke: list[dict] | None = None,
) -> Trace:
    """Resolve ``part`` of ``src`` for controller c above a halting menu frame, or run the
    ``provoke`` frames instead (e.g. a Concentration phase, to see a Magician trigger fire through
    the engine's own flow); snapshot before each op of every ``seq`` of (src, part), nested "may"
    included."""
    sentinel = {"kind": "menu", "player": state.active, "grants": -1, "decider": None}
    frames = provoke if provoke is not None else [seq(src, part, c, x)]
    state.stack = [sentinel] + frames[::-1]
    state.legal_cache = None
    tr = Trace(state, src, part, [])
    orig = resolver.RUN["seq"]

    def hook(st: GameState, f: dict) -> None:
        if st is state and f["source"] == src and f["part"] == part:
            if not f["path"] and f["step"] == 0:
                tr.roots.append(f)
            tr.records.append((f, f["step"], st.clone(), len(tr.decisions)))
        orig(st, f)

    resolver.RUN["seq"] = hook
    try:
        resolver.run(state)
        for _ in range(500):
            if state.over or not state.stack or state.stack[-1] is sentinel:
                break
            f = state.stack[-1]
            legal = list(state.legal_actions())
            move = choose(policy, legal)
            tr.decisions.append(Decision(f, dict(f), state.current_player(), legal, move))
            state.apply_action(move)
        else:
            raise AssertionError(f"{src}/{part}: the effect did not finish in 500 decisions")
    finally:
        resolver.RUN["seq"] = orig
    if state.stack and state.stack[-1] is sentinel:
        state.stack.pop()
    state.legal_cache = None
    return tr


def _oplist(pack: Pack, src: str, part: str, path: tuple) -> tuple[dict, ...]:
    ops: Any = pack.effects[(src, part)]
    for idx in path:
        ops = ops[idx]["ops"]
    return ops


def check_trace(tr: Trace, policy: Any, label: str) -> int:
    """Check every op span of a trace; returns the number of op checks made."""
    st = tr.state
    if st.over:
        raise AssertionError(f"{label}: the game ended during the effect ({st.reason}); fix the rich state")
    frames: list[dict] = []
    for rec in tr.records:
        if not any(rec[0] is f for f in frames):
            frames.append(rec[0])
    mods = oracles(st.config.modules)
    checks = dict(CHECKS)
    for o in mods:
        checks.update(o.checks)
    invariants: Callable[[OpCtx], Errors] = mods[-1].invariants if mods else OpCtx.invariants
    checked = 0
    for f in frames:
        recs = [r for r in tr.records if r[0] is f]
        ops = _oplist(st.pack, tr.src, tr.part, f["path"])
        if [r[1] for r in recs] != list(range(len(ops) + 1)):
            raise AssertionError(f"{label}: seq {f['path']} ran ops {[r[1] for r in recs]} of {len(ops)}")
        for i, op in enumerate(ops):
            before, after = recs[i][2], recs[i + 1][2]
            decs = tr.decisions[recs[i][3] : recs[i + 1][3]]
            base, per_x = op.get("count", (1, 0))
            n = base + per_x * f["x"]
            ctx = OpCtx(op, n, f["controller"], f["path"] + (i,), before, after, decs, tr.src, tr.part)
            where = f"{label} op {f['path'] + (i,)} {op['op']}"
            errors = invariants(ctx) + checks[op["op"]](ctx)
            if errors:
                raise AssertionError(f"{where}: " + "; ".join(errors))
            checked += 1
    return checked


# -- per card ----------------------------------------------------------------------------------


def _spell_runs(pack: str, cid: str, modules: tuple[str, ...] = ()) -> int:
    n = 0
    for x in (1, 2, 3):
        for k, policy in enumerate(POLICIES):
            for players, ctrl in ((3, k), (2, 1 - k)):
                st = rich_state(pack, players, seed=x + 3 * k, controller=ctrl, modules=modules)
                if players == 2:
                    st.active = 1 - ctrl  # cast out of turn (a granted Action, section 4.12)
                tr = run_effect(st, cid, "effect", ctrl, x, policy)
                n += check_trace(tr, policy, f"{cid} X={x} {policy} {players}p")
    return n


def _plain_runs(
    pack: str,
    cid: str,
    part: str,
    magician: str | None = None,
    event: str = "",
    modules: tuple[str, ...] = (),
) -> int:
    n = 0
    for k, policy in enumerate(POLICIES):
        for players, ctrl in ((3, k), (4, 2), (5, 4 - k)):
            for variant in range(PROVOCATIONS.get(event, 1)):
                st = rich_state(
                    pack, players, seed=11 + k + players, controller=ctrl, magician=magician, modules=modules
                )
                for o in oracles(modules):
                    o.prepare(st, cid, part)
                frames = provoke(st, event, ctrl, variant) if event else None
                if event and frames is None:
                    continue
                tr = run_effect(st, cid, part, ctrl, 1, policy, frames)
                label = f"{cid}/{part} {policy} {players}p {event}{variant if event else ''}"
                if len(tr.roots) != 1:
                    raise AssertionError(f"{label}: the effect ran {len(tr.roots)} times, expected once")
                n += check_trace(tr, policy, label)
    return n


PROVOCATIONS = {"turn_start": 1, "action_phase_start": 1, "reshuffle": 1, "curse_destroyed": 2}


def provoke(state: GameState, event: str, c: int, variant: int) -> list[dict] | None:
    """Engine frames (and state changes) that make ``event`` happen to seat c (vocab.EVENTS), so a
    Magician trigger is tested through the engine's own flow rather than called directly; None
    when the variant does not apply to this pack."""
    if event == "turn_start":
        return [{"kind": "conc"}]  # section 3.2
    if event == "action_phase_start":
        return [{"kind": "release"}]
    if event == "reshuffle":  # section 5.2: a player draws from an empty deck
        pl = state.players[c]
        for code in pl.deck:
            pl.discard[code] += 1
        pl.deck = []
        return (
            [{"kind": "recup", "player": c, "decider": None}]
            if sum(pl.hand) < hooks.hand_size(state, c)
            else None
        )
    if event == "curse_destroyed":  # by the Destroy Action (4.4), or by a card effect
        if variant == 0:
            cid = next(cur.curse for slot in state.track for cur in slot if cur.neutralized_at < 0)
            return [{"kind": "destroy", "player": c, "curse": cid}]
        p = state.pack
        for (src, part), eff in sorted(p.effects.items()):
            if src in p.spells and any(op["op"] == "destroy_curse" for op in eff):
                return [seq(src, part, c, 1)]
        return None
    raise AssertionError(f"no engine site fires the event {event!r}")


def _magician_checks(pack: str, cid: str, modules: tuple[str, ...] = ()) -> int:
    p = oracle_pack(pack, modules)
    mag = p.magicians[cid]
    n = 0
    if mag.activated:
        n += _plain_runs(pack, cid, "activated", magician=cid, modules=modules)
    st = rich_state(pack, 3, seed=5, controller=0, magician=cid, modules=modules)
    mod_checks = {k: fn for o in oracles(modules) for k, fn in o.mod_checks.items()}
    for i, mod in enumerate(mag.mods):
        if mod["kind"] == "trigger":
            n += _plain_runs(pack, cid, f"trigger{i}", magician=cid, event=mod["event"], modules=modules)
            continue
        lost = st.clone()
        lost.players[0].ability_lost = True  # the same state without the ability
        errors = mod_checks.get(mod["kind"], check_mod_effect)(lost, st, 0, mod)
        if errors:
            raise AssertionError(f"{cid} ability {mod}: " + "; ".join(errors))
        n += 1
    return n


def _placement_check(pack: str, pid: str, modules: tuple[str, ...] = ()) -> int:
    """The Monster places Multi-Element Curses then its symbols left to right (A-01, A-02)."""
    st = rich_state(pack, 3, seed=2, modules=modules)
    monster = st.pack.pages[pid].monster
    for level in (1, 2, 3):
        s = st.clone()
        s.config = s.config.replace(difficulty=level)
        for slot in range(5):
            while s.track[slot]:
                cur = s.track[slot].pop()
                s.curse_piles[s.pack.curses[cur.curse].type].insert(0, cur.curse)
        s.grimoire[s.round - 1] = pid
        run_effect_frames(s, [{"kind": "place"}])
        k = s.pack.round_track[level - 1][s.round - 1]
        want = (["multi"] * k + list(monster.curse_symbols))[:5]
        got = [s.pack.curses[slot[0].curse].type for slot in s.track if slot]
        if got != want:
            raise AssertionError(f"{pid}: placed Curse types {got}, expected {want} (level {level})")
    return 3


def run_effect_frames(state: GameState, frames: list[dict]) -> None:
    sentinel = {"kind": "menu", "player": state.active, "grants": -1, "decider": None}
    state.stack = [sentinel] + frames[::-1]
    resolver.run(state)
    while not state.over and state.stack[-1] is not sentinel:
        state.apply_action(state.legal_actions()[0])
    if state.stack:
        state.stack.pop()


def _end_page_check(pack: str, pid: str) -> int:
    """The End page: the last Monster is vanquished (win) or not (loss) at round 6 (A-71)."""
    for clear, outcome in ((True, "win"), (False, "loss")):
        s = rich_state(pack, 3, seed=4)
        s.config = s.config.replace(final_win_timing="invocation_check")
        s.round = 6
        if clear:
            s.track = [[] for _ in range(5)]
        run_effect_frames(s, [{"kind": "endround"}])
        if s.outcome != outcome:
            raise AssertionError(f"{pid}: round 6 end with clear={clear} gave {s.outcome!r}")
    return 2


def card_ids(pack: str) -> list[str]:
    p = load_pack(pack)
    return sorted(set(p.magicians) | set(p.spells) | set(p.curses) | set(p.pages))


def check_card(pack: str, cid: str, modules: tuple[str, ...] = ()) -> int:
    """Run every effect of card ``cid`` through the oracle; returns the number of checks made
    (the caller asserts it is positive: a card with nothing checked has no scenario test).
    ``modules``: in a game with these rules modules (their cards included)."""
    p = oracle_pack(pack, modules)
    if cid in p.spells:
        return _spell_runs(pack, cid, modules)
    if cid in p.curses:
        return _plain_runs(pack, cid, "effect", modules=modules)
    if cid in p.magicians:
        return _magician_checks(pack, cid, modules)
    if cid not in p.pages:  # a module card outside the base tables (a Black Book page): its effects
        parts = sorted(part for src, part in p.effects if src == cid)
        return sum(_plain_runs(pack, cid, part, modules=modules) for part in parts)
    page = p.pages[cid]
    if page.kind == "end":
        return _end_page_check(pack, cid)
    n = _placement_check(pack, cid, modules)
    for part in ("arrival", "bonus", "failure"):
        if p.effects.get((cid, part)):
            n += _plain_runs(pack, cid, part, modules=modules)
    return n
