"""Observation sections as objects, and the registry that says which module adds which.

A section object (``ObsSection``) owns one named section or a small group of related ones (e.g.
the ``board.*`` sections). It declares them in ``__init__`` (``parts``: name, length, meaning,
per-feature scale), all computed from the layout context (pack, module set, options); is told
where its first section starts (``bind``); and encodes them (``encode``), writing only inside
its own range: the ``ObsLayout`` of observation_sections.py loops over the section objects and
checks that promise on request (``ObsLayout.check``). This is HLE's ``EncodeX`` +
``XSectionLength`` split.

Modules register their section objects with ``register_sections``: a layout holds the base
game's first, then each module's in ``config.modules`` order, so a module never moves the base
sections. (A module can still widen a base section through the lists the base reads from
``rules.ruleset(modules)``, e.g. the card codes; the base game's part of those never changes.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bbom_env.engine.cards.pack import Pack
from bbom_env.engine.core.moves import BASE
from bbom_env.engine.core.rules import Ruleset, ruleset
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import NUM_CODES, code_name

from .layout import ActionLayout

__all__ = [
    "ObsContext",
    "ObsModule",
    "ObsSection",
    "Part",
    "register_sections",
    "section_factories",
    "unregister_sections",
]


@dataclass(frozen=True)
class Part:
    """One named section before it is placed: ``scale`` is one value or one per feature."""

    name: str
    length: int
    meaning: str
    scale: float | tuple[float, ...] = 1.0

    def scales(self) -> list[float]:
        if isinstance(self.scale, tuple):
            if len(self.scale) != self.length:
                raise ValueError(
                    f"section {self.name!r}: {len(self.scale)} scales for {self.length} features"
                )
            return list(self.scale)
        return [self.scale] * self.length


@dataclass
class ObsContext:
    """What section lengths may depend on: the pack, the module set (through its ruleset), the
    action layout (for the history) and the encoder's options. Never the player count."""

    pack: Pack
    modules: tuple[str, ...]
    layout: ActionLayout
    observe_other_hands: bool
    history: int
    rules: Ruleset = field(init=False)
    # Card types shown in count and one-hot sections (the ruleset's card codes, in that order).
    codes: list[int] = field(init=False)
    ntypes: int = field(init=False)
    type_index: list[int] = field(init=False)  # card code -> position in ``codes``, -1 if absent
    codes_prefix: bool = field(init=False)  # codes == 0..ntypes-1: counts are a plain slice
    # codes == every card code (both Vth Element modules: 30): a count vector is the section's whole
    # run; it is written as bytes (``frombuffer(bytes(counts), uint8)``): numpy converts 30 small ints
    # from a bytes object in about 0.55 us, from a list in 0.8 (measured). Counts and a seat's sizes
    # are 0..255 (the game has 215 cards with both modules; bytes refuses anything else).
    codes_all: bool = field(init=False)
    # codes as runs of consecutive codes (lo, hi): counts are that many slices (the Phobia module
    # alone: the base's 13 codes, then 14..29 past the Dark Matter code)
    code_runs: tuple[tuple[int, int], ...] = field(init=False)

    def __post_init__(self) -> None:
        self.rules = ruleset(self.modules)
        self.codes = list(self.rules.card_codes)
        self.ntypes = len(self.codes)
        self.type_index = [-1] * NUM_CODES
        for i, c in enumerate(self.codes):
            self.type_index[c] = i
        self.codes_prefix = self.codes == list(range(self.ntypes))
        self.codes_all = self.codes == list(range(NUM_CODES))
        runs: list[list[int]] = []
        for c in self.codes:
            if runs and runs[-1][1] == c:
                runs[-1][1] = c + 1
            else:
                runs.append([c, c + 1])
        self.code_runs = tuple((lo, hi) for lo, hi in runs)

    def type_names(self) -> str:
        return ", ".join(code_name(c) for c in self.codes)

    def types(self, counts: list[int]) -> list[int]:
        """A count vector indexed by card code, restricted to the card types of this layout."""
        if self.codes_prefix:
            return counts[: self.ntypes]
        runs = self.code_runs
        if len(runs) == 2:  # (the Phobia module alone)
            (a, b), (c, d) = runs
            return counts[a:b] + counts[c:d]
        return [counts[c] for c in self.codes]


class ObsSection:
    """A section object: subclasses set ``parts`` in ``__init__`` and implement ``encode``.

    ``encode(state, seat, vec, on, idx, val)`` appends indices to set to 1 to ``on``, indices and
    raw values to ``idx``/``val`` (the layout scales and clips them), or writes ``vec`` slices
    directly; always inside ``[start, end)``. Gathering indices in lists and writing them with two
    fancy assignments is what keeps encoding fast (one numpy call per feature costs more than the
    whole encoding)."""

    group = ""  # the sections' common name prefix, e.g. "board"

    def __init__(self, ctx: ObsContext) -> None:
        self.ctx = ctx
        self.parts: list[Part] = []
        self.start = 0
        self.end = 0
        self.at: dict[str, int] = {}

    def length(self) -> int:
        return sum(p.length for p in self.parts)

    def bind(self, start: int) -> None:
        """Place the parts from ``start`` on; subclasses extend this to precompute offsets."""
        self.start = start
        for p in self.parts:
            self.at[p.name] = start
            start += p.length
        self.end = start

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not implement encode")


SectionFactory = Callable[[ObsContext], ObsSection]


@dataclass(frozen=True)
class ObsModule:
    """A module's observation sections, in layout order (factories: usually the classes)."""

    name: str
    sections: tuple[SectionFactory, ...]
    doc: str = ""


OBS_MODULES: dict[str, ObsModule] = {}


def register_sections(module: ObsModule) -> None:
    """Register a module's sections (the base game's first: observation_sections.py does it)."""
    if module.name in OBS_MODULES and OBS_MODULES[module.name] is not module:
        raise ValueError(f"observation sections of module {module.name!r} are already registered")
    if module.name != BASE and BASE not in OBS_MODULES:
        raise ValueError("the base game's observation sections must be registered first")
    OBS_MODULES[module.name] = module


def unregister_sections(name: str) -> None:
    """Remove a module's sections (tests register toy modules); the base game's stay."""
    if name == BASE:
        raise ValueError("the base game's observation sections cannot be unregistered")
    if name not in OBS_MODULES:
        raise ValueError(f"no observation sections registered for module {name!r}")
    del OBS_MODULES[name]


def section_factories(modules: tuple[str, ...]) -> list[tuple[str, SectionFactory]]:
    """(module, factory) of every section object of a module set: the base game's, then each
    module's in order (a module without observation sections adds none)."""
    if BASE not in OBS_MODULES:
        raise ValueError("the base game's observation sections are not registered")
    out = [(BASE, f) for f in OBS_MODULES[BASE].sections]
    for m in modules:
        if m in OBS_MODULES and m != BASE:
            out += [(m, f) for f in OBS_MODULES[m].sections]
    return out
