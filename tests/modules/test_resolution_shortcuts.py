"""Shortcuts of module games' resolution, each compared with the general path on random states:
``placement._over_limit`` (the Recuperation's end check, docs/rules.md 5.1, V-35: no hand-size read
without Madness in hand), ``payment_frame._compact`` (a pay frame's compact cost, found again)
and ``ops_board.barred_types`` (the Curse types an effect may not pick)."""

from __future__ import annotations

import random

import pytest
from builders import random_decisions

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MADNESS, NUM_CODES
from bbom_env.engine.model.records import SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment import frame as PF
from bbom_env.engine.payment.cost import Cost, as_cost
from bbom_env.engine.play import ops_board
from bbom_env.engine.play.zones import madness_in_hand
from bbom_env.modules.phobias import placement
from bbom_env.modules.phobias.state import PHOBIA_BASE

from .phobias.helpers import phobias_in_pile, take, to_hand


def _states(modules: tuple[str, ...], players: int, games: int, payment: str = "auto") -> list[GameState]:
    """Every fourth decision of random games, cloned."""
    return [
        s.clone()
        for g in range(games)
        for i, s in enumerate(
            random_decisions(GameConfig(num_players=players, seed=g, modules=modules, payment=payment), g)
        )
        if i % 4 == 0
    ]


@pytest.mark.parametrize(("modules", "players"), [(("phobias",), 2), (("dark_matter", "phobias"), 2)])
def test_over_limit_is_the_end_check(modules: tuple[str, ...], players: int) -> None:
    """Random module states, each player's hand given 0 to hand size + 1 Madness cards (Phobias
    in support sometimes, so that rule points and sourced "hand_size" modifiers count): the
    shortcut answers as the check written out, and the hand size it skips is never below 1."""
    rng = random.Random(11)
    seen = {True: 0, False: 0, "skipped": 0}
    for state in _states(modules, players, 20):
        s = state.clone()
        pile = phobias_in_pile(s)
        for p in range(players):
            pl = s.players[p]
            if pile and rng.random() < 0.5 and not pl.eliminated:
                code = pile.pop()
                take(s, code)
                pl.support.append(SupportSlot(code))  # a Phobia's constraint in force
            size = hooks.hand_size(s, p)
            assert size >= 1  # the premise of the shortcut
            pl.hand[MADNESS] = 0
            for c in range(PHOBIA_BASE, NUM_CODES):
                pl.hand[c] = 0
            for _ in range(rng.randint(0, size + 1)):
                if MADNESS in s.madness_pile:
                    to_hand(s, p, MADNESS)
            want = not pl.eliminated and madness_in_hand(s, p) >= hooks.hand_size(s, p)
            assert placement._over_limit(s, p) == want, (p, pl.hand, hooks.hand_size(s, p))
            seen[want] += 1
            seen["skipped"] += madness_in_hand(s, p) == 0
    assert min(seen.values()) > 0, seen  # over, under and the skipped read all met


def _costs(states: list[GameState]) -> list[tuple]:
    """The module costs the pay frames of these games carry (compact forms; manual payment: the
    frames wait for picks) and their Costs."""
    out: list[tuple] = []
    for s in states:
        for f in s.stack:
            if f["kind"] == "pay" and len(f["cost"]) > 5:
                out += [f["cost"], as_cost(f["cost"])]
    return out


def test_compact_is_the_costs_compact_form() -> None:
    """Costs of module games' pay frames, random Costs, and both again (found in the memo): the
    shortcut gives ``as_cost(req).compact()``, for a Cost, its tuple of fields, or a list."""
    rng = random.Random(5)
    costs = _costs(_states(("dark_matter", "phobias"), 2, 15, "manual"))
    assert costs
    for _ in range(300):
        fields = [rng.choice((0, 0, 1, 2)) for _ in range(5)]
        costs.append(
            Cost(
                *fields,
                one_of=rng.choice((0, 0, 1)),
                one_of_set=rng.choice(((), (0, 1))),
                distinct=rng.choice((0, 0, 2)),
                currency=rng.choice((0, 0, 3)),
                wildcards=rng.random() < 0.3,
                convert=rng.random() < 0.3,
            )
        )
        costs.append(tuple(costs[-1]))
    for req in costs + costs + [list(c) for c in costs[:20]]:
        want = as_cost(req).compact()
        assert PF._compact(req) == want, req
        assert PF.pay_frame(0, req, "learn", "")["cost"] == want


def _barred_written_out(state: GameState, what: str) -> frozenset[str]:
    rules = ruleset(state.config.modules).curse_rules
    if what == "destroy":
        return frozenset(t for t, r in rules.items() if not r.by_effect(state.config))
    return frozenset(t for t, r in rules.items() if not r.tokens)


@pytest.mark.parametrize("by_effect", [False, True])
@pytest.mark.parametrize("modules", [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")])
def test_barred_types_is_the_rules_answer(modules: tuple[str, ...], by_effect: bool) -> None:
    """``ops_board.barred_types`` answers as the modules' Curse rules say (V-07, V-08), for each
    config, asked in turn, again, and for a new equal config."""
    rng = random.Random(3)
    switch = {"dark_curse_destroy_by_effect": by_effect} if "dark_matter" in modules else {}
    configs = [GameConfig(num_players=2, seed=g, modules=modules, **switch) for g in range(3)]
    for _ in range(40):
        s = new_game(rng.choice(configs))
        for what in rng.sample(["destroy", "tokens"], 2):
            want = _barred_written_out(s, what) if modules else frozenset()
            assert ops_board.barred_types(s, what) == want, (modules, by_effect, what)
