"""Use the Black Book (docs/rules.md section 4.8; V-01 to V-04; A-60, A-65, A-79): once
per turn in the Active Player's own Action phase, the left page reusable, the right page cast once
and then turned, the closing Black Spell closes the book; paid only with Dark Matter (V-06); the
two known Black Spell texts (V-03, V-04)."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest
from builders import Scenario, code

from bbom_env.engine import GameConfig, from_json, new_game
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import IllegalActionError
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.io.scenario import grant_actions
from bbom_env.engine.model.records import SupportSlot, TempModifier
from bbom_env.modules.dark_matter.actions import ACQUIRE_BLOCK
from bbom_env.modules.dark_matter.black_book import BLACK_BOOK, BLOCK_NAMES, GAIN_TO_DECK, STAT
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER
from bbom_env.rl.layout import ActionLayout

LEFT, RIGHT = BLOCK_NAMES
DM = "PAY_HAND(dark-matter)"
# A book whose spreads are (left | right), with the Black Spells' costs:
# 0: Cover of Ash's back "Draw 2 cards." (2) | Inside I's front, V-03 (3)
# 1: Inside I's back "Upgrade 1 Element card" (1) | Inside II's front "Gain 1 value-2 ... hand" (2)
# 2: Inside II's back, V-04 (1) | Inside III's front "Neutralize 1 Curse." (3)
# 3: Inside III's back "Draw 1 card." (2) | Back of Ash's front "Destroy 1 Curse" (5, closes, V-02)
BOOK = ["black_page_cover_1", "black_page_inside_01", "black_page_inside_02", "black_page_inside_03"]
BOOK += ["black_page_back_1"]


def game(
    *hand: str, dm: int = 0, spread: int = 0, payment: str = "manual", book: list[str] | None = None
) -> Scenario:
    """P0 in their Action phase with this hand plus ``dm`` Dark Matter cards (from the supply), the
    Black Book made of ``book`` (default ``BOOK``) open on ``spread``."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,), payment=payment).hand(0, *hand)
    give_dark_matter(sc, 0, dm)
    st = dm_state(sc.s)
    st.book, st.spread = list(book or BOOK), spread
    for seat in range(len(sc.s.players)):  # a full deck: "Draw" Black Spells draw no Madness
        sc.deck(seat, *["fire-1"] * 4)
    return sc.action_phase(0).mark()


def give_dark_matter(sc: Scenario, seat: int, n: int) -> None:
    dm_state(sc.s).supply -= n
    sc.p(seat).hand[DARK_MATTER] += n
    sc.s.legal_cache = None


def book_moves(sc: Scenario) -> list[str]:
    return [n for n in sc.legal_names() if n.startswith("BLACK_BOOK")]


# -- the move blocks -------------------------------------------------------------------------------


def test_two_blocks_after_acquire_dark_matter_one_size_for_every_player_count(dm: None) -> None:
    """The two pages' blocks come after Acquire Dark Matter's, one id each."""
    by_name = M.layout((NAME,)).by_name
    acquire = by_name[ACQUIRE_BLOCK]
    assert [(by_name[b].start, by_name[b].size) for b in BLOCK_NAMES] == [
        (acquire.start + 1, 1),
        (acquire.start + 2, 1),
    ]
    sizes = {ActionLayout(GameConfig(num_players=n, modules=(NAME,))).n for n in range(2, 6)}
    assert sizes == {M.layout((NAME,)).size}
    assert BLACK_BOOK in ruleset((NAME,)).pay_actions  # the observation's "payment for" one-hot


# -- when it may be used (section 4.8, A-60) -----------------------------------------------------


def test_the_left_page_is_reusable_on_later_turns_but_once_per_turn_a60(dm: None) -> None:
    sc = game(dm=6)
    assert book_moves(sc) == [LEFT, RIGHT]
    sc.do(LEFT, DM, DM, "PAY_CONFIRM")  # Cover of Ash's back: draw 2 cards (cost 2)
    assert sum(sc.p(0).hand) == 4 + 2 and sc.s.stats[STAT] == 1
    assert sc.events("black_book_cast") == [(0, "black_page_cover_1", "left")]
    assert book_moves(sc) == []  # once per turn, either page
    with pytest.raises(IllegalActionError):
        sc.do(LEFT)
    assert dm_state(sc.s).spread == 0 and not dm_state(sc.s).closed  # the left page stays
    sc.s.turn += 1  # a later turn of P0's
    sc.action_phase(0)
    assert book_moves(sc) == [LEFT, RIGHT]
    sc.do(LEFT, DM, DM, "PAY_CONFIRM")
    assert sc.s.stats[STAT] == 2 and sc.p(0).discard[DARK_MATTER] == 4


def test_used_through_the_turn_flow_once_per_turn_a60(dm: None) -> None:
    """The real turn flow: P0 casts and ends the turn; on P1's turn the book is P1's to use (A-60:
    once per turn, not once per round); P0's next turn offers it again."""
    sc = game(dm=5)
    give_dark_matter(sc, 1, 2)
    sc.do(LEFT, DM, DM, "PAY_CONFIRM", "END")
    while sc.pending().kind != "action":  # Recuperation and the next turn's phases
        sc.do(sc.s.legal_actions()[0])
    assert sc.s.active == 1 and book_moves(sc) == [LEFT]  # P1: 2 Dark Matter
    sc.do("END")
    while sc.pending().kind != "action":
        sc.do(sc.s.legal_actions()[0])
    assert sc.s.active == 0 and sc.p(0).hand[DARK_MATTER] == 3 and book_moves(sc) == [LEFT, RIGHT]
    check_invariants(sc.s)


def test_not_offered_to_another_player_on_a_granted_action_a60(dm: None) -> None:
    """A-60: a player acting through "Another player takes an Action" cannot use the book."""
    sc = game(dm=4)
    sc.hand(1, "fire-1", "water-1")  # so that the granted menu offers more than END
    give_dark_matter(sc, 1, 4)
    grant_actions(sc.s, 1, 1)
    assert sc.pending().kind == "granted_action" and sc.pending().player == 1
    assert book_moves(sc) == [] and "END" in sc.legal_names()


def test_not_offered_to_the_active_player_on_a_granted_action_a60(dm: None) -> None:
    """A-60: only in the turn's own Action phase, even for the Active Player."""
    sc = game("fire-1", "water-1", dm=4)
    grant_actions(sc.s, 0, 1)
    assert sc.pending().kind == "granted_action" and book_moves(sc) == []
    sc.do("END")
    assert sc.pending().kind == "action" and book_moves(sc) == [LEFT, RIGHT]


def test_a_black_spell_granting_an_action_gives_no_book_use_a60(dm: None) -> None:
    """Inside IV's front "Another player takes 1 Action." cast from the book: the granted player
    holds Dark Matter but is not offered the book."""
    book = ["black_page_cover_1", "black_page_inside_04", "black_page_inside_02", "black_page_inside_03"]
    sc = game(dm=4, book=[*book, "black_page_back_1"])
    sc.hand(1, "fire-1", "water-1")
    give_dark_matter(sc, 1, 4)
    sc.do(RIGHT, DM, DM, DM, DM, "PAY_CONFIRM")
    if sc.pending().kind == "choose_player":
        sc.do(sc.s.legal_actions()[0])
    assert sc.pending().kind == "granted_action" and sc.pending().player == 1
    assert book_moves(sc) == [] and dm_state(sc.s).spread == 0  # the page turns after the effect
    sc.do("END")
    assert sc.pending().kind == "action" and sc.pending().player == 0
    assert dm_state(sc.s).spread == 1 and book_moves(sc) == []  # turned; used this turn


def test_not_affordable_not_offered_and_elements_never_pay_v06(dm: None) -> None:
    """Section 4.8: the printed cost in Dark Matter cards; Element cards never pay it (V-06)."""
    sc = game("fire-3", "water-3", "earth-3", "air-3", dm=2)
    assert book_moves(sc) == [LEFT]  # left costs 2, right 3: 2 Dark Matter afford only the left
    sc.do(LEFT)
    assert sc.legal_names() == [DM, "PAY_CANCEL"]  # no Element card is offered
    sc.do(DM, DM)
    assert sc.legal_names() == ["PAY_CONFIRM", "PAY_CANCEL"]
    none = game("fire-3", "water-3", "earth-3", "air-3", dm=1, spread=1)  # costs 1 | 2
    assert book_moves(none) == [LEFT]
    assert book_moves(game("fire-3", "water-3", "earth-3", "air-3")) == []


def test_a_forbid_modifier_stops_it(dm: None) -> None:
    """A "forbid" modifier of every Action (section 4.10) forbids the Black Book too."""
    sc = game(dm=5)
    forbid = {"kind": "forbid", "action": "all", "element": "any"}
    sc.p(0).mods.append(TempModifier(forbid, "until_next_monster", "test"))
    sc.s.legal_cache = None
    assert book_moves(sc) == []


def test_a_face_without_effect_is_not_offered(dm: None, tmp_path: Path) -> None:
    """Section 4.8: a Black Spell whose text has no effect yet (``needs``) cannot be cast."""
    path = tmp_path / "needs.toml"
    path.write_text(
        '[[black_page]]\nid = "black_page_cover_1"\nname = "Black Book Cover of Ash"\nkind = "cover"\n'
        'back = { cost = 1, text = "Something unknown.", needs = "a rule" }\nprovenance = "reconstructed"\n'
    )
    sc = Scenario(pack_overrides=(PACK, str(path)), modules=(NAME,))
    give_dark_matter(sc, 0, 5)
    dm_state(sc.s).book = list(BOOK)
    assert book_moves(sc.action_phase(0)) == [RIGHT]


# -- paying (section 4.8, V-06) ------------------------------------------------------------------


@pytest.mark.parametrize("payment", ["auto", "manual"])
def test_paid_dark_matter_goes_to_the_discard_pile(dm: None, payment: str) -> None:
    sc = game("fire-1", "water-2", dm=4, payment=payment, spread=2)  # left: V-04 (1) | right (3)
    sc.do(RIGHT)
    if payment == "manual":
        sc.do(DM, DM, DM, "PAY_CONFIRM")
    pl = sc.p(0)
    assert pl.hand[DARK_MATTER] == 1 and pl.discard[DARK_MATTER] == 3
    assert pl.hand[code("fire-1")] == pl.hand[code("water-2")] == 1  # Elements untouched
    assert sc.events("pay") == [(0, BLACK_BOOK, "black_page_inside_03", (DARK_MATTER,) * 3)]
    sc.check()


def test_support_pool_dark_matter_pays(dm: None) -> None:
    """As for any payment (section 4.0): a Dark Matter card in a support pays too."""
    sc = game(dm=1, spread=1)  # left costs 1, right 2
    dm_state(sc.s).supply -= 1
    sc.p(1).support.append(SupportSlot(DARK_MATTER))
    sc.s.legal_cache = None
    assert book_moves(sc) == [LEFT, RIGHT]
    sc.do(RIGHT, DM)
    support = [n for n in sc.legal_names() if n.startswith("PAY_SUPPORT")]
    sc.do(support[0], "PAY_CONFIRM")
    assert sc.p(1).support == [] and sc.p(1).discard[DARK_MATTER] == 1
    sc.check()


def test_the_pending_payment_names_the_page(dm: None) -> None:
    sc = game(dm=3)
    sc.do(RIGHT)
    d = sc.pending()
    assert (d.kind, d.source) == ("payment", "black_page_inside_01")
    assert "Black Book Inside Page I" in sc.describe()
    assert sc.s.stack[-1]["action"] == BLACK_BOOK
    sc.do(DM)
    line = "paying for the Black Book's right page, Black Book Inside Page I~: 'Add 1 Element card of "
    assert line + "value 3 to your draw pile' (3 Dark Matter, 1 picked)" in str(sc.s)
    sc.do(DM, DM, "PAY_CONFIRM")
    assert "paying for" not in str(sc.s)


def test_a_cancelled_payment_leaves_the_book_unused(dm: None) -> None:
    sc = game(dm=3)
    sc.do(RIGHT, DM, "PAY_CANCEL")
    assert book_moves(sc) == [LEFT, RIGHT] and sc.p(0).hand[DARK_MATTER] == 3
    assert dm_state(sc.s).used_turn != sc.s.turn and STAT not in sc.s.stats


# -- turning and closing (section 4.8, V-02) -------------------------------------------------------


def test_the_right_page_turns_the_spread(dm: None) -> None:
    """Section 4.8: after the right page's Spell, the next spread shows; that Spell is gone."""
    sc = game(dm=2, spread=1)
    sc.do(RIGHT, DM, DM, "PAY_CONFIRM")  # Inside II's front: gain a value-2 card into the hand
    sc.do("PICK_ELEMENT(air)")
    assert sc.p(0).hand[code("air-2")] == 1
    st = dm_state(sc.s)
    assert st.spread == 2 and not st.closed
    assert "spread 3/4" in str(sc.s) and "Black Book Inside Page II" in str(sc.s)
    sc.check()


def test_the_closing_spell_closes_the_book_v02(dm: None) -> None:
    """V-02: the Back page's front (cost 5) closes the book: no more Black Book this game."""
    sc = game(dm=6, spread=3)
    sc.curse(0, "test_curse_fire_a")
    sc.do(RIGHT, DM, DM, DM, DM, DM, "PAY_CONFIRM")
    if sc.pending().kind == "destroy_curse":
        sc.do(sc.s.legal_actions()[0])
    st = dm_state(sc.s)
    assert st.closed and st.spread == 3 and "Black Book closed" in str(sc.s)
    assert sc.events("black_book_closed") == [(0, "black_page_back_1")]
    sc.s.turn += 1
    sc.action_phase(0)
    assert book_moves(sc) == []
    sc.check()


OVERRIDE = """
[[black_page]]
id = "black_page_back_1"
name = "Black Book Back of Ash"
kind = "back"
front = { cost = 1, text = "Draw 1 card.", effect = [{ op = "draw", count = 1 }], closes = false }
provenance = "reconstructed"

[[black_page]]
id = "black_page_cover_1"
name = "Black Book Cover of Ash"
kind = "cover"
back = { cost = 1, text = "Draw 1 card.", effect = [{ op = "draw", count = 1 }], closes = true }
provenance = "reconstructed"
"""


def _override_game(tmp_path: Path, spread: int) -> Scenario:
    path = tmp_path / "book.toml"
    path.write_text(OVERRIDE)
    sc = Scenario(pack_overrides=(PACK, str(path)), modules=(NAME,), payment="auto")
    give_dark_matter(sc, 0, 2)
    st = dm_state(sc.s)
    st.book, st.spread = list(BOOK), spread
    sc.deck(0, "fire-1", "fire-1")
    return sc.action_phase(0)


def test_the_last_right_page_closes_the_book_v02(dm: None, tmp_path: Path) -> None:
    """V-02: a last right page that does not close by itself still closes the book once cast."""
    sc = _override_game(tmp_path, spread=3)
    sc.do(RIGHT)
    st = dm_state(sc.s)
    assert st.closed and st.spread == 3 and sc.p(0).hand[code("fire-1")] == 1
    sc.check()


def test_a_closing_left_page_closes_the_book_v02(dm: None, tmp_path: Path) -> None:
    """V-02: ``closes`` is a per-face flag: a closing left page closes the book too."""
    sc = _override_game(tmp_path, spread=0)
    sc.do(LEFT)
    assert dm_state(sc.s).closed and book_moves(sc) == []


# -- the two known Black Spells (V-03, V-04) -----------------------------------------------------


def test_v03_an_element_of_the_players_choice_shuffled_into_the_deck(dm: None) -> None:
    sc = game(dm=3)
    sc.supply("water", 3, 0)  # an empty pile is not offered
    before = sc.s.supply[1][1], sc.s.supply[2][1]
    sc.do(RIGHT, DM, DM, DM, "PAY_CONFIRM")
    assert sc.pending().kind == GAIN_TO_DECK and sc.pending().player == 0
    assert sc.legal_names() == ["PICK_ELEMENT(fire)", "PICK_ELEMENT(earth)", "PICK_ELEMENT(air)"]
    sc.do("PICK_ELEMENT(earth)")
    pl = sc.p(0)
    assert sorted(pl.deck) == sorted([code("fire-1")] * 4 + [code("earth-3")])
    assert (sc.s.supply[1][1], sc.s.supply[2][1]) == (before[0], before[1] - 1)
    assert pl.hand[code("earth-3")] == pl.discard[code("earth-3")] == 0
    assert dm_state(sc.s).spread == 1  # a right page: turned after the effect
    sc.check()


def test_v03_shuffles_the_deck(dm: None) -> None:
    """V-03: "add to your draw pile" = shuffled in: over seeds the card lands in every position."""
    places = set()
    for seed in range(30):
        sc = game(dm=3)
        sc.s.rng.seed(seed)
        sc.do(RIGHT, DM, DM, DM, "PAY_CONFIRM", "PICK_ELEMENT(fire)")
        places.add(sc.p(0).deck.index(code("fire-3")))
    assert places == set(range(5))


def test_v03_all_piles_empty_nothing(dm: None) -> None:
    """V-03, A-65: with every value-3 pile empty the Black Spell does nothing (the deck untouched)."""
    sc = game(dm=3)
    for element in ("fire", "water", "earth", "air"):
        sc.supply(element, 3, 0)
    deck = list(sc.p(0).deck)
    state_rng = sc.s.rng.getstate()
    sc.do(RIGHT, DM, DM, DM, "PAY_CONFIRM")
    assert sc.pending().kind == "action" and sc.p(0).deck == deck
    assert sc.s.rng.getstate() == state_rng and dm_state(sc.s).spread == 1
    sc.check()


def test_v04_a_dark_matter_card_from_the_supply_to_the_discard_pile(dm: None) -> None:
    sc = game(dm=1, spread=2)
    supply = dm_state(sc.s).supply
    sc.do(LEFT, DM, "PAY_CONFIRM")
    pl = sc.p(0)
    assert pl.discard[DARK_MATTER] == 2 and pl.hand[DARK_MATTER] == 0  # the paid one + the gained
    assert dm_state(sc.s).supply == supply - 1 and dm_state(sc.s).spread == 2  # left: no turn
    sc.check()


def test_v04_empty_supply_nothing_a65(dm: None) -> None:
    sc = game(dm=1, spread=2)
    st = dm_state(sc.s)
    sc.p(1).discard[DARK_MATTER] += st.supply  # the rest of the supply elsewhere
    st.supply = 0
    sc.do(LEFT, DM, "PAY_CONFIRM")
    assert sc.p(0).discard[DARK_MATTER] == 1 and st.supply == 0
    sc.check()


# -- saves, playouts -------------------------------------------------------------------------------


def test_clone_pickle_and_json_mid_black_book_payment(dm: None) -> None:
    """A save during the Black Book's payment (an Action of the module's ``pay_actions``, on the
    page) and one during its effect (the V-03 choice pending, the page still to turn) load back."""
    sc = game(dm=4)
    sc.do(RIGHT)
    pay = json.loads(sc.s.to_json())["stack"][-1]
    assert (pay["kind"], pay["action"], pay["target"]) == ("pay", BLACK_BOOK, "black_page_inside_01")
    for back in (sc.s.clone(), pickle.loads(pickle.dumps(sc.s)), from_json(sc.s.to_json())):
        assert back == sc.s and back.legal_actions() == sc.s.legal_actions()
        for _ in range(3):
            back.apply_action(M.encode("PAY_HAND", M.A.CardCode(DARK_MATTER), (NAME,)))
        back.apply_action(M.encode("PAY_CONFIRM", modules=(NAME,)))
        assert back.stack[-1]["kind"] == "op" and dm_state(back).used_turn == back.turn
    sc.do(DM, DM, DM, "PAY_CONFIRM")
    back = from_json(sc.s.to_json())
    assert back == sc.s and [f["kind"] for f in back.stack[-3:]] == ["dm_book_page", "seq", "op"]
    back.apply_action(M.encode("PICK_ELEMENT", M.A.ElementArg(0), (NAME,)))
    assert dm_state(back).spread == 1


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("pay", "target", "black_page_inside_05"),  # a page that is not in this book
        ("dm_black_book", "page", "black_page_cover_2"),
        ("dm_black_book", "side", 0),  # the Back page has no Black Spell on its back (V-01)
    ],
)
def test_a_tampered_black_book_frame_is_refused(dm: None, kind: str, key: str, value: object) -> None:
    """A save whose pending Black Book frame names no Black Spell of the book is refused, with
    the frame's path."""
    from bbom_env.engine import SaveError

    sc = game(dm=6, spread=3)
    sc.do(RIGHT)  # the Back page's front: its payment pending
    data = json.loads(sc.s.to_json())
    i = next(i for i, f in enumerate(data["stack"]) if f["kind"] == kind)
    data["stack"][i][key] = value
    key = "page" if key == "side" else key
    with pytest.raises(SaveError, match=rf"stack\[{i}\]\.{key}: .* is no Black Spell page of the book"):
        from_json(json.dumps(data))


def test_a_save_with_a_dark_matter_card_picked_loads(dm: None) -> None:
    """A pay frame that has picked a Dark Matter card saves and loads (the game's card codes)."""
    sc = game(dm=4)
    sc.do(RIGHT, DM)
    assert from_json(sc.s.to_json()) == sc.s


def test_random_playouts_use_the_book_and_keep_the_invariants(dm: None) -> None:
    """Random play with some Dark Matter in hand (2 to 4 players, both payment modes) keeps the
    module's invariants (Dark Matter conserved, the book valid) after every move, and casts Black
    Spells (section 4.8)."""
    cast = turned = 0
    # Seed 4 too: Spontaneous Elements (section 4.9) now spend Dark Matter in random play as well.
    for seed, players, payment in ((0, 2, "auto"), (1, 3, "manual"), (2, 4, "auto"), (4, 3, "auto")):
        state = new_game(GameConfig(seed=seed, num_players=players, modules=(NAME,), payment=payment))
        st = dm_state(state)
        for pl in state.players:  # as if acquired: 3 Dark Matter cards each
            st.supply -= 3
            pl.hand[DARK_MATTER] += 3
        state.legal_cache = None
        rng = random.Random(seed)
        for _ in range(500):
            if state.over:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            check_invariants(state)
        cast += state.stats.get(STAT, 0)
        turned += st.spread + st.closed
    assert cast >= 3 and turned >= 1  # both pages cast, a right page turned


def test_the_decisions_say_what_is_paid_for_and_the_v03_choice(dm: None) -> None:
    """The payment's Action is one of the ruleset's ``pay_actions`` (the
    observation's "payment for" one-hot); the V-03 choice is a decision kind of the module's
    (``gain_to_deck``), after the base game's kinds. (The observation itself of a game with the
    module waits for the module's observation sections: the Grimoire section does not know the
    Dark Matter Curse symbol yet.)"""
    sc = game(dm=3)
    rules = ruleset((NAME,))
    sc.do(RIGHT)
    assert sc.s.stack[-1]["action"] in rules.pay_actions
    sc.do(DM, DM, DM, "PAY_CONFIRM")
    assert rules.decision_kinds[: len(ruleset(()).decision_kinds)] == ruleset(()).decision_kinds
    assert sc.pending().kind == GAIN_TO_DECK and GAIN_TO_DECK in rules.decision_kinds
    assert sc.describe().startswith("gain_to_deck by player 0 (source: Black Book Inside Page I")
