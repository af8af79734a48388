"""The Action menu's fast path (engine throughput): when no modifier touches an Action
(``menu.MenuView.plain``), the base Actions' ``legal`` compare the printed cost with the Element
totals inline. It must offer exactly what the general path (``forbidden`` / ``can_pay_single`` /
``can_pay`` with the player's modifiers) offers."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from builders import Scenario

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.actions import menu
from bbom_env.engine.actions import rulings as rulings
from bbom_env.engine.actions.menu import MenuView, menu_legal
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import PHOBIA_BASE
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import available_values, can_cover


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


# -- games with modules: the Phobias' constraints (docs/rules.md 9.2) on the fast path ---------------


def _general_path(m: pytest.MonkeyPatch, state: GameState) -> None:
    """Every Action of the menu through its general path, nothing read once per query: no plain
    comparison and no closed form (``plain``, ``single_tot``, ``part_budget``), the "forbid"
    modifiers, banned Elements and funds asked of the hooks and the payer's cards on every
    question, and every Element cost checked by the exact cover (``payment.can_cover``)."""
    p_mods = hooks.player_mods
    m.setattr(MenuView, "plain", lambda self, action: False)
    m.setattr(MenuView, "single_tot", lambda self, st, action: None)
    m.setattr(MenuView, "part_budget", lambda self, st, action: None)
    m.setattr(MenuView, "part_air", lambda self, st, action: None)
    m.setattr(MenuView, "forbidden", lambda self, st, a, e: hooks.forbidden(st, self.p, a, e))
    m.setattr(MenuView, "banned", lambda self, a: hooks.banned_by(p_mods(state, self.p), a))

    def funds(self: MenuView, st: GameState, action: str) -> tuple[list[int], list[list[int]]]:
        counts = available_values(st, self.p, hooks.banned_elements(st, self.p, action))
        return [c[0] + 2 * c[1] + 3 * c[2] for c in counts], counts

    m.setattr(MenuView, "_funds", funds)
    m.setattr(menu, "fits", lambda tot, counts, req: can_cover(counts, req))


@pytest.mark.parametrize("modules", [("phobias",), ("dark_matter", "phobias")])
def test_the_fast_path_offers_what_the_general_path_offers_with_phobias(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random games with the Phobia module (section 9.2: a Phobia in its owner's support changes
    their costs, V-32/V-33 surcharges, bans an Element, V-36, limits the Cure Action, V-31), alone
    and with Dark Matter: at every menu, the menu equals the one the general path computes, and
    holders' one-Element costs took the closed forms (``action_rulings.modified_tot``)."""
    closed = Counter[str]()
    modified_tot = rulings.modified_tot

    def counted(base: list[int], counts: list[list[int]], mods: list[dict], action: str) -> list[int] | None:
        out = modified_tot(base, counts, mods, action)
        if out is not None:
            closed[("ban " if -1 in base else "") + ("surcharge" if mods else "")] += 1
        return out

    monkeypatch.setattr(rulings, "modified_tot", counted)
    ban_tot = menu.ban_tot  # (menu_closed_forms.ban_tot, as menu.py names it)

    def ban_counted(tot: list[int], banned: frozenset[int] | None) -> list[int] | None:
        out = ban_tot(tot, banned)
        closed["ban "] += out is not None and -1 in out  # (single_tot answers it without modified_tot)
        return out

    monkeypatch.setattr(menu, "ban_tot", ban_counted)
    menus = holders = 0
    for seed in range(10 if len(modules) == 1 else 4):
        config = GameConfig(
            num_players=2 + seed % 4, payment=("auto", "manual")[seed % 2], seed=seed, modules=modules
        )
        state = new_game(config)
        rng = random.Random(seed)
        while not state.over:
            f = state.stack[-1]
            if f["kind"] == "menu":
                fast = menu_legal(state, f)
                holders += any(s.card >= PHOBIA_BASE for s in state.players[f["player"]].support)
                with monkeypatch.context() as m:
                    _general_path(m, state)
                    assert menu_legal(state, f) == fast, (modules, seed, state.turn)
                menus += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert menus > 300 and holders > 50
    if len(modules) == 1:  # both closed forms were taken (no Dark Matter transform in the way)
        assert closed["surcharge"] > 0 and closed["ban "] > 0, closed


@pytest.mark.parametrize("same, extra", [(0, 1), (1, 0), (1, 1), (0, 2), (2, 2)])
def test_modified_tot_is_the_exact_cover_answer(same: int, extra: int) -> None:
    """Section 4.10 with the Phobias' surcharges (9.2: Learn or Activate +1 any, V-33; Acquire +1
    identical, A-51): for every small hand, ``modified_tot``'s value t[e] says exactly which
    printed costs n of Element e ``can_cover`` pays with ``same`` more of e and ``extra`` of any
    (the cards are never split); a banned Element (V-36, -1) is never payable."""
    mods = [{"kind": "cost", "action": "learn", "element": "same", "amount": same}] if same else []
    mods += [{"kind": "cost", "action": "all", "element": "any", "amount": extra}] if extra else []
    checked = 0
    for own in itertools.product(range(3), repeat=3):
        for other in ((0, 0, 0), (1, 0, 0), (0, 1, 1), (2, 0, 1)):
            for banned in (None, 3):
                counts = [list(own), list(other), [1, 0, 0], [0, 1, 0]]
                if banned is not None:
                    counts[banned] = [0, 0, 0]
                base = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
                if banned is not None:
                    base[banned] = -1
                tot = rulings.modified_tot(base, counts, mods, "learn")
                assert tot is not None
                for e in range(4):
                    for n in range(10):
                        req = [0, 0, 0, 0, extra]
                        req[e] += n + same
                        payable = e != banned and can_cover(counts, tuple(req))
                        assert (tot[e] >= n) == payable, (own, other, banned, e, n, tot)
                        checked += 1
    assert checked == 27 * 4 * 2 * 4 * 10


def test_modified_tot_leaves_other_modifiers_to_the_general_path() -> None:
    """A discount (clamped at 0) or a cost in a named Element: no closed form (None), the menu asks
    ``can_pay_single``; modifiers of another Action do not count."""
    counts = [[1, 1, 0], [0, 0, 1], [0, 0, 0], [2, 0, 0]]
    base = [3, 3, 0, 2]
    discount = [{"kind": "cost", "action": "acquire", "element": "same", "amount": -1}]
    named = [{"kind": "cost", "action": "all", "element": "fire", "amount": 1}]
    other = [{"kind": "cost", "action": "destroy", "element": "any", "amount": 1}]
    assert rulings.modified_tot(base, counts, discount, "acquire") is None
    assert rulings.modified_tot(base, counts, named, "learn") is None
    assert rulings.modified_tot(base, counts, other, "learn") == base


def test_fits_answers_as_the_exact_cover_for_costs_with_any() -> None:
    """``menu.fits`` decides a cost of Element parts and "any" (a Phobia's "any" surcharge on a
    one-Element cost, section 9.2; a Multi-Element cost with one, 4.10) by the sums where they
    settle it: exactly ``can_cover``'s answer (cards never split) for every small hand."""
    checked = 0
    for a in itertools.product(range(2), repeat=3):
        for b in ((0, 0, 0), (1, 0, 0), (0, 0, 1), (2, 1, 0)):
            counts = [list(a), list(b), [0, 1, 0], [0, 0, 0]]
            tot = [c[0] + 2 * c[1] + 3 * c[2] for c in counts]
            for req in itertools.product(range(5), range(4), (0, 2), (0, 1), range(1, 4)):
                assert menu.fits(tot, counts, req) == can_cover(counts, req), (counts, req)
                checked += 1
    assert checked == 8 * 4 * 5 * 4 * 2 * 2 * 3
