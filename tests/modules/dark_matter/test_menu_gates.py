"""The module menu's cheap gates answer what the gates they stand for answer (docs/rules.md section
4.9, V-12, V-19): the Spontaneous Elements gate read from the menu's currency count
(``hooks.GatedTransform.min_currency``: open with 2 Dark Matter cards to pay with; below, left
out without changing a menu), the shared flags of a payer without a banned Element
(``cost_transforms.menu_flags``, section 4.10) and the Phobia mover's Magician set
(``phobias.move.has_move``). Compared on random module games, with a broken shortcut caught."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast

import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.actions.menu import MenuView, menu_legal
from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model.frames import MenuFrame
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers import transforms as seams
from bbom_env.engine.modifiers.hooks import has_mod
from bbom_env.engine.modifiers.transforms import active_transforms, menu_flags
from bbom_env.modules.dark_matter.module import NAME
from bbom_env.modules.phobias import move

BOTH = (NAME, "phobias")


def _menus(players: int, seed: int, modules: tuple[str, ...] = BOTH) -> Iterator[tuple[GameState, MenuFrame]]:
    """Every menu decision of one random game (moves drawn by ``Random(seed)``)."""
    state = new_game(GameConfig(num_players=players, payment="auto", seed=seed, modules=modules))
    rng = random.Random(seed)
    while not state.over:
        top = state.stack[-1] if state.stack else None
        if top is not None and top["kind"] == "menu":
            yield state, cast(MenuFrame, top)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def _gates_asked(state: GameState, p: int, transforms: tuple, unbanned: bool = False, currency: int = -1):
    """``active_transforms`` with every gate asked (the currency count ignored)."""
    return active_transforms(state, p, transforms, unbanned)


def _menus_match(monkeypatch: pytest.MonkeyPatch, seeds: range) -> int:
    """The menus of random games with the currency gate and with every gate asked agree
    (asserted); how many were compared."""
    menus = 0
    for seed in seeds:
        for state, f in _menus(2 + seed % 2, seed):
            menus += 1
            fast = menu_legal(state, f)
            with monkeypatch.context() as m:
                m.setattr(seams, "active_transforms", _gates_asked)
                assert menu_legal(state, f) == fast, (seed, state.turn)
    return menus


def test_the_currency_gate_gives_the_menus_the_asked_gate_gives(
    dm: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Section 4.9: with 2 Dark Matter cards to pay with, ``may_pair`` is open; with fewer (a card
    in an eliminated player's support, or none) the transform pays nothing more: same menus."""
    pair = ruleset(BOTH).cost_transforms[0]
    assert pair.min_currency == 2
    opened = 0
    for seed in range(6):
        for state, f in _menus(2 + seed % 2, seed):
            p = f["player"]
            if MenuView(state, f)._currency >= 2:
                assert pair.active(state, p), (seed, state.turn)
                opened += 1
    assert opened > 20, opened
    menus = _menus_match(monkeypatch, range(6))
    assert menus > 200, menus


def test_a_wrong_currency_gate_is_caught(dm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above fails when the gate's count is wrong (3: a pair held in 2 cards left out)."""
    pair = ruleset(BOTH).cost_transforms[0]
    monkeypatch.setattr(pair, "min_currency", 3)
    with pytest.raises(AssertionError):
        _menus_match(monkeypatch, range(12))


def test_the_shared_unbanned_flags_are_the_declared_ones(dm: None) -> None:
    """``menu_flags``' unbanned flags: after the menus of random games filled it, each Action's entry is
    ``flags_of`` of the declared transforms with no banned Element (section 4.10)."""
    transforms = ruleset(BOTH).cost_transforms
    seen = 0
    for seed in range(4):
        for state, f in _menus(2, seed):
            menu_legal(state, f)
            view = MenuView(state, f)
            if not view._transforms or view._forbid or view._flags is None:
                continue
            declared = seams.declared_flags(transforms, view._transforms)
            assert declared is not None
            shared = menu_flags(transforms, view._transforms)[1]
            assert shared is view._flags  # one dict per kept tuple
            for action, flags in shared.items():
                assert flags == seams.flags_of(declared, action), action
                seen += 1
    assert seen > 20, seen


def test_has_move_is_the_sheet_read(dm: None) -> None:
    """V-19: ``has_move`` (a per-pack set of Magicians) is whether the Magician's sheet carries
    a ``move_phobia`` modifier, for every Magician of the pack and a pack built anew."""
    state = new_game(GameConfig(num_players=2, seed=0, modules=BOTH))
    found = 0
    for mid, mag in state.pack.magicians.items():
        state.players[0].magician = mid
        sheet = any(m["kind"] == move.KIND for m in mag.mods)
        assert move.has_move(state, 0) == sheet, mid
        found += sheet
    assert found == 1


def test_the_counts_with_the_modifiers_read_once_match(dm: None) -> None:
    """``values_and_currency(state, p, mods)`` (the menu's: the modifiers read once per query)
    answers as without ``mods`` (read again) and as ``available_values`` / ``currency_cards``, on
    every decision of random games of both modules, where V-30 ("no_support_payment", a Phobia)
    leaves the support pool out; and the modifiers given decide (no modifier given: the pool's
    cards counted again where V-30 holds)."""
    from bbom_env.engine.payment.cost import available_values, currency_cards, values_and_currency

    barred = checked = 0
    for seed in range(10):
        state = new_game(GameConfig(num_players=2 + seed % 3, payment="auto", seed=seed, modules=BOTH))
        rng = random.Random(seed)
        while not state.over:
            for p in range(len(state.players)):
                mods = hooks.player_mods(state, p)
                got = values_and_currency(state, p, mods)
                assert got == values_and_currency(state, p)
                assert got == (available_values(state, p), currency_cards(state, p))
                checked += 1
                if has_mod(state, p, "no_support_payment") and values_and_currency(state, p, ()) != got:
                    barred += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 1000 and barred > 0, (checked, barred)


def _move_by_definition(state: GameState, view: MenuView) -> bool:
    """Whether ``move.legal_move`` offers the move, as the rules say it (V-19, 4.11, A-35), with
    ``has_move`` asked."""
    p = view.p
    return (
        view.frame["grants"] < 0
        and p == state.active
        and move.has_move(state, p)
        and not state.players[p].ability_used
        and view.currency(state) >= 1
        and move._any_movable(state)
        and not hooks.ability_lost(state, p)
    )


def _sheet_has_move(state: GameState, p: int) -> bool:
    return any(m["kind"] == move.KIND for m in state.pack.magicians[state.players[p].magician].mods)


def _move_menus_match() -> int:
    """Every menu of random 2-player games with the Phobia mover (V-19): ``legal_move`` (its
    Magician set read inline) against the definition; how many offered the move."""
    offered = 0
    for seed in range(12):
        config = GameConfig(
            num_players=2, seed=seed, modules=BOTH, magicians=("magician_vth_phobia", "magician_fire_m")
        )
        state = new_game(config)
        rng = random.Random(seed)
        while not state.over:
            top = state.stack[-1] if state.stack else None
            if top is not None and top["kind"] == "menu" and top.get("decider") is not None:
                view = MenuView(state, cast(MenuFrame, top))
                got = move.legal_move(state, view)
                assert bool(got) == _move_by_definition(state, view), (seed, state.turn)
                offered += bool(got)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return offered


def test_legal_move_reads_the_mover_set_as_has_move(dm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """V-19: offered exactly as the definition says; an empty mover set (the inline read broken)
    is caught."""
    assert _move_menus_match() > 5
    monkeypatch.setattr(move, "_MOVERS", PackMemo(lambda pack: frozenset()))
    # has_move as the sheet says (the definition stays right while the inline read is broken)
    monkeypatch.setattr(move, "has_move", _sheet_has_move)
    with pytest.raises(AssertionError):
        _move_menus_match()
