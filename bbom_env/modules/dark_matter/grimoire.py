"""Dark Monsters: the Vth Grimoire in a game with the Dark Matter module (docs/rules.md section 2.2
step 7; V-13 to V-16; A-03, A-40, A-62).

**Setup** (``setup_dark_grimoire``, a module setup step, so it runs after every base draw of the
RNG and the base deal of a seed is unchanged): the Grimoire the base setup built is rebuilt:

* the Cover: 1 drawn at random from the base Covers and the 3 Vth Covers together (section 2.2);
* the Inside pages: k = 3 / 4 / 5 Dark Monster pages (difficulty 1 / 2 / 3: the Round track's
  ``config.difficulty`` drives both, A-40) drawn at random from the 10, completed with base Inside
  pages to ``ROUNDS - 1`` (5), the 5 shuffled; a Cover never counts toward k (V-16);
* the base End page last.

The base Inside pages are the first ``5 - k`` of the 5 the base setup already drew: the base setup
draws them as ``rng.sample`` (an ordered random sample), so any fixed part of it is itself a
uniformly random draw of that many base pages. Reusing them draws less from the RNG than drawing
again, with the same distribution. Draws, in order: the Cover, the k Dark Monster pages, the shuffle.

**The three known Grimoire texts** (V-13 gives their sides):

* arrival "Add 2 tokens at random to the third Curse card" (V-14, A-62): op ``placed_curse_tokens``
  (``position`` 3, ``count`` 2): the ``position``-th Curse in the placement order of this Monster's
  placement (read from the "curse_placed" events the base placement logs after the "monster"
  event; the base game logs them already, so nothing changes for it). Fewer Curses placed: nothing
  (with ``arrival_effect_after_placement=False``, A-03, none is placed yet: nothing). Each token is
  drawn at random from the Element token pool (A-62: an empty pool gives nothing more); never on a
  Dark Curse (V-08: if the third Curse is one, nothing).
* Bonus "A player cures all the Madness in their discard pile and draw pile, then shuffles them to
  rebuild their draw pile" (V-15): op ``cure_and_rebuild`` with ``target = "a_player"``: the Active
  Player chooses the player with the base seat pick (the ``tgt`` frame, DP-E01); that player returns
  every Madness of their discard pile and deck under the Madness pile (A-67), then their discard
  pile and deck are shuffled together into the new deck, with no Madness for this shuffle.
* Failure "All players place 1 Madness on their draw pile": the base vocabulary says it already
  (``receive_madness`` with ``to = "deck_top"``; Grimoire effects target each player).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import TARGETS, IntRange, PackIndex, auto_op, return_madness
from bbom_env.engine.model.constants import NUM_CODES, NUM_ELEMENTS, NUM_TRACK_SLOTS, ROUNDS, is_madness

from .content import DARK_SYMBOL
from .state import NAME

if TYPE_CHECKING:
    from bbom_env.engine.ext import GameState, Pack

# Section 2.2 step 7 and A-40: Dark Monster Inside pages by difficulty (Easy / Intermediate /
# Difficult = the Round track's levels 1 / 2 / 3).
DARK_MONSTERS_BY_DIFFICULTY = {1: 3, 2: 4, 3: 5}
GRIMOIRE_EVENT = "dark_grimoire"


def _page_ids(pack: Pack, kind: str, module: str) -> tuple[str, ...]:
    return tuple(sorted(p.id for p in pack.pages.values() if p.kind == kind and p.module == module))


def _setup_pages(pack: Pack) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the Covers: the base's then the Vth's, the Dark Monster Inside pages), each sorted by id."""
    return _page_ids(pack, "cover", "") + _page_ids(pack, "cover", NAME), _page_ids(pack, "inside", NAME)


# Sorted once per pack (a game's setup sorted the pack's pages again: ~5 us of every new game).
_SETUP_PAGES: PackIndex[tuple[tuple[str, ...], tuple[str, ...]]] = PackIndex(_setup_pages)


def dark_monster_count(state: GameState) -> int:
    """k, the Dark Monster Inside pages of this game's Grimoire (section 2.2 step 7, A-40)."""
    return DARK_MONSTERS_BY_DIFFICULTY[state.config.difficulty]


def setup_dark_grimoire(state: GameState) -> None:
    """Section 2.2 step 7 (V-16, A-40): the Grimoire rebuilt with k Dark Monster pages (see the
    module docstring: the Cover from the 7, the base setup's first 5 - k Inside pages reused)."""
    rng, k = state.rng, dark_monster_count(state)
    covers, dark = _SETUP_PAGES(state.pack)
    if len(dark) < k:
        raise ValueError(
            f"dark_matter: {len(dark)} Dark Monster Inside pages in the pack, difficulty needs {k}"
        )
    base_insides, end = state.grimoire[1:ROUNDS], state.grimoire[ROUNDS:]
    cover = covers[rng.randrange(len(covers))]
    insides = rng.sample(dark, k) + base_insides[: ROUNDS - 1 - k]
    rng.shuffle(insides)
    state.grimoire = [cover, *insides, *end]
    state.event(GRIMOIRE_EVENT, tuple(state.grimoire))


def check_dark_grimoire(state: GameState) -> None:
    """The Grimoire as section 2.2 step 7 builds it: a Cover (base or Vth), ROUNDS - 1 distinct
    Inside pages of which exactly k are Dark Monsters (A-40), the End page."""
    pages = state.pack.pages
    kinds = ["cover"] + ["inside"] * (ROUNDS - 1) + ["end"]
    g = state.grimoire
    if len(g) != len(kinds) or len(set(g)) != len(g):
        raise AssertionError(f"dark_matter: grimoire {g} is not {len(kinds)} distinct pages")
    for i, pid in enumerate(g):
        if pid not in pages or pages[pid].kind != kinds[i]:
            raise AssertionError(f"dark_matter: grimoire[{i}]: {pid!r} is not a {kinds[i]} page")
    k = sum(pages[pid].module == NAME for pid in g[1:ROUNDS])
    if k != dark_monster_count(state):
        raise AssertionError(
            f"dark_matter: grimoire holds {k} Dark Monster pages, difficulty "
            f"{state.config.difficulty} needs {dark_monster_count(state)} (section 2.2, A-40)"
        )


# -- V-14: tokens on the n-th Curse placed for this Monster ------------------------------------------

PLACED_CURSE_TOKENS = "placed_curse_tokens"
PLACED_CURSE_TOKENS_SCHEMA = {"position": (IntRange(1, NUM_TRACK_SLOTS), 3), "count": ("count", 1)}


def placed_curses(state: GameState) -> list[tuple[int, str]]:
    """(slot, Curse id) of every Curse placed for the current Monster, in placement order: the
    base placement's "curse_placed" events since the last "monster" event (section 3.3.5)."""
    out = []
    for ev in reversed(state.log):
        if ev[1] == "monster":
            break
        if ev[1] == "curse_placed":
            out.append((ev[2], ev[3]))
    return out[::-1]


def _placed_curse_tokens(state: GameState, f: dict, op: dict) -> None:
    """V-14: ``count`` tokens, each drawn at random from the pool (A-62), on the ``position``-th
    Curse placed; fewer placed, or that Curse gone, or a Dark Curse (V-08): nothing."""
    placed = placed_curses(state)
    if len(placed) < op["position"]:
        return
    slot, cid = placed[op["position"] - 1]
    stack = state.track[slot]
    idx = [i for i, c in enumerate(stack) if c.curse == cid]
    if not idx or state.pack.curses[cid].type == DARK_SYMBOL:
        return
    curse = stack[idx[0]]
    tokens = list(curse.tokens)
    for _ in range(f["count"]):
        pool = [e for e in range(NUM_ELEMENTS) for _ in range(state.tokens[e])]
        if not pool:
            break
        e = pool[state.rng.randrange(len(pool))]
        state.tokens[e] -= 1
        tokens[e] += 1
    stack[idx[0]] = curse._replace(tokens=tuple(tokens))
    state.event("tokens_added", slot, cid, tuple(tokens))


auto_op(PLACED_CURSE_TOKENS, _placed_curse_tokens)


# -- V-15: cure every Madness of the discard pile and deck, then shuffle both ----------------------

CURE_AND_REBUILD = "cure_and_rebuild"
CURE_AND_REBUILD_SCHEMA = {"target": (TARGETS, "a_player")}


def _cure_and_rebuild(state: GameState, f: dict, op: dict) -> None:
    """V-15: the chosen player (``f["player"]``) cures every Madness of their discard pile and
    deck (back under the Madness pile, A-67), then shuffles both into the new deck; no Madness for
    this shuffle (it is not a refill, section 5.2)."""
    p = f["player"]
    pl = state.players[p]
    cards = pl.deck + [c for c in range(NUM_CODES) for _ in range(pl.discard[c])]
    cured = [c for c in cards if is_madness(c)]
    for c in cured:
        return_madness(state, c)
    pl.discard = [0] * NUM_CODES
    pl.deck = [c for c in cards if not is_madness(c)]
    state.rng.shuffle(pl.deck)
    state.event(CURE_AND_REBUILD, p, len(cured), len(pl.deck))


auto_op(CURE_AND_REBUILD, _cure_and_rebuild)

OPS: tuple[str, ...] = (PLACED_CURSE_TOKENS, CURE_AND_REBUILD)
OP_SCHEMAS = (
    (PLACED_CURSE_TOKENS, PLACED_CURSE_TOKENS_SCHEMA),
    (CURE_AND_REBUILD, CURE_AND_REBUILD_SCHEMA),
)
