"""The Phobias' constraints in play (docs/rules.md section 9.2; V-25 to V-36, V-41): the
module's modifier source (``rules.Module.modifier_sources``).

A Phobia's text applies to its owner only, from the moment it is placed in their support until it
leaves it (a cure or a move, V-26), also during other players' turns (9.2). So the source of seat
p yields the ``constraint`` modifiers (``content.Phobia.constraint``) of every Phobia lying as a
card in p's support: a card crushed under a Phobia is no source (it is unavailable, V-40), and a
Phobia in a hand, deck, discard pile or the Madness pile says nothing. The engine's hooks read
these modifiers as they read a Magician's or a temporary one (``hooks.player_mods``), fresh on
every query: the rules they change are the engine's (see docs/vth_element.md, "The Phobia
module"):

* "cost" modifiers (Destroy +1 matching Element, V-32; Activate +1 any, V-33; Acquire +1 identical,
  A-51; Learn +1 any) through ``hooks.adjust_cost``; "forbid" with an Element (V-36) through
  ``hooks.forbidden`` / ``hooks.banned_elements``; ``no_support_payment`` (V-30) through
  ``payment.usable_support``;
* "replace" at the rule points of ``hooks.RULE_POINTS`` (reshuffle 2 Madness, 5.2; the marker
  advances 2, V-34; hand of 5, V-35; Curses targeting every player twice, V-25; refresh one
  Spell, A-58);
* ``lose_ability`` (V-27) through ``hooks.ability_lost``;
* ``cure_only`` (V-31): the engine's Cure Action may target only the card that yields it; the
  source adds the Phobia's own card ``code`` to the card's modifier.

The table code -> modifiers is built once per card pack (never per query) and the source calls no
hook (it is what the hooks read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import PackIndex

from .content import SECTION, phobia_codes
from .state import NUM_PHOBIAS, PHOBIA_BASE

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack

CURE_ONLY = "cure_only"  # vocab.MODULE_MOD_SCHEMAS: V-31, read by actions.legal_cure
# Every modifier kind the Phobias' constraints use (Module.modifier_kinds): the base's, then the
# engine-read module kinds.
MODIFIER_KINDS: tuple[str, ...] = ("cost", "forbid", "no_support_payment") + (
    "replace",
    "lose_ability",
    CURE_ONLY,
)

Table = tuple[tuple[dict, ...], ...]  # by code - PHOBIA_BASE: the Phobia's modifiers


class Constraints:
    """A pack's Phobia constraints: ``rows`` (``Table``) and the concatenations already asked for
    supports holding several Phobias (``combos``, by the codes in slot order). The source then
    gives one tuple object per combination of Phobias, as it does for one Phobia (its row), so the
    hooks' readings of a sourced tuple (``hooks.player_mods``) are found again by identity. A combo
    is a pure function of the pack's immutable rows, never of a state."""

    __slots__ = ("rows", "combos")

    def __init__(self, rows: Table) -> None:
        self.rows = rows
        self.combos: dict[tuple[int, ...], tuple[dict, ...]] = {}

    def combo(self, codes: tuple[int, ...]) -> tuple[dict, ...]:
        out = self.combos.get(codes)
        if out is None:
            out = ()
            for code in codes:
                out += self.rows[code - PHOBIA_BASE]
            if len(self.combos) < 4096:  # (16 Phobias, at most 6 slots: in practice a few dozen)
                self.combos[codes] = out
        return out


def _build_table(pack: Pack) -> Constraints:
    """Each Phobia's modifiers by ``code - PHOBIA_BASE`` (a ``cure_only`` one with its ``code``);
    ``constraint_table`` keeps it per pack."""
    sections = pack.sections
    rows: list[tuple[dict, ...]] = [()] * NUM_PHOBIAS
    for pid, code in phobia_codes(sections).items():
        card = sections[SECTION][pid]
        rows[code - PHOBIA_BASE] = tuple(
            {**m, "code": code} if m["kind"] == CURE_ONLY else m for m in card.constraint
        )
    return Constraints(tuple(rows))


constraint_table: PackIndex[Constraints] = PackIndex(_build_table)  # built once per pack


def _build_spell_surcharge_table(pack: Pack) -> Constraints:
    """``constraint_table`` for ``spell_surcharge_element="spell"`` (A-50): the surcharge of
    "Activating Spells costs you 1 additional Element" (a "cost" modifier of the Activate Action
    with any Element) is 1 Element of the activated Spell's own Element ("same")."""
    rows = tuple(
        tuple(
            {**m, "element": "same"}
            if m["kind"] == "cost" and m["action"] == "activate" and m["element"] == "any"
            else m
            for m in row
        )
        for row in constraint_table(pack).rows
    )
    return Constraints(rows)


spell_surcharge_table: PackIndex[Constraints] = PackIndex(_build_spell_surcharge_table)


def phobia_modifiers(state: GameState, p: int) -> tuple[dict, ...]:
    """The module's modifier source: the constraints of the Phobias lying as cards in player p's
    support (section 9.2), in slot order; () when there is none (most queries). The same tuple
    object for the same Phobias (a row, or ``Constraints.combo``)."""
    first = -1
    codes: tuple[int, ...] | None = None  # (a tuple built as it grows: the combos' key)
    for slot in state.players[p].support:
        code = slot.card
        if code >= PHOBIA_BASE:
            if first < 0:
                first = code
            elif codes is None:
                codes = (first, code)
            else:
                codes += (code,)
    if first < 0:
        return ()
    # the table of the game's spell_surcharge_element switch
    memo = (
        constraint_table if state.config.switch("spell_surcharge_element") == "any" else spell_surcharge_table
    )
    table = memo(state.pack)
    if codes is None:
        return table.rows[first - PHOBIA_BASE]
    out = table.combos.get(codes)  # (Constraints.combo's look-up, inline)
    return out if out is not None else table.combo(codes)


def loses_ability(state: GameState, code: int) -> bool:
    """Whether Phobia ``code``'s constraint takes its owner's Magician ability away (V-27)."""
    if code < PHOBIA_BASE:
        return False
    return any(m["kind"] == "lose_ability" for m in constraint_table(state.pack).rows[code - PHOBIA_BASE])
