"""Turn structure (docs/rules.md section 3): Concentration, Monster phase with the Invocation track,
Action phase, Recuperation, end of turn; end of round and the New Monster procedure.

Limits that shrink (docs/rules.md sections 4.11, 9.2): when a player's Magician ability is lost (for
good, or while a "lose_ability" modifier lasts), a raised support capacity or Spell limit falls
back to the printed one, and the player must come back within it.

``lose_ability(state, p)`` sets the ability off for good and reacts. A "lose_ability" modifier
added by the ``modifier`` op reacts through ``react`` (V-10: "All players lose their
Ability until the next Monster"); a module whose modifier source starts yielding one (a Phobia
placed in a support, V-27) calls ``enforce_limits(state, p)`` (outside the run loop) or
``react(state, p)`` (inside a frame) after the change. The reaction is a
``limits`` frame owned by the player: while they hold more Spells than their limit, they choose a
Spell to put in the box (PICK_SPELL); while their support holds more cards than its capacity, they
choose one to discard (PICK_SUPPORT). Which cards count: a Magician whose own ability raises the
support capacity (the blue Magician) comes down to the printed slots counting every slot, a Madness
included, and discards any card but a Phobia ("discard support cards until she has no more than
three"; a crushed card shares its Phobia's slot), eliminated when only Phobias are left to discard
(V-27, A-75); for anyone else only non-Madness cards count (Madness beyond capacity stays, A-26),
so losing an ability that raised nothing asks nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core.moves import PICK_HAND, PICK_SPELL, PICK_SUPPORT, support_arg
from bbom_env.engine.core.resolver import TURN_START, done, frame, push, run
from bbom_env.engine.model.constants import (
    IDENTITY_MADNESS_BASE,
    LAST_SPACE,
    MAX_SUPPORT_SLOTS,
    NUM_TRACK_SLOTS,
    ROUNDS,
    SLOTS_OF_SPACE,
    Phase,
    is_madness,
)
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.zones import (
    check_immediate_win,
    draw,
    eliminate,
    end_game,
    fire,
    madness_in_hand,
    remove_curse,
    seq,
    spell_to_box,
)

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState
    from bbom_env.engine.model.frames import LimitsFrame, RecupFrame, RefreshChoiceFrame


def start_turn(state: GameState) -> None:
    """Section 3.1: the next non-eliminated player clockwise takes a turn of four phases."""
    n = len(state.players)
    if state.turn > 0:
        a = state.active
        for k in range(1, n + 1):
            if not state.players[(a + k) % n].eliminated:
                state.active = (a + k) % n
                break
    state.turn += 1
    a = state.active
    state.event("turn", a)
    push(
        state,
        {"kind": "conc"},
        {"kind": "monster"},
        {"kind": "release"},
        {"kind": "menu", "player": a, "grants": -1, "decider": None},
        {"kind": "recup", "player": a, "decider": None},
        {"kind": "endturn"},
    )


def _release_curses(state: GameState) -> None:
    for slot in state.track:
        for i, curse in enumerate(slot):
            if 0 <= curse.neutralized_at < state.turn:
                slot[i] = curse._replace(neutralized_at=-1)


def run_conc(state: GameState, f: dict) -> None:
    """Section 3.2: the Active Player refreshes their exhausted, face-up Spells (A-21)."""
    done(state, f)
    state.phase = Phase.CONCENTRATION
    a = state.active
    spells = state.players[a].spells
    exhausted = [i for i, sp in enumerate(spells) if sp.exhausted and not sp.neutralized]
    # Nothing to refresh: whatever the rule point says (docs/rules.md 9.2), nothing happens (not read).
    limit = hooks.rule_point(state, a, "concentration_refresh", len(exhausted)) if exhausted else 0
    if limit >= len(exhausted):
        for i in exhausted:
            spells[i] = spells[i]._replace(exhausted=False)
    elif limit > 0:  # a rule point lowered it: the player chooses which Spells (docs/rules.md 9.2)
        push(state, {"kind": "refresh_choice", "player": a, "left": limit, "decider": None})
    if state.config.neutralized_curse_release == "start_of_next_turn":  # A-19 alternative
        _release_curses(state)
    fire(state, state.active, "turn_start")


def run_monster(state: GameState, f: dict) -> None:
    done(state, f)
    state.phase = Phase.MONSTER
    steps = hooks.rule_point(state, state.active, "marker_steps", 1)
    # One space at a time, each space's effects resolving before the next step (3.3.8). V-34: the
    # steps are fixed now (a Phobia gained during the first step adds none); step k > 1 happens
    # only while the rule point still gives k or more (run_advance). A base game has one step.
    push(state, *[{"kind": "advance", "step": k} for k in range(2, steps + 1)])
    advance(state)


def run_refresh_choice(state: GameState, f: RefreshChoiceFrame) -> None:
    if f["left"] <= 0 or not legal_refresh_choice(state, f):
        done(state, f)
        return
    f["decider"] = f["player"]


def legal_refresh_choice(state: GameState, f: RefreshChoiceFrame) -> list[int]:
    spells = state.players[f["player"]].spells
    return [PICK_SPELL + i for i, sp in enumerate(spells) if sp.exhausted and not sp.neutralized]


def answer_refresh_choice(state: GameState, f: RefreshChoiceFrame, move: int) -> None:
    spells = state.players[f["player"]].spells
    spells[move - PICK_SPELL] = spells[move - PICK_SPELL]._replace(exhausted=False)
    f["left"] -= 1


def advance(state: GameState) -> None:
    """Section 3.3.2: move the Invocation marker one space and apply the new space."""
    if state.round == 0:  # first turn: open the Grimoire (3.3.6, A-04)
        state.marker = 1
        push(state, {"kind": "newmonster"})
        return
    if state.marker < LAST_SPACE:
        state.marker += 1
        state.event("marker", state.marker)
        frames = []
        for slot in SLOTS_OF_SPACE[state.marker]:  # left before right, top before bottom (3.3.3)
            for curse in reversed(state.track[slot]):
                if curse.neutralized_at < 0:  # a neutralized Curse does not trigger
                    frames.append(seq(curse.curse, "effect", state.active))
                    state.event("curse_triggers", curse.curse)
        push(state, *frames)
        return
    state.marker = 0
    push(state, {"kind": "endround"}, {"kind": "newmonster"})


def run_advance(state: GameState, f: dict) -> None:
    """One more marker step: a "move marker" op's, or step ``step`` of a Monster phase with more
    than one (a "replace" at ``marker_steps``: the Phobia "The Invocation marker advances 2",
    3.3.8). V-34: that step happens only if the Active Player still has the rule point (the
    Phobia still in their support) and is not eliminated (V-38: no extra marker step)."""
    done(state, f)
    if "step" in f:
        a = state.active
        if state.players[a].eliminated or hooks.rule_point(state, a, "marker_steps", 1) < f["step"]:
            state.event("marker_step_skipped", f["step"])
            return
    advance(state)


def run_release(state: GameState, f: dict) -> None:
    """A-19 default: a Curse neutralized on an earlier turn flips face up at the start of the
    Action phase, after this turn's Monster phase."""
    done(state, f)
    state.phase = Phase.ACTION
    if state.config.neutralized_curse_release == "after_next_monster_phase":
        _release_curses(state)
    fire(state, state.active, "action_phase_start")


def run_endround(state: GameState, f: dict) -> None:
    """Section 3.3.4: Bonus if every Curse was destroyed, else Failure and the Curses leave."""
    done(state, f)
    remaining = state.curses_on_track()  # neutralized Curses count (section 7)
    if state.round == ROUNDS:
        if remaining:
            end_game(state, "loss", "the last Monster was not vanquished")
        else:
            end_game(state, "win", "the last Monster was vanquished")
        return
    page = state.grimoire[state.round]  # the right-hand page of this spread
    if remaining:
        state.stat("monsters_failed")
        state.event("failure", page)
        push(state, seq(page, "failure", state.active), {"kind": "cleartrack"}, {"kind": "expire"})
    else:
        state.stat("monsters_defeated")
        state.event("bonus", page)
        push(state, seq(page, "bonus", state.active), {"kind": "expire"})


def run_cleartrack(state: GameState, f: dict) -> None:
    done(state, f)
    for slot in range(NUM_TRACK_SLOTS):
        while state.track[slot]:
            remove_curse(state, slot, 0, -1)


def run_expire(state: GameState, f: dict) -> None:
    """A-68: "until the next Monster" effects end at the page turn."""
    done(state, f)
    hooks.expire(state, "until_next_monster")


def run_newmonster(state: GameState, f: dict) -> None:
    """Section 3.3.5: turn the page, move the Round marker, place Curses, arrival effect (A-03)."""
    done(state, f)
    state.round += 1
    state.marker = 1
    page = state.grimoire[state.round - 1]
    state.event("monster", state.round, page)
    place = {"kind": "place"}
    arrival = seq(page, "arrival", state.active)
    if state.config.arrival_effect_after_placement:
        push(state, place, arrival)
    else:
        push(state, arrival, place)


def run_place(state: GameState, f: dict) -> None:
    """Multi-Element Curses first, in draw order, then the Monster's symbols left to right, into
    the slots S2, S3L, S3R, S4, S5 ([FAQ], A-01, A-02); an empty pile places nothing (A-07)."""
    done(state, f)
    page = state.pack.pages[state.grimoire[state.round - 1]]
    monster = page.monster
    if monster is None:  # Cover and Inside pages carry a Monster, the End page none (docs/rules.md 1.1)
        raise ValueError(f"Grimoire page {page.id!r} of round {state.round} has no Monster")
    k = state.pack.round_track[state.config.difficulty - 1][state.round - 1]
    types = ["multi"] * k + list(monster.curse_symbols)
    slot = 0
    for t in types:
        while slot < NUM_TRACK_SLOTS and state.track[slot]:
            slot += 1
        if slot >= NUM_TRACK_SLOTS:
            break
        pile = state.curse_piles[t]
        if pile:
            state.track[slot].append(CurseOnTrack(pile.pop()))
            state.event("curse_placed", slot, state.track[slot][-1].curse)
    check_immediate_win(state)


def run_recup(state: GameState, f: RecupFrame) -> None:
    """Section 5.1: exactly hand-size cards; Madness is never discarded here; elimination."""
    state.phase = Phase.RECUPERATION
    p = f["player"]
    pl = state.players[p]
    if pl.eliminated:
        done(state, f)
        return
    limit = hooks.hand_size(state, p)
    n = sum(pl.hand)
    if n > limit and legal_recup(state, f):
        f["decider"] = p  # DP-36
        return
    done(state, f)
    if n < limit:
        draw(state, p, limit - n)
        if state.over:
            return
    # The modules' recup_drawn seams, every one of them (the Phobia module places the Phobias of
    # the hand, docs/rules.md 9.2): one that took over checks elimination itself (V-35).
    if state.config.modules and any([hook(state, p) for hook in state.rules.recup_drawn]):
        return
    if madness_in_hand(state, p) >= limit:
        eliminate(state, p)


def legal_recup(state: GameState, f: RecupFrame) -> list[int]:
    hand = state.players[f["player"]].hand
    return [PICK_HAND + c for c in range(len(hand)) if hand[c] and not is_madness(c)]


def answer_recup(state: GameState, f: RecupFrame, move: int) -> None:
    pl = state.players[f["player"]]
    code = move - PICK_HAND
    pl.hand[code] -= 1
    pl.discard[code] += 1


def run_endturn(state: GameState, f: dict) -> None:
    """Section 3.6: reset per-turn flags and "this turn" effects."""
    done(state, f)
    for pl in state.players:
        pl.ability_used = False
    hooks.expire(state, "this_turn")


frame("conc", run_conc)
frame("monster", run_monster)
frame("advance", run_advance)
frame("release", run_release)
frame("endround", run_endround)
frame("cleartrack", run_cleartrack)
frame("expire", run_expire)
frame("newmonster", run_newmonster)
frame("place", run_place)
frame("recup", run_recup, legal_recup, answer_recup)
frame("endturn", run_endturn)
frame("refresh_choice", run_refresh_choice, legal_refresh_choice, answer_refresh_choice)


TURN_START[:] = [start_turn]


# -- limits that shrink (sections 4.11, 9.2; see the docstring) ------------------------------------


def lose_ability(state: GameState, p: int) -> None:
    """Player p's Magician ability is off for the rest of the game; limits shrink at once."""
    state.players[p].ability_lost = True
    state.event("ability_lost", p)
    enforce_limits(state, p)


def enforce_limits(state: GameState, p: int) -> None:
    """Push the reaction to a shrunk limit and run to the next decision (nothing when none shrank)."""
    if react(state, p):
        state.legal_cache = None
        run(state)


def react(state: GameState, p: int) -> bool:
    """Inside a frame (an op, a module's frame): push the reaction when a limit shrank (True); the
    run loop reaches it next."""
    shrank = bool(_excess_spells(state, p) or _excess_support(state, p))
    if shrank:
        push(state, {"kind": "limits", "player": p, "decider": None})
    return shrank


def _excess_spells(state: GameState, p: int) -> int:
    return max(0, len(state.players[p].spells) - hooks.spell_limit(state, p))


def _raises_support(state: GameState, p: int) -> bool:
    """Whether player p's Magician's own ability raises the support capacity (the blue Magician)."""
    return any(m["kind"] == "support_slots" for m in state.pack.magicians[state.players[p].magician].mods)


def _element_slots(state: GameState, p: int) -> list[int]:
    """The support slots the player may discard to come within capacity."""
    support = state.players[p].support
    if _raises_support(state, p):  # V-27, A-75: any card but a Madness card that keeps its identity
        return [s for s, slot in enumerate(support) if slot.card < IDENTITY_MADNESS_BASE]
    return [s for s, slot in enumerate(support) if not is_madness(slot.card)]


def _excess_support(state: GameState, p: int) -> int:
    support = state.players[p].support
    # V-27, A-75: every slot counts for the blue Magician, else only the non-Madness cards
    held = len(support) if _raises_support(state, p) else len(_element_slots(state, p))
    return max(0, held - hooks.support_capacity(state, p))


def run_limits(state: GameState, f: LimitsFrame) -> None:
    p = f["player"]
    if state.players[p].eliminated or not (_excess_spells(state, p) or _excess_support(state, p)):
        done(state, f)
        return
    if not _excess_spells(state, p) and not _element_slots(state, p):
        done(state, f)  # V-27, A-75: more Phobias than slots, nothing else to discard
        eliminate(state, p)
        return
    f["decider"] = p


def legal_limits(state: GameState, f: LimitsFrame) -> list[int]:
    p = f["player"]
    if _excess_spells(state, p):
        return [PICK_SPELL + i for i in range(len(state.players[p].spells))]
    return [PICK_SUPPORT + support_arg(0, s) for s in _element_slots(state, p) if s < MAX_SUPPORT_SLOTS]


def answer_limits(state: GameState, f: LimitsFrame, move: int) -> None:
    p = f["player"]
    if move >= PICK_SPELL:  # a Spell to the box, else a support slot to discard (legal_limits)
        spell_to_box(state, p, move - PICK_SPELL)
        return
    code = state.players[p].take_support(move - PICK_SUPPORT)
    state.players[p].discard[code] += 1
    state.event("support_discard", p, code)


frame("limits", run_limits, legal_limits, answer_limits)
