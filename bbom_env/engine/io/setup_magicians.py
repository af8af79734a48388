"""Setup step 6, the Magicians (docs/rules.md section 2.1 step 6, "Magicians whose decks can be
dealt"): a fixed list is checked against the game's Magician choice; a random draw gives Magicians
whose starting decks the Element cards can deal.

Why a draw can fail without the check: every starting deck comes out of the Element cards (18 /
10 / 6 of each Element by value, section 1.1), and Nightmare deals a value-1 card for each value-2
one (A-39). The base game's 8 Magicians, two per Element, always fit; with the Dark Matter
module's 4 (V-18) three Magicians of one Element can sit at a 5-player table, and in Nightmare their
decks then need more value-1 cards of that Element than exist. A random draw keeps its first
Magicians whenever they can be dealt (so every game that could start before is dealt exactly as
before); otherwise it draws again among the sets of Magicians that can be dealt.
"""

from __future__ import annotations

import random
from itertools import combinations

from bbom_env.engine.cards.pack import Pack
from bbom_env.engine.core.config import ConfigError, GameConfig
from bbom_env.engine.core.rules import MODULES, game_pack, offered_magicians, switch_defaults
from bbom_env.engine.model.constants import (
    ELEMENT_CARDS_PER_VALUE,
    ELEMENT_NAMES,
    NUM_ELEMENTS,
    code_element,
    code_value,
)


def draw_magicians(config: GameConfig, pack: Pack, rng: random.Random) -> list[str]:
    """Step 6: ``config.magicians`` checked (each offered in this game, their decks dealable), or
    ``config.num_players`` Magicians drawn with ``rng``."""
    offered = offered_magicians(config, pack)
    if config.magicians != "random":
        for i, mid in enumerate(config.magicians):
            if mid not in offered:
                why = _why_not_offered(config, pack, mid)
                raise ConfigError(f"GameConfig.magicians[{i}]={mid!r} is {why}; allowed: {offered}")
        short = shortage(pack, config.magicians, config.nightmare)
        if short:
            raise ConfigError(f"GameConfig.magicians={list(config.magicians)}: {short}")
        return list(config.magicians)
    n = config.num_players
    first = rng.sample(offered, n)
    if not shortage(pack, first, config.nightmare):
        return first
    # The rare draw whose decks cannot be dealt: a set drawn uniformly among those that can, seated in
    # a random order (the same law as drawing again until a draw can be dealt, in a bounded time).
    fits = [c for c in combinations(offered, n) if not shortage(pack, c, config.nightmare)]
    if not fits:
        why = shortage(pack, first, config.nightmare)
        raise ConfigError(
            f"GameConfig.magicians='random': no {n} of the Magicians {offered} have starting decks that "
            f"can be dealt (the first drawn: {why})"
        )
    return rng.sample(fits[rng.randrange(len(fits))], n)


def shortage(pack: Pack, magicians: tuple[str, ...] | list[str], nightmare: bool) -> str:
    """What the starting decks of ``magicians`` need beyond the Element cards that exist ("" when
    they can be dealt): Nightmare turns each value-2 card into a value-1 card (A-39)."""
    need = [[0, 0, 0, 0] for _ in range(NUM_ELEMENTS)]  # [Element][value]
    for mid in magicians:
        for code in pack.magicians[mid].starting_deck:
            v = code_value(code)
            need[code_element(code)][1 if v == 2 and nightmare else v] += 1
    for e in range(NUM_ELEMENTS):
        for v in (1, 2, 3):
            if need[e][v] > ELEMENT_CARDS_PER_VALUE[v]:
                mode = " in Nightmare mode (A-39: a value-1 card for each value-2 one)" if nightmare else ""
                return (
                    f"their starting decks need {need[e][v]} value-{v} {ELEMENT_NAMES[e]} cards{mode}; "
                    f"{ELEMENT_CARDS_PER_VALUE[v]} exist"
                )
    return ""


def _why_not_offered(config: GameConfig, pack: Pack, mid: str) -> str:
    """Why a Magician id is not in this game's Magician choice, naming the setting to change."""
    magician = pack.magicians.get(mid)
    if magician is None:
        owner = _module_of(config, mid)
        if owner:
            return (
                f"a Magician of module {owner!r}, which this game does not play "
                f"(GameConfig.modules={config.modules}: add {owner!r})"
            )
        return f"not a Magician of pack {pack.id!r}"
    # The settings that bring it into the choice: a module switch back to its default (V-18), a
    # module the game lacks (V-19), or both.
    moved = dict(config.switches)  # the switches off their defaults
    reset = {name: switch_defaults()[name] for name in moved}
    tries = [({name: reset[name]}, "") for name in moved]
    others = [m for m in sorted(MODULES) if m != "base" and m not in config.modules]
    tries += [({"modules": (*config.modules, m)}, m) for m in others]
    tries += [({**reset, "modules": (*config.modules, m)}, m) for m in others if reset]
    for change, added in tries:
        try:
            wider = config.replace(**change)
            if mid not in offered_magicians(wider, game_pack(wider) if added else pack):
                continue
        except (ConfigError, ValueError, OSError):  # that setting cannot make this game: not the reason
            continue
        why = [f"left out by GameConfig.{k}={moved[k]!r}" for k in change if k in moved]
        if added:
            why.append(f"offered only with module {added!r} too (GameConfig.modules={config.modules})")
        return f"a Magician of module {magician.module!r} " + ", and ".join(why)
    return f"a Magician of module {magician.module!r} that it leaves out of this game's Magician choice"


def _module_of(config: GameConfig, mid: str) -> str:
    """The registered module whose cards hold the Magician ``mid`` ("" for none)."""
    for name in sorted(MODULES):
        if name == "base" or name in config.modules:
            continue
        try:
            other = GameConfig(pack=config.pack, pack_overrides=config.pack_overrides, modules=(name,))
            if mid in game_pack(other).magicians:
                return name
        except (ConfigError, ValueError, OSError):  # its cards do not load with this pack: not it
            continue
    return ""
