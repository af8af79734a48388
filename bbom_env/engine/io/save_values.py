"""The primitive checks of a save (``save_check.py``): each checks one JSON value and raises a
``SaveError`` whose message starts with the value's field path."""

from __future__ import annotations

from typing import Any

from bbom_env.engine.core.state import SaveError
from bbom_env.engine.model.constants import MADNESS, NUM_CODES, code_name
from bbom_env.engine.model.typed import shown as _name


def _int(v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int:  # bool is not an int here, nor is 3.0
        raise SaveError(f"{where}: expected an int, got {_name(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        if hi is None and lo == 0:
            raise SaveError(f"{where}: a count cannot be negative, got {v}")
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SaveError(f"{where}: {v} is out of range ({span})")
    return v


def _seat(v: Any, where: str, n: int, lo: int = 0) -> int:
    if type(v) is not int:
        raise SaveError(f"{where}: expected a seat (an int), got {_name(v)}")
    if not lo <= v < n:
        raise SaveError(f"{where}: seat {v} does not exist ({n} players: seats 0..{n - 1})")
    return v


def _bool(v: Any, where: str) -> bool:
    if type(v) is not bool:
        raise SaveError(f"{where}: expected true or false, got {_name(v)}")
    return v


def _str(v: Any, where: str, allowed: tuple[str, ...] | None = None) -> str:
    if type(v) is not str:
        raise SaveError(f"{where}: expected a string, got {_name(v)}")
    if allowed is not None and v not in allowed:
        raise SaveError(f"{where}: {v!r} is not one of {list(allowed)}")
    return v


def _list(v: Any, where: str, length: int | None = None, most: int | None = None) -> list | tuple:
    # Lists arrive as lists from JSON, as tuples inside frames (from_dict tuplifies those).
    if type(v) not in (list, tuple):
        raise SaveError(f"{where}: expected a list, got {_name(v)}")
    if length is not None and len(v) != length:
        raise SaveError(f"{where}: expected {length} items, got {len(v)}")
    if most is not None and len(v) > most:
        raise SaveError(f"{where}: at most {most} items, got {len(v)}")
    return v


# The base game's card codes: Element cards and Madness (``rules.ruleset(()).card_codes``).
BASE_CODES: frozenset[int] = frozenset(range(MADNESS + 1))


def _code(v: Any, where: str, codes: frozenset[int] = BASE_CODES) -> int:
    """A card code of this game: ``codes`` are its ruleset's (``rules.Ruleset.card_codes``: the
    base game's, plus Dark Matter with the Dark Matter module, Phobias with the Phobia module)."""
    if type(v) is not int or v not in codes:
        if type(v) is int and 0 <= v < NUM_CODES:
            raise SaveError(
                f"{where}: unknown card code {v} ({code_name(v)}): not a card of this game, whose card "
                f"codes are {_codes_text(codes)} (a module's cards need that module in config.modules)"
            )
        raise SaveError(f"{where}: unknown card code {_name(v)} (card codes are {_codes_text(codes)})")
    return v


def _codes_text(codes: frozenset[int]) -> str:
    lo, hi = min(codes), max(codes)
    rest = "" if len(codes) == hi - lo + 1 else " (some only)"
    return f"{lo}..{hi}{rest}"


def _amounts(v: Any, where: str, length: int) -> None:
    """``length`` counts (of cards, of tokens)."""
    for i, n in enumerate(_list(v, where, length)):
        _int(n, f"{where}[{i}]", 0)


def _counts(v: Any, where: str, codes: frozenset[int] = BASE_CODES) -> None:
    """Counts by card code; a card code that is not of this game (``_code``) counts 0."""
    _amounts(v, where, NUM_CODES)
    for i, n in enumerate(v):
        if n and i not in codes:
            _code(i, f"{where}[{i}]", codes)


def _id(v: Any, table: dict, where: str, what: str) -> str:
    if type(v) is not str or v not in table:
        raise SaveError(f"{where}: unknown {what} id {_name(v)} (not in the pack)")
    return v
