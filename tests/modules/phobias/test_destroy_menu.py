"""The Destroy Action's menu in module games (``engine/actions/destroy.py``; docs/rules.md 4.4, 4.7, 4.10;
V-32, V-36, A-49, A-62) against its general path, on every menu of random games of
the Vth Element's modules, with "cost" and "forbid" modifiers added (temporary ones: beside a
Phobia's standing ones), Dark Matter in hand (Dark Curses payable, Spontaneous Elements open)
and a richer hand:

* each face-up Curse offered exactly when the payment solver pays ``actions.destroy_cost`` (a
  Dark Curse's by its ``CurseRule.cost``: the standing surcharge asked of the hooks per Curse),
  and a base Curse is not forbidden (V-36: a Curse of a banned Element, a Multi-Element Curse, a
  token of a banned Element);
* ``standing_destroy_surcharge`` (read once per query, 0 without asking when no "same" cost
  modifier touches the Action) is ``hooks.standing_surcharge``;
* ``CurseRule.surcharged`` with that surcharge is ``CurseRule.cost``;
* the Cure Action's cost under "forbid" modifiers (``action_rulings.cure_payable``) is
  ``view.can_pay`` of its cost (A-11, V-36).

Each shortcut broken on purpose makes the comparison fail (the last tests)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.actions import destroy as D
from bbom_env.engine.actions.base import CURE_REQ, _curse_base, curse_rule, destroy_cost, legal_destroy
from bbom_env.engine.actions.menu import MenuView
from bbom_env.engine.actions.rulings import DestroyRuling, cure_payable
from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.constants import DARK_MATTER, MAX_STACK, NUM_ELEMENT_CODES
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import affordable
from bbom_env.modules.dark_matter.content import DARK_SYMBOL

MODULE_SETS = (("dark_matter", "phobias"), ("dark_matter",), ("phobias",))

_VARIANTS: tuple[tuple[dict, ...], ...] = (
    (),
    ({"kind": "cost", "action": "destroy", "element": "same", "amount": 1},),
    ({"kind": "cost", "action": "all", "element": "same", "amount": 1},),
    ({"kind": "cost", "action": "destroy", "element": "any", "amount": 1},),
    ({"kind": "cost", "action": "learn", "element": "same", "amount": 1},),  # not the Action
    ({"kind": "cost", "action": "destroy", "element": "same", "amount": -1},),
    ({"kind": "forbid", "action": "all", "element": "fire"},),
    ({"kind": "forbid", "action": "destroy", "element": "earth"},),
    ({"kind": "forbid", "action": "destroy", "element": "any"},),
    (
        {"kind": "forbid", "action": "all", "element": "water"},
        {"kind": "cost", "action": "destroy", "element": "same", "amount": 1},
    ),
)


def _reference(state: GameState, p: int) -> list[int]:
    """The general path: per face-up Curse, not forbidden (V-36 for a base Curse) and paid by
    the payment solver at ``destroy_cost``, each hook asked anew."""
    out: list[int] = []
    if hooks.forbidden(state, p, "destroy", None):
        return out
    banned = hooks.banned_elements(state, p, "destroy")
    for slot, stack in enumerate(state.track):
        for pos in range(len(stack)):
            curse = stack[len(stack) - 1 - pos]
            if curse.neutralized_at >= 0:
                continue
            if curse_rule(state, curse) is None and banned:
                el = _curse_base(state, curse)[1]
                if el is None or el in banned or any(curse.tokens[e] for e in banned):
                    continue
            if affordable(state, p, destroy_cost(state, p, curse), "destroy"):
                out.append(M.DESTROY_CURSE + M.curse_arg(slot, pos))
    return out


def _menus(modules: tuple[str, ...], seeds: range) -> Iterator[tuple[GameState, dict, str]]:
    """Menus of random games, each with every variant of added modifiers and cards (the state
    changed for the caller, then put back), named for the coverage counts."""
    rng = random.Random(len(modules))
    for seed in seeds:
        state = new_game(GameConfig(num_players=2 + seed % 3, seed=200 + seed, modules=modules))
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu" and state.track and rng.random() < 0.5:
                pl = state.players[f["player"]]
                for variant, extra in itertools.product(_VARIANTS, ("", "rich", "dark")):
                    pl.mods.extend(TempModifier(m, "this_turn", "test") for m in variant)
                    codes = range(NUM_ELEMENT_CODES) if extra == "rich" else (DARK_MATTER,) * 3
                    if extra:
                        for code in codes:
                            pl.hand[code] += 1
                    yield state, f, extra
                    del pl.mods[len(pl.mods) - len(variant) :]
                    if extra:
                        for code in codes:
                            pl.hand[code] -= 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def _kind(state: GameState, view: MenuView) -> str:
    budget = view.part_budget(state, "destroy")
    if budget == 0:
        return "plain"
    if budget is None and view.part_air(state, "destroy") is None:
        return "slow"
    return "budget"


@pytest.mark.parametrize("modules", MODULE_SETS)
def test_the_destroy_menu_is_the_general_path(modules: tuple[str, ...]) -> None:
    seen = Counter[str]()
    for state, f, _extra in _menus(modules, range(5)):
        p = f["player"]
        view = MenuView(state, f)
        fast = legal_destroy(state, view)
        assert sorted(fast) == _reference(state, p)
        surcharge = D.standing_destroy_surcharge(state, view)
        assert surcharge == hooks.standing_surcharge(state, p, "destroy")
        for slot, stack in enumerate(state.track):
            for pos in range(len(stack)):
                curse = stack[len(stack) - 1 - pos]
                rule = curse_rule(state, curse)
                if rule is not None:
                    assert rule.surcharged is not None
                    assert rule.surcharged(state, curse, surcharge) is rule.cost(state, p, curse)
                    offered = M.DESTROY_CURSE + M.curse_arg(slot, pos) in fast
                    seen[f"module curse {offered}"] += 1
                    seen["module curse surcharged"] += surcharge > 0
        ruling = DestroyRuling(state, view, surcharge)
        seen["flagged"] += ruling.written is not None and bool(ruling.pairs or ruling.convert)
        kind = _kind(state, view)
        if kind != "slow":  # no "cost" modifier on the Action: no standing surcharge
            assert surcharge == 0
        seen[kind] += 1
        seen["offered"] += len(fast)
        seen["surcharge"] += surcharge > 0
    assert seen["plain"] > 100 and seen["slow"] > 100 and seen["offered"] > 100, seen
    if "dark_matter" in modules:
        assert seen["budget"] > 20 and seen["flagged"] > 20, seen
        assert seen["module curse True"] > 20 and seen["module curse False"] > 20, seen
    if len(modules) == 2:  # (the Phobia with the V-32 surcharge: common enough at 2 players)
        assert seen["surcharge"] > 20 and seen["module curse surcharged"] > 5, seen


def _mismatch(modules: tuple[str, ...], seeds: range) -> bool:
    """Whether legal_destroy differs from the general path on some menu."""
    for state, f, _extra in _menus(modules, seeds):
        if sorted(legal_destroy(state, MenuView(state, f))) != _reference(state, f["player"]):
            return True
    return False


def _surcharge_zero(state: GameState, view: MenuView) -> int:
    return 0


def _surcharge_always(state: GameState, view: MenuView) -> int:
    return hooks.standing_surcharge(state, view.p, "destroy") + 1


_with_adds = D._with_adds


def _adds_ignored(state: GameState, view: MenuView, ruling: DestroyRuling) -> list[int]:
    ruling.adds = (0, 0, 0, 0, 0, 0)
    return _with_adds(state, view, ruling)


_flagged_payable = D._flagged_payable


def _transforms_ignored(*args):  # type: ignore[no-untyped-def]
    ruling = args[-1]
    ruling.pairs, ruling.convert = 0, False
    return _flagged_payable(*args)


BROKEN: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "transforms ignored with additions": lambda m: m.setattr(D, "_flagged_payable", _transforms_ignored),
    "additions ignored": lambda m: m.setattr(D, "_with_adds", _adds_ignored),
    "V-32 token colours ignored": lambda m: m.setattr(D, "_other_colours", lambda tokens, el: False),
    "surcharge never read": lambda m: m.setattr(D, "standing_destroy_surcharge", _surcharge_zero),
    "surcharge one too many": lambda m: m.setattr(D, "standing_destroy_surcharge", _surcharge_always),
    "module types ignored": lambda m: m.setattr(D, "_MODULE_TYPES", PackMemo(lambda pack: {})),
    # (the slow paths tell a module's Curse type by CURSE_ELEMENT, the plain path by the memo)
    "module types priced as base Curses off the plain path": lambda m: m.setattr(
        D, "CURSE_ELEMENT", {**D.CURSE_ELEMENT, DARK_SYMBOL: None}
    ),
    "a Multi-Element Curse given an Element": lambda m: m.setattr(
        D, "CURSE_ELEMENT", {**D.CURSE_ELEMENT, "multi": 0}
    ),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_broken_shortcut_is_caught(broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not _mismatch(("dark_matter", "phobias"), range(2))
    BROKEN[broken](monkeypatch)
    assert _mismatch(("dark_matter", "phobias"), range(2)), broken


def _restacked(state: GameState, rng: random.Random) -> list[list]:
    """The track's Curses dealt again at random into stacks of 1 to ``MAX_STACK`` (the Dark
    Matter module's "add a Dark Curse") on random slots, about a third neutralized (section 7):
    what random games rarely show. Returns the old track for the caller to put back."""
    old = [list(stack) for stack in state.track]
    curses = [c for stack in old for c in stack]
    rng.shuffle(curses)
    track: list[list] = [[] for _ in old]
    for curse in curses:
        slot = rng.choice([i for i, stack in enumerate(track) if len(stack) < MAX_STACK])
        neutralized = state.turn if rng.random() < 0.3 else -1
        track[slot].append(curse._replace(neutralized_at=neutralized))
    state.track[:] = track
    return old


def test_stacked_and_neutralized_curses_on_every_path() -> None:
    """Stacks of several Curses (the top first: position 0) and neutralized Curses (never
    offered) through every path of the menu (plain, under a "forbid", with additions, with
    transforms open) against the general path; ``_open_curses`` against ``moves.curse_arg``."""
    rng = random.Random(7)
    seen = Counter[str]()
    for state, f, _extra in _menus(("dark_matter", "phobias"), range(3)):
        old = _restacked(state, rng)
        view = MenuView(state, f)
        expected = [
            (M.DESTROY_CURSE + M.curse_arg(slot, pos), curse, state.pack.curses[curse.curse], el, rule)
            for slot, stack in enumerate(state.track)
            for pos, curse in enumerate(reversed(stack))
            if curse.neutralized_at < 0
            for rule in [curse_rule(state, curse)]
            for el in [None if rule is not None else _curse_base(state, curse)[1]]
        ]
        assert D._open_curses(state) == expected
        fast = legal_destroy(state, view)
        assert sorted(fast) == _reference(state, f["player"])
        deep = max(len(stack) for stack in state.track)
        seen[f"{_kind(state, view)} forbid={view._forbid} deep={deep > 1}"] += 1
        seen["offered below the top"] += any((m - M.DESTROY_CURSE) % MAX_STACK for m in fast)
        state.track[:] = old
    for kind in ("plain", "slow", "budget"):
        assert seen[f"{kind} forbid=False deep=True"] > 20, seen
    assert seen["slow forbid=True deep=True"] > 20 and seen["offered below the top"] > 20, seen


def test_every_module_curse_type_has_its_surcharged_cost() -> None:
    """The Dark Matter module's Curse rule gives the menu's form (``CurseRule.surcharged``)."""
    rules = ruleset(("dark_matter", "phobias")).curse_rules
    assert rules and all(rule.surcharged is not None for rule in rules.values())


def _cure_mismatches(modules: tuple[str, ...], seeds: range, seen: Counter[str], broken: str = "") -> int:
    """Menus where ``action_rulings.cure_payable`` differs from ``view.can_pay`` of the Cure's
    cost (A-11) after ``view.cost``: the general path (``broken``: "bans", the bans ignored by
    the shortcut, only while it answers; "transforms": the open transforms ignored)."""
    bad = 0
    for state, f, _extra in _menus(modules, seeds):
        view = MenuView(state, f)
        if view.plain("cure") or view.forbidden(state, "cure", None):
            continue
        with pytest.MonkeyPatch.context() as m:
            if broken == "bans":
                m.setattr(MenuView, "_forbid_tot", lambda self, action: self.tot)
            transforms = view._transforms
            if broken == "transforms":
                view._transforms = ()
            fast = cure_payable(state, view, CURE_REQ)
            view._transforms = transforms
        general = MenuView(state, f)
        bad += fast != general.can_pay(state, "cure", general.cost(state, "cure", None, CURE_REQ))
        seen["forbid only"] += view._forbid and not view._transforms and not view._cost
        seen["transforms"] += bool(view._transforms) and not view._cost
        seen[f"payable {fast}"] += 1
    return bad


@pytest.mark.parametrize("modules", MODULE_SETS)
def test_the_cure_cost_under_a_forbid_is_the_general_path(modules: tuple[str, ...]) -> None:
    """Section 4.5, A-11, 4.10 (V-36): the Cure's cost checked as the funds' values summed."""
    seen = Counter[str]()
    assert _cure_mismatches(modules, range(4), seen) == 0
    assert seen["forbid only"] > 50 and seen["payable True"] > 50 and seen["payable False"] > 5, seen
    if "dark_matter" in modules:
        assert seen["transforms"] > 50, seen


@pytest.mark.parametrize("broken", ["bans", "transforms"])
def test_a_broken_cure_shortcut_is_caught(broken: str) -> None:
    assert _cure_mismatches(("dark_matter", "phobias"), range(4), Counter(), broken) > 0
