"""The hooks that read one modifier kind where it can lie (docs/rules.md 4.10, 4.11, 9.2;
V-10, V-25 to V-36): in a module game ``rule_point``, ``hand_size``, ``banned_elements``,
``cure_targets``, ``support_capacity`` / ``spell_limit`` and ``GameState.has_mod`` read the
temporary and the sourced modifiers where they lie, and the Magician's only when a Magician of
the pack carries the kind (``hooks.magician_kinds``, a per-pack fact) and the ability is not lost
(the flag, or a temporary or sourced "lose_ability"). Each is compared, on every decision of
random module games, with the straightforward reading of the player's modifiers gathered anew
(the Magician's unless lost, the temporary ones, the Phobias' from the cards themselves), with
temporary modifiers of each kind added, the ability lost, and in a pack whose Magicians carry
every kind; and the comparison fails when the per-pack fact is wrong on purpose.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, HAND_SIZE
from bbom_env.engine.model.records import TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.modifiers.hooks import has_mod
from bbom_env.modules.phobias.constraints import CURE_ONLY

from .helpers import reference_mods, sourced_mods

ACTIONS = ("activate", "learn", "acquire", "destroy", "cure", "acquire_dark_matter", "all")
KINDS = ("replace", "hand_size", "forbid", CURE_ONLY, "support_slots", "spell_limit")
KINDS += ("no_support_payment", "lose_ability", "cost")

# Temporary modifiers added to the decider's (alone, or two at once: the order of "replace")
_TEMPS: tuple[tuple[dict, ...], ...] = (
    (),
    ({"kind": "replace", "point": "hand_size", "value": 4},),
    ({"kind": "replace", "point": "marker_steps", "value": 3}, {"kind": "hand_size", "amount": -1}),
    ({"kind": "forbid", "action": "all", "element": "fire"}, {"kind": CURE_ONLY, "code": 5}),
    ({"kind": "forbid", "action": "learn", "element": "any"}, {"kind": CURE_ONLY}),
    ({"kind": "support_slots", "amount": 1}, {"kind": "spell_limit", "amount": -1}),
    ({"kind": "lose_ability"},),  # V-10: the Magician's taken away
    ({"kind": "no_support_payment"}, {"kind": "lose_ability"}),
    ({"kind": "cost", "action": "all", "element": "any", "amount": 1},),
    ({"kind": "cost", "action": "learn", "element": "same", "amount": -1}, {"kind": "lose_ability"}),
    ({"kind": "cost", "action": "destroy", "element": "water", "amount": 2},),
)

_COSTS = (
    ("destroy", 1, (0, 2, 0, 1, 0)),
    ("cure", None, (0, 0, 0, 0, 2)),
    ("learn", 3, (0, 0, 0, 1, 0)),
    ("activate", 0, (1, 0, 0, 0, 0)),
    ("acquire", 2, (0, 0, 3, 0, 0)),
)

# What every Magician of the rigged pack carries besides its own (kinds no Magician of the
# default pack carries: the hooks' general path)
_RIGGED = (
    {"kind": "replace", "point": "hand_size", "value": 7},
    {"kind": "replace", "point": "reshuffle_madness", "value": 3},
    {"kind": "hand_size", "amount": 1},
    {"kind": "forbid", "action": "all", "element": "water"},
    {"kind": "forbid", "action": "destroy", "element": "earth"},
    {"kind": "no_support_payment"},
    {"kind": CURE_ONLY, "code": 9},
)


def _check(state: GameState, p: int) -> None:
    ref = reference_mods(state, p)
    mag = state.pack.magicians[state.players[p].magician]
    replaced = [m for m in ref if m["kind"] == "replace"]
    for point in hooks.RULE_POINTS:  # the last "replace" found wins
        value = next((m["value"] for m in reversed(replaced) if m["point"] == point), -7)
        assert hooks.rule_point(state, p, point, -7) == value, point
    size = next((m["value"] for m in reversed(replaced) if m["point"] == "hand_size"), HAND_SIZE)
    extra = sum(m["amount"] for m in ref if m["kind"] == "hand_size")
    assert hooks.hand_size(state, p) == max(1, size + extra)
    for action in ACTIONS:
        banned = {
            ELEMENT_NAMES.index(m["element"])
            for m in ref
            if m["kind"] == "forbid" and m["action"] in (action, "all") and m["element"] != "any"
        }
        assert hooks.banned_elements(state, p, action) == banned, action
    codes = [m.get("code") for m in ref if m["kind"] == CURE_ONLY]
    assert hooks.cure_targets(state, p) == (frozenset(c for c in codes if c is not None) if codes else None)
    slots = sum(m["amount"] for m in ref if m["kind"] == "support_slots")
    assert hooks.support_capacity(state, p) == max(0, mag.support_slots + slots)
    more = sum(m["amount"] for m in ref if m["kind"] == "spell_limit")
    assert hooks.spell_limit(state, p) == max(1, mag.spell_limit + more)
    for action, el, req in _COSTS:  # the "cost" modifiers in order (clamped at 0), then transforms
        want = hooks.transform_cost(state, p, action, hooks.apply_cost_mods(ref, action, el, req))
        assert hooks.adjust_cost(state, p, action, el, req) == want, (action, req)
    for kind in KINDS:
        assert has_mod(state, p, kind) == any(m["kind"] == kind for m in ref), kind


def _rigged(state: GameState) -> GameState:
    """A copy of the state whose pack's Magicians carry ``_RIGGED`` too."""
    pack = state.pack
    magicians = {k: dataclasses.replace(m, mods=m.mods + _RIGGED) for k, m in pack.magicians.items()}
    out = state.clone()
    out.pack = dataclasses.replace(pack, magicians=magicians)
    return out


def _walk(modules: tuple[str, ...], seeds: range, seen: Counter[str]) -> None:
    """Every decision of random games: each seat checked as it is, with each set of temporary
    modifiers, with the ability lost for good, and in the rigged pack."""
    for seed in seeds:
        state = new_game(GameConfig(num_players=2 + seed % 4, seed=seed, modules=modules))
        rng = random.Random(seed)
        step = 0
        while not state.over:
            step += 1
            for p, pl in enumerate(state.players):
                if step % 3 and p != state.active:
                    continue  # (every seat on every third decision: the test's time)
                seen["phobia"] += bool(sourced_mods(state, p))
                seen["lose"] += any(m["kind"] == "lose_ability" for m in sourced_mods(state, p))
                for temps in _TEMPS:
                    pl.mods.extend(TempModifier(m, "this_turn", "test") for m in temps)
                    for lost in (False, True):
                        flag, pl.ability_lost = pl.ability_lost, pl.ability_lost or lost
                        _check(state, p)
                        pl.ability_lost = flag
                    if temps:
                        del pl.mods[-len(temps) :]
                if step % 7 == 0:
                    _check(_rigged(state), p)
                    seen["rigged"] += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("modules", [("phobias",), ("dark_matter", "phobias"), ("dark_matter",)])
def test_the_hooks_read_as_the_players_modifiers(modules: tuple[str, ...]) -> None:
    seen = Counter[str]()
    _walk(modules, range(12), seen)
    assert seen["rigged"] > 50, seen
    if "phobias" in modules:  # Phobias in support, one taking the ability away (V-27)
        assert seen["phobia"] > 500 and seen["lose"] > 2, seen
