"""The module's menu reads written for speed answer what their plain definitions answer: the
menu's counts ``values_and_currency`` (``available_values`` and ``currency_cards``: crushed
cards left out), the Spontaneous Elements gate ``may_pair`` (docs/rules.md section 4.9: a pair of
Dark Matter cards in hand and support pools, counted by slot equality) and a Dark Curse's cost
(section 4.7, A-49: printed, from a per-pack table, plus the standing surcharge). On random
games of both modules (Phobias crush support cards, V-21), with Dark Matter put in supports."""

from __future__ import annotations

import random

import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.model.constants import DARK_MATTER
from bbom_env.engine.model.records import SupportSlot
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.payment.cost import available_values, currency_cards, values_and_currency
from bbom_env.modules.dark_matter.actions import dark_matter_cost, may_pair
from bbom_env.modules.dark_matter.content import DARK_CURSE, DARK_SYMBOL
from bbom_env.modules.dark_matter.dark_curses import dark_curse_cost
from bbom_env.modules.dark_matter.module import NAME


def _pairs_by_slot(state: GameState, p: int) -> bool:
    """``may_pair`` as first written: each slot's card read."""
    held = state.players[p].hand[DARK_MATTER]
    for pl in state.players:
        for slot in pl.support:
            held += slot.card == DARK_MATTER
    return held >= 2


@pytest.mark.parametrize("modules", [(NAME,), (NAME, "phobias")])
def test_fast_reads_match_their_definitions(dm: None, modules: tuple[str, ...]) -> None:
    rng = random.Random(len(modules))
    pairs = {True: 0, False: 0}
    curses = 0
    for seed in range(8):
        state = new_game(GameConfig(num_players=3, seed=seed, modules=modules))
        while not state.over:
            if rng.random() < 0.3:
                s = state.clone()
                for pl in s.players:
                    for i, slot in enumerate(pl.support):
                        if rng.random() < 0.3 and slot.crushed < 0:
                            pl.support[i] = SupportSlot(DARK_MATTER)  # (a unit check: not a legal state)
                        elif rng.random() < 0.1 and slot.card < DARK_MATTER:
                            pl.support[i] = SupportSlot(slot.card, crushed=0)  # an unusable card
                for p in range(3):
                    # The module menu's one-pass counts (written out): the payment's own.
                    assert values_and_currency(s, p) == (available_values(s, p), currency_cards(s, p))
                    answer = may_pair(s, p)
                    assert answer == _pairs_by_slot(s, p), (seed, p)
                    pairs[answer] += 1
                    for stack in s.track:
                        for c in stack:
                            if s.pack.curses[c.curse].type == DARK_SYMBOL:
                                printed = s.pack.sections[DARK_CURSE.name][c.curse].cost
                                extra = hooks.standing_surcharge(s, p, "destroy")
                                assert dark_curse_cost(s, p, c) is dark_matter_cost(printed + extra)
                                curses += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert pairs[True] > 50 and pairs[False] > 50 and curses > 50
