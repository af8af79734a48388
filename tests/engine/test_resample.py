"""resample(state, seat, rng) / GameState.resample_from_infostate (docs/search.md): the seat's
observation is bit-identical in the sample, each hidden part is redrawn, uniformly (chi-square at
a fixed significance, fixed seeds), what the seat has seen stays (Curses back under their pile,
cards cured under the Madness pile, a payment's picks), every engine invariant holds, the sample
plays to the end, and the sample depends only on what the seat knows."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

import bbom_env  # noqa: F401  (registers the Vth Element modules)
from agents import HeuristicAgent, RandomAgent
from bbom_env.engine import GameConfig, GameState, Resampler, new_game, resample
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import NUM_CODES, ROUNDS
from bbom_env.engine.model.records import HandSource
from bbom_env.modules.dark_matter.state import dm_state
from bbom_env.rl.observation import ObservationEncoder

MODULE_SETS = [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")]
SAMPLES = 1500


def chi2_critical(df: int, z: float = 3.090) -> float:
    """The chi-square quantile at significance 0.001 (z: the normal's 0.999 quantile), by the
    Wilson-Hilferty approximation (within 1% of the tables for df >= 2; no scipy here)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def assert_uniform(observed: dict, expected: dict, what: str) -> None:
    """Chi-square goodness of fit of ``observed`` counts to ``expected`` counts (same keys)."""
    assert set(observed) <= set(expected), (what, set(observed) - set(expected))
    stat = sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())
    df = len(expected) - 1
    assert df >= 1, what
    assert stat < chi2_critical(df), f"{what}: chi-square {stat:.1f} >= {chi2_critical(df):.1f} (df {df})"


def play_until(
    config: GameConfig, stop: Callable[[GameState], bool], agent=None, limit: int = 5000
) -> GameState:
    state = new_game(config)
    agent = agent or HeuristicAgent(config.seed)
    for _ in range(limit):
        if state.is_terminal() or stop(state):
            return state
        state.apply_action(agent.act(state))
    raise AssertionError("the stop condition never held")


def decision_points(config: GameConfig, agent, rng: random.Random, p: float):
    """States at random decision points of one game (the game goes on from a clone)."""
    state = new_game(config)
    while not state.is_terminal():
        if rng.random() < p:
            yield state.clone()
        state.apply_action(agent.act(state))


# -- the seat's view is unchanged --------------------------------------------------------------


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_observation_is_identical_at_random_decision_points(modules: tuple[str, ...], payment: str) -> None:
    checked = 0
    for players in (2, 3, 4, 5):
        config = GameConfig(num_players=players, payment=payment, modules=modules, seed=10 * players + 1)
        for observe_other_hands in (False, True):
            enc = ObservationEncoder(config, observe_other_hands=observe_other_hands)
            for agent in (HeuristicAgent(players), RandomAgent(players)):
                rng = random.Random(players)
                for state in decision_points(config, agent, rng, 0.03):
                    seat = rng.randrange(players)
                    sample = resample(state, seat, rng, observe_other_hands)
                    before, after = enc.encode(state, seat), enc.encode(sample, seat)
                    if not np.array_equal(before, after):
                        bad = {
                            n for n, s, ln in enc.sections if (before[s : s + ln] != after[s : s + ln]).any()
                        }
                        raise AssertionError(f"seat {seat} sees a change in {sorted(bad)}")
                    check_invariants(sample)  # card conservation and every other invariant
                    if sample.current_player() == seat:  # the seat's own choices are the same
                        assert sample.legal_actions() == state.legal_actions()
                    checked += 1
    assert checked > 40


def test_resample_from_infostate_is_resample() -> None:
    state = new_game(GameConfig(num_players=3, seed=2))
    assert state.resample_from_infostate(1, 5) == resample(state, 1, random.Random(5))
    assert state.resample_from_infostate(1, random.Random(5)) == resample(state, 1, 5)


def test_bad_seat_is_refused() -> None:
    state = new_game(GameConfig(num_players=2, seed=0))
    with pytest.raises(ValueError, match="seat 2 is not a seat of this 2-player game"):
        resample(state, 2, 0)


# -- a pure function of what the seat knows ------------------------------------------------------


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
def test_sample_depends_only_on_what_the_seat_knows(modules: tuple[str, ...]) -> None:
    """Two states that differ only in what ``seat`` cannot see give the same sample for the same
    rng: the sampler reads no hidden card (it pools them canonically before drawing)."""
    config = GameConfig(num_players=3, modules=modules, seed=4)
    rng = random.Random(1)
    n = 0
    for state in decision_points(config, HeuristicAgent(4), rng, 0.05):
        seat = rng.randrange(3)
        other = resample(state, seat, rng)  # the same information set, other hidden cards
        assert resample(state, seat, 99) == resample(other, seat, 99)
        assert resample(state, seat, 99) != resample(state, seat, 98) or state.is_terminal()
        n += 1
    assert n > 5


def test_real_state_is_untouched_and_sample_reseeded() -> None:
    state = play_until(
        GameConfig(num_players=4, modules=("dark_matter", "phobias"), seed=3), lambda s: s.round >= 2
    )
    copy = state.clone()
    sample = resample(state, 0, 7)
    assert state == copy
    assert sample.rng.getstate() != state.rng.getstate()
    assert resample(state, 0, 7) == sample  # deterministic


# -- each hidden part is redrawn, uniformly ------------------------------------------------------


def test_own_deck_order_is_uniform() -> None:
    seat = 0
    state = play_until(
        GameConfig(num_players=2, seed=1), lambda s: s.round >= 2 and len(s.players[0].deck) >= 6
    )
    deck = state.players[seat].deck
    assert len(deck) >= 4
    code = Counter(deck).most_common()[-1][0]  # the rarest card type in the deck
    k = deck.count(code)
    rs, rng = Resampler(state, seat), random.Random(11)
    seen: Counter = Counter()
    for _ in range(SAMPLES):
        new = rs.sample(rng).players[seat]
        assert sorted(new.deck) == sorted(deck) and new.hand == state.players[seat].hand
        seen.update(i for i, c in enumerate(new.deck) if c == code)
    assert_uniform(seen, {i: SAMPLES * k / len(deck) for i in range(len(deck))}, "own deck positions")


@pytest.mark.parametrize("observe_other_hands", [False, True])
def test_other_hand_and_deck_are_dealt_uniformly(observe_other_hands: bool) -> None:
    seat, other = 0, 1
    state = play_until(
        GameConfig(num_players=2, seed=2), lambda s: s.round >= 2 and len(s.players[1].deck) >= 6
    )
    pl = state.players[other]
    pool = list(pl.deck) + [c for c in range(NUM_CODES) for _ in range(pl.hand[c])]
    code = Counter(pool).most_common()[-1][0]
    k, h = pool.count(code), sum(pl.hand)
    rs, rng = Resampler(state, seat, observe_other_hands), random.Random(12)
    seen: Counter = Counter()
    hands = set()
    for _ in range(SAMPLES):
        new = rs.sample(rng).players[other]
        assert sum(new.hand) == h and len(new.deck) == len(pl.deck)
        if observe_other_hands:
            assert new.hand == pl.hand
        got = [c for c in range(NUM_CODES) for _ in range(new.hand[c])] + new.deck
        assert sorted(got) == sorted(pool)  # conservation: the pool is dealt again
        hands.add(tuple(new.hand))
        seen["hand"] += new.hand[code]
        seen.update(i for i, c in enumerate(new.deck) if c == code)
    n = len(pool) if not observe_other_hands else len(pl.deck)
    kk = k if not observe_other_hands else pl.deck.count(code)
    expected = {i: SAMPLES * kk / n for i in range(len(pl.deck))}
    if not observe_other_hands:
        expected["hand"] = SAMPLES * k * h / n
        assert len(hands) > 1  # the hand changes across samples
    else:
        del seen["hand"]
    if kk:
        assert_uniform(seen, expected, "the other player's hand and deck positions")


def test_library_below_the_top_is_uniform_in_its_class() -> None:
    state = new_game(GameConfig(num_players=2, seed=3))
    rs, rng = Resampler(state, 0), random.Random(13)
    spells = state.pack.spells
    counts: list[Counter] = [Counter() for _ in range(len(state.library[0]) - 1)]
    for _ in range(SAMPLES):
        new = rs.sample(rng)
        for e, pile in enumerate(new.library):
            assert pile[-1] == state.library[e][-1]  # the top is public
            for i, sid in enumerate(pile[:-1]):  # same Element and level (public), any variant
                real = spells[state.library[e][i]]
                assert (spells[sid].element, spells[sid].level) == (real.element, real.level)
        for i, sid in enumerate(new.library[0][:-1]):
            counts[i][sid] += 1
    for i, c in enumerate(counts):
        level = spells[state.library[0][i]].level
        cls = [s.id for s in state.pack.library(0, level)]
        assert_uniform(c, {sid: SAMPLES / len(cls) for sid in cls}, f"Library pile 0, position {i}")


def test_curse_piles_unseen_are_shuffled_seen_stay_at_the_bottom() -> None:
    # A Curse destroyed goes under its pile: its place is known.
    def back_under(s: GameState) -> bool:
        seen = {e[3] for e in s.log if e[1] == "curse_placed"}
        return any(cid in seen for t, pile in s.curse_piles.items() if t != "out" for cid in pile)

    state = play_until(GameConfig(num_players=2, seed=5), back_under)
    seen = {e[3] for e in state.log if e[1] == "curse_placed"}
    t = next(t for t, pile in state.curse_piles.items() if t != "out" and any(c in seen for c in pile))
    pile = state.curse_piles[t]
    fixed = [(i, c) for i, c in enumerate(pile) if c in seen]
    unseen = [i for i, c in enumerate(pile) if c not in seen]
    assert len(unseen) >= 2
    target = pile[unseen[0]]
    rs, rng = Resampler(state, 1), random.Random(14)
    where: Counter = Counter()
    for _ in range(SAMPLES):
        new = rs.sample(rng).curse_piles[t]
        assert all(new[i] == c for i, c in fixed)  # where the seat saw them go
        assert sorted(new) == sorted(pile)
        where[new.index(target)] += 1
    assert_uniform(where, {i: SAMPLES / len(unseen) for i in unseen}, f"Curse pile {t}")


@pytest.mark.parametrize("modules", [(), ("dark_matter",)], ids=["base", "dark_matter"])
def test_face_down_grimoire_pages_are_uniform(modules: tuple[str, ...]) -> None:
    state = play_until(GameConfig(num_players=2, modules=modules, seed=6), lambda s: s.round >= 2)
    r = state.round
    rs, rng = Resampler(state, 0), random.Random(15)
    pages = state.pack.pages
    at: Counter = Counter()
    for _ in range(SAMPLES):
        g = rs.sample(rng).grimoire
        assert g[: r + 1] == state.grimoire[: r + 1] and g[ROUNDS:] == state.grimoire[ROUNDS:]
        assert len(set(g)) == len(g)
        # as many pages of each module as the real Grimoire (the Dark Matter module's k, A-40)
        assert Counter(pages[p].module for p in g) == Counter(pages[p].module for p in state.grimoire)
        at[g[r + 1]] += 1
    seen = set(state.grimoire[: r + 1])
    hidden = state.grimoire[r + 1 : ROUNDS]
    candidates = [p for p, pg in pages.items() if pg.kind == "inside" and p not in seen]
    assert len(at) > 1
    if not modules:  # base game: the page after the spread is any unseen Inside page
        assert_uniform(at, {p: SAMPLES / len(candidates) for p in candidates}, "Grimoire page")
    else:  # a Dark Monster page with probability (dark pages hidden) / (pages hidden)
        dark = sum(pages[p].module == "dark_matter" for p in hidden)
        got = sum(n for p, n in at.items() if pages[p].module == "dark_matter")
        expected = {"dark": SAMPLES * dark / len(hidden), "base": SAMPLES * (1 - dark / len(hidden))}
        expected = {k: v for k, v in expected.items() if v > 0}
        if len(expected) > 1:
            assert_uniform({"dark": got, "base": SAMPLES - got}, expected, "Dark Monster pages")


def test_setup_log_shows_the_sampled_grimoire() -> None:
    state = new_game(GameConfig(num_players=2, modules=("dark_matter",), seed=7))
    sample = resample(state, 0, 3)
    assert sample.grimoire != state.grimoire
    for e in sample.log:
        if e[1] in ("setup", "dark_grimoire"):
            assert e[-1] == tuple(sample.grimoire)
        if e[1] == "black_book":
            assert e[-1] == tuple(dm_state(sample).book)


def test_black_book_face_down_pages_are_uniform() -> None:
    state = new_game(GameConfig(num_players=2, modules=("dark_matter",), seed=8))
    st = dm_state(state)
    first = st.spread + 2
    assert first < len(st.book) - 1
    pages = state.pack.sections["black_page"]
    seen = set(st.book[:first])
    insides = [p for p, pg in pages.items() if pg.kind == "inside" and p not in seen]
    backs = [p for p, pg in pages.items() if pg.kind == "back"]
    rs, rng = Resampler(state, 1), random.Random(16)
    at, back = Counter(), Counter()
    for _ in range(SAMPLES):
        book = dm_state(rs.sample(rng)).book
        assert book[:first] == st.book[:first] and len(book) == len(st.book) and len(set(book)) == len(book)
        at[book[first]] += 1
        back[book[-1]] += 1
    assert_uniform(at, {p: SAMPLES / len(insides) for p in insides}, "Black Book page")
    if len(backs) > 1:
        assert_uniform(back, {p: SAMPLES / len(backs) for p in backs}, "Black Book back page")


def test_dark_curse_pile_is_shuffled() -> None:
    state = new_game(GameConfig(num_players=2, modules=("dark_matter",), seed=9))
    pile = state.curse_piles["dark_matter"]
    rs, rng = Resampler(state, 0), random.Random(17)
    tops = Counter(rs.sample(rng).curse_piles["dark_matter"][-1] for _ in range(SAMPLES))
    assert_uniform(tops, {c: SAMPLES / len(pile) for c in pile}, "Dark Curse pile top")


def test_madness_pile_below_the_top_is_shuffled_cured_cards_stay() -> None:
    config = GameConfig(num_players=2, modules=("phobias",), seed=10)
    state = play_until(config, lambda s: s.stats.get("madness_cured", 0) >= 1 and len(s.madness_pile) > 4)
    pile = state.madness_pile
    cured = state.stats["madness_cured"]
    lo = max(0, len(pile) - max(0, len(pile) - cured))
    rs, rng = Resampler(state, 0), random.Random(18)
    phobia = next((c for c in pile[lo:-1] if pile[lo:-1].count(c) == 1), None)
    where: Counter = Counter()
    for _ in range(SAMPLES):
        new = rs.sample(rng).madness_pile
        assert new[-1] == pile[-1] and new[:lo] == pile[:lo] and sorted(new) == sorted(pile)
        if phobia is not None:
            where[new.index(phobia, lo)] += 1
    if phobia is not None:
        assert_uniform(where, {i: SAMPLES / (len(pile) - 1 - lo) for i in range(lo, len(pile) - 1)}, "Phobia")


# -- what a pending decision shows ----------------------------------------------------------------


def test_payment_picks_of_another_seat_stay_in_its_hand() -> None:
    config = GameConfig(num_players=2, payment="manual", seed=3)

    def picking(s: GameState) -> bool:
        f = s.stack[-1] if s.stack else {}
        return f.get("kind") == "pay" and any(type(p) is HandSource for p in f.get("picks", ()))

    state = play_until(config, picking, RandomAgent(3))
    payer = state.stack[-1]["player"]
    picks = Counter(p.code for p in state.stack[-1]["picks"] if type(p) is HandSource)
    rs, rng = Resampler(state, 1 - payer), random.Random(19)
    for _ in range(200):
        new = rs.sample(rng)
        assert all(new.players[payer].hand[c] >= n for c, n in picks.items())
        assert new.legal_actions()
        check_invariants(new)


# -- a sample plays on ------------------------------------------------------------------------------


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
def test_sampled_state_plays_to_the_end(modules: tuple[str, ...]) -> None:
    state = play_until(GameConfig(num_players=3, modules=modules, seed=12), lambda s: s.round >= 2)
    sample = resample(state, 2, 4)
    agent = HeuristicAgent(0)
    n = 0
    while not sample.is_terminal():
        sample.apply_action(agent.act(sample))
        n += 1
        if n % 25 == 0:
            check_invariants(sample)
        assert n < 20_000
    assert sample.outcome in ("win", "loss")
