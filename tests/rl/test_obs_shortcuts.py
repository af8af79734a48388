"""The observation encoder's module-game shortcuts against the general paths they stand for, on
many random module-game states (``builders.random_decisions``): a seat's ability-lost flag,
support capacity and Spell limit (``obs_player.Seats``: the modules' sources asked once per seat,
their modifiers summed there) equal the hooks' (docs/rules.md sections 4.11, 9.2;
V-10, V-27), with temporary modifiers and extra Phobias added to the random states, and with a
test module whose source yields limit modifiers (the Phobias' yield none of them); and the count
vectors written whole as bytes with both modules (``ObsContext.codes_all``: own hand and deck,
a seat's sizes and discard pile, other hands) equal the general path's (``ObsContext.types``, the
sizes gathered); and the layout's
tail (``ObsLayout.encode``: ``out`` zeroed by a copy, clipped against an array of ones) equals the
checked path's (``check``: a fresh vector, clipped against the scalar 1)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from builders import random_decisions

from bbom_env.engine import GameConfig, GameState
from bbom_env.engine.core import rules
from bbom_env.engine.core.rules import Module
from bbom_env.engine.model.records import SupportSlot, TempModifier
from bbom_env.engine.modifiers import hooks
from bbom_env.modules.phobias.state import NUM_PHOBIAS, PHOBIA_BASE
from bbom_env.rl.observation import ObservationEncoder

PH = ("phobias",)
BOTH = ("dark_matter", "phobias")
# Temporary modifiers added to random seats: the kinds the limits read, a lost ability (V-10), and
# one they ignore (a flag in seatK.temp_mods only).
EXTRA_MODS = (
    {"kind": "lose_ability"},
    {"kind": "support_slots", "amount": 1},
    {"kind": "support_slots", "amount": -2},
    {"kind": "spell_limit", "amount": 1},
    {"kind": "spell_limit", "amount": -3},
    {"kind": "hand_size", "amount": 1},
)


def _states(modules: tuple[str, ...], players: int, seed: int, pack: str) -> Iterator[GameState]:
    """Every 3rd decision of one random game, and (in a module game) a clone with temporary
    modifiers and a Phobia added to some seats (drawn by ``Random(seed)``)."""
    config = GameConfig(num_players=players, pack=pack, seed=seed, modules=modules)
    rng = random.Random(seed)
    for i, state in enumerate(random_decisions(config, seed)):
        if i % 3:
            continue
        yield state
        if not modules:  # ("lose_ability" and the Phobias are module things)
            continue
        s = state.clone()
        for pl in s.players:
            if rng.random() < 0.5:
                for mod in rng.sample(EXTRA_MODS, rng.randint(1, 3)):
                    pl.mods.append(TempModifier(mod, "until_next_monster", "test"))
            if rng.random() < 0.3:  # (the zones' invariant does not matter to the encoder)
                pl.support.append(SupportSlot(PHOBIA_BASE + rng.randrange(NUM_PHOBIAS)))
        yield s


def _check_seats(enc: ObservationEncoder, state: GameState, seat: int) -> Counter[tuple[bool, bool, bool]]:
    """Assert seat blocks' ability-lost flag and limits equal the hooks' (scaled and
    clipped as the layout does, so byte for byte); count the cases seen."""
    vec = enc.encode(state, seat)
    scale = enc.obs_layout.scale
    one = np.float32(1.0)
    n = len(state.players)
    cases: Counter[tuple[bool, bool, bool]] = Counter()
    for k in range(n):
        p = (seat + k) % n
        lost, cap, lim = (
            hooks.ability_lost(state, p),
            hooks.support_capacity(state, p),
            hooks.spell_limit(state, p),
        )
        status = enc.obs_layout.groups["seat"].at[f"seat{k}.status"]  # type: ignore[attr-defined]
        sizes = enc.obs_layout.groups["seat"].at[f"seat{k}.sizes"]  # type: ignore[attr-defined]
        assert vec[status + 5] == float(lost), (k, p)
        for i, want in ((sizes + 4, cap), (sizes + 5, lim)):
            assert vec[i] == min(np.float32(want) * scale[i], one), (k, p, want)
        sourced = tuple(hooks.sourced(state, p))
        cases[(bool(sourced), bool(state.players[p].mods), lost)] += 1
    return cases


@pytest.mark.parametrize("modules", [PH, BOTH])
@pytest.mark.parametrize("pack", ["default", "test"])
def test_seat_limits_equal_the_hooks(modules: tuple[str, ...], pack: str) -> None:
    enc = ObservationEncoder(GameConfig(pack=pack, modules=modules))
    cases: Counter[tuple[bool, bool, bool]] = Counter()
    for players in (2, 3, 5):
        for state in _states(modules, players, 7 * players + len(pack), pack):
            cases += _check_seats(enc, state, max(0, state.current_player()))
    # Seats with and without sourced modifiers, each with and without temporary ones, lost or not.
    for sourced in (True, False):
        for temp in (True, False):
            assert cases[(sourced, temp, False)] > 0, cases
        assert cases[(sourced, True, True)] > 0, cases


LIMITS = "obs_test_limits"
_MORE_SLOTS = {"kind": "support_slots", "amount": 1}
_FEWER_SLOTS = {"kind": "support_slots", "amount": -2}
_MUCH_FEWER_SPELLS = {"kind": "spell_limit", "amount": -3}  # (more would pass MAX_SPELLS)
_FEWER_SPELLS = {"kind": "spell_limit", "amount": -1}
_LOSE = {"kind": "lose_ability"}


def _limit_source(state: GameState, p: int) -> Iterator[dict]:
    """A test module's modifier source (a generator: a source may yield any iterable,
    rules.Module.modifier_sources) whose modifiers change the limits, read from the seat's zones."""
    pl = state.players[p]
    cards, deck = sum(pl.hand), len(pl.deck)
    if cards % 2:
        yield _MORE_SLOTS
    if cards % 3 == 1:
        yield _FEWER_SLOTS
    if deck % 3 == 0:
        yield _FEWER_SPELLS
    if deck % 4 == 1:
        yield _MUCH_FEWER_SPELLS
    if (cards + deck) % 5 == 2:
        yield _LOSE


@pytest.mark.parametrize("modules", [(LIMITS,), (*PH, LIMITS), (*BOTH, LIMITS)])
def test_seat_limits_with_a_source_of_limit_modifiers(modules: tuple[str, ...]) -> None:
    """One source yielding a generator (read once for the flag and the sums), or two sources
    (hooks.sourced's list): the seat blocks still equal the hooks (ability_lost, the limits)."""
    module = Module(LIMITS, modifier_kinds=("lose_ability",), modifier_sources=(_limit_source,))
    with rules.registered(module):
        enc = ObservationEncoder(GameConfig(pack="default", modules=modules))
        cases: Counter[tuple[bool, bool, bool]] = Counter()
        for players in (2, 4):
            for state in _states(modules, players, 3 * players, "default"):
                cases += _check_seats(enc, state, max(0, state.current_player()))
    assert all(cases[(True, temp, lost)] > 0 for temp in (True, False) for lost in (True, False)), cases


def _general(enc: ObservationEncoder) -> ObservationEncoder:
    """``enc`` with the count vectors' bytes shortcut off: every count vector through ctx.types."""
    lay = enc.obs_layout
    lay.ctx.codes_all = False
    lay.groups["own"].whole = False  # type: ignore[attr-defined]
    assert not lay.groups["own"].sliced and not lay.groups["seat"].sliced  # type: ignore[attr-defined]
    return enc


@pytest.mark.parametrize("hands", [False, True])
def test_count_vectors_written_whole_equal_the_general_path(hands: bool) -> None:
    config = GameConfig(pack="default", modules=BOTH)
    fast = ObservationEncoder(config, observe_other_hands=hands)
    assert fast.obs_layout.ctx.codes_all
    general = _general(ObservationEncoder(config, observe_other_hands=hands))
    seen = Counter[str]()
    for players in (2, 3, 5):
        for state in _states(BOTH, players, 11 * players, "default"):
            for seat in range(players):
                a, b = fast.encode(state, seat), general.encode(state, seat)
                assert a.tobytes() == b.tobytes(), (players, seat)
                pl = state.players[seat]
                seen["deck"] += bool(pl.deck)
                seen["discard"] += any(sum(p.discard) for p in state.players)
                seen["module cards in hand"] += any(pl.hand[13:])
    assert min(seen.values()) > 100, seen


@pytest.mark.parametrize("modules", [(), PH, BOTH])
def test_the_tail_equals_the_checked_path(modules: tuple[str, ...]) -> None:
    """``encode`` into a fresh vector or into an ``out`` holding another observation (and into one
    holding values outside [0, 1]) equals ``check_sections``' vector byte for byte."""
    enc = ObservationEncoder(GameConfig(pack="default", modules=modules))
    out = np.full(enc.size, 7.0, dtype=np.float32)
    checked = 0
    for players in (2, 5):
        for state in _states(modules, players, 13 * players, "default"):
            seat = max(0, state.current_player())
            want = enc.check_sections(state, seat).tobytes()  # (raises if encode differs)
            assert enc.encode(state, seat).tobytes() == want
            assert enc.encode(state, seat, out) is out and out.tobytes() == want
            checked += 1
    assert checked > 100
