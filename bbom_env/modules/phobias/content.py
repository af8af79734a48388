"""The Phobia module's cards (docs/rules.md sections 1.2, 9.2; V-20): the ``[[phobia]]``
pack section, parsed into immutable cards. The cards are in ``bbom_env/data/vth_phobias.toml``
(an override pack for the default pack).

A Phobia is a Madness card with a permanent constraint on its owner (section 9.2). Its constraint
is data: ``constraint``, modifiers in the effect vocabulary (``engine/cards/vocab.py``: a "cost" or
"forbid" modifier, ``no_support_payment``, "replace" at a rule point of ``hooks.RULE_POINTS``,
``lose_ability``), and ``needs``, the rule a modifier cannot say yet (e.g. V-31, "no Cure except
this card"). At least one of the two says each text.

Card codes (``constants.PHOBIA_BASE`` .. ``+ 15``): the Phobias sorted by id take them in order
(``phobia_codes``), so a code names one Phobia in every zone (the pile, hands, decks, supports).
Every error is a ``PackError`` naming the file, the entry and the field, as for base cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bbom_env.engine.ext import (
    COMMON_FIELDS,
    PackError,
    PackSection,
    check_fields,
    labels,
    normalize_mod,
    opt,
    req,
    show,
)

from .state import NUM_PHOBIAS, PHOBIA_BASE

SECTION = "phobia"


@dataclass(frozen=True)
class Phobia:
    """One Phobia card (section 9.2): its printed text and its constraint (modifiers and/or the
    rule it ``needs``), yielded by the module's modifier source while it lies in its owner's support
    (``constraints.py``)."""

    id: str
    name: str
    text: str
    constraint: tuple[dict, ...]
    needs: str
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def parse_phobia(e: dict, where: str) -> Phobia:
    check_fields(e, set(COMMON_FIELDS) | {"text", "constraint", "needs"}, where)
    meta = labels(e, where)
    text = req(e, "text", where, str)
    mods = opt(e, "constraint", [], where, list)
    # A temporary-style modifier (no trigger, no raised limits): it lasts while the card is placed.
    constraint = tuple(
        normalize_mod(m, f"{where}.constraint[{i}]", allow_trigger=False) for i, m in enumerate(mods)
    )
    needs = str(opt(e, "needs", "", where, str)).strip()
    if not constraint and not needs:
        raise PackError(
            f"{where}: the text {show(text)} has neither a 'constraint' nor 'needs' (the rule the module "
            "must add to say it)"
        )
    return Phobia(
        id=e["id"], name=req(e, "name", where, str), text=text, constraint=constraint, needs=needs, **meta
    )


def _constraint_mods(card: Phobia) -> Iterable[tuple[str, dict]]:
    """A Phobia's modifiers, for the game's check of the kinds its modules declare (a Phobia whose
    constraint is the Dark Matter module's ``move_phobia`` needs that module too)."""
    return ((f"constraint[{i}]", mod) for i, mod in enumerate(card.constraint))


def _check_count(cards: Mapping[str, Phobia], origins: Mapping[str, str]) -> None:
    """Section 1.2, V-20: exactly the 16 Phobias, one per card code (``phobia_codes``); an override
    replaces a Phobia by its id. Too many: the card named is one of the file with the fewest of
    them (an override's, as a rule)."""
    if len(cards) == NUM_PHOBIAS:
        return
    last = PHOBIA_BASE + NUM_PHOBIAS - 1
    need = f"the Phobia module needs exactly {NUM_PHOBIAS} (card codes {PHOBIA_BASE}..{last})"
    if len(cards) < NUM_PHOBIAS:
        files = " + ".join(sorted(set(origins.values())))
        raise PackError(f"{files}: [[{SECTION}]]: {len(cards)} Phobias; {need}")
    per_file = Counter(origins[cid] for cid in cards)
    cid = max(cards, key=lambda c: (-per_file[origins[c]], c))
    raise PackError(
        f"{origins[cid]}: {SECTION} '{cid}'.id: a Phobia beyond the {NUM_PHOBIAS} ({len(cards)} in "
        f"[[{SECTION}]]); {need}: to replace a Phobia, use its id"
    )


PHOBIA = PackSection(
    SECTION, parse_phobia, None, doc=f"Phobias ({NUM_PHOBIAS})", mods=_constraint_mods, check=_check_count
)
SECTIONS = (PHOBIA,)


def phobia_codes(sections: Mapping[str, Any]) -> dict[str, int]:
    """Phobia id -> card code: sorted by id, ``PHOBIA_BASE + rank``. ValueError unless the pack
    holds exactly the 16 Phobias (section 1.2; V-20), naming the count."""
    ids = sorted(sections.get(SECTION, {}))
    if len(ids) != NUM_PHOBIAS:
        raise ValueError(
            f"the card pack's [[{SECTION}]] section holds {len(ids)} Phobias; the Phobia module needs "
            f"exactly {NUM_PHOBIAS} (one per card code {PHOBIA_BASE}..{PHOBIA_BASE + NUM_PHOBIAS - 1})"
        )
    return {pid: PHOBIA_BASE + k for k, pid in enumerate(ids)}


def phobia_of(sections: Mapping[str, Any], code: int) -> Phobia:
    """The Phobia card of a card code (KeyError naming it for a code that is not a Phobia's)."""
    for pid, c in phobia_codes(sections).items():
        if c == code:
            return sections[SECTION][pid]
    raise KeyError(f"card code {code} is not a Phobia ({PHOBIA_BASE}..{PHOBIA_BASE + NUM_PHOBIAS - 1})")


def needs_of(sections: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(Phobia id, needs) of every Phobia whose constraint waits for a rule (none in the default pack)."""
    return [(pid, card.needs) for pid, card in sorted(sections.get(SECTION, {}).items()) if card.needs]
