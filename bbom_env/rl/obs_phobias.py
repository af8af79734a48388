"""The Phobia module's observation sections (docs/rules.md sections 1.3, 5.3, 9.2;
V-20, V-21, V-26, A-55, A-74), registered after the base game's (and Dark Matter's,
in ``config.modules`` order) in a layout whose module set holds ``"phobias"``.

What the base sections already show with the module on (they read ``rules.ruleset(modules)``):
every Phobia by its card code (14-29 are card codes of the ruleset, so ``own.hand``, ``own.deck``,
``seatK.discard``, ``seatK.hand`` with ``observe_other_hands``, ``seatK.support`` (slot by slot,
the card on top) and ``decision.picks`` count them), the Madness pile's size
(``supply.madness_pile``), the ``phobia_crush`` decision (``decision.kind``: the module's decision
kinds follow the base game's) and a lost ability (``seatK.status``: the engine's
``hooks.ability_lost`` reads "No Ability", V-27).

What this module adds (``phobias.*``):

- the Madness pile's top card (section 1.3: the pile is face up, its top always visible; with a
  Phobia on top, the next Madness received is that Phobia, section 5.3) and what remains in it:
  plain Madness cards and which Phobias (each exists once). A-66 rules the pile's contents
  public (a face-up pile; cured cards go face up under it, section 4.5); its order below the top is
  not shown;
- the Phobia whose owner must crush a support card now (the ``phobia_crush`` decision, A-55; it is
  placed face up, so every seat sees it);
- per seat, relative to the observer like ``seatK.*``: the Phobias in their support (each applies
  to its owner from placement until it leaves, section 9.2) and the card crushed under each slot
  (unavailable until the Phobia above it leaves, A-74; support cards are public, A-66).

Not shown: the Phobias in the box (A-77: the subset is random; they never come into play) and a
Phobia under a Curse (V-29: one Curse at a time, rare; the Curse's Madness count shows it).

The module itself (``bbom_env.modules``) sits below the views and never imports them, so its
sections live here and ``observation_sections.py`` registers them.
"""

from __future__ import annotations

import numpy as np

from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MAX_PLAYERS, MAX_SUPPORT_SLOTS, code_name
from bbom_env.modules.phobias.content import SECTION, phobia_codes
from bbom_env.modules.phobias.placement import PLACE
from bbom_env.modules.phobias.state import COMPOSITION, NAME, NUM_PHOBIAS, PHOBIA_BASE

from .obs_core import ObsContext, ObsModule, ObsSection, Part

__all__ = ["PHOBIA_SECTIONS", "PhobiaSections"]

# Plain Madness cards at most in the pile at setup (5 players, section 1.3); cured Madness goes
# back under it, so more is possible: the count saturates.
PILE_SCALE = max(m for _p, m in COMPOSITION.values()) + 1


class PhobiaSections(ObsSection):
    """Every ``phobias.*`` section (one object: they read the same supports and pile)."""

    group = NAME

    def __init__(self, ctx: ObsContext) -> None:
        super().__init__(ctx)
        if SECTION not in ctx.pack.sections:
            raise ValueError(
                f"observation sections of module {NAME!r}: the pack has no {SECTION!r} section "
                "(was it loaded with the module?)"
            )
        ids = phobia_codes(ctx.pack.sections)  # ValueError unless the pack holds the 16 Phobias
        first, last = min(ids), max(ids)  # the codes follow the sorted ids (content.phobia_codes)
        # A crushed card is never a Phobia: one-hot over the layout's other card types.
        self.crush_codes = [c for c in ctx.codes if c < PHOBIA_BASE]
        self.crush_index = {c: i for i, c in enumerate(self.crush_codes)}
        nc = len(self.crush_codes)
        crush_names = ", ".join(code_name(c) for c in self.crush_codes)
        self.parts = [
            Part(
                "phobias.pile_top",
                1 + NUM_PHOBIAS,
                "the Madness pile's top card, face up (section 1.3, 5.3): one-hot [plain Madness, Phobia "
                f"codes {PHOBIA_BASE}..{PHOBIA_BASE + NUM_PHOBIAS - 1} (the pack's Phobias by sorted id, "
                f"{first}..{last})]; all 0 when the pile is empty",
            ),
            Part(
                "phobias.pile",
                1 + NUM_PHOBIAS,
                f"what the Madness pile holds (public, A-66; not its order): plain Madness cards / "
                f"{PILE_SCALE}, then one flag per Phobia code (each Phobia exists once)",
                (1 / PILE_SCALE,) + (1.0,) * NUM_PHOBIAS,
            ),
            Part(
                "phobias.placing",
                NUM_PHOBIAS,
                "the Phobia being placed whose owner must crush a support card now (phobia_crush "
                "decision, A-55), one-hot by Phobia code; all 0 otherwise",
            ),
        ]
        for k in range(MAX_PLAYERS):
            who = "the observer" if k == 0 else f"the player {k} seat(s) clockwise from the observer"
            self.parts += [
                Part(
                    f"phobias.seat{k}.phobias",
                    NUM_PHOBIAS,
                    f"{who}: the Phobias in their support, active on them (section 9.2), one flag per "
                    "Phobia code; all 0 for an absent seat",
                ),
                Part(
                    f"phobias.seat{k}.crushed",
                    MAX_SUPPORT_SLOTS * nc,
                    f"{who}: {MAX_SUPPORT_SLOTS} support slots (the order of `seat{k}.support`) x the card "
                    f"crushed under the slot's Phobia (A-55, A-74), one-hot ({crush_names}); no crushed "
                    "card: all 0",
                ),
            ]

    def bind(self, start: int) -> None:
        super().bind(start)
        at = self.at
        self.o_top = at["phobias.pile_top"]
        self.o_pile = at["phobias.pile"]
        self.o_placing = at["phobias.placing"]
        self.seat_rows = [
            (at[f"phobias.seat{k}.phobias"], at[f"phobias.seat{k}.crushed"]) for k in range(MAX_PLAYERS)
        ]

    def encode(
        self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list[int], val: list[float]
    ) -> None:
        pile = state.madness_pile
        if pile:
            top = pile[-1]
            on.append(self.o_top + (top - PHOBIA_BASE + 1 if top >= PHOBIA_BASE else 0))
            o = self.o_pile + 1 - PHOBIA_BASE
            phobias = [o + c for c in pile if c >= PHOBIA_BASE]
            on += phobias
            if len(pile) > len(phobias):
                idx.append(self.o_pile)
                val.append(len(pile) - len(phobias))
        if state.stack:
            f = state.stack[-1]
            if f["kind"] == PLACE and f["decider"] is not None:  # placement.run_place: DP-34 waits
                on.append(self.o_placing + f["code"] - PHOBIA_BASE)
        players = state.players
        n = len(players)
        for k in range(n):
            support = players[(seat + k) % n].support
            if not support:  # (many seats)
                continue
            b_ph, b_cr = self.seat_rows[k]
            for s, slot in enumerate(support[:MAX_SUPPORT_SLOTS]):
                if slot.card >= PHOBIA_BASE:
                    on.append(b_ph + slot.card - PHOBIA_BASE)
                    if slot.crushed >= 0:
                        on.append(b_cr + s * len(self.crush_codes) + self.crush_index[slot.crushed])


PHOBIA_SECTIONS = ObsModule(
    NAME,
    (PhobiaSections,),
    doc=(
        "The Vth Element's Phobia module (docs/rules.md section 9.2): the Madness pile, Phobias, "
        "crushed cards."
    ),
)
