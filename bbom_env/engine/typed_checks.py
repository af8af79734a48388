"""Checking saved data against a declared type (the types of ``typed_fields``' table): before a
save's module state is decoded (``save_check``), ``check_json`` walks it with its declared type
and names the path of the first value that does not fit (``ext.toy.omens[2].element: expected an
int, got 'x'``), so a bad save is refused with its field named rather than failing in a codec.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from .records import is_record_type
from .typed_fields import _args, _inner_optional, _is_frame_dict, _is_optional, saved_fields


class JSONShapeError(ValueError):
    """Saved data that does not fit its declared type; the message starts with the value's path."""


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _object(v: Any, where: str, keys: tuple[str, ...], optional: frozenset[str] = frozenset()) -> dict:
    if type(v) is not dict:
        raise JSONShapeError(f"{where}: expected an object, got {_shown(v)}")
    missing = [k for k in keys if k not in v and k not in optional]
    if missing:
        raise JSONShapeError(f"{where}: missing field(s) {missing}")
    extra = sorted(map(str, set(v) - set(keys)))
    if extra:
        raise JSONShapeError(f"{where}: unknown field(s) {extra}; known: {sorted(keys)}")
    return v


_SCALAR_NAMES = {bool: "true or false", int: "an int", float: "a number", str: "a string"}


def check_json(h: Any, v: Any, where: str) -> None:
    """Check that ``v`` (parsed JSON) is what the codec of ``decoder(h)`` reads: the right JSON
    types all the way down, records and dataclasses as objects of exactly their fields. Raises
    ``JSONShapeError`` whose message starts with the path of the first bad value
    (``ext.toy.omens[2].element: expected an int, got 'x'``). Ranges and ids are the module's
    invariants' business, not the type's."""
    origin = typing.get_origin(h)
    if h in _SCALAR_NAMES or h is type(None):
        _check_scalar(h, v, where)
    elif h is Any or h is tuple or h is Mapping or origin is Mapping or _is_frame_dict(h):
        return  # undeclared values: the codec takes any JSON (frames are checked by their schema)
    elif _is_optional(h):
        if v is not None:
            check_json(_inner_optional(h), v, where)
    elif is_record_type(h):
        hints = typing.get_type_hints(h)
        _object(v, where, h._fields)
        for name in h._fields:
            check_json(hints[name], v[name], f"{where}.{name}")
    elif origin is list or origin is tuple:
        _check_sequence(h, origin, v, where)
    elif origin is dict:
        if type(v) is not dict:
            raise JSONShapeError(f"{where}: expected an object, got {_shown(v)}")
        for k, x in v.items():
            check_json(_args(h)[1], x, f"{where}.{k}")
    elif dataclasses.is_dataclass(h) and isinstance(h, type):
        _check_dataclass(h, v, where)
    else:
        raise TypeError(f"{where}: no check rule for the type {h}")


def _check_scalar(h: Any, v: Any, where: str) -> None:
    """bool, int, float (an int is a number too), str, or None (null)."""
    if h is type(None):
        if v is not None:
            raise JSONShapeError(f"{where}: expected null, got {_shown(v)}")
    elif not (type(v) is h or (h is float and type(v) is int)):
        raise JSONShapeError(f"{where}: expected {_SCALAR_NAMES[h]}, got {_shown(v)}")


def _check_sequence(h: Any, origin: Any, v: Any, where: str) -> None:
    """A list, or a tuple (written as a list) of its declared length, each item checked."""
    if type(v) is not list:
        raise JSONShapeError(f"{where}: expected a list, got {_shown(v)}")
    args = _args(h)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis) and len(v) != len(args):
        raise JSONShapeError(f"{where}: expected {len(args)} items, got {len(v)}")
    for i, x in enumerate(v):
        check_json(args[0] if origin is list or args[-1] is Ellipsis else args[i], x, f"{where}[{i}]")


def _check_dataclass(h: type, v: Any, where: str) -> None:
    """An object of exactly the saved fields (those written only when set may be absent)."""
    fields = saved_fields(h)
    optional = frozenset(f.name for f in dataclasses.fields(h) if f.metadata.get("if_set"))
    _object(v, where, tuple(fields), optional)
    for name, t in fields.items():
        if name in v:
            check_json(t, v[name], f"{where}.{name}")
