"""The module seams proven with the toy module (tests/modules/toy_module.py):
a module's own state (``Module.state_type`` in ``state.ext``), its pack sections
(``Module.pack_sections``: cards in ``pack.sections``), its decisions (``Module.decisions``), and
two small ones (the observation's "ability lost" flag reads ``hooks.ability_lost``; the scenario
builder names moves in the game's layout). docs/rules.md section 9: the Vth Element's modules (Dark
Matter's Black Book and Dark Curses, the Phobias' Madness pile) need exactly these."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders import Scenario, code, move

from bbom_env.cards import main as cards_main
from bbom_env.cards import mod_text
from bbom_env.engine import GameConfig, describe, from_json, new_game, pending
from bbom_env.engine.cards.pack import PackSection, load_pack
from bbom_env.engine.cards.vocab import PackError
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import frame, push
from bbom_env.engine.core.rules import MODULES, Module, register, ruleset, unregister
from bbom_env.engine.core.state import SaveError
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.frames import FRAME_TYPES, Decider, Frame, Seat
from bbom_env.engine.play.decision import Decision
from bbom_env.rl.observation import ObservationEncoder
from modules.toy_module import (
    DECISION,
    NAME,
    OMEN_SECTION,
    TOY_PACK,
    ToyOmen,
    ToyState,
    registered,
    toy_state,
)

TOY_CONFIG = {"pack": "test", "modules": (NAME,), "pack_overrides": (TOY_PACK,)}


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def _played(seed: int = 1, moves: int = 400, **config: object) -> Iterator:
    """A toy game played at random (the toy Action taken often), yielding the state after each move."""
    state = new_game(GameConfig(seed=seed, **{**TOY_CONFIG, **config}))  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            return
        legal = state.legal_actions()
        toy = [m for m in legal if m >= M.NUM_BASE_MOVES]
        state.apply_action(rng.choice(toy if toy and rng.random() < 0.5 else legal))
        yield state


def _with_omens(seed: int = 1) -> object:
    """A toy game with at least three omens in its module state."""
    for state in _played(seed):
        if len(toy_state(state).omens) >= 3:
            return state
    pytest.fail("no game reached three omens")


# -- 1. module state -----------------------------------------------------------------------------


def test_module_state_is_made_at_setup_and_absent_in_a_base_game(toy: None) -> None:
    state = new_game(GameConfig(seed=3, **TOY_CONFIG))  # type: ignore[arg-type]
    assert list(state.ext) == [NAME] and type(state.ext[NAME]) is ToyState
    assert toy_state(state).card in state.pack.sections["toy_omen"] and len(toy_state(state).omens) == 1
    assert "toy_omen" not in state.stats  # the toy's data left the statistics
    base = new_game(GameConfig(pack="test", seed=3))
    assert base.ext == {} and "ext" not in json.loads(base.to_json())
    assert ruleset(()).state_types == () and ruleset((NAME,)).state_types == ((NAME, ToyState),)


def test_module_state_survives_clone_pickle_and_json_and_clones_are_independent(toy: None) -> None:
    seen_waiting = False
    for state in _played(seed=5, moves=300):
        seen_waiting |= state.stack[-1]["kind"] == "toy_attune" if state.stack else False
        if len(state.history) % 25:
            continue
        text = state.to_json()
        for copy in (state.clone(), pickle.loads(pickle.dumps(state)), from_json(text)):
            assert copy == state and type(copy.ext[NAME]) is ToyState
            assert copy.ext[NAME] is not state.ext[NAME] and copy.ext[NAME].omens is not state.ext[NAME].omens
            assert all(type(o) is ToyOmen for o in copy.ext[NAME].omens)
            assert copy.legal_actions() == state.legal_actions()
        c = state.clone()
        toy_state(c).omens.append(ToyOmen(2, 0))
        toy_state(c).card = "toy_omen_air" if toy_state(state).card != "toy_omen_air" else "toy_omen_fire"
        assert toy_state(c).omens[:-1] == toy_state(state).omens and c != state
        assert toy_state(c).card != toy_state(state).card
    assert seen_waiting


def test_a_save_at_the_module_decision_loads_and_plays_on(toy: None) -> None:
    for state in _played(seed=2):
        if state.stack and state.stack[-1]["kind"] == "toy_attune":
            break
    else:
        pytest.fail("no toy_attune decision reached")
    loaded = from_json(state.to_json())
    assert pending(loaded) == pending(state) and pending(loaded).kind == DECISION
    move_id = loaded.legal_actions()[2]
    loaded.apply_action(move_id)
    state.apply_action(move_id)
    assert loaded == state and toy_state(loaded).omens[-1].element == 2


def _tampered(state: object, edit) -> str:  # noqa: ANN001
    data = json.loads(state.to_json())  # type: ignore[attr-defined]
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["ext"]["toy"]["omens"][2].update(element="x"),
            r"^ext\.toy\.omens\[2\]\.element: expected an int",
        ),
        (
            lambda d: d["ext"]["toy"]["omens"].__setitem__(2, [1, 0]),
            r"^ext\.toy\.omens\[2\]: expected an object",
        ),
        (lambda d: d["ext"]["toy"].update(card=3), r"^ext\.toy\.card: expected a string, got 3"),
        (lambda d: d["ext"]["toy"].update(luck=1), r"^ext\.toy: unknown field\(s\) \['luck'\]"),
        (lambda d: d["ext"]["toy"].pop("omens"), r"^ext\.toy: missing field\(s\) \['omens'\]"),
        (lambda d: d.pop("ext"), r"^ext\.toy: missing: module 'toy' keeps a state \(ToyState\)"),
        (lambda d: d["ext"].update(other={}), r"^ext\.other: no module of this game keeps a state"),
        (lambda d: d.update(ext=[]), r"^ext: expected an object"),
        # Shapes pass, values do not: the module's invariant names the path.
        (lambda d: d["ext"]["toy"]["omens"][2].update(element=9), r"ext\.toy\.omens\[2\]: \(9, .*no Element"),
        (
            lambda d: d["ext"]["toy"].update(card="test_combustion"),
            r"ext\.toy\.card: 'test_combustion' is not",
        ),
    ],
)
def test_a_tampered_module_state_is_refused_naming_its_path(toy: None, edit, message: str) -> None:  # noqa: ANN001
    state = _with_omens()
    from_json(state.to_json())  # the untouched save loads
    with pytest.raises(SaveError, match=message):
        from_json(_tampered(state, edit))


def test_a_base_save_with_a_module_state_is_refused(toy: None) -> None:
    base = new_game(GameConfig(pack="test", seed=1))
    text = _tampered(base, lambda d: d.update(ext={"toy": {"card": "", "omens": []}}))
    with pytest.raises(SaveError, match=r"^ext\.toy: no module of this game keeps a state named 'toy'"):
        from_json(text)


def test_a_save_with_module_moves_in_its_history_loads(toy: None) -> None:
    *_, state = _played(seed=4, moves=200)
    assert max(state.history) >= M.NUM_BASE_MOVES  # the toy's Action ids come after the base's
    assert from_json(state.to_json()) == state


# -- 2. pack sections ------------------------------------------------------------------------------


def _pack_file(tmp_path: Path, text: str, name: str = "extra.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


OMEN = '[[toy_omen]]\nid = "{id}"\nname = "{name}"\nelement = "{element}"\nprovenance = "reconstructed"\n'


def test_section_cards_are_parsed_read_only_with_provenance(toy: None) -> None:
    pack = load_pack("test", (TOY_PACK,))
    omens = pack.sections["toy_omen"]
    assert sorted(omens) == ["toy_omen_air", "toy_omen_earth", "toy_omen_fire", "toy_omen_water"]
    assert omens["toy_omen_water"].element == 1 and {c.provenance for c in omens.values()} == {
        "reconstructed"
    }
    assert pack.section_modules == {"toy_omen": NAME}
    with pytest.raises(TypeError):
        omens["x"] = omens["toy_omen_air"]  # type: ignore[index]
    with pytest.raises(TypeError):
        pack.sections["toy_omen"] = {}  # type: ignore[index]
    assert pack.marked_name("toy_omen_fire") == "Toy Omen of Fire*"  # reconstructed: marked
    assert load_pack("test").sections == {}  # a base pack loads as before


def test_a_section_card_carries_an_effect_that_the_interpreter_runs(toy: None) -> None:
    pack = load_pack("test", (TOY_PACK,))
    assert pack.effects[("toy_omen_fire", "effect")] == ({"op": "draw", "target": "you", "count": (1, 0)},)
    assert ("toy_omen_earth", "effect") not in pack.effects  # no effect: nothing indexed
    sc = Scenario(pack_overrides=(TOY_PACK,), modules=(NAME,)).hand(0).deck(0, "air-2", "fire-1")
    sc.action_phase(0).effect("toy_omen_fire", controller=0)
    assert sum(sc.p(0).hand) == 1 and sc.p(0).hand[code("air-2")] == 1
    sc.check()


def test_a_module_op_joins_the_vocabulary_while_the_module_is_registered(toy: None) -> None:
    """A module declares its own effect op (Module.ops, op_schemas; its handler registered with
    ops.auto_op): the pack loader reads it, checks its parameters, and the interpreter runs it."""
    pack = load_pack("test", (TOY_PACK,))
    assert pack.effects[("toy_omen_water", "effect")] == (
        {"op": "toy_glimmer", "target": "you", "amount": 2},
    )
    sc = Scenario(pack_overrides=(TOY_PACK,), modules=(NAME,)).action_phase(0)
    sc.effect("toy_omen_water", controller=0)
    assert sc.s.stats["toy_glimmers"] == 2 and sc.events("toy_glimmer") == [(0, 2)]
    sc.check()


def test_a_module_op_is_refused_without_its_module(tmp_path: Path) -> None:
    """Unregistered, the op is unknown again: a pack using it is refused, naming the card."""
    from bbom_env.engine.cards.vocab import OP_SCHEMAS

    before = set(OP_SCHEMAS)  # the base game's ops and the registered modules' (Dark Matter)
    with registered():
        assert "toy_glimmer" in OP_SCHEMAS
        with pytest.raises(PackError, match=r"toy_omen_water.*amount.*expected an int 1\.\.3"):
            bad = tmp_path / "bad.toml"
            bad.write_text(Path(TOY_PACK).read_text().replace("amount = 2", "amount = 9"))
            load_pack("test", (str(bad),))
    assert "toy_glimmer" not in OP_SCHEMAS and set(OP_SCHEMAS) == before
    glimmer = tmp_path / "glimmer.toml"  # a base Spell of the test pack, its effect the toy's op
    glimmer.write_text(
        '[[spell]]\nid = "test_growth"\nname = "Test Growth"\nkind = "basic"\nelement = "earth"\n'
        'activation_cost = 1\ntext = "Glimmer."\neffect = [{ op = "toy_glimmer" }]\n'
        'provenance = "reconstructed"\n'
    )
    with pytest.raises(PackError, match=r"glimmer\.toml.*test_growth.*toy_glimmer"):
        load_pack("test", (str(glimmer),))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            OMEN.format(id="o1", name="O", element="aether"),
            r"extra\.toml: toy_omen 'o1'\.element: 'aether' is not one of",
        ),
        (
            OMEN.format(id="o1", name="O", element="fire") + 'colour = "red"\n',
            r"extra\.toml: toy_omen 'o1': unknown field\(s\) \['colour'\]",
        ),
        (
            '[[toy_omen]]\nid = "o1"\nname = "O"\nelement = "fire"\n',
            r"extra\.toml: toy_omen 'o1': missing field 'provenance'",
        ),
        (
            '[[toy_omen]]\nid = "o1"\nelement = "fire"\nprovenance = "reconstructed"\n',
            r"extra\.toml: toy_omen 'o1': missing field 'name'",
        ),
        (
            OMEN.format(id="O 1", name="O", element="fire"),
            r"extra\.toml: toy_omen\[0\]\.id: ids are snake_case",
        ),
        (
            OMEN.format(id="o1", name="O", element="fire") + 'effect = [{ op = "fly" }]\n',
            r"extra\.toml: toy_omen 'o1'\.effect\[0\]",
        ),
        (
            OMEN.format(id="test_combustion", name="O", element="fire"),
            r"extra\.toml: toy_omen 'test_combustion'\.id: id already used by spell",
        ),
        (OMEN.format(id="o1", name="O", element="fire") * 2, r"extra\.toml: toy_omen 'o1'\.id: duplicate id"),
        (
            OMEN.format(id="o1", name="Test Quake", element="fire"),
            r"extra\.toml: toy_omen 'o1'\.name: name 'Test Quake' is already",
        ),
        ('toy_omen = { id = "o1" }\n', r"extra\.toml: \[toy_omen\] must be an array of tables"),
    ],
)
def test_section_errors_name_the_file_the_entry_and_the_field(
    toy: None, tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(PackError, match=message):
        load_pack("test", (_pack_file(tmp_path, text),))


def test_ids_are_unique_across_the_pack_and_overrides_replace_section_cards(
    toy: None, tmp_path: Path
) -> None:
    clash = _pack_file(tmp_path, OMEN.format(id="toy_mag_hand5", name="O", element="fire"))
    with pytest.raises(PackError, match=r"toy_omen 'toy_mag_hand5'\.id: id already used by magician"):
        load_pack("test", (TOY_PACK, clash))
    again = _pack_file(
        tmp_path, OMEN.format(id="toy_omen_fire", name="Other Fire", element="air"), "again.toml"
    )
    pack = load_pack("test", (TOY_PACK, again))
    assert pack.sections["toy_omen"]["toy_omen_fire"].element == 3 and len(pack.sections["toy_omen"]) == 4


def test_setup_refuses_a_game_whose_pack_lacks_a_needed_section(toy: None, tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        new_game(GameConfig(pack="test", modules=(NAME,)))
    text = str(err.value)
    assert text.startswith(str(load_pack("test").files[0])) and "no [[toy_omen]] section" in text
    assert "module 'toy' needs" in text
    # A base game accepts a pack holding a module's section (its cards are never read there).
    assert (
        new_game(
            GameConfig(
                pack="test",
                pack_overrides=(_pack_file(tmp_path, OMEN.format(id="o1", name="O", element="fire")),),
            )
        ).ext
        == {}
    )


def test_an_unregistered_module_section_is_unknown() -> None:
    with pytest.raises(PackError, match=r"toy_pack\.toml: unknown section\(s\) \['toy_omen'\]"):
        load_pack("test", (TOY_PACK,))
    with registered(obs=False):
        assert "toy_omen" in load_pack("test", (TOY_PACK,)).sections  # the cached refusal is gone
    with pytest.raises(PackError, match="unknown section"):
        load_pack("test", (TOY_PACK,))  # and the cached pack is gone again


def test_module_kinds_in_a_module_section_count_only_in_games_with_the_module(
    toy: None, tmp_path: Path
) -> None:
    """A pack may hold a module's cards and still serve base games: a module-only modifier kind on
    a module card is refused only where its module plays, and only if undeclared."""
    text = OMEN.format(id="o1", name="O", element="fire") + (
        'effect = [{ op = "modifier", mod = { kind = "lose_ability" }, duration = "this_turn" }]\n'
    )
    path = _pack_file(tmp_path, text)
    assert new_game(GameConfig(pack="test", pack_overrides=(path,))).ext == {}
    assert new_game(GameConfig(pack="test", pack_overrides=(TOY_PACK, path), modules=(NAME,))).ext


def test_registering_sections_is_checked() -> None:
    with pytest.raises(ValueError, match="must be a new name"):
        register(Module("bad_sections", pack_sections=(PackSection("spell", OMEN_SECTION.parse),)))
    with registered(obs=False):
        with pytest.raises(ValueError, match="already declared by module 'toy'"):
            register(Module("bad_sections", pack_sections=(PackSection("toy_omen", OMEN_SECTION.parse),)))
    with pytest.raises(ValueError, match="declares a pack section twice"):
        register(Module("bad_sections", pack_sections=(OMEN_SECTION, OMEN_SECTION)))
    with pytest.raises(TypeError, match="not a cards.PackSection"):
        register(Module("bad_sections", pack_sections=("toy_omen",)))  # type: ignore[arg-type]
    assert "bad_sections" not in MODULES


def test_the_catalogue_lists_module_cards_with_their_module(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cards_main(["list", "--pack", "test", "--override", TOY_PACK]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("toy_omen_fire"))
    assert line.split() == [
        "toy_omen_fire",
        "toy_omen",
        "[toy]",
        "Toy",
        "Omen",
        "of",
        "Fire*",
        "reconstructed",
    ]
    assert cards_main(["show", "toy_omen_fire", "--pack", "test", "--override", TOY_PACK]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Toy Omen of Fire*  [toy_omen_fire]")
    assert "- [[toy_omen]] card of module toy" in out and "- effect: draw(target=you)" in out
    assert "- provenance: reconstructed" in out
    assert cards_main(["show", "toy_mag_hand5", "--pack", "test", "--override", TOY_PACK]) == 0
    assert "replace(point=hand_size, value=5)" in capsys.readouterr().out  # a module modifier kind
    assert mod_text({"kind": "lose_ability"}) == "lose_ability()"


# -- 3. module decisions ---------------------------------------------------------------------------


def test_the_module_decision_shows_in_pending_describe_and_the_observation(toy: None) -> None:
    sc = Scenario(**{k: v for k, v in TOY_CONFIG.items() if k != "pack"}).hand(0, "fire-1").action_phase(0)
    sc.do("TOY_MEDITATE(fire)")  # named in the game's layout (tests/builders.py)
    d = pending(sc.s)
    assert d == Decision(DECISION, 0, toy_state(sc.s).card, 1, (0,) * 5, ())
    assert describe(sc.s).startswith(f"{DECISION} by player 0 (source: Toy Omen of")
    kinds = ruleset((NAME,)).decision_kinds
    assert kinds[-1] == DECISION and kinds[:-1] == ruleset(()).decision_kinds
    enc = ObservationEncoder(sc.s.config)
    one_hot = enc.views(enc.encode(sc.s, 0))["decision.kind"]
    assert one_hot.tolist() == [1.0 if k == DECISION else 0.0 for k in kinds]
    assert sc.legal_names() == [f"PICK_ELEMENT({e})" for e in ("fire", "water", "earth", "air")]


class _WaitFrame(Frame):
    player: Seat
    decider: Decider


@pytest.fixture
def wait_frame() -> Iterator[None]:
    """A waiting frame kind no module describes (registered for one test, then removed)."""
    frame("toy_wait", typed=_WaitFrame)
    try:
        yield
    finally:
        FRAME_TYPES.pop("toy_wait", None)


def test_a_module_frame_without_a_valid_decision_fails_clearly(toy: None, wait_frame: None) -> None:
    sc = Scenario(pack_overrides=(TOY_PACK,), modules=(NAME,)).action_phase(0)
    push(sc.s, {"kind": "toy_wait", "player": 0, "decider": 0})
    with pytest.raises(ValueError, match="frame kind 'toy_wait' waits for a decision, but no module"):
        pending(sc.s)
    sc.s.stack[-1] = {"kind": "toy_attune", "player": 0, "decider": 0}
    assert pending(sc.s).kind == DECISION
    bad = Module(
        "bad_decisions",
        frames=("toy_wait",),
        decisions=(("toy_wait", lambda s, f: Decision("nope", 0, "", 1, (0,) * 5, ())),),
    )
    register(bad)
    try:
        sc2 = Scenario(pack_overrides=(TOY_PACK,), modules=(NAME, "bad_decisions")).action_phase(0)
        push(sc2.s, {"kind": "toy_wait", "player": 0, "decider": 0})
        with pytest.raises(ValueError, match="decision kind 'nope', not one of the ruleset's decision_kinds"):
            pending(sc2.s)
    finally:
        unregister("bad_decisions")
    with pytest.raises(ValueError, match="must be one of the module's frames"):
        register(Module("bad_decisions", decisions=(("toy_wait", pending),)))


# -- 4. the small ones ------------------------------------------------------------------------------


def test_the_observation_shows_an_ability_lost_to_a_lose_ability_modifier(toy: None) -> None:
    """V-10 / V-27: a lose_ability modifier (the toy Blocker's "all players lose their Ability until
    the next Monster") shows in every seat's "ability lost" flag, not only a lost-for-good one."""
    sc = Scenario(magicians=("toy_mag_blocker", "test_mag_fire"), pack_overrides=(TOY_PACK,), modules=(NAME,))
    sc.action_phase(0)
    enc = ObservationEncoder(sc.s.config)
    lost = 5  # obs_player: the status flags are present, absent, active, eliminated, used, lost

    def flags() -> list[float]:
        views = enc.views(enc.encode(sc.s, 0))
        return [views[f"seat{k}.status"][lost] for k in range(2)]

    assert flags() == [0.0, 0.0]
    sc.do("ABILITY", "ACCEPT")
    assert not sc.p(0).ability_lost and any(m.modifier["kind"] == "lose_ability" for m in sc.p(1).mods)
    assert flags() == [1.0, 1.0]
    check_invariants(sc.s)


def test_builders_name_moves_in_the_games_layout(toy: None) -> None:
    start = M.layout((NAME,)).by_name["TOY_MEDITATE"].start
    assert move("TOY_MEDITATE(water)", (NAME,)) == start + 1
    assert move("ACQUIRE(fire-2)", (NAME,)) == move("ACQUIRE(fire-2)")  # base ids never move
    with pytest.raises(ValueError, match=r"unknown move name 'TOY_MEDITATE\(water\)'$"):
        move("TOY_MEDITATE(water)")
