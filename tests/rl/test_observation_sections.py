"""Observation section objects and their registry (bbom_env.rl.obs_core, observation_sections):
every section object writes only inside its own range, the lists that size base sections come from
the engine's ruleset, and a module's sections come after the base game's."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from bbom_env.engine import GameConfig, GameState, load_pack, new_game
from bbom_env.engine.core import moves, rules
from bbom_env.engine.core.rules import Module, ruleset
from bbom_env.rl import docs
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.obs_core import (
    OBS_MODULES,
    ObsContext,
    ObsModule,
    ObsSection,
    Part,
    register_sections,
    section_factories,
    unregister_sections,
)
from bbom_env.rl.observation import ObservationEncoder
from bbom_env.rl.observation_sections import ObsLayout

TOY = "toy_obs_module"


def game_states(players: int, payment: str, seed: int, every: int) -> list[GameState]:
    """Every ``every``-th decision state of one random legal game, and its terminal state."""
    state = new_game(GameConfig(pack="test", num_players=players, payment=payment, seed=seed))
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out + [state]


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    out = []
    for players in (2, 3, 4, 5):
        for payment in ("auto", "manual"):
            for seed in range(3):
                out += game_states(players, payment, seed=100 * players + seed, every=5)
    return out


def base_layout() -> ObsLayout:
    return ObsLayout(load_pack("test"), (), ActionLayout(GameConfig(pack="test")), False, 4)


# -- every section object stays in its range -------------------------------------------------------


@pytest.mark.parametrize("hands", [False, True])
def test_every_section_writes_only_inside_its_range(states: list[GameState], hands: bool) -> None:
    enc = ObservationEncoder(GameConfig(pack="test"), observe_other_hands=hands)
    lay = enc.obs_layout
    assert sum(obj.length() for obj in lay.objects) == enc.size == sum(ln for _, _, ln in enc.sections)
    # the objects tile the vector in order
    assert [obj.start for obj in lay.objects[1:]] == [obj.end for obj in lay.objects[:-1]]
    assert lay.objects[0].start == 0 and lay.objects[-1].end == enc.size
    checked = 0
    for state in states:
        for seat in {0, state.current_player() if not state.is_terminal() else 0}:
            vec = enc.check_sections(state, seat)  # raises on a write outside a range
            assert vec.tobytes() == enc.encode(state, seat).tobytes()
            checked += 1
    assert checked > 500


class _Leaky(ObsSection):
    """A toy section that writes one index before its own range (through ``how``)."""

    group = "leaky"
    how = "on"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.parts = [Part("leaky.flag", 2, "a toy flag")]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        if self.how == "on":
            on.append(self.start - 1)
        elif self.how == "idx":
            idx.append(self.end)
            val.append(0.5)
        else:  # a direct write of 0 is a write too
            vec[self.start - 1] = 0.0


@pytest.fixture
def toy_module() -> Iterator[str]:
    """A toy rules module with no blocks, registered in the engine and removed afterwards."""
    rules.register(Module(TOY, modifier_kinds=("toy_mod",), decision_kinds=("toy_decision",)))
    try:
        yield TOY
    finally:
        if TOY in rules.MODULES:
            del rules.MODULES[TOY]
        moves.MODULE_BLOCKS.pop(TOY, None)
        rules.ruleset.cache_clear()
        moves.layout.cache_clear()
        if TOY in OBS_MODULES:
            unregister_sections(TOY)


@pytest.mark.parametrize("how", ["on", "idx", "vec"])
def test_check_names_a_section_that_writes_outside_its_range(toy_module: str, how: str) -> None:
    leaky = type("Leaky", (_Leaky,), {"how": how})
    register_sections(ObsModule(toy_module, (leaky,)))
    lay = ObsLayout(load_pack("test"), (toy_module,), ActionLayout(GameConfig(pack="test")), False, 4)
    state = game_states(2, "auto", seed=1, every=1000)[0]
    if how != "idx":  # (past the end of the vector, numpy itself refuses the write)
        lay.encode(state, 0)  # the fast path does not check
    with pytest.raises(AssertionError, match="'leaky'.*outside its range"):
        lay.check(state, 0)


# -- the registry ------------------------------------------------------------------------------------


class _TurnParity(ObsSection):
    """A toy module section: the turn counter's parity and the player count / 5."""

    group = "toy"

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        self.parts = [
            Part("toy.parity", 2, "turn even, turn odd"),
            Part("toy.players", 1, "player count / 5", 1 / 5),
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        on.append(self.start + state.turn % 2)
        idx.append(self.at["toy.players"])
        val.append(len(state.players))


def test_a_module_section_comes_after_the_base_sections(states: list[GameState], toy_module: str) -> None:
    register_sections(ObsModule(toy_module, (_TurnParity,)))
    pack, action_layout = load_pack("test"), ActionLayout(GameConfig(pack="test"))
    base = base_layout()
    toy = ObsLayout(pack, (toy_module,), action_layout, False, 4)
    assert [o.group for o in toy.objects] == [o.group for o in base.objects] + ["toy"]
    assert toy.sections[-2].module == toy.sections[-1].module == toy_module
    assert (
        toy.sections[-1].name == "toy.players" and toy.size == base.size + 3 + 5 + 1
    )  # + toy_mod x 5 seats, toy_decision
    # The toy module adds a modifier kind and a decision kind: the base's come first, in their order.
    assert toy.groups["seat"].parts[-1].meaning.endswith("support_slots, trigger, toy_mod)")
    kinds = ruleset(()).decision_kinds
    assert next(s for s in toy.sections if s.name == "decision.kind").length == len(kinds) + 1
    for state in states[::7]:
        seat = state.current_player() if not state.is_terminal() else 0
        vec = toy.check(state, seat)
        tail = vec[-3:]
        assert tail[state.turn % 2] == 1 and tail[1 - state.turn % 2] == 0
        assert tail[2] == pytest.approx(len(state.players) / 5)


def test_a_module_without_sections_moves_nothing(toy_module: str) -> None:
    pack, action_layout = load_pack("test"), ActionLayout(GameConfig(pack="test"))
    assert [m for m, _ in section_factories((toy_module,))] == ["base"] * len(section_factories(()))
    toy = ObsLayout(pack, (toy_module,), action_layout, False, 4)
    base = base_layout()
    # only the sections sized by the ruleset's lists grow (temp_mods +1 per seat, decision.kind +1)
    grown = {s.name for s, b in zip(toy.sections, base.sections, strict=True) if s.length != b.length}
    assert grown == {f"seat{k}.temp_mods" for k in range(5)} | {"decision.kind"}


def test_registry_errors_name_the_module() -> None:
    with pytest.raises(ValueError, match="'base'.*already registered"):
        register_sections(ObsModule("base", ()))
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister_sections("base")
    with pytest.raises(ValueError, match="'nope'"):
        unregister_sections("nope")


def test_bad_sections_are_refused(toy_module: str) -> None:
    class Empty(ObsSection):
        group = "empty"

        def __init__(self, ctx: ObsContext) -> None:
            super().__init__(ctx)
            self.parts = [Part("empty.x", 0, "nothing")]

    class Twice(ObsSection):
        group = "twice"

        def __init__(self, ctx: ObsContext) -> None:
            super().__init__(ctx)
            self.parts = [Part("board.turn", 1, "a name the base game uses")]

    class BadScale(ObsSection):
        group = "bad_scale"

        def __init__(self, ctx: ObsContext) -> None:
            super().__init__(ctx)
            self.parts = [Part("bad.scale", 3, "three features, two scales", (1.0, 0.5))]

    pack, action_layout = load_pack("test"), ActionLayout(GameConfig(pack="test"))
    for cls, message in (
        (Empty, "'empty.x'.*length 0"),
        (Twice, "named twice.*board.turn"),
        (BadScale, "'bad.scale'"),
    ):
        register_sections(ObsModule(toy_module, (cls,)))
        try:
            with pytest.raises(ValueError, match=message):
                ObsLayout(pack, (toy_module,), action_layout, False, 4)
        finally:
            unregister_sections(toy_module)
    with pytest.raises(ValueError, match="history"):
        ObsLayout(pack, (), action_layout, False, -1)


# -- the base layout reads the engine's lists --------------------------------------------------------


def test_base_sections_are_sized_by_the_ruleset() -> None:
    rs = ruleset(())
    enc = ObservationEncoder(GameConfig(pack="test"))
    length = {name: ln for name, _, ln in enc.sections}
    assert length["decision.kind"] == len(rs.decision_kinds)
    assert length["decision.payment_action"] == len(rs.pay_actions)
    assert enc.meanings["decision.payment_action"] == f"payment for: {', '.join(rs.pay_actions)}"
    assert length["curse_piles.sizes"] == len(rs.curse_types)
    assert length["own.hand"] == len(rs.card_codes)
    # the layout has always sorted the base modifier kinds (the engine declares them in its own order)
    kinds = sorted(rs.parts[0].modifier_kinds)
    assert enc.meanings["seat0.temp_mods"].endswith(f"({', '.join(kinds)})")
    assert length["seat0.temp_mods"] == len(kinds)


def test_no_history_section_with_history_zero() -> None:
    enc = ObservationEncoder(GameConfig(pack="test"), history=0)
    assert "history" not in enc.groups and all(name != "history" for name, _, _ in enc.sections)
    record = 2 + len(enc.layout.block_names) + 5  # present, blocks, argument, mover seat (5)
    assert enc.size == ObservationEncoder(GameConfig(pack="test")).size - 4 * record


def test_docs_paths_per_module_set() -> None:
    assert docs.doc_path("observation", "md") == docs.DOCS / "observation.md"
    assert docs.doc_path("layout", "json", ("a", "b")) == docs.DOCS / "layout.a+b.json"
    assert set(docs.generate(((),))) == {
        docs.DOCS / "action_layout.md",
        docs.DOCS / "observation.md",
        docs.DOCS / "layout.json",
    }
