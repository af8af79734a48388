"""The payment closed forms for module costs agree with the exact search (docs/rules.md sections 4.0,
4.6-4.9, V-12): ``can_cover_pairs``/``can_cover_module`` (Element parts, any,
Spontaneous Elements and the Air conversion) and ``affordable``'s forms for costs counted in
cards (Dark Matter, section 4.7/4.8; cards of different Elements, 4.6). The menu and auto
payment rely on them instead of ``payment_search.remaining``: a disagreement would offer an
unpayable move or hide a payable one."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.model.constants import (
    CODE_COUNT_INDEX,
    CURRENCY,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_VALUES,
    element_code,
)
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.engine.payment.cost import (
    Cost,
    affordable,
    available_codes,
    can_cover_module,
    can_cover_pairs,
    currency_cards,
)
from bbom_env.engine.payment.search import remaining


def _counts(codes: list[int]) -> list[list[int]]:
    counts = [[0] * NUM_VALUES for _ in range(NUM_ELEMENTS)]
    for c in codes:
        e, i = CODE_COUNT_INDEX[c]
        counts[e][i] += 1
    return counts


def _exact(codes: list[int], cost: Cost) -> bool:
    return not any(remaining(tuple(codes), cost))


def _random_cards(rng: random.Random) -> list[int]:
    return [rng.randrange(NUM_ELEMENT_CODES) for _ in range(rng.randint(0, 6))]


@pytest.mark.parametrize("seed", range(30))
def test_element_costs_with_pairs_and_conversion_match_the_exact_search(seed: int) -> None:
    """Section 4.9 (2 Dark Matter cards = 1 Element of value 1), V-12 (one Air card as any other
    Element, its whole value): the closed forms answer as the exact search, for costs of one
    part (the menu's Activate/Learn/Acquire) and of several (Curses, Cure)."""
    rng = random.Random(seed)
    for _ in range(200):
        cards = _random_cards(rng)
        currency = rng.randint(0, 5)
        parts = [0] * 5
        for k in rng.sample(range(5), rng.randint(1, 3)):
            parts[k] = rng.randint(1, 5)
        cost = Cost(parts[0], parts[1], parts[2], parts[3], parts[4])
        cost = cost._replace(wildcards=rng.random() < 0.7, convert=rng.random() < 0.5)
        want = _exact(cards + [CURRENCY] * currency, cost)
        assert can_cover_module(_counts(cards), cost, currency // 2) == want, (cards, currency, cost)
        if cost.wildcards and not cost.convert:
            assert can_cover_pairs(_counts(cards), cost, currency // 2) == want, (cards, currency, cost)


def test_the_conversion_pays_a_part_of_another_element_whole() -> None:
    """V-12: an Air card of value 3 pays 3 Fire (not "any": an Air card pays that anyway); the
    conversion is one card, so two Fire parts need Fire cards besides."""
    air3, fire1 = element_code(3, 3), element_code(0, 1)
    assert can_cover_module(_counts([air3]), Cost(3, convert=True), 0)
    assert not can_cover_module(_counts([air3]), Cost(3), 0)
    assert not can_cover_module(_counts([air3, air3]), Cost(3, 3, convert=True), 0)
    assert can_cover_module(_counts([air3, fire1]), Cost(1, 3, convert=True), 0)
    assert can_cover_module(_counts([fire1]), Cost(2, wildcards=True, convert=True), 1)
    assert not can_cover_module(_counts([fire1]), Cost(2, convert=True), 1)  # no wildcards: no pairs


@pytest.mark.parametrize("seed", range(20))
def test_costs_in_cards_match_the_exact_search(seed: int) -> None:
    """Sections 4.6-4.8: Dark Matter only (a Dark Curse's 4, a Black Spell's), 2 cards of
    different Elements (Acquire Dark Matter), hand and support pool alike; a crushed support
    card (V-21) pays nothing."""
    rng = random.Random(seed)
    state = new_game(GameConfig(num_players=3, modules=("dark_matter",), seed=seed))
    for _ in range(60):
        for pl in state.players:
            pl.hand[:] = [0] * len(pl.hand)
            pl.support = []
        me = state.players[0]
        for c in _random_cards(rng):
            me.hand[c] += 1
        me.hand[CURRENCY] = rng.randint(0, 4)
        for pl in state.players:
            for _ in range(rng.randint(0, 2)):
                card = CURRENCY if rng.random() < 0.5 else rng.randrange(NUM_ELEMENT_CODES)
                crushed = NO_CARD if rng.random() < 0.8 else rng.randrange(NUM_ELEMENT_CODES)
                pl.support.append(SupportSlot(card, crushed))
        codes = available_codes(state, 0)
        assert currency_cards(state, 0) == codes.count(CURRENCY)
        for cost in (
            Cost(currency=rng.randint(1, 5)),
            Cost(distinct=rng.randint(1, 4)),
            Cost(distinct=2, currency=rng.randint(0, 3)),
            Cost(currency=2, wildcards=True),
            Cost(distinct=2, convert=True),
            Cost(rng.randint(0, 3), 0, rng.randint(0, 2), 0, rng.randint(0, 2), wildcards=True),
        ):
            assert affordable(state, 0, cost) == _exact(codes, cost), (codes, cost)


@pytest.mark.parametrize("seed", range(10))
def test_the_menus_element_part_form_matches_can_cover_module(seed: int) -> None:
    """The menu's form for costs of Element parts without "any" (a Curse's, A-62): shortfalls
    summed against the pairs (section 4.9), each Air card value tried as another Element (V-12)."""
    from bbom_env.engine.payment.closed_forms import parts_payable as _parts_payable

    rng = random.Random(seed)
    for _ in range(300):
        counts = _counts(_random_cards(rng))
        tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
        req = tuple(rng.randint(0, 4) if rng.random() < 0.5 else 0 for _ in range(4)) + (0,)
        pairs, convert = rng.randint(0, 3), rng.random() < 0.5
        cost = Cost(req[0], req[1], req[2], req[3], wildcards=True, convert=convert)
        want = can_cover_module(counts, cost, pairs)
        assert _parts_payable(tot, counts[3], req, pairs, convert) == want, (counts, req, pairs, convert)


@pytest.mark.parametrize("seed", range(10))
def test_the_menus_curse_and_distinct_forms_match_the_exact_search(seed: int) -> None:
    """``menu_closed_forms``: a Curse's cost (printed plus tokens, A-62) with pairs (section 4.9)
    and the Air conversion (V-12) as ``can_cover_module`` answers; "n cards of different
    Elements" (Acquire Dark Matter, section 4.6) with the conversion as the exact search."""
    from bbom_env.engine.payment.closed_forms import curse_payable, distinct_held

    rng = random.Random(seed)
    for _ in range(300):
        cards = _random_cards(rng) + [element_code(3, rng.randint(1, 3))] * rng.randint(0, 2)
        counts = _counts(cards)
        tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
        printed = tuple(rng.randint(0, 3) if rng.random() < 0.5 else 0 for _ in range(4))
        tokens = tuple(rng.randint(0, 1) for _ in range(4))
        pairs, convert = rng.randint(0, 3), rng.random() < 0.6
        req = [printed[e] + tokens[e] for e in range(4)]
        cost = Cost(req[0], req[1], req[2], req[3], wildcards=True, convert=convert)
        want = can_cover_module(counts, cost, pairs)
        assert curse_payable(tot, counts[3], printed, tokens, pairs, convert) == want, (cards, req, pairs)
        for n in (1, 2, 3, 4):
            for conv in (False, True):
                cost = Cost(distinct=n, convert=conv)
                assert (distinct_held(counts, conv) >= n) == _exact(cards, cost), (cards, cost)


@pytest.mark.parametrize("seed", range(10))
def test_the_menus_one_part_and_any_form_matches_can_cover_module(seed: int) -> None:
    """``menu_closed_forms.one_part_any``: n of one Element and an "any" surcharge (the Phobias'
    V-33) with pairs (section 4.9) and the Air conversion (V-12), as ``can_cover_module`` (and
    so the exact search) answers; also a cost of "any" alone."""
    from bbom_env.engine.payment.closed_forms import one_part_any

    rng = random.Random(seed)
    for _ in range(400):
        cards = _random_cards(rng) + [element_code(3, rng.randint(1, 3))] * rng.randint(0, 2)
        counts = _counts(cards)
        e = rng.randrange(NUM_ELEMENTS)
        req = [0] * 5
        req[e] = rng.randint(0, 6)
        req[4] = rng.randint(0, 4)
        pairs, convert = rng.randint(0, 3), rng.random() < 0.6
        cost = Cost(req[0], req[1], req[2], req[3], req[4], wildcards=True, convert=convert)
        want = can_cover_module(counts, cost, pairs)
        assert one_part_any(counts, tuple(req), e, pairs, convert) == want, (cards, req, pairs, convert)


@pytest.mark.parametrize("seed", range(10))
def test_the_menus_parts_and_any_form_matches_can_cover_module(seed: int) -> None:
    """``menu_closed_forms.parts_any``: several Element parts and "any" (a Multi-Element Curse
    with a "same" surcharge) with pairs (section 4.9) and the Air conversion (V-12), as
    ``can_cover_module`` (and so the exact search) answers."""
    from bbom_env.engine.payment.closed_forms import parts_any

    rng = random.Random(seed)
    for _ in range(400):
        cards = _random_cards(rng) + [element_code(3, rng.randint(1, 3))] * rng.randint(0, 2)
        counts = _counts(cards)
        req = [rng.randint(0, 3) if rng.random() < 0.6 else 0 for _ in range(4)] + [rng.randint(0, 3)]
        pairs, convert = rng.randint(0, 3), rng.random() < 0.6
        cost = Cost(req[0], req[1], req[2], req[3], req[4], wildcards=True, convert=convert)
        want = can_cover_module(counts, cost, pairs)
        assert parts_any(counts, tuple(req), pairs, convert) == want, (cards, req, pairs, convert)
