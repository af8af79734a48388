"""Moving a Phobia (V-19; docs/rules.md 4.11, 9.2; A-74): the Dark Matter module's Water
Magician, with both modules: once per turn, on their own turn, pay 1 Dark Matter (hand or support
pool) to move a Phobia from any support to any player's free slot, or onto a non-Phobia card
(crushing it) even when free slots exist; never onto a Phobia; not a placement (no elimination);
a card the Phobia crushed is freed in place."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, from_json, new_game, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.rules import offered_magicians
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.scenario import grant_actions, start_action_phase
from bbom_env.engine.model.records import SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.modules.dark_matter.state import DARK_MATTER, dm_state
from bbom_env.modules.phobias import move
from bbom_env.modules.phobias.content import phobia_codes
from bbom_env.modules.phobias.module import PHOBIA_MODULE
from bbom_env.modules.phobias.state import PHOBIA_BASE
from modules.phobias.helpers import clear_support, fill_support, take

BOTH = ("dark_matter", "phobias")
MOVER = "magician_vth_phobia"
P = [PHOBIA_BASE + k for k in range(16)]


def _game(seed: int = 1, payment: str = "auto") -> GameState:
    mags = (MOVER, "magician_fire_m", "magician_air_f")
    s = new_game(GameConfig(num_players=3, seed=seed, modules=BOTH, magicians=mags, payment=payment))
    for q in range(3):
        clear_support(s, q)
        for c in [c for c in range(len(s.players[q].hand)) if c >= PHOBIA_BASE and s.players[q].hand[c]]:
            s.players[q].hand[c] = 0
            s.madness_pile.insert(0, c)
    return s


def _phobia_to_support(s: GameState, q: int, code: int, crushed: int = -1) -> None:
    for pl in s.players:  # wherever setup left it (an arrival effect may have dealt it)
        for k, slot in enumerate(pl.support):
            if slot.card == code:
                pl.take_support(k)
                break
        else:
            continue
        break
    else:
        take(s, code)
    s.players[q].support.append(SupportSlot(code, crushed=crushed))


def _dark_matter_in_hand(s: GameState, p: int) -> None:
    dm_state(s).supply -= 1
    s.players[p].hand[DARK_MATTER] += 1


def _block(s: GameState) -> int:
    return M.layout(s.config.modules).by_name[move.BLOCK].start


def _ref(off: int, slot: int) -> int:
    return M.PICK_SUPPORT + M.support_arg(off, slot)


def test_v19_the_magician_is_offered_with_dark_matter() -> None:
    """V-18, V-19: offered whenever the Dark Matter module is (its offer_magician); his ability
    moves Phobias only when the Phobia module is in play too."""
    both = GameConfig(modules=BOTH)
    assert MOVER in offered_magicians(both, new_game(both).pack)
    alone = GameConfig(modules=("dark_matter",))
    assert MOVER in offered_magicians(alone, new_game(alone).pack)


def test_v19_move_onto_another_players_free_slot_frees_the_crushed_card() -> None:
    """V-19, A-74: pay 1 Dark Matter from the hand; pick a Phobia in any support (here seat 1's,
    crushing a card), then where it goes: the crushed card is freed in place; the Phobia takes
    seat 2's free slot. Destinations: non-Phobia cards and free slots, never a Phobia."""
    s = _game(1)
    fill_support(s, 1, 1)
    under = s.players[1].support.pop().card
    _phobia_to_support(s, 1, P[0], crushed=under)
    _phobia_to_support(s, 2, P[1])
    fill_support(s, 2, 1)  # seat 2: [P1, card]
    _dark_matter_in_hand(s, 0)
    start_action_phase(s, 0)
    assert _block(s) in s.legal_actions()
    discard_dm = s.players[0].discard[DARK_MATTER]
    s.apply_action(_block(s))
    d = pending(s)
    assert d.kind == move.FROM and d.player == 0 and d.source == MOVER
    assert s.players[0].hand[DARK_MATTER] == 0 and s.players[0].discard[DARK_MATTER] == discard_dm + 1
    assert s.legal_actions() == [_ref(1, 0), _ref(2, 0)]  # the two Phobias
    s.apply_action(_ref(1, 0))
    assert pending(s).kind == move.TO
    # Seat 0's free slot 0; seat 1's free slot 1 (the Phobia's slot stays: the crushed card is freed
    # into it); seat 2's card (slot 1) and free slot 2; never seat 2's Phobia (slot 0).
    assert s.legal_actions() == [_ref(0, 0), _ref(1, 1), _ref(2, 1), _ref(2, 2)]
    loaded = from_json(s.to_json())  # a save at the destination pick loads and answers the same
    s.apply_action(_ref(2, 2))
    loaded.apply_action(_ref(2, 2))
    assert loaded == s
    assert s.players[1].support == [SupportSlot(under)]  # freed in place
    assert s.players[2].support[2] == SupportSlot(P[0])
    assert s.stats["phobias_moved"] == 1
    assert _block(s) not in s.legal_actions()  # once per turn
    check_invariants(s)


def test_v19_onto_a_card_even_with_free_slots_never_onto_a_phobia() -> None:
    """V-19: onto a non-Phobia card, crushing it, although seat 1 has free slots; seat 1's Phobia
    is never a destination."""
    s = _game(2)
    _phobia_to_support(s, 0, P[2])
    fill_support(s, 1, 1)
    _phobia_to_support(s, 1, P[3])
    card = s.players[1].support[0].card
    _dark_matter_in_hand(s, 0)
    start_action_phase(s, 0)
    s.apply_action(_block(s))
    s.apply_action(_ref(0, 0))  # seat 0's own Phobia
    legal = s.legal_actions()
    assert _ref(1, 0) in legal and _ref(1, 2) in legal and _ref(1, 1) not in legal
    assert _ref(0, 0) not in legal  # its own slot, and no free-slot move within its support
    s.apply_action(_ref(1, 0))
    assert s.players[0].support == []
    assert s.players[1].support == [SupportSlot(P[2], crushed=card), SupportSlot(P[3])]
    assert s.stats["cards_crushed"] >= 1
    check_invariants(s)


def test_v19_not_a_placement_a_full_phobia_support_is_no_destination() -> None:
    """V-19: the move is not a placement: a support full of Phobias is simply not a destination
    (no elimination); the Dark Matter may come from a support pool."""
    s = _game(3)
    cap = hooks.support_capacity(s, 1)
    for k in range(cap):
        _phobia_to_support(s, 1, P[4 + k])
    s.players[0].hand[DARK_MATTER] = 0
    dm_state(s).supply -= 1
    s.players[2].support.append(SupportSlot(DARK_MATTER))  # the support pool pays (section 4.9)
    start_action_phase(s, 0)
    assert _block(s) in s.legal_actions()
    s.apply_action(_block(s))
    assert s.players[2].support == [] and s.players[2].discard[DARK_MATTER] >= 1
    legal = s.legal_actions()
    assert all(M.decode(m, s.config.modules).args.offset == 1 for m in legal)
    s.apply_action(legal[0])
    dest = s.legal_actions()
    assert dest and all(M.decode(m, s.config.modules).args.offset != 1 for m in dest)
    s.apply_action(dest[0])
    assert not any(pl.eliminated for pl in s.players) and len(s.players[1].support) == cap - 1
    check_invariants(s)


@pytest.mark.parametrize("why", ["no_dark_matter", "no_phobia", "not_own_turn", "other_magician"])
def test_v19_not_offered(why: str) -> None:
    """V-19: only the Magician's owner, on their own Action phase (not a granted Action), with 1
    Dark Matter to pay and a Phobia to move."""
    s = _game(4)
    _phobia_to_support(s, 1, P[6])
    _dark_matter_in_hand(s, 0)
    _dark_matter_in_hand(s, 1)
    start_action_phase(s, 0)
    if why == "no_dark_matter":
        s.players[0].hand[DARK_MATTER] -= 1
        dm_state(s).supply += 1
    elif why == "no_phobia":
        pl = s.players[1]
        s.madness_pile.insert(0, pl.take_support(0))
    elif why == "not_own_turn":
        grant_actions(s, 0, 1)  # a granted Action on seat 0's turn is no Action phase of theirs
        assert pending(s).kind == "granted_action"
    else:
        start_action_phase(s, 1)  # seat 1 (the Fire Magician) holds Dark Matter, has no such ability
    assert _block(s) not in s.legal_actions()


def test_v19_cancelled_payment_keeps_the_ability() -> None:
    """Manual payment: PAY_CANCEL drops the Action before anything is spent; the ability stays
    unused this turn (offered again)."""
    s = _game(5, payment="manual")
    _phobia_to_support(s, 1, P[7])
    _dark_matter_in_hand(s, 0)
    start_action_phase(s, 0)
    s.apply_action(_block(s))
    assert pending(s).kind == "payment"
    s.apply_action(M.PAY_CANCEL)
    assert not s.players[0].ability_used and _block(s) in s.legal_actions()
    assert s.players[0].hand[DARK_MATTER] == 1 and s.players[1].support == [SupportSlot(P[7])]
    check_invariants(s)


def test_v19_random_games_with_the_mover_keep_the_invariants() -> None:
    """Whole seeded games with both modules and the Magician: every state keeps the invariants
    (each Phobia once, crushed cards only under Phobias); the move is taken when offered."""
    moved = 0
    for seed in range(6):
        s = new_game(GameConfig(num_players=2, seed=seed, modules=BOTH, magicians=(MOVER, "magician_fire_m")))
        rng = random.Random(seed)
        while not s.over:
            legal = s.legal_actions()
            mv = _block(s) if _block(s) in legal else rng.choice(legal)
            s.apply_action(mv)
            check_invariants(s)
        moved += s.stats.get("phobias_moved", 0)
    assert moved > 0


@pytest.mark.skipif(
    not PHOBIA_MODULE.modifier_sources, reason="the Phobias' constraints are not in play (no modifier source)"
)
def test_v19_v27_the_text_changes_owner_at_once() -> None:
    """V-19, V-27: the Phobia "You lose your Ability" moved onto the blue Magician's support (she
    has 2 extra slots: 5 cards) binds her at once: her ability is lost, her support shrinks to 3
    slots and she discards non-Phobia cards of her choice down to 3 (the crushed card shares its
    Phobia's slot); its former owner has their ability back."""
    mags = (MOVER, "magician_water_f", "magician_fire_m")
    s = new_game(GameConfig(num_players=3, seed=6, modules=BOTH, magicians=mags))
    for q in range(3):
        clear_support(s, q)
    no_ability = phobia_codes(s.pack.sections)["phobia_15"]
    _phobia_to_support(s, 2, no_ability)
    assert hooks.ability_lost(s, 2) and not hooks.ability_lost(s, 1)
    pl = s.players[1]
    for c in (0, 3, 6, 9, 1):  # five Element cards from the value-1 reserve and the supply
        s.reserve1[c // 3] -= c % 3 == 0
        if c % 3:
            s.supply[c // 3][0] -= 1
        pl.support.append(SupportSlot(c))
    assert len(pl.support) == hooks.support_capacity(s, 1) == 5
    _dark_matter_in_hand(s, 0)
    start_action_phase(s, 0)
    s.apply_action(_block(s))  # the only Phobia is picked at once (a forced decision)
    assert pending(s).kind == move.TO
    s.apply_action(_ref(1, 0))  # onto the blue Magician's first card
    assert pl.support[0] == SupportSlot(no_ability, crushed=0)
    assert hooks.ability_lost(s, 1) and not hooks.ability_lost(s, 2)
    assert hooks.support_capacity(s, 1) == 3
    d = pending(s)
    assert d.kind == "discard" and d.player == 1
    assert s.legal_actions() == [_ref(0, k) for k in range(1, 5)]  # never the Phobia
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[0])
    assert len(pl.support) == 3 and pl.support[0].card == no_ability
    assert pending(s).player == 0  # back to the mover's menu
    check_invariants(s)


def test_v19_any_movable_is_whether_a_phobia_has_somewhere_to_go() -> None:
    """``move._any_movable`` (the menu's question, without the lists) answers as
    ``move._movable`` does, on random supports: Phobias (some crushing a card), other cards, full
    and empty supports, eliminated players."""
    rng = random.Random(7)
    answers = {True: 0, False: 0}
    for seed in range(120):
        s = _game(seed % 5)
        phobias = (0.5, 0.9, 1.0)[seed % 3]  # the share of Phobias: with 1.0, only free slots are left
        for q, pl in enumerate(s.players):
            clear_support(s, q)
            pl.eliminated = rng.random() < 0.15
            cap = hooks.support_capacity(s, q)
            for _ in range(cap if rng.random() < 0.5 else rng.randrange(cap + 1)):
                roll = rng.random()
                if roll < phobias:
                    crushed = rng.choice((-1, -1, 3, DARK_MATTER))
                    pl.support.append(SupportSlot(rng.choice(P), crushed=crushed))
                elif roll < 0.8:
                    pl.support.append(SupportSlot(rng.randrange(12)))
                else:
                    pl.support.append(SupportSlot(DARK_MATTER))
        if seed % 4 == 3:  # every support full of Phobias but one slot of one player's
            for q, pl in enumerate(s.players):
                clear_support(s, q)
                for _ in range(hooks.support_capacity(s, q)):
                    pl.support.append(SupportSlot(rng.choice(P), crushed=rng.choice((-1, -1, 3))))
            pl = s.players[rng.randrange(3)]
            if pl.support:
                pl.support.pop()
            for q in s.players:  # sometimes alone: only its own free slot (for a crushing Phobia)
                q.eliminated = q is not pl and rng.random() < 0.5
        for p in range(3):
            expected = bool(move._movable(s, p))
            assert move._any_movable(s) == expected, (seed, p, [pl.support for pl in s.players])
            answers[expected] += 1
    assert answers[True] > 50 and answers[False] > 30, answers
