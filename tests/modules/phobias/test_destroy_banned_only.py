"""The Destroy menu under "forbid" modifiers alone (``destroy_menu._banned_only``: no "cost"
modifier on the Action, no transform open; the Phobias' V-36 bans, docs/rules.md section 4.10, A-62)
against the general path (``test_destroy_menu._reference``: the payment solver at
``actions.destroy_cost``, each hook asked anew) on the menus of random module games with added
modifiers, and the shortcut's answers the slow path's (``_general``); a broken one is caught."""

from __future__ import annotations

import pytest

from bbom_env.engine.actions import destroy as D
from bbom_env.engine.actions.base import legal_destroy
from bbom_env.engine.actions.menu import MenuView

from .test_destroy_menu import MODULE_SETS, _menus, _reference


def _compared(monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """(menus taking _banned_only, those with a banned Element, those offering a Curse), each
    asserted equal to the general path and to _general."""
    taken = banned = offered = 0
    shortcut = D._banned_only

    def counted(state, view):  # type: ignore[no-untyped-def]
        nonlocal taken, banned, offered
        out = shortcut(state, view)
        assert sorted(out) == sorted(D._general(state, view, None))
        taken += 1
        banned += bool(view.banned("destroy"))
        offered += bool(out)
        return out

    monkeypatch.setattr(D, "_banned_only", counted)
    for modules in MODULE_SETS:
        for state, f, _extra in _menus(modules, range(3)):
            assert sorted(legal_destroy(state, MenuView(state, f))) == _reference(state, f["player"])
    return taken, banned, offered


def test_the_banned_only_path_is_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    taken, banned, offered = _compared(monkeypatch)
    assert taken > 500 and banned > 400 and offered > 100


def test_a_broken_banned_only_path_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every base Curse's Element forgotten (read as Multi-Element): under a ban each is left out,
    # where the general path offers those that need no banned Element (V-36).
    monkeypatch.setattr(D, "CURSE_ELEMENT", {})
    with pytest.raises(AssertionError):
        _compared(monkeypatch)
