"""Standing rule changes (docs/rules.md sections 4.10, 4.11): Magician abilities and temporary effects
("until the next Monster", "this turn") as modifiers, queried fresh on every use.

A modifier is a dict from ``vocab.MOD_SCHEMAS`` (or a module's kind, ``vocab.MODULE_MOD_SCHEMAS``).
Sources, in order: the player's Magician sheet (unless the ability is lost), the player's temporary
modifiers, then the modifier sources of the game's modules (``rules.Module.modifier_sources``: cards
active in a zone, e.g. the Vth Element's Phobias in a support, docs/rules.md section 9.2), each asked
fresh. A base game (no module) has no third source. Every hook reads ``player_mods``; the seat view
(``payment/seat.py``) reads it once per decision for the Action menu and the observation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import COST_ANY, ELEMENT_NAMES, HAND_SIZE

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState

NO_BAN: frozenset[int] = frozenset()  # shared: most payers have no banned Element


def sourced(state: GameState, p: int) -> Sequence[dict]:
    """What the game's modules' modifier sources yield for player p (cards active in a zone)."""
    sources = state.rules.modifier_sources
    if not sources:
        return ()
    if len(sources) == 1:
        out = sources[0](state, p)
        return out if type(out) is tuple or type(out) is list else tuple(out)
    merged: list[dict] = []
    for source in sources:
        merged += source(state, p)
    return merged


def player_mods(state: GameState, p: int) -> Sequence[dict]:
    """Player p's modifiers, fresh: the Magician's (unless the ability is lost: the flag, or a
    temporary or sourced "lose_ability", V-10, V-27), the temporary ones, then what the game's
    modules' sources yield."""
    pl = state.players[p]
    temp = [m.modifier for m in pl.mods] if pl.mods else ()
    src = sourced(state, p) if state.rules.modifier_sources else ()
    if pl.ability_lost or (temp and _loses(temp)) or (src and _loses(src)):
        return [*temp, *src]
    mag = state.pack.magicians[pl.magician].mods
    if not temp and not src:
        return mag
    return [*mag, *temp, *src]


def _loses(mods: Iterable[dict]) -> bool:
    """Whether a "lose_ability" modifier is among these (V-10, V-27)."""
    for m in mods:
        if m["kind"] == "lose_ability":
            return True
    return False


def ability_lost(state: GameState, p: int) -> bool:
    """Whether player p's Magician ability is off: lost for good (``PlayerState.ability_lost``,
    set by ``flow.lose_ability``) or while a "lose_ability" modifier is active (a module's
    card, e.g. a Phobia in support). The one query every rule asks."""
    pl = state.players[p]
    if pl.ability_lost:
        return True
    return any(m.modifier["kind"] == "lose_ability" for m in pl.mods) or _loses(sourced(state, p))


# Named rule points: a number the rules fix, which a "replace" modifier of the player can change
# (the Vth Element's Phobias: docs/rules.md section 9.2). Defaults are the base game's.
RULE_POINTS: dict[str, str] = {
    "reshuffle_madness": "Madness cards received when an empty deck is reshuffled (section 5.2: 1)",
    "marker_steps": "spaces the Invocation marker advances in this player's Monster phase (3.3: 1)",
    "concentration_refresh": "Spells refreshed in this player's Concentration phase (3.2: all)",
    "curse_part_times": "times a Curse part that targets every player applies to this player (1)",
    "hand_size": "cards this player refills the hand to (section 5.1: 6)",
}


def rule_point(state: GameState, p: int, point: str, default: int) -> int:
    """The value of a named rule point for player p: ``default`` unless a "replace" modifier of
    the player names the point (the last one found wins: sources in ``player_mods`` order)."""
    if not state.config.modules:
        return default  # "replace" is a module kind (vocab.MODULE_MOD_SCHEMAS): never in a base game
    value = default
    for m in player_mods(state, p):
        if m["kind"] == "replace" and m["point"] == point:
            value = m["value"]
    return value


def cure_targets(state: GameState, p: int) -> frozenset[int] | None:
    """The card codes player p's Cure Action may still target, or None when any Madness may be:
    a "cure_only" modifier (a module kind: the Phobia "You can no longer take the Cure Action
    (except for this card)", V-31) allows only the card that yields it (its ``code``; one without
    a code allows none). Only the Cure Action reads it: others may cure p's Madness, and cure
    effects work as printed (docs/rules.md 4.5)."""
    if not state.config.modules:
        return None  # "cure_only" is a module kind: never in a base game
    out = None
    for m in player_mods(state, p):
        if m["kind"] == "cure_only":
            out = (out or frozenset()) | ({m["code"]} if "code" in m else frozenset())
    return out


def standing_surcharge(state: GameState, p: int, action: str) -> int:
    """The net "same" Element surcharge on ``action`` of player p's standing modifiers from cards
    active in a zone (the modules' ``modifier_sources``: the Phobia "Destroying a Curse costs you
    1 additional matching Element", section 9.2), at least 0. The rulings about that text read
    it: the extra Element may be of a token's colour on the Curse (V-32, ``actions.curse_req``),
    and a Dark Curse costs that many more Dark Matter (A-49). A temporary surcharge of a Curse or
    Spell ("until the next Monster") is not counted: those rulings are the Phobia's."""
    n = 0
    for m in sourced(state, p):
        if m["kind"] == "cost" and m["element"] == "same" and m["action"] in (action, "all"):
            n += m["amount"]
    return max(0, n)


def limits_of(state: GameState, p: int, mods: Iterable[dict]) -> tuple[int, int]:
    """(support capacity, Spell limit) of player p with these modifiers (``player_mods``): the
    Magician sheet's plus the modifiers' changes (sections 1.6, 4.11)."""
    mag = state.pack.magicians[state.players[p].magician]
    slots = extra = 0
    for m in mods:
        kind = m["kind"]
        if kind == "support_slots":
            slots += m["amount"]
        elif kind == "spell_limit":
            extra += m["amount"]
    return max(0, mag.support_slots + slots), max(1, mag.spell_limit + extra)


def support_capacity(state: GameState, p: int) -> int:
    """Slots on the Magician sheet plus ability changes (section 1.6: 3 by default)."""
    return limits_of(state, p, player_mods(state, p))[0]


def spell_limit(state: GameState, p: int) -> int:
    return limits_of(state, p, player_mods(state, p))[1]


def hand_size(state: GameState, p: int) -> int:
    """Section 5.1: the hand size (6) at its rule point, plus "hand_size" changes."""
    extra = sum(m["amount"] for m in player_mods(state, p) if m["kind"] == "hand_size")
    return max(1, rule_point(state, p, "hand_size", HAND_SIZE) + extra)


def forbidden(state: GameState, p: int, action: str, element: int | None) -> bool:
    """Whether a "forbid" modifier stops player p from this Action: a ban of the whole Action
    (``element="any"``), or of the Action's own Element (a fire Spell, the fire Library pile, a
    fire card of the supply, a fire Curse). An Element ban never stops an Action that has no
    Element of its own (Cure, a Multi-Element Curse): it filters the payer's sources instead
    (``banned_elements``), so the Action is offered when it can be paid without that Element
    (section 4.10)."""
    return forbidden_by(player_mods(state, p), action, element)


def forbidden_by(mods: Iterable[dict], action: str, element: int | None) -> bool:
    """``forbidden`` with the player's modifiers already read (the seat view's)."""
    for m in mods:
        if m["kind"] == "forbid" and m["action"] in (action, "all"):
            if m["element"] == "any":
                return True
            if element is not None and m["element"] == ELEMENT_NAMES[element]:
                return True
    return False


def banned_elements(state: GameState, p: int, action: str) -> frozenset[int]:
    """Elements whose cards player p may not pay with for this Action (section 4.10: "you can no
    longer take an Action using <Element>" also bars that Element from every payment)."""
    return banned_by(player_mods(state, p), action)


def banned_by(mods: Iterable[dict], action: str) -> frozenset[int]:
    """``banned_elements`` with the player's modifiers already read (the menu's query)."""
    out = None  # a loop, not a list comprehension: asked by every payment and most have no ban
    for m in mods:
        if m["kind"] == "forbid" and m["action"] in (action, "all") and m["element"] != "any":
            if out is None:
                out = []
            out.append(ELEMENT_NAMES.index(m["element"]))
    return frozenset(out) if out else NO_BAN


def adjust_cost(
    state: GameState, p: int, action: str, element: int | None, req: tuple[int, ...]
) -> tuple[int, ...]:
    """Apply "cost" modifiers to a requirement (section 4.10); never below zero.

    ``element`` is the Action's own Element ("same"), None for Actions without one (Cure). Then
    the game's modules' cost transforms (``rules.Module.cost_transforms``: the Vth Element's
    Spontaneous Elements, section 4.9); a base game has none."""
    mods = player_mods(state, p)
    for m in mods:
        if m["kind"] == "cost" and m["action"] in (action, "all"):
            req = apply_cost_mods(mods, action, element, req)
            break
    if state.rules.cost_transforms:
        return transform_cost(state, p, action, req)
    return req


def transform_cost(
    state: GameState, p: int, action: str, req: tuple, banned: frozenset[int] | None = None
) -> tuple:
    """The game's modules' cost transforms that apply to player p now, in order, on an Action's
    cost after its "cost" modifiers (``banned``: p's banned Elements for the Action, when known)."""
    for t in state.rules.cost_transforms:
        if t.applies(state, p):
            if banned is None:
                banned = banned_elements(state, p, action)
            req = t.transform(state, p, action, req, banned)
    return req


def triggers(state: GameState, p: int, event: str) -> list[tuple[str, str]]:
    """(card id, effect part) of every trigger of player p for an event."""
    mag = state.pack.magicians[state.players[p].magician]
    out = []
    for i, m in enumerate(mag.mods):
        if m["kind"] == "trigger" and m["event"] == event:
            out.append((mag.id, f"trigger{i}"))
    if out and ability_lost(state, p):  # asked only when a trigger would fire (a module's query)
        return []
    return out


def expire(state: GameState, duration: str) -> None:
    """End temporary modifiers and neutralized Spells of a duration (A-20, A-68)."""
    for pl in state.players:
        if pl.mods:
            pl.mods = [m for m in pl.mods if m.duration != duration]
        for i, sp in enumerate(pl.spells):
            if sp.neutralized == duration:
                pl.spells[i] = sp._replace(neutralized="")


def apply_cost_mods(
    mods: Iterable[dict], action: str, element: int | None, req: tuple[int, ...]
) -> tuple[int, ...]:
    """``hooks.adjust_cost`` with the player's modifiers already read (the menu reads them once per
    query)."""
    out = list(req)
    for m in mods:
        if m["kind"] != "cost" or m["action"] not in (action, "all"):
            continue
        el = m["element"]
        if el == "same":
            idx = element if element is not None else COST_ANY
        elif el == "any":
            idx = COST_ANY
        else:
            idx = ELEMENT_NAMES.index(el)
        out[idx] = max(0, out[idx] + m["amount"])
    return tuple(out)


def has_mod(state: GameState, p: int, kind: str) -> bool:
    """Whether one of player p's modifiers, read fresh, is of ``kind``."""
    return any(m["kind"] == kind for m in player_mods(state, p))
