"""The flat move layout: every engine move is one integer id (design decision 5).

Ids are built from named, contiguous blocks whose sizes come from the maxima in ``constants``
(never hand-kept offsets, design decision 5); each block has a typed argument
(``move_args``), so an id means the same thing from every seat. ``decode(id)`` gives a ``Move``
(block name, typed argument).

The base game's blocks come first; a module's blocks (registered with ``register_blocks``) are
appended after them in module order, so the base offsets never move and every module set has its
own layout (``layout(modules)``), the same size for 2 to 5 players.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from bbom_env.engine.model import move_args as A
from bbom_env.engine.model.constants import MAX_STACK, MAX_SUPPORT_SLOTS

BASE = "base"
NO_ARGS = A.NoArg()


@dataclass(frozen=True)
class BlockSpec:
    """A block as a module declares it: name, argument kind, what the argument means."""

    name: str
    kind: A.ArgKind
    meaning: str


@dataclass(frozen=True)
class Block:
    """A block placed in a layout: where it starts and which module added it."""

    name: str
    start: int
    size: int
    arg: str
    kind: A.ArgKind
    module: str


class Move(NamedTuple):
    """A decoded move id: the block's name and its typed argument (a ``move_args`` NamedTuple)."""

    block: str
    args: Any

    def __str__(self) -> str:
        text = str(self.args)
        return f"{self.block}({text})" if text else self.block


# Order is the layout order.
BASE_BLOCKS: tuple[BlockSpec, ...] = (
    BlockSpec("END", A.NO_ARG, "end the Action phase / stop taking granted Actions"),
    BlockSpec("ACTIVATE", A.SPELL_POWER, "spell index * 3 + (X - 1)"),
    BlockSpec("LEARN", A.ELEMENT, "Library pile (Element)"),
    BlockSpec("ACQUIRE", A.ELEMENT_VALUE, "Element * 2 + (value - 2)"),
    BlockSpec("DESTROY_CURSE", A.CURSE, "track slot * MAX_STACK + stack position"),
    BlockSpec("CURE_HAND", A.CARD, "card code of the Madness in your hand"),
    BlockSpec("CURE_SUPPORT", A.SUPPORT, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    BlockSpec("ABILITY", A.NO_ARG, "use your Magician's activated ability"),
    BlockSpec("PAY_HAND", A.CARD, "card code from your hand"),
    BlockSpec("PAY_SUPPORT", A.SUPPORT, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    BlockSpec("PAY_CONFIRM", A.NO_ARG, "confirm the payment"),
    BlockSpec("PAY_CANCEL", A.NO_ARG, "cancel the Action"),
    BlockSpec("PICK_HAND", A.CARD, "card code from your hand"),
    BlockSpec("PICK_DISCARD", A.CARD, "card code from your discard pile"),
    BlockSpec("PICK_SUPPORT", A.SUPPORT, "seat offset * MAX_SUPPORT_SLOTS + slot"),
    BlockSpec("PICK_PLAYER", A.SEAT, "seat offset"),
    BlockSpec("PICK_CURSE", A.CURSE, "track slot * MAX_STACK + stack position"),
    BlockSpec("PICK_SPELL", A.SPELL_INDEX, "spell index"),
    BlockSpec("PICK_ELEMENT", A.ELEMENT, "Element"),
    BlockSpec("ACCEPT", A.NO_ARG, "yes (use the optional effect)"),
    BlockSpec("DECLINE", A.NO_ARG, "no / stop / skip"),
)

# Blocks of each module, in the order modules registered them; the base game's first.
MODULE_BLOCKS: dict[str, tuple[BlockSpec, ...]] = {BASE: BASE_BLOCKS}


def register_blocks(module: str, specs: tuple[BlockSpec, ...]) -> None:
    """Declare a module's blocks (appended after the base blocks in layouts that include it)."""
    if module in MODULE_BLOCKS and MODULE_BLOCKS[module] != specs:
        raise ValueError(f"module {module!r} already registered other blocks")
    taken = {b.name for m, specs_ in MODULE_BLOCKS.items() if m != module for b in specs_}
    clash = taken & {b.name for b in specs}
    if clash:
        raise ValueError(f"module {module!r}: block names already used: {sorted(clash)}")
    MODULE_BLOCKS[module] = specs
    layout.cache_clear()


class Layout:
    """The blocks of one module set, in id order, and the maps between ids and ``Move``s."""

    def __init__(self, modules: tuple[str, ...]) -> None:
        unknown = [m for m in modules if m not in MODULE_BLOCKS or m == BASE]
        if unknown:
            known = sorted(m for m in MODULE_BLOCKS if m != BASE)
            raise ValueError(f"unknown module(s) {unknown}: registered modules are {known or 'none'}")
        self.modules = modules
        blocks: list[Block] = []
        start = 0
        for module in (BASE, *modules):
            for spec in MODULE_BLOCKS[module]:
                blocks.append(Block(spec.name, start, spec.kind.size, spec.meaning, spec.kind, module))
                start += spec.kind.size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.by_name: dict[str, Block] = {b.name: b for b in blocks}
        self.size = start
        # Block of every id: decode is a table look-up, not a search.
        self._block_of: tuple[Block, ...] = tuple(b for b in blocks for _ in range(b.size))
        # Moves are immutable: each id's Move is built once (decode is on the path of every move).
        self._moves: tuple[Move, ...] = tuple(
            Move(b.name, b.kind.from_index(i - b.start)) for i, b in enumerate(self._block_of)
        )

    def decode(self, move: int) -> Move:
        """The ``Move`` of an id; ValueError when it is outside the layout."""
        if not 0 <= move < self.size:
            raise ValueError(f"move id {move} is outside the layout (0..{self.size - 1})")
        return self._moves[move]

    def encode(self, block: str, args: Any = NO_ARGS) -> int:
        """The id of a block and typed argument; ValueError for an unknown block or a bad argument."""
        b = self.by_name.get(block)
        if b is None:
            raise ValueError(f"unknown move block {block!r} in layout {(BASE, *self.modules)}")
        i = b.kind.to_index(args)
        if not 0 <= i < b.size or b.kind.from_index(i) != args:
            raise ValueError(f"{block}: argument {args!r} is outside the block")
        return b.start + i

    def table(self) -> list[tuple[str, int, int, str]]:
        """Rows (block, first id, size, argument meaning) for the generated docs."""
        return [(b.name, b.start, b.size, b.arg) for b in self.blocks]


def canonical_modules(modules: tuple[str, ...]) -> tuple[str, ...]:
    """A module set in its canonical order, sorted by name (the base game always comes first and
    is never named): the order of the move blocks, the observation sections, the module set-up
    steps and the saves. Anything but a tuple of str is returned as given (``validate`` refuses it)."""
    if all(isinstance(m, str) for m in modules):
        return tuple(sorted(modules))
    return modules


@cache
def layout(modules: tuple[str, ...] = ()) -> Layout:
    """The layout of a module set, in its canonical order whatever order it is given in (sorted by
    name, as ``canonical_modules``: a module set is a set)."""
    return Layout(canonical_modules(tuple(modules)))


BLOCKS: dict[str, Block] = layout(()).by_name
NUM_BASE_MOVES = layout(()).size

# Offsets as module constants: the hot paths add an argument to these.
END = BLOCKS["END"].start
LEARN = BLOCKS["LEARN"].start
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


@cache
def block_start(block: str, modules: tuple[str, ...]) -> int:
    """The first move id of a block in the layout of ``modules`` (a module's Action block: its
    menu asks on every query), looked up once per block and module set."""
    return layout(modules).by_name[block].start


def num_moves(modules: tuple[str, ...] = ()) -> int:
    """Size of the flat move space for a module set (base game: no module)."""
    return layout(tuple(modules)).size


def support_arg(offset: int, slot: int) -> int:
    """The index of ``SupportRef(offset, slot)`` in its blocks (``A.SUPPORT.to_index``, written
    out: the menu asks it for every support card)."""
    return offset * MAX_SUPPORT_SLOTS + slot


def curse_arg(slot: int, pos: int) -> int:
    """The index of ``CurseRef(slot, pos)`` in its blocks (``A.CURSE.to_index``, written out: the
    menu asks it for every Curse on the track)."""
    return slot * MAX_STACK + pos


def decode(move: int, modules: tuple[str, ...] = ()) -> Move:
    """The ``Move`` (block name, typed argument) of an id; ValueError when out of range."""
    return layout(modules if type(modules) is tuple else tuple(modules)).decode(move)


def encode(block: str, args: Any = NO_ARGS, modules: tuple[str, ...] = ()) -> int:
    """The id of a block and typed argument, e.g. ``encode("ACQUIRE", ElementValue(0, 3))``."""
    return layout(tuple(modules)).encode(block, args)


def move_to_string(move: int, modules: tuple[str, ...] = ()) -> str:
    """Seat-independent name of a move id, e.g. ``ACQUIRE(fire-3)``."""
    return str(decode(move, modules))
