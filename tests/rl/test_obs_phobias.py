"""The Phobia module's RL views (bbom_env/rl/obs_phobias.py): the Madness
pile's face-up top and what remains in it (section 1.3, 5.3), each seat's Phobias and crushed cards
(section 9.2, A-55, A-74), the ``phobia_crush`` decision (DP-34) through the envs, no hidden
information (A-66) with the module alone and with Dark Matter, Gymnasium's check_env and
PettingZoo's api_test, and the generated layout docs."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bbom_env
from bbom_env.engine import GameConfig, GameState, new_game, num_moves, pending
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import MADNESS, MAX_PLAYERS, MAX_SPELLS, MAX_SUPPORT_SLOTS
from bbom_env.engine.model.records import NO_CARD, SupportSlot
from bbom_env.engine.modifiers.hooks import support_capacity
from bbom_env.modules.phobias.placement import CRUSH, PLACE
from bbom_env.modules.phobias.state import NUM_PHOBIAS, PHOBIA_BASE
from bbom_env.rl.observation import ObservationEncoder
from bbom_env.rl.wrappers import IllegalActionPenalty
from tests.rl.test_aec_env import api_test, warnings_as_errors
from tests.rl.test_observation import perturb_hidden
from tests.rl.test_observation import random_states as base_random_states

PH = ("phobias",)
BOTH = ("dark_matter", "phobias")
PH_SECTIONS = {"phobias.pile_top", "phobias.pile", "phobias.placing"} | {
    f"phobias.seat{k}.{part}" for k in range(MAX_PLAYERS) for part in ("phobias", "crushed")
}


def config(modules: tuple[str, ...] = PH, **kw: object) -> GameConfig:
    return GameConfig(pack="test", modules=modules, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """Decision states of random games: the module alone at 2-5 players (both payment modes), and
    with Dark Matter at 2 and 4 players."""
    out = []
    for players in (2, 3, 4, 5):
        for payment in ("auto", "manual"):
            out += base_random_states(players, payment, 13 * players + len(payment), every=2, modules=PH)
    for players in (2, 4):
        out += base_random_states(players, "auto", 17 * players, every=2, modules=BOTH)
    return out


_ENCODERS: dict[tuple[str, ...], ObservationEncoder] = {}


def enc_of(state: GameState) -> ObservationEncoder:
    mods = tuple(state.config.modules)
    if mods not in _ENCODERS:
        _ENCODERS[mods] = ObservationEncoder(config(mods))
    return _ENCODERS[mods]


def crushed_game(players: int = 3, seed: int = 4) -> tuple[GameState, int, int]:
    """A game where seat 1 holds a Phobia (crushing its first support card) and another Phobia in a
    second slot; returns the state and the two Phobia codes."""
    s = new_game(config(num_players=players, seed=seed))
    pile = s.madness_pile
    p1, p2 = [c for c in pile if c >= PHOBIA_BASE][:2]
    pile.remove(p1)
    pile.remove(p2)
    pl = s.players[1]
    for slot in pl.support:  # an empty support: its cards to the discard pile
        pl.discard[slot.card] += 1
    fire1 = 0  # value-1 Fire card from the reserve
    s.reserve1[0] -= 1
    pl.support = [SupportSlot(p1, crushed=fire1), SupportSlot(p2)]
    return s, p1, p2


# -- layout ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("modules", [PH, BOTH])
def test_module_sections_come_last_with_one_size_for_every_player_count(modules: tuple[str, ...]) -> None:
    encs = [ObservationEncoder(config(modules, num_players=n)) for n in (2, 3, 4, 5)]
    assert len({e.size for e in encs}) == 1 and all(e.sections == encs[0].sections for e in encs)
    secs = encs[0].obs_layout.sections
    mods = [s.module for s in secs]
    first = mods.index("phobias")
    assert set(mods[first:]) == {"phobias"} and {s.name for s in secs[first:]} == PH_SECTIONS
    without = ObservationEncoder(config(tuple(m for m in modules if m != "phobias")))
    assert [s.name for s in secs[:first]][: len(without.sections)] == [n for n, _, _ in without.sections]
    assert not any(
        n.startswith("phobias.") for n, _, _ in ObservationEncoder(GameConfig(pack="test")).sections
    )


def test_base_sections_already_show_phobias_by_card_code() -> None:
    """Section 9.2: a Phobia is a card: the base count and one-hot sections gain its 16 codes with
    the module on (hands, decks, discard piles, support slots); ``decision.kind`` gains the
    ``phobia_crush`` decision."""
    base = {n: ln for n, _, ln in ObservationEncoder(GameConfig(pack="test")).sections}
    enc = ObservationEncoder(config())
    length = {n: ln for n, _, ln in enc.sections}
    for name in ("own.hand", "own.deck", "seat0.discard", "decision.picks"):
        assert length[name] == base[name] + NUM_PHOBIAS, name
    assert length["seat0.support"] == base["seat0.support"] + MAX_SUPPORT_SLOTS * NUM_PHOBIAS
    kinds = enc.obs_layout.ctx.rules.decision_kinds
    assert CRUSH in kinds and length["decision.kind"] == len(kinds) > base["decision.kind"]
    s, p1, _p2 = crushed_game()
    v = enc.views(enc.encode(s, 0))
    t = enc.obs_layout.ctx.type_index[p1]
    assert v["seat1.support"][t] == 1  # slot 0 of seat 1 holds p1


# -- values ---------------------------------------------------------------------------------------


def test_pile_top_and_contents() -> None:
    """Section 1.3, 5.3: the face-up top card one-hot (plain Madness first, then the Phobia codes);
    the pile's plain Madness count and one flag per Phobia still in it."""
    enc = ObservationEncoder(config())
    s = new_game(config(num_players=4, seed=2))
    pile = s.madness_pile
    v = enc.views(enc.encode(s, 0))
    top = v["phobias.pile_top"]
    assert top.sum() == 1 and top[0 if pile[-1] == MADNESS else pile[-1] - PHOBIA_BASE + 1] == 1
    contents = v["phobias.pile"]
    assert contents[0] == pytest.approx(pile.count(MADNESS) / 20)
    assert np.flatnonzero(contents[1:]).tolist() == sorted(c - PHOBIA_BASE for c in pile if c >= PHOBIA_BASE)
    # A plain Madness on top, then a Phobia: the one-hot follows.
    phobia = next(c for c in pile if c >= PHOBIA_BASE)
    pile.remove(MADNESS)
    pile.append(MADNESS)
    assert np.flatnonzero(enc.views(enc.encode(s, 0))["phobias.pile_top"]).tolist() == [0]
    pile.remove(phobia)
    pile.append(phobia)
    assert np.flatnonzero(enc.views(enc.encode(s, 2))["phobias.pile_top"]).tolist() == [
        phobia - PHOBIA_BASE + 1
    ]
    s.madness_pile = []
    w = enc.views(enc.encode(s, 0))
    assert not w["phobias.pile_top"].any() and not w["phobias.pile"].any()


def test_each_seat_shows_its_phobias_and_crushed_cards_relative_to_the_observer() -> None:
    """Section 9.2, A-55, A-74: the Phobias in a support (active on their owner) and the card
    crushed under each slot, in the seat block of the owner's offset from the observer."""
    enc = ObservationEncoder(config())
    s, p1, p2 = crushed_game(players=3)
    crush_codes = enc.groups["phobias"].crush_codes  # type: ignore[attr-defined]
    nc = len(crush_codes)
    for observer in range(3):
        v = enc.views(enc.check_sections(s, observer))
        k = (1 - observer) % 3  # seat 1's offset from the observer
        assert np.flatnonzero(v[f"phobias.seat{k}.phobias"]).tolist() == sorted(
            [p1 - PHOBIA_BASE, p2 - PHOBIA_BASE]
        )
        crushed = v[f"phobias.seat{k}.crushed"].reshape(MAX_SUPPORT_SLOTS, nc)
        assert np.flatnonzero(crushed[0]).tolist() == [crush_codes.index(0)] and not crushed[1:].any()
        for j in range(MAX_PLAYERS):
            if j >= 3:  # absent seats
                assert not v[f"phobias.seat{j}.phobias"].any() and not v[f"phobias.seat{j}.crushed"].any()
            elif j != k:
                own = {sl.card for sl in s.players[(observer + j) % 3].support if sl.card >= PHOBIA_BASE}
                assert v[f"phobias.seat{j}.phobias"].sum() == len(own)
                assert not v[f"phobias.seat{j}.crushed"].any()
    # Curing p1: the crushed card holds the slot again; nothing crushed, one Phobia left.
    s.players[1].support[0] = SupportSlot(0)
    s.madness_pile.insert(0, p1)
    v = enc.views(enc.encode(s, 1))
    assert np.flatnonzero(v["phobias.seat0.phobias"]).tolist() == [p2 - PHOBIA_BASE]
    assert not v["phobias.seat0.crushed"].any() and v["phobias.pile"][1 + p1 - PHOBIA_BASE] == 1


def test_random_games_match_the_state(states: list[GameState]) -> None:
    """Every section object writes only its own range; the Phobia flags and crushed cards equal the
    supports' and the pile's contents, seat by seat, in random games (both module sets)."""
    seen_phobias = 0
    for state in states:
        enc = enc_of(state)
        nc = len(enc.groups["phobias"].crush_codes)  # type: ignore[attr-defined]
        n = len(state.players)
        seat = state.current_player() if not state.is_terminal() else 0
        vec = enc.check_sections(state, seat)
        assert vec.min() >= 0 and vec.max() <= 1
        v = enc.views(vec)
        for k in range(MAX_PLAYERS):
            flags = v[f"phobias.seat{k}.phobias"]
            if k >= n:
                assert not flags.any() and not v[f"phobias.seat{k}.crushed"].any()
                continue
            support = state.players[(seat + k) % n].support
            assert np.flatnonzero(flags).tolist() == sorted(
                sl.card - PHOBIA_BASE for sl in support if sl.card >= PHOBIA_BASE
            )
            crushed = v[f"phobias.seat{k}.crushed"].reshape(MAX_SUPPORT_SLOTS, nc)
            assert [bool(crushed[i].any()) for i in range(len(support))] == [
                sl.crushed != NO_CARD for sl in support
            ]
            seen_phobias += int(flags.sum())
        in_pile = sorted(c - PHOBIA_BASE for c in state.madness_pile if c >= PHOBIA_BASE)
        assert np.flatnonzero(v["phobias.pile"][1:]).tolist() == in_pile
        placing = v["phobias.placing"]
        if pending(state).kind == CRUSH:
            assert np.flatnonzero(placing).tolist() == [state.stack[-1]["code"] - PHOBIA_BASE]
        else:
            assert not placing.any()
    assert seen_phobias > 50  # Phobias did reach supports in these games


def test_seat_status_and_sizes_match_the_engine_hooks(states: list[GameState]) -> None:
    """A seat's ability-lost flag, support capacity and Spell limit (``seatK.status``,
    ``seatK.sizes``) equal the engine hooks' for Phobia holders (section 9.2: a Phobia's constraint
    applies to its owner) and other seats, with and without temporary modifiers: the encoder asks
    the modifier sources first and sums the Magician's and the temporary modifiers itself for a
    seat they yield nothing for. A "No Ability" Phobia placed in a support (V-27) turns the flag on."""
    from bbom_env.engine.modifiers.hooks import ability_lost, spell_limit
    from bbom_env.modules.phobias.constraints import loses_ability

    def check(state: GameState, seat: int) -> Counter[tuple[bool, bool]]:
        v = enc_of(state).views(enc_of(state).encode(state, seat))
        n = len(state.players)
        cases: Counter[tuple[bool, bool]] = Counter()
        for k in range(n):
            p = (seat + k) % n
            pl = state.players[p]
            cases[(any(sl.card >= PHOBIA_BASE for sl in pl.support), bool(pl.mods))] += 1
            assert v[f"seat{k}.status"][5] == ability_lost(state, p)
            sizes = v[f"seat{k}.sizes"]
            assert sizes[4] == pytest.approx(min(1.0, support_capacity(state, p) / MAX_SUPPORT_SLOTS))
            assert sizes[5] == pytest.approx(min(1.0, spell_limit(state, p) / MAX_SPELLS))
        return cases

    cases: Counter[tuple[bool, bool]] = Counter()
    for state in states[::2]:
        cases += check(state, state.current_player() if not state.is_terminal() else 0)
    # Phobia holders and others, each with and without temporary modifiers, were covered.
    assert all(cases[(holder, mods)] > 0 for holder in (True, False) for mods in (True, False)), cases
    s = next(st for st in states if not st.is_terminal() and len(st.players[1].support) < 2).clone()
    no_ability = next(c for c in range(PHOBIA_BASE, PHOBIA_BASE + NUM_PHOBIAS) if loses_ability(s, c))
    s.players[1].support.append(SupportSlot(no_ability))
    assert ability_lost(s, 1)
    check(s, 0)
    assert enc_of(s).views(enc_of(s).encode(s, 0))["seat1.status"][5] == 1


# -- the phobia_crush decision through the envs (DP-34, A-55) -------------------------------------


def _phobia_on_deck_top(s: GameState, p: int) -> int:
    """Seat p's support full of non-Phobia cards, an empty hand, a Phobia on top of its deck: its
    Recuperation draws the Phobia, which must crush a card (section 9.2 step 2)."""
    pl = s.players[p]
    code = next(c for c in reversed(s.madness_pile) if c >= PHOBIA_BASE)
    s.madness_pile.remove(code)
    for c in range(len(pl.hand)):
        pl.discard[c] += pl.hand[c]
        pl.hand[c] = 0
    while len(pl.support) < support_capacity(s, p):
        s.reserve1[1] -= 1
        pl.support.append(SupportSlot(3))  # value-1 Water cards from the reserve
    pl.deck.append(code)
    s.legal_cache = None
    return code


@pytest.mark.parametrize("modules", [PH, BOTH])
def test_crush_decision_through_the_gym_env(modules: tuple[str, ...]) -> None:
    """The Active Player ends their turn (END) through the env: their Recuperation draws a Phobia
    into a full support; the env then asks them the ``phobia_crush`` decision, its mask is exactly
    the legal PICK_SUPPORT ids of their own support, the observation shows the Phobia being
    placed, and the chosen card ends up crushed under it."""
    env = gym.make(bbom_env.GYM_ID, pack="test", num_players=3, modules=modules)
    base = env.unwrapped
    _obs, info = env.reset(seed=6)
    while info["decision"] != "action":  # the Active Player's Action menu
        _obs, _r, _t, _tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    s = base.game
    p = s.current_player()
    code = _phobia_on_deck_top(s, p)
    cards = [sl.card for sl in s.players[p].support]
    obs, _r, _t, _tr, info = env.step(M.END)  # section 5.1: the Recuperation draws 6
    assert info["decision"] == CRUSH and info["player"] == p
    assert s.stack[-1]["kind"] == PLACE and s.stack[-1]["code"] == code
    legal = s.legal_actions()
    assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(legal)
    # the non-Phobia cards of their own support (seat offset 0).
    assert legal == [M.PICK_SUPPORT + M.support_arg(0, k) for k, c in enumerate(cards) if c < PHOBIA_BASE]
    v = base.encoder.views(obs)
    assert np.flatnonzero(v["phobias.placing"]).tolist() == [code - PHOBIA_BASE]
    kinds = base.encoder.obs_layout.ctx.rules.decision_kinds
    assert v["decision.kind"][list(kinds).index(CRUSH)] == 1 and v["decision.decider"][0] == 1
    names = [base.layout.action_to_string(a) for a in legal]
    assert all(n.startswith("PICK_SUPPORT") for n in names)
    obs, _r, _t, _tr, info = env.step(legal[-1])
    assert s.players[p].support[len(cards) - 1] == SupportSlot(code, crushed=cards[-1])
    assert info["decision"] != CRUSH and not base.encoder.views(obs)["phobias.placing"].any()


# -- hidden information (A-66) --------------------------------------------------------------------


def test_hidden_zones_do_not_change_the_observation(states: list[GameState]) -> None:
    """Other players' hands (Phobias drawn there included), every deck's order, the Grimoire's
    face-down pages, the Library below the tops, the Curse piles' order and the Madness pile's
    order below its top are hidden: perturbing them changes no seat's observation (module alone,
    and with Dark Matter)."""
    rng = random.Random(7)
    changed_hand = moved_phobia = 0
    for state in states[::2]:
        enc = enc_of(state)
        n = len(state.players)
        for seat in range(n):
            other = perturb_hidden(state, seat, rng)
            below = other.madness_pile[:-1]
            rng.shuffle(below)
            other.madness_pile[:-1] = below
            nxt = (seat + 1) % n
            changed_hand += other.players[nxt].hand != state.players[nxt].hand
            moved_phobia += other.players[nxt].hand[PHOBIA_BASE:] != state.players[nxt].hand[PHOBIA_BASE:]
            assert np.array_equal(enc.encode(state, seat), enc.encode(other, seat)), (seat, str(state))
    assert changed_hand > 100 and moved_phobia > 0  # the perturbation really changed hidden zones


def test_the_pile_top_is_public(states: list[GameState]) -> None:
    """Section 1.3: the top card is face up: swapping it with a card of another kind in the pile
    changes every seat's observation, in ``phobias.pile_top`` only among the module's sections."""
    checked = 0
    for state in states[::5]:
        pile = state.madness_pile
        swap = next(
            (i for i in range(len(pile) - 1) if (pile[i] >= PHOBIA_BASE) != (pile[-1] >= PHOBIA_BASE)), None
        )
        if swap is None:
            continue
        enc = enc_of(state)
        other = state.clone()
        op = other.madness_pile
        op[swap], op[-1] = op[-1], op[swap]
        for seat in range(len(state.players)):
            a, b = enc.views(enc.encode(state, seat)), enc.views(enc.encode(other, seat))
            diff = {k for k in a if k.startswith("phobias.") and not np.array_equal(a[k], b[k])}
            assert diff == {"phobias.pile_top"}
            checked += 1
    assert checked > 20


# -- Gymnasium and PettingZoo checkers ------------------------------------------------------------


@pytest.mark.parametrize("modules", [PH, BOTH])
def test_check_env_with_the_module(modules: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    base = gym.make(bbom_env.GYM_ID, pack="test", modules=modules, render_mode="ansi").unwrapped
    assert base.action_space.n == num_moves(modules)
    assert "phobias.pile_top" in base.encoder.meanings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version.*")
        check_env(IllegalActionPenalty(base))
    assert "phobias:" in capsys.readouterr().out  # the module's render line


@pytest.mark.parametrize(("players", "modules"), [(2, PH), (5, PH), (3, BOTH)])
def test_pettingzoo_api_test_with_the_module(players: int, modules: tuple[str, ...]) -> None:
    with warnings_as_errors():
        api_test(
            bbom_env.env(pack="test", num_players=players, modules=modules),
            num_cycles=400,
            verbose_progress=False,
        )


# -- generated docs -------------------------------------------------------------------------------


def test_layout_docs_of_the_phobia_module_sets_are_generated_and_checked_in() -> None:
    """docs/observation.phobias.md, docs/action_layout.phobias.md, docs/layout.phobias.json and the
    same for both modules (``dark_matter+phobias``) are generated beside the base game's."""
    import json

    from bbom_env.rl import docs

    for modules in (PH, BOTH):
        assert modules in docs.DOC_MODULE_SETS
        files = docs.generate((modules,))
        for path, text in files.items():
            assert path.read_text(encoding="utf-8") == text, (
                f"{path} is stale: run python -m bbom_env.rl.docs"
            )
        data = json.loads(files[docs.doc_path("layout", "json", modules)])
        mods = {s["name"]: s["module"] for s in data["observation"]["sections"]}
        assert {n for n, m in mods.items() if m == "phobias"} == PH_SECTIONS
