"""V-37, switch ``cure_cost_mode="cards"`` (docs/rules.md 4.5): the Cure Action costs any 2 Element
cards, whatever their values, instead of 2 Elements counted by value (A-11, the default)."""

from __future__ import annotations

import json
import random

import pytest
from builders import Scenario, names

from bbom_env.engine import GameConfig, from_json, new_game, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import MADNESS
from bbom_env.engine.payment.cost import Cost, left_text

PH = ("phobias",)


def scen(mode: str, payment: str = "auto") -> Scenario:
    return Scenario(
        num_players=2, modules=PH, payment=payment, skip_forced_decisions=False, cure_cost_mode=mode
    )


def cures(sc: Scenario) -> list[str]:
    sc.s.legal_cache = None
    return [n for n in sc.legal_names() if n.startswith("CURE")]


def test_two_cards_whatever_their_values(ph: None) -> None:
    """One value-3 card pays 2 by value but is one card; two value-1 cards pay both ways."""
    for mode, offered in (("value", True), ("cards", False)):
        sc = scen(mode).hand(0, "madness", "fire-3").action_phase(0)
        assert bool(cures(sc)) is offered, mode
    for mode in ("value", "cards"):
        sc = scen(mode).hand(0, "madness", "fire-1", "water-1").action_phase(0)
        assert cures(sc), mode


def test_auto_payment_keeps_the_high_values(ph: None) -> None:
    """The canonical payment of a cost in cards: the lowest values go (high values kept)."""
    sc = scen("cards").hand(0, "madness", "fire-3", "water-1", "earth-2", "air-1").action_phase(0)
    sc.do(M.CURE_HAND + MADNESS)
    assert names(sc.p(0).hand) == ["fire-3", "earth-2"]
    by_value = scen("value").hand(0, "madness", "fire-3", "water-1", "earth-2", "air-1").action_phase(0)
    by_value.do(M.CURE_HAND + MADNESS)
    assert names(by_value.p(0).hand) == ["fire-3", "earth-2"]  # 2 Elements: the two value-1 cards


def test_manual_payment_two_picks_then_confirm(ph: None) -> None:
    """Manual payment (A-18): after one card, one more is owed whatever the value picked; after
    two, only confirming (or cancelling) remains; the decision says what is left in cards."""
    sc = scen("cards", payment="manual").hand(0, "madness", "fire-3", "water-1", "earth-2").action_phase(0)
    sc.do(M.CURE_HAND + MADNESS)
    d = pending(sc.s)
    assert d.kind == "payment" and "2 Element card(s)" in left_text((), sc.s.stack[-1]["cost"])
    sc.do("PAY_HAND(fire-3)")
    assert "1 Element card(s)" in left_text(pending(sc.s).picks, sc.s.stack[-1]["cost"])
    names_ = set(cures_or_pay(sc))
    assert {"PAY_HAND(water-1)", "PAY_HAND(earth-2)"} <= names_ and "PAY_CONFIRM" not in names_
    sc.do("PAY_HAND(earth-2)")
    assert set(cures_or_pay(sc)) == {"PAY_CONFIRM", "PAY_CANCEL"}
    sc.do("PAY_CONFIRM")
    assert names(sc.p(0).hand) == ["water-1"] and sc.p(0).hand[MADNESS] == 0


def cures_or_pay(sc: Scenario) -> list[str]:
    sc.s.legal_cache = None
    return sc.legal_names()


def test_the_switch_needs_the_module_and_a_known_value_and_saves_load() -> None:
    with pytest.raises(ConfigError, match="cure_cost_mode='cards'.*without module 'phobias'"):
        GameConfig(cure_cost_mode="cards")
    with pytest.raises(ConfigError, match="cure_cost_mode='both'.*value, cards"):
        GameConfig(modules=PH, cure_cost_mode="both")
    state = new_game(GameConfig(modules=PH, seed=3, payment="manual", cure_cost_mode="cards"))
    rng = random.Random(3)
    for _ in range(150):
        if state.over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert from_json(state.to_json()) == state
    data = json.loads(new_game(GameConfig(modules=PH, seed=2)).to_json())
    del data["config"]["cure_cost_mode"]
    data["format"] = "bbom-state/5"  # (format 6 added the switch: a format-6 save must name it)
    assert from_json(json.dumps(data)).config.switch("cure_cost_mode") == "value"


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_random_games_with_the_switch_keep_the_invariants(payment: str) -> None:
    """Whole random games with both modules and the switch: every Cure paid is 2 cards or more
    (a cost modifier may add Elements), and the invariants hold after every move."""
    cured = 0
    for seed in range(6):
        config = GameConfig(num_players=3, seed=seed, payment=payment, modules=("dark_matter", *PH))
        state = new_game(config.replace(cure_cost_mode="cards"))
        rng = random.Random(seed)
        while not state.over:
            state.apply_action(rng.choice(state.legal_actions()))
            check_invariants(state)
        paid = [e for e in state.log if e[1] == "pay" and e[3] == "cure"]
        assert all(len(e[5]) >= 2 for e in paid)
        cured += len(paid)
    assert cured > 5
    assert Cost(cards=2).compact() == (0, 0, 0, 0, 0, 0, (), 0, 0, False, False, 2)
