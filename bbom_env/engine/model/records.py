"""Typed records of the board and the players (the bottom layer: it imports no engine module).

Each record is an immutable ``typing.NamedTuple``: a change builds a new record with ``_replace``
and stores it back into its list (``pl.spells[i] = sp._replace(exhausted=True)``), so copying a
list of records is a full copy (``GameState.clone``). ``typed_fields.py`` derives the clone and the
JSON form of every field from these types: a save writes a record as a JSON object of its field
names (``{"spell": "fire_ball", "exhausted": false, "neutralized": ""}``) and reads it back by the
type the field declares; inside a frame (a payment's picks) the record's field names tell its type
(``RECORD_BY_FIELDS``), so every record type has its own set of field names.
"""

from __future__ import annotations

from typing import Any, NamedTuple, final

from bbom_env.engine.model.constants import NUM_CODES

# An empty card place (a support slot with no card crushed under its card).
NO_CARD = -1


class CurseOnTrack(NamedTuple):
    """A Curse card on a slot of the Invocation track (docs/rules.md section 3.3.1)."""

    curse: str  # Curse id (``pack.curses``)
    neutralized_at: int = -1  # the turn it was neutralized (section 7, A-19); -1: face up
    tokens: tuple[int, ...] = (0, 0, 0, 0)  # Element tokens on it, one count per Element
    madness: int = 0  # Madness cards under it (the Sorcerer, A-43)

    @property
    def face_up(self) -> bool:
        return self.neutralized_at < 0


class SpellSlot(NamedTuple):
    """A Spell in a player's row (docs/rules.md sections 4.1, 7)."""

    spell: str  # Spell id (``pack.spells``)
    exhausted: bool = False  # activated since its last refresh (section 4.1, A-21)
    neutralized: str = ""  # "" face up, else how long it stays neutralized ("this_turn", ...)

    @property
    def ready(self) -> bool:
        """Neither exhausted nor neutralized: it can be activated (section 4.1)."""
        return not (self.exhausted or self.neutralized)


class SupportSlot(NamedTuple):
    """A slot of a player's support (docs/rules.md section 4.0): its card, and the card crushed under
    it. The Vth Element's Phobias crush a support card (V-19, V-21, V-27): the
    crushed card stays under the Phobia, unavailable, until the Phobia leaves. In the base game
    nothing crushes: ``crushed`` is always ``NO_CARD``."""

    card: int  # card code of the card in the slot
    crushed: int = NO_CARD  # card code of the card crushed under it, or NO_CARD


class TempModifier(NamedTuple):
    """A temporary modifier of a player (docs/rules.md section 4.11, A-20, A-68)."""

    modifier: dict[str, Any]  # the modifier (``vocab.MOD_SCHEMAS``), shared with the pack: read-only
    duration: str  # "until_next_monster" or "this_turn": when ``hooks.expire`` ends it
    source: str  # id of the card whose effect gave it


@final  # no subclass: payments tell sources apart by ``type(src) is HandSource`` (a hot path)
class HandSource(NamedTuple):
    """A payment source: one card of the payer's hand (docs/rules.md section 4.0)."""

    code: int  # its card code


@final
class SupportSource(NamedTuple):
    """A payment source: the card in a slot of a support (docs/rules.md section 4.0, A-11)."""

    seat: int  # the support's owner
    slot: int  # the slot, 0-based


Source = HandSource | SupportSource
# One shared HandSource per card code (records are immutable): payments take them without
# building a record per card (auto payment is a hot path).
HAND_SOURCES: tuple[HandSource, ...] = tuple(HandSource(c) for c in range(NUM_CODES))

RECORD_TYPES: tuple[type, ...] = (
    CurseOnTrack, SpellSlot, SupportSlot, TempModifier, HandSource, SupportSource,
)  # fmt: skip
# A record written as a JSON object where no field declares its type (a frame value) is read back
# by its field names, so no two record types may share them.
RECORD_BY_FIELDS: dict[frozenset[str], type] = {frozenset(t._fields): t for t in RECORD_TYPES}  # type: ignore[attr-defined]
assert len(RECORD_BY_FIELDS) == len(RECORD_TYPES), "two record types have the same field names"


def is_record_type(t: Any) -> bool:
    """Whether ``t`` is a NamedTuple class (a record)."""
    return isinstance(t, type) and issubclass(t, tuple) and hasattr(t, "_fields")
