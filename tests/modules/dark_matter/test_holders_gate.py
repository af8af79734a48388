"""The Air conversion's Magician gate (``cost_transforms.GatedTransform.holders``,
V-12): ``active_transforms`` leaves a transform out for a payer whose Magician is not among its
holders without asking its gate; the transforms it keeps are those every gate asked keeps, on
every menu of random module games, and a wrong holders set is caught."""

from __future__ import annotations

import pytest

from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.modifiers.transforms import GatedTransform, active_transforms

from .test_menu_gates import BOTH, _menus


def _held() -> list[GatedTransform]:
    return [t for t in ruleset(BOTH).cost_transforms if type(t) is GatedTransform and t.holders is not None]


def _mismatches(monkeypatch: pytest.MonkeyPatch, seeds: range) -> tuple[int, int, int]:
    """(transforms kept that differ from the asked gates', payers compared, gates open)."""
    transforms = ruleset(BOTH).cost_transforms
    held = _held()
    bad = payers = opened = 0
    for seed in seeds:
        for state, _f in _menus(2 + seed % 2, seed):
            for p in range(len(state.players)):
                payers += 1
                for unbanned in (False, True):
                    for currency in (-1, 0, 2):
                        fast = active_transforms(state, p, transforms, unbanned, currency)
                        with monkeypatch.context() as m:
                            for t in held:
                                m.setattr(t, "holders", None)  # every gate asked
                            asked = active_transforms(state, p, transforms, unbanned, currency)
                        bad += fast != asked
                opened += sum(t.active(state, p) for t in held)
    return bad, payers, opened


def test_the_holders_gate_keeps_what_the_asked_gates_keep(dm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _held(), "the Air conversion declares its Magicians"
    bad, payers, opened = _mismatches(monkeypatch, range(10))
    assert bad == 0
    assert payers > 500 and opened > 30  # the conversion open for some payers: compared both ways


def test_a_wrong_holders_set_is_caught(dm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for t in _held():
        monkeypatch.setattr(t, "holders", PackMemo(lambda pack: frozenset()))  # nobody holds it
    transforms = ruleset(BOTH).cost_transforms
    bad = 0
    for seed in range(6):
        for state, _f in _menus(2 + seed % 2, seed):
            for p in range(len(state.players)):
                wrong = active_transforms(state, p, transforms, True, -1)
                asked = tuple(t for t in transforms if t.active(state, p))  # type: ignore[attr-defined]
                bad += len(wrong[0]) != len(asked)
    assert bad > 0
