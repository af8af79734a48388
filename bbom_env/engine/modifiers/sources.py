"""The modules' modifier sources as the hooks ask them (docs/rules.md section 9.2: cards active in a
zone, e.g. the Vth Element's Phobias in a support; ``rules.Module.modifier_sources``), and which
modifier kinds a pack's Magicians carry (section 4.10).

``gather(modules)`` is the one function that asks every source of a module set for a player, in
module order: the single source itself when there is one (the Phobias'), so a hook pays one call.
It is a pure function of the modules tuple (``rules.ruleset`` is one too), the last answer found
again by identity of the tuple and forgotten when a module is (un)registered
(``rules.ModulesMemo``). Nothing of a state is kept: the sources are asked on every query
(design decision 9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from bbom_env.engine.cards.pack import PackMemo
from bbom_env.engine.core.rules import ModulesMemo, ruleset

if TYPE_CHECKING:
    from bbom_env.engine.cards.pack import Pack
    from bbom_env.engine.core.state import GameState

Source = Callable[["GameState", int], Iterable[dict]]  # rules.Module.modifier_sources


def sourced(state: GameState, p: int, sources: tuple[Source, ...]) -> list[dict]:
    """What several sources yield for player p, in order."""
    out: list[dict] = []
    for source in sources:
        out += source(state, p)
    return out


def _nothing(state: GameState, p: int) -> tuple[dict, ...]:
    return ()  # no module source (e.g. the Dark Matter module alone)


def _gather(modules: tuple[str, ...]) -> Source:
    sources = ruleset(modules).modifier_sources
    if len(sources) == 1:
        return sources[0]
    if sources:
        return lambda state, p: sourced(state, p, sources)
    return _nothing


# The function asking every modifier source of a module set for a player: an iterable of modifiers
# (a source's own answer: often a tuple, most often (); any iterable for a module's source, so read
# it once or make a list). Hot paths read ``gather.last`` inline first.
gather: ModulesMemo[Source] = ModulesMemo(_gather)


def _magician_kinds(pack: Pack) -> frozenset[str]:
    return frozenset(m["kind"] for mag in pack.magicians.values() for m in mag.mods)


# The modifier kinds any Magician of a pack carries (a per-pack fact). A hook that reads one kind
# only, which no Magician of the pack carries, asks the temporary modifiers and the modules'
# sources only: the Magician's would add nothing, lost or not (so V-10, V-27 need no check).
magician_kinds: PackMemo[frozenset[str]] = PackMemo(_magician_kinds)
