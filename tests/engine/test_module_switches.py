"""A module's rules switches, rulings, card codes and cost parts are its own (docs/engine.md,
"Writing a module"): a module declares ``Switch``es, which become ``GameConfig`` keywords while it
is registered, answers the engine's rule questions (``Module.rulings``), names the card codes it adds
and declares the parts of ``payment.Cost`` its costs use, so the engine names no module."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from builders import Scenario

from bbom_env.engine import ConfigError, GameConfig, from_json, new_game
from bbom_env.engine.actions.base import CURE_REQ, cure_req
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.rules import MODULES
from bbom_env.engine.ext import Cost, Module, Switch, register, registered
from bbom_env.engine.model.constants import CURRENCY, MADNESS, MODULE_CARD_NAMES, MODULE_COST_PARTS, code_name
from bbom_env.engine.payment.cost import Cost as PaymentCost
from bbom_env.rl.gym_env import split_config

CARDS = Cost(cards=2)


def _cure_cost(config: GameConfig) -> Cost | None:
    return CARDS if config.switch("tiny_cure") == "cards" else None


TINY = Module(
    name="tiny",
    switches=(
        Switch("tiny_cure", "value", ("value", "cards"), "T-1"),
        Switch("tiny_depth", 2, range(1, 4), "T-2: 1 to 3"),
    ),
    rulings=(("cure_cost", _cure_cost),),
)


@pytest.fixture
def tiny() -> Iterator[None]:
    with registered(TINY):
        yield


def test_a_switch_is_a_keyword_only_with_its_module(tiny: None) -> None:
    config = GameConfig(modules=("tiny",), tiny_cure="cards")
    assert config.switch("tiny_cure") == "cards" and config.switch("tiny_depth") == 2
    assert config.switches == (("tiny_cure", "cards"),)  # only those off their defaults
    assert config == GameConfig(modules=("tiny",), switches={"tiny_cure": "cards"})
    assert hash(config) == hash(GameConfig(modules=["tiny"], switches=[("tiny_cure", "cards")]))
    assert GameConfig(modules=("tiny",), tiny_cure="value") == GameConfig(modules=("tiny",))
    # Without the module: only the default, which is dropped.
    assert GameConfig(tiny_depth=2) == GameConfig() and GameConfig().switch("tiny_depth") == 2
    with pytest.raises(
        ConfigError, match=r"GameConfig\.tiny_cure='cards' .*its default 'value' without module 'tiny'"
    ):
        GameConfig(tiny_cure="cards")
    with pytest.raises(ConfigError, match=r"GameConfig\.tiny_depth=4 .*an int from 1 to 3 \(T-2: 1 to 3\)"):
        GameConfig(modules=("tiny",), tiny_depth=4)
    with pytest.raises(ConfigError, match=r"GameConfig\.tiny_depth=True .*an int from 1 to 3"):
        GameConfig(modules=("tiny",), tiny_depth=True)  # a bool is no int here
    assert "tiny_cure" in GameConfig.known_names()
    assert split_config({"modules": ("tiny",), "tiny_depth": 3})[0].switch("tiny_depth") == 3  # gym kwargs


def test_switches_round_trip_through_dicts_replace_and_saves(tiny: None) -> None:
    config = GameConfig(modules=("tiny",), tiny_depth=3, seed=4)
    data = config.to_dict()
    assert data["tiny_depth"] == 3 and data["tiny_cure"] == "value"  # every switch of its modules
    assert "tiny_depth" not in GameConfig().to_dict()  # a base game's dict names none
    assert GameConfig.from_dict(data) == config
    assert config.replace(tiny_depth=1).switch("tiny_depth") == 1
    assert config.replace(seed=5).switch("tiny_depth") == 3  # replace keeps the switches
    state = new_game(config)
    loaded = from_json(state.to_json())
    assert loaded.config == config and json.loads(loaded.to_json())["config"]["tiny_depth"] == 3


def test_a_ruling_answers_the_engine_question(tiny: None) -> None:
    assert cure_req(new_game(GameConfig(modules=("tiny",)))) == CURE_REQ  # the module answers None
    assert cure_req(new_game(GameConfig(modules=("tiny",), tiny_cure="cards"))) == CARDS
    assert cure_req(new_game(GameConfig())) == CURE_REQ  # a game without it never asks it


def test_an_unregistered_module_s_switch_is_unknown() -> None:
    with pytest.raises(ConfigError, match=r"unknown GameConfig field\(s\) \['tiny_cure'\]"):
        GameConfig(tiny_cure="value")
    with pytest.raises(ConfigError, match="no registered module declares a switch 'tiny_cure'"):
        GameConfig().switch("tiny_cure")


def test_register_refuses_a_switch_declared_twice_or_a_bad_default(tiny: None) -> None:
    with pytest.raises(ValueError, match="switch 'tiny_cure' is declared already"):
        register(Module(name="tiny2", switches=(Switch("tiny_cure", "value", ("value",)),)))
    with pytest.raises(ValueError, match="switch 'odd' is declared already or refuses its default"):
        register(Module(name="tiny3", switches=(Switch("odd", 5, range(1, 4)),)))
    with pytest.raises(ValueError, match="answers rule question 'cure_cost' a second time"):
        with registered(Module(name="tiny4", rulings=(("cure_cost", _cure_cost),))):
            new_game(GameConfig(modules=("tiny", "tiny4")))


def test_card_codes_are_named_by_the_module_that_adds_them() -> None:
    declared = {c: n for m in MODULES.values() for c, n in zip(m.card_codes, m.card_names, strict=False)}
    assert MODULE_CARD_NAMES == declared and len(declared) == 17  # Dark Matter and the 16 Phobias
    assert code_name(CURRENCY) == declared[CURRENCY] == "dark-matter"
    assert code_name(CURRENCY + 4) == "phobia-3" and code_name(MADNESS) == "madness"
    refused = r"card_codes \[{}\] need one name each \(card_names\) and codes 13..29 .*; refused: \[{}\]"
    with pytest.raises(ValueError, match=refused.format(CURRENCY, CURRENCY)):  # Dark Matter's code
        register(Module(name="tiny5", card_codes=(CURRENCY,), card_names=("ink",)))
    with pytest.raises(ValueError, match=refused.format(7, 7)):
        register(Module(name="tiny5", card_codes=(7,), card_names=("ink",)))
    with pytest.raises(ValueError, match=refused.format("", "")):  # a name with no code
        register(Module(name="tiny5", card_names=("ink",)))
    assert "tiny5" not in MODULES


def test_cost_parts_are_declared_by_the_modules_that_use_them(tiny: None) -> None:
    with pytest.raises(ValueError, match=r"cost_parts \['ink'\] are no module part of payment.Cost"):
        register(Module(name="tiny5", cost_parts=("ink",)))
    assert set(PaymentCost._fields[5:]) == {"one_of_set", *MODULE_COST_PARTS}  # the engine's list
    # TINY's Cure costs 2 Element cards with tiny_cure="cards", yet TINY declares no cost part: the
    # payment is refused, naming the part (the Phobia module, which declares "cards", pays it).
    sc = Scenario(num_players=2, modules=("tiny",), tiny_cure="cards", skip_forced_decisions=False)
    sc = sc.hand(0, "madness", "fire-1", "water-1").action_phase(0)
    with pytest.raises(
        ValueError, match=r"uses cost part\(s\) \['cards'\], which no module of this game \['tiny'\]"
    ):
        sc.do(M.CURE_HAND + MADNESS)
