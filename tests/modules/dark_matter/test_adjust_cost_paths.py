"""``hooks.adjust_cost`` in a module game (every chosen Action asks): it reads the
temporary and the sourced modifiers where they lie, once, and, when none is a "forbid" (docs/rules.md
4.10), calls the cost transforms' ``unbanned`` forms (``cost_transforms.transform_unbanned``:
the Air conversion left out for a Magician without it, V-12). On every decision of random module
games, every seat, Action and cost, with temporary modifiers added (cost, forbid, lose_ability:
V-10) and the ability lost, it must give what the general reading gives (kept here as the
oracle: ``player_mods``, ``apply_cost_mods`` on a "cost" modifier of the Action, then
``transform_cost``); and the comparison fails when a shortcut is broken on purpose.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bbom_env.engine import GameConfig
from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core.rules import ModulesMemo, ruleset
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers import sources as mod_sources
from bbom_env.engine.modifiers import transforms as cost_transforms
from bbom_env.engine.modifiers.hooks import apply_cost_mods, player_mods
from bbom_env.engine.modifiers.transforms import transform_cost
from tests.builders import random_decisions

_COSTS = (
    ("activate", 0, (1, 0, 0, 0, 0)),
    ("activate", 3, (0, 0, 0, 2, 0)),
    ("learn", 3, (0, 0, 0, 1, 0)),
    ("acquire", 2, (0, 0, 3, 0, 0)),
    ("destroy", 1, (0, 2, 0, 1, 0)),
    ("cure", None, (0, 0, 0, 0, 2)),
    ("acquire_dark_matter", None, (0, 0, 0, 0, 0, 0, (), 2)),
)

# Temporary modifiers added to the seat's: none, a surcharge, bans (Air: the conversion stops,
# 4.10), the ability lost (V-10: the Magician's surcharges and conversion with it)
_TEMPS: tuple[tuple[dict, ...], ...] = (
    (),
    ({"kind": "cost", "action": "all", "element": "any", "amount": 1},),
    ({"kind": "forbid", "action": "all", "element": "air"},),
    ({"kind": "forbid", "action": "learn", "element": "water"}, {"kind": "hand_size", "amount": 1}),
    ({"kind": "lose_ability"},),
    ({"kind": "cost", "action": "activate", "element": "same", "amount": -1}, {"kind": "lose_ability"}),
)


def _oracle(state: GameState, p: int, action: str, element: int | None, req: tuple) -> tuple:
    """The general reading (``adjust_cost`` before its module path): the player's modifiers
    merged, the "cost" ones applied when one names the Action, then every transform's gate."""
    mods = player_mods(state, p)
    for m in mods:
        if m["kind"] == "cost" and m["action"] in (action, "all"):
            req = apply_cost_mods(mods, action, element, req)
            break
    return transform_cost(state, p, action, req)


def _walk(modules: tuple[str, ...], seeds: range, seen: Counter[str]) -> None:
    for seed in seeds:
        config = GameConfig(num_players=2 + seed % 4, payment="auto", seed=seed, modules=modules)
        for step, state in enumerate(random_decisions(config, seed)):
            for p, pl in enumerate(state.players):
                if step % 2 and p != state.active:
                    continue  # (every seat on every other decision: the test's time)
                for temps in _TEMPS:
                    pl.mods.extend(TempModifier(m, "this_turn", "test") for m in temps)
                    for lost in (False, True):
                        flag, pl.ability_lost = pl.ability_lost, pl.ability_lost or lost
                        for action, el, req in _COSTS:
                            want = _oracle(state, p, action, el, req)
                            assert hooks.adjust_cost(state, p, action, el, req) == want, (action, req, temps)
                            seen["changed"] += want != req
                            seen["converted"] += bool(getattr(want, "convert", False))
                            seen["paired"] += bool(getattr(want, "wildcards", False))
                        pl.ability_lost = flag
                    if temps:
                        del pl.mods[-len(temps) :]


@pytest.mark.parametrize("modules", [("dark_matter", "phobias"), ("dark_matter",), ("phobias",)])
def test_adjust_cost_reads_as_the_general_path(modules: tuple[str, ...]) -> None:
    seen = Counter[str]()
    _walk(modules, range(6), seen)
    assert seen["changed"] > 1000, seen
    if "dark_matter" in modules:  # both transforms were applied
        assert seen["converted"] > 20 and seen["paired"] > 200, seen


def test_a_source_of_any_iterable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module's source may yield any iterable (``rules.Module.modifier_sources``): the sources
    made to yield iterators, ``adjust_cost`` reads one once and answers as the general path."""
    real = mod_sources.gather

    def iterating(modules: tuple[str, ...]) -> mod_sources.Source:
        source = real(modules)
        return lambda state, p: iter(source(state, p))

    monkeypatch.setattr(hooks, "gather", ModulesMemo(iterating))
    seen = Counter[str]()
    _walk(("dark_matter", "phobias"), range(2), seen)
    assert seen["changed"] > 100, seen


def test_a_lost_ban_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: the unbanned forms called also for a payer with a "forbid" modifier
    (the Air conversion kept while Air is banned, 4.10), which the comparison sees."""
    monkeypatch.setattr(hooks, "transform_cost", cost_transforms.transform_unbanned)
    with pytest.raises(AssertionError):
        _walk(("dark_matter", "phobias"), range(6), Counter())


def test_a_wrong_holders_set_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: the Air conversion's holders (``GatedTransform.holders``) naming no
    Magician in ``transform_unbanned`` (its gate never asked), which the comparison sees."""
    none: PackMemo[frozenset[str]] = PackMemo(lambda pack: frozenset())

    def broken(modules: tuple[str, ...]) -> cost_transforms.Unbanned:
        calls = cost_transforms._unbanned_calls(ruleset(modules).cost_transforms)
        return tuple((gate, None if holders is None else none, call) for gate, holders, call in calls)

    monkeypatch.setattr(cost_transforms, "_UNBANNED", ModulesMemo(broken))
    with pytest.raises(AssertionError):
        _walk(("dark_matter",), range(6), Counter())
