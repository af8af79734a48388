"""The observation encoder (bbom_env.rl.observation): layout, bounds, relative seats, and no hidden
information (A-66)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.cards.pack import NAMED_PACKS
from bbom_env.engine.model.constants import (
    MADNESS,
    MAX_PLAYERS,
    MAX_SPELLS,
    MAX_SUPPORT_SLOTS,
    NUM_ELEMENT_CODES,
)
from bbom_env.engine.model.records import SupportSlot
from bbom_env.rl import docs
from bbom_env.rl.obs_decision import History
from bbom_env.rl.observation import ObservationEncoder

SEAT_PARTS = ("status", "magician", "sizes", "discard", "support", "spells", "temp_mods")


def random_states(
    players: int, payment: str, seed: int, every: int = 1, modules: tuple[str, ...] = ()
) -> list[GameState]:
    """Decision states of one random legal game (every ``every``-th, and the terminal state)."""
    config = GameConfig(pack="test", num_players=players, payment=payment, seed=seed, modules=modules)
    state = new_game(config)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


@pytest.fixture(scope="module")
def enc() -> ObservationEncoder:
    return ObservationEncoder(GameConfig(pack="test"))


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    out = []
    for players in (2, 3, 4, 5):
        for payment in ("auto", "manual"):
            out += random_states(players, payment, seed=11 * players + len(payment), every=3)
    return out


# -- layout ---------------------------------------------------------------------------------------


def test_sections_tile_the_vector(enc: ObservationEncoder) -> None:
    nxt = 0
    for name, start, length in enc.sections:
        assert start == nxt and length > 0, name
        assert enc.meanings[name]
        nxt = start + length
    assert nxt == enc.size == sum(length for _, _, length in enc.sections)
    assert len({name for name, _, _ in enc.sections}) == len(enc.sections)
    assert enc.high.shape == (enc.size,) and enc.high.dtype == np.float32 and (enc.high == 1).all()


def test_size_depends_on_the_pack_only() -> None:
    encs = [ObservationEncoder(GameConfig(pack="test", num_players=n, difficulty=3)) for n in (2, 3, 4, 5)]
    assert len({e.size for e in encs}) == 1
    assert all(e.sections == encs[0].sections for e in encs)
    bigger = ObservationEncoder(GameConfig(pack="test"), observe_other_hands=True)
    assert bigger.size == encs[0].size + MAX_PLAYERS * 13


def test_views_are_named_slices(enc: ObservationEncoder) -> None:
    vec = enc.encode(new_game(GameConfig(pack="test", seed=2)), 0)
    views = enc.views(vec)
    assert list(views) == [name for name, _, _ in enc.sections]
    views["own.hand"][:] = 0.5  # a view, not a copy
    assert (vec[: enc.views(vec)["own.hand"].size] == 0.5).all()


# -- values ---------------------------------------------------------------------------------------


def test_dtype_shape_and_bounds_on_random_states(enc: ObservationEncoder, states: list[GameState]) -> None:
    assert len(states) > 500
    for state in states:
        for seat in range(len(state.players)):
            vec = enc.encode(state, seat)
            assert vec.dtype == np.float32 and vec.shape == (enc.size,)
            assert np.isfinite(vec).all() and vec.min() >= 0.0 and vec.max() <= 1.0


def test_one_hots_are_one_hot(enc: ObservationEncoder, states: list[GameState]) -> None:
    for state in states[::7]:
        v = enc.views(enc.encode(state, 0))
        for name in ("board.invocation_marker", "board.round", "board.difficulty", "board.phase"):
            assert v[name].sum() == 1, name
        assert v["decision.kind"].sum() == 1
        assert v["decision.decider"].sum() == (0 if state.is_terminal() else 1)
        n = len(state.players)
        for k in range(MAX_PLAYERS):
            status = v[f"seat{k}.status"]
            assert status[0] == (k < n) and status[1] == (k >= n)
            assert v[f"seat{k}.magician"].sum() == (k < n)


def test_out_argument_is_filled_and_returned(enc: ObservationEncoder, states: list[GameState]) -> None:
    buf = np.full(enc.size, 7.0, dtype=np.float32)
    got = enc.encode(states[5], 1, out=buf)
    assert got is buf and np.array_equal(buf, enc.encode(states[5], 1))


def test_seats_are_relative_to_the_observer(enc: ObservationEncoder, states: list[GameState]) -> None:
    """Seat offset k of observer s shows the same player as offset k-1 of observer s+1."""
    for state in states[::5]:
        n = len(state.players)
        views = [enc.views(enc.encode(state, s)) for s in range(n)]
        for s in range(n):
            for k in range(1, n):
                for part in SEAT_PARTS:
                    a = views[s][f"seat{k}.{part}"]
                    b = views[(s + 1) % n][f"seat{k - 1}.{part}"]
                    assert np.array_equal(a, b), (s, k, part)
            # the observer's own zones come from its own seat
            assert views[s]["own.hand"].sum() * 8 == pytest.approx(
                sum(min(c, 8) for c in state.players[s].hand[:13]), rel=1e-5
            )
        if state.current_player() >= 0:
            d = state.current_player()
            assert all(views[s]["decision.decider"][(d - s) % n] == 1 for s in range(n))


def test_last_actions_name_block_and_mover(enc: ObservationEncoder, states: list[GameState]) -> None:
    lay = enc.layout
    nb = len(lay.block_names)
    hist = enc.groups["history"]
    assert isinstance(hist, History)
    rec = hist.record
    checked = 0
    for state in states[::4]:
        if len(state.history) < hist.history:
            continue
        n = len(state.players)
        seat = state.history[-1] % n  # any seat works; vary it
        h = enc.views(enc.encode(state, seat))["history"]
        for j in range(hist.history):
            r = h[j * rec : (j + 1) * rec]
            a = state.history[-1 - j]
            assert r[0] == 1 and r[1 + lay.block_of[a]] == 1 and r[1 : 1 + nb].sum() == 1
            assert r[2 + nb + (state.movers[-1 - j] - seat) % n] == 1 and r[2 + nb :].sum() == 1
        checked += 1
    assert checked > 50


# -- hidden information (A-66) --------------------------------------------------------------------


def perturb_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy that differs from ``state`` only in what ``seat`` cannot see; every count is kept."""
    s = state.clone()
    n = len(s.players)
    for q in range(n):
        pl = s.players[q]
        if q != seat:
            # Swap random cards between this player's hand and deck (both sizes are kept).
            for _ in range(3):
                hand_cards = [c for c, k in enumerate(pl.hand) for _ in range(k)]
                if not hand_cards or not pl.deck:
                    break
                c = rng.choice(hand_cards)
                i = rng.randrange(len(pl.deck))
                pl.hand[c] -= 1
                pl.hand[pl.deck[i]] += 1
                pl.deck[i] = c
        rng.shuffle(pl.deck)  # any deck order, the observer's included
    # Face-down Grimoire pages: those after the right-hand page of the open spread.
    hidden_from = s.round + 1 if s.round > 0 else 0
    tail = s.grimoire[hidden_from:-1]
    unused = sorted(
        p.id for p in s.pack.pages.values() if p.kind == "inside" and p.id not in s.grimoire[:hidden_from]
    )
    if tail:
        s.grimoire[hidden_from:-1] = rng.sample(unused, len(tail))
    # Library piles below the top card: any Spell of the same Element and level.
    for e, pile in enumerate(s.library):
        for i in range(len(pile) - 1):
            level = s.pack.spells[pile[i]].level
            pile[i] = rng.choice(sorted(sp.id for sp in s.pack.library(e, level)))
    for pile in s.curse_piles.values():
        rng.shuffle(pile)
    s.rng = random.Random(rng.random())
    return s


def test_hidden_zones_do_not_change_the_observation(states: list[GameState]) -> None:
    rng = random.Random(5)
    enc = ObservationEncoder(GameConfig(pack="test"))
    changed = 0
    for state in states[::3]:
        for seat in range(len(state.players)):
            other = perturb_hidden(state, seat, rng)
            changed += (
                other.players[(seat + 1) % len(state.players)].hand
                != state.players[(seat + 1) % len(state.players)].hand
                or other.grimoire != state.grimoire
            )
            assert np.array_equal(enc.encode(state, seat), enc.encode(other, seat)), (seat, str(state))
    assert changed > 100  # the perturbation really changed hidden zones


def test_observe_other_hands_shows_them(states: list[GameState]) -> None:
    enc = ObservationEncoder(GameConfig(pack="test"), observe_other_hands=True)
    rng = random.Random(9)
    differs = 0
    for state in states[::9]:
        other = perturb_hidden(state, 0, rng)
        a, b = enc.encode(state, 0), enc.encode(other, 0)
        if other.players[1].hand != state.players[1].hand:
            differs += 1
            assert not np.array_equal(enc.views(a)["seat1.hand"], enc.views(b)["seat1.hand"])
        assert np.array_equal(enc.views(a)["seat0.hand"], enc.views(a)["own.hand"])
    assert differs > 10


def _changes(enc: ObservationEncoder, state: GameState, seat: int, edit) -> set[str]:
    """Names of the sections that differ after ``edit(clone)``."""
    s = state.clone()
    edit(s)
    a, b = enc.views(enc.encode(state, seat)), enc.views(enc.encode(s, seat))
    return {name for name in a if not np.array_equal(a[name], b[name])}


# Edits of visible state (each changes exactly the sections listed in the test).


def _own_hand(s: GameState) -> None:
    s.players[0].hand[0] += 1


def _own_deck_content(s: GameState) -> None:
    s.players[0].deck.append(MADNESS)


def _other_discard(s: GameState) -> None:
    s.players[1].discard[3] += 1


def _other_support(s: GameState) -> None:
    s.players[2].support.append(SupportSlot(MADNESS))


def _exhaust(s: GameState) -> None:
    sp = s.players[1].spells[0]
    s.players[1].spells[0] = sp._replace(exhausted=not sp.exhausted)


def _marker(s: GameState) -> None:
    s.marker = (s.marker + 1) % 6


def _library_top(s: GameState) -> None:
    s.library[0].pop()


def _supply(s: GameState) -> None:
    s.supply[2][1] -= 1


def _madness_pile(s: GameState) -> None:
    s.madness_pile.pop()


def _other_hand_size(s: GameState) -> None:
    s.players[1].hand[NUM_ELEMENT_CODES - 1] += 1


def _curse_pile_size(s: GameState) -> None:
    s.curse_piles["fire"].pop()


def test_visible_changes_change_the_observation(enc: ObservationEncoder) -> None:
    state = random_states(3, "auto", seed=4)[40]
    assert state.round >= 1
    cases = {
        _own_hand: {"own.hand", "seat0.sizes"},
        _own_deck_content: {"own.deck", "seat0.sizes"},
        _other_discard: {"seat1.discard", "seat1.sizes"},
        _other_support: {"seat2.support", "seat2.sizes"},
        _exhaust: {"seat1.spells"},
        _marker: {"board.invocation_marker"},
        _library_top: {"library.tops", "library.sizes"},
        _supply: {"supply.piles"},
        _madness_pile: {"supply.madness_pile"},
        _other_hand_size: {"seat1.sizes"},
        _curse_pile_size: {"curse_piles.sizes"},
    }
    for edit, expected in cases.items():
        assert _changes(enc, state, 0, edit) == expected, edit.__name__
    # the same edit seen from the next seat lands in the section of offset n-1
    assert _changes(enc, state, 1, _other_discard) == {"seat0.discard", "seat0.sizes"}


# -- docs ------------------------------------------------------------------------------------------


def test_checked_in_docs_are_up_to_date() -> None:
    for path, text in docs.generate().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run `python -m bbom_env.rl.docs` to regenerate it"
        )


def test_sizes_match_the_engine_hooks(enc: ObservationEncoder, states: list[GameState]) -> None:
    """The encoder's fast path for support capacity and Spell limit agrees with engine hooks."""
    from bbom_env.engine.modifiers.hooks import spell_limit, support_capacity

    with_mods = 0
    for state in states[::5]:
        n = len(state.players)
        v = enc.views(enc.encode(state, 0))
        with_mods += any(pl.mods for pl in state.players)
        for k in range(n):
            sizes = v[f"seat{k}.sizes"]
            assert sizes[4] == pytest.approx(min(1.0, support_capacity(state, k) / MAX_SUPPORT_SLOTS))
            assert sizes[5] == pytest.approx(min(1.0, spell_limit(state, k) / MAX_SPELLS))
    assert with_mods > 10  # temporary modifiers (the encoder's slow-path sums) were covered
    lost = states[30].clone()
    for pl in lost.players:
        pl.ability_lost = True
    v = enc.views(enc.encode(lost, 0))
    assert v["seat0.status"][5] == 1
    assert v["seat0.sizes"][4] == pytest.approx(support_capacity(lost, 0) / MAX_SUPPORT_SLOTS)


def test_other_players_hand_picks_hide_their_argument(enc: ObservationEncoder) -> None:
    """PICK_HAND by another seat shows its block and mover but not which card (A-66)."""
    from bbom_env.engine.core import moves as M

    nb = len(enc.layout.block_names)
    found = 0
    for players in (2, 3):
        for state in random_states(players, "auto", seed=21 + players):
            if state.history and M.PICK_HAND < state.history[-1] < M.PICK_HAND + 30:
                mover = state.movers[-1]
                other = (mover + 1) % players
                own = enc.views(enc.encode(state, mover))["history"]
                theirs = enc.views(enc.encode(state, other))["history"]
                assert own[1 + nb] > 0 and theirs[1 + nb] == 0  # argument
                assert own[1 + enc.layout.block_names.index("PICK_HAND")] == 1
                assert theirs[1 + enc.layout.block_names.index("PICK_HAND")] == 1
                found += 1
    assert found > 5


@pytest.mark.skipif(not NAMED_PACKS["default"].exists(), reason="base pack not written yet")
def test_hidden_zones_default_pack() -> None:
    """Same as above on the real pack, whose Library offers several Spells per Element and level."""
    enc = ObservationEncoder(GameConfig())
    rng = random.Random(6)
    for players in (2, 4):
        game = GameConfig(num_players=players, seed=players)
        state = new_game(game)
        play = random.Random(players)
        while not state.is_terminal():
            if len(state.history) % 4 == 0:
                seat = play.randrange(players)
                other = perturb_hidden(state, seat, rng)
                assert np.array_equal(enc.encode(state, seat), enc.encode(other, seat))
                vec = enc.encode(state, seat)
                assert vec.min() >= 0 and vec.max() <= 1
            state.apply_action(play.choice(state.legal_actions()))


def test_json_round_trip_keeps_the_observation(enc: ObservationEncoder, states: list[GameState]) -> None:
    from bbom_env.engine import from_json

    for state in states[::40]:
        text = state.to_json()
        for seat in range(len(state.players)):
            assert np.array_equal(enc.encode(from_json(text), seat), enc.encode(state, seat))
