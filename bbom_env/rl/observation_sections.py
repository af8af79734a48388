"""The observation layout: the section objects of a module set, placed one after the other, and
the loop that encodes with them (``ObsLayout``).

Every named section has a length (from the pack, the module set and the options, never the
player count), a meaning (for docs/observation.md) and a per-feature scale: section objects write
raw values (1 for one-hots and flags, counts for counts), the layout multiplies by the scale and
clips to 1. The base game's section objects (obs_player.py, obs_board.py, obs_decision.py) are
registered here, first; a module (Dark Matter, Black Book, Phobias) registers its own with
``obs_core.register_sections`` and they come after, in ``config.modules`` order: Dark Matter's
(obs_dark_matter.py) and the Phobias' (obs_phobias.py) are registered here too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bbom_env.engine.cards.pack import Pack
from bbom_env.engine.core.moves import BASE
from bbom_env.engine.core.state import GameState

from .layout import ActionLayout
from .obs_board import Board, CursePiles, Grimoire, Library, Supply, Track
from .obs_core import ObsContext, ObsModule, ObsSection, register_sections, section_factories
from .obs_dark_matter import DARK_MATTER_SECTIONS
from .obs_decision import Decision, History
from .obs_phobias import PHOBIA_SECTIONS
from .obs_player import OwnZones, Seats

register_sections(
    ObsModule(
        BASE,
        (OwnZones, Seats, Library, CursePiles, Track, Board, Grimoire, Supply, Decision, History),
        doc="The Big Book of Madness, base game.",
    )
)
# The Vth Element's modules sit below the views (they never import them): their sections are here.
register_sections(DARK_MATTER_SECTIONS)
register_sections(PHOBIA_SECTIONS)


@dataclass
class Section:
    """A placed named section: ``[start, start + length)`` of the vector, added by ``module``."""

    name: str
    start: int
    length: int
    meaning: str
    module: str = BASE


class ObsLayout:
    """The placed section objects of one module set and their encode loop.

    ``encode`` is the fast path (one call per section object, no checks); ``check`` encodes the
    same state section by section and raises AssertionError naming a section object that writes
    outside its range, or any difference from ``encode``."""

    def __init__(
        self,
        pack: Pack,
        modules: tuple[str, ...],
        layout: ActionLayout,
        observe_other_hands: bool,
        history: int,
    ) -> None:
        if history < 0:
            raise ValueError(f"history must be >= 0, got {history}")
        self.ctx = ObsContext(pack, tuple(modules), layout, observe_other_hands, history)
        self.objects: list[ObsSection] = []
        self.sections: list[Section] = []
        scales: list[float] = []
        for module, factory in section_factories(self.ctx.modules):
            obj = factory(self.ctx)
            if obj.parts:  # e.g. no history section with history=0
                self._place(module, obj, scales)
        self.size = len(scales)
        self.scale = np.array(scales, dtype=np.float32)
        # The tail's constants: np.minimum against an array of ones, and zeroing ``out`` by a copy,
        # each take about half the time of the scalar forms on a module set's vector (4432 floats
        # with both Vth Element modules, 1890 in the base game; measured).
        self._ones = np.ones(self.size, dtype=np.float32)
        self._zeros = np.zeros(self.size, dtype=np.float32)
        self.groups = {obj.group: obj for obj in self.objects}
        self._encoders = tuple(obj.encode for obj in self.objects)
        self._validate()

    def _place(self, module: str, obj: ObsSection, scales: list[float]) -> None:
        start = len(scales)
        obj.bind(start)
        for part in obj.parts:
            if part.length <= 0:
                raise ValueError(f"section {part.name!r} ({module}) has length {part.length}")
            self.sections.append(Section(part.name, start, part.length, part.meaning, module))
            scales += part.scales()
            start += part.length
        if (obj.start, obj.end) != (start - obj.length(), start):
            raise AssertionError(f"section object {obj.group!r} was bound to [{obj.start}, {obj.end})")
        self.objects.append(obj)

    def _validate(self) -> None:
        names = [s.name for s in self.sections]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"observation sections named twice: {dup}")
        groups = [obj.group for obj in self.objects]
        if len(set(groups)) != len(groups) or "" in groups:
            raise ValueError(f"section object groups must be unique and non-empty: {groups}")
        total = sum(s.length for s in self.sections)
        if total != self.size or sum(obj.length() for obj in self.objects) != self.size:
            raise AssertionError(f"observation sections sum to {total}, size {self.size}")

    def encode(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            vec = np.zeros(self.size, dtype=np.float32)
        else:
            vec = out
            np.copyto(vec, self._zeros)
        on: list[int] = []  # indices set to 1 (one-hots, flags)
        idx: list[int] = []  # indices set to a raw value (scaled afterwards)
        val: list[float] = []
        for encode in self._encoders:
            encode(state, seat, vec, on, idx, val)
        vec[on] = 1.0
        vec[idx] = val
        vec *= self.scale
        np.minimum(vec, self._ones, out=vec)
        return vec

    def check(self, state: GameState, seat: int) -> np.ndarray:
        """Encode section object by section object, checking that each writes only inside its own
        range; returns the vector after checking it equals ``encode(state, seat)``."""
        vec = np.zeros(self.size, dtype=np.float32)
        for obj in self.objects:
            self._check_one(obj, state, seat, vec)
        vec *= self.scale
        np.minimum(vec, 1.0, out=vec)
        fast = self.encode(state, seat)
        if fast.tobytes() != vec.tobytes():
            diff = np.flatnonzero(fast != vec)
            names = sorted({s.name for s in self.sections for i in diff if s.start <= i < s.start + s.length})
            raise AssertionError(f"encode and the checked encoding differ in sections {names}")
        return vec

    def _check_one(self, obj: ObsSection, state: GameState, seat: int, vec: np.ndarray) -> None:
        # NaN marks the entries the object did not write directly, so writes of 0 count too.
        scratch = np.full(self.size, np.nan, dtype=np.float32)
        on: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        obj.encode(state, seat, scratch, on, idx, val)
        direct = np.flatnonzero(~np.isnan(scratch))
        written = set(direct.tolist()) | set(on) | set(idx)
        outside = sorted(i for i in written if not obj.start <= i < obj.end)
        if outside:
            raise AssertionError(
                f"section object {obj.group!r} ({', '.join(p.name for p in obj.parts)}) wrote index(es) "
                f"{outside[:8]} outside its range [{obj.start}, {obj.end})"
            )
        if len(idx) != len(val):
            raise AssertionError(
                f"section object {obj.group!r} gave {len(idx)} indices for {len(val)} values"
            )
        vec[direct] = scratch[direct]
        vec[on] = 1.0
        vec[idx] = val
