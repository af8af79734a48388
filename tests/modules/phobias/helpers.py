"""Helpers for the Phobia module's tests: move a card into a zone from where it lies, so that every
card stays in exactly one zone (the invariants hold after each helper)."""

from __future__ import annotations

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MADNESS, NUM_CODES
from bbom_env.engine.model.records import SupportSlot
from bbom_env.modules.phobias.constraints import CURE_ONLY
from bbom_env.modules.phobias.content import phobia_of
from bbom_env.modules.phobias.state import PHOBIA_BASE, ph_state

MODULES = ("phobias",)


def game(players: int = 2, seed: int = 1, **kw: object) -> GameState:
    return new_game(GameConfig(num_players=players, seed=seed, modules=MODULES, **kw))  # type: ignore[arg-type]


def phobias_in_pile(state: GameState) -> list[int]:
    return [c for c in state.madness_pile if c >= PHOBIA_BASE]


def take(state: GameState, code: int) -> None:
    """Remove one card ``code`` from the Madness pile, the box or a player's deck (in that order)."""
    if code in state.madness_pile:
        state.madness_pile.remove(code)
        return
    if state.box[code]:
        if code >= PHOBIA_BASE and code not in ph_state(state).chosen:
            _deal_instead(state, code)
        state.box[code] -= 1
        return
    for pl in state.players:
        if code in pl.deck:
            pl.deck.remove(code)
            return
    raise AssertionError(f"card {code} is nowhere to take it from")


def _deal_instead(state: GameState, code: int) -> None:
    """A Phobia left in the box (A-77) taken into play: the game deals it in place of a Phobia of
    the pile (the bottom-most: a test puts the cards it wants on top), which goes to the box, so
    that ``chosen`` stays the game's Phobias (the module's save check and invariant: every other
    Phobia lies in the box)."""
    st = ph_state(state)
    out = next(c for c in state.madness_pile if c in st.chosen)
    state.madness_pile.remove(out)
    state.box[out] += 1
    st.chosen = sorted({*st.chosen, code} - {out})


def to_hand(state: GameState, seat: int, code: int) -> None:
    take(state, code)
    state.players[seat].hand[code] += 1


def to_pile_top(state: GameState, code: int) -> None:
    take(state, code)
    state.madness_pile.append(code)


def hand_to_support(state: GameState, seat: int, code: int) -> None:
    """Move a card of the seat's hand to a new support slot."""
    pl = state.players[seat]
    assert pl.hand[code], f"no card {code} in hand"
    pl.hand[code] -= 1
    pl.support.append(SupportSlot(code))


def fill_support(state: GameState, seat: int, n: int) -> list[int]:
    """Put n non-Madness cards of the seat's hand in its support; their codes."""
    pl = state.players[seat]
    codes = [c for c in range(NUM_CODES) if c != MADNESS and c < PHOBIA_BASE for _ in range(pl.hand[c])][:n]
    assert len(codes) == n, "not enough cards in hand"
    for c in codes:
        hand_to_support(state, seat, c)
    return codes


def clear_support(state: GameState, seat: int) -> None:
    """Empty the seat's support into its discard pile (crushed cards too)."""
    pl = state.players[seat]
    for slot in pl.support:
        pl.discard[slot.card] += 1
        if slot.crushed >= 0:
            pl.discard[slot.crushed] += 1
    pl.support = []


def sourced_mods(state: GameState, p: int) -> list[dict]:
    """The Phobias' constraints in p's support, read from the cards themselves (section 9.2): the
    reference the modifier-source tests compare the engine's source with."""
    out: list[dict] = []
    for slot in state.players[p].support:
        if slot.card >= PHOBIA_BASE:
            for m in phobia_of(state.pack.sections, slot.card).constraint:
                out.append({**m, "code": slot.card} if m["kind"] == CURE_ONLY else m)
    return out


def reference_mods(state: GameState, p: int) -> list[dict]:
    """``hooks.player_mods`` read straightforwardly: the Magician's unless the ability is lost (the
    flag, or a "lose_ability" modifier: V-10, V-27), the temporary ones, the sourced ones."""
    pl = state.players[p]
    temp = [m.modifier for m in pl.mods]
    sourced = sourced_mods(state, p)
    lost = pl.ability_lost or any(m["kind"] == "lose_ability" for m in temp + sourced)
    return ([] if lost else list(state.pack.magicians[pl.magician].mods)) + temp + sourced
