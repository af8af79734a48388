"""The Phobia module's rules of part B on dealing, curing and elimination (V-21, V-24,
V-28, V-38; docs/rules.md 5.3, 7, A-73): several players' Madness dealt round-robin from the face-up
pile, a Phobia brought by the bagpipe's "replace" crushing the chosen card, the owner choosing
which Madness a cure by effect takes, and the Active Player eliminated during their own turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbom_env.engine import GameConfig, from_json, new_game, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.core.resolver import push, run
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.scenario import resolve_effect, start_action_phase
from bbom_env.engine.model.constants import MADNESS, is_madness
from bbom_env.engine.model.records import CurseOnTrack, SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.modules.phobias.placement import CRUSH
from bbom_env.modules.phobias.state import PHOBIA_BASE
from modules.phobias.helpers import MODULES, clear_support, fill_support, game, hand_to_support, take

P = [PHOBIA_BASE + k for k in range(16)]

# Test Curses (reconstructed fixtures, not game content): each resolves one op of the vocabulary.
PACK = """
[[curse]]
id = "test_ph_each2"
name = "Test Double Dread"
type = "fire"
text = "Each player receives 2 Madness."
effect = [{ op = "receive_madness", target = "each", count = 2 }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_each2_hand"
name = "Test Double Dread In Hand"
type = "fire"
text = "Each player receives 2 Madness into their hand."
effect = [{ op = "receive_madness", target = "each", count = 2, to = "hand" }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_each_hand"
name = "Test Dread In Hand"
type = "fire"
text = "Each player receives a Madness into their hand."
effect = [{ op = "receive_madness", target = "each", to = "hand" }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_a_player2"
name = "Test Chosen Dread"
type = "fire"
text = "A player receives 2 Madness."
effect = [{ op = "receive_madness", target = "a_player", count = 2 }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_piper"
name = "Test Piper Curse"
type = "water"
text = "You receive a Madness into your support (if it is full, one replaces a support card)."
effect = [{ op = "receive_madness", target = "you", to = "support", full_support = "replace" }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_cure_hand"
name = "Test Relief"
type = "earth"
text = "You cure 1 Madness card from your hand."
effect = [{ op = "cure", target = "you", from = "hand", count = 1 }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_cure_hand2"
name = "Test Great Relief"
type = "earth"
text = "You cure 2 Madness cards from your hand."
effect = [{ op = "cure", target = "you", from = "hand", count = 2 }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_cure_support"
name = "Test Calm"
type = "earth"
text = "You cure 1 Madness card from your support."
effect = [{ op = "cure", target = "you", from = "support", count = 1 }]
provenance = "reconstructed"

[[curse]]
id = "test_ph_cure_deep"
name = "Test Deep Calm"
type = "earth"
text = "You cure 1 Madness card from your discard pile and your deck."
effect = [{ op = "cure", target = "you", from = "discard_and_deck", count = 1 }]
provenance = "reconstructed"
"""


@pytest.fixture
def pack(tmp_path: Path) -> str:
    path = tmp_path / "rules_b.toml"
    path.write_text(PACK)
    return str(path)


def _cap(s: GameState, p: int) -> int:
    return hooks.support_capacity(s, p)


def _no_madness(s: GameState, p: int) -> None:
    """Every Madness card of p's hand, discard pile and deck to the box (plain) or under the pile."""
    pl = s.players[p]
    cards = [c for c in pl.deck if is_madness(c)]
    pl.deck = [c for c in pl.deck if not is_madness(c)]
    for zone in (pl.hand, pl.discard):
        for c in range(len(zone)):
            if is_madness(c):
                cards += [c] * zone[c]
                zone[c] = 0
    for c in cards:
        if c == MADNESS:
            s.box[c] += 1
        else:
            s.madness_pile.insert(0, c)


def _pull(s: GameState, code: int) -> None:
    """Remove one card ``code`` from wherever it lies (a support, a hand, a discard pile, else the
    pile, the box or a deck): setup's arrival effects may have dealt a Phobia. Plain Madness from
    the pile or the box."""
    for pl in s.players if code != MADNESS else ():
        for k, slot in enumerate(pl.support):
            if slot.card == code:
                pl.take_support(k)
                return
        for zone in (pl.hand, pl.discard):
            if zone[code]:
                zone[code] -= 1
                return
    take(s, code)


def _pile_tops(s: GameState, codes: list[int]) -> None:
    """The pile's top cards, first given on top (drawn first)."""
    for c in reversed(codes):
        _pull(s, c)
        s.madness_pile.append(c)


def _to_hand(s: GameState, p: int, code: int) -> None:
    _pull(s, code)
    s.players[p].hand[code] += 1


# -- V-24: round-robin dealing -------------------------------------------------------------------


@pytest.mark.parametrize("dealing", ["round_robin", "by_player"])
def test_v24_each_player_receives_two_dealt_one_card_at_a_time(ph: None, pack: str, dealing: str) -> None:
    """V-24: "each player receives 2 Madness" with the pile face up: by default dealt one card at a
    time, round-robin in turn order from the Active Player (seat 1, then 2, then 0), until each
    has 2; the switch ``phobia_dealing="by_player"`` gives each player both at their turn-order
    position (docs/rules.md 5.3 read per player)."""
    s = game(3, 11, pack_overrides=(pack,), phobia_dealing=dealing)
    start_action_phase(s, 1)
    tops = P[:6]
    _pile_tops(s, tops)
    before = [list(pl.discard) for pl in s.players]
    resolve_effect(s, "test_ph_each2", controller=1)
    got = {q: [c for c in tops if s.players[q].discard[c] > before[q][c]] for q in range(3)}
    if dealing == "round_robin":
        assert got == {1: [P[0], P[3]], 2: [P[1], P[4]], 0: [P[2], P[5]]}
    else:
        assert got == {1: [P[0], P[1]], 2: [P[2], P[3]], 0: [P[4], P[5]]}
    assert pending(s).kind == "action" and pending(s).player == 1
    check_invariants(s)


def test_v24_a_placement_resolves_before_the_next_card_is_dealt(ph: None, pack: str) -> None:
    """V-24 with V-22: into the hand, the Active Player's Phobia waits for their crush choice (no
    free slot) before the next player gets a card; the rest is dealt after the choice, still
    round-robin."""
    s = game(2, 12, pack_overrides=(pack,))
    start_action_phase(s, 0)
    for q in (0, 1):
        clear_support(s, q)
        _no_madness(s, q)
    fill_support(s, 0, _cap(s, 0))
    _pile_tops(s, [P[0], MADNESS, MADNESS, P[1]])
    pile = len(s.madness_pile)
    resolve_effect(s, "test_ph_each2_hand", controller=0)
    d = pending(s)
    assert d.kind == CRUSH and d.player == 0
    assert len(s.madness_pile) == pile - 1  # only the Active Player's first card is dealt
    assert s.players[1].hand[MADNESS] == 0
    s.apply_action(M.PICK_SUPPORT + M.support_arg(0, 1))
    p0, p1 = s.players
    assert p0.support[1].card == P[0] and p0.hand[MADNESS] == 1
    # Seat 1: plain Madness, then the Phobia P[1] of the second round, placed in a free slot.
    assert p1.hand[MADNESS] == 1 and SupportSlot(P[1]) in p1.support
    assert pending(s).kind == "action"
    check_invariants(s)


def test_v24_switch_needs_the_module() -> None:
    """V-24's switch is the Phobia module's: off its default without the module, refused."""
    with pytest.raises(ConfigError, match="phobia_dealing.*without module 'phobias'"):
        GameConfig(phobia_dealing="by_player")
    with pytest.raises(ConfigError, match="phobia_dealing"):
        GameConfig(modules=MODULES, phobia_dealing="sideways")
    assert GameConfig(modules=MODULES).switch("phobia_dealing") == "round_robin"
    assert new_game(GameConfig(modules=MODULES)).rules.rulings["madness_round_robin"](
        GameConfig(modules=MODULES)
    )
    assert "madness_round_robin" not in new_game(GameConfig()).rules.rulings  # a base game keeps its order


# -- V-21: the bagpipe's replace with a Phobia ----------------------------------------------------


def test_v21_replace_with_a_phobia_crushes_the_chosen_card(ph: None, pack: str) -> None:
    """V-21: "into support, replacing a card when full" with a Phobia on top of the pile: the
    placement procedure: the owner picks a non-Phobia card, which is crushed under the Phobia
    (not discarded)."""
    s = game(2, 13, pack_overrides=(pack,))
    start_action_phase(s, 0)
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0))
    chosen = s.players[0].support[1].card
    discard = list(s.players[0].discard)
    _pile_tops(s, [P[2]])
    resolve_effect(s, "test_ph_piper", controller=0)
    d = pending(s)
    assert d.kind == CRUSH and d.player == 0
    s.apply_action(M.PICK_SUPPORT + M.support_arg(0, 1))
    pl = s.players[0]
    assert pl.support[1] == SupportSlot(P[2], crushed=chosen)
    assert pl.discard == discard and len(pl.support) == _cap(s, 0)
    check_invariants(s)


def test_v21_replace_with_plain_madness_still_discards(ph: None, pack: str) -> None:
    """The bagpipe ruling unchanged for a plain Madness: the owner discards the chosen card and the
    Madness takes its place."""
    s = game(2, 13, pack_overrides=(pack,))
    start_action_phase(s, 0)
    clear_support(s, 0)
    fill_support(s, 0, _cap(s, 0))
    chosen = s.players[0].support[1].card
    _pile_tops(s, [MADNESS])
    resolve_effect(s, "test_ph_piper", controller=0)
    assert pending(s).kind == "receive_madness"
    discarded = s.players[0].discard[chosen]
    s.apply_action(M.PICK_SUPPORT + M.support_arg(0, 1))
    pl = s.players[0]
    assert pl.discard[chosen] == discarded + 1 and pl.support[-1] == SupportSlot(MADNESS)
    check_invariants(s)


# -- V-28: cure by effect chooses which Madness ---------------------------------------------------


def test_v28_cure_from_hand_the_owner_chooses_the_phobia(ph: None, pack: str) -> None:
    """V-28: cure 1 Madness from a hand holding a plain Madness and a Phobia: the owner chooses (a
    ``cure`` decision, PICK_HAND moves by card code); the cured Phobia goes face up under the pile
    (A-67) keeping its code; the plain Madness stays."""
    s = game(2, 14, pack_overrides=(pack,))
    start_action_phase(s, 0)
    s.stack[-1]["decider"] = None  # the menu waits again once the effect is over (a save's rule)
    _no_madness(s, 0)
    _to_hand(s, 0, MADNESS)
    _to_hand(s, 0, P[3])  # a Phobia held in hand (before its placement), as after a draw
    resolve_effect(s, "test_ph_cure_hand", controller=0)
    d = pending(s)
    assert d.kind == "cure" and d.player == 0
    assert s.legal_actions() == [M.PICK_HAND + MADNESS, M.PICK_HAND + P[3]]
    loaded = from_json(s.to_json())  # a save at the cure decision loads and answers the same
    s.apply_action(M.PICK_HAND + P[3])
    loaded.apply_action(M.PICK_HAND + P[3])
    assert loaded == s
    pl = s.players[0]
    assert pl.hand[P[3]] == 0 and pl.hand[MADNESS] == 1 and s.madness_pile[0] == P[3]
    assert pending(s).kind == "action"
    check_invariants(s)


def test_v28_no_choice_when_all_are_cured_or_all_identical(ph: None, pack: str) -> None:
    """V-28: "all" needs no choice (cure 2 of 2), nor do identical plain Madness cards."""
    s = game(2, 15, pack_overrides=(pack,))
    start_action_phase(s, 0)
    _no_madness(s, 0)
    _to_hand(s, 0, MADNESS)
    _to_hand(s, 0, P[3])
    resolve_effect(s, "test_ph_cure_hand2", controller=0)
    assert pending(s).kind == "action"
    assert s.players[0].hand[MADNESS] == 0 and s.players[0].hand[P[3]] == 0
    _to_hand(s, 0, MADNESS)
    _to_hand(s, 0, MADNESS)
    resolve_effect(s, "test_ph_cure_hand", controller=0)
    assert pending(s).kind == "action" and s.players[0].hand[MADNESS] == 1
    check_invariants(s)


def test_v28_cure_from_support_frees_the_crushed_card(ph: None, pack: str) -> None:
    """V-28, A-74: cure 1 Madness from a support holding a plain Madness and a Phobia that crushes
    a card: the owner picks the Phobia's slot (PICK_SUPPORT); the crushed card holds the slot again."""
    s = game(2, 16, pack_overrides=(pack,))
    start_action_phase(s, 0)
    clear_support(s, 0)
    under = fill_support(s, 0, 1)[0]
    pl = s.players[0]
    _pull(s, P[4])
    pl.support[0] = SupportSlot(P[4], crushed=under)
    take(s, MADNESS)
    pl.support.append(SupportSlot(MADNESS))
    resolve_effect(s, "test_ph_cure_support", controller=0)
    assert pending(s).kind == "cure"
    assert s.legal_actions() == [M.PICK_SUPPORT + M.support_arg(0, 0), M.PICK_SUPPORT + M.support_arg(0, 1)]
    s.apply_action(M.PICK_SUPPORT + M.support_arg(0, 0))
    assert pl.support == [SupportSlot(under), SupportSlot(MADNESS)] and s.madness_pile[0] == P[4]
    check_invariants(s)


def test_v28_cure_from_discard_and_deck_takes_the_chosen_phobia_from_the_deck(ph: None, pack: str) -> None:
    """V-28 for "discard pile and deck": the owner picks a card code (PICK_DISCARD); the Phobia
    lies in the deck and leaves it; the plain Madness in the discard pile stays."""
    s = game(2, 17, pack_overrides=(pack,))
    start_action_phase(s, 0)
    _no_madness(s, 0)
    pl = s.players[0]
    take(s, MADNESS)
    pl.discard[MADNESS] += 1
    _pull(s, P[5])
    pl.deck.insert(0, P[5])
    resolve_effect(s, "test_ph_cure_deep", controller=0)
    assert pending(s).kind == "cure"
    assert s.legal_actions() == [M.PICK_DISCARD + MADNESS, M.PICK_DISCARD + P[5]]
    with pytest.raises(ValueError, match="cure"):
        s.apply_action(M.PICK_HAND + P[5])  # illegal: named with the pending decision
    s.apply_action(M.PICK_DISCARD + P[5])
    assert P[5] not in pl.deck and pl.discard[MADNESS] == 1 and s.madness_pile[0] == P[5]
    check_invariants(s)


# -- A-73, V-38: the Active Player eliminated during their own turn ---------------------------------


def _monster_turn(s: GameState, active: int, curses: dict[int, list[str]]) -> None:
    """It is ``active``'s turn, the marker one step before the space of ``curses`` (track slot ->
    Curse ids, bottom first), the Monster phase about to run."""
    for slot in range(len(s.track)):
        for c in s.track[slot]:
            s.curse_piles[s.pack.curses[c.curse].type].insert(0, c.curse)
        s.track[slot] = []
    for slot, ids in curses.items():
        for cid in ids:
            s.curse_piles[s.pack.curses[cid].type].remove(cid)
            s.track[slot].append(CurseOnTrack(cid))
    s.active, s.marker, s.stack = active, 2, []
    push(
        s,
        {"kind": "monster"},
        {"kind": "release"},
        {"kind": "menu", "player": active, "grants": -1, "decider": None},
        {"kind": "recup", "player": active, "decider": None},
        {"kind": "endturn"},
    )


def _only_phobias(s: GameState, p: int) -> None:
    clear_support(s, p)
    for k in range(_cap(s, p)):
        _to_hand(s, p, P[8 + k])
        hand_to_support(s, p, P[8 + k])


def test_a73_v38_active_player_eliminated_by_a_curse_the_others_still_resolve(ph: None, pack: str) -> None:
    """A-73, V-38: the Active Player (seat 0) has only Phobias in support; the space's first Curse
    gives them a Phobia into the hand: no slot, nothing to crush: eliminated. The space's other
    Curse still resolves for the other players, the Active Player's choice ("a player") going to
    the next player in turn order; then the turn passes to seat 1."""
    s = game(3, 18, pack_overrides=(pack,))
    for q in range(3):
        _no_madness(s, q)
    _only_phobias(s, 0)
    clear_support(s, 1)
    clear_support(s, 2)
    _pile_tops(s, [P[0], MADNESS, MADNESS, MADNESS, MADNESS])
    _monster_turn(s, 0, {1: ["test_ph_each_hand"], 2: ["test_ph_a_player2"]})
    turn = s.turn
    s.legal_cache = None
    run(s)
    assert s.players[0].eliminated and not s.over
    assert s.marker == 3
    d = pending(s)
    assert d.kind == "choose_player" and d.player == 1  # the stand-in for "a player"
    assert s.players[1].hand[MADNESS] == 1 and s.players[2].hand[MADNESS] == 1  # first Curse
    s.apply_action(M.PICK_PLAYER + 1)  # offset 1 from seat 1: seat 2
    assert s.players[2].discard[MADNESS] == 2
    d = pending(s)
    assert s.turn == turn + 1 and s.active == 1 and d.player == 1  # the turn passed
    check_invariants(s)
