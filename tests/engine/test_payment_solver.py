"""The one payment solver (``payment/solver.py``) and the seat view (``payment/seat.py``).

* ``can_pay`` says what a brute force over every assignment of the cards says, for random small
  funds and costs with every part and flag (docs/rules.md sections 4.0, 4.6-4.9, V-12, V-37).
* The Action menu offers exactly the targets that are not forbidden and whose cost, as choosing
  them charges it (``hooks.adjust_cost``, ``actions.destroy_cost``), the payer's cards cover:
  random games of every module set, every menu, every Action of the base game.
* The seat view is kept while a decision waits and dropped by every move.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.actions.base import CURE_REQ, destroy_cost
from bbom_env.engine.actions.menu import req_of
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import CURRENCY, NUM_ELEMENTS
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import Cost, affordable
from bbom_env.engine.payment.seat import seat_view
from bbom_env.engine.payment.solver import Funds, can_pay

AIR = 3


def _options(e: int, cost: Cost) -> list[tuple[str, int, bool]]:
    """Where an Element card of Element e may go: (part kind, index, uses the Air conversion)."""
    out = [("part", e, False), ("part", 4, False), ("waste", 0, False)]
    if e in cost.one_of_set:
        out.append(("one_of", 0, False))
    if cost.distinct:
        out.append(("distinct", e, False))
    if cost.cards:
        out.append(("cards", 0, False))
    if e == AIR and cost.convert:
        out += [("part", k, True) for k in range(3)]
        if AIR not in cost.one_of_set:
            out.append(("one_of", 0, True))
        if cost.distinct:
            out += [("distinct", k, True) for k in range(3)]
    return out


def _brute(cards: list[tuple[int, int]], dark: int, cost: Cost) -> bool:
    """Every assignment of each card to one part (or none): some assignment pays the cost."""
    for dest in product(*(_options(e, cost) for e, _ in cards)):
        owed = [*cost[:5], cost.one_of]
        distinct: set[int] = set()
        converted = counted = 0
        for (_, v), (kind, k, conv) in zip(cards, dest, strict=True):
            converted += conv
            if kind == "part":
                owed[k] = max(0, owed[k] - v)
            elif kind == "one_of":
                owed[5] = max(0, owed[5] - v)
            elif kind == "distinct":
                if k in distinct:
                    break
                distinct.add(k)
            elif kind == "cards":
                counted += 1
        else:
            if converted > 1 or len(distinct) < cost.distinct or counted < cost.cards:
                continue
            pairs = (dark - min(dark, cost.currency)) // 2 if cost.wildcards else 0
            if dark >= cost.currency and sum(owed) <= pairs:
                return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_answers_as_a_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    decided = [0, 0]
    for _ in range(150):
        cards = [(rng.randrange(4), rng.randint(1, 3)) for _ in range(rng.randint(0, 4))]
        dark = rng.randint(0, 5)
        parts = [rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(4)] + [rng.choice((0, 0, 1, 2))]
        one_of = rng.choice((0, 0, 1, 2))
        cost = Cost(
            *parts,
            one_of=one_of,
            one_of_set=tuple(sorted(rng.sample(range(4), rng.randint(1, 2)))) if one_of else (),
            distinct=rng.choice((0, 0, 0, 2)),
            currency=rng.choice((0, 0, 0, 1, 2)),
            wildcards=rng.random() < 0.5,
            convert=rng.random() < 0.4,
            cards=rng.choice((0, 0, 0, 1, 2)),
        )
        counts = [[0, 0, 0] for _ in range(NUM_ELEMENTS)]
        for e, v in cards:
            counts[e][v - 1] += 1
        want = _brute(cards, dark, cost)
        assert can_pay(Funds(counts, dark), cost) == want, (cards, dark, cost)
        if cost.elements_only:
            assert can_pay(Funds(counts, dark), tuple(cost[:5])) == want
        decided[want] += 1
    assert min(decided) > 10  # both answers were asked


def _offered(state) -> set[int]:  # type: ignore[no-untyped-def]
    """The base Actions' targets the menu should offer, asked without the seat view: not
    forbidden (``hooks.forbidden``) and the cost that choosing charges covered (``affordable``)."""
    p = state.current_player()
    pl = state.players[p]
    out = set()

    def ok(action: str, el: int | None, cost: tuple) -> bool:
        return not hooks.forbidden(state, p, action, el) and affordable(state, p, cost, action)

    for i, sp in enumerate(pl.spells):
        if sp.exhausted or sp.neutralized:
            continue
        spell = state.pack.spells[sp.spell]
        for x in (1, 2, 3):
            req = hooks.adjust_cost(
                state, p, "activate", spell.element, req_of(spell.element, spell.activation_cost * x)
            )
            if ok("activate", spell.element, req):
                out.add(M.encode("ACTIVATE", M.A.SpellPower(i, x)))
    for e, pile in enumerate(state.library):
        if pile:
            req = hooks.adjust_cost(
                state, p, "learn", e, req_of(e, state.pack.spells[pile[-1]].learning_cost)
            )
            if ok("learn", e, req):
                out.add(M.LEARN + e)
    for e in range(NUM_ELEMENTS):
        for j, v in enumerate((2, 3)):
            if state.supply[e][j] and ok(
                "acquire", e, hooks.adjust_cost(state, p, "acquire", e, req_of(e, v))
            ):
                out.add(M.encode("ACQUIRE", M.A.ElementValue(e, v)))
    return out


@pytest.mark.parametrize("modules", [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")])
def test_the_menu_offers_what_choosing_charges_and_the_cards_cover(modules: tuple[str, ...]) -> None:
    """Activate, Learn and Acquire targets (the Actions every seat has in every game) against
    ``_offered``; the Cure and Destroy Actions: every offered id's cost is covered."""
    rng = random.Random(3)
    menus = 0
    for seed in range(4):
        state = new_game(GameConfig(num_players=2 + seed % 3, seed=seed, modules=modules))
        while not state.over:
            legal = state.legal_actions()
            top = state.stack[-1]
            if top["kind"] == "menu":
                menus += 1
                mine = {m for m in legal if M.decode(m, modules).block in ("ACTIVATE", "LEARN", "ACQUIRE")}
                assert mine == _offered(state)
                p = state.current_player()
                for m in legal:
                    mv = M.decode(m, modules)
                    if mv.block == "DESTROY_CURSE":
                        stack = state.track[mv.args.slot]
                        curse = stack[len(stack) - 1 - mv.args.pos]
                        assert affordable(state, p, destroy_cost(state, p, curse), "destroy")
                    elif mv.block.startswith("CURE"):
                        assert affordable(
                            state, p, hooks.adjust_cost(state, p, "cure", None, CURE_REQ), "cure"
                        )
            state.apply_action(legal[rng.randrange(len(legal))])
    assert menus > 100


def test_the_seat_view_is_kept_while_a_decision_waits_and_dropped_by_a_move() -> None:
    state = new_game(GameConfig(num_players=2, seed=4, modules=("dark_matter",)))
    p = state.current_player()
    view = seat_view(state, p)
    assert seat_view(state, p) is view  # kept: the decision waits
    assert state.clone().cache_views is None and state.to_json() == state.clone().to_json()
    state.apply_action(state.legal_actions()[0])
    assert state.cache_views is None or seat_view(state, p) is not view
    state.players[0].hand[CURRENCY] += 1
    state.legal_cache = None  # a state changed by hand: both derived facts go
    assert state.cache_views is None
