"""Placing Phobias (docs/rules.md 5.1, 9.2, 10.8; V-21, V-22, V-24, V-26, V-29, V-35;
A-52, A-53, A-55, A-74): a free slot, else the owner crushes a non-Phobia support card, else the
owner is eliminated; at Recuperation after the draw and when a Phobia arrives directly in a hand
or a support; cured Phobias free what they crushed and go face up under the pile."""

from __future__ import annotations

import pickle

import pytest

from bbom_env.engine import from_json, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import push, run
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.scenario import start_action_phase
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import NO_CARD, CurseOnTrack, SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.ops import _support_options
from bbom_env.engine.play.ops_board import _madness_under_curses
from bbom_env.engine.play.zones import receive_madness, remove_curse
from bbom_env.modules.phobias.placement import CRUSH
from bbom_env.modules.phobias.state import PHOBIA_BASE, ph_state
from modules.phobias.helpers import clear_support, fill_support, game, hand_to_support, to_hand, to_pile_top

P1, P2, P3, P4 = PHOBIA_BASE, PHOBIA_BASE + 1, PHOBIA_BASE + 2, PHOBIA_BASE + 3


def _cap(s: GameState, p: int) -> int:
    return hooks.support_capacity(s, p)


def _settle(s: GameState) -> None:
    s.legal_cache = None
    run(s)


def recuperate(s: GameState, p: int) -> None:
    """Run p's Recuperation alone; the other player's Action menu waits after it (a barrier)."""
    s.active, s.stack = p, []
    other = 1 - p
    push(
        s,
        {"kind": "recup", "player": p, "decider": None},
        {"kind": "menu", "player": other, "grants": -1, "decider": other},
    )
    _settle(s)


def test_a_free_slot_takes_a_phobia_received_into_the_hand(ph: None) -> None:
    """V-22: a Phobia received directly into the hand is placed at once; a free slot takes it."""
    s = game(2, 1)
    clear_support(s, 0)
    to_pile_top(s, P1)
    assert receive_madness(s, 0, "hand")
    assert s.players[0].hand[P1] == 0 and s.players[0].support == [SupportSlot(P1)]
    _settle(s)
    check_invariants(s)


def test_no_free_slot_the_owner_crushes_a_card_of_their_choice(ph: None) -> None:
    """9.2 step 2, A-55, DP-34: a decision of the owner over the non-Phobia support cards (PICK_SUPPORT
    moves of their own support); the crushed card stays under the Phobia, unavailable."""
    s = game(2, 2)
    # Only the crush decision waits: the other player's Action menu comes after it (as when an
    # effect of their turn gave the Phobia).
    s.active, s.stack = 1, []
    push(s, {"kind": "menu", "player": 1, "grants": -1, "decider": None})
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0) - 1)
    to_hand(s, 0, P2)
    hand_to_support(s, 0, P2)  # a Phobia is never crushed
    to_pile_top(s, P1)
    receive_madness(s, 0, "hand")
    _settle(s)
    d = pending(s)
    assert d.kind == CRUSH and d.player == 0
    slots = list(range(_cap(s, 0) - 1))
    assert s.legal_actions() == [M.PICK_SUPPORT + k for k in slots]
    under = s.players[0].support[1].card
    loaded = from_json(s.to_json())  # a save at the crush decision loads and answers the same
    assert loaded == s and loaded.legal_actions() == s.legal_actions()
    s.apply_action(M.PICK_SUPPORT + 1)
    loaded.apply_action(M.PICK_SUPPORT + 1)
    assert loaded == s
    assert s.players[0].support[1] == SupportSlot(P1, crushed=under)
    assert s.players[0].hand[P1] == 0 and under not in s.players[0].support_cards()[1:2]
    check_invariants(s)


def test_a_phobia_into_a_full_support_is_placed_by_the_phobia_rule(ph: None) -> None:
    """V-21: "into support" with a Phobia: no exceeding the capacity (A-26 is for plain Madness):
    a crush choice instead."""
    s = game(2, 3)
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0))
    to_pile_top(s, P3)
    receive_madness(s, 0, "support")
    assert len(s.players[0].support) == _cap(s, 0)
    _settle(s)
    assert pending(s).kind == CRUSH
    s.apply_action(s.legal_actions()[0])
    assert s.players[0].support[0].card == P3 and s.players[0].support[0].crushed != NO_CARD
    check_invariants(s)


def test_every_slot_a_phobia_eliminates(ph: None) -> None:
    """9.2 step 3, A-52 (default "no_slot"): no free slot and nothing to crush: eliminated."""
    s = game(2, 4)
    q = 1 - s.current_player()  # not the seat whose decision waits below
    clear_support(s, q)
    for c in range(_cap(s, q)):
        to_hand(s, q, P2 + c)
        hand_to_support(s, q, P2 + c)
    to_pile_top(s, P1)
    receive_madness(s, q, "hand")
    _settle(s)
    assert s.players[q].eliminated and s.box[P1] == 1 and s.stats.get("phobia_eliminations") == 1
    check_invariants(s)


@pytest.mark.parametrize(("rule", "out"), [("no_slot", False), ("literal_second_phobia", True)])
def test_a52_switch_literal_second_phobia(ph: None, rule: str, out: bool) -> None:
    """A-52: read literally, a support that already holds a Phobia eliminates even with free slots."""
    s = game(2, 5, phobia_elimination=rule)
    q = 1 - s.current_player()
    clear_support(s, q)
    to_hand(s, q, P2)
    hand_to_support(s, q, P2)
    to_pile_top(s, P1)
    receive_madness(s, q, "hand")
    _settle(s)
    assert s.players[q].eliminated is out
    check_invariants(s)


def test_recuperation_places_drawn_phobias_without_redrawing(ph: None) -> None:
    """5.1, 9.2, A-53: after drawing to 6, every Phobia of the hand goes to the support; no redraw;
    the elimination check counts the Madness left in hand (5 Madness + 1 Phobia: not eliminated)."""
    s = game(2, 6)
    pl = s.players[0]
    clear_support(s, 0)
    for c in range(len(pl.hand)):  # an empty hand: everything to the discard pile
        pl.discard[c] += pl.hand[c]
        pl.hand[c] = 0
    for _ in range(5):
        s.box[MADNESS] -= 1
        pl.deck.append(MADNESS)
    to_hand(s, 0, P1)  # then onto the deck's top: drawn first
    pl.hand[P1] -= 1
    pl.deck.append(P1)
    recuperate(s, 0)
    assert not pl.eliminated
    assert pl.support == [SupportSlot(P1)] and pl.hand[MADNESS] == 5 and sum(pl.hand) == 5
    check_invariants(s)
    # The same with 6 plain Madness: eliminated by the base rule (5.4 cause 1).
    s = game(2, 6)
    pl = s.players[0]
    for c in range(len(pl.hand)):
        pl.discard[c] += pl.hand[c]
        pl.hand[c] = 0
    for _ in range(6):
        s.box[MADNESS] -= 1
        pl.deck.append(MADNESS)
    recuperate(s, 0)
    assert pl.eliminated


def test_several_phobias_at_once_in_code_order(ph: None) -> None:
    """DP-35, V-24: placed one at a time (code order): the first takes the free slot, the second
    crushes a card the owner picks, never the Phobia just placed; then the Recuperation ends."""
    s = game(2, 7)
    pl = s.players[0]
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0) - 1)
    for code in (P4, P3):  # P3 on top of the deck, then P4
        to_hand(s, 0, code)
        pl.hand[code] -= 1
        pl.deck.append(code)
    hand_before = sum(pl.hand)
    recuperate(s, 0)
    assert pending(s).kind == CRUSH
    assert pl.support[-1] == SupportSlot(P3)  # the lower code took the free slot
    assert s.legal_actions() == [M.PICK_SUPPORT + k for k in range(_cap(s, 0) - 1)]
    s.apply_action(M.PICK_SUPPORT)
    assert pl.support[0].card == P4 and pl.support[0].crushed != NO_CARD
    assert sum(pl.hand) == max(hooks.hand_size(s, 0), hand_before) - 2
    assert pending(s).player == 1  # the barrier: the Recuperation is over
    check_invariants(s)


def test_curing_a_phobia_frees_the_crushed_card_and_returns_it_under_the_pile(ph: None) -> None:
    """A-74, V-40, 9.2: the Cure Action on the Phobia; the crushed card holds the slot again; the
    Phobia goes face up under the pile (``madness_pile[0]``), keeping its code."""
    s = game(2, 8)
    pl = s.players[0]
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0))
    for _ in range(4):  # Elements to pay with: value-1 Fire cards from the reserve
        s.reserve1[0] -= 1
        pl.hand[0] += 1
    to_hand(s, 0, P1)
    _settle(s)
    start_action_phase(s, 0)
    under = pl.support[0].card
    pl.hand[P1] -= 1
    pl.support[0] = SupportSlot(P1, crushed=under)
    _settle(s)
    cure = M.BLOCKS["CURE_SUPPORT"].start + M.support_arg(0, 0)
    assert cure in s.legal_actions()
    s.apply_action(cure)  # payment="auto": the engine pays 2 Elements from the hand
    assert pl.support[0] == SupportSlot(under)
    assert s.madness_pile[0] == P1
    check_invariants(s)


def test_v26_a_phobia_never_leaves_by_discard_unless_switched(ph: None) -> None:
    """V-26: discard and destroy effects pick support cards that are not Phobias; the switch
    ``phobia_leaves_support`` lets them."""
    for leaves in (False, True):
        s = game(2, 9, phobia_leaves_support=leaves)
        clear_support(s, 0)
        fill_support(s, 0, 1)
        to_hand(s, 0, P1)
        hand_to_support(s, 0, P1)
        options = _support_options(s, {"player": 0}, {"filter": "any"})
        assert options == ([M.PICK_SUPPORT, M.PICK_SUPPORT + 1] if leaves else [M.PICK_SUPPORT])


def test_v29_a_phobia_under_a_curse_keeps_its_identity(ph: None) -> None:
    """V-29, A-43: the Sorcerer's Madness is the pile's actual top card; the destroyer takes that
    card; a Curse that leaves at round end puts it face up under the pile."""
    s = game(2, 10)
    for slot in range(len(s.track)):
        while s.track[slot]:
            remove_curse(s, slot, 0, -1)
    ids = [s.curse_piles[t].pop() for t in ("fire", "water")]
    s.track[0].append(CurseOnTrack(ids[0]))
    s.track[1].append(CurseOnTrack(ids[1]))
    to_pile_top(s, P1)
    s.madness_pile.insert(len(s.madness_pile) - 1, MADNESS)  # then a plain Madness under it
    s.box[MADNESS] -= 1
    _madness_under_curses(s, {}, {})
    assert s.track[0][0].madness == 0 and ph_state(s).under == [(ids[0], P1)]
    assert s.track[1][0].madness == 1
    _settle(s)
    check_invariants(s)
    loaded = from_json(s.to_json())  # the module state's (Curse id, code) pairs round-trip
    assert loaded == s and ph_state(loaded).under == [(ids[0], P1)]
    assert pickle.loads(pickle.dumps(s)) == s and s.clone() == s
    remove_curse(s, 0, 0, 1)
    assert s.players[1].discard[P1] == 1 and ph_state(s).under == []
    to_pile_top(s, P2)
    s.track[0].append(CurseOnTrack(s.curse_piles["earth"].pop()))
    _madness_under_curses(s, {}, {})
    assert ph_state(s).under == [(s.track[0][0].curse, P2)]
    remove_curse(s, 0, 0, -1)  # end of round: under the pile, face up
    assert s.madness_pile[0] == P2
    _settle(s)
    check_invariants(s)


def test_v22_a_phobia_given_by_an_exchange_is_placed_at_once(ph: None) -> None:
    """V-22: an exchange puts the card directly into the taker's hand: a Phobia given is placed in
    the taker's support at once (a free slot here); the giver's hand loses it."""
    from bbom_env.engine.play.ops_cards import _answer_exchange

    s = game(2, 12)
    clear_support(s, 1)
    to_hand(s, 0, P1)
    f = {"kind": "op", "controller": 0, "player": 1, "stage": 0, "count": 1}
    _answer_exchange(s, f, {}, M.PICK_HAND + P1)
    assert s.players[0].hand[P1] == 0 and s.players[1].hand[P1] == 0
    assert s.players[1].support == [SupportSlot(P1)]
    _settle(s)
    check_invariants(s)
