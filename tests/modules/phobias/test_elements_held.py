"""``MenuView.elements_held`` under "forbid" modifiers (the Elements the decider holds a card of
that may pay for an Action: a cost of "n cards of different Elements", docs/rules.md section 4.6;
a banned Element's cards left out, section 4.10, V-36) read from the view's values and the
reading's bans, against counting the funds the payment builds (``available_values`` with
``banned_elements``) on the menus of random module games with added modifiers; the bans
decide on enough of them that ignoring them is caught."""

from __future__ import annotations

from bbom_env.engine.actions.menu import MenuView
from bbom_env.engine.modifiers.hooks import banned_elements
from bbom_env.engine.payment.cost import available_values

from .test_destroy_menu import MODULE_SETS, _menus

_ACTIONS = ("acquire_dark_matter", "destroy", "learn")


def test_elements_held_counts_the_funds_under_bans() -> None:
    checked = decided = 0
    for modules in MODULE_SETS:
        for state, f, _extra in _menus(modules, range(3)):
            view = MenuView(state, f)
            for action in _ACTIONS:
                banned = banned_elements(state, view.p, action)
                funds = available_values(state, view.p, banned)
                held = sum(1 for c in funds if any(c))
                assert view.elements_held(state, action) == held, (modules, action, banned)
                checked += 1
                decided += held != sum(1 for c in view.counts if any(c))  # ignoring the bans
    assert checked > 1000 and decided > 100
