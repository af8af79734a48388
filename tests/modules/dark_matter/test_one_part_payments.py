"""Manual payment of a one-part module cost, counted (``payment_counted.one_part``): a base Action's
one-Element (or "any") cost with Spontaneous Elements (docs/rules.md section 4.9) or the Air
conversion (V-12). What is owed (``one_part_owed``) and whether picks can still end in an
irreducible payment (A-18, ``completable_one_part``) must equal the general path's answers
(``payment_search.remaining``, the bounded search of ``payment_irreducible._completable_module``)."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.model.constants import DARK_MATTER, NUM_CODES, NUM_ELEMENT_CODES
from bbom_env.engine.payment import counted as counted_costs
from bbom_env.engine.payment import frame as PF
from bbom_env.engine.payment import frame as PI
from bbom_env.engine.payment.cost import Cost
from bbom_env.engine.payment.search import remaining
from bbom_env.modules.dark_matter.module import NAME

DM = DARK_MATTER
FLAGS = ((True, False), (False, True), (True, True))  # (wildcards, convert)


@pytest.mark.parametrize("part", range(5))
def test_one_part_counts_answer_what_the_search_answers(part: int) -> None:
    """On random one-part costs (1 to 8), pools and picks (cards that pay, and any card: a Madness
    card, Dark Matter without wildcards, a second Air card): what is owed equals ``remaining``'s
    sum, and ``completable_module`` (counted where ``completable_one_part`` answers) equals the
    bounded search."""
    rng = random.Random(part)
    codes = [*range(NUM_ELEMENT_CODES), DM, NUM_ELEMENT_CODES]  # Element cards, Dark Matter, Madness
    paying = [c for c in range(NUM_ELEMENT_CODES) if part in (c // 3, 4) or c // 3 == 3] + [DM]
    counted = answers = 0
    seen = set()
    for _ in range(1500):
        parts = [0] * 5
        parts[part] = rng.randrange(1, 9)
        wildcards, convert = rng.choice(FLAGS)
        cost = Cost(*parts, wildcards=wildcards, convert=convert)
        assert counted_costs.one_part(cost) == part
        pool = [0] * NUM_CODES
        for c in codes:
            pool[c] = rng.choice((0, 0, 1, 2, 3))
        pool[DM] = rng.randrange(8)
        kinds = paying if rng.random() < 0.8 else codes
        trial = [rng.choice(kinds) for _ in range(rng.randrange(1, 5))]
        owed = counted_costs.one_part_owed(tuple(trial), cost, part)
        assert owed == sum(remaining(tuple(trial), cost)), (trial, cost)
        search = PI._completable_module(tuple(sorted(trial)), tuple(pool), cost, 256)
        assert PI.completable_module(trial, pool, cost) == search, (trial, pool, cost)
        counted += counted_costs.completable_one_part(trial, pool, cost, part) is not None
        seen.add(search)
        answers += 1
    assert seen == {True, False} and counted > answers // 2


COUNTED = [*(Cost(currency=n) for n in range(1, 6)), *(Cost(distinct=n) for n in range(1, 5))]


@pytest.mark.parametrize("cost", COUNTED)
def test_counted_judges_answer_what_the_search_answers(cost: Cost) -> None:
    """Sections 4.6-4.8: whether a card picked after random picks pays part of what is still owed
    of a cost in cards of one kind, counted (``pays_counted``), equals ``remaining``'s sum
    falling."""
    rng = random.Random(cost.currency * 10 + cost.distinct)
    codes = [*range(NUM_ELEMENT_CODES), *[DM] * 8, NUM_ELEMENT_CODES]  # Dark Matter often
    seen = set()
    for _ in range(400):
        picked = [rng.choice(codes) for _ in range(rng.randrange(0, 6))]
        judge = counted_costs.pays_counted(picked, cost)
        owed = sum(remaining(tuple(picked), cost))
        for code in codes:
            pays = sum(remaining((*picked, code), cost)) < owed
            assert judge(code) == pays, (picked, code, cost)
            seen.add(pays)
    assert seen == {True, False}


@pytest.mark.parametrize("cost", COUNTED)
def test_counted_useful_is_pays_then_completes(cost: Cost) -> None:
    """A-18 for a cost in cards of one kind: ``useful_counted`` (counts read once per query)
    equals ``pays_counted`` and then ``completable_counted`` on the pool plus the picks, for every
    card the pool has, on random picks and pools."""
    rng = random.Random(cost.currency * 10 + cost.distinct + 1)
    codes = [*range(NUM_ELEMENT_CODES), DM, NUM_ELEMENT_CODES]
    seen = set()
    for _ in range(600):
        pool = [0] * NUM_CODES
        for c in codes:
            pool[c] = rng.choice((0, 0, 1, 2))
        pool[DM] = rng.randrange(7)
        kinds = [DM] if cost.currency and rng.random() < 0.7 else codes
        if cost.distinct and rng.random() < 0.7:
            picked = [e * 3 + rng.randrange(3) for e in rng.sample(range(4), rng.randrange(0, 4))]
        else:
            picked = [rng.choice(kinds) for _ in range(rng.randrange(0, 5))]
        with_picks = list(pool)
        for c in picked:
            with_picks[c] += 1
        fast = counted_costs.useful_counted(picked, pool, cost)
        pays = counted_costs.pays_counted(picked, cost)
        for code in codes:
            if pool[code]:
                slow = pays(code) and counted_costs.completable_counted([*picked, code], with_picks, cost)
                assert fast(code) == slow, (picked, code, pool, cost)
                seen.add(slow)
    assert seen == {True, False}


def test_one_part_shapes() -> None:
    """Only a cost of one Element part (or "any") and no one-of, distinct or currency part."""
    assert counted_costs.one_part(Cost(0, 2, 0, 0, 0, wildcards=True)) == 1
    assert counted_costs.one_part(Cost(0, 0, 0, 0, 3, convert=True)) == 4
    assert counted_costs.one_part(Cost(1, 2, 0, 0, 0, wildcards=True)) == -1
    assert counted_costs.one_part(Cost(0, 2, 0, 0, 1, wildcards=True)) == -1
    assert counted_costs.one_part(Cost(2, one_of=1, one_of_set=(1, 2), wildcards=True)) == -1
    assert counted_costs.one_part(Cost(distinct=2, convert=True)) == -1
    assert counted_costs.one_part(Cost(currency=2)) == -1


@pytest.mark.parametrize(("players", "irreducible"), [(2, True), (3, True), (2, False)])
def test_manual_payment_offers_what_the_general_path_offers(
    dm: None, monkeypatch: pytest.MonkeyPatch, players: int, irreducible: bool
) -> None:
    """In random manual-payment games with the module (Dark Matter added to hands so that pairs
    are common), every pay frame's legal moves equal those of the general path (no cost counted:
    ``remaining`` and the bounded search), for one-part costs and costs in cards of one kind
    (Acquire Dark Matter, section 4.6; Dark Curses, 4.7; Black Spells, 4.8); with and without
    irreducible payments (A-18)."""
    rng = random.Random(players)
    compared = one_part = counted = 0
    for seed in range(6):
        state = new_game(
            GameConfig(
                num_players=players,
                payment="manual",
                seed=seed,
                modules=(NAME,),
                irreducible_payments=irreducible,
            )
        )
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "pay" and f.get("decider") is not None:
                fast = PF.legal_pay(state, f)
                with monkeypatch.context() as m:
                    m.setattr(counted_costs, "one_part", lambda cost: -1)
                    m.setattr(counted_costs, "counted", lambda cost: False)
                    m.setattr(PF, "one_part", lambda cost: -1)
                    m.setattr(PF, "counted", lambda cost: False)
                    PI._completable_module.cache_clear()
                    assert PF.legal_pay(state, f) == fast, (f["cost"], f["picks"])
                compared += 1
                cost = Cost(*f["cost"])
                one_part += len(f["cost"]) > 5 and counted_costs.one_part(cost) >= 0
                counted += counted_costs.counted(cost)
            elif f["kind"] == "menu" and rng.random() < 0.05:
                state.players[f["player"]].hand[DM] += 2  # (a unit check: pairs in play)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 500 and one_part > 50 and counted > 50
