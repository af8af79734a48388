"""The menu's fast paths for the module's cost transforms give the moves the plain transforms
give (docs/rules.md sections 4.6-4.9, V-12): the gates (``hooks.GatedTransform``: no
Spontaneous Elements without a pair of Dark Matter cards, no Air conversion off the owner's turn
or once used) and the uniform flags (one probe cost per Action) only skip work. Compared on every
menu of random games, against a menu that applies every transform to every cost."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast

import pytest
from builders import random_decisions

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.actions.menu import MenuView, menu_legal
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.frames import MenuFrame
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers import transforms as seams
from bbom_env.engine.payment.cost import Cost
from bbom_env.modules.dark_matter.module import NAME


def _menus(config: GameConfig, play_seed: int) -> Iterator[tuple[GameState, MenuFrame]]:
    """``_states``' menu decisions, with their frame."""
    for state in random_decisions(config, play_seed):
        top = state.stack[-1] if state.stack else None
        if top is not None and top["kind"] == "menu":
            yield state, cast(MenuFrame, top)


def _all_transforms(
    state: GameState, p: int, transforms: tuple, unbanned: bool = False, currency: int = -1
) -> tuple[tuple, bool]:
    """seams.active_transforms without gates nor uniform flags: every transform, every cost."""
    return tuple(getattr(t, "transform", t) for t in transforms), False


@pytest.mark.parametrize(
    ("players", "payment", "modules"),
    [(2, "manual", (NAME,)), (3, "auto", (NAME,)), (4, "manual", (NAME,)), (2, "auto", (NAME, "phobias"))],
)
def test_gated_and_uniform_menus_match_the_plain_transforms(
    dm: None, monkeypatch: pytest.MonkeyPatch, players: int, payment: str, modules: tuple[str, ...]
) -> None:
    """With the Phobia module too, payers with banned Elements (section 4.10, V-36): the flags
    of the costs that need no banned Element, from a probe cost of another Element."""
    transforms = ruleset(modules).cost_transforms
    assert transforms and all(type(t) is seams.GatedTransform and t.uniform for t in transforms)
    fast_paths = menus = banned_paths = 0
    for seed in range(6 if len(modules) == 1 else 12):
        config = GameConfig(num_players=players, payment=payment, seed=seed, modules=modules)
        for state, f in _menus(config, seed):
            menus += 1
            fast = menu_legal(state, f)
            view = MenuView(state, f)
            fast_paths += bool(view._transforms) and view._flags is not None
            banned_paths += bool(view._transforms) and view._flags is not None and view._forbid
            with monkeypatch.context() as m:
                m.setattr(seams, "active_transforms", _all_transforms)
                assert menu_legal(state, f) == fast, (seed, state.turn)
    # The comparison covers menus where a transform is open (a pair held, or the conversion).
    assert menus > 100 and fast_paths > 10, (menus, fast_paths)
    assert banned_paths > 10 or len(modules) == 1, banned_paths


# A spread of costs (Element parts, "any", Dark Matter, different Elements) and every pay Action,
# for the transforms' variants compared with the transform itself.
_TRANSFORM_COSTS: tuple[tuple, ...] = (
    (1, 0, 0, 0, 0),
    (0, 2, 0, 3, 0),
    (0, 0, 0, 0, 2),
    (0, 0, 0, 0, 0),
    Cost(currency=4),
    Cost(distinct=2),
    Cost(1, 0, 0, 0, 1, one_of=1, one_of_set=(0, 3)),
)
_PAY_ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "acquire_dark_matter", "black_book")


def test_an_opened_transform_answers_as_the_gated_one_while_its_gate_is_open(dm: None) -> None:
    """``hooks.GatedTransform.opened`` (what the menu calls once the gate said yes, sections 4.9,
    V-12): for every payer whose gate is open, every pay Action and a spread of costs (Element
    parts, "any", Dark Matter, different Elements), the same cost as the transform with its gate."""
    transforms = ruleset((NAME,)).cost_transforms
    assert all(t.opened is not t.transform for t in transforms)
    costs, actions = _TRANSFORM_COSTS, _PAY_ACTIONS
    opened = checked = 0
    for seed in range(4):
        config = GameConfig(num_players=3, payment="auto", seed=seed, modules=(NAME,))
        for state in random_decisions(config, seed):
            for t in transforms:
                for p in range(len(state.players)):
                    if not t.active(state, p):
                        continue
                    opened += 1
                    for action in actions:
                        for req in costs:
                            assert t.opened(state, p, action, req) == t.transform(state, p, action, req)
                            checked += 1
    assert opened > 100 and checked > 1000, (opened, checked)


@pytest.mark.parametrize("modules", [(NAME,), (NAME, "phobias")])
def test_an_unbanned_transform_answers_as_the_gated_one_without_a_ban(
    dm: None, modules: tuple[str, ...]
) -> None:
    """``hooks.GatedTransform.unbanned`` (what the menu calls for a payer without a "forbid"
    modifier, section 4.10): for every payer whose gate is open and who has no banned Element for
    the Action, the same cost as the transform with its gate (the Phobia module's bans, V-36,
    are what it may skip reading)."""
    transforms = ruleset(modules).cost_transforms
    assert all(t.unbanned is not t.opened for t in transforms)
    costs, actions = _TRANSFORM_COSTS, _PAY_ACTIONS
    checked = banned = 0
    for seed in range(4):
        config = GameConfig(num_players=3, payment="auto", seed=seed, modules=modules)
        for state in random_decisions(config, seed):
            for t in transforms:
                for p in range(len(state.players)):
                    if not t.active(state, p):
                        continue
                    for action in actions:
                        if hooks.banned_elements(state, p, action):
                            banned += 1
                            continue
                        for req in costs:
                            assert t.unbanned(state, p, action, req) == t.transform(state, p, action, req)
                            checked += 1
    assert checked > 1000, checked
    assert banned > 0 or len(modules) == 1, banned


def test_flagged_costs_of_a_payer_with_a_ban_match_the_plain_transforms(
    dm: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MenuView.can_pay`` / ``can_pay_single`` of a payer with banned Elements (section 4.10,
    V-36) and open uniform transforms (sections 4.9, V-12): for costs that need a banned Element
    too (a "cost" modifier may add one), the same answers as the plain transforms give."""
    modules = (NAME, "phobias")
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        for state, f in _menus(GameConfig(num_players=2, payment="auto", seed=seed, modules=modules), seed):
            view = MenuView(state, f)
            if not (view._forbid and view._transforms and view._flags is not None):
                continue
            with monkeypatch.context() as m:
                m.setattr(seams, "active_transforms", _all_transforms)
                plain = MenuView(state, f)
            for action in ("activate", "learn", "acquire", "destroy", "cure"):
                for n in range(1, 13):  # "any" (a Cure's): a banned Element's cards pay none
                    req = (0, 0, 0, 0, n)
                    assert view.can_pay(state, action, req) == plain.can_pay(state, action, req)
                for _ in range(6):
                    req = tuple(rng.randint(0, 3) if rng.random() < 0.4 else 0 for _ in range(5))
                    assert view.can_pay(state, action, req) == plain.can_pay(state, action, req)
                    e = rng.randrange(4)
                    n = rng.randint(1, 6)
                    got = view.can_pay_single(state, action, e, n)
                    assert got == plain.can_pay_single(state, action, e, n), (action, e, n)
                    checked += 1
    assert checked > 300, checked


def test_the_declared_flags_are_what_the_transforms_set(dm: None) -> None:
    """``hooks.GatedTransform.flag`` / ``flag_actions`` / ``flag_stop`` (what the menu reads
    instead of a probe cost): Spontaneous Elements set ``wildcards`` on the Element costs of the
    Actions paid in Elements (section 4.9, V-06), the Air conversion ``convert`` on every
    Action's (V-12) unless Air is banned (section 4.10); for a payer with banned Elements, on the
    costs that need none of them (``opened``); a non-free Element-only cost of another Action is
    left as it is."""
    from bbom_env.engine.model.records import TempModifier
    from bbom_env.engine.payment.cost import as_cost

    transforms = ruleset((NAME,)).cost_transforms
    assert [t.flag for t in transforms] == ["wildcards", "convert"]
    state = new_game(GameConfig(num_players=2, payment="auto", seed=0, modules=(NAME,)))
    actions = ("activate", "learn", "acquire", "destroy", "cure", "acquire_dark_matter", "black_book")
    costs = [(1, 0, 0, 0, 0), (0, 2, 1, 0, 0), (0, 0, 0, 3, 2), (0, 0, 0, 0, 1), (2, 0, 0, 1, 0)]
    kept = tuple(t.unbanned for t in transforms)
    declared = seams.declared_flags(transforms, kept)
    assert declared == ((True, transforms[0].flag_actions, None), (False, None, 3))
    assert seams.declared_flags(transforms, tuple(t.opened for t in transforms)) == declared
    names = ("fire", "water", "earth", "air")
    for banned in (frozenset(), frozenset({0}), frozenset({3}), frozenset({1, 3})):
        mods = [{"kind": "forbid", "action": "all", "element": names[e]} for e in banned]
        state.players[0].mods = [TempModifier(m, "this_turn", "test") for m in mods]
        for action in actions:
            wildcards, convert = seams.flags_of(declared, action, banned)
            for t, flag in zip(transforms, (wildcards, convert), strict=True):
                for req in costs:
                    if any(req[e] for e in banned):
                        continue  # the flags hold for the costs that need no banned Element
                    out = (t.opened if banned else t.unbanned)(state, 0, action, req)
                    want = as_cost(req)._replace(**{t.flag: True}) if flag else req
                    assert as_cost(out) == as_cost(want), (t, action, req, banned)
    state.players[0].mods = []


_MODIFIERS = (
    {"kind": "forbid", "action": "all", "element": "fire"},
    {"kind": "forbid", "action": "all", "element": "air"},
    {"kind": "forbid", "action": "activate", "element": "water"},
    {"kind": "forbid", "action": "learn", "element": "any"},
    {"kind": "forbid", "action": "cure", "element": "any"},
    {"kind": "cost", "action": "activate", "element": "same", "amount": 1},
    {"kind": "cost", "action": "all", "element": "same", "amount": -1},
    {"kind": "cost", "action": "acquire", "element": "any", "amount": 1},
    {"kind": "cost", "action": "destroy", "element": "same", "amount": 1},
    {"kind": "cost", "action": "learn", "element": "earth", "amount": 1},
)


@pytest.mark.parametrize("seed", range(3))
def test_modified_menus_with_open_transforms_match_the_plain_transforms(
    dm: None, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Sections 4.9, 4.10, V-12: at menus where a transform is open, the decider given one or two
    "forbid"/"cost" modifiers (bans for every Action or one, a forbidden Action, "same", "any"
    and an Element's surcharges, a discount): the menu equals the one the plain transforms give
    (every cost transformed and solved), so each closed form of a modified cost is checked."""
    from bbom_env.engine.model.records import TempModifier

    rng = random.Random(seed)
    checked = 0
    for game in range(4):
        modules = (NAME,) if game % 2 else (NAME, "phobias")
        config = GameConfig(num_players=2, payment="auto", seed=10 * seed + game, modules=modules)
        for state, f in _menus(config, game):
            if not MenuView(state, f)._transforms:
                continue
            pl = state.players[f["player"]]
            kept = pl.mods
            for _ in range(3):
                picked = rng.sample(_MODIFIERS, rng.randint(1, 2))
                pl.mods = [*kept, *(TempModifier(m, "this_turn", "test") for m in picked)]
                fast = menu_legal(state, f)
                with monkeypatch.context() as m:
                    m.setattr(seams, "active_transforms", _all_transforms)
                    assert menu_legal(state, f) == fast, (picked, state.turn)
                checked += 1
            pl.mods = kept
    assert checked > 100, checked


def test_the_views_cards_only_costs_match_the_payment_solver(dm: None) -> None:
    """``MenuView.affordable`` of costs counted in cards (Acquire Dark Matter's "2 cards of
    different Elements", section 4.6, with and without the Air conversion, V-12; Dark Matter,
    4.7) for a payer with and without banned Elements (section 4.10): ``payment.affordable``'s
    answer (the exact search for the conversion)."""
    from bbom_env.engine.model.records import TempModifier
    from bbom_env.engine.payment.cost import affordable

    rng = random.Random(3)
    costs = [Cost(distinct=n, convert=c) for n in (1, 2, 3) for c in (False, True)] + [
        Cost(distinct=2, currency=2, convert=True)
    ]
    checked = 0
    for seed in range(3):
        for state, f in _menus(GameConfig(num_players=2, payment="auto", seed=seed, modules=(NAME,)), seed):
            pl = state.players[f["player"]]
            kept = pl.mods
            element = rng.choice(("fire", "water", "earth", "air"))
            ban = {"kind": "forbid", "action": "all", "element": element}
            for mods in (kept, [*kept, TempModifier(ban, "this_turn", "test")]):
                pl.mods = mods
                view = MenuView(state, f)
                for cost in costs:
                    want = affordable(state, f["player"], cost, "acquire_dark_matter")
                    assert view.affordable(state, "acquire_dark_matter", cost) == want, (cost, element)
                    checked += 1
            pl.mods = kept
    assert checked > 1000, checked


def test_acquire_dark_matter_is_offered_exactly_when_the_solver_pays_it(dm: None) -> None:
    """Section 4.6, V-17, V-12: the Action's menu (its shortcuts: the Elements held as printed,
    then the transformed cost's closed form) offers it exactly when the payment solver pays the
    transformed cost (``hooks.transform_cost``, ``payment.affordable``), bans included (4.10)."""
    from bbom_env.engine.model.records import TempModifier
    from bbom_env.engine.payment.cost import affordable
    from bbom_env.modules.dark_matter.actions import ACQUIRE, ACQUIRE_COST, legal_acquire
    from bbom_env.modules.dark_matter.state import dm_state

    rng = random.Random(4)
    checked = opened = 0
    for seed in range(4):
        for state, f in _menus(GameConfig(num_players=2, payment="auto", seed=seed, modules=(NAME,)), seed):
            if dm_state(state).supply <= 0:
                continue
            p = f["player"]
            pl = state.players[p]
            kept = pl.mods
            ban = {"kind": "forbid", "action": "all", "element": rng.choice(("fire", "air"))}
            for mods in (kept, [*kept, TempModifier(ban, "this_turn", "test")]):
                pl.mods = mods
                view = MenuView(state, f)
                opened += bool(view._transforms)
                cost = hooks.transform_cost(state, p, ACQUIRE, ACQUIRE_COST)
                want = affordable(state, p, cost, ACQUIRE)
                assert bool(legal_acquire(state, view)) == want, (seed, state.turn, mods)
                checked += 1
            pl.mods = kept
    assert checked > 300 and opened > 30, (checked, opened)
