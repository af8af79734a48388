"""Typed frames (frames.py): every frame the engine runs has a registered TypedDict and carries
exactly its keys with values of the declared types; the save check reads its schema from the types
and names ``stack[i].key``; saves of formats 1 and 2 (one-letter frame keys) load by replay."""

from __future__ import annotations

import json
import random
import types
import typing
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, NotRequired

import pytest

from bbom_env.engine import GameConfig, SaveError, from_json, new_game, replay
from bbom_env.engine.core import resolver
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.serialize import FORMAT, _upgrade
from bbom_env.engine.model.frames import (
    FRAME_TYPES,
    VALUE_KINDS,
    Frame,
    Seat,
    frame_schema,
    register_frame_type,
)
from bbom_env.engine.model.records import HandSource, SupportSource

DATA = Path(__file__).parent / "data"
# Frame kinds random playouts of the base and test packs do not reach, and why.
NOT_IN_PLAYOUTS = {
    "refresh_choice": "only a 'replace' modifier lowering the concentration_refresh rule point pushes it "
    "(docs/rules.md 9.2): no card of the base game gives one",
    "limits": "only a lost Magician ability (flow.lose_ability) pushes it: no base-game card takes one",
}
PLAYOUTS = [
    GameConfig(num_players=n, payment=pay, pack=pack, seed=seed)
    for n in (2, 4)
    for pay in ("auto", "manual")
    for pack in ("default", "test")
    for seed in range(3)
]


def _conforms(v: Any, tp: Any) -> bool:
    """Whether value v is of type tp (the frame types' vocabulary: int, str, None, unions, tuples)."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        return _conforms(v, typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(v, a) for a in typing.get_args(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if type(v) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(x, args[0]) for x in v)
        return len(v) == len(args) and all(_conforms(x, a) for x, a in zip(v, args, strict=True))
    if tp is type(None) or tp is None:
        return v is None
    return type(v) is tp  # exact: True is not an int here


def _check_frame(f: dict) -> list[str]:
    kind = f.get("kind")
    if kind not in FRAME_TYPES:
        return [f"frame kind {kind!r} has no registered TypedDict: {f}"]
    schema = frame_schema(kind)
    errs = [f"{kind}: unknown key {k!r}" for k in f if k != "kind" and k not in schema.keys]
    errs += [f"{kind}: missing key {k!r}" for k in schema.keys if k not in f and k not in schema.optional]
    for key, (_value_kind, tp) in schema.keys.items():
        if key in f and not _conforms(f[key], tp):
            errs.append(f"{kind}.{key}: {f[key]!r} is not a {tp}")
    return errs


def _playout(config: GameConfig, monkeypatch: pytest.MonkeyPatch, seen: Counter, errs: list[str]) -> None:
    """A seeded random game; every frame is checked each time it runs, and the whole stack at
    every decision (frames get their decider while waiting)."""
    for kind, run in list(resolver.RUN.items()):

        def checked(state: GameState, f: dict, run: Any = run) -> None:
            seen[f["kind"]] += 1
            errs.extend(_check_frame(f))
            run(state, f)

        monkeypatch.setitem(resolver.RUN, kind, checked)
    state = new_game(config)
    rng = random.Random(config.seed)
    while not state.over:
        for f in state.stack:
            errs.extend(_check_frame(f))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def test_every_frame_in_playouts_is_typed_and_every_type_is_met(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter = Counter()
    errs: list[str] = []
    for config in PLAYOUTS:
        _playout(config, monkeypatch, seen, errs)
    assert not errs, sorted(set(errs))[:10]
    assert set(resolver.RUN) == set(FRAME_TYPES)  # every kind with handlers has a type, and back
    # Base games meet the base module's kinds (a test module imported by another test adds its own).
    from bbom_env.engine.core.moves import BASE
    from bbom_env.engine.core.rules import MODULES, ruleset

    ruleset(())  # registers the base module
    unmet = set(MODULES[BASE].frames) - set(seen) - set(NOT_IN_PLAYOUTS)
    assert not unmet, f"frame kinds never met in playouts and not explained: {sorted(unmet)}"
    assert not set(NOT_IN_PLAYOUTS) & set(seen), "an allow-listed kind is met now: drop it from the list"


def test_the_checker_catches_bad_frames() -> None:
    good = {"kind": "menu", "player": 0, "grants": -1, "decider": None}
    assert _check_frame(good) == []
    assert _check_frame({**good, "n": 1}) == ["menu: unknown key 'n'"]
    assert _check_frame({k: v for k, v in good.items() if k != "grants"}) == ["menu: missing key 'grants'"]
    assert _check_frame({**good, "player": True}) and _check_frame({**good, "decider": "0"})
    assert _check_frame({"kind": "pay", "player": 0, "cost": [1], "picks": (), "action": "cure"})


# -- registering a module's frame kind -----------------------------------------------------------


class _ToyFrame(Frame):
    player: Seat
    spare: NotRequired[Annotated[int, "count"]]


class _Untyped(Frame):
    player: int


class _UnknownKind(Frame):
    player: Annotated[int, "no_such_kind"]


def test_a_module_registers_its_frame_kind() -> None:
    try:
        with pytest.raises(ValueError, match="has no TypedDict"):
            resolver.frame("toy", run=lambda s, f: None)
        resolver.frame("toy", run=lambda s, f: None, typed=_ToyFrame)
        assert frame_schema("toy").keys == {"player": ("seat", int), "spare": ("count", int)}
        assert frame_schema("toy").optional == {"spare"}
        for bad in (_Untyped, _UnknownKind):
            with pytest.raises(TypeError, match="not Annotated with a value kind the save check knows"):
                register_frame_type("untyped", bad)
        with pytest.raises(ValueError, match="already registered"):
            register_frame_type("menu", _ToyFrame)
    finally:
        FRAME_TYPES.pop("toy", None)
        resolver.RUN.pop("toy", None)


# -- the save check, read from the types ---------------------------------------------------------


def _state_with(kinds: set[str], config: GameConfig, picks: bool = False) -> GameState:
    """Seeded random play to the first decision with frames of ``kinds`` (and payment picks)."""
    state = new_game(config)
    rng = random.Random(config.seed)
    while not kinds <= {f["kind"] for f in state.stack} or (picks and not state.stack[-1].get("picks")):
        assert not state.over and len(state.history) < 3000
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


SAVES = [
    _state_with(
        {"pay", "menu", "activate"}, GameConfig(num_players=3, payment="manual", pack="test", seed=5), True
    ),
    _state_with({"op", "seq"}, GameConfig(num_players=2, pack="test", seed=3)),
]


def _wrong(v: Any) -> Any:
    return "x" if type(v) is int or v is None else 7 if type(v) is str else {"a": 1}


@pytest.mark.parametrize("state", SAVES, ids=["pay", "op"])
def test_save_check_names_the_bad_frame_key(state: GameState) -> None:
    data = json.loads(state.to_json())
    tried = 0
    for i, f in enumerate(data["stack"]):
        for key in [k for k in f if k != "kind"]:
            mutations = [({**f, key: _wrong(f[key])}, "")]
            if key not in frame_schema(f["kind"]).optional:
                mutations.append(({k: v for k, v in f.items() if k != key}, "missing"))
            for bad, what in mutations:
                save = json.loads(json.dumps(data))
                save["stack"][i] = bad
                with pytest.raises(SaveError) as err:
                    from_json(json.dumps(save))
                assert str(err.value).startswith(f"stack[{i}].{key}: "), str(err.value)
                assert what in str(err.value), str(err.value)
                tried += 1
        save = json.loads(json.dumps(data))
        save["stack"][i]["n"] = 1  # the old key of three meanings
        with pytest.raises(SaveError, match=rf"^stack\[{i}\]\.n: unknown field of a {f['kind']} frame"):
            from_json(json.dumps(save))
    assert tried > 20


def test_a_loaded_frame_has_tuples_where_its_type_says() -> None:
    state = SAVES[0]
    back = from_json(state.to_json())
    pay = back.stack[-1]
    assert pay["kind"] == "pay" and type(pay["cost"]) is tuple and pay["picks"]
    assert all(type(s) in (HandSource, SupportSource) for s in pay["picks"])
    assert back.stack == state.stack and back == state


# -- old formats ---------------------------------------------------------------------------------
# v2_pay.json and v2_op.json are bbom-state/2 saves written by the engine of commit c5b544f (before
# the typed frames) from seeded random games of the test pack: a manual payment with a pick made,
# and an op waiting for its player. A change to the test pack makes them refused (pack_sha256).


def _v2(name: str) -> dict:
    return json.loads((DATA / f"v2_{name}.json").read_text())


@pytest.mark.parametrize("name", ["pay", "op"])
def test_a_format_2_save_loads_by_replay(name: str) -> None:
    data = _v2(name)
    assert data["format"] == "bbom-state/2" and "k" in data["stack"][-1]
    state = from_json(json.dumps(data))
    assert state == replay(GameConfig.from_dict(data["config"]), data["history"])
    assert state.stack[-1]["kind"] == data["stack"][-1]["k"]
    assert state.stack[-1]["decider"] == data["stack"][-1]["w"] == state.current_player()
    resaved = json.loads(state.to_json())
    assert resaved["format"] == FORMAT == "bbom-state/6"
    # The upgrade to format 4's form (records as objects, named frame keys) is exactly what the
    # replayed state saves.
    assert resaved == _upgrade(data)
    assert from_json(state.to_json()) == state


def test_a_format_1_save_loads_by_replay() -> None:
    data = _v2("pay")
    del data["pack_sha256"]
    data["format"] = "bbom-state/1"
    assert from_json(json.dumps(data)) == from_json(json.dumps(_v2("pay")))


@pytest.mark.parametrize(
    ("name", "tamper", "message"),
    [
        (
            "pay",
            lambda d: d.__setitem__("turn", d["turn"] + 1),
            r"^turn: the bbom-state/2 save's turn is not",
        ),
        ("pay", lambda d: d["players"][0]["hand"].__setitem__(0, 7), r"^players\[0\]: .* not what replaying"),
        ("op", lambda d: d["rng"][1].__setitem__(5, d["rng"][1][5] ^ 1), r"^rng\[1\]: "),
        ("op", lambda d: d.__setitem__("reason", "tampered"), r"^reason: "),
        (
            "pay",
            lambda d: d["stack"][-1]["picks"].clear(),
            r"^stack\[4\]: the bbom-state/2 save's stack\[4\] is not what replaying",
        ),
        ("op", lambda d: d["stack"][-1].__setitem__("n", 9), r"^stack\[5\]\.count: 9 is out of range"),
        ("op", lambda d: d["stack"].pop(), r"^stack: "),
        (
            "pay",
            lambda d: d["history"].__setitem__(0, 0),
            r"^history\[1\]: illegal action 188 \(PAY_CANCEL\)",
        ),
        (
            "pay",
            lambda d: d["players"][0]["deck"].append(999),
            r"^players\[0\]\.deck\[\d+\]: unknown card code",
        ),
        ("pay", lambda d: d["pack_sha256"].__setitem__(0, "0" * 64), r"^pack_sha256: "),
    ],
)
def test_a_tampered_old_save_is_refused(name: str, tamper: Any, message: str) -> None:
    import re

    data = _v2(name)
    tamper(data)
    with pytest.raises(SaveError) as err:
        from_json(json.dumps(data))
    assert re.search(message, str(err.value)), str(err.value)


def test_a_pickle_with_one_letter_frames_is_refused() -> None:
    import pickle

    state = new_game(GameConfig(num_players=2, pack="test", seed=1))
    assert pickle.loads(pickle.dumps(state)) == state
    state.stack = [{"k": "menu", "p": 0, "n": -1, "w": 0}]  # as pickled before frames.py
    with pytest.raises(SaveError, match="pickled before the typed frames"):
        pickle.loads(pickle.dumps(state))


def test_the_save_check_knows_every_value_kind() -> None:
    from bbom_env.engine.io import save_values as save_check_stack

    game = save_check_stack.Game(SAVES[0].pack, 2, ("activate",))
    for kind in VALUE_KINDS - {"effect"}:  # effect keys are checked together (save_check_stack._effect)
        with pytest.raises(SaveError) as err:
            save_check_stack._frame_value(object(), kind, "stack[0].key", game)
        assert "no check for value kind" not in str(err.value), kind
    with pytest.raises(SaveError, match="no check for value kind 'nope'"):
        save_check_stack._frame_value(1, "nope", "stack[0].key", game)


def test_a_format_3_save_loads_by_replay() -> None:
    """Format 3: a config without the Dark Matter module's switches (GameConfig fields since
    format 4). It loads by replay, with the switches at their defaults, and saves as format 4."""
    state = replay(GameConfig(seed=5, payment="manual", modules=("dark_matter",)), [])
    rng = random.Random(5)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    data = json.loads(state.to_json())
    data["format"] = "bbom-state/3"
    for name in ("black_book_inside_pages", "dark_curse_destroy_by_effect", "vth_magicians"):
        del data["config"][name]
    loaded = from_json(json.dumps(data))
    assert loaded == state and json.loads(loaded.to_json())["format"] == FORMAT
    data["history"][-1] = 10**6  # checked against the replay like any old save
    with pytest.raises(SaveError, match=r"history\[59\]"):
        from_json(json.dumps(data))
