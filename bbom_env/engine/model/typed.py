"""Clone and JSON form of the state's fields, derived from their declared types.

``GameState`` and ``PlayerState`` (``state.py``) declare every field with a type; this module turns
each type into a copy rule and a JSON codec once, at import, so that adding a field (or a field of a
record of ``records.py``) needs no edit of ``clone`` or of ``serialize``:

==============================  =====================  ==========================================
declared type                   clone                  JSON
==============================  =====================  ==========================================
int, str, bool, float, None     shared                 as is
records (NamedTuple), tuples    shared (immutable)     an object of its fields / a list
``Mapping`` (read-only)         shared                 as is
frozen dataclass (config, pack) shared                 (``serialize`` names them)
``list[X]``                     a new list, X copied   a list of X
``dict[K, V]``                  a new dict, V copied   an object of V
``dict`` / ``Any`` (frames)     one level (immutable   tuples as lists, records as objects; read
                                values by convention)  back: lists as tuples, records by fields
``X | None``                    None or X copied       null or X
a dataclass                     its generated clone    an object of its saved fields
``random.Random``               a new generator, same  [version, internal state, gauss]
                                state
``dict[str, ModuleState]``      each module's state    an object: module name -> its state's
(``GameState.ext``)             by its own type        object, read back by the module's type
==============================  =====================  ==========================================

A module's own part of the state (``rules.Module.state_type``) is a dataclass derived from
``ModuleState`` whose fields have types of this table; ``register_state_type`` (called by
``rules.register``) compiles its clone and codecs at once, so a field without a rule is refused when
the module registers. ``check_json`` checks saved data against a declared type before
it is decoded (``save_check`` uses it for module states), naming the path of the first bad value.

A type without a rule raises ``TypeError`` naming the class and the field, at import. Saves skip a
field with ``NOT_SAVED`` metadata, and one with ``SAVED_IF_SET`` while it is empty (see both below).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any

from bbom_env.engine.model.records import RECORD_BY_FIELDS, RECORD_TYPES, is_record_type

Coder = Callable[[Any], Any]
Codec = Coder | None  # None: the value is its own JSON form (and back)

_SCALAR_NAMES = {bool: "true or false", int: "an int", float: "a number", str: "a string", type(None): "null"}
_SCALAR_TYPES = frozenset(_SCALAR_NAMES)  # for the per-item tests of the long lists (the log)
# Field metadata of a field that saves do not write (``serialize`` rebuilds it: the pack, named by
# the config; the cache of legal moves, recomputed).
NOT_SAVED: Mapping[str, bool] = {"save": False}
# Field metadata of a field that saves write only when it is not empty (``GameState.ext``: a base
# game has no module state, and its saves stay what they were before module states existed).
SAVED_IF_SET: Mapping[str, bool] = {"save": True, "if_set": True}


class ModuleState:
    """Base class of a module's own part of the game state (``rules.Module.state_type``): derive a
    ``@dataclass`` from it whose every field has a default and a type of the table above (records
    of ``records.py`` or of the module for its sub-parts). The game keeps one instance per module
    in ``GameState.ext[module name]``; clone, pickle, ``==`` and saves come from the field types."""

    __slots__ = ()


# Module name -> its state type (``register_state_type``); read to decode and check saves.
STATE_TYPES: dict[str, type] = {}


_PLAIN_KINDS: dict[Any, str] = {
    **dict.fromkeys(_SCALAR_NAMES, "scalar"),
    **{Mapping: "mapping", Any: "any", tuple: "any", dict: "frame", random.Random: "rng"},
}


def _kind(h: Any) -> tuple[str, Any]:
    """The row of the table above that the declared type ``h`` falls in, shared by the clone, the
    codecs and the check, with its argument: the item type of a list, the value type of a dict,
    the type of an optional, the item types of a tuple (else ``h``)."""
    origin, args = typing.get_origin(h), typing.get_args(h)
    if h in _PLAIN_KINDS:
        return _PLAIN_KINDS[h], h
    if origin is Mapping:
        return "mapping", h
    if typing.is_typeddict(h) or (origin is dict and args[1] is Any):
        return "frame", h  # a dict of immutable values by convention
    if is_record_type(h):
        return "record", h
    if origin is tuple:
        return "tuple", args
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"only `X | None` unions are supported, got {h}")
        return "optional", rest[0]
    if origin is list:
        return "list", args[0]
    if origin is dict:  # dict[str, ModuleState]: GameState.ext, each value by its own type
        return "states" if args[1] is ModuleState else "dict", args[1]
    if dataclasses.is_dataclass(h) and isinstance(h, type):
        return "dataclass", h
    return "none", h


def type_hints(cls: type) -> dict[str, Any]:
    """The resolved type of every dataclass field of ``cls``."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def saved_fields(cls: type) -> dict[str, Any]:
    """The fields of dataclass ``cls`` that saves write, with their types."""
    hints = type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.metadata.get("save", True)}


@functools.cache
def object_fields(h: type) -> tuple[dict[str, Any], frozenset[str]]:
    """The saved fields of a record or a dataclass with their types, and those that may be absent
    (a dataclass field written only when set)."""
    if is_record_type(h):
        return typing.get_type_hints(h), frozenset()  # its fields, in order
    return saved_fields(h), frozenset(f.name for f in dataclasses.fields(h) if f.metadata.get("if_set"))


# A codec of a container from that of its items: ``wrap(codec)``; a frame: its values as ``Any``.
_WRAPS: dict[str, Callable[[Coder], Coder]] = {
    "optional": lambda f: lambda v: None if v is None else f(v),
    "list": lambda f: lambda v: [f(x) for x in v],
    "dict": lambda f: lambda v: {k: f(x) for k, x in v.items()},
    "frame": lambda f: lambda v: {k: x if type(x) in _SCALAR_TYPES else f(x) for k, x in v.items()},
}


# -- clone ---------------------------------------------------------------------------------------


def _copy_rng(r: random.Random) -> random.Random:
    c = random.Random()
    c.setstate(r.getstate())
    return c


def copy_expr(h: Any, v: str, where: str, refs: dict[str, Any], depth: int = 0) -> str | None:
    """Python source that copies the value ``v`` (source text) of declared type ``h`` so that no
    mutable container is shared; None when the value is shared as it is. Names the source uses
    are added to ``refs``."""
    kind, arg = _kind(h)
    x, k = f"x{depth}", f"k{depth}"
    if kind in ("scalar", "mapping", "any", "record", "tuple"):
        return None
    if kind == "rng":
        refs["_copy_rng"] = _copy_rng
        return f"_copy_rng({v})"
    if kind == "frame":
        return f"{v}.copy()"
    if kind == "optional":
        inner = copy_expr(arg, v, where, refs, depth)
        return None if inner is None else f"(None if {v} is None else {inner})"
    if kind == "states":  # each by the clone of its own type; empty in a base game, which then
        refs["_clone_state"] = lambda s: _CLONES[type(s)](s)  # pays one test, not a comprehension
        return f"({{{k}: _clone_state({x}) for {k}, {x} in {v}.items()}} if {v} else {{}})"
    if kind in ("list", "dict"):
        inner = copy_expr(arg, x, where, refs, depth + 1)
        each = (
            f"[{inner} for {x} in {v}]" if kind == "list" else f"{{{k}: {inner} for {k}, {x} in {v}.items()}}"
        )
        return f"{v}.copy()" if inner is None else each
    if kind == "dataclass":
        if h.__dataclass_params__.frozen:  # config, pack: shared
            return None
        name = f"clone_{h.__name__}"
        refs[name] = _CLONES[h] if h in _CLONES else make_clone(h)
        return f"{name}({v})"
    raise TypeError(f"{where}: no copy rule for the type {h}")


_CLONES: dict[type, Coder] = {}  # the clone function made for each class


def make_clone(cls: type) -> Coder:
    """A ``clone`` function for dataclass ``cls``: every field copied by the rule of its declared
    type. Its code is generated once (as ``dataclasses`` generates ``__init__``): straight-line,
    as fast as a hand-written clone, and never out of date with the fields."""
    refs: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = ["def clone(self):", "    c = new(cls)"]
    # One attribute assignment per field, in field order (as a hand-written clone does: the
    # instance keeps CPython's compact attribute storage, which a replaced __dict__ would lose).
    for name, h in type_hints(cls).items():
        value = f"self.{name}"
        lines.append(f"    c.{name} = {copy_expr(h, value, f'{cls.__name__}.{name}', refs) or value}")
    source = "\n".join([*lines, "    return c", ""])
    exec(compile(source, f"<clone of {cls.__name__}>", "exec"), refs)  # noqa: S102
    clone: Coder = refs["clone"]
    clone.__doc__ = f"A copy of this {cls.__name__} sharing no mutable container (fields copied by type)."
    clone.source = source  # type: ignore[attr-defined]  # for reading what was generated
    _CLONES[cls] = clone
    return clone


# -- JSON ------------------------------------------------------------------------------------------


def _rng_to_json(r: random.Random) -> list[Any]:
    version, internal, gauss = r.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(v: list[Any]) -> random.Random:
    r = random.Random()
    r.setstate((v[0], tuple(v[1]), v[2]))
    return r


def _any_to_json(v: Any) -> Any:
    """A value of undeclared type (a frame value, a log entry's data): tuples as lists, records as
    objects of their fields."""
    codec = _RECORD_CODECS.get(type(v))
    if codec is not None:
        return codec[0](v)
    if isinstance(v, (tuple, list)):
        return [x if type(x) in _SCALAR_TYPES else _any_to_json(x) for x in v]
    return v


def _any_from_json(v: Any) -> Any:
    """The inverse of ``_any_to_json``: lists as tuples, objects as the record their field names
    name (``records.RECORD_BY_FIELDS``). Any other object stays a dict (the event log's data is
    checked for type only; ``save_check`` has checked every frame value)."""
    if type(v) is list:
        return tuple([x if type(x) in _SCALAR_TYPES else _any_from_json(x) for x in v])
    if type(v) is dict:
        cls = RECORD_BY_FIELDS.get(frozenset(v))
        return v if cls is None else _RECORD_CODECS[cls][1](v)
    return v


_RECORD_CODECS: dict[type, tuple[Coder, Coder]] = {}  # for the records in values of type Any


@functools.cache
def _object_codecs(cls: type) -> tuple[Coder, Coder]:
    """A record or a dataclass: an object of its saved fields, each by the codecs of its type."""
    if hasattr(cls, "to_dict") and hasattr(cls, "from_dict"):  # GameConfig: its own
        return cls.to_dict, cls.from_dict
    fields = tuple((n, *codecs(h, f"{cls.__name__}.{n}")) for n, h in object_fields(cls)[0].items())

    def to_json(obj: Any) -> Any:
        return {n: getattr(obj, n) if e is None else e(getattr(obj, n)) for n, e, _ in fields}

    def from_json(v: Any) -> Any:
        return cls(**{n: v[n] if dec is None else dec(v[n]) for n, _, dec in fields})

    if is_record_type(cls):
        _RECORD_CODECS[cls] = to_json, from_json
    return to_json, from_json


def codecs(h: Any, where: str) -> tuple[Codec, Codec]:
    """How to write a value of declared type ``h`` as JSON data, and how to read it back (each
    None: as it is)."""
    kind, arg = _kind(h)
    if kind in ("scalar", "mapping"):
        return None, None
    if kind == "any":  # an undeclared value: tuples as lists, records as objects
        return _any_to_json, _any_from_json
    if kind == "frame":
        return _WRAPS[kind](_any_to_json), _WRAPS[kind](_any_from_json)
    if kind in ("record", "dataclass"):
        return _object_codecs(h)
    if kind == "rng":
        return _rng_to_json, _rng_from_json
    if kind == "tuple":
        if any(c for a in arg if a is not Ellipsis for c in codecs(a, where)):
            raise TypeError(f"{where}: tuples of records or containers are not supported ({h})")
        return list, tuple
    if kind == "states":  # the key names the type
        states = _WRAPS["dict"](lambda s: _object_codecs(type(s))[0](s))  # type: ignore[arg-type]
        return states, lambda v: {name: _object_codecs(STATE_TYPES[name])[1](d) for name, d in v.items()}
    if kind not in ("optional", "list", "dict"):
        raise TypeError(f"{where}: no JSON rule for the type {h}")
    enc, dec = codecs(arg, where)  # None (as it is) stays None
    return None if enc is None else _WRAPS[kind](enc), None if dec is None else _WRAPS[kind](dec)


# Every record type, also those no field declares (payment sources live in frames, typed Any).
for _t in RECORD_TYPES:
    _object_codecs(_t)


# -- module states ---------------------------------------------------------------------------------


def register_state_type(module: str, cls: type) -> None:
    """Make module ``module``'s state type known: its clone and JSON codecs are compiled now, so a
    field whose type has no rule is refused here (TypeError naming the class and the field), and
    its default instance must round-trip through ``check_json`` and the codecs."""

    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and issubclass(cls, ModuleState)):
        raise TypeError(f"module {module!r}: state_type {cls!r} is not a dataclass derived from ModuleState")
    old = STATE_TYPES.get(module)
    if old is not None and old is not cls:
        raise ValueError(f"module {module!r} already has the state type {old.__name__}")
    try:
        default = cls()
    except TypeError as exc:
        raise TypeError(
            f"module {module!r}: {cls.__name__}() must work: every field needs a default ({exc})"
        ) from None
    clone = _CLONES[cls] if cls in _CLONES else make_clone(cls)
    codecs = _object_codecs(cls)  # type: ignore[arg-type]  # (a class is hashable)
    try:
        data = json.loads(json.dumps(codecs[0](default)))
        check_json(cls, data, f"{cls.__name__}()")
        same = codecs[1](data) == default and clone(default) == default
    except (AttributeError, TypeError, ValueError) as exc:
        raise TypeError(f"module {module!r}: {cls.__name__}() cannot be saved: {exc}") from None
    if not same:
        raise TypeError(f"module {module!r}: {cls.__name__}() does not survive its clone and JSON codecs")
    STATE_TYPES[module] = cls


def unregister_state_type(module: str) -> None:
    STATE_TYPES.pop(module, None)


class JSONShapeError(ValueError):
    """Saved data that does not fit its declared type; the message starts with the value's path."""


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: an error message stays one short line."""
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits has no repr
        return f"<an int of {value.bit_length()} bits>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_object(v: Any, where: str, keys: Collection[str], optional: frozenset[str] = frozenset()) -> dict:
    """``v`` is an object of exactly the keys ``keys`` (those of ``optional`` may be absent)."""
    if type(v) is not dict:
        raise JSONShapeError(f"{where}: expected an object, got {shown(v)}")
    missing = sorted(set(keys) - optional - set(v))
    if missing:
        raise JSONShapeError(f"{where}: missing field(s) {missing}")
    extra = sorted(map(str, set(v) - set(keys)))
    if extra:
        raise JSONShapeError(f"{where}: unknown field(s) {extra}; known: {sorted(keys)}")
    return v


def check_json(h: Any, v: Any, where: str) -> None:
    """Check that ``v`` (parsed JSON) is what the codec of ``codecs(h)`` reads: the right JSON
    types all the way down, records and dataclasses as objects of exactly their fields. Raises
    ``JSONShapeError`` whose message starts with the path of the first bad value
    (``ext.toy.omens[2].element: expected an int, got 'x'``). Ranges and ids are the module's
    invariants' business, not the type's."""
    kind, arg = _kind(h)
    if kind == "scalar":  # an int is a number too
        if not (type(v) is h or (h is float and type(v) is int)):
            raise JSONShapeError(f"{where}: expected {_SCALAR_NAMES[h]}, got {shown(v)}")
    elif kind in ("any", "mapping", "frame"):
        return  # undeclared values: the codec takes any JSON (frames are checked by their schema)
    elif kind == "optional":
        if v is not None:
            check_json(arg, v, where)
    elif kind in ("list", "tuple", "dict"):
        _check_items(kind, arg, v, where)
    elif kind in ("record", "dataclass"):
        fields, optional = object_fields(h)
        check_object(v, where, fields, optional)
        for name, t in fields.items():
            if name in v:
                check_json(t, v[name], f"{where}.{name}")
    else:
        raise TypeError(f"{where}: no check rule for the type {h}")


def _check_items(kind: str, arg: Any, v: Any, where: str) -> None:
    """A dict (an object), a list, or a tuple of its declared length (written as a list), each item
    checked."""
    if kind == "dict":
        if type(v) is not dict:
            raise JSONShapeError(f"{where}: expected an object, got {shown(v)}")
        for k, x in v.items():
            check_json(arg, x, f"{where}.{k}")
        return
    if type(v) is not list:
        raise JSONShapeError(f"{where}: expected a list, got {shown(v)}")
    args = (arg, Ellipsis) if kind == "list" else arg
    same = len(args) == 2 and args[1] is Ellipsis  # one type for every item
    if not same and len(v) != len(args):
        raise JSONShapeError(f"{where}: expected {len(args)} items, got {len(v)}")
    if same and all(type(x) is args[0] for x in v):
        return  # a long list of scalars (a history) in one pass
    for i, x in enumerate(v):
        check_json(args[0] if same else args[i], x, f"{where}[{i}]")
