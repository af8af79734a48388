"""The heuristic team's play of the Dark Matter module (docs/rules.md sections 4.6-4.9, 9.1).

The module's danger is the Dark Curse: only 4 Dark Matter cards in **one** payment destroy it
(section 4.7), it blocks the Monster's defeat like any Curse, and every Dark Monster shows a Dark
Matter symbol. The round that decides the game is the last: a Dark Curse left on the track there
loses it (at level 1 the last Monster is a Dark Monster in 3 games of 5). So the team plays the
module with one aim, **4 Dark Matter where one payer reaches them when the last Monster comes**,
and spends what is beyond that stock on the Black Book. The plan, asked in each Action menu of a
game with the module (``HeuristicAgent._menu``):

1. **Destroy a Dark Curse** whenever its Dark Matter can be paid (section 4.7), except that the
   stock kept for the last Monster (``urgent``) is not spent on an earlier Dark Curse unless that
   Curse is all that keeps its round from the Bonus.
2. **The Black Book** (section 4.8, A-60) on the Active Player's turn, only with the Dark Matter
   beyond the stock (``need``): the page whose Black Spell is worth most now
   (``black_spell_value``: the base valuation of its effect, less ``DM_PRICE`` per card of its
   cost), if worth anything.
3. **Build the stock** (``stock_up``, asked right after the base game's Curse plan, while the
   stock is short of ``need`` and a Dark Curse is ``urgent``: on the track in the last round,
   previewed for it by the Grimoire's right page all through the round before (section 1.4), or
   likely for it late in the round before that, ``final_dark_odds``). Each Acquire Dark Matter
   Action (section 4.6, V-17) pays 2 Element cards of different Elements for 1 card into the
   hand. Only Dark Matter one payer reaches counts (``reach``: his hand and every support pool,
   section 4.0), so one hand gathers it (``is_banker``: the hand holding the most), and another
   buys only when it can move the card into the support pool, where every teammate pays with
   it: an Ice-like Spell is cast for that (``store_in_support``), and the ``place_in_support``
   choice takes Dark Matter first (``dark_matter_to_support``).
4. **Acquire for a Dark Curse that is not urgent** (``dark_matter_acquire``, after the base
   acquisitions): only from a hand with Element cards to spare (``_spare_elements``): buying for
   every Dark Curse starved the base Curses (measured: 19.4% against 28.6% at 2 players, level 1).

Dark Matter is kept while the stock is short: at Recuperation (DP-36) and in every discard or
destroy choice (``keep_dark_matter``). Payments are the engine's (auto) or the base heuristic's
manual picks: a Dark Matter cost is paid with the only legal picks, Dark Matter cards.
"""

from __future__ import annotations

from bbom_env.engine import GameState
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import MAX_STACK, NUM_ELEMENT_CODES
from bbom_env.engine.modifiers.hooks import support_capacity
from bbom_env.modules.dark_matter.state import DARK_MATTER

from .heuristic_eval import effect_value

MODULE = "dark_matter"
DARK_CURSE = "dark_matter"  # the Curse type of Dark Curses (section 9.1)
CURSE_COST = 4  # section 4.7
LAST_ROUND = 6  # the Monster whose right page is the End page (section 3.3.7)
# The round before the round before the last, late (marker on space 3+): when the last Monster is
# likely a Dark Monster (``final_dark_odds``), the stock starts there (measured, 500 games: 2p
# level 1 28.6% -> 29.4%, 4p level 1 10.0% -> 13.8%).
EARLY_ODDS, EARLY_MARKER = 0.6, 3
DM_PRICE = 0.3  # what one spare Dark Matter card is worth to the team, in heuristic_eval's units
# The two known Black Spell ops the base valuation does not know (V-03, V-04), per card gained.
_BOOK_OPS = {"gain_to_deck": 1.8, "gain_dark_matter": 0.6}


def _on(state: GameState) -> bool:
    return MODULE in state.config.modules


def hand_dark_matter(state: GameState, p: int) -> int:
    return state.players[p].hand[DARK_MATTER]


def pooled_dark_matter(state: GameState) -> int:
    """Dark Matter in the support pool (section 4.0: every player may pay with it)."""
    return sum(s.card == DARK_MATTER for pl in state.players if not pl.eliminated for s in pl.support)


def dark_matter_held(state: GameState, p: int) -> int:
    """Dark Matter ``p`` can pay with now: hand and every support pool (section 4.0)."""
    return hand_dark_matter(state, p) + pooled_dark_matter(state)


def reach(state: GameState) -> int:
    """The most Dark Matter one payer of the team reaches: the pool plus the fullest hand."""
    return pooled_dark_matter(state) + max((hand_dark_matter(state, q) for q in state.alive()), default=0)


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


def _previewed(state: GameState) -> int:
    """Dark Matter symbols of the next Monster (the right page's preview, section 1.4 item 6)."""
    if not 1 <= state.round < len(state.grimoire) - 1:
        return 0
    page = state.pack.pages[state.grimoire[state.round]]
    return sum(s == DARK_CURSE for s in page.monster.curse_symbols) if page.monster else 0


def _announced(state: GameState) -> int:
    """The next Monster's Dark Curses the team prepares for: the last Monster's from the start
    of the round before it (a Dark Curse left there loses the game), the others' once the marker
    is late in the round (space 4+)."""
    if state.round == LAST_ROUND - 1 or state.marker >= 4:
        return _previewed(state)
    return 0


def _early(state: GameState) -> bool:
    """Late in the round before the round before the last, the last Monster likely dark."""
    if state.round != LAST_ROUND - 2 or state.marker < EARLY_MARKER:
        return False
    return final_dark_odds(state) >= EARLY_ODDS


def final_dark_odds(state: GameState) -> float:
    """The chance that the last Monster is a Dark Monster, from what is public: the Grimoire holds
    3 / 4 / 5 Dark Monster Inside pages by difficulty (section 2.2, A-40), and the pages turned or
    previewed so far (section 1.4) say how many are left among the unseen ones."""
    from bbom_env.modules.dark_matter.grimoire import dark_monster_count

    g = state.grimoire
    last = len(g) - 2  # the last Inside page: the last Monster's (the End page follows)
    if state.round < 1:
        return 0.0
    seen = g[1 : state.round + 1]
    if len(seen) >= last:
        return 1.0 if _previewed(state) or state.round > last else 0.0
    dark_seen = sum(state.pack.pages[pid].module == MODULE for pid in seen)
    return max(0.0, (dark_monster_count(state) - dark_seen) / (last - len(seen)))


def _waiting(state: GameState) -> int:
    return sum(face_up for _s, _p, face_up in _dark_curses(state))


def need(state: GameState) -> int:
    """Dark Matter the team wants within one payer's reach: 4 per face-up Dark Curse on the
    track and per Dark Curse announced (``_announced``)."""
    return CURSE_COST * (_waiting(state) + _announced(state) + _early(state))


def urgent(state: GameState) -> bool:
    """A Dark Curse the game hangs on: on the track in the last round, or announced for it."""
    if state.round == LAST_ROUND:
        return _waiting(state) > 0
    return (state.round == LAST_ROUND - 1 and _previewed(state) > 0) or _early(state)


def black_spell_value(state: GameState, p: int, block: str) -> float | None:
    """What casting the Black Spell shown on ``block``'s page is worth to ``p`` now: its effect by
    the base valuation (``heuristic_eval.effect_value`` at X = 1; the two known Black Spell ops
    by ``_BOOK_OPS``), less ``DM_PRICE`` per Dark Matter card of its cost. None: no Spell there."""
    from bbom_env.modules.dark_matter.black_book import BLOCK_NAMES, PARTS, shown_spell

    side = BLOCK_NAMES.index(block)
    shown = shown_spell(state, side)
    if shown is None:
        return None
    pid, spell = shown
    ops = state.pack.effect(pid, PARTS[side])
    value = effect_value(ops, 1, state, p)
    for op in ops:
        if op["op"] in _BOOK_OPS:
            n = op.get("count", (1, 0))
            value += _BOOK_OPS[op["op"]] * (n[0] if isinstance(n, tuple) else n)
    return value - DM_PRICE * spell.cost


def dark_matter_first(state: GameState, f: dict, legal: list[int]) -> int | None:
    """Steps 1 and 2 (a Dark Curse, the Black Book), asked before the base game's steps; None when
    neither applies."""
    if not _on(state):
        return None
    L = set(legal)
    curses = _dark_curses(state)
    keep = state.round < LAST_ROUND and urgent(state)
    # The last Monster's Dark Curse needs it more, unless this one is all that keeps the round
    # from its Bonus.
    keep = keep and reach(state) < 2 * CURSE_COST and state.curses_on_track() > len(curses)
    for slot, pos, face_up in curses:  # 1. every stack position is offered like any Curse (V-09)
        move = M.DESTROY_CURSE + slot * MAX_STACK + pos
        if face_up and move in L and not keep:
            return move
    by_name = M.layout(state.config.modules).by_name
    p = f["player"]
    spare = reach(state) - need(state)  # what the Dark Curses leave (the book's cost comes out of it)
    best, best_v = None, 0.0
    for block in ("BLACK_BOOK_RIGHT", "BLACK_BOOK_LEFT"):  # 2. the right page wins ties (cast once)
        spec = by_name.get(block)
        if spec is None or spec.start not in L or spare < _book_cost(state, block):
            continue
        v = black_spell_value(state, p, block)
        if v is not None and v > best_v:
            best, best_v = spec.start, v
    return best


def stock_up(state: GameState, f: dict, legal: list[int], spare_after_plan: int) -> int | None:
    """Step 3: buy Dark Matter toward ``need`` while a Dark Curse is ``urgent``
    (``spare_after_plan``: the decider's Element cards the base plan and reserve leave), by the
    hand that gathers the stock (``is_banker``) or one that can move it into the support pool.
    None when the stock is enough, or nothing can be bought."""
    if not _on(state):
        return None
    want = need(state)
    if want == 0 or reach(state) >= want:
        return None
    p = f["player"]
    acquire = M.layout(state.config.modules).by_name.get("ACQUIRE_DARK_MATTER")
    if acquire is None or acquire.start not in legal:
        return None
    if not urgent(state):
        return None  # earlier Dark Curses: step 4, from a hand with cards to spare
    if not is_banker(state, p) and not _can_store(state, p):
        return None  # Dark Matter this hand could neither pay with nor pass on
    if spare_after_plan >= 2 or _completes(state, p):
        return acquire.start
    return None


def is_banker(state: GameState, p: int) -> bool:
    """Whether ``p`` holds as much Dark Matter in hand as any teammate: the hand the team
    gathers a Dark Curse's 4 in (Dark Matter in another hand is out of p's reach)."""
    mine = hand_dark_matter(state, p)
    return all(hand_dark_matter(state, q) <= mine for q in state.alive())


def _can_store(state: GameState, p: int) -> bool:
    """Whether ``p`` has room in the support pool and a ready Ice-like Spell to move bought Dark
    Matter there."""
    pl = state.players[p]
    if support_capacity(state, p) <= len(pl.support):
        return False
    for sp in pl.spells:
        card = state.pack.spells[sp.spell]
        if sp.ready and card.effect[0]["op"] == "place_in_support":
            return True
    return False


def _completes(state: GameState, p: int) -> bool:
    """Whether ``p`` buying brings the team within one card of a Dark Curse's 4 in p's reach."""
    return dark_matter_held(state, p) + 1 >= CURSE_COST - 1


def store_in_support(state: GameState, p: int, room: int) -> int:
    """How many Dark Matter cards ``p`` should put into the support pool now (an Ice-like Spell,
    section 4.0: every teammate pays with them): those in hand while the team's stock is short
    and p's hand alone would not pay a Dark Curse this turn; 0 otherwise."""
    if not _on(state) or room <= 0:
        return 0
    n = hand_dark_matter(state, p)
    if n == 0 or need(state) == 0:
        return 0
    if dark_matter_held(state, p) >= CURSE_COST:  # p pays one now: nothing to move
        return 0
    return min(n, room)


def dark_matter_to_support(state: GameState, p: int) -> bool:
    """The ``place_in_support`` choice: Dark Matter first while the team stocks it."""
    return _on(state) and need(state) > 0 and hand_dark_matter(state, p) > 0


def dark_matter_acquire(state: GameState, f: dict, legal: list[int]) -> int | None:
    """Step 4 (acquire Dark Matter for a Dark Curse that is not urgent), after the base game's
    Curse plan and acquisitions, from a hand with Element cards to spare."""
    if not _on(state):
        return None
    acquire = M.layout(state.config.modules).by_name.get("ACQUIRE_DARK_MATTER")
    if acquire is None or acquire.start not in legal:
        return None
    if team_dark_matter(state) < need(state) and _spare_elements(state, f["player"]) >= 2:
        return acquire.start
    return None


def keep_dark_matter(state: GameState) -> bool:
    """Whether Dark Matter in hand is worth keeping at Recuperation (DP-36): the team's stock is
    short of a Dark Curse on the track or announced (4 must be in one payment, section 4.7)."""
    if not _on(state):
        return False
    return need(state) > 0


def _book_cost(state: GameState, block: str) -> int:
    from bbom_env.modules.dark_matter.black_book import BLOCK_NAMES, shown_spell

    shown = shown_spell(state, BLOCK_NAMES.index(block))
    return shown[1].cost if shown is not None else 0


def _spare_elements(state: GameState, p: int) -> int:
    """Element cards left in ``p``'s hand beyond 2, asked after the base plan's Curses, Spells and
    acquisitions: the acquisition's 2 cards must not starve them (a rough, cheap measure)."""
    hand = state.players[p].hand
    return sum(hand[c] for c in range(NUM_ELEMENT_CODES)) - 2
