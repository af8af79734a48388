"""Every card of the Dark Matter module has a scenario test that asserts its effect: the
card-effect oracle (tests/cards/card_oracle.py) runs with ``modules=("dark_matter",)`` and the
module's postconditions (board_checks_dm.py). Each Dark Curse's effect (from the track, V-09), each
Black Spell face (both faces of Inside pages, section 4.8), each Dark Monster's arrival / Bonus /
Failure and placement (a Dark Matter symbol places a Dark Curse, section 9.1), each new Magician's
ability (V-12's Air conversion, V-18); plus hand-written scenarios on concrete numbers."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from cards.card_oracle import check_card, check_trace, oracle_pack, rich_state, run_effect, run_effect_frames

from bbom_env.engine import GameConfig
from bbom_env.engine.core.rules import game_pack, offered_magicians
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import MADNESS, NUM_CODES, element_code
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.engine.play import ops as engine_ops
from bbom_env.engine.play import ops_board
from bbom_env.modules.dark_matter.content import (
    BLACK_PAGE,
    BOOK_FACES,
    DARK_CURSE,
    DARK_SYMBOL,
    SECTIONS,
    needs_of,
)
from bbom_env.modules.dark_matter.module import DARK_MATTER_MODULE, registered
from bbom_env.modules.dark_matter.state import DARK_MATTER

from .board_checks_dm import CHECKS_DM, DARK_SLOT, MOD_CHECKS, prepare

PACK = "default"
MODS = ("dark_matter",)


@pytest.fixture(autouse=True)
def _dm() -> Iterator[None]:
    with registered():
        yield


def _module_ids() -> list[str]:
    with registered():
        p = oracle_pack(PACK, MODS)
        return sorted(cid for sec in SECTIONS for cid in p.sections[sec.name])


IDS = _module_ids()
PHOBIA = "magician_vth_phobia"  # V-19: only with the Phobia module too (tests/modules/phobias)


ORACLE_IDS = [c for c in IDS if c != PHOBIA]  # the Phobia Magician: its own test below


@pytest.mark.parametrize("cid", ORACLE_IDS)
def test_card_effect(cid: str) -> None:
    p = oracle_pack(PACK, MODS)
    assert check_card(PACK, cid, MODS) > 0
    parts = {part for (src, part), eff in p.effects.items() if src == cid and eff}
    if cid in p.sections[BLACK_PAGE.name]:  # every printed face has its effect, and was run
        assert parts == {f"{face}_spell" for face in BOOK_FACES[p.sections[BLACK_PAGE.name][cid].kind]}
    elif cid in p.pages:
        monster = p.pages[cid].monster
        assert monster is not None and DARK_SYMBOL in monster.curse_symbols  # V-16: any position
        # A Cover shows a Monster only; an Inside page's effect side has its Bonus and Failure.
        want = {"arrival"} | ({"bonus", "failure"} if p.pages[cid].kind == "inside" else set())
        assert parts == want
    elif cid in p.curses:
        assert parts == {"effect"}


def test_module_effects_under_random_choices() -> None:
    """Every effect part of the module's cards under seeded random choices (the parametrized runs
    take the first or last legal move only), at 2 to 5 players, each op span checked by the oracle:
    e.g. a chosen Curse for tokens is never the Dark Curse (V-08)."""
    p = oracle_pack(PACK, MODS)
    parts = sorted((src, part) for (src, part), eff in p.effects.items() if src in set(IDS) and eff)
    assert len(parts) == 12 + 32 + (3 + 3 * 10) + 2  # Curses, faces, Monsters, 2 Magicians' abilities
    checked = 0
    for k, (src, part) in enumerate(parts):
        for seed in range(3):
            n = 2 + (k + seed) % 4
            ctrl = seed % n
            mag = src if src in p.magicians else None
            s = rich_state(PACK, n, seed=100 + seed, controller=ctrl, magician=mag, modules=MODS)
            prepare(s, src, part)
            tr = run_effect(s, src, part, ctrl, 1, random.Random(seed))
            checked += check_trace(tr, "random", f"{src}/{part} seed {seed} {n}p")
    assert checked >= 3 * len(parts)


def test_phobia_magician_is_offered_with_dark_matter_alone() -> None:
    """V-19: "spend 1 Dark Matter to move 1 Phobia" is a ``move_phobia`` modifier on the sheet, no
    effect; the Phobia module plays it (tests/modules/phobias/test_move_phobia.py). V-18: a game
    with Dark Matter alone offers the Magician too (his ability has nothing to move there)."""
    p = oracle_pack(PACK, MODS)
    mag = p.magicians[PHOBIA]
    assert p.sections["vth_magician"][PHOBIA].needs == ""
    assert mag.mods == ({"kind": "move_phobia"},) and not mag.activated
    assert not any(e for k, e in p.effects.items() if k[0] == PHOBIA)
    assert PHOBIA in offered_magicians(GameConfig(modules=MODS), p)
    both = GameConfig(modules=(*MODS, "phobias"))
    assert PHOBIA in offered_magicians(both, game_pack(both))


def test_every_module_card_id_has_a_scenario_test() -> None:
    """The oracle's parameters and the Phobia test cover the four sections' cards (12 Dark Curses,
    20 Black Book cards, 13 Vth Grimoire cards, 4 Magicians: docs/rules.md section 1.2) and every
    card of the module in the base tables; every module op and modifier kind has its check."""
    p = oracle_pack(PACK, MODS)
    sizes = {
        name: len(p.sections[name]) for name in ("dark_curse", "black_page", "dark_grimoire", "vth_magician")
    }
    assert sizes == {"dark_curse": 12, "black_page": 20, "dark_grimoire": 13, "vth_magician": 4}
    everything = {cid for name in sizes for cid in p.sections[name]}
    in_base_tables = {c.id for table in (p.curses, p.pages, p.magicians) for c in table.values() if c.module}
    assert set(ORACLE_IDS) | {PHOBIA} == everything and in_base_tables <= everything and len(everything) == 49
    faces = sum(len(BOOK_FACES[pg.kind]) for pg in p.sections[BLACK_PAGE.name].values())
    assert faces == 32 and faces == sum(1 for src, _part in p.effects if src in p.sections[BLACK_PAGE.name])
    assert set(DARK_MATTER_MODULE.ops) <= set(CHECKS_DM)
    # move_phobia (V-19) is played by the Phobia module: tests/modules/phobias/test_move_phobia.py.
    assert set(DARK_MATTER_MODULE.modifier_kinds) - {"move_phobia"} <= set(MOD_CHECKS)
    # Every text says its effect in the vocabulary (V-19's move is a modifier the Phobia module reads).
    assert list(needs_of(p.sections)) == []


# -- the oracle fails when the module's engine does not do what the data says --------------------


def _nothing(state, f, op):  # an op that silently does nothing
    engine_ops.done(state, f)


@pytest.mark.parametrize(
    ("op", "card"),
    [
        ("gain_to_deck", "black_page_inside_01"),
        ("gain_dark_matter", "black_page_inside_02"),
        ("placed_curse_tokens", "dark_monster_01"),
        ("cure_and_rebuild", "dark_monster_02"),
        ("add_dark_curse", "dark_curse_03"),
        ("break_card", "dark_curse_02"),
        ("modifier", "dark_curse_01"),
    ],
)
def test_oracle_catches_an_op_that_does_nothing(monkeypatch: pytest.MonkeyPatch, op: str, card: str) -> None:
    _run, legal, answer = engine_ops.OPS[op]
    monkeypatch.setitem(engine_ops.OPS, op, (_nothing, legal, answer))
    with pytest.raises(AssertionError, match=op):
        check_card(PACK, card, MODS)


def test_oracle_catches_tokens_on_a_dark_curse(monkeypatch: pytest.MonkeyPatch) -> None:
    """V-08: an "every Curse" token effect that forgot to skip Dark Curses is caught."""
    monkeypatch.setattr(ops_board, "barred_types", lambda state, what: frozenset())
    with pytest.raises(AssertionError, match="V-08"):
        check_card(PACK, "dark_curse_09", MODS)


# -- hand-written scenarios on concrete numbers --------------------------------------------------


def _hand(*codes: int) -> list[int]:
    out = [0] * NUM_CODES
    for c in codes:
        out[c] += 1
    return out


FIRE2, WATER3, EARTH1 = element_code(0, 2), element_code(1, 3), element_code(2, 1)


def test_break_card_deals_value_one_cards_after_all_chose() -> None:
    """V-11, A-47: a Water-3 card becomes 3 Water-1 cards, a Fire-2 card 2 Fire-1 cards; a player
    with no value-2/3 card is not asked and gets nothing; a short reserve deals what it has."""
    s = rich_state(PACK, 3, seed=1, controller=0, modules=MODS)
    s.players[0].hand = _hand(WATER3, EARTH1)
    s.players[1].hand = _hand(FIRE2, FIRE2, EARTH1)
    s.players[2].hand = _hand(EARTH1, DARK_MATTER, MADNESS)
    s.reserve1[0] = 1  # the Fire reserve holds one card only
    discards = [list(pl.discard) for pl in s.players]
    tr = run_effect(s, "dark_curse_02", "effect", 0)
    assert [d.decider for d in tr.decisions] == [0, 1]
    assert s.players[0].discard[element_code(1, 1)] == discards[0][element_code(1, 1)] + 3
    assert s.players[1].discard[element_code(0, 1)] == discards[1][element_code(0, 1)] + 1
    assert s.reserve1[0] == 0 and s.players[2].discard == discards[2]
    assert s.destroyed[WATER3] == 1 and s.destroyed[FIRE2] == 1


def test_add_dark_curse_goes_to_the_next_space_or_nowhere() -> None:
    """V-09, A-45: from space 3 a Dark Curse goes on space 4's stack; from space 5 (the
    Invocation space next) nothing; each run also passes the oracle's check."""
    for slot, grows in ((DARK_SLOT, 3), (4, None)):
        s = rich_state(PACK, 3, seed=2, controller=0, modules=MODS)
        pile = s.curse_piles[DARK_SYMBOL]
        cid = "dark_curse_03"
        if cid in pile:
            pile.remove(cid)
        else:
            top = next(i for i, c in enumerate(s.track[DARK_SLOT]) if c.curse == cid)
            s.track[DARK_SLOT][top] = CurseOnTrack(pile.pop())
        s.track[slot].append(CurseOnTrack(cid))
        lens = [len(x) for x in s.track]
        nxt = pile[-1]
        tr = run_effect(s, cid, "effect", 0)
        assert check_trace(tr, "first", "add") == 1
        if grows is None:
            assert [len(x) for x in s.track] == lens and s.curse_piles[DARK_SYMBOL][-1] == nxt
        else:
            assert len(s.track[grows]) == lens[grows] + 1 and s.track[grows][-1].curse == nxt


def _grimoire_with(s: GameState, pid: str, level: int) -> None:
    """A Grimoire of this level (section 2.2 step 7, A-40: 2 + level Dark Monsters) with ``pid``
    the current page."""
    pages = s.pack.pages
    insides = [x for x in sorted(pages) if pages[x].kind == "inside" and x != pid]
    dark = [x for x in insides if pages[x].module == "dark_matter"][: 1 + level]
    base = [x for x in insides if not pages[x].module][: 3 - level]
    s.grimoire = [s.grimoire[0], pid, *dark, *base, s.grimoire[-1]]
    assert s.round == 2


def test_dark_monster_places_a_dark_curse_and_its_third_curse_gets_tokens() -> None:
    """Section 9.1: a Dark Matter symbol places a Dark Curse from its pile; V-14: the arrival's
    2 tokens go on the third Curse placed, unless it is a Dark Curse (V-08)."""
    outcomes = set()
    for level in (1, 2, 3):
        s = rich_state(PACK, 3, seed=2, modules=MODS)
        s.config = s.config.replace(difficulty=level)
        for slot in range(5):
            while s.track[slot]:
                cur = s.track[slot].pop()
                s.curse_piles[s.pack.curses[cur.curse].type].insert(0, cur.curse)
        s.tokens = [5, 5, 5, 5]
        _grimoire_with(s, "dark_monster_01", level)  # symbols air, dark_matter, fire
        s.event("monster", s.round, "dark_monster_01")  # as flow.run_monster logs it before placing
        run_effect_frames(s, [{"kind": "place"}])
        placed = [slot[0].curse for slot in s.track if slot]
        darks = [c for c in placed if s.pack.curses[c].type == DARK_SYMBOL]
        assert len(darks) == 1 and darks[0] in s.pack.sections[DARK_CURSE.name]
        tr = run_effect(s, "dark_monster_01", "arrival", 0)
        assert check_trace(tr, "first", f"level {level}") == 1
        third = next(c for slot in s.track for c in slot if c.curse == placed[2])
        dark_third = s.pack.curses[placed[2]].type == DARK_SYMBOL
        assert sum(third.tokens) == (0 if dark_third else 2)
        outcomes.add(dark_third)
    assert outcomes == {True, False}  # both cases met across the levels


def test_cure_and_rebuild_keeps_the_hand() -> None:
    """V-15: the chosen player's Madness of deck and discard pile go back; the rest is the deck."""
    s = rich_state(PACK, 3, seed=3, controller=0, modules=MODS)
    pl = s.players[0]
    pl.deck = [MADNESS, EARTH1, FIRE2]
    pl.discard = _hand(MADNESS, WATER3, DARK_MATTER)
    hand = list(pl.hand)
    pile = len(s.madness_pile)
    run_effect(s, "dark_monster_02", "bonus", 0, 1, "first")  # "first": the Active Player itself
    assert sorted(pl.deck) == sorted([EARTH1, FIRE2, WATER3, DARK_MATTER]) and not any(pl.discard)
    assert pl.hand == hand and len(s.madness_pile) == pile + 2
