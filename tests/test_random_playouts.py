"""Random-playout property tests (design decision 10; OpenSpiel basic_tests, fireplace full_game).

Seeded uniform random legal play over every player count, mode, difficulty level and payment mode.
After every decision: the engine invariants (``engine.invariants``), the legal moves (non-empty,
sorted, unique, the decider's), the end within a bound. On a sample of decisions (every decision in
some games): ``clone()`` equals the state and is independent of it, pickle and JSON round trips give
equal states, and a state restored from JSON mid-game continues identically to the end. At the end,
``replay(config, history)`` reproduces the final state.

The default run plays 72 games per pack (a few seconds); ``pytest -m slow`` runs the sweep of
thousands of games.
"""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from bbom_env.engine import GameConfig, from_json, new_game, replay
from bbom_env.engine.cards.pack import resolve_pack_path
from bbom_env.engine.core.moves import num_moves
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import card_totals, check_invariants, expected_totals
from bbom_env.engine.io.serialize import to_dict
from bbom_env.engine.model.constants import MAX_STACK, NUM_CODES
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.engine.play.decision import pending

PLAYERS = (2, 3, 4, 5)
MODES = ("normal", "fear", "nightmare")
LEVELS = (1, 2, 3)
PAYMENTS = ("auto", "manual")
CONFIGS = list(itertools.product(MODES, LEVELS, PAYMENTS))  # 18 per player count
# Bounds a game must end within: 6 rounds of 5 turns plus the opening turn (section 3.3.7), with
# room for marker-moving effects; decisions per game with manual payment at 5 players.
MAX_TURNS = 80
MAX_DECISIONS = 10_000


@pytest.fixture(autouse=True)
def _slow_only_on_request(request: pytest.FixtureRequest) -> None:
    """The default run skips @slow tests; ``pytest -m slow`` runs them (no project conftest yet)."""
    if request.node.get_closest_marker("slow") and "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("slow sweep: run with pytest -m slow")


def _pack_param(name: str):
    marks = []
    if not resolve_pack_path(name).exists():
        marks.append(
            pytest.mark.skip(reason=f"pack {name!r} ({resolve_pack_path(name).name}) not written yet")
        )
    return pytest.param(name, marks=marks, id=name)


PACKS = [_pack_param("test"), _pack_param("default")]


def _check_clone(state: GameState) -> None:
    before = to_dict(state)
    c = state.clone()
    assert c == state
    assert c.legal_actions() == state.legal_actions()
    # Mutating the clone (one move, and direct edits of nested zones) leaves the original alone.
    if not c.over:
        c.apply_action(c.legal_actions()[-1])
    c.players[0].hand[0] += 1
    c.players[-1].deck.append(0)
    c.supply[0][0] += 1
    c.track[0].append(CurseOnTrack("x"))
    if c.stack:
        c.stack[-1]["zz"] = 1
    assert to_dict(state) == before


def _check_roundtrips(state: GameState) -> str:
    """Pickle and JSON round trips give equal states with the same legal moves; returns the JSON."""
    p = pickle.loads(pickle.dumps(state))
    assert p == state
    assert p.legal_actions() == state.legal_actions()
    text = state.to_json()
    j = from_json(text)
    assert j == state
    assert j.legal_actions() == state.legal_actions()
    assert j.current_player() == state.current_player()
    return text


def _check_step(state: GameState, decisions: int) -> None:
    check_invariants(state)  # legal moves non-empty, sorted, unique, in the layout (see module)
    legal = state.legal_actions()
    if state.over:
        assert legal == [] and state.returns()[0] in (-1.0, 1.0)
        return
    assert (
        legal
        and legal == sorted(set(legal))
        and 0 <= legal[0]
        and legal[-1] < num_moves(state.config.modules)
    )
    assert all(len(stack) <= MAX_STACK for stack in state.track)  # V-09: at most 3 Curses deep
    assert pending(state).player == state.current_player() == state.stack[-1]["decider"]
    assert state.returns() == [0.0] * len(state.players)
    assert state.turn <= MAX_TURNS, f"turn {state.turn} past the bound {MAX_TURNS}"
    assert decisions <= MAX_DECISIONS, f"{decisions} decisions past the bound {MAX_DECISIONS}"


def play_checked(config: GameConfig, agent_seed: int, full_every: int) -> GameState:
    """One random game with the per-decision checks; full checks every ``full_every`` decisions."""
    rng = random.Random(agent_seed)
    state = new_game(config)
    snapshots: list[tuple[int, str]] = []
    decisions = 0
    _check_step(state, decisions)
    while not state.over:
        if decisions % full_every == 0:
            _check_clone(state)
            snapshots.append((len(state.history), _check_roundtrips(state)))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        decisions += 1
        _check_step(state, decisions)
    _check_clone(state)
    _check_roundtrips(state)
    assert replay(config, state.history) == state
    # A game restored from JSON mid-game continues identically (first, middle and last snapshot).
    for idx in sorted({0, len(snapshots) // 2, len(snapshots) - 1}):
        k, text = snapshots[idx]
        restored = from_json(text)
        for a in state.history[k:]:
            restored.apply_action(a)
        assert restored == state
    return state


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("pack", PACKS)
def test_random_playouts(pack: str, players: int) -> None:
    outcomes: dict[str, int] = {}
    for i, (mode, level, payment) in enumerate(CONFIGS):
        seed = players * 100 + i
        config = GameConfig(
            num_players=players, difficulty=level, mode=mode, payment=payment, pack=pack, seed=seed
        )
        # Every 6th game checks clone / pickle / JSON at every decision, the others at every 10th.
        state = play_checked(config, agent_seed=seed, full_every=1 if i % 6 == 0 else 10)
        outcomes[state.reason] = outcomes.get(state.reason, 0) + 1
    assert sum(outcomes.values()) == len(CONFIGS)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("pack", PACKS)
def test_random_playouts_sweep(pack: str, players: int) -> None:
    """The long sweep: 25 games per setting, 450 per player count and pack (3,600 in all)."""
    for rep in range(25):
        for i, (mode, level, payment) in enumerate(CONFIGS):
            seed = 10_000 + players * 1_000 + rep * len(CONFIGS) + i
            config = GameConfig(
                num_players=players, difficulty=level, mode=mode, payment=payment, pack=pack, seed=seed
            )
            play_checked(config, agent_seed=seed, full_every=25)


# -- with the Dark Matter module ------------------------------------------------------

DM_CONFIGS = list(itertools.product(LEVELS, PAYMENTS))  # 6 per player count


@pytest.mark.parametrize("players", PLAYERS)
def test_random_playouts_with_dark_matter(players: int) -> None:
    """Section 9.1: the same checks with the Dark Matter module (its invariants: 28 Dark Matter
    cards conserved, the Dark Curse pile and the Black Book made of the pack's cards, the Grimoire's
    Dark Monster pages, stacks within 3), at every player count, level and payment mode; and the
    module's Actions actually happen across the games (not a run where nothing of it plays)."""
    stats: dict[str, int] = {}
    for i, (level, payment) in enumerate(DM_CONFIGS):
        seed = 50_000 + players * 100 + i
        config = GameConfig(
            num_players=players, difficulty=level, payment=payment, seed=seed, modules=("dark_matter",)
        )
        state = play_checked(config, agent_seed=seed, full_every=1 if i % 3 == 0 else 10)
        for k, v in state.stats.items():
            stats[k] = stats.get(k, 0) + v
    assert stats.get("dark_matter_acquired", 0) > 0 and stats.get("black_spells_cast", 0) > 0, stats


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_random_playouts_with_dark_matter_sweep(players: int) -> None:
    """The long sweep with the module: 20 games per setting, 120 per player count."""
    for rep in range(20):
        for i, (level, payment) in enumerate(DM_CONFIGS):
            seed = 60_000 + players * 1_000 + rep * len(DM_CONFIGS) + i
            config = GameConfig(
                num_players=players, difficulty=level, payment=payment, seed=seed, modules=("dark_matter",)
            )
            play_checked(config, agent_seed=seed, full_every=25)


# -- the invariant checker itself catches broken states ----------------------------------------


def _midgame(pack: str = "test", players: int = 3, steps: int = 40) -> GameState:
    state = new_game(GameConfig(num_players=players, pack=pack, seed=7))
    rng = random.Random(7)
    for _ in range(steps):
        if state.over:
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert not state.over
    return state


def test_card_totals_match_the_game_at_setup() -> None:
    state = new_game(GameConfig(num_players=4, pack="test", seed=1, mode="fear"))
    assert card_totals(state) == expected_totals()
    assert sum(expected_totals().values()) == 4 * (18 + 10 + 6) + 35  # section 1.1: 136 + 35
    assert len(card_totals(state)) == NUM_CODES


def _corrupt(edit, match: str) -> None:
    state = _midgame()
    check_invariants(state)
    edit(state)
    with pytest.raises(AssertionError, match=match):
        check_invariants(state)


def test_invariants_catch_an_extra_card() -> None:
    def edit(s: GameState) -> None:
        s.players[1].hand[3] += 1

    _corrupt(edit, "copies of water-1")


def test_invariants_catch_a_lost_madness() -> None:
    _corrupt(lambda s: s.madness_pile.pop(), "copies of madness")


def test_invariants_catch_a_negative_count() -> None:
    def edit(s: GameState) -> None:
        s.supply[2][1] -= 1
        s.destroyed[8] += 1  # keep the total right: only the sign is wrong once the pile is empty
        s.supply[2][1] = -1

    _corrupt(edit, r"supply\[2\]\[1\] = -1 is negative")


def test_invariants_catch_a_duplicated_curse() -> None:
    def edit(s: GameState) -> None:
        pile = next(p for p in s.curse_piles.values() if p)
        pile.append(pile[0])

    _corrupt(edit, "Curses not conserved")


def test_invariants_catch_a_lost_token() -> None:
    def edit(s: GameState) -> None:
        s.tokens[1] -= 1

    _corrupt(edit, "Element tokens of Element 1")


def test_invariants_catch_a_spell_twice() -> None:
    def edit(s: GameState) -> None:
        sid = next(pile[-1] for pile in s.library if pile)
        s.box_spells.append(sid)

    _corrupt(edit, "appear twice")


def test_invariants_catch_a_decider_without_moves() -> None:
    def edit(s: GameState) -> None:
        s.legal_cache = []

    _corrupt(edit, "has no legal move")


def test_invariants_catch_unsorted_moves() -> None:
    def edit(s: GameState) -> None:
        s.legal_cache = [s.legal_actions()[0]] * 2

    _corrupt(edit, "sorted and unique")
