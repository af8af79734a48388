"""Every card id has a scenario test that asserts its effect (card_oracle.py), plus hand-written
scenarios on concrete numbers for the cards public sources give exactly (the default pack's cards,
and their stand-ins in the engine test pack)."""

from __future__ import annotations

import pytest

from bbom_env.engine import load_pack
from bbom_env.engine.cards.pack import NAMED_PACKS
from bbom_env.engine.cards.vocab import BASE_OPS, EVENTS, MOD_SCHEMAS
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import MADNESS, NUM_CODES, element_code
from bbom_env.engine.model.records import SupportSlot
from bbom_env.engine.modifiers.hooks import support_capacity
from bbom_env.engine.play import ops as engine_ops

from .board_checks import CHECKS
from .card_oracle import PROVOCATIONS, card_ids, check_card, rich_state, run_effect

PACKS = [p for p in ("test", "default") if NAMED_PACKS[p].exists()]
PARAMS = [(pack, cid) for pack in PACKS for cid in card_ids(pack)]
FIRE1, FIRE2, WATER1, EARTH1, AIR1 = (element_code(e, v) for e, v in ((0, 1), (0, 2), (1, 1), (2, 1), (3, 1)))


@pytest.mark.parametrize(("pack", "cid"), PARAMS, ids=[f"{p}:{c}" for p, c in PARAMS])
def test_card_effect(pack: str, cid: str) -> None:
    assert check_card(pack, cid) > 0


@pytest.mark.parametrize("pack", PACKS)
def test_every_card_id_has_a_scenario_test(pack: str) -> None:
    p = load_pack(pack)
    everything = set(p.magicians) | set(p.spells) | set(p.curses) | set(p.pages)
    assert {c for pk, c in PARAMS if pk == pack} == everything
    # A new base op needs its postcondition (a module's ops are tested with the module).
    assert set(BASE_OPS) == set(CHECKS)
    assert set(MOD_SCHEMAS) - {"trigger"} <= {
        "support_slots", "spell_limit", "hand_size", "cost", "forbid", "no_support_payment",
    }  # fmt: skip
    used = {m["event"] for mag in p.magicians.values() for m in mag.mods if m["kind"] == "trigger"}
    assert used <= set(PROVOCATIONS) <= set(EVENTS)


def test_the_default_pack_is_covered_when_present() -> None:
    if NAMED_PACKS["default"].exists():
        assert "default" in PACKS and len(card_ids("default")) >= 100


# -- the oracle fails when the engine does not do what the data says -----------------------------


def _skip(run):  # an op that silently does nothing
    def run_nothing(state, f, op):
        engine_ops.done(state, f)

    return run_nothing


@pytest.mark.parametrize(
    ("op", "card"),
    [("draw", "test_growth"), ("discard", "test_air_1"), ("receive_madness", "test_curse_fire_a")]
    + [("gain", "test_earth_2"), ("add_tokens", "test_curse_earth_b"), ("modifier", "test_air_3")],
)
def test_oracle_catches_an_op_that_does_nothing(monkeypatch: pytest.MonkeyPatch, op: str, card: str) -> None:
    run, legal, answer = engine_ops.OPS[op]
    monkeypatch.setitem(engine_ops.OPS, op, (_skip(run), legal, answer))
    with pytest.raises(AssertionError, match=op):
        check_card("test", card)


def test_oracle_catches_x_ignored_and_wrong_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_ops._op_frame

    def x_is_one(f, p, op):
        out = real(f, p, op)
        base, per_x = op.get("count", (1, 0))
        out["count"] = base + per_x
        return out

    monkeypatch.setattr(engine_ops, "_op_frame", x_is_one)
    with pytest.raises(AssertionError, match="X=2"):
        check_card("test", "test_growth")
    monkeypatch.setattr(engine_ops, "_op_frame", real)
    monkeypatch.setattr(engine_ops, "_target_candidates", lambda s, f, op: s.order_from_active())
    with pytest.raises(AssertionError, match="target choice"):
        check_card("test", "test_telepathy")


# -- hand-written scenarios for the known cards (docs/cards.md, "Sources") ----------------------


def _spell(pack: str, name: str, test_id: str) -> str:
    if pack == "test":
        return test_id
    return next(s.id for s in load_pack(pack).spells.values() if s.name == name)


def _page(pack: str, pred) -> str:
    return next(pg.id for pg in load_pack(pack).pages.values() if pred(pg))


def _hand(*codes: int) -> list[int]:
    out = [0] * NUM_CODES
    for c in codes:
        out[c] += 1
    return out


def _state(pack: str, n: int = 3):
    s = rich_state(pack, n, seed=3, controller=0)
    for pl in s.players:  # concrete, equal starting zones (the census is not checked here)
        pl.hand = _hand(FIRE1, FIRE1, WATER1, EARTH1, AIR1)
        pl.deck = [AIR1, EARTH1, WATER1, FIRE1, FIRE2, WATER1]
        pl.discard = _hand(FIRE1)
        pl.support = []
    return s


def _support(*codes: int) -> list[SupportSlot]:
    return [SupportSlot(c) for c in codes]


@pytest.mark.parametrize("pack", PACKS)
def test_arctic_circle_each_player_places_x_then_draws_x(pack: str) -> None:
    s = _state(pack)
    s.players[2].support = _support(FIRE1, FIRE1)  # one free slot: places 1, still draws 2
    run_effect(s, _spell(pack, "Arctic Circle", "test_water_2"), "effect", 0, 2, "first")
    assert [len(p.support) for p in s.players] == [2, 2, 3]
    assert [sum(p.hand) for p in s.players] == [5, 5, 6]
    assert [len(p.deck) for p in s.players] == [4, 4, 4]


@pytest.mark.parametrize("pack", PACKS)
def test_eye_of_the_tornado_empty_hand_still_draws(pack: str) -> None:
    s = _state(pack)
    s.players[1].hand = [0] * NUM_CODES
    run_effect(s, _spell(pack, "Eye of the Tornado", "test_air_1"), "effect", 0, 1, "first")
    assert [sum(p.hand) for p in s.players] == [5, 1, 5]
    assert [sum(p.discard) for p in s.players] == [2, 1, 2]
    assert s.players[1].hand[WATER1] == 1  # the top of its deck


@pytest.mark.parametrize("pack", PACKS)
def test_bee_like_monster_arrival_refills_an_empty_deck_first(pack: str) -> None:
    s = _state(pack)
    bee = _page(pack, lambda pg: pg.kind == "cover" and pg.monster.curse_symbols == ("air", "water", "fire"))
    s.players[2].deck, s.players[2].discard = [], _hand(FIRE1, FIRE1, FIRE1)
    pile = len(s.madness_pile)
    run_effect(s, bee, "arrival", 0)
    assert s.players[0].deck == [AIR1, EARTH1, WATER1, FIRE1]
    assert s.players[0].discard == _hand(FIRE1, FIRE2, WATER1)  # the top 2 cards
    # HJ-FAQ ruling: take a Madness, rebuild the deck from the discard pile, then discard 2.
    assert len(s.madness_pile) == pile - 1
    assert len(s.players[2].deck) == 2 and sum(s.players[2].discard) == 2
    assert s.players[2].deck.count(MADNESS) + s.players[2].discard[MADNESS] == 1


@pytest.mark.parametrize("pack", PACKS)
def test_bagpipe_monster_replaces_a_card_of_a_full_support(pack: str) -> None:
    s = _state(pack)
    pipe = _page(
        pack, lambda pg: pg.kind == "cover" and pg.monster.curse_symbols == ("earth", "fire", "water")
    )
    s.players[0].support = _support(AIR1)
    cap = support_capacity(s, 1)
    s.players[1].support = _support(*[WATER1] * cap)  # full
    tr = run_effect(s, pipe, "arrival", 0, 1, "first")
    assert s.players[0].support_cards() == [AIR1, MADNESS] and s.players[2].support_cards() == [MADNESS]
    assert len(s.players[1].support) == cap and s.players[1].support_cards().count(MADNESS) == 1
    assert s.players[1].discard == _hand(FIRE1, WATER1)
    assert [d.decider for d in tr.decisions] == [1]  # only the full support needs a choice


@pytest.mark.parametrize("pack", PACKS)
def test_spider_bonus_may_destroy_an_element_card_not_madness(pack: str) -> None:
    s = _state(pack)
    spider = _page(
        pack, lambda pg: pg.monster is not None and pg.monster.curse_symbols == ("air", "earth", "water")
    )
    for pl in s.players:
        pl.discard = _hand(MADNESS, MADNESS, FIRE2)
    tr = run_effect(s, spider, "bonus", 0, 1, "first")
    assert all(d.legal == [M.PICK_DISCARD + FIRE2, M.DECLINE] for d in tr.decisions)  # HJ-FAQ errata
    assert s.destroyed[FIRE2] == 3 and all(p.discard == _hand(MADNESS, MADNESS) for p in s.players)


@pytest.mark.parametrize("pack", PACKS)
def test_sorcerer_madness_under_each_curse_goes_to_the_destroyer(pack: str) -> None:
    s = _state(pack)
    sorcerer = _page(
        pack, lambda pg: pg.monster and [o["op"] for o in pg.monster.arrival] == ["madness_under_curses"]
    )
    for slot in s.track:
        for i, cur in enumerate(slot):
            slot[i] = cur._replace(madness=0)
    pile = len(s.madness_pile)
    run_effect(s, sorcerer, "arrival", 0)
    assert [c.madness for slot in s.track for c in slot] == [1] * 5 and len(s.madness_pile) == pile - 5
    cid = s.track[1][0].curse
    run_effect(s, "", "", 0, provoke=[{"kind": "destroy", "player": 2, "curse": cid}])
    assert s.players[2].discard[MADNESS] == 1
    run_effect(s, "", "", 0, provoke=[{"kind": "cleartrack"}])
    assert len(s.madness_pile) == pile - 1  # the 4 others return at the end of the round


@pytest.mark.parametrize("pack", PACKS)
def test_basic_spells(pack: str) -> None:
    growth, ice, comb, tele = (
        _spell(pack, n, "test_" + n.lower()) for n in ("Growth", "Ice", "Combustion", "Telepathy")
    )
    s = _state(pack)
    run_effect(s, growth, "effect", 0, 3)
    assert sum(s.players[0].hand) == 8 and s.players[0].hand[FIRE2] == 1
    s = _state(pack)
    run_effect(s, ice, "effect", 0, 2, "first")
    assert s.players[0].support_cards() == [FIRE1, FIRE1] and sum(s.players[0].hand) == 3
    s = _state(pack)
    run_effect(s, comb, "effect", 0, 2, "first")
    assert s.destroyed[FIRE1] == 2 and sum(s.players[0].hand) == 3
    s = _state(pack)
    tr = run_effect(s, tele, "effect", 0, 2, "last")
    menus = [d for d in tr.decisions if d.copy["kind"] == "menu"]
    menus = [d for d in menus if d.frame is menus[0].frame]
    assert menus[0].copy["player"] == 2 and menus[0].copy["grants"] == 2 and M.ABILITY not in menus[0].legal
    assert len(menus) == 2  # two Actions taken, then the menu closes by itself (section 4.12)


@pytest.mark.parametrize("pack", PACKS)
def test_destroy_a_curse_trigger_fires_for_a_spell_destroying_it(pack: str) -> None:
    """Engine fix: "Whenever you destroy a Curse" also applies to a Curse destroyed by an effect."""
    p = load_pack(pack)
    mag = next(m.id for m in p.magicians.values() if any(x.get("event") == "curse_destroyed" for x in m.mods))
    spell = next(s.id for s in p.spells.values() if [o["op"] for o in s.effect] == ["destroy_curse"])
    s = rich_state(pack, 3, seed=1, controller=0, magician=mag)
    hand = sum(s.players[0].hand)
    run_effect(s, spell, "effect", 0, 1, "last")
    assert sum(s.players[0].hand) == hand + 1 and s.curses_on_track() == 4


def test_bagpipe_ruling_holds_madness_by_madness(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engine fix: with 2 Madness and 1 free slot, the second Madness replaces a support card
    (the ruling, per Madness) instead of exceeding the support."""
    p = load_pack("test")
    op = dict(p.effects[("test_cover_b", "arrival")][0], count=(2, 0))
    monkeypatch.setitem(p.effects, ("test_cover_b", "arrival"), (op,))
    assert check_card("test", "test_cover_b") > 0
