"""Typed records and the field-by-field clone / save derived from the declared types
(``records.py``, ``typed_fields.py``).

The main test builds a state in which EVERY field of ``GameState``, ``PlayerState`` and every record
holds a value that is not its default, with values made from the declared types (so a field added
later is covered with no edit here; a type with no test value fails the test), and checks that it
survives ``clone()`` (equal, no mutable container shared), pickle and JSON. Such a state is no
game (it breaks the invariants on purpose), so the JSON check runs the codec below ``save_check``:
``to_json`` then ``serialize.decode_fields``. Real games go through ``from_json`` and its checks
in ``test_serialize.py`` and ``tests/hardening/test_bad_saves.py``.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import typing
from collections.abc import Mapping
from typing import Any, NamedTuple

import pytest

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.core.state import GameState, PlayerState
from bbom_env.engine.io.serialize import decode_fields, to_json
from bbom_env.engine.model.records import (
    NO_CARD,
    RECORD_TYPES,
    CurseOnTrack,
    HandSource,
    SpellSlot,
    SupportSlot,
    SupportSource,
    TempModifier,
)
from bbom_env.engine.model.typed import (
    STATE_TYPES,
    JSONShapeError,
    ModuleState,
    check_json,
    codecs,
    copy_expr,
    make_clone,
    register_state_type,
    type_hints,
    unregister_state_type,
)

# Values that a field of type Any holds: frame values and event data (every record type inside).
FRAME = {
    "kind": "pay",
    "player": 1,
    "cost": (1, 0, 2, 0, 1),
    "picks": (HandSource(4), SupportSource(2, 1)),
    "path": (0, (1, 2)),
    "target": "x",
    "decider": None,
    "records": tuple(r for r in (CurseOnTrack("c", 3, (1, 0, 0, 2), 1), SpellSlot("s", True, "this_turn"))),
}
EVENT = (5, "pay", 1, "destroy", (3, 4), SupportSlot(7, 12))


class Mark(NamedTuple):
    """A record of a module's state (test only)."""

    seat: int
    tags: tuple[str, ...] = ()


@dataclasses.dataclass
class RecState(ModuleState):
    """A module state with a field of every kind a module may use (test only)."""

    count: int = 0
    name: str = ""
    flag: bool = False
    marks: list[Mark] = dataclasses.field(default_factory=list)
    piles: dict[str, list[int]] = dataclasses.field(default_factory=dict)
    last: Mark | None = None
    order: tuple[int, ...] = ()


RECS = "recs"  # the module name GameState.ext holds RecState under in these tests
register_state_type(RECS, RecState)


def _value(h: Any, where: str, k: int = 0) -> Any:
    """A test value of declared type ``h`` (k varies it); fails for a type it does not know."""
    origin = typing.get_origin(h)
    if h is bool:
        return True
    if h is int:
        return 7 + k
    if h is str:
        return f"zz{k}"
    if h is float:
        return 0.5 + k
    if h is random.Random:
        r = random.Random(99)
        r.random()
        return r
    if h is tuple:
        return EVENT
    if h is dict or typing.get_origin(h) is dict and typing.get_args(h)[1] is Any:
        return dict(FRAME)
    if origin is dict and typing.get_args(h)[1] is ModuleState:  # GameState.ext: by module name
        return {RECS: _dataclass(RecState, k)}
    if origin is Mapping:
        return {"kind": "test", "amount": 2}
    if origin is typing.Union or isinstance(h, type(int | None)):
        inner = [a for a in typing.get_args(h) if a is not type(None)]
        return _value(inner[0], where, k)
    if origin is tuple:
        args = typing.get_args(h)
        n = 4 if args[-1] is Ellipsis else len(args)
        return tuple(_value(args[0] if args[-1] is Ellipsis else args[i], where, k + i) for i in range(n))
    if origin is list:
        return [_value(typing.get_args(h)[0], where, k + i) for i in range(2)]
    if origin is dict:
        kt, vt = typing.get_args(h)
        return {_value(kt, where, k + i): _value(vt, where, k + i) for i in range(2)}
    if isinstance(h, type) and issubclass(h, tuple) and hasattr(h, "_fields"):
        return _record(h, k)
    if h in (PlayerState, RecState):
        return _dataclass(h, k)
    pytest.fail(f"{where}: no test value for the type {h}: teach _value this type")


def _record(cls: type, k: int = 0) -> Any:
    hints = typing.get_type_hints(cls)
    return cls(*[_value(hints[f], f"{cls.__name__}.{f}", k + i) for i, f in enumerate(cls._fields)])


def _dataclass(cls: type, k: int = 0, **given: Any) -> Any:
    values = {}
    for name, h in type_hints(cls).items():
        values[name] = given[name] if name in given else _value(h, f"{cls.__name__}.{name}", k)
    return cls(**values)


def _full_state() -> GameState:
    """A state whose every field (and every field of its players and records) is not a default."""
    real = new_game(GameConfig(num_players=2, seed=3))
    return _dataclass(
        GameState,
        config=real.config.replace(seed=11),
        pack=real.pack,
        players=[_dataclass(PlayerState, k) for k in range(2)],
        rules=real.rules,
        cache_views={0: "a seat view"},  # derived, never saved or cloned (DERIVED)
    )


# Fields derived from the rest, shared or dropped by clone, pickle and saves (docs/engine.md).
DERIVED = ("pack", "rules", "cache_views")


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def test_every_field_holds_a_non_default_value() -> None:
    s = _full_state()
    objs = ((GameState, s), (PlayerState, s.players[0]), (PlayerState, s.players[1]), (RecState, s.ext[RECS]))
    for cls, obj in objs:
        for f in dataclasses.fields(cls):
            assert getattr(obj, f.name) != _default(f), f"{cls.__name__}.{f.name} holds its default"
    for cls in RECORD_TYPES:
        rec = _record(cls)
        for name in cls._fields:
            default = cls._field_defaults.get(name, dataclasses.MISSING)
            assert getattr(rec, name) != default, f"{cls.__name__}.{name} holds its default"
    # Every record type occurs in the state, so the round trips below cover every record's fields.
    assert {type(r) for r in _records(s)} == {*RECORD_TYPES, Mark}  # Mark: the module state's record


def _records(x: Any) -> list[Any]:
    out = []
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        out.append(x)
    if isinstance(x, (list, tuple)):
        for v in x:
            out += _records(v)
    elif isinstance(x, dict):
        for v in x.values():
            out += _records(v)
    elif isinstance(x, (GameState, PlayerState, ModuleState)):
        for f in dataclasses.fields(x):
            if f.name not in ("config", *DERIVED):
                out += _records(getattr(x, f.name))
    return out


def _same(a: Any, b: Any, where: str) -> None:
    """Equal values of the same types, all the way down (a record is not a plain tuple; an IntEnum
    such as ``phase`` is saved as its int)."""
    if not (isinstance(a, int) and type(b) is int and not isinstance(a, bool)):
        assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (GameState, PlayerState, ModuleState)):
        for f in dataclasses.fields(a):
            if f.name == "rng":
                assert a.rng.getstate() == b.rng.getstate(), f"{where}.rng"
            elif f.name not in DERIVED:
                _same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _mutables(x: Any, out: dict[int, str], where: str) -> None:
    """id -> path of every mutable container reachable from x (the config and the pack are shared
    by design: frozen; a TempModifier's modifier is the pack's, read-only by contract)."""
    if isinstance(x, (list, dict, random.Random)):
        out[id(x)] = where
    if isinstance(x, TempModifier):
        return
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            _mutables(v, out, f"{where}[{i}]")
    elif isinstance(x, dict):
        for key, v in x.items():
            _mutables(v, out, f"{where}.{key}")
    elif isinstance(x, (GameState, PlayerState, ModuleState)):
        out[id(x)] = where
        for f in dataclasses.fields(x):
            if f.name not in ("config", *DERIVED):
                _mutables(getattr(x, f.name), out, f"{where}.{f.name}")


def test_clone_copies_every_field_and_shares_no_mutable_container() -> None:
    s = _full_state()
    c = s.clone()
    _same(s, c, "state")
    assert c.config is s.config and c.pack is s.pack and c.rules is s.rules and c.cache_views is None
    mine: dict[int, str] = {}
    theirs: dict[int, str] = {}
    _mutables(s, mine, "state")
    _mutables(c, theirs, "clone")
    shared = sorted(mine[i] for i in mine.keys() & theirs.keys())
    assert not shared, f"clone shares {shared}"
    c.rng.random()
    assert c.rng.getstate() != s.rng.getstate()


def test_pickle_keeps_every_field() -> None:
    s = _full_state()
    loaded = pickle.loads(pickle.dumps(s))
    s.legal_cache = None  # not pickled: recomputed
    _same(s, loaded, "state")


def test_json_codec_keeps_every_field() -> None:
    s = _full_state()
    data = json.loads(to_json(s))
    sp = data["players"][0]["spells"][0]
    assert sp == {"spell": "zz0", "exhausted": True, "neutralized": "zz2"}  # records as named objects
    loaded = decode_fields(data, s.config, s.pack)
    s.legal_cache = None  # not saved: recomputed
    _same(s, loaded, "state")


def test_a_real_game_round_trips_with_its_records() -> None:
    state = new_game(GameConfig(num_players=3, payment="manual", seed=5))
    rng = random.Random(5)
    seen: set[type] = set()
    while not state.over and len(state.history) < 400:
        seen.update(type(r) for r in _records(state))
        if len(state.history) % 40 == 0:
            loaded = from_json(state.to_json())
            state.legal_actions()
            _same(state, loaded, "state")
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert {CurseOnTrack, SpellSlot, SupportSlot} <= seen


class Slot2(NamedTuple):
    """A record as a module might add it (test only)."""

    card: int
    marks: tuple[int, ...] = ()


@dataclasses.dataclass
class Player2(PlayerState):
    """PlayerState with one more field (test only)."""

    extra: list[Slot2] = dataclasses.field(default_factory=list)


def test_a_new_field_needs_no_edit_of_clone_or_codecs() -> None:
    """A class with one more field (of a record with one more field) clones and round trips."""
    p = Player2("m", extra=[Slot2(3, (1, 2))])
    c = make_clone(Player2)(p)
    assert c == p and c.extra is not p.extra
    hint = type_hints(Player2)["extra"]
    enc, dec = codecs(hint, "Player2.extra")
    assert enc is not None and dec is not None
    back = dec(json.loads(json.dumps(enc(p.extra))))
    assert back == p.extra and type(back[0]) is Slot2 and type(back[0].marks) is tuple


def test_a_type_without_a_rule_is_refused_naming_the_field() -> None:
    with pytest.raises(TypeError, match="Extra.bag: no copy rule"):
        copy_expr(set[int], "v", "Extra.bag", {})
    with pytest.raises(TypeError, match="Extra.bag: no JSON rule"):
        codecs(set[int], "Extra.bag")


def test_crushed_card_leaves_with_its_slot_only_when_uncovered() -> None:
    """V-21: a crushed card stays under its Phobia until the Phobia leaves; it is
    uncovered then, and never pays meanwhile. No base card crushes: this sets one by hand."""
    from bbom_env.engine.payment.cost import usable_support

    state = new_game(GameConfig(num_players=2, seed=1))
    pl = state.players[0]
    pl.support = [SupportSlot(14, crushed=3), SupportSlot(3)]
    assert [(q, s) for q, s, _ in usable_support(state, 0)] == [(0, 1)]  # not the crushed slot
    assert pl.take_support(0) == 14 and pl.support == [SupportSlot(3), SupportSlot(3)]
    assert pl.take_support(0) == 3 and pl.support == [SupportSlot(3)]
    assert SupportSlot(5).crushed == NO_CARD


# -- module states (rules.Module.state_type, GameState.ext) ------------------------------------------


def test_a_module_state_survives_clone_pickle_and_json_and_is_independent_after_clone() -> None:
    s = _full_state()
    st = s.ext[RECS]
    c = s.clone()
    assert c.ext[RECS] == st and c.ext[RECS] is not st and c.ext[RECS].marks is not st.marks
    c.ext[RECS].marks.append(Mark(0))
    c.ext[RECS].piles[next(iter(st.piles))].append(9)
    c.ext[RECS].count += 1
    assert len(st.marks) == 2 and 9 not in next(iter(st.piles.values())) and st.count == 7
    assert c != s  # == reads the saved form, module states included
    back = decode_fields(json.loads(to_json(s)), s.config, s.pack)
    assert type(back.ext[RECS]) is RecState and type(back.ext[RECS].marks[0]) is Mark
    assert back.ext[RECS] == st and pickle.loads(pickle.dumps(s)).ext[RECS] == st


def test_a_base_game_saves_and_pickles_no_module_state() -> None:
    state = new_game(GameConfig(num_players=2, seed=4))
    assert state.ext == {} and "ext" not in json.loads(state.to_json())
    assert "ext" not in state.__getstate__()  # pickles as before module states existed
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.ext == {} and loaded == state and from_json(state.to_json()).ext == {}


def test_check_json_names_the_path_of_a_bad_value() -> None:
    good = json.loads(json.dumps(codecs(RecState, "RecState")[0](_dataclass(RecState))))  # type: ignore[misc]
    check_json(RecState, good, "ext.recs")
    cases = [
        (("marks", 1, "seat"), "x", r"ext\.recs\.marks\[1\]\.seat: expected an int, got 'x'"),
        (("marks", 0), [1, []], r"ext\.recs\.marks\[0\]: expected an object, got \[1, \[\]\]"),
        (("flag",), 1, r"ext\.recs\.flag: expected true or false, got 1"),
        (("order",), "12", r"ext\.recs\.order: expected a list"),
        (("piles", "zz0", 0), None, r"ext\.recs\.piles\.zz0\[0\]: expected an int, got None"),
        (("last",), {"seat": 1}, r"ext\.recs\.last: missing field\(s\) \['tags'\]"),
    ]
    for path, bad, message in cases:
        data = json.loads(json.dumps(good))
        where = data
        for key in path[:-1]:
            where = where[key]
        where[path[-1]] = bad
        with pytest.raises(JSONShapeError, match=message):
            check_json(RecState, data, "ext.recs")
    with pytest.raises(JSONShapeError, match=r"ext\.recs: unknown field\(s\) \['extra'\]"):
        check_json(RecState, {**good, "extra": 1}, "ext.recs")


def test_a_state_type_is_checked_when_its_module_registers() -> None:
    @dataclasses.dataclass
    class NoDefault(ModuleState):
        n: int

    @dataclasses.dataclass
    class BadField(ModuleState):
        bag: set[int] = dataclasses.field(default_factory=set)

    @dataclasses.dataclass
    class NotAState:
        n: int = 0

    with pytest.raises(TypeError, match="every field needs a default"):
        register_state_type("bad", NoDefault)
    with pytest.raises(TypeError, match="BadField.bag: no copy rule"):
        register_state_type("bad", BadField)
    with pytest.raises(TypeError, match="not a dataclass derived from ModuleState"):
        register_state_type("bad", NotAState)
    with pytest.raises(ValueError, match="already has the state type RecState"):
        register_state_type(RECS, BadField)
    assert "bad" not in STATE_TYPES and STATE_TYPES[RECS] is RecState
    unregister_state_type("bad")  # unknown: nothing to do
