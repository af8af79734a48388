"""One reading of a player's modifiers (docs/rules.md section 4.10; the Vth Element's Phobias, 9.2):
what the menu (``menu.MenuView``) asks of the modifiers ``hooks.player_mods`` answers under a
"forbid" or "cure_only" modifier (banned Elements, forbidden Actions, V-36 bans, the Cure
Action's targets), worked out once per modifier tuple. (Without one, the menu's pass over the
few modifiers is cheaper than finding their reading.)

The modifiers are still read fresh on every query (``hooks.player_mods`` asks every source):
this is a pure function of that answer, an immutable tuple of immutable modifiers, found again by
identity (the Magician's tuple, the Phobias' rows and combos and their merges with it are the
same objects query after query). A list (temporary modifiers) is read anew each time. No state
is kept: the same modifiers give the same reading whatever the state (design decision 9).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bbom_env.engine.model.constants import ELEMENT_NAMES
from bbom_env.engine.modifiers.hooks import banned_by, forbidden_by


class ModReading:
    """What a menu query under a "forbid" or "cure_only" modifier asks of the player's modifiers.

    ``forbid``: whether a "forbid" modifier is among them; ``ban_all``: when every "forbid"
    modifier bans one Element for every Action (the Phobias' V-36 texts), the banned Elements
    (``menu_closed_forms.ban_tot``), else None; ``cure_targets``: ``hooks.cure_targets``'s answer (V-31).
    ``banned`` and ``forbidden`` answer ``hooks.banned_by`` and ``hooks.forbidden_by``, each
    (Action, Element) worked out once."""

    __slots__ = ("mods", "forbid", "ban_all", "cure_targets", "_banned", "_forbidden")

    def __init__(self, mods: Iterable[dict]) -> None:
        # (hooks.player_mods answers a tuple or a list: another iterable is read once, kept)
        self.mods: Sequence[dict] = mods if isinstance(mods, (tuple, list)) else tuple(mods)
        forbid = False
        ban_all: list[int] | None = []
        targets: frozenset[int] | None = None
        for m in self.mods:
            kind = m["kind"]
            if kind == "forbid":
                forbid = True
                if m["action"] != "all" or m["element"] == "any":
                    ban_all = None  # _ban_tot's case only: an Element banned for every Action
                elif ban_all is not None:
                    ban_all.append(ELEMENT_NAMES.index(m["element"]))
            elif kind == "cure_only":
                # hooks.cure_targets (V-31): the card that yields it (none without a code)
                targets = (targets or frozenset()) | ({m["code"]} if "code" in m else frozenset())
        self.forbid = forbid
        self.ban_all = frozenset(ban_all) if forbid and ban_all is not None else None
        self.cure_targets = targets
        self._banned: dict[str, frozenset[int]] = {}
        self._forbidden: dict[tuple[str, int | None], bool] = {}

    def banned(self, action: str) -> frozenset[int]:
        """``hooks.banned_by`` of these modifiers."""
        out = self._banned.get(action)
        if out is None:
            out = self._banned[action] = banned_by(self.mods, action)
        return out

    def forbidden(self, action: str, element: int | None) -> bool:
        """``hooks.forbidden_by`` of these modifiers."""
        key = (action, element)
        out = self._forbidden.get(key)
        if out is None:
            out = self._forbidden[key] = forbidden_by(self.mods, action, element)
        return out

    def ban_tot(self, action: str, tot: list[int]) -> list[int]:
        """``menu_closed_forms.ban_tot`` for one Action, when not every "forbid" modifier bans an Element for
        every Action (section 4.10: a temporary "forbid" of one Action, or of its every Element):
        -1 for an Element whose cost of this Action is forbidden (``forbidden``: its Element
        banned, or the whole Action), else its value in ``tot`` (the funds' value: the Element is
        not banned, ``MenuView._funds``)."""
        if self.forbidden(action, None):
            return [-1, -1, -1, -1]  # the whole Action ("any"): every Element's cost forbidden
        banned = self.banned(action)
        if not banned:
            return tot
        return [-1 if e in banned else v for e, v in enumerate(tot)]


class _ReadOnce(ModReading):
    """The reading of modifiers that are not found again (a list: temporary modifiers): asked a
    few times in one query, its answers are worked out on each question, not stored."""

    __slots__ = ()

    def banned(self, action: str) -> frozenset[int]:
        return banned_by(self.mods, action)

    def forbidden(self, action: str, element: int | None) -> bool:
        return forbidden_by(self.mods, action, element)


class ForbidOnly(_ReadOnce):
    """A base game's "forbid" modifiers (its own, a Magician's or a temporary one): only
    ``banned`` and ``forbidden`` are asked (no V-36 ban of every Action, no "cure_only": module
    rulings), answered by a pass on each question, as before the readings."""

    __slots__ = ()

    def __init__(self, mods: Sequence[dict]) -> None:  # (nothing read ahead)
        self.mods = mods
        self.forbid, self.ban_all, self.cure_targets = True, None, None


_READ: dict[int, ModReading] = {}


def read(mods: Iterable[dict]) -> ModReading:
    """The reading of ``hooks.player_mods``' answer: a tuple's found again by identity (kept with
    it, so its id is not reused meanwhile), a list's made anew."""
    if type(mods) is not tuple:
        return _ReadOnce(mods)
    known = _READ.get(id(mods))
    if known is not None and known.mods is mods:
        return known
    if len(_READ) > 4096:
        _READ.clear()
    known = _READ[id(mods)] = ModReading(mods)
    return known
