"""Dark Monsters (docs/rules.md section 2.2 step 7, 3.3.5; V-13 to V-16; A-03, A-07, A-40,
A-62): the Vth Grimoire's setup by difficulty, Dark Curses placed for a Monster's Dark Matter
symbol, and the three known Grimoire texts on the sides V-13 gives them."""

from __future__ import annotations

import pytest
from builders import Scenario, code

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.constants import MADNESS, ROUNDS, is_madness
from bbom_env.modules.dark_matter.grimoire import (
    CURE_AND_REBUILD,
    DARK_MONSTERS_BY_DIFFICULTY,
    check_dark_grimoire,
    placed_curses,
)
from bbom_env.modules.dark_matter.module import NAME, PACK

HAND = ("fire-1", "water-1", "earth-1", "air-1", "earth-1", "earth-1")
# Covers and Inside pages of the test pack and the Vth Grimoire: dark_monster_01 is the V-14
# arrival (Tokenmonger: air, Dark Matter, fire), _02 the V-15 Bonus, _03 the V-13 Failure.
DARK = ("dark_monster_01", "dark_monster_02", "dark_monster_03", "dark_monster_04", "dark_monster_05")
BASE = ("test_page_1", "test_page_2", "test_page_3")
FILL = ("dark_monster_08", "dark_monster_09", "dark_monster_10")  # later pages: never reached here


def game(*insides: str, difficulty: int = 1, **config: object) -> Scenario:
    """Two players with full hands and decks, round 1 about to end on P0's Monster phase (the
    track empty: the right page's Bonus, then the next page's Monster), the Grimoire made of the
    Vth Cover 1, these Inside pages (then other Dark Monsters up to the difficulty's k and base
    pages up to 5) and the test End page."""
    k = DARK_MONSTERS_BY_DIFFICULTY[difficulty] - len(insides)  # the invariant's k
    pages = list(insides) + [p for p in FILL if p not in insides][:k] + list(BASE)
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,), difficulty=difficulty, **config)
    sc.grimoire("dark_monster_cover_1", *pages[: ROUNDS - 1], "test_end")
    for p in (0, 1):
        sc.hand(p, *HAND).deck(p, *("air-1", "water-1") * 3)
    return sc.at(round=1, marker=5).mark()


def curse_types(sc: Scenario) -> list[str | None]:
    return [sc.s.pack.curses[slot[0].curse].type if slot else None for slot in sc.s.track]


# -- setup (section 2.2 step 7, V-16, A-40) ---------------------------------------------------------


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_the_grimoire_holds_3_4_5_dark_monsters_by_difficulty(dm: None, difficulty: int) -> None:
    """Section 2.2 step 7, A-40: the Round track's difficulty 1 / 2 / 3 draws 3 / 4 / 5 of the 10
    Dark Monster Inside pages, completed with base Inside pages to 5, shuffled; V-16: the Cover is
    one of the 4 base + 3 Vth Covers and never counts; the base End page last."""
    k = DARK_MONSTERS_BY_DIFFICULTY[difficulty]
    assert k == difficulty + 2
    covers, positions = set(), set()
    for seed in range(40):
        state = new_game(GameConfig(seed=seed, modules=(NAME,), difficulty=difficulty))
        g, pages = state.grimoire, state.pack.pages
        assert len(g) == ROUNDS + 1 and len(set(g)) == len(g)
        assert [pages[p].kind for p in g] == ["cover"] + ["inside"] * (ROUNDS - 1) + ["end"]
        assert g[-1] == "grimoire_end_page"
        dark = [i for i, p in enumerate(g[1:ROUNDS]) if pages[p].module == NAME]
        assert len(dark) == k
        covers.add(g[0])
        positions.update(dark)
        check_invariants(state)
    # Over 40 seeds: Covers of both sets, and Dark Monsters on every Inside position (shuffled).
    assert {c.startswith("dark_monster_cover") for c in covers} == {True, False}
    assert positions == set(range(ROUNDS - 1))


def test_the_grimoire_setup_draws_from_the_games_rng(dm: None) -> None:
    """Section 2.2: a seed fixes the Grimoire (the module's draws come from the game's RNG)."""
    one = [new_game(GameConfig(seed=s, modules=(NAME,))).grimoire for s in (4, 4, 5)]
    assert one[0] == one[1] != one[2]


def test_the_invariant_names_a_wrong_grimoire(dm: None) -> None:
    """A-40: the Grimoire holds exactly k Dark Monster pages; the invariant names what is wrong."""
    state = new_game(GameConfig(seed=2, modules=(NAME,), difficulty=2))
    check_dark_grimoire(state)
    assert check_dark_grimoire in ruleset(state.config.modules).invariants
    spare = [p.id for p in state.pack.pages.values() if p.kind == "inside" and not p.module]
    spare = [p for p in spare if p not in state.grimoire]
    i = next(i for i, p in enumerate(state.grimoire) if i and state.pack.pages[p].module == NAME)
    bad = state.clone()
    bad.grimoire[i] = spare[0]  # a Dark Monster page swapped for a base Inside page
    with pytest.raises(AssertionError, match="grimoire holds 3 Dark Monster pages, difficulty 2 needs 4"):
        check_dark_grimoire(bad)
    bad = state.clone()
    bad.grimoire[0] = "grimoire_end_page"
    with pytest.raises(AssertionError, match="is not 7 distinct pages"):
        check_dark_grimoire(bad)
    bad.grimoire[0] = state.grimoire[1]
    bad.grimoire[1] = state.grimoire[0]
    with pytest.raises(AssertionError, match=r"grimoire\[0\]: '.*' is not a cover page"):
        check_dark_grimoire(bad)


# -- Dark Curses placed by a Monster (section 3.3.5, 9.1, A-07) --------------------------------------


def test_a_dark_matter_symbol_places_a_dark_curse_from_its_pile(dm: None) -> None:
    """Section 3.3.5 [DM]: the Vth Cover "Shadow Weaver" (fire, Dark Matter, water) opens in round
    1 (no Multi-Element Curse at difficulty 1): the Dark Matter symbol takes the top Dark Curse of
    ``curse_piles["dark_matter"]`` into S3L, by the usual placement rules."""
    sc = game().at(round=0, marker=0)
    sc.curse_pile_top("dark_matter", "dark_curse_05")
    pile = len(sc.s.curse_piles["dark_matter"])
    sc.begin_turn(0)  # the first turn opens the Cover; its arrival: each discards 1 card
    assert sc.events("monster") == [(1, "dark_monster_cover_1")]
    assert curse_types(sc) == ["fire", "dark_matter", "water", None, None]
    assert sc.s.track[1][0].curse == "dark_curse_05"
    assert len(sc.s.curse_piles["dark_matter"]) == pile - 1
    sc.check()


def test_an_empty_dark_curse_pile_places_nothing(dm: None) -> None:
    """A-07: an empty pile places nothing; the next symbol takes the next free slot."""
    sc = game().at(round=0, marker=0)
    sc.s.curse_piles["dark_matter"] = []
    sc.begin_turn(0)
    assert curse_types(sc) == ["fire", "water", None, None, None]


# -- V-14: "Add 2 tokens at random to the third Curse card" (arrival, V-13, A-03, A-62) -----------------


def test_the_third_curse_placed_gets_2_random_tokens(dm: None) -> None:
    """V-13, V-14, A-62: Tokenmonger (air, Dark Matter, fire) arrives after its Curses are placed
    (A-03); its arrival puts 2 tokens drawn from the pool on the third Curse placed (the fire
    Curse in S3R); the Dark Curse and the air Curse get none."""
    sc = game("dark_monster_01")
    pool = sum(sc.s.tokens)
    sc.begin_turn(0)  # round 1's Bonus (dark_monster_01: each draws 1), then Tokenmonger
    assert sc.events("monster") == [(2, "dark_monster_01")]
    assert curse_types(sc) == ["air", "dark_matter", "fire", None, None]
    assert [(slot, sc.s.pack.curses[cid].type) for slot, cid in placed_curses(sc.s)] == [
        (0, "air"),
        (1, "dark_matter"),
        (2, "fire"),
    ]
    assert [sum(slot[0].tokens) for slot in sc.s.track[:3]] == [0, 0, 2]
    assert sum(sc.s.tokens) == pool - 2
    sc.check()
    # The tokens are drawn at random from the pool: with only water tokens left, both are water.
    sc = game("dark_monster_01")
    sc.s.tokens[:] = [0, 1, 0, 0]  # the others aside (no invariant check here)
    sc.begin_turn(0)
    assert sc.s.track[2][0].tokens == (0, 1, 0, 0) and sc.s.tokens == [0, 0, 0, 0]  # an empty pool: 1 only


def test_a_dark_curse_third_gets_no_token(dm: None) -> None:
    """V-14, V-08: at difficulty 3 round 2 places 1 Multi-Element Curse first, so the third Curse
    placed is the Dark Curse: no token goes anywhere."""
    sc = game(*DARK, difficulty=3)
    pool = list(sc.s.tokens)
    sc.begin_turn(0)
    assert curse_types(sc) == ["multi", "air", "dark_matter", "fire", None]
    assert sc.s.tokens == pool and not any(any(slot[0].tokens) for slot in sc.s.track if slot)
    sc.check()


def test_fewer_than_3_curses_placed_get_no_token(dm: None) -> None:
    """V-14: with an empty air pile (A-07) only 2 Curses are placed: nothing."""
    sc = game("dark_monster_01")
    sc.s.curse_piles["air"] = []
    pool = list(sc.s.tokens)
    sc.begin_turn(0)
    assert curse_types(sc) == ["dark_matter", "fire", None, None, None]
    assert sc.s.tokens == pool


def test_arrival_before_placement_finds_no_third_curse(dm: None) -> None:
    """A-03 switched to the literal order (``arrival_effect_after_placement=False``): no Curse is
    placed yet when the arrival resolves, so it adds nothing."""
    sc = game("dark_monster_01", arrival_effect_after_placement=False)
    pool = list(sc.s.tokens)
    sc.begin_turn(0)
    assert curse_types(sc) == ["air", "dark_matter", "fire", None, None]
    assert sc.s.tokens == pool


def test_the_placement_order_survives_a_save(dm: None) -> None:
    """The placement order is read from the game's log, which saves and clones keep."""
    sc = game("dark_monster_01")
    sc.begin_turn(0)
    order = placed_curses(sc.s)
    assert len(order) == 3
    assert placed_curses(from_json(sc.s.to_json())) == placed_curses(sc.s.clone()) == order


# -- V-15: "A player cures all the Madness ... then shuffles them" (Bonus, V-13) -------------------------


def test_the_chosen_player_cures_and_rebuilds_their_deck(dm: None) -> None:
    """V-13, V-15: the Bonus of dark_monster_02: the Active Player chooses a player (the base seat
    pick); that player returns every Madness of their discard pile and deck under the Madness pile,
    then discard pile and deck are shuffled together into the new deck, with no Madness for this
    shuffle; the other player is untouched."""
    sc = game("dark_monster_02")
    sc.discard(1, "madness", "fire-2", "madness").deck(1, "madness", "air-1", "water-1")
    sc.discard(0, "madness")
    pile = len(sc.s.madness_pile)
    sc.begin_turn(0)
    assert (sc.pending().kind, sc.pending().player) == ("choose_player", 0)
    assert sc.legal_names() == ["PICK_PLAYER(seat+0)", "PICK_PLAYER(seat+1)"]
    sc.do("PICK_PLAYER(seat+1)")
    assert sc.events(CURE_AND_REBUILD) == [(1, 3, 3)]
    p1 = sc.p(1)
    assert sorted(p1.deck) == sorted(code(c) for c in ("fire-2", "air-1", "water-1"))
    assert sum(p1.discard) == 0 and not any(is_madness(c) for c in p1.hand if p1.hand[c])
    assert len(sc.s.madness_pile) == pile + 3 and sc.s.madness_pile[:3] == [MADNESS] * 3
    assert sc.p(0).discard[MADNESS] == 1  # not chosen
    sc.check()


def test_every_player_places_a_madness_on_their_draw_pile(dm: None) -> None:
    """V-13: the Failure "All players place 1 Madness on their draw pile" (dark_monster_03) is the
    base vocabulary's ``receive_madness`` to the deck top, for each player (a Grimoire effect)."""
    sc = game("dark_monster_03").curse(4, "test_curse_fire_b")  # a Curse left: the Failure
    (failure,) = sc.s.pack.effect("dark_monster_03", "failure")
    assert (failure["op"], failure["target"], failure["to"], failure["count"]) == (
        "receive_madness",
        "each",
        "deck_top",
        (1, 0),
    )
    pile = len(sc.s.madness_pile)
    sc.begin_turn(0)
    assert sc.events("failure") == [("dark_monster_03",)]
    assert [sc.p(p).deck[-1] for p in (0, 1)] == [MADNESS, MADNESS]
    assert [len(sc.p(p).deck) for p in (0, 1)] == [7, 7]
    assert len(sc.s.madness_pile) == pile - 2


# -- V-01: the Black Book's Inside pages (switch black_book_inside_pages) ---------------------------


@pytest.mark.parametrize("pages", [1, 3, 12])
def test_the_black_book_has_the_configured_inside_pages(dm: None, pages: int) -> None:
    """V-01: ``black_book_inside_pages`` (1 to 12, default 3) Inside pages between the Cover and
    the Back page, all different; the book has pages + 1 spreads (render: "spread 1/<pages + 1>")."""
    state = new_game(GameConfig(seed=6, modules=(NAME,), black_book_inside_pages=pages))
    st = state.ext[NAME]
    kinds = [state.pack.sections["black_page"][p].kind for p in st.book]
    assert kinds == ["cover"] + ["inside"] * pages + ["back"] and len(set(st.book)) == pages + 2
    assert f"Black Book spread 1/{pages + 1}:" in str(state)
    check_invariants(state)
    st.spread = pages  # the last spread: the last Inside page's back | the Back page's front
    check_invariants(state)
    st.spread = pages + 1
    with pytest.raises(AssertionError, match=rf"spread: {pages + 1} is not 0\.\.{pages}"):
        check_invariants(state)
