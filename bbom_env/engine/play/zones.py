"""Moving cards between zones: drawing, receiving Madness, reshuffling, elimination, end of game
(docs/rules.md sections 5 and 6). Every move keeps each card in exactly one zone. And card effects
and triggers as frames: ``seq`` is the frame that resolves one effect part of a card (sections 7
and 10.5), ``fire`` pushes a player's trigger effects on an event (Magician triggers; a module's
sources too). The moves here, the turn flow, the Actions and the ops all push them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.core.resolver import push
from bbom_env.engine.model.constants import (
    IDENTITY_MADNESS_BASE,
    MADNESS,
    NUM_CODES,
    NUM_ELEMENTS,
    ROUNDS,
    Phase,
)
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.engine.modifiers import hooks

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState, PlayerState


def seq(src: str, part: str, c: int, x: int = 1, path: tuple = ()) -> dict:
    """A frame that resolves the effect ``part`` of card ``src`` with controller c and power X."""
    return {"kind": "seq", "source": src, "part": part, "path": path, "step": 0, "controller": c, "x": x}


def fire(state: GameState, p: int, event: str) -> None:
    """Event hooks (Magician triggers now, Phobias later): push the trigger effects of player p."""
    for src, part in hooks.triggers(state, p, event):
        push(state, seq(src, part, p))


def end_game(state: GameState, outcome: str, reason: str) -> None:
    """Section 6: the team wins or loses together; nothing resolves after this."""
    if state.over:
        return
    state.over = True
    state.outcome = outcome
    state.reason = reason
    state.phase = Phase.OVER
    state.stack.clear()
    state.event("game_over", outcome, reason)


def reshuffle(state: GameState, p: int) -> None:
    """Shuffle the discard pile into a new deck (no Madness: that is draw's job, section 5.2)."""
    pl = state.players[p]
    cards = [c for c in range(NUM_CODES) for _ in range(pl.discard[c])]
    pl.discard = [0] * NUM_CODES
    state.rng.shuffle(cards)
    pl.deck = cards + pl.deck  # an effect may have put cards on top of an empty deck
    state.event("reshuffle", p, len(cards))


def refill_deck(state: GameState, p: int) -> bool:
    """Empty deck and a card must be taken from it: receive a Madness into the discard pile, then
    shuffle the discard pile into the deck (section 5.2, A-23, A-24). False if the game ended."""
    for _ in range(hooks.rule_point(state, p, "reshuffle_madness", 1)):
        if not receive_madness(state, p, "discard"):
            return False
    reshuffle(state, p)
    fire(state, p, "reshuffle")
    return True


def take_top(state: GameState, p: int) -> int:
    """Remove and return the top card of p's deck (refilling it first); -1 if the game ended."""
    pl = state.players[p]
    if not pl.deck and not refill_deck(state, p):
        return -1
    return pl.deck.pop()


def draw(state: GameState, p: int, n: int, to: str = "hand") -> None:
    """Take n cards from the top of p's deck (refilled first when empty) into their hand (a draw)
    or zone ``to`` (discard from the deck top: the bee-like Monster ruling refills first too)."""
    pl = state.players[p]
    for _ in range(n):
        code = take_top(state, p)
        if code < 0:
            return
        getattr(pl, to)[code] += 1  # (read each time: a reshuffle makes a new discard pile)
    if to == "hand":
        state.stat(f"drawn_p{p}", n)


def put(pl: PlayerState, code: int, zone: str) -> None:
    """Put card ``code`` into zone ``zone`` of player pl: "hand", "discard", "deck_top", "support"."""
    if zone == "deck_top":
        pl.deck.append(code)
    elif zone == "support":  # a full support is exceeded, not refused
        pl.support.append(SupportSlot(code))
    else:
        getattr(pl, zone)[code] += 1  # the hand and the discard pile: counts by card code


def receive_madness(state: GameState, p: int, to: str = "discard") -> bool:
    """Take the top card of the Madness pile (section 5.3). An empty pile loses the game at once
    (section 6, A-25): returns False then."""
    if not state.madness_pile:
        end_game(state, "loss", "the Madness pile ran out")
        return False
    code = state.madness_pile.pop()
    put(state.players[p], code, to)
    state.stat("madness_received")
    state.event("madness", p, to)
    if to in ("hand", "support") and state.config.modules:  # V-21, V-22: a Phobia is placed at once
        arrived(state, p, code, to)
    return True


def arrived(state: GameState, p: int, code: int, zone: str) -> None:
    """A card arrived directly in p's hand or support by an effect ("hand", "support"): the
    modules' ``madness_arrived`` seams see it (the Phobia module places a Phobia, V-21, V-22).
    Callers ask only in a game with modules."""
    for hook in state.rules.madness_arrived:
        hook(state, p, code, zone)


def madness_under(state: GameState, curse: str, code: int) -> bool:
    """A card of the Madness pile goes under Curse ``curse`` (the Sorcerer, A-43): True when a
    module keeps it by identity (V-29: a Phobia), else the Curse's ``madness`` count takes it."""
    if code == MADNESS or not state.config.modules:
        return False
    return any(hook(state, curse, code) for hook in state.rules.under_curse)


def return_madness(state: GameState, code: int) -> None:
    """A cured Madness goes back under the Madness pile (A-67; face up under it with Phobias)."""
    state.madness_pile.insert(0, code)
    state.stat("madness_cured")


def eliminate(state: GameState, p: int) -> None:
    """Section 5.4, A-31: all the player's cards (Madness included) and Spells go to the box."""
    pl = state.players[p]
    if pl.eliminated:
        return
    for c in pl.deck:
        state.box[c] += 1
    for slot in pl.support:
        state.box[slot.card] += 1
        if slot.crushed != NO_CARD:
            state.box[slot.crushed] += 1
    for c in range(NUM_CODES):
        state.box[c] += pl.hand[c] + pl.discard[c]
    state.box_spells += [s.spell for s in pl.spells]
    pl.deck, pl.support, pl.spells = [], [], []
    pl.hand = [0] * NUM_CODES
    pl.discard = [0] * NUM_CODES
    pl.eliminated = True
    state.stat("eliminations")
    state.event("eliminated", p)
    if not state.alive():
        end_game(state, "loss", "every player was eliminated")


def spell_to_box(state: GameState, p: int, i: int, event: str = "spell_to_box") -> None:
    """Player p's Spell i goes to the box (over the Spell limit, section 4.2; an effect's "lose")."""
    sid = state.players[p].spells.pop(i).spell
    state.box_spells.append(sid)
    state.event(event, p, sid)


def madness_in_hand(state: GameState, p: int) -> int:
    hand = state.players[p].hand
    return hand[MADNESS] + sum(hand[IDENTITY_MADNESS_BASE:NUM_CODES])  # is_madness (section 9.2)


def remove_curse(state: GameState, slot: int, pos: int, destroyer: int) -> str:
    """Take a Curse off the track: tokens back to the pool (A-62); Madness under it to the
    destroyer's discard pile (Sorcerer, A-43) or, with destroyer -1 (end of round), back to the
    Madness pile; the card to the bottom of its pile (A-08) or out of play."""
    stack = state.track[slot]
    curse = stack.pop(len(stack) - 1 - pos)
    cid, tokens, under = curse.curse, curse.tokens, curse.madness
    for e in range(NUM_ELEMENTS):
        state.tokens[e] += tokens[e]
    kept: list[int] = []
    if state.config.modules:  # V-29: the cards a module kept under it, each by identity
        for hook in state.rules.from_curse:
            kept += hook(state, cid)
    for code in [MADNESS] * under + kept:
        if destroyer >= 0:
            state.players[destroyer].discard[code] += 1
        else:
            state.madness_pile.insert(0, code)
    ctype = state.pack.curses[cid].type
    if destroyer < 0 or state.config.destroyed_curse_destination == "bottom":
        state.curse_piles[ctype].insert(0, cid)
    else:
        state.curse_piles.setdefault("out", []).append(cid)
    return cid


def destroy_curse(state: GameState, slot: int, pos: int, p: int, reward: bool = True) -> None:
    """Player p destroys the Curse ``pos`` from the top of track slot ``slot``, by the Destroy
    Action (section 4.4) or an effect: it leaves the track to its own pile's bottom (A-08), then
    the reward (DP-15; an effect's only when it says so). "Whenever you destroy a Curse" triggers
    apply either way: they resolve first, then the reward."""
    stack = state.track[slot]
    ctype = state.pack.curses[stack[len(stack) - 1 - pos].curse].type
    cid = remove_curse(state, slot, pos, p)
    state.stat("curses_destroyed")
    if state.config.modules:  # a module's own count (dark_curses_destroyed)
        rule = state.rules.curse_rules.get(ctype)
        if rule is not None and rule.stat:
            state.stat(rule.stat)
    state.event("destroy", p, cid)
    check_immediate_win(state)
    if state.over:
        return
    if reward:
        push(state, {"kind": "reward", "player": p, "decider": None})
    fire(state, p, "curse_destroyed")


def check_immediate_win(state: GameState) -> None:
    """A-05 "immediate": won as soon as no Curse remains during round 6."""
    if (
        not state.over
        and state.config.final_win_timing == "immediate"
        and state.round == ROUNDS
        and state.curses_on_track() == 0
    ):
        end_game(state, "win", "the last Monster was vanquished")
