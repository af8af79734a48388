"""The "cost" modifiers (docs/rules.md section 4.10), read from a list of modifiers: what
``hooks.adjust_cost`` checks first (``cost_flags``: a "cost" modifier on the Action, a "forbid",
a lost ability) and the adjustment itself (``apply_cost_mods``: each modifier's Elements added to
or taken from its part, never below zero). Pure functions of the list: ``hooks`` reads the
player's modifiers fresh and hands them here.
"""

from __future__ import annotations

from collections.abc import Iterable

from .constants import COST_ANY, ELEMENT_NAMES


def cost_flags(
    mods: Iterable[dict], mag: tuple[dict, ...], action: str, lost: bool
) -> tuple[bool, bool, bool]:
    """For ``hooks.adjust_cost``: whether a "cost" modifier names ``action``, whether one is a "forbid"
    and whether the Magician ability is lost (``lost``, the flag, or a "lose_ability" among
    ``mods``, the temporary and the sourced ones: V-10, V-27), the Magician's (``mag``) read
    only when it is not."""
    costed, banning, lost_by = _scan_costs(mods, action)
    if lost or lost_by:
        return costed, banning, True
    # (a "lose_ability" on the sheet itself does not drop the sheet's modifiers: player_mods' rule)
    on_sheet, sheet_bans, _ = _scan_costs(mag, action)
    return costed or on_sheet, banning or sheet_bans, False


def _scan_costs(mods: Iterable[dict], action: str) -> tuple[bool, bool, bool]:
    """``cost_flags`` of one list: a "cost" modifier naming ``action``, a "forbid", a
    "lose_ability" among ``mods``."""
    costed = banning = lost = False
    for m in mods:
        kind = m["kind"]
        if kind == "cost":
            if m["action"] in (action, "all"):
                costed = True
        elif kind == "forbid":
            banning = True
        elif kind == "lose_ability":
            lost = True
    return costed, banning, lost


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
