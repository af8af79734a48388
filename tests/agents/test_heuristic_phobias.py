"""The heuristic team with the Phobia module (agents/heuristic_phobias.py): it cures a
Phobia before a plain Madness and the most harmful Phobia first (sections 4.5, 9.2; A-11: any
support), crushes the least useful support card (DP-34, A-55), ranks the Phobias by harm (V-20 to
V-36), moves a Phobia with the Water Magician when it pays off (V-19), plays whole games legally
with the module alone and with Dark Matter, and wins some."""

from __future__ import annotations

import pytest
from builders import Scenario

from agents.heuristic_agent import HeuristicAgent
from agents.heuristic_phobias import (
    best_move,
    crush_choice,
    phobia_choice,
    phobia_harm,
    phobia_move,
    phobias_first,
)
from bbom_env.engine import GameConfig, GameState, new_game, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import run
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.model.records import SupportSlot
from bbom_env.engine.modifiers.hooks import support_capacity
from bbom_env.engine.play.zones import receive_madness
from bbom_env.modules.dark_matter.state import DARK_MATTER, dm_state
from bbom_env.modules.phobias import move as phobia_move_module
from bbom_env.modules.phobias.content import phobia_codes
from bbom_env.modules.phobias.placement import CRUSH
from bbom_env.modules.phobias.state import PHOBIA_BASE

PH = ("phobias",)


def code_of(state: GameState, pid: str) -> int:
    return phobia_codes(state.pack.sections)[pid]


TOUCH, TIME, CURES, CURSES, STUDY, SELF, FIRE = (
    "phobia_05",  # no support cards (V-30)
    "phobia_06",  # the Invocation marker advances 2 (V-34)
    "phobia_04",  # no Cure Action except this card (V-31)
    "phobia_02",  # destroying a Curse costs +1 (V-32)
    "phobia_16",  # learning costs +1 (the reconstructed card, V-20)
    "phobia_15",  # no Ability (V-27)
    "phobia_11",  # no Action using Fire (V-36)
)


def scenario(players: int = 2) -> Scenario:
    """A cleared test-pack game with the module: no Curse on the track, seat 0 to act."""
    return Scenario(num_players=players, modules=PH).action_phase(0)


def take_phobia(s: GameState, code: int) -> None:
    """Take Phobia ``code`` out of wherever the setup put it (the pile, the box or a deck)."""
    if code in s.madness_pile:
        s.madness_pile.remove(code)
    elif s.box[code]:
        s.box[code] -= 1
    else:
        next(pl for pl in s.players if code in pl.deck).deck.remove(code)


def phobia_in_support(sc: Scenario, seat: int, pid: str) -> int:
    code = code_of(sc.s, pid)
    take_phobia(sc.s, code)
    sc.p(seat).support.append(SupportSlot(code))
    sc.s.legal_cache = None
    return code


def first_cure(sc: Scenario) -> tuple[int, int]:
    """Let the heuristic play seat 0's turn until its first Cure Action: (owner, card code)."""
    s = sc.s
    agent = HeuristicAgent(0)
    while s.current_player() == 0 and not s.over:
        move = agent.act(s)
        if M.CURE_HAND <= move < M.CURE_SUPPORT:
            return 0, move - M.CURE_HAND
        if M.CURE_SUPPORT <= move < M.ABILITY:
            off, slot = M.decode(move, PH).args
            q = off % len(s.players)
            return q, s.players[q].support[slot].card
        s.apply_action(move)
    raise AssertionError("the heuristic took no Cure Action this turn")


# -- curing (sections 4.5, 9.2) -------------------------------------------------------------------


def test_it_cures_a_phobia_before_a_plain_madness() -> None:
    """Section 4.5, 9.2: a plain Madness in hand and the least harmful Phobia (learning +1) in the
    support, Elements to pay for one Cure: the Phobia is cured first."""
    sc = scenario().hand(0, "madness", "fire-2", "water-2", "earth-1")
    study = phobia_in_support(sc, 0, STUDY)
    assert M.CURE_HAND + MADNESS in sc.s.legal_actions()
    assert first_cure(sc) == (0, study)


def test_it_cures_a_phobia_in_hand_before_a_plain_madness_in_hand() -> None:
    """A Phobia drawn this turn waits in the hand until the Recuperation places it (section 9.2):
    curing it now keeps its constraint off; plain Madness (code 12) would come first otherwise."""
    sc = scenario().hand(0, "madness", "madness", "fire-2", "water-2", "earth-1")
    code = code_of(sc.s, CURSES)
    take_phobia(sc.s, code)
    sc.p(0).hand[code] += 1
    sc.s.legal_cache = None
    assert first_cure(sc) == (0, code)


def test_the_most_harmful_phobia_first_in_any_support() -> None:
    """A-11: the Cure Action reaches every support: seat 0 (learning +1) cures the teammate's
    "Invocation marker advances 2" first (it hurts the whole team, V-34)."""
    sc = scenario().hand(0, "fire-2", "water-2", "earth-1")
    phobia_in_support(sc, 0, STUDY)
    time = phobia_in_support(sc, 1, TIME)
    assert first_cure(sc) == (1, time)


def test_cure_moves_are_ordered_by_harm() -> None:
    sc = scenario().hand(0, "madness", "fire-2", "water-2", "earth-1")
    study = phobia_in_support(sc, 0, STUDY)
    touch = phobia_in_support(sc, 0, TOUCH)
    cures = [m for m in sc.s.legal_actions() if M.CURE_HAND <= m < M.ABILITY]
    ordered = phobias_first(sc.s, 0, cures)
    support = sc.p(0).support
    codes = [MADNESS if m < M.CURE_SUPPORT else support[M.decode(m, PH).args.slot].card for m in ordered]
    assert codes == [touch, study, MADNESS]


def test_harm_ranking() -> None:
    """The module doc's table: no support cards > marker +2 > Cure only this card > destroy +1 >
    learning +1; an Element ban counts more when the team's Curses ask for that Element (V-36);
    plain Madness harms nothing."""
    sc = scenario()
    s = sc.s
    harm = {pid: phobia_harm(s, 0, code_of(s, pid)) for pid in (TOUCH, TIME, CURES, CURSES, STUDY)}
    assert harm[TOUCH] > harm[TIME] > harm[CURES] > harm[CURSES] > harm[STUDY] > 0
    assert phobia_harm(s, 0, MADNESS) == 0
    fire_ban = phobia_harm(s, 0, code_of(s, FIRE))
    fire_curse = next(c.id for c in s.pack.curses.values() if c.type == "fire")
    sc.curse(0, fire_curse)
    assert phobia_harm(s, 0, code_of(s, FIRE)) == fire_ban + 1
    # Every Phobia of the pack is ranked (none falls back to the unknown harm silently < 2).
    assert all(phobia_harm(s, 0, c) >= 2 for c in phobia_codes(s.pack.sections).values())


def test_a_cure_by_effect_takes_the_most_harmful_phobia() -> None:
    """V-28: a cure by effect of 1 Madness from a hand holding plain Madness and two Phobias: the
    owner picks; the heuristic cures "no support cards" (V-30) before learning +1 and Madness."""
    sc = scenario().hand(0, "madness", "madness")
    touch, study = code_of(sc.s, TOUCH), code_of(sc.s, STUDY)
    for code in (study, touch):
        take_phobia(sc.s, code)
        sc.p(0).hand[code] += 1
    sc.s.stack[-1]["decider"] = None  # the menu waits again once the effect is over
    sc.effect("test_water_1", controller=0, x=1)  # "Cure X Madness cards from your hand"
    assert pending(sc.s).kind == "cure" and M.PICK_HAND + MADNESS in sc.s.legal_actions()
    move = HeuristicAgent(0).act(sc.s)
    assert move == M.PICK_HAND + touch
    sc.s.apply_action(move)
    assert sc.p(0).hand[touch] == 0 and sc.p(0).hand[study] == 1 and sc.s.madness_pile[0] == touch


# -- the crush choice (DP-34, A-55) ---------------------------------------------------------------


def _crush_decision(sc: Scenario, *support: str) -> int:
    """Seat 0's support is exactly ``support`` (full) and a Phobia arrives into its hand (V-22):
    the crush decision waits; returns the Phobia's code."""
    s = sc.s
    sc.support(0, *support)
    assert len(sc.p(0).support) == support_capacity(s, 0)
    code = next(c for c in s.madness_pile if c >= PHOBIA_BASE)
    s.madness_pile.remove(code)
    s.madness_pile.append(code)
    sc.s.stack = [{"kind": "menu", "player": 1, "grants": -1, "decider": None}]
    s.active = 1
    receive_madness(s, 0, "hand")
    s.legal_cache = None
    run(s)
    assert pending(s).kind == CRUSH and pending(s).player == 0
    return code


def test_it_crushes_a_plain_madness_first() -> None:
    """A-55: a plain Madness in the support is the card worth least (it stays under the Phobia)."""
    sc = scenario()
    code = _crush_decision(sc, "fire-3", "madness", "water-1")
    move = HeuristicAgent(0).act(sc.s)
    assert move == M.PICK_SUPPORT + 1
    sc.s.apply_action(move)
    assert sc.p(0).support[1] == SupportSlot(code, crushed=MADNESS)
    check_invariants(sc.s)


def test_it_crushes_the_least_useful_card() -> None:
    """No Madness there: the card the team needs least, a value-1 card before a value-3 one."""
    sc = scenario()
    _crush_decision(sc, "fire-3", "earth-2", "water-1")
    legal = sc.s.legal_actions()
    assert HeuristicAgent(0).act(sc.s) == M.PICK_SUPPORT + 2 == crush_choice(sc.s, 0, legal)


# -- the Water Magician's move (V-19) ------------------------------------------------------------

BOTH = ("dark_matter", "phobias")
MOVER = "magician_vth_phobia"


def mover_scenario(payment: str = "auto") -> Scenario:
    """Both modules, the Water Magician in seat 0 with 1 Dark Matter and no Element card (nothing
    to cure with), a plain Madness in seat 1's support; no Curse on the track."""
    sc = Scenario(num_players=2, magicians=(MOVER, "test_mag_earth"), modules=BOTH, payment=payment).hand(0)
    sc.support(1, "madness")
    dm_state(sc.s).supply -= 1
    sc.p(0).hand[DARK_MATTER] += 1
    return sc.action_phase(0)


def play_turn(sc: Scenario) -> list[int]:
    """The heuristic plays seat 0's Action phase up to its END (every move legal, END not
    applied); the moves it made."""
    s, agent, made = sc.s, HeuristicAgent(0), []
    while s.current_player() == 0 and not s.over:
        move = agent.act(s)
        assert move in s.legal_actions(), (move, pending(s))
        made.append(move)
        if move == M.END:
            break
        s.apply_action(move)
    return made


def move_block(s: GameState) -> int:
    return M.layout(s.config.modules).by_name[phobia_move_module.BLOCK].start


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_the_water_magician_moves_a_phobia_off_her_valuable_card(payment: str) -> None:
    """V-19, A-74: a Fire ban (V-36) crushes a value-3 card in the Water Magician's support and the
    team cannot cure it: she pays 1 Dark Matter and moves it onto the teammate's plain Madness (it
    costs nothing to crush); the value-3 card is freed in place; the answers (the manual payment's
    pick too) are legal."""
    sc = mover_scenario(payment)
    fire = code_of(sc.s, FIRE)
    sc.support(0, "fire-3")
    under = sc.p(0).support[0].card
    take_phobia(sc.s, fire)
    sc.p(0).support[0] = SupportSlot(fire, crushed=under)
    sc.s.legal_cache = None
    gain, src, dst = best_move(sc.s, 0) or (0.0, None, None)
    assert (src, dst) == ((0, 0), (1, 0)) and gain > 0
    s, agent = sc.s, HeuristicAgent(0)
    assert agent.act(s) == move_block(s)  # first: nothing else to do, and the move pays off
    s.apply_action(move_block(s))
    while not s.stats.get("phobias_moved"):  # the payment, the Phobia, the slot (V-19)
        move = agent.act(s)
        assert move in s.legal_actions() and pending(s).player == 0, (move, pending(s))
        s.apply_action(move)
    assert sc.p(0).support == [SupportSlot(under)]
    assert sc.p(1).support == [SupportSlot(fire, crushed=MADNESS)]
    assert sc.p(0).hand[DARK_MATTER] == 0
    check_invariants(s)


def test_no_move_without_dark_matter_to_spare() -> None:
    """The same Phobia, but a face-up Dark Curse waits (4 Dark Matter in one payment, section 4.7):
    the one Dark Matter card is kept for it (heuristic_dark_matter's stock)."""
    sc = mover_scenario()
    fire = code_of(sc.s, FIRE)
    sc.support(0, "fire-3")
    under = sc.p(0).support[0].card
    take_phobia(sc.s, fire)
    sc.p(0).support[0] = SupportSlot(fire, crushed=under)
    sc.curse(0, "dark_curse_04")
    sc.s.legal_cache = None
    assert move_block(sc.s) in sc.s.legal_actions()
    assert phobia_move(sc.s, 0, sc.s.legal_actions()) is None
    assert move_block(sc.s) not in play_turn(sc)
    assert sc.p(0).hand[DARK_MATTER] == 1


def test_no_move_when_nothing_is_worth_moving() -> None:
    """The Phobia "the Invocation marker advances 2" (V-34) hurts the whole team wherever it lies, and it
    crushes nothing: moving it gains nothing, so the Dark Matter is kept."""
    sc = mover_scenario()
    phobia_in_support(sc, 0, TIME)
    assert move_block(sc.s) in sc.s.legal_actions()
    assert phobia_move(sc.s, 0, sc.s.legal_actions()) is None
    assert move_block(sc.s) not in play_turn(sc)
    assert sc.p(0).hand[DARK_MATTER] == 1


def test_games_with_the_water_magician_stay_legal() -> None:
    """Seeded 2-player games with both modules and the Water Magician seated (auto and manual
    payment): every move legal, the invariants hold at the end."""
    for seed in range(6):
        config = GameConfig(
            seed=seed,
            num_players=2,
            modules=BOTH,
            magicians=(MOVER, "magician_fire_m"),
            payment="manual" if seed % 2 else "auto",
        )
        state = new_game(config)
        agent = HeuristicAgent(seed)
        while not state.over:
            move = agent.act(state)
            assert move in state.legal_actions(), (move, pending(state))
            state.apply_action(move)
        check_invariants(state)


# -- whole games ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "modules"), [(2, PH), (4, PH), (2, ("dark_matter", "phobias"))])
def test_whole_games_stay_legal_and_use_the_module(players: int, modules: tuple[str, ...]) -> None:
    """Seeded games (default pack): every move legal, the invariants hold at the end; across the
    seeds Phobias are cured by the team and crush choices are answered."""
    cured = crushes = 0
    for seed in range(8):
        state = new_game(GameConfig(seed=seed, num_players=players, modules=modules))
        agent = HeuristicAgent(seed)
        while not state.over:
            move = agent.act(state)
            assert move in state.legal_actions(), (move, pending(state))
            if state.stack[-1]["kind"] == "phobia_place":
                crushes += 1
            if M.CURE_SUPPORT <= move < M.ABILITY:
                off, slot = M.decode(move, modules).args
                q = (state.current_player() + off) % players
                cured += state.players[q].support[slot].card >= PHOBIA_BASE
            state.apply_action(move)
        check_invariants(state)
    assert cured > 0 and crushes > 0, (cured, crushes)


def test_it_wins_some_games_with_the_module() -> None:
    """20 seeded 2-player games at level 1 (docs/balance.md has the 100-game figures): some won."""
    wins = 0
    for seed in range(20):
        state = new_game(GameConfig(seed=seed, num_players=2, modules=PH))
        agent = HeuristicAgent(seed)
        while not state.over:
            state.apply_action(agent.act(state))
        wins += state.outcome == "win"
    assert wins >= 2, wins


def test_without_the_module_nothing_changes() -> None:
    """Base games: the cure order is the base game's, and no choice is answered here."""
    state = new_game(GameConfig(seed=3))
    moves = [M.CURE_SUPPORT + 3, M.CURE_HAND + MADNESS]
    assert phobias_first(state, 0, moves) is moves
    assert phobia_choice(state, state.stack[-1], state.legal_actions()) is None
