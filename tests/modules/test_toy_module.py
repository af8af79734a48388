"""The module seams end to end, proven with a toy module (docs/rules.md section 9:
the Vth Element's modules will plug in the same way): move blocks appended after the base ones,
an Action of the menu with its own frame, a module-only modifier kind on a card, a modifier source
(a card in a support), a setup step after the base draws, an invariant, a statistic, a render part
and an observation section; unregistering restores everything."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import numpy as np
import pytest
from builders import Scenario

from bbom_env.engine import GameConfig, from_json, move_to_string, new_game
from bbom_env.engine.cards.checks import module_kind_uses
from bbom_env.engine.cards.pack import load_pack
from bbom_env.engine.cards.vocab import IntRange, PackError, normalize_mod
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.config import ConfigError
from bbom_env.engine.core.rules import MODULES, Module, register, ruleset, unregister
from bbom_env.engine.core.state import SaveError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.setup import setup
from bbom_env.engine.model.constants import HAND_SIZE
from bbom_env.engine.modifiers.hooks import hand_size, rule_point
from bbom_env.rl.layout import ActionLayout
from bbom_env.rl.obs_core import OBS_MODULES
from bbom_env.rl.observation import ObservationEncoder
from modules.toy_module import BLOCK, HAND_SIZE_WITH_MADNESS, NAME, TOY, TOY_PACK, registered, toy_state

TOY_SET = (NAME,)
# A toy game needs the toy's pack section [[toy_omen]], which toy_pack.toml holds.
TOY_CONFIG = {"modules": TOY_SET, "pack_overrides": (TOY_PACK,)}


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def _toy_id(element: int) -> int:
    return M.layout(TOY_SET).by_name[BLOCK].start + element


# -- the action layout ---------------------------------------------------------------------------


def test_base_ids_and_names_stay_and_module_ids_come_after(toy: None) -> None:
    base = [move_to_string(m) for m in range(M.NUM_BASE_MOVES)]
    assert [move_to_string(m, TOY_SET) for m in range(M.NUM_BASE_MOVES)] == base
    assert M.num_moves(TOY_SET) == M.NUM_BASE_MOVES + 4
    tail = [move_to_string(m, TOY_SET) for m in range(M.NUM_BASE_MOVES, M.num_moves(TOY_SET))]
    assert tail == ["TOY_MEDITATE(fire)", "TOY_MEDITATE(water)", "TOY_MEDITATE(earth)", "TOY_MEDITATE(air)"]
    rows = M.layout(TOY_SET).table()
    assert rows[:-1] == M.layout().table() and rows[-1][:3] == (BLOCK, M.NUM_BASE_MOVES, 4)
    assert M.layout(TOY_SET).by_name[BLOCK].module == NAME


def test_num_moves_is_the_same_for_2_to_5_players(toy: None) -> None:
    sizes = {n: ActionLayout(GameConfig(num_players=n, modules=TOY_SET)).n for n in range(2, 6)}
    assert set(sizes.values()) == {M.NUM_BASE_MOVES + 4}, sizes


# -- the observation -----------------------------------------------------------------------------


def _base_index_map(base: ObservationEncoder, toy: ObservationEncoder) -> np.ndarray:
    """For every feature of the base layout, its index in the toy layout. A module may widen a base
    section only through the lists the base reads from its ruleset (modifier kinds, payment
    Actions, the move blocks in the history records); the base's part of each comes first."""
    tsec = {s.name: s for s in toy.obs_layout.sections}
    nb_base, nb_toy = len(base.layout.block_names), len(toy.layout.block_names)
    out = []
    for s in base.obs_layout.sections:
        t = tsec[s.name]
        if s.name == "history":  # records [present, block one-hot, argument, seat one-hot]
            rb = s.length // base.obs_layout.groups["history"].history
            rt = rb + nb_toy - nb_base
            for i in range(s.length):
                k, j = divmod(i, rb)
                out.append(t.start + k * rt + (j if j <= nb_base else j + nb_toy - nb_base))
        else:
            out += [t.start + i for i in range(s.length)]
    return np.array(out)


def test_base_sections_keep_their_order_and_values(toy: None) -> None:
    base = ObservationEncoder(GameConfig(pack="test"))
    toy_enc = ObservationEncoder(GameConfig(pack="test", modules=TOY_SET))
    bnames = [s.name for s in base.obs_layout.sections]
    tsections = toy_enc.obs_layout.sections
    assert [s.name for s in tsections if s.module == "base"] == bnames
    assert [s.name for s in tsections[len(bnames) :]] == ["toy.omen", "toy.meditations"]
    # Only the sections fed by the lists the toy extends grow, and by exactly its additions.
    grown = {
        s.name: t.length - s.length
        for s, t in zip(base.obs_layout.sections, tsections, strict=False)
        if t.length != s.length
    }
    assert grown == {
        **{f"seat{k}.temp_mods": 2 for k in range(5)},
        "decision.kind": 1,  # the toy's decision kind, after the base's
        "decision.payment_action": 1,
        "history": 4,
    }
    # The base layout itself (no module) is the same whether a module is registered or not.
    assert [(s.name, s.start, s.length) for s in base.obs_layout.sections] == [
        (s.name, s.start, s.length) for s in ObservationEncoder(GameConfig(pack="test")).obs_layout.sections
    ]
    where = _base_index_map(base, toy_enc)
    rng = random.Random(3)
    state = new_game(GameConfig(pack="test", num_players=3, seed=3))
    for step in range(120):
        if state.over:
            break
        seat = state.current_player()
        b = base.encode(state, seat)
        t = toy_enc.check_sections(state, seat)
        assert np.array_equal(t[where], b), f"step {step}"
        extra = np.setdiff1d(np.arange(toy_enc.size), where)
        toy_part = toy_enc.obs_layout.groups["toy"]
        assert not t[np.setdiff1d(extra, np.arange(toy_part.start, toy_part.end))].any()
        state.apply_action(rng.choice(state.legal_actions()))


# -- the Action, the source, setup, invariant, statistic, render ----------------------------------


def test_the_module_action_is_offered_and_runs(toy: None) -> None:
    sc = Scenario(**TOY_CONFIG).hand(0, "fire-1", "water-2").action_phase(0)
    legal = sc.s.legal_actions()
    assert {_toy_id(0), _toy_id(1)} <= set(legal) and _toy_id(2) not in legal  # nothing earth to pay
    sc.mark().do(_toy_id(0))
    assert sc.p(0).hand[0] == 0 and sc.p(0).discard[0] == 1  # paid 1 fire card (auto payment)
    assert sc.s.stats["toy_meditations"] == 1
    assert sc.events("toy_meditate") == [(0, 0)]
    assert sc.pending().kind == "toy_omen_element" and sc.pending().player == 0  # the module's decision
    sc.do("PICK_ELEMENT(air)")
    assert toy_state(sc.s).omens[-1] == (3, 0) and sc.pending().kind == "action"
    sc.check()
    assert "toy: omen air" in str(sc.s) and "meditations 1" in str(sc.s)


def test_the_module_action_pays_manually_and_cancels(toy: None) -> None:
    sc = Scenario(payment="manual", **TOY_CONFIG).hand(0, "fire-1").action_phase(0)
    sc.do(_toy_id(0))
    assert sc.pending().kind == "payment"
    sc.do("PAY_CANCEL")
    assert sc.pending().kind == "action" and sc.s.stats.get("toy_meditations", 0) == 0
    sc.do(_toy_id(0), "PAY_HAND(fire-1)", "PAY_CONFIRM", "PICK_ELEMENT(fire)")
    assert sc.s.stats["toy_meditations"] == 1


def test_the_support_source_changes_the_hand_size_rule_point(toy: None) -> None:
    """A Madness in the support refills the hand to 5 (the toy version of the Phobia of docs/rules.md
    section 9.2, "refill your hand to 5 cards instead of 6"; V-35)."""
    for config, want in (({}, HAND_SIZE), (TOY_CONFIG, HAND_SIZE_WITH_MADNESS)):
        sc = Scenario(**config).support(0, "madness").hand(0, "fire-1")
        sc.deck(0, *["water-1"] * 8).deck(1, *["air-1"] * 8).action_phase(0)
        assert rule_point(sc.s, 0, "hand_size", HAND_SIZE) == want and hand_size(sc.s, 0) == want
        assert hand_size(sc.s, 1) == HAND_SIZE  # nothing in P1's support
        sc.do("END")  # Recuperation (section 5.1) refills the hand to the hand size
        assert sum(sc.p(0).hand) == want


def test_module_setup_draws_after_the_base_deal(toy: None) -> None:
    """The base deal of a seed is the same with the module and without; the module's setup step
    takes the next draw of the game's RNG after the base setup's last one."""
    mags = ("test_mag_fire", "test_mag_water", "test_mag_earth")  # the toy pack adds Magicians
    omens = sorted(load_pack("test", (TOY_PACK,)).sections["toy_omen"])
    for seed in range(5):
        cfg = GameConfig(pack="test", num_players=3, seed=seed, magicians=mags)
        base, mod = setup(cfg), setup(cfg.replace(**TOY_CONFIG))
        for a, b in zip(base.players, mod.players, strict=True):
            assert (a.magician, a.hand, a.deck, a.spells) == (b.magician, b.hand, b.deck, b.spells)
        assert (base.grimoire, base.library, base.curse_piles) == (mod.grimoire, mod.library, mod.curse_piles)
        assert (base.active, base.supply, base.madness_pile) == (mod.active, mod.supply, mod.madness_pile)
        after_base = random.Random()
        after_base.setstate(base.rng.getstate())
        card = omens[after_base.randrange(len(omens))]
        assert toy_state(mod).card == card and after_base.getstate() == mod.rng.getstate()
        assert base.ext == {} and mod.log[-1] == (0, "toy_omen", card)


def test_the_module_invariant_runs_and_fails(toy: None) -> None:
    state = new_game(GameConfig(pack="test", **TOY_CONFIG))
    check_invariants(state)
    state.stats["toy_meditations"] = 2  # counted, never logged
    with pytest.raises(AssertionError, match="toy: 2 meditations counted, 0 logged"):
        check_invariants(state)
    state.stats["toy_meditations"] = 0
    toy_state(state).omens.append((9, 0))
    with pytest.raises(AssertionError, match=r"ext\.toy\.omens\[1\]: \(9, 0\) is no Element"):
        check_invariants(state)


def test_ruleset_lists_the_module_parts_after_the_base(toy: None) -> None:
    rs, base = ruleset(TOY_SET), ruleset(())
    assert rs.stats[: len(base.stats)] == base.stats and rs.stats[len(base.stats) :] == TOY.stats
    assert rs.modifier_kinds[: len(base.modifier_kinds)] == base.modifier_kinds
    assert rs.modifier_kinds[len(base.modifier_kinds) :] == ("replace", "lose_ability")
    assert rs.pay_actions[-1] == "toy_meditate" and rs.pay_actions[:-1] == base.pay_actions
    assert [a.name for a in rs.actions][-1] == "toy_meditate" and base.modifier_sources == ()


@pytest.mark.parametrize("players", [2, 4])
def test_random_playouts_with_the_module_keep_the_invariants(toy: None, players: int) -> None:
    meditations = finished = 0
    for seed in range(4):
        cfg = GameConfig(pack="test", num_players=players, seed=seed, **TOY_CONFIG)
        state, rng = new_game(cfg), random.Random(seed)
        for _ in range(3000):
            if state.over:
                break
            legal = state.legal_actions()
            toy_moves = [m for m in legal if m >= M.NUM_BASE_MOVES]
            # Take the toy Action now and then, so that it runs inside real games.
            state.apply_action(rng.choice(toy_moves if toy_moves and rng.random() < 0.3 else legal))
            check_invariants(state)
        finished += state.over
        meditations += state.stats.get("toy_meditations", 0)
    assert finished == 4 and meditations > 0


# -- the module's cards, the config, unregistering ----------------------------------------------


def test_a_module_modifier_kind_needs_the_module() -> None:
    """A pack card written with "replace" is refused for a base game, naming the file, card and
    field; the same game with the module is accepted."""
    base = GameConfig(pack="test", pack_overrides=(TOY_PACK,))
    with registered(obs=False):
        with pytest.raises(PackError) as err:
            new_game(base)  # the module is registered, but this game does not name it
        text = str(err.value)
        assert "toy_pack.toml: magician 'toy_mag_reshuffle'.ability[0].kind" in text
        assert "'replace'" in text and "GameConfig.modules" in text
        state = new_game(base.replace(modules=TOY_SET, magicians=("toy_mag_blocker", "test_mag_fire")))
        assert state.players[0].magician == "toy_mag_blocker"
        # A modifier op nested in "may" is found too, with its path.
        uses = dict(
            (where.split(": ", 1)[1], kind)
            for kind, where in module_kind_uses(load_pack("test", (TOY_PACK,)))
        )
        assert uses["magician 'toy_mag_blocker'.activated[0].ops[0].mod.kind"] == "lose_ability"
        assert len(uses) == 6 and module_kind_uses(load_pack("test")) == ()
    with pytest.raises(PackError, match=r"toy_pack\.toml: unknown section\(s\) \['toy_omen'\]"):
        new_game(base)  # unregistered again: even its section is unknown


def test_config_naming_an_unregistered_module_fails_clearly() -> None:
    with pytest.raises(ConfigError) as err:
        GameConfig(modules=TOY_SET)
    text = str(err.value)
    assert "GameConfig.modules=('toy',)" in text and "unknown module(s) ['toy']" in text
    assert "available modules: 'dark_matter', 'phobias'" in text  # registered by import bbom_env
    with registered(obs=False):
        assert GameConfig(modules=TOY_SET).modules == TOY_SET
        with pytest.raises(ConfigError, match="available modules: 'dark_matter', 'phobias', 'toy'"):
            GameConfig(modules=("fear_itself",))
        with pytest.raises(ConfigError, match="named more than once"):
            GameConfig(modules=(NAME, NAME))


def test_unregister_restores_everything() -> None:
    before = (M.layout().table(), ruleset(()), dict(OBS_MODULES), set(MODULES))
    base_obs = ObservationEncoder(GameConfig(pack="test"))
    for _ in range(2):  # registering again after unregistering works
        with registered():
            assert NAME in MODULES and NAME in OBS_MODULES and M.num_moves(TOY_SET) > M.NUM_BASE_MOVES
            new_game(GameConfig(pack="test", **TOY_CONFIG))
        assert (M.layout().table(), ruleset(()), dict(OBS_MODULES), set(MODULES)) == before
        with pytest.raises(ValueError, match="unknown module"):
            M.num_moves(TOY_SET)
        with pytest.raises(ValueError, match="unknown module"):
            ruleset(TOY_SET)
    after = ObservationEncoder(GameConfig(pack="test"))
    assert after.size == base_obs.size and after.obs_layout.sections == base_obs.obs_layout.sections
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister("base")
    with pytest.raises(ValueError, match="no module 'toy' is registered"):
        unregister(NAME)


def test_the_envs_pass_modules_through(toy: None) -> None:
    import gymnasium

    import bbom_env
    from bbom_env.rl.aec_env import env as aec_env

    genv = gymnasium.make(bbom_env.GYM_ID, pack="test", **TOY_CONFIG)
    obs, info = genv.reset(seed=1)
    assert genv.action_space.n == M.num_moves(TOY_SET)
    assert genv.unwrapped.state.config.modules == TOY_SET
    toy_obs = ObservationEncoder(GameConfig(pack="test", **TOY_CONFIG))
    assert (
        obs["observation"].shape == (toy_obs.size,) if isinstance(obs, dict) else obs.shape == (toy_obs.size,)
    )
    genv.close()
    env = aec_env(pack="test", num_players=2, **TOY_CONFIG)
    env.reset(seed=1)
    agent = env.agent_selection
    assert env.action_space(agent).n == M.num_moves(TOY_SET)
    assert env.unwrapped.game.config.modules == TOY_SET
    env.close()


def test_a_save_cannot_bring_a_module_kind_into_a_base_game(toy: None) -> None:
    """A toy game saves and loads; the same save with its module removed from the config is
    refused naming the card (a base game never sees a module's modifier kind)."""
    cfg = GameConfig(pack="test", pack_overrides=(TOY_PACK,), modules=TOY_SET)
    state = new_game(cfg.replace(magicians=("toy_mag_hand5", "test_mag_fire")))
    text = state.to_json()
    assert from_json(text).players[0].magician == "toy_mag_hand5"
    data = json.loads(text)
    data["config"]["modules"] = []
    with pytest.raises(SaveError, match=r"toy_pack\.toml: magician 'toy_mag_reshuffle'\.ability\[0\]\.kind"):
        from_json(json.dumps(data))


def test_a_module_kind_of_its_own_is_known_to_the_loader_only_while_registered() -> None:
    schema = {"amount": (IntRange(0, 3), 1)}
    own = Module("toy_own", modifier_kinds=("toy_kind",), modifier_schemas=(("toy_kind", schema),))
    with pytest.raises(PackError, match="unknown kind 'toy_kind'"):
        normalize_mod({"kind": "toy_kind"}, "x.toml: magician 'm'.ability[0]")
    register(own)
    try:
        assert normalize_mod({"kind": "toy_kind"}, "w") == {"kind": "toy_kind", "amount": 1}
        with pytest.raises(PackError, match=r"w\.amount: expected an int 0\.\.3, got 7"):
            normalize_mod({"kind": "toy_kind", "amount": 7}, "w")
    finally:
        unregister("toy_own")
    with pytest.raises(PackError, match="unknown kind 'toy_kind'"):
        normalize_mod({"kind": "toy_kind"}, "w")
    with pytest.raises(ValueError, match="not in modifier_kinds"):
        register(Module("toy_bad", modifier_schemas=(("toy_kind", schema),)))
    with pytest.raises(ValueError, match="already known with another schema"):
        register(Module("toy_bad2", modifier_kinds=("replace",), modifier_schemas=(("replace", schema),)))
    assert "toy_bad" not in MODULES and "toy_bad2" not in MODULES
