"""The heuristic team's play of the Dark Matter module (docs/rules.md sections 4.6-4.9, 9.1).

Asked in each Action menu of a game with the module (``HeuristicTeam._menu``: steps 1-2 before
the base game's steps, step 3 after its Curse plan and acquisitions); None leaves the choice to
the base game's steps. The plan, in order:

1. **Destroy a Dark Curse** whenever its 4 Dark Matter can be paid (section 4.7): a Dark Curse
   only Dark Matter destroys, and it blocks the Monster's defeat like any Curse. While one waits,
   a player who holds 1 to 3 Dark Matter buys more to complete the 4 (before the base steps).
2. **The Black Book** on the Active Player's turn (section 4.8, A-60), once Dark Matter is spare:
   what stays after the cast must still cover the Dark Curses on the track, 4 each (they come
   first). The right page first (it is cast once, then the page turns); the left page otherwise.
3. **Acquire Dark Matter** (section 4.6, V-17) while the team holds less than it needs: 4 per
   Dark Curse on the track or announced by the next Monster (late in the round), and a Black
   Book spell's worth; only from a hand with spare Element cards (the base plan's Curses first:
   the acquisition spends 2 Element cards).

At Recuperation (DP-36) Dark Matter in hand is kept while a Dark Curse is on the track or
announced (4 must be in one payment). Payments are the engine's (auto) or the base heuristic's
manual picks: a Dark Matter cost is paid with the only legal picks, Dark Matter cards.

Measured (60 seeded games, 2 players, level 1; docs/balance.md has the full table): buying Dark
Matter whenever a Dark Curse needs it, before the base game's steps, won 5-8 games against 15 for
this plan, and buying from any hand after the base steps 8: each acquisition spends 2 Element
cards the base Curses need, and 4 Dark Matter rarely meet in one hand, so the plan buys only from
a hand with cards to spare (92 Dark Matter bought, 17 Black Spells cast, 9 of the 203 Dark Curses
placed destroyed in those 60 games; buying for every Dark Curse destroyed 160 of them and won 3).
"""

from __future__ import annotations

from bbom_env.engine import GameState
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import DARK_MATTER, MAX_STACK, NUM_ELEMENT_CODES

MODULE = "dark_matter"
DARK_CURSE = "dark_matter"  # the Curse type of Dark Curses (section 9.1)
CURSE_COST = 4  # section 4.7
TEAM_CAP = 8  # Dark Matter the team keeps at most (two Dark Curses' worth): more is dead cards
BOOK_STOCK = 3  # Dark Matter the team keeps for the Black Book when no Dark Curse needs it


def dark_matter_held(state: GameState, p: int) -> int:
    """Dark Matter ``p`` can pay with now: hand and every support pool (section 4.0)."""
    n = state.players[p].hand[DARK_MATTER]
    return n + sum(s.card == DARK_MATTER for pl in state.players for s in pl.support)


def team_dark_matter(state: GameState) -> int:
    """Dark Matter the team owns: every hand, deck, discard pile and support."""
    total = 0
    for pl in state.players:
        total += pl.hand[DARK_MATTER] + pl.discard[DARK_MATTER] + pl.deck.count(DARK_MATTER)
        total += sum(s.card == DARK_MATTER for s in pl.support)
    return total


def _dark_curses(state: GameState) -> list[tuple[int, int, bool]]:
    """(slot, position from the top, face up) of every Dark Curse on the track."""
    out = []
    for slot, stack in enumerate(state.track):
        d = len(stack)
        for pos in range(d):
            c = stack[d - 1 - pos]
            if state.pack.curses[c.curse].type == DARK_CURSE:
                out.append((slot, pos, c.face_up))
    return out


def _announced(state: GameState) -> int:
    """Dark Matter symbols of the next Monster, once the marker is late in the round (space 4+):
    the Dark Curses about to come."""
    if state.marker < 4 or not 1 <= state.round < len(state.grimoire) - 1:
        return 0
    page = state.pack.pages[state.grimoire[state.round]]
    return sum(s == DARK_CURSE for s in page.monster.curse_symbols) if page.monster else 0


def dark_matter_first(state: GameState, f: dict, legal: list[int]) -> int | None:
    """Steps 1 and 2 (a Dark Curse, the Black Book), asked before the base game's steps; None when
    neither applies."""
    if MODULE not in state.config.modules:
        return None
    L = set(legal)
    curses = _dark_curses(state)
    for slot, pos, face_up in curses:  # 1. every stack position is offered like any Curse (V-09)
        move = M.DESTROY_CURSE + slot * MAX_STACK + pos
        if face_up and move in L:
            return move
    by_name = M.layout(state.config.modules).by_name
    need = CURSE_COST * (sum(face_up for _s, _p, face_up in curses) + _announced(state))
    held = dark_matter_held(state, f["player"])
    acquire = by_name.get("ACQUIRE_DARK_MATTER")
    waiting = any(face_up for _s, _p, face_up in curses)
    if waiting and 0 < held < CURSE_COST and acquire is not None and acquire.start in L:
        return acquire.start  # 1b. complete a Dark Curse's 4 in the hand that holds some already
    for block in ("BLACK_BOOK_RIGHT", "BLACK_BOOK_LEFT"):  # 2.
        spec = by_name.get(block)
        if spec is not None and spec.start in L and held - _book_cost(state, block) >= need:
            return spec.start
    return None


def dark_matter_acquire(state: GameState, f: dict, legal: list[int]) -> int | None:
    """Step 3 (acquire Dark Matter), asked after the base game's Curse plan and acquisitions."""
    if MODULE not in state.config.modules:
        return None
    acquire = M.layout(state.config.modules).by_name.get("ACQUIRE_DARK_MATTER")
    if acquire is None or acquire.start not in legal:
        return None
    need = CURSE_COST * (sum(face_up for _s, _p, face_up in _dark_curses(state)) + _announced(state))
    want = min(TEAM_CAP, need + BOOK_STOCK)
    if team_dark_matter(state) < want and _spare_elements(state, f["player"]) >= 2:
        return acquire.start
    return None


def keep_dark_matter(state: GameState) -> bool:
    """Whether Dark Matter in hand is worth keeping at Recuperation (DP-36): a face-up Dark Curse
    on the track, or one announced by the next Monster, needs 4 in one payment (section 4.7)."""
    if MODULE not in state.config.modules:
        return False
    return any(face_up for _s, _p, face_up in _dark_curses(state)) or _announced(state) > 0


def _book_cost(state: GameState, block: str) -> int:
    from bbom_env.modules.dark_matter.black_book import BLOCK_NAMES, shown_spell

    shown = shown_spell(state, BLOCK_NAMES.index(block))
    return shown[1].cost if shown is not None else 0


def _spare_elements(state: GameState, p: int) -> int:
    """Element cards left in ``p``'s hand beyond 2, asked after the base plan's Curses, Spells and
    acquisitions: the acquisition's 2 cards must not starve them (a rough, cheap measure; keeping
    4 bought less and won no more, keeping none lost games: the module doc's figures)."""
    hand = state.players[p].hand
    return sum(hand[c] for c in range(NUM_ELEMENT_CODES)) - 2
