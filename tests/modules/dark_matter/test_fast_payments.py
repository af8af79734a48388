"""The counted auto payments of costs in cards (docs/rules.md sections 4.6-4.8): a Dark Curse's or a
Black Spell's Dark Matter cost and Acquire Dark Matter's "2 cards of different Elements" are paid
by ``payment_auto._auto_general``'s canonical order (drop others' support first, then the payer's
own, then the hand; high values first) with counts instead of the exact search. They must pick
the cards the search picks; and the module menu's one-pass counts equal the payment's own."""

from __future__ import annotations

import random

import pytest
from builders import Scenario

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.model.constants import DARK_MATTER, NUM_CODES, NUM_ELEMENT_CODES, element_code
from bbom_env.engine.model.records import HandSource, SupportSlot, SupportSource
from bbom_env.engine.payment import auto as PA
from bbom_env.engine.payment import counted as counted_costs
from bbom_env.engine.payment import frame as PI
from bbom_env.engine.payment.cost import (
    Cost,
    available_values,
    can_cover,
)
from bbom_env.modules.dark_matter.actions import ACQUIRE_COST, dark_matter_cost
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state

DM = DARK_MATTER
COSTS = [dark_matter_cost(n) for n in range(1, 7)] + [Cost(distinct=n) for n in range(1, 5)]


def _with_support_dark_matter(state: GameState, rng: random.Random) -> GameState:
    """A copy of the state where some support cards are Dark Matter (each taken from the supply)."""
    s = state.clone()
    for pl in s.players:
        for i in range(len(pl.support)):
            if rng.random() < 0.4 and dm_state(s).supply > 0:
                dm_state(s).supply -= 1
                pl.support[i] = SupportSlot(DM)
    return s


def _paid(state: GameState, p: int, cost: Cost, banned: frozenset[int]) -> object:
    try:
        return PA._auto_general(state, p, cost, banned)
    except ValueError as e:
        return str(e)


@pytest.mark.parametrize("players", [2, 4])
def test_counted_auto_payments_pick_what_the_search_picks(
    dm: None, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    """Sections 4.6-4.8: at decision points of random games (with Dark Matter put in supports), for
    every player, Dark Matter costs of 1 to 6 and distinct costs of 1 to 4, with and without a
    banned Element (section 4.10): the counted payment equals the search's, refusals included."""
    rng = random.Random(players)
    compared = refused = 0
    for seed in range(4):
        state = new_game(GameConfig(num_players=players, seed=seed, modules=(NAME,)))
        while not state.over:
            if rng.random() < 0.1:
                s = _with_support_dark_matter(state, rng)
                for p in range(players):
                    for cost in COSTS:
                        for banned in (frozenset(), frozenset({rng.randrange(4)})):
                            fast = _paid(s, p, cost, banned)
                            with monkeypatch.context() as m:
                                m.setattr(counted_costs, "counted", lambda cost: False)  # the search
                                assert _paid(s, p, cost, banned) == fast, (seed, p, cost, banned)
                            compared += 1
                            refused += isinstance(fast, str)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 1000 and 0 < refused < compared


def test_dark_matter_is_paid_from_hand_then_own_support_then_others(dm: None) -> None:
    """Section 4.7 with the canonical order: a Dark Curse's 4 Dark Matter from 1 in hand, 2 in the
    payer's support and 2 in another player's: the hand's card, then the payer's own support
    (the last ones), then the other player's last one."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "fire-1")
    s = sc.s
    dm_state(s).supply -= 5
    s.players[0].hand[DM] += 1
    s.players[0].support = [SupportSlot(DM), SupportSlot(element_code(1, 2)), SupportSlot(DM)]
    s.players[1].support = [SupportSlot(DM), SupportSlot(DM)]
    paid = PA.auto_payment(s, 0, dark_matter_cost(4), "destroy")
    assert paid == [HandSource(DM), SupportSource(0, 0), SupportSource(0, 2), SupportSource(1, 1)]


def test_acquire_dark_matter_keeps_one_card_of_each_of_two_elements(dm: None) -> None:
    """Section 4.6 (V-17) with the canonical order: 2 cards of different Elements, any values; the
    drops take high values first, so the value-1 cards of two Elements are paid."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "fire-1", "fire-3", "water-2", "water-1")
    paid = PA.auto_payment(sc.s, 0, ACQUIRE_COST, "acquire_dark_matter")
    assert paid == [HandSource(element_code(0, 1)), HandSource(element_code(1, 1))]


def _spontaneous_by_every_pair_count(state: GameState, payer: int, cost: Cost) -> object:
    """``_auto_spontaneous`` as written before its shortcuts: every pair count from 0, the cards
    alone included (the reference the shortcuts must match)."""
    hand = state.players[payer].hand.copy()
    pool = PA._pool(state, payer, frozenset())
    plain = tuple(cost[:5])
    counts = available_values(state, payer)
    dark = [HandSource(DM)] * hand[DM] + [SupportSource(q, s) for q, s, c in pool if c == DM]
    dark = dark if cost.wildcards else []
    converts = PA._conversions(hand, pool, plain) if cost.convert else []
    for pairs in range(len(dark) // 2 + 1):
        for options in ([None], converts):
            best = None
            for conv in options:
                paid = PA._cheapest(state, payer, hand, pool, counts, plain, pairs, conv)
                if paid is not None and (best is None or paid[0] < best[0]):
                    best = paid
            if best is not None:
                return best[1] + dark[: 2 * pairs]
    return "unaffordable"


def test_spontaneous_auto_payments_start_at_the_fewest_pairs_that_can_pay(dm: None) -> None:
    """Section 4.9 (and V-12): the auto payment of an Element cost that the Element cards do not
    cover tries pair counts from the parts' summed shortfall (fewer cannot pay a part: only its
    own Element's cards and pairs do): the same payment as trying every count from 0."""
    rng = random.Random(9)
    compared = paired = 0
    for seed in range(3):
        state = new_game(GameConfig(num_players=3, seed=seed, modules=(NAME,)))
        while not state.over:
            if rng.random() < 0.15:
                s = _with_support_dark_matter(state, rng)
                for p in range(3):
                    s.players[p].hand[DM] += rng.randrange(3)  # (a unit check: not a legal state)
                    for _ in range(6):
                        parts = [rng.randrange(4) if rng.random() < 0.4 else 0 for _ in range(5)]
                        flags = rng.choice([(True, False), (False, True), (True, True)])
                        cost = Cost(*parts, wildcards=flags[0], convert=flags[1])
                        if not any(parts) or can_cover(available_values(s, p), tuple(parts)):
                            continue
                        try:
                            fast: object = PA._auto_spontaneous(s, p, cost, frozenset())
                        except ValueError:
                            fast = "unaffordable"
                        assert fast == _spontaneous_by_every_pair_count(s, p, cost), (cost, p)
                        compared += 1
                        paired += fast != "unaffordable"
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 200 and 0 < paired < compared


COUNTED = [*(dark_matter_cost(n) for n in range(1, 6)), *(Cost(distinct=n) for n in range(1, 5))]


@pytest.mark.parametrize("cost", COUNTED)
def test_counted_completions_answer_what_the_search_answers(cost: Cost) -> None:
    """A-18 in manual payment for a cost in cards of one kind (sections 4.6-4.8): whether picks
    can still end in an irreducible payment, counted, equals the bounded search's answer, on
    random picks and pools (Element cards, Dark Matter, a Madness card; picks beyond the pool)."""
    rng = random.Random(cost.currency * 10 + cost.distinct)
    codes = [*range(12), DM, NUM_ELEMENT_CODES]  # Element cards, Dark Matter, a Madness card
    answers = set()
    for _ in range(600):
        pool = [0] * NUM_CODES
        for c in codes:
            pool[c] = rng.choice((0, 0, 1, 2, 3))
        pool[DM] = rng.randrange(7)
        trial = [rng.choice(codes) for _ in range(rng.randrange(1, 5))]
        if rng.random() < 0.5:  # picks of the kind the cost asks for
            kind = [DM] * rng.randrange(1, 5) if cost.currency else rng.sample(range(12), rng.randrange(1, 4))
            trial = kind
        search = PI._completable_module(tuple(sorted(trial)), tuple(pool), cost, 256)
        assert PI.completable_module(trial, pool, cost) == search, (trial, pool, cost)
        answers.add(search)
    assert answers == {True, False}


def test_acquire_dark_matter_from_support_pools_keeps_the_payers_own_cards(
    dm: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Section 4.6 with the canonical order from support pools: the drops take another player's
    support first (high values first), so of a fire-1 in the payer's support and a water-2 and an
    earth-1 in another's, the water-2 goes first: the fire-1 and the earth-1 pay (the search's
    answer too)."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "madness").hand(1, "madness")
    s = sc.s
    s.players[0].support = [SupportSlot(element_code(0, 1))]
    s.players[1].support = [SupportSlot(element_code(1, 2)), SupportSlot(element_code(2, 1))]
    paid = PA.auto_payment(s, 0, ACQUIRE_COST, "acquire_dark_matter")
    assert paid == [SupportSource(0, 0), SupportSource(1, 1)]
    with monkeypatch.context() as m:
        m.setattr(counted_costs, "counted", lambda cost: False)  # the search
        assert PA.auto_payment(s, 0, ACQUIRE_COST, "acquire_dark_matter") == paid
