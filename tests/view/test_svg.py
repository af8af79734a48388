"""The board picture (bbom_env.view.svg): what a seat's view hides (A-66, the observation's rule),
what every view shows, the modules' parts, and that it is the same for the same state anywhere."""

from __future__ import annotations

import hashlib
import pickle
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rl.test_observation import perturb_hidden

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.view import board_parts, board_size, board_svg
from bbom_env.view.svg_table import counts_text

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def find(svg: str, tag: str, **attrs: str) -> list[ET.Element]:
    """Elements of ``svg`` with that tag whose attributes include ``attrs`` (data_x: data-x)."""
    want = {k.replace("_", "-"): v for k, v in attrs.items()}
    root = ET.fromstring(svg)
    return [e for e in root.iter(SVG + tag) if all(e.get(k) == v for k, v in want.items())]


def hand_text(svg: str, seat: int) -> str:
    (el,) = [e for e in ET.fromstring(svg).iter(SVG + "text") if e.get("id") == f"hand-{seat}"]
    return el.text or ""


# -- hidden information -------------------------------------------------------------------


@pytest.mark.parametrize("game", ["base_game", "module_game"])
def test_a_seat_view_does_not_change_with_what_the_seat_cannot_see(game: str, request) -> None:
    """Perturb every zone the seat cannot see (other hands, deck orders, face-down Grimoire pages,
    Library below the tops, Curse pile order: tests/rl/test_observation.py's perturbation): the
    seat's picture is byte for byte the same, the spectator's is not (it shows the hands)."""
    states: list[GameState] = request.getfixturevalue(game)
    rng = random.Random(7)
    changed = spectator_saw = 0
    for state in states[::4]:
        for seat in range(len(state.players)):
            other = perturb_hidden(state, seat, rng)
            other.legal_cache = None  # the decider's hand may have changed: its moves too
            hands_differ = any(
                other.players[q].hand != state.players[q].hand for q in range(len(state.players)) if q != seat
            )
            changed += hands_differ
            assert board_svg(other, seat) == board_svg(state, seat), (seat, str(state))
            spectator_saw += hands_differ and board_svg(other) != board_svg(state)
    assert (
        changed > 20 and spectator_saw == changed
    )  # the perturbation reached hands; the spectator sees them


def test_other_hands_show_as_a_size_and_the_own_hand_by_card(base_game: list[GameState]) -> None:
    state = next(s for s in base_game[40:] if sum(s.players[1].hand) >= 3)
    p0 = board_svg(state, 0)
    assert hand_text(p0, 1) == f"hand: {sum(state.players[1].hand)} cards (hidden from P0)"
    assert hand_text(p0, 0) == "hand: " + counts_text(state, state.players[0].hand)
    (seat1,) = find(p0, "g", id="seat-1")
    assert seat1.get("data-hand-size") == str(sum(state.players[1].hand))
    for view in (None, 1):
        assert hand_text(board_svg(state, view), 1) == "hand: " + counts_text(state, state.players[1].hand)
    assert hand_text(board_svg(state, 0, observe_other_hands=True), 1).startswith("hand: ")
    assert "hidden" not in hand_text(board_svg(state, 0, observe_other_hands=True), 1)


def test_legal_moves_are_the_deciders_and_the_spectators(base_game: list[GameState]) -> None:
    state = next(s for s in base_game if not s.over and len(s.legal_actions()) > 1)
    decider = state.current_player()
    other = 1 - decider
    for view in (decider, None):
        shown = [int(e.get("data-move")) for e in find(board_svg(state, view), "text") if e.get("data-move")]
        assert shown == state.legal_actions()[: len(shown)] and shown
    assert not [e for e in find(board_svg(state, other), "text") if e.get("data-move")]
    assert f"P{decider} decides; their legal moves" in board_svg(state, other)


def test_face_down_grimoire_pages_are_the_spectators_only(base_game: list[GameState]) -> None:
    state = next(s for s in base_game if s.round == 2)
    ahead = state.pack.marked_name(state.grimoire[3])  # the Monster on the back of page 3
    assert "face down ahead" in board_svg(state) and ahead in board_svg(state)
    for seat in (0, 1):
        assert "face down ahead" not in board_svg(state, seat)


# -- what every view shows -------------------------------------------------------------------


def test_the_picture_shows_the_state(base_game: list[GameState]) -> None:
    state = next(s for s in base_game if s.curses_on_track() >= 3 and s.marker > 0)
    svg = board_svg(state, 0)
    w, h = board_size(2)
    root = ET.fromstring(svg)  # well-formed XML
    assert (root.get("width"), root.get("height")) == (str(w), str(h)) == ("1280", "704")
    (marker,) = find(svg, "g", id="marker")
    assert marker.get("data-space") == str(state.marker)
    on_track = {
        (s, len(stack) - 1 - i): c.curse for s, stack in enumerate(state.track) for i, c in enumerate(stack)
    }
    drawn = {
        (int(e.get("data-slot")), int(e.get("data-pos"))): e.get("data-curse")
        for e in find(svg, "g", **{"class": "curse"})
    }
    assert drawn == on_track
    for e in find(svg, "g", **{"class": "curse"}):
        assert e.get("data-name") == state.pack.marked_name(e.get("data-curse"))
    for seat, pl in enumerate(state.players):
        (row,) = find(svg, "g", id=f"seat-{seat}")
        assert row.get("data-deck-size") == str(len(pl.deck)) and row.get("data-discard-size") == str(
            sum(pl.discard)
        )
        spells = find(svg, "g", **{"class": "spell", "data-seat": str(seat)})
        assert [e.get("data-name") for e in spells] == [state.pack.marked_name(s.spell) for s in pl.spells]
        status = [
            "neutralized" if s.neutralized else "exhausted" if s.exhausted else "ready" for s in pl.spells
        ]
        assert [e.get("data-status") for e in spells] == status
    (decision,) = find(svg, "g", id="decision")
    assert decision.get("data-decider") == str(state.current_player())
    assert f"Turn {state.turn}  \u00b7  Round {state.round}/6" in svg


def test_names_carry_their_provenance_marks(base_game: list[GameState]) -> None:
    svg = board_svg(base_game[60])
    magician = base_game[60].players[0].magician
    marked = base_game[60].pack.marked_name(magician)
    assert (
        marked[-1] in "*~" and f'data-name="{marked}"' in svg
    )  # the default pack's Magicians are not printed


def test_game_over_is_drawn(base_game: list[GameState]) -> None:
    last = base_game[-1]
    svg = board_svg(last)
    assert f"GAME OVER: {last.outcome.upper()}" in svg and find(svg, "g", id="title", data_over="1")
    assert f"Game over: {last.outcome} ({last.reason})" in svg


def test_a_bad_view_is_refused() -> None:
    state = new_game(GameConfig(pack="test", seed=0))
    for bad in (2, -1, "0", 1.0, True):
        with pytest.raises(ValueError, match="view="):
            board_svg(state, bad)  # type: ignore[arg-type]


# -- the Vth Element's modules ------------------------------------------------------------------


def test_modules_parts(module_game: list[GameState]) -> None:
    from bbom_env.modules.dark_matter.state import dm_state

    state = module_game[len(module_game) // 2]
    svg = board_svg(state, 0)
    st = dm_state(state)
    assert f"Dark Matter supply {st.supply}" in svg
    assert "Black Book" in svg and "Madness pile top:" in svg
    phobia_drawn = [s for s in module_game if any(slot.card >= 14 for p in s.players for slot in p.support)]
    assert phobia_drawn, "no Phobia reached a support in this game"
    s = phobia_drawn[0]
    names = {s.pack.marked_name(pid) for pid in s.pack.sections["phobia"]}
    assert any(name in board_svg(s, 1) for name in names)  # a Phobia by its card's name


def test_a_dark_curse_stack_is_drawn_top_first(module_game: list[GameState]) -> None:
    state = module_game[30].clone()
    dark = sorted(c for c in state.pack.curses if state.pack.curses[c].type == "dark_matter")[0]
    below = state.track[0][-1] if state.track[0] else CurseOnTrack(sorted(state.pack.curses)[0])
    state.track[0] = [below, CurseOnTrack(dark, tokens=(1, 0, 0, 2))]
    svg = board_svg(state, 0)
    cards = find(svg, "g", **{"class": "curse", "data-slot": "0"})
    assert [(e.get("data-pos"), e.get("data-curse")) for e in cards] == [("0", dark), ("1", below.curse)]
    assert cards[0].get("data-tokens") == "1,0,0,2" and "tokens F1 W0 E0 A2" in svg


# -- one picture per state ----------------------------------------------------------------------


def test_the_picture_is_deterministic(module_game: list[GameState]) -> None:
    state = module_game[50]
    svg = board_svg(state, 1)
    assert board_svg(state.clone(), 1) == svg
    assert board_svg(pickle.loads(pickle.dumps(state)), 1) == svg
    code = (
        "import hashlib, sys; from bbom_env.engine import from_json; from bbom_env.view import board_svg; "
        "print(hashlib.sha256(board_svg(from_json(sys.stdin.read()), 1).encode()).hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=state.to_json(),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout.strip() == hashlib.sha256(svg.encode()).hexdigest()


def test_parts_join_to_the_picture(base_game: list[GameState]) -> None:
    state = base_game[10]
    parts = board_parts(state, 0)
    assert (
        "".join(parts) == board_svg(state, 0) and len(parts) == 1 + 3 + 2 + 1 + 1
    )  # opening, table, seats, decision, closing


def test_module_moves_are_named_in_the_picture_and_the_text_render() -> None:
    """A module's move ids follow the base game's: the picture's move list and the text render after
    such a move name it (the text render raised 'outside the layout' for them before)."""
    from bbom_env.engine import move_to_string, num_moves
    from bbom_env.rl.gym_env import BBoMGymEnv

    env = BBoMGymEnv(render_mode="ansi", modules=("dark_matter",))
    env.reset(seed=0)
    while (
        not [m for m in env.state.legal_actions() if m >= num_moves()] or len(env.state.legal_actions()) > 24
    ):
        env.step(env.state.legal_actions()[0])
    move = next(m for m in env.state.legal_actions() if m >= num_moves())
    name = move_to_string(move, ("dark_matter",))
    assert f"#{move} {name}" in board_svg(env.state)
    seat = env.state.current_player()
    env.step(move)
    assert env.render().splitlines()[0] == f"P{seat} played {name}"
    assert f"P{seat} {name}" in board_svg(env.state)  # the last move
