"""The Action menu's fast path (issue 8: engine throughput): when no modifier touches an Action
(``menu.MenuView.plain``), the base Actions' ``legal`` compare the printed cost with the Element
totals inline. It must offer exactly what the general path (``forbidden`` / ``can_pay_single`` /
``can_pay`` with the player's modifiers) offers."""

from __future__ import annotations

import random

import pytest
from builders import Scenario

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.menu import MenuView, menu_legal
from bbom_env.engine.records import TempModifier


def _general_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MenuView, "plain", lambda self, action: False)


@pytest.mark.parametrize("pack", ["test", "default"])
def test_the_fast_path_offers_what_the_general_path_offers(
    pack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random games of both packs (their Magicians and cards give "cost" and "forbid" modifiers):
    at every menu, the menu with the fast path equals the menu computed by the general path."""
    menus = modified = 0
    for seed in range(12):
        state = new_game(GameConfig(num_players=2 + seed % 4, pack=pack, seed=seed))
        rng = random.Random(seed)
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu":
                fast = menu_legal(state, f)
                view = MenuView(state, f)
                modified += not all(
                    view.plain(a) for a in ("activate", "learn", "acquire", "destroy", "cure")
                )
                with monkeypatch.context() as m:
                    _general_only(m)
                    assert menu_legal(state, f) == fast, (pack, seed, state.turn)
                menus += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert menus > 500
    assert 0 < modified < menus  # both paths were taken


def test_plain_is_false_exactly_for_the_actions_a_modifier_touches() -> None:
    sc = Scenario(magicians=("test_mag_mixed", "test_mag_earth")).action_phase(0)
    f = sc.s.stack[-1]
    assert f["kind"] == "menu"
    view = MenuView(sc.s, f)  # the Mixed Magician: Acquire costs one less of its Element
    assert [a for a in ("activate", "learn", "acquire", "destroy", "cure") if not view.plain(a)] == [
        "acquire"
    ]
    every = {"kind": "cost", "action": "all", "element": "any", "amount": 1}
    sc.s.players[0].mods.append(TempModifier(every, "this_turn", "test"))
    assert not any(MenuView(sc.s, f).plain(a) for a in ("activate", "learn", "destroy", "cure"))
    sc.s.players[0].mods[-1] = TempModifier(
        {"kind": "forbid", "action": "cure", "element": "any"}, "this_turn", "test"
    )
    assert not any(MenuView(sc.s, f).plain(a) for a in ("activate", "learn", "destroy", "cure"))
