"""The Dark Matter module's observation (bbom_env/rl/obs_dark_matter.py):
Dark Matter in every zone (section 1.2), the supply, Dark Curses and their stacks (section 9.1,
V-09), the Black Book spread (section 4.8, V-01, V-02, A-60), lost abilities (V-10), payments
(V-17) and no hidden information (A-66)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.model.constants import MAX_SPELLS, MAX_STACK, MAX_SUPPORT_SLOTS, NUM_TRACK_SLOTS
from bbom_env.engine.model.records import CurseOnTrack, SupportSlot, TempModifier
from bbom_env.engine.play.decision import pending
from bbom_env.modules.dark_matter.content import BLACK_PAGE, DARK_SYMBOL
from bbom_env.modules.dark_matter.state import DARK_MATTER, DARK_MATTER_CARDS, dm_state
from bbom_env.rl.observation import ObservationEncoder
from tests.rl.test_observation import perturb_hidden
from tests.rl.test_observation import random_states as base_random_states

DM = ("dark_matter",)


def dm_config(**kw: object) -> GameConfig:
    return GameConfig(pack="test", modules=DM, **kw)  # type: ignore[arg-type]


def random_states(players: int, payment: str, seed: int, every: int = 1) -> list[GameState]:
    """Decision states of one random legal game with the module (every ``every``-th, and the last)."""
    return base_random_states(players, payment, seed, every, modules=DM)


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    out = []
    for players in (2, 3, 4, 5):
        for payment in ("auto", "manual"):
            out += random_states(players, payment, seed=7 * players + len(payment), every=2)
    return out


@pytest.fixture
def enc(dm: None) -> ObservationEncoder:
    return ObservationEncoder(dm_config())


def fresh(players: int = 3, seed: int = 1) -> GameState:
    return new_game(dm_config(num_players=players, seed=seed))


# -- layout ---------------------------------------------------------------------------------------


def test_module_sections_come_after_the_base_sections(dm: None) -> None:
    base = ObservationEncoder(GameConfig(pack="test"))
    enc = ObservationEncoder(dm_config())
    names = [s.name for s in enc.obs_layout.sections]
    mods = [s.module for s in enc.obs_layout.sections]
    first_dm = mods.index("dark_matter")
    assert set(mods[first_dm:]) == {"dark_matter"} and set(mods[:first_dm]) == {"base"}
    assert names[:first_dm] == [name for name, _, _ in base.sections]  # same base sections, in order
    assert all(n.startswith("dark_matter.") for n in names[first_dm:])
    assert {n for n in names if n.startswith("dark_matter.")} == {
        "dark_matter.supply",
        "dark_matter.track_below",
        "dark_matter.track_cost",
        "dark_matter.book",
        "dark_matter.book_spread",
        "dark_matter.book_left",
        "dark_matter.book_right",
        "dark_matter.payment",
    }
    # Without the module: no module section, and the base layout the base encoder has.
    assert not any(n.startswith("dark_matter.") for n, _, _ in base.sections)


def test_base_sections_widen_with_the_module(dm: None) -> None:
    """Dark Matter is a card code (section 1.2), a Curse type and a Monster symbol (section 9.1):
    the base count/one-hot sections gain it with the module on, and only then."""
    base = {n: ln for n, _, ln in ObservationEncoder(GameConfig(pack="test")).sections}
    enc = ObservationEncoder(dm_config())
    length = {n: ln for n, _, ln in enc.sections}
    for name in ("own.hand", "own.deck", "seat0.discard", "decision.picks"):
        assert length[name] == base[name] + 1, name
    assert length["seat0.support"] == base["seat0.support"] + MAX_SUPPORT_SLOTS
    assert length["curse_piles.sizes"] == base["curse_piles.sizes"] + 1
    assert length["grimoire.monster_symbols"] == base["grimoire.monster_symbols"] + 3
    assert enc.meanings["own.hand"].split("(")[1].split(")")[0].endswith("dark-matter")


def test_size_is_the_same_for_every_player_count_and_switch(dm: None) -> None:
    sizes = {
        ObservationEncoder(dm_config(num_players=n, black_book_inside_pages=k)).size
        for n in (2, 3, 4, 5)
        for k in (1, 3, 6)
    }
    assert len(sizes) == 1


# -- values ---------------------------------------------------------------------------------------


def test_random_games_stay_in_range_and_in_their_sections(
    enc: ObservationEncoder, states: list[GameState]
) -> None:
    seen = {"supply": set(), "spread": set(), "used": 0, "closed": 0, "dm_left": 0, "book_pay": 0}
    for state in states:
        seat = state.current_player() if not state.is_terminal() else 0
        vec = enc.check_sections(state, seat)  # each section object writes only its own range
        assert vec.dtype == np.float32 and vec.min() >= 0 and vec.max() <= 1
        v = enc.views(vec)
        st = dm_state(state)
        assert v["dark_matter.supply"][0] == pytest.approx(st.supply / DARK_MATTER_CARDS)
        seen["supply"].add(st.supply)
        seen["used"] += int(v["dark_matter.book"][1])
        seen["closed"] += int(v["dark_matter.book"][0])
        if not st.closed:
            seen["spread"].add(int(np.flatnonzero(v["dark_matter.book_spread"])[0]))
        seen["dm_left"] += v["dark_matter.payment"][0] > 0
        seen["book_pay"] += v["dark_matter.payment"][2:].sum() > 0
    assert len(seen["supply"]) > 5 and len(seen["spread"]) >= 2
    # dm_left >= 3: random play also spends Dark Matter as Spontaneous Elements (section 4.9), and
    # the Air Magician's conversion (V-12) changes what random players pay.
    assert seen["used"] > 10 and seen["dm_left"] >= 3 and seen["book_pay"] >= 3


def test_dark_matter_in_every_zone(enc: ObservationEncoder) -> None:
    """Section 1.2: Dark Matter cards are counted in hands, decks, discard piles and supports."""
    state = fresh()
    me, nxt = state.players[0], state.players[1]
    me.hand[DARK_MATTER] = 2
    me.deck.append(DARK_MATTER)
    nxt.discard[DARK_MATTER] = 3
    nxt.support.append(SupportSlot(DARK_MATTER))
    dm_state(state).supply -= 7
    v = enc.views(enc.encode(state, 0))
    t = enc.obs_layout.ctx.type_index[DARK_MATTER]
    nt = enc.obs_layout.ctx.ntypes
    assert v["own.hand"][t] == pytest.approx(2 / 8)
    assert v["own.deck"][t] == pytest.approx(1 / 16)
    assert v["seat1.discard"][t] == pytest.approx(3 / 16)
    slot = len(nxt.support) - 1
    assert v["seat1.support"][slot * nt + t] == 1
    assert v["dark_matter.supply"][0] == pytest.approx((DARK_MATTER_CARDS - 7) / DARK_MATTER_CARDS)
    # Another player's hand stays hidden: only its size shows.
    nxt.hand[DARK_MATTER] += 1
    w = enc.views(enc.encode(state, 0))
    assert (
        np.array_equal(w["seat1.discard"], v["seat1.discard"]) and w["seat1.sizes"][0] > v["seat1.sizes"][0]
    )
    other = ObservationEncoder(dm_config(), observe_other_hands=True)
    assert other.views(other.encode(state, 0))["seat1.hand"][t] == pytest.approx(1 / 8)


def test_dark_curse_pile_size(enc: ObservationEncoder) -> None:
    state = fresh()
    i = list(enc.obs_layout.ctx.rules.curse_types).index(DARK_SYMBOL)
    pile = state.curse_piles[DARK_SYMBOL]
    total = len(state.pack.sections["dark_curse"])
    assert enc.views(enc.encode(state, 0))["curse_piles.sizes"][i] == pytest.approx(len(pile) / total)
    del pile[:5]
    assert enc.views(enc.encode(state, 0))["curse_piles.sizes"][i] == pytest.approx(len(pile) / total)


def test_track_stacks_show_every_position(enc: ObservationEncoder) -> None:
    """V-09: up to 3 Curses on a slot, the top one in ``track``, the two below in
    ``dark_matter.track_below``; section 4.7: each Dark Curse's Dark Matter cost."""
    state = fresh()
    pack = state.pack
    dark = sorted(pack.sections["dark_curse"])
    base = sorted(c for c in pack.curses if pack.curses[c].type != DARK_SYMBOL)
    slot = 3
    state.track = [[] for _ in range(NUM_TRACK_SLOTS)]
    state.track[slot] = [
        CurseOnTrack(base[0], tokens=(1, 0, 0, 0)),  # bottom
        CurseOnTrack(dark[0], neutralized_at=0),
        CurseOnTrack(dark[1]),  # top
    ]
    track = enc.groups["dark_matter"].track  # type: ignore[attr-defined]
    rec = track.record
    v = enc.views(enc.encode(state, 0))
    top = v["track"][slot * rec : (slot + 1) * rec]
    assert top[0] == 1 and top[track.feats[dark[1]][0]] == 1 and top[track.feats[dark[1]][1]] == 1
    below = v["dark_matter.track_below"]
    stride = (MAX_STACK - 1) * rec
    second = below[slot * stride : slot * stride + rec]
    third = below[slot * stride + rec : slot * stride + 2 * rec]
    assert second[0] == 1 and second[track.feats[dark[0]][0]] == 1 and second[track.o_neutralized] == 1
    assert (
        third[0] == 1
        and third[track.feats[base[0]][0]] == 1
        and third[track.o_tokens] == pytest.approx(1 / 4)
    )
    # Nothing below the top of the other slots.
    others = np.delete(below.reshape(NUM_TRACK_SLOTS, stride), slot, axis=0)
    assert not others.any()
    cost = v["dark_matter.track_cost"].reshape(NUM_TRACK_SLOTS, MAX_STACK)
    four = pack.sections["dark_curse"][dark[1]].cost / 8
    assert cost[slot].tolist() == pytest.approx([four, pack.sections["dark_curse"][dark[0]].cost / 8, 0.0])
    assert cost.sum() == pytest.approx(cost[slot].sum())
    # A lone Curse on a slot: its cost at the top position when it is a Dark Curse, else none.
    state.track[0] = [CurseOnTrack(dark[2])]
    state.track[1] = [CurseOnTrack(base[1])]
    lone = enc.views(enc.encode(state, 0))["dark_matter.track_cost"].reshape(NUM_TRACK_SLOTS, MAX_STACK)
    assert lone[0].tolist() == pytest.approx([pack.sections["dark_curse"][dark[2]].cost / 8, 0.0, 0.0])
    assert not lone[1].any()
    # The layout's DESTROY_CURSE ids address the same (slot, position from the top) pairs.
    assert (
        "track slot * MAX_STACK + stack position"
        in dict((r[0], r[3]) for r in enc.layout.table())["DESTROY_CURSE"]
    )


def test_black_book_spread(enc: ObservationEncoder) -> None:
    """Section 4.8, V-01, V-02, A-60: the open spread, both faces with their costs, used this
    turn; a closed book shows only its closed flag."""
    state = fresh()
    st = dm_state(state)
    pages = state.pack.sections[BLACK_PAGE.name]
    obj = enc.groups["dark_matter"]

    def book(s: GameState) -> dict[str, np.ndarray]:
        v = enc.views(enc.encode(s, 0))
        return {k.split(".")[1]: v[k] for k in v if k.startswith("dark_matter.book")}

    for spread in range(len(st.book) - 1):
        st.spread = spread
        b = book(state)
        left, right = pages[st.book[spread]].back, pages[st.book[spread + 1]].front
        assert np.flatnonzero(b["book_spread"]).tolist() == [spread]
        nl, nr = len(obj.left_index), len(obj.right_index)  # type: ignore[attr-defined]
        assert np.flatnonzero(b["book_left"][:nl]).tolist() == [obj.left_index[st.book[spread]]]  # type: ignore[attr-defined]
        assert np.flatnonzero(b["book_right"][:nr]).tolist() == [obj.right_index[st.book[spread + 1]]]  # type: ignore[attr-defined]
        assert b["book_left"][nl] == pytest.approx(left.cost / 8)
        assert b["book_right"][nr] == pytest.approx(right.cost / 8)
        assert b["book_left"][nl + 1] == left.closes and b["book_right"][nr + 1] == right.closes
        assert b["book"].tolist() == [0, 0, spread == len(st.book) - 2]  # last right page: V-02
    st.used_turn = state.turn
    assert book(state)["book"][1] == 1  # once per turn
    st.closed = True
    b = book(state)
    assert b["book"].tolist() == [1, 0, 0] and not any(b[k].any() for k in b if k != "book")


def test_lost_ability_flag(enc: ObservationEncoder) -> None:
    """V-10: a lose_ability modifier (the Dark Curse's) shows in the seat's "ability lost" flag."""
    state = fresh()
    assert not enc.views(enc.encode(state, 0))["seat1.status"][5]
    state.players[1].mods.append(
        TempModifier(
            {"kind": "lose_ability"}, "until_next_monster", sorted(state.pack.sections["dark_curse"])[0]
        )
    )
    state.legal_cache = None  # a state changed by hand: its derived facts go (GameState.legal_cache)
    v = enc.views(enc.encode(state, 0))
    assert v["seat1.status"][5] == 1 and not v["seat0.status"][5]
    assert enc.views(enc.encode(state, 2))["seat2.status"][5] == 1  # seat 1 is 2 seats after seat 2


def test_seat_limits_match_the_engine_hooks(enc: ObservationEncoder, states: list[GameState]) -> None:
    """The encoder's support capacity and Spell limit (the seat views') equal
    hooks.support_capacity / spell_limit, a lose_ability modifier (V-10) dropping the Magician
    sheet's modifiers included (docs/rules.md section 4.11)."""
    from bbom_env.engine.modifiers.hooks import ability_lost, spell_limit, support_capacity

    lose = {"kind": "lose_ability"}
    checked = 0
    for i, state in enumerate(states[::7]):
        s = state.clone()
        if i % 2:
            for pl in s.players:
                pl.mods.append(TempModifier(lose, "until_next_monster", "test"))
        v = enc.views(enc.encode(s, 0))
        for k in range(len(s.players)):
            sizes = v[f"seat{k}.sizes"]
            assert sizes[4] == pytest.approx(min(1.0, support_capacity(s, k) / MAX_SUPPORT_SLOTS))
            assert sizes[5] == pytest.approx(min(1.0, spell_limit(s, k) / MAX_SPELLS))
            assert v[f"seat{k}.status"][5] == (i % 2 or ability_lost(s, k))  # a Dark Curse's too (V-10)
            checked += 1
    assert checked > 50
    # A Magician whose sheet changes a limit: losing the ability (V-10) changes that seat's sizes.
    s = fresh()
    limits = ("support_slots", "spell_limit")
    mid = next(m.id for m in s.pack.magicians.values() if any(x["kind"] in limits for x in m.mods))
    s.players[0].magician = mid
    s.legal_cache = None
    before = enc.views(enc.encode(s, 0))["seat0.sizes"][4:].copy()
    s.players[0].mods.append(TempModifier(lose, "until_next_monster", "test"))
    s.legal_cache = None  # a state changed by hand: its derived facts go (GameState.legal_cache)
    after = enc.views(enc.encode(s, 0))["seat0.sizes"][4:]
    assert not np.array_equal(before, after)
    assert after.tolist() == pytest.approx(
        [support_capacity(s, 0) / MAX_SUPPORT_SLOTS, spell_limit(s, 0) / MAX_SPELLS]
    )


def test_payment_shows_the_dark_matter_left(enc: ObservationEncoder, states: list[GameState]) -> None:
    """V-17 (two different Elements for a Dark Matter card) and the Dark Matter costs of the Black
    Book and Dark Curses (sections 4.7, 4.8): what a pending payment still owes."""
    from bbom_env.engine.payment.cost import left_to_pay

    checked = set()
    for state in states:
        d = pending(state)
        if d.kind != "payment":
            continue
        f = state.stack[-1]
        left = left_to_pay(d.picks, f["cost"])
        v = enc.views(enc.encode(state, d.player))["dark_matter.payment"]
        assert v[0] == pytest.approx(min(1.0, left.currency / 8))
        assert v[1] == pytest.approx(min(1.0, left.distinct / 4))
        if f["action"] == "black_book":
            st = dm_state(state)
            side = st.book.index(f["target"]) - st.spread
            assert v[2:].tolist() == [side == 0, side == 1]
        else:
            assert not v[2:].any()
        checked.add(f["action"])
    assert {"acquire_dark_matter", "black_book"} <= checked


# -- hidden information (A-66) --------------------------------------------------------------------


def perturb_book(state: GameState, rng: random.Random) -> None:
    """The Black Book's face-down pages (after the open spread's right page, V-01) replaced by
    other pages of the same kind; the open spread kept."""
    st = dm_state(state)
    if st.closed:
        return
    pages = state.pack.sections[BLACK_PAGE.name]
    shown = set(st.book[: st.spread + 2])
    hidden = range(st.spread + 2, len(st.book))
    for kind in ("inside", "back"):
        spots = [i for i in hidden if pages[st.book[i]].kind == kind]
        pool = sorted(p for p in pages if pages[p].kind == kind and p not in shown)
        for i, pid in zip(spots, rng.sample(pool, len(spots)), strict=True):
            st.book[i] = pid


def test_hidden_zones_do_not_change_the_observation(enc: ObservationEncoder, states: list[GameState]) -> None:
    """Other hands, every deck's order, the Grimoire's and the Black Book's face-down pages, the
    Library below the tops and every Curse pile's order (the Dark Curse pile's too) are hidden."""
    rng = random.Random(3)
    changed_book = changed_dark_pile = 0
    for state in states[::3]:
        for seat in range(len(state.players)):
            other = perturb_hidden(state, seat, rng)
            perturb_book(other, rng)
            changed_book += dm_state(other).book != dm_state(state).book
            changed_dark_pile += other.curse_piles[DARK_SYMBOL] != state.curse_piles[DARK_SYMBOL]
            assert np.array_equal(enc.encode(state, seat), enc.encode(other, seat)), (seat, str(state))
    assert changed_book > 20 and changed_dark_pile > 20  # the perturbation really changed them


def test_visible_book_changes_change_the_observation(enc: ObservationEncoder) -> None:
    state = fresh()
    st = dm_state(state)
    before = enc.encode(state, 0)
    st.spread += 1
    assert not np.array_equal(before, enc.encode(state, 0))


def test_layout_docs_of_the_module_set_are_generated_and_checked_in(dm: None) -> None:
    """docs/observation.dark_matter.md, docs/action_layout.dark_matter.md and
    docs/layout.dark_matter.json are generated beside the base game's (and checked for staleness by
    tests/rl/test_observation.py); the JSON names every module section with its module."""
    import json

    from bbom_env.rl import docs

    assert DM in docs.DOC_MODULE_SETS
    files = docs.generate((DM,))
    assert set(files) == {docs.doc_path(stem, ext, DM) for stem, ext in docs_stems()}
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python -m bbom_env.rl.docs"
    data = json.loads(files[docs.doc_path("layout", "json", DM)])
    mods = {s["name"]: s["module"] for s in data["observation"]["sections"]}
    assert {n for n, m in mods.items() if m == "dark_matter"} == {
        n for n in mods if n.startswith("dark_matter.")
    }
    assert data["actions"]["blocks"][-1]["name"] == "BLACK_BOOK_RIGHT"


def docs_stems() -> list[tuple[str, str]]:
    return [("action_layout", "md"), ("observation", "md"), ("layout", "json")]
