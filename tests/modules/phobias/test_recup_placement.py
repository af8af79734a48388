"""The Recuperation's Phobia placement done at once (docs/rules.md 5.1, 9.2; DP-35, V-27, V-35, A-52):
``placement.recup_drawn`` places the drawn Phobias that take a free slot itself and checks the
hand limit itself, instead of pushing a frame per Phobia and the end frame. It must leave the
game exactly where those frames leave it: after a free slot, a crush choice, an elimination by a
full support, a limits reaction (a Phobia that takes a raised limit away) and the end check."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import random_decisions

from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.core.resolver import push, run
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MADNESS, NUM_CODES
from bbom_env.modules.phobias import placement
from bbom_env.modules.phobias.state import PHOBIA_BASE
from modules.phobias.helpers import phobias_in_pile, to_hand


def _frames_path(state: GameState, p: int) -> None:
    """The general path: a placement frame per Phobia of the hand (card-code order), then the
    end of the Recuperation (what recup_drawn pushed before it placed at once)."""
    codes = [c for c in range(PHOBIA_BASE, NUM_CODES) if state.players[p].hand[c]]
    frames = [{"kind": placement.PLACE, "player": p, "code": c, "decider": None} for c in codes]
    push(state, *frames, {"kind": placement.RECUP_END, "player": p})


def _settle(state: GameState) -> None:
    state.legal_cache = None
    run(state)


def _kind(state: GameState, p: int) -> str:
    top = state.stack[-1] if state.stack else {}
    if state.players[p].eliminated:
        return "eliminated"
    if top.get("kind") == placement.PLACE:
        return "crush"
    if top.get("kind") == "limits":
        return "limits"
    return "placed"


def _states(modules: tuple[str, ...], players: int, games: int) -> list[GameState]:
    """Every third decision of random games where the active player's Action menu waits (END is
    always legal there), cloned."""
    return [
        s.clone()
        for g in range(games)
        for i, s in enumerate(random_decisions(GameConfig(num_players=players, seed=g, modules=modules), g))
        if i % 3 == 0 and s.stack and s.stack[-1].get("kind") == "menu" and s.stack[-1]["player"] == s.active
    ]


@pytest.mark.parametrize(("modules", "players"), [(("phobias",), 2), (("dark_matter", "phobias"), 3)])
def test_recup_drawn_ends_where_the_frames_end(modules: tuple[str, ...], players: int) -> None:
    """Random states of module games: the active player gets 1 to 3 Phobias of the pile (and
    sometimes plain Madness) in hand; recup_drawn then running on equals the frames running on."""
    rng = random.Random(7)
    kinds: Counter[str] = Counter()
    for state in _states(modules, players, 25):
        p = state.active
        pile = phobias_in_pile(state)
        if not pile:
            continue
        s = state.clone()
        for code in rng.sample(pile, min(len(pile), rng.randint(1, 3))):
            to_hand(s, p, code)
        for _ in range(rng.choice((0, 0, 3, 5))):
            if MADNESS in s.madness_pile:
                to_hand(s, p, MADNESS)
        ref = s.clone()
        _frames_path(ref, p)
        _settle(ref)
        assert placement.recup_drawn(s, p)
        _settle(s)
        assert s.to_json() == ref.to_json()
        kinds[_kind(s, p)] += 1
    # Every way a placement ends was met (a limits reaction: a Phobia that takes the ability of a
    # Magician whose ability raises a limit, V-27).
    assert set(kinds) == {"placed", "crush", "eliminated", "limits"}, kinds


def test_recup_drawn_without_phobias_leaves_the_check_to_the_engine() -> None:
    s = new_game(GameConfig(num_players=2, seed=3, modules=("phobias",)))
    p = s.active
    for c in range(PHOBIA_BASE, NUM_CODES):
        assert not s.players[p].hand[c]
    before = s.to_json()
    assert not placement.recup_drawn(s, p)
    assert s.to_json() == before
