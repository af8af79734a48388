"""Standing rule changes (docs/rules.md sections 4.10, 4.11): Magician abilities and temporary effects
("until the next Monster", "this turn") as modifiers, queried fresh on every use.

A modifier is a dict from ``vocab.MOD_SCHEMAS`` (or a module's kind, ``vocab.MODULE_MOD_SCHEMAS``).
Sources, in order: the player's Magician sheet (unless the ability is lost), the player's temporary
modifiers, then the modifier sources of the game's modules (``rules.Module.modifier_sources``: cards
active in a zone, e.g. the Vth Element's Phobias in a support, docs/rules.md section 9.2), each asked
fresh (``mod_sources.gather``). A base game (no module) never reaches the third.

``player_mods`` answers them all; in a module game a hook that reads one kind (``rule_point``,
``hand_size``, ``banned_elements``, ``cure_targets``, ``has_kind``, the limits' sums) reads the
temporary and the sourced modifiers where they lie, and the Magician's only when a Magician of the
pack carries that kind (``mod_sources.magician_kinds``, a per-pack fact) and the ability is not
lost (V-10, V-27): the same answer, without the merged list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bbom_env.engine.model.constants import COST_ANY, ELEMENT_NAMES, HAND_SIZE
from bbom_env.engine.modifiers.sources import gather, magician_kinds
from bbom_env.engine.modifiers.transforms import NO_BAN, transform_cost

if TYPE_CHECKING:
    from bbom_env.engine.cards.card_types import Magician
    from bbom_env.engine.core.state import GameState


def player_mods(state: GameState, p: int) -> Iterable[dict]:
    """Player p's modifiers, fresh: the Magician's (unless the ability is lost), the temporary
    ones, then what the game's modules' sources yield (cards active in a zone)."""
    pl = state.players[p]
    if not state.config.modules:
        # A base game (the hot path): no module sources, and no "lose_ability" modifier (a module
        # kind, vocab.MODULE_MOD_SCHEMAS: pack_module_checks.check_module_kinds refuses it in a base
        # game), so the ability is lost only by the flag. Mostly only the Magician's (a tuple).
        mods = pl.mods
        if not mods:
            return () if pl.ability_lost else state.pack.magicians[pl.magician].mods
        temp = [m.modifier for m in mods]
        return temp if pl.ability_lost else [*state.pack.magicians[pl.magician].mods, *temp]
    modules = state.config.modules
    last = gather.last
    # The modules' modifier sources (cards active in a zone: the Phobias in a support, 9.2), each
    # asked once; one source's answer taken as it is (most often (): nothing active).
    sourced = (last[1] if last[0] is modules else gather(modules))(state, p)
    if sourced:
        if not pl.mods and not pl.ability_lost:
            # The merged tuple of _with_sourced, found again (inline: a hot path)
            known = _MERGED.get(id(sourced))
            if known is not None and known[1] is sourced:
                mag = state.pack.magicians[pl.magician].mods
                if known[0] is mag:
                    return known[2]
        return _with_sourced(state, p, sourced)
    # Nothing sourced (no module source, e.g. the Dark Matter module alone, or nothing active in
    # a zone): the Magician's and the temporary ones; a temporary "lose_ability" modifier (V-10)
    # takes the Magician's away.
    mods = pl.mods
    if not mods:
        return () if pl.ability_lost else state.pack.magicians[pl.magician].mods
    temp = [m.modifier for m in mods]
    if pl.ability_lost or _loses(temp):
        return temp
    return [*state.pack.magicians[pl.magician].mods, *temp]


def _with_sourced(state: GameState, p: int, sourced: Iterable[dict]) -> Sequence[dict]:
    """``player_mods`` with what the modules' sources yield (``sourced``, not empty or an
    iterator): the Magician's (unless the ability is lost, also by a temporary or sourced
    "lose_ability" modifier: V-10, V-27), the temporary ones, then the sourced ones."""
    pl = state.players[p]
    mods = pl.mods
    if type(sourced) is tuple:
        if not mods and not pl.ability_lost:
            # No temporary modifier, the flag off (most seats with a Phobia): the answer depends
            # on the Magician's tuple and the sourced one only, which the sources give again
            # unchanged for the same cards (the Phobias' rows and combos), so the merged tuple is
            # built once per pair and found again by identity: a pure function of two immutable
            # tuples, not a reading kept across states (the source is asked on every query).
            # (Keyed by the sourced tuple: a Magician's tuple is checked, and replaced, on use.)
            mag = state.pack.magicians[pl.magician].mods
            if len(_MERGED) > 4096:
                _MERGED.clear()
            merged = sourced if _loses(sourced) else mag + sourced  # V-27 (see below)
            _MERGED[id(sourced)] = (mag, sourced, merged)  # both kept: their ids are not reused meanwhile
            return merged
    else:
        sourced = list(sourced)  # any iterable (Module field)
    temp = [m.modifier for m in mods] if mods else []
    if pl.ability_lost or _loses(temp) or _loses(sourced):
        return [*temp, *sourced]
    return [*state.pack.magicians[pl.magician].mods, *temp, *sourced]


_MERGED: dict[int, tuple[tuple[dict, ...], tuple[dict, ...], tuple[dict, ...]]] = {}


def _loses(mods: Iterable[dict]) -> bool:
    """Whether a "lose_ability" modifier is among these (V-10, V-27)."""
    for m in mods:
        if m["kind"] == "lose_ability":
            return True
    return False


def ability_lost(state: GameState, p: int) -> bool:
    """Whether player p's Magician ability is off: lost for good (``PlayerState.ability_lost``,
    set by ``limits.lose_ability``) or while a "lose_ability" modifier is active (a module's
    card, e.g. a Phobia in support). The one query every rule asks."""
    pl = state.players[p]
    if pl.ability_lost:
        return True
    if not state.config.modules:
        return False  # "lose_ability" is a module kind: never in a base game (see player_mods)
    for m in pl.mods:
        if m.modifier["kind"] == "lose_ability":
            return True
    modules = state.config.modules
    last = gather.last
    return _loses((last[1] if last[0] is modules else gather(modules))(state, p))


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
    modules = state.config.modules
    if not modules:
        return default  # "replace" is a module kind: never in a base game (see player_mods)
    value = default
    for m in _of_kind(state, p, modules, "replace"):  # (in player_mods order)
        if m["kind"] == "replace" and m["point"] == point:
            value = m["value"]
    return value


def cure_targets(state: GameState, p: int) -> frozenset[int] | None:
    """The card codes player p's Cure Action may still target, or None when any Madness may be:
    a "cure_only" modifier (a module kind: the Phobia "You can no longer take the Cure Action
    (except for this card)", V-31) allows only the card that yields it (its ``code``; one without
    a code allows none). Only the Cure Action reads it: others may cure p's Madness, and cure
    effects work as printed (docs/rules.md 4.5)."""
    modules = state.config.modules
    if not modules:
        return None  # "cure_only" is a module kind: never in a base game (see player_mods)
    out = None
    for m in _of_kind(state, p, modules, "cure_only"):
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
    modules = state.config.modules
    if not modules:
        return 0
    # (no module source, e.g. the Dark Matter module alone, or nothing active in a zone: ())
    last = gather.last
    sourced = (last[1] if last[0] is modules else gather(modules))(state, p)
    if not sourced:
        return 0  # nothing active in a zone (most queries)
    n = 0
    for m in sourced:
        if m["kind"] == "cost" and m["element"] == "same" and m["action"] in (action, "all"):
            n += m["amount"]
    return max(0, n)


def _base_sum(state: GameState, p: int, kind: str) -> int:
    n = 0
    for m in player_mods(state, p):  # (a loop, not a generator's sum: the base game as fast as before)
        if m["kind"] == kind:
            n += m["amount"]
    return n


def _sum(state: GameState, p: int, kind: str) -> int:
    modules = state.config.modules
    if not modules:
        return _base_sum(state, p, kind)
    # A module game: the sum over the Magician's (unless the ability is lost: the flag, or a
    # temporary or sourced "lose_ability", V-10, V-27), the temporary and the sourced modifiers,
    # read where they lie (player_mods' list not built)
    pl = state.players[p]
    n = 0
    lost = pl.ability_lost
    for t in pl.mods:
        m = t.modifier
        k = m["kind"]
        if k == kind:
            n += m["amount"]
        elif k == "lose_ability":
            lost = True
    last = gather.last
    for m in (last[1] if last[0] is modules else gather(modules))(state, p):
        k = m["kind"]
        if k == kind:
            n += m["amount"]
        elif k == "lose_ability":
            lost = True
    if not lost:
        for m in state.pack.magicians[pl.magician].mods:
            if m["kind"] == kind:
                n += m["amount"]
    return n


def support_capacity(state: GameState, p: int) -> int:
    """Slots on the Magician sheet plus ability changes (section 1.6: 3 by default)."""
    base = state.pack.magicians[state.players[p].magician].support_slots
    return max(0, base + _sum(state, p, "support_slots"))


def spell_limit(state: GameState, p: int) -> int:
    base = state.pack.magicians[state.players[p].magician].spell_limit
    return max(1, base + _sum(state, p, "spell_limit"))


def ability_and_limits(state: GameState, p: int) -> tuple[bool, int, int]:
    """(``ability_lost``, ``support_capacity``, ``spell_limit``) of player p, each modifier source
    asked once (an observation's seat block asks all three)."""
    pl = state.players[p]
    mag = state.pack.magicians[pl.magician]
    modules = state.config.modules
    sourced: Iterable[dict] = gather(modules)(state, p) if modules else ()
    if type(sourced) is not tuple:
        sourced = list(sourced)  # any iterable (Module.modifier_sources)
    if not pl.mods and type(sourced) is tuple:
        # No temporary modifier (most seats): the answer depends on the Magician, the flag and the
        # sourced tuple only, which a source gives again unchanged (the Phobias' table rows, ()),
        # so it is worked out once per (Magician, flag, tuple) and kept.
        key = (id(mag), pl.ability_lost, id(sourced))
        known = _LIMITS.get(key)
        if known is not None and known[0] is mag and known[1] is sourced:
            return known[2]
        if len(_LIMITS) > 4096:
            _LIMITS.clear()
        answer = _ability_and_limits(mag, pl.ability_lost, (), sourced)
        _LIMITS[key] = (mag, sourced, answer)  # both kept: their ids are not reused meanwhile
        return answer
    return _ability_and_limits(mag, pl.ability_lost, [m.modifier for m in pl.mods], sourced)


def _ability_and_limits(
    mag: Magician, lost_flag: bool, temp: Sequence[dict], sourced: Iterable[dict]
) -> tuple[bool, int, int]:
    # player_mods' and ability_lost's test
    lost = lost_flag or (temp and _loses(temp)) or (sourced and _loses(sourced))
    slots = extra = 0
    for group in (temp, sourced) if lost else (mag.mods, temp, sourced):
        more_slots, more_spells = limit_sums(group)
        slots += more_slots
        extra += more_spells
    return bool(lost), max(0, mag.support_slots + slots), max(1, mag.spell_limit + extra)


def limit_sums(mods: Iterable[dict]) -> tuple[int, int]:
    """What these modifiers add to the support capacity and to the Spell limit (section 4.11)."""
    slots = extra = 0
    for m in mods:
        kind = m["kind"]
        if kind == "support_slots":
            slots += m["amount"]
        elif kind == "spell_limit":
            extra += m["amount"]
    return slots, extra


_LIMITS: dict[tuple[int, bool, int], tuple[Magician, tuple, tuple[bool, int, int]]] = {}


def hand_size(state: GameState, p: int) -> int:
    """Section 5.1: the hand size (6) at its rule point, plus "hand_size" changes."""
    modules = state.config.modules
    if not modules:
        return max(1, HAND_SIZE + _sum(state, p, "hand_size"))  # no rule point in a base game
    size, extra = HAND_SIZE, 0
    for m in _of_kind(state, p, modules, "replace", "hand_size"):  # rule_point and _sum in one pass
        kind = m["kind"]
        if kind == "replace":
            if m["point"] == "hand_size":
                size = m["value"]  # the last one found wins (rule_point)
        elif kind == "hand_size":
            extra += m["amount"]
    return max(1, size + extra)


def forbidden(state: GameState, p: int, action: str, element: int | None) -> bool:
    """Whether a "forbid" modifier stops player p from this Action: a ban of the whole Action
    (``element="any"``), or of the Action's own Element (a fire Spell, the fire Library pile, a
    fire card of the supply, a fire Curse). An Element ban never stops an Action that has no
    Element of its own (Cure, a Multi-Element Curse): it filters the payer's sources instead
    (``banned_elements``), so the Action is offered when it can be paid without that Element
    (section 4.10)."""
    return forbidden_by(player_mods(state, p), action, element)


def forbidden_by(mods: Iterable[dict], action: str, element: int | None) -> bool:
    """``forbidden`` with the player's modifiers already read (the menu reads them once per
    query)."""
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
    modules = state.config.modules
    if not modules:
        return banned_by(player_mods(state, p), action)
    return banned_by(_of_kind(state, p, modules, "forbid"), action)


def _of_kind(
    state: GameState, p: int, modules: tuple[str, ...], kind: str, other: str = ""
) -> Iterable[dict]:
    """Player p's modifiers in a module game, for a hook that reads one ``kind`` (or two, with
    ``other``) only: when no Magician of the pack carries it (``magician_kinds``), the temporary
    and the sourced ones, in ``player_mods`` order, without the ability-lost check (the Magician's
    would add nothing); else ``player_mods``."""
    pack = state.pack
    memo = magician_kinds.last
    carried = memo[1] if memo[0] is pack else magician_kinds(pack)
    if kind in carried or (other and other in carried):  # type: ignore[operator]
        return player_mods(state, p)
    temp = state.players[p].mods
    last = gather.last
    sourced = (last[1] if last[0] is modules else gather(modules))(state, p)
    if temp:
        out = []  # a loop: a generator or a list comprehension costs a frame (a hot path)
        for t in temp:
            out.append(t.modifier)
        out += sourced
        return out
    return sourced


def has_kind(state: GameState, p: int, kind: str) -> bool:
    """Whether a modifier of ``kind`` is among player p's, in a module game (``GameState.has_mod``:
    a base game's loops over ``player_mods``)."""
    pack = state.pack
    memo = magician_kinds.last
    if kind in (memo[1] if memo[0] is pack else magician_kinds(pack)):  # type: ignore[operator]
        return any(m["kind"] == kind for m in player_mods(state, p))
    # _of_kind, inline (asked by every menu, ``payment.values_and_currency``): no list built
    for t in state.players[p].mods:
        if t.modifier["kind"] == kind:
            return True
    modules = state.config.modules
    last = gather.last
    for m in (last[1] if last[0] is modules else gather(modules))(state, p):
        if m["kind"] == kind:
            return True
    return False


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
    if state.config.modules:
        return transform_cost(state, p, action, req)
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
    """Whether one of player p's modifiers, read fresh, is of ``kind`` (asked by most payments)."""
    if state.config.modules:
        return has_kind(state, p, kind)  # the kind where it can lie
    for m in player_mods(state, p):  # a base game: the Magician's and the temporary ones
        if m["kind"] == kind:
            return True
    return False
