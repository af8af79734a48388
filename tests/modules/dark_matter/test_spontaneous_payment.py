"""``payment_auto._auto_spontaneous``'s shortcuts (the auto payment of an Element cost that
Spontaneous Elements, docs/rules.md 4.9, or the Air conversion, V-12, may help pay): the Element cards
of the hand alone checked by their values when no support card and no ``any`` part is involved;
one part's single spread of pairs; payments valued only when two are compared. The payment
must be the one the general procedure (below, as it was written before the shortcuts) picks."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from builders import random_decisions

from bbom_env.engine import GameConfig, GameState
from bbom_env.engine.model.constants import CODE_ELEMENT, CODE_VALUE, COST_PARTS, CURRENCY, DARK_MATTER
from bbom_env.engine.model.records import HAND_SOURCES, HandSource, Source, SupportSlot, SupportSource
from bbom_env.engine.payment import auto as PA
from bbom_env.engine.payment.cost import Cost, can_cover, source_code, spreads

FLAGS = ({"wildcards": True}, {"convert": True}, {"wildcards": True, "convert": True})


def _general_cheapest(state, payer, hand, pool, counts, plain, pairs, conv):  # type: ignore[no-untyped-def]
    head: list[Source] = []
    base = list(plain)
    if conv is not None:
        src, e, v = conv
        head = [src]
        base[e] = max(0, base[e] - v)
        counts = [list(c) for c in counts]
        counts[3][v - 1] -= 1
        if type(src) is HandSource:
            hand = hand.copy()
            hand[src.code] -= 1
        else:
            pool = [t for t in pool if (t[0], t[1]) != (src.seat, src.slot)]
    parts = [k for k in range(COST_PARTS) if base[k] > 0]
    best = None
    for spread in spreads(pairs, [base[k] for k in parts]):
        req = list(base)
        for k, n in zip(parts, spread, strict=True):
            req[k] -= n
        if not can_cover(counts, tuple(req)):
            continue
        paid = head + PA._auto_elements(hand.copy(), pool, payer, tuple(req))
        value = sum(CODE_VALUE[source_code(state, s)] for s in paid)
        if best is None or value < best[0]:
            best = (value, paid)
    return best


def _general(state: GameState, payer: int, cost: Cost, banned: frozenset[int]) -> list[Source]:
    hand = state.players[payer].hand.copy()
    if banned:
        hand = [0 if CODE_ELEMENT[c] in banned else n for c, n in enumerate(hand)]
    pool = PA._pool(state, payer, banned)
    plain = tuple(cost[:COST_PARTS])
    counts = PA._counts(hand, pool)
    if can_cover(counts, plain):
        return PA._auto_elements(hand, pool, payer, plain)
    dark: list[Source] = []
    if cost.wildcards:
        dark = [HAND_SOURCES[CURRENCY]] * hand[CURRENCY]
        dark += [SupportSource(q, s) for q, s, c in pool if c == CURRENCY]
    converts = PA._conversions(hand, pool, plain) if cost.convert else []
    alone: list = [None]
    for pairs in range(PA._fewest_pairs(cost, plain, counts), len(dark) // 2 + 1):
        for options in (alone, converts):
            if pairs == 0 and options is alone:
                continue
            best = None
            for conv in options:
                paid = _general_cheapest(state, payer, hand, pool, counts, plain, pairs, conv)
                if paid is not None and (best is None or paid[0] < best[0]):
                    best = paid
            if best is not None:
                return best[1] + dark[: 2 * pairs]
    raise ValueError(f"cost {cost.compact()} is not affordable")


def _paid(fn, state: GameState, p: int, cost: Cost, banned: frozenset[int]) -> object:  # type: ignore[no-untyped-def]
    try:
        return fn(state, p, cost, banned)
    except ValueError as e:
        return str(e)


def _sampled(players: int, games: int, every: int) -> Iterator[GameState]:
    """A clone of every ``every``-th decision point of ``games`` seeded random games with Dark
    Matter (seeds 0, 1, ...), for the caller to change."""
    for seed in range(games):
        config = GameConfig(num_players=players, pack="default", seed=seed, modules=("dark_matter",))
        for step, state in enumerate(random_decisions(config, seed), 1):
            if step % every == 0:
                yield state.clone()


@pytest.mark.parametrize("players", [2, 4])
def test_spontaneous_auto_payments_pick_what_the_general_procedure_picks(players: int) -> None:
    """At decision points of random games with Dark Matter (some hands given Dark Matter cards,
    some supports too), every player, random Element costs with Spontaneous Elements and/or the
    conversion, with and without a banned Element: the same cards, refusals included."""
    rng = random.Random(players)
    checked = paired = 0
    for s in _sampled(players, 6, 4):
        for pl in s.players:
            pl.hand[DARK_MATTER] += rng.choice((0, 0, 1, 2, 3, 4))
            for i in range(len(pl.support)):
                if rng.random() < 0.3:
                    pl.support[i] = SupportSlot(DARK_MATTER)
        for p in range(players):
            for _ in range(6):
                parts = [rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(COST_PARTS)]
                flags = rng.choice(FLAGS)
                cost = Cost(*parts, **flags)
                for banned in (frozenset(), frozenset({rng.randrange(4)})):
                    want = _paid(_general, s, p, cost, banned)
                    assert _paid(PA._auto_spontaneous, s, p, cost, banned) == want, (cost, banned)
                    checked += 1
                    paired += isinstance(want, list) and any(
                        type(x) is HandSource and x.code == DARK_MATTER for x in want
                    )
    assert checked > 2000 and paired > 200


@pytest.mark.parametrize("players", [2, 3])
def test_one_part_short_is_the_general_procedure(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_one_part_short`` (one Element part the hand falls short of, no support card, one of the
    two options): at decision points of random games, hands given Dark Matter and Air cards, costs
    of one Element part of 1 to 8 with Spontaneous Elements or the conversion, with and without a
    banned Element: the same cards as the general procedure, refusals included; it answered for
    many of them (None: the search decides)."""
    rng = random.Random(10 + players)
    answered = 0
    real = PA._one_part_short

    def counting(hand, cost, plain):  # type: ignore[no-untyped-def]
        nonlocal answered
        out = real(hand, cost, plain)
        answered += out is not None
        return out

    monkeypatch.setattr(PA, "_one_part_short", counting)
    for s in _sampled(players, 4, 3):
        for pl in s.players:
            pl.support.clear()  # no support card to draw on
            pl.hand[DARK_MATTER] += rng.choice((0, 1, 2, 3, 4, 6))
            pl.hand[9 + rng.randrange(3)] += rng.choice((0, 1))  # an Air card (codes 9-11)
        for p in range(players):
            for e in range(4):
                for flags in FLAGS[:2]:
                    parts = [0] * COST_PARTS
                    parts[e] = rng.randint(1, 8)
                    cost = Cost(*parts, **flags)
                    for banned in (frozenset(), frozenset({rng.randrange(4)})):
                        want = _paid(_general, s, p, cost, banned)
                        assert _paid(PA._auto_spontaneous, s, p, cost, banned) == want, (cost, banned)
    assert answered > 500
