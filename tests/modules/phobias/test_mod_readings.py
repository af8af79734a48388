"""The shortcuts of the modifier readings in games with Phobias (docs/rules.md 4.10, 9.2;
V-31, V-32, V-36): each compared, on every menu of random games, with the general path it
replaces (the modifiers gathered and looped over anew on every question):

* ``phobias.constraints.phobia_modifiers``: one tuple object per set of Phobias (rows, combos);
* ``hooks.player_mods``: the merged tuple of the Magician's and the sourced modifiers, found again;
* ``mod_reading.read``: what the menu asks of the modifiers (kinds, banned Elements, bans, the
  Cure Action's targets), worked out once per modifier tuple;
* ``hooks.standing_surcharge``: the V-32 surcharge per sourced tuple;
* ``action_rulings.DestroyRuling``: the destroy costs with the modifiers' additions written out;
* ``MenuView.affordable`` under a "forbid" modifier: the banned Elements read once per query.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.actions import destroy as destroy_menu
from bbom_env.engine.actions import rulings as rulings
from bbom_env.engine.actions.base import legal_destroy
from bbom_env.engine.actions.menu import MenuView, menu_legal
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, NUM_ELEMENT_CODES, PHOBIA_BASE
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers.hooks import banned_by, forbidden_by
from bbom_env.engine.modifiers.reading import ModReading, read
from bbom_env.engine.payment.cost import affordable
from bbom_env.modules.dark_matter.actions import dark_matter_cost
from bbom_env.modules.phobias.constraints import CURE_ONLY

from .helpers import reference_mods, sourced_mods

ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "acquire_dark_matter", "black_book", "all")


def _check_reading(r: ModReading, mods: list[dict]) -> None:
    assert r.forbid == any(m["kind"] == "forbid" for m in mods)
    forbids = [m for m in mods if m["kind"] == "forbid"]
    every = forbids and all(m["action"] == "all" and m["element"] != "any" for m in forbids)
    assert r.ban_all == (frozenset(ELEMENT_NAMES.index(m["element"]) for m in forbids) if every else None)
    codes = [m.get("code") for m in mods if m["kind"] == CURE_ONLY]
    assert r.cure_targets == (frozenset(c for c in codes if c is not None) if codes else None)
    for _ in range(2):  # asked again: the stored answers
        for action in ACTIONS:
            assert r.banned(action) == banned_by(mods, action)
            for e in (None, 0, 1, 2, 3):
                assert r.forbidden(action, e) == forbidden_by(mods, action, e)


def _general_destroy(state: GameState, view: MenuView, ruling, base, el) -> bool:  # type: ignore[no-untyped-def]
    return view.can_pay(state, "destroy", view.cost(state, "destroy", el, base))


@pytest.mark.parametrize("modules", [("phobias",), ("dark_matter", "phobias")])
def test_the_readings_answer_as_the_general_path(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every menu of random games with Phobias: each reading equals its general path."""
    seen = Counter[str]()
    for seed in range(8):
        config = GameConfig(num_players=2 + seed % 4, seed=seed, modules=modules)
        state = new_game(config)
        rng = random.Random(seed)
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu":
                p = f["player"]
                ref = reference_mods(state, p)
                mods = hooks.player_mods(state, p)
                assert list(mods) == ref
                assert list(ruleset(modules).modifier_sources[0](state, p)) == sourced_mods(state, p)
                _check_reading(read(mods), ref)
                surcharge = sum(
                    m["amount"]
                    for m in sourced_mods(state, p)
                    if m["kind"] == "cost" and m["element"] == "same" and m["action"] in ("destroy", "all")
                )
                assert hooks.standing_surcharge(state, p, "destroy") == max(0, surcharge)
                codes = [m.get("code") for m in ref if m["kind"] == CURE_ONLY]
                expected = frozenset(c for c in codes if c is not None) if codes else None
                assert hooks.cure_targets(state, p) == expected
                for point in hooks.RULE_POINTS:  # the last "replace" found wins
                    expected_point = next((m["value"] for m in reversed(ref) if m.get("point") == point), 7)
                    assert hooks.rule_point(state, p, point, 7) == expected_point
                size = next((m["value"] for m in reversed(ref) if m.get("point") == "hand_size"), 6)
                extra = sum(m["amount"] for m in ref if m["kind"] == "hand_size")
                assert hooks.hand_size(state, p) == max(1, size + extra)
                for action, el, req in (("destroy", 1, (0, 2, 0, 1, 0)), ("cure", None, (0, 0, 0, 0, 1))):
                    expected_cost = hooks.transform_cost(
                        state, p, action, hooks.apply_cost_mods(ref, action, el, req)
                    )
                    assert hooks.adjust_cost(state, p, action, el, req) == expected_cost
                for action in ACTIONS:
                    assert hooks.banned_elements(state, p, action) == banned_by(ref, action)
                    assert hooks.forbidden(state, p, action, 1) == forbidden_by(ref, action, 1)
                seen["phobia"] += any(s.card >= PHOBIA_BASE for s in state.players[p].support)
                seen["combo"] += sum(s.card >= PHOBIA_BASE for s in state.players[p].support) > 1
                seen["merged"] += type(mods) is tuple and bool(sourced_mods(state, p))
                # legal_destroy with the modifiers' additions written out, and the general path
                view = MenuView(state, f)
                fast = legal_destroy(state, view)
                surcharge = destroy_menu.standing_destroy_surcharge(state, view)
                assert surcharge == hooks.standing_surcharge(state, p, "destroy")
                ruling = rulings.DestroyRuling(state, view, surcharge)
                if view.part_budget(state, "destroy") is None and ruling.adds is not None:
                    seen["adds"] += 1
                    seen["adds+"] += any(ruling.adds)
                with monkeypatch.context() as m:
                    m.setattr(rulings, "_payable_with_adds", _general_destroy)
                    m.setattr(rulings, "_token_payable", lambda *args: None)
                    assert legal_destroy(state, MenuView(state, f)) == fast
                # the menu's affordable under a "forbid" (a Dark Curse's and an Element cost)
                if view._forbid:
                    seen["forbid"] += 1
                    costs: list[tuple] = [(0, 0, 0, 0, 2), (1, 1, 0, 0, 0)]
                    if "dark_matter" in modules:
                        costs.append(dark_matter_cost(4))  # a Dark Curse's (section 4.7)
                    for cost in costs:
                        expected = affordable(state, p, cost, "destroy")
                        assert view.affordable(state, "destroy", cost) == expected
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    # every shortcut was taken
    assert seen["phobia"] > 100 and seen["combo"] > 10 and seen["merged"] > 50, seen
    assert seen["adds"] > 20 and seen["adds+"] > 5 and seen["forbid"] > 10, seen


def test_a_reading_is_found_again_only_for_the_same_tuple() -> None:
    """``mod_reading.read``: a tuple's reading is kept with the tuple (found by identity); a list
    (temporary modifiers) is read anew; equal contents in another tuple get their own reading."""
    a = ({"kind": "forbid", "action": "all", "element": "fire"},)
    b = ({"kind": "forbid", "action": "all", "element": "fire"},)
    assert read(a) is read(a) and read(b) is not read(a)
    assert read(a).banned("learn") == frozenset({0}) == read(list(a)).banned("learn")
    assert read(list(a)) is not read(list(a))


_VARIANTS = (
    ({"kind": "cost", "action": "destroy", "element": "same", "amount": 1},),
    ({"kind": "cost", "action": "all", "element": "same", "amount": 2},),
    ({"kind": "cost", "action": "destroy", "element": "any", "amount": 1},),
    ({"kind": "cost", "action": "destroy", "element": "water", "amount": 1},),
    (
        {"kind": "cost", "action": "destroy", "element": "same", "amount": 1},
        {"kind": "cost", "action": "all", "element": "any", "amount": 1},
    ),
    ({"kind": "cost", "action": "destroy", "element": "same", "amount": -1},),  # a discount: general
    (
        {"kind": "forbid", "action": "all", "element": "earth"},
        {"kind": "cost", "action": "destroy", "element": "same", "amount": 1},
    ),
    (  # a part in a banned Element: never payable (its cards may not pay, section 4.10)
        {"kind": "forbid", "action": "all", "element": "water"},
        {"kind": "cost", "action": "destroy", "element": "water", "amount": 1},
    ),
)


@pytest.mark.parametrize("modules", [("phobias",), ("dark_matter", "phobias")])
def test_destroy_with_the_additions_written_out_is_the_general_path(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Section 4.10 (V-32, V-36): on menus of random games, with each of these "cost" / "forbid"
    modifiers added to the decider's (a temporary one: with a Phobia's standing ones), the Curses
    ``legal_destroy`` offers with ``DestroyRuling.adds`` are those of the general path
    (``MenuView.cost`` and ``can_pay`` per Curse)."""
    offered = taken = 0
    tokens = Counter[bool]()
    token_payable = rulings._token_payable

    def counted(*args):  # type: ignore[no-untyped-def]
        out = token_payable(*args)
        if out is not None:
            tokens[out] += 1
        return out

    monkeypatch.setattr(rulings, "_token_payable", counted)
    # A standing V-32 surcharge on every other game (as a Phobia in support would give: both
    # paths read it), so that Curses with tokens take token_surcharge's costs.
    standing, standing_once = hooks.standing_surcharge, destroy_menu.standing_destroy_surcharge
    for seed in range(6):
        monkeypatch.setattr(hooks, "standing_surcharge", (lambda *a: 1) if seed % 2 else standing)
        monkeypatch.setattr(  # (the menu's read of it, once per query)
            destroy_menu, "standing_destroy_surcharge", (lambda *a: 1) if seed % 2 else standing_once
        )
        state = new_game(GameConfig(num_players=2 + seed % 3, seed=100 + seed, modules=modules))
        rng = random.Random(seed)
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu" and state.track:
                pl = state.players[f["player"]]
                for variant, rich in itertools.product(_VARIANTS, (False, True)):
                    pl.mods.extend(TempModifier(m, "this_turn", "test") for m in variant)
                    if rich:  # a card of each Element and value more in hand: more Curses payable
                        for code in range(NUM_ELEMENT_CODES):
                            pl.hand[code] += 1
                    view = MenuView(state, f)
                    fast = legal_destroy(state, view)
                    surcharge = destroy_menu.standing_destroy_surcharge(state, view)
                    taken += rulings.DestroyRuling(state, view, surcharge).adds is not None
                    with monkeypatch.context() as m:
                        m.setattr(rulings, "_payable_with_adds", _general_destroy)
                        m.setattr(rulings, "_token_payable", lambda *args: None)
                        assert legal_destroy(state, MenuView(state, f)) == fast, (seed, variant, rich)
                    offered += len(fast)
                    del pl.mods[-len(variant) :]
                    if rich:
                        for code in range(NUM_ELEMENT_CODES):
                            pl.hand[code] -= 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert taken > 500 and offered > 100, (taken, offered)
    assert tokens[True] > 10 and tokens[False] > 10, tokens  # V-32's closed form, both answers


_BANS = tuple(({"kind": "forbid", "action": "all", "element": name},) for name in ELEMENT_NAMES) + (
    (
        {"kind": "forbid", "action": "all", "element": "water"},
        {"kind": "cost", "action": "all", "element": "any", "amount": 1},
    ),
    # not for every Action: ModReading.ban_tot
    ({"kind": "forbid", "action": "learn", "element": "fire"},),
    ({"kind": "forbid", "action": "activate", "element": "any"},),
    (
        {"kind": "forbid", "action": "acquire", "element": "water"},
        {"kind": "forbid", "action": "all", "element": "earth"},
        {"kind": "cost", "action": "acquire", "element": "same", "amount": 1},
        {"kind": "cost", "action": "activate", "element": "any", "amount": 1},
    ),
)


@pytest.mark.parametrize("modules", [("phobias",), ("dark_matter", "phobias")])
def test_menus_under_each_element_ban_are_the_general_paths(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """V-36 (section 4.10): on menus of random games, with each Element banned for every Action
    (the Phobias' texts, as a temporary modifier), alone or with an "any" surcharge, the menu
    (``MenuView._ban_tot`` and ``single_tot``'s closed forms) equals the general path's."""
    from engine.test_menu_fast_path import _general_path

    menus = 0
    for seed in range(4):
        state = new_game(GameConfig(num_players=2 + seed % 3, seed=200 + seed, modules=modules))
        rng = random.Random(seed)
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu":
                pl = state.players[f["player"]]
                for variant in _BANS:
                    pl.mods.extend(TempModifier(m, "this_turn", "test") for m in variant)
                    fast = menu_legal(state, f)
                    with monkeypatch.context() as m:
                        _general_path(m, state)
                        assert menu_legal(state, f) == fast, (seed, variant)
                    del pl.mods[-len(variant) :]
                    menus += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert menus > 500, menus


def test_token_payable_is_the_payment_search_answer() -> None:
    """V-32 (``action_rulings._token_payable``): for small hands, a Curse's cost with a standing
    surcharge that the Curse's Element or its tokens' colours may pay is payable exactly when the
    payment search (``payment_search.remaining``, cards never split) covers the same cost."""
    from types import SimpleNamespace

    from bbom_env.engine.model.constants import element_code
    from bbom_env.engine.payment.cost import Cost
    from bbom_env.engine.payment.search import remaining

    checked = answers = 0
    for own in itertools.product(range(2), repeat=3):  # the Curse's Element (fire): values 1-3
        for token in ((0, 0, 0), (1, 0, 0), (0, 0, 1), (2, 1, 0)):  # the token's colour (water)
            counts = [list(own), list(token), [0, 1, 0], [1, 0, 0]]
            tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
            codes = tuple(
                element_code(e, v + 1) for e in range(4) for v in range(3) for _ in range(counts[e][v])
            )
            for req in itertools.product(range(4), range(3), (0, 1), (0, 1)):
                for extra in (1, 2):
                    base = (req[0] + extra, req[1], req[2], req[3], 0)  # printed, tokens, surcharge
                    view = SimpleNamespace(counts=counts)
                    ruling = SimpleNamespace(adds=(0, 0, 0, 0, 0, 0), tot=tot)
                    fast = rulings._token_payable(view, ruling, (0, 1, 0, 0), base, 0, extra)  # type: ignore[arg-type]
                    cost = Cost(req[0], req[1], req[2], req[3], 0, one_of=extra, one_of_set=(0, 1))
                    assert fast == (not any(remaining(codes, cost))), (counts, req, extra)
                    checked += 1
                    answers += bool(fast)
    assert checked == 8 * 4 * 4 * 3 * 2 * 2 * 2 and 0 < answers < checked
