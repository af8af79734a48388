"""Shared pieces of the command lines (``python -m bbom_env.play``, ``bbom_env.cards``, benchmarks/):
argparse types that check ranges and card packs (a bad value is an argparse error: exit 2, one line
naming the value, no traceback) and ``run``, which turns a closed pipe (``... | head -1``) into a
quiet exit 0.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from bbom_env.engine.cards.pack import NAMED_PACKS


def int_range(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: an int in ``lo..hi`` (``hi`` None: no upper bound)."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < lo or (hi is not None and v > hi):
            bound = f"at least {lo}" if hi is None else f"in {lo}..{hi}"
            what = "is negative" if v < 0 <= lo else "is out of range"
            raise argparse.ArgumentTypeError(f"{v} {what}: must be {bound}")
        return v

    parse.__name__ = "int"  # argparse names the type in some messages
    return parse


def float_range(lo: float, hi: float | None = None, lo_open: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite float >= ``lo`` (> ``lo`` with ``lo_open``), <= ``hi``."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        low_ok = v > lo if lo_open else v >= lo
        if not math.isfinite(v) or not low_ok or (hi is not None and v > hi):
            bound = f"{'>' if lo_open else '>='} {lo:g}" + ("" if hi is None else f" and <= {hi:g}")
            raise argparse.ArgumentTypeError(f"{text} is out of range: must be a finite number {bound}")
        return v

    parse.__name__ = "float"
    return parse


def comma_list(allowed: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse ``type``: a comma-separated list of names from ``allowed`` (kept as the text)."""

    def parse(text: str) -> str:
        bad = [t for t in text.split(",") if t not in allowed]
        if bad:
            raise argparse.ArgumentTypeError(f"unknown name {bad[0]!r}; choose from {', '.join(allowed)}")
        return text

    return parse


def modules(text: str) -> tuple[str, ...]:
    """An argparse ``type``: registered rules modules, comma-separated ("" for none), as a tuple
    for ``GameConfig.modules``; an unknown name is refused with the registered ones."""
    from bbom_env.engine.core.config import ConfigError, GameConfig

    names = tuple(t for t in text.split(",") if t)
    try:
        GameConfig(modules=names)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(" ".join(str(exc).split())) from None
    return names


def add_switch_option(ap: argparse.ArgumentParser) -> None:
    """``--switch NAME=VALUE`` (repeatable, into ``switches``: a list of (name, value) pairs)."""
    ap.add_argument(
        "--switch",
        dest="switches",
        action="append",
        type=switch,
        metavar="NAME=VALUE",
        help="a module's rules switch, NAME=VALUE (e.g. cure_cost_mode=cards, docs/rules_decisions.md); "
        "repeat for more; needs its module in --modules",
    )


def switch(text: str) -> tuple[str, object]:
    """An argparse ``type``: ``NAME=VALUE`` for a registered module's rules switch
    (``GameConfig.known_names``); VALUE read as true/false, an int, else the text. Whether the
    value is allowed is the config's to say (it needs the game's modules)."""
    from bbom_env.engine.core.config import GameConfig

    name, eq, value = text.partition("=")
    switches = GameConfig.switch_names()
    if not eq or name not in switches:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, NAME one of {', '.join(switches)}")
    parsed: object = {"true": True, "false": False}.get(value.lower(), value)
    if isinstance(parsed, str) and value.lstrip("-").isdigit():
        parsed = int(value)
    return name, parsed


PACK_HELP = f"a named pack ({', '.join(NAMED_PACKS)}) or the path of a .toml card-pack file"


def pack(text: str) -> str:
    """An argparse ``type``: a card pack that loads (a named pack or a pack file); an unknown name
    is refused with the list of named packs (the loader's message)."""
    from bbom_env.engine import PackError, load_pack

    try:
        load_pack(text)
    except (PackError, OSError) as exc:
        raise argparse.ArgumentTypeError(" ".join(str(exc).split())) from None
    return text


@contextlib.contextmanager
def json_stdout(json_mode: bool) -> Iterator[TextIO]:
    """``with json_stdout(args.json) as out:``: with --json, stdout carries the JSON alone, so that
    ``script --json | jq`` reads it: what the block prints goes to stderr, and the JSON is printed
    with ``print(..., file=out)`` (the real stdout). Without --json nothing changes."""
    out = sys.stdout
    if not json_mode:
        yield out
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield out


def run(main: Callable[[], int | None]) -> int:
    """Run a command line's ``main`` and return its exit status; a reader that closed the pipe
    (``... | head -1``) ends it quietly with status 0, Ctrl-C with 130."""
    try:
        status = main()
        sys.stdout.flush()  # inside the try: a closed pipe fails here, not at interpreter exit
        return int(status or 0)
    except BrokenPipeError:
        _stdout_gone()
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _stdout_gone() -> None:
    """Send the rest of the output nowhere, so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (tests capture it)
        pass
