"""The flat move layout: every engine move is one integer id (design decision 5).

Ids are built from named, contiguous blocks whose sizes come from the maxima in ``constants``
(never hand-kept offsets, STYLE.md section 4.2). Arguments are chosen so that an id means the same
thing from every seat:

* players are seat offsets from the decider (0 = the decider, 1 = the next player clockwise ...);
* hand, discard and payment cards are chosen by card code (equal cards are interchangeable);
* support cards by (seat offset, slot); Spells by their index in the relevant player's Spell row;
  Curses by (track slot, stack position from the top).

The base-game blocks come first so their offsets do not move when modules append blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constants import (
    ELEMENT_NAMES,
    MAX_PLAYERS,
    MAX_SPELLS,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_CODES,
    NUM_TRACK_SLOTS,
    code_name,
)

# (name, size, argument description). Order is the layout order.
BASE_BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("END", 1, "end the Action phase / stop taking granted Actions"),
    ("ACTIVATE", MAX_SPELLS * 3, "spell index * 3 + (X - 1)"),
    ("LEARN", 4, "Library pile (Element)"),
    ("ACQUIRE", 8, "Element * 2 + (value - 2)"),
    ("DESTROY_CURSE", NUM_TRACK_SLOTS * MAX_STACK, "track slot * MAX_STACK + stack position"),
    ("CURE_HAND", NUM_CODES, "card code of the Madness in your hand"),
    ("CURE_SUPPORT", MAX_PLAYERS * MAX_SUPPORT_SLOTS, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    ("ABILITY", 1, "use your Magician's activated ability"),
    ("PAY_HAND", NUM_CODES, "card code from your hand"),
    ("PAY_SUPPORT", MAX_PLAYERS * MAX_SUPPORT_SLOTS, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    ("PAY_CONFIRM", 1, "confirm the payment"),
    ("PAY_CANCEL", 1, "cancel the Action"),
    ("PICK_HAND", NUM_CODES, "card code from your hand"),
    ("PICK_DISCARD", NUM_CODES, "card code from your discard pile"),
    ("PICK_SUPPORT", MAX_PLAYERS * MAX_SUPPORT_SLOTS, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    ("PICK_PLAYER", MAX_PLAYERS, "seat offset"),
    ("PICK_CURSE", NUM_TRACK_SLOTS * MAX_STACK, "track slot * MAX_STACK + stack position"),
    ("PICK_SPELL", MAX_SPELLS, "spell index"),
    ("PICK_ELEMENT", 4, "Element"),
    ("ACCEPT", 1, "yes (use the optional effect)"),
    ("DECLINE", 1, "no / stop / skip"),
)


@dataclass(frozen=True)
class Block:
    name: str
    start: int
    size: int
    arg: str


def _build(blocks: tuple[tuple[str, int, str], ...]) -> tuple[dict[str, Block], int]:
    out: dict[str, Block] = {}
    start = 0
    for name, size, arg in blocks:
        out[name] = Block(name, start, size, arg)
        start += size
    return out, start


BLOCKS, NUM_BASE_MOVES = _build(BASE_BLOCKS)

# Offsets as module constants: the hot paths add an argument to these.
END = BLOCKS["END"].start
ACTIVATE = BLOCKS["ACTIVATE"].start
LEARN = BLOCKS["LEARN"].start
ACQUIRE = BLOCKS["ACQUIRE"].start
DESTROY_CURSE = BLOCKS["DESTROY_CURSE"].start
CURE_HAND = BLOCKS["CURE_HAND"].start
CURE_SUPPORT = BLOCKS["CURE_SUPPORT"].start
ABILITY = BLOCKS["ABILITY"].start
PAY_HAND = BLOCKS["PAY_HAND"].start
PAY_SUPPORT = BLOCKS["PAY_SUPPORT"].start
PAY_CONFIRM = BLOCKS["PAY_CONFIRM"].start
PAY_CANCEL = BLOCKS["PAY_CANCEL"].start
PICK_HAND = BLOCKS["PICK_HAND"].start
PICK_DISCARD = BLOCKS["PICK_DISCARD"].start
PICK_SUPPORT = BLOCKS["PICK_SUPPORT"].start
PICK_PLAYER = BLOCKS["PICK_PLAYER"].start
PICK_CURSE = BLOCKS["PICK_CURSE"].start
PICK_SPELL = BLOCKS["PICK_SPELL"].start
PICK_ELEMENT = BLOCKS["PICK_ELEMENT"].start
ACCEPT = BLOCKS["ACCEPT"].start
DECLINE = BLOCKS["DECLINE"].start


def num_moves(modules: tuple[str, ...] = ()) -> int:
    """Size of the flat move space for a module set (base game: no module)."""
    if modules:
        raise NotImplementedError("module blocks arrive with the Vth Element issue")
    return NUM_BASE_MOVES


def support_arg(offset: int, slot: int) -> int:
    return offset * MAX_SUPPORT_SLOTS + slot


def curse_arg(slot: int, pos: int) -> int:
    return slot * MAX_STACK + pos


def decode(move: int) -> tuple[str, int]:
    """(block name, argument) of a move id; ValueError when out of range."""
    for block in BLOCKS.values():
        if block.start <= move < block.start + block.size:
            return block.name, move - block.start
    raise ValueError(f"move id {move} is outside the layout (0..{NUM_BASE_MOVES - 1})")


def _arg_text(name: str, arg: int) -> str:
    if name in ("END", "PAY_CONFIRM", "PAY_CANCEL", "ACCEPT", "DECLINE", "ABILITY"):
        return ""
    if name == "ACTIVATE":
        return f"spell#{arg // 3} X={arg % 3 + 1}"
    if name in ("LEARN", "PICK_ELEMENT"):
        return ELEMENT_NAMES[arg]
    if name == "ACQUIRE":
        return f"{ELEMENT_NAMES[arg // 2]}-{arg % 2 + 2}"
    if name in ("DESTROY_CURSE", "PICK_CURSE"):
        return f"slot{arg // MAX_STACK} pos{arg % MAX_STACK}"
    if name in ("CURE_HAND", "PAY_HAND", "PICK_HAND", "PICK_DISCARD"):
        return code_name(arg)
    if name in ("CURE_SUPPORT", "PAY_SUPPORT", "PICK_SUPPORT"):
        return f"seat+{arg // MAX_SUPPORT_SLOTS} slot{arg % MAX_SUPPORT_SLOTS}"
    if name == "PICK_PLAYER":
        return f"seat+{arg}"
    if name == "PICK_SPELL":
        return f"spell#{arg}"
    return str(arg)


def move_to_string(move: int) -> str:
    """Seat-independent name of a move id, e.g. ``ACQUIRE(fire-3)``."""
    name, arg = decode(move)
    text = _arg_text(name, arg)
    return f"{name}({text})" if text else name


def layout_table() -> list[tuple[str, int, int, str]]:
    """Rows (block, first id, size, argument) for the generated docs."""
    return [(b.name, b.start, b.size, b.arg) for b in BLOCKS.values()]
