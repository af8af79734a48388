"""``python -m bbom_env.play``: a person plays through stdin/stdout, agents fill the other seats,
``--watch`` shows agents play; bad input and bad arguments never end in a traceback."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from bbom_env.engine import GameConfig, move_to_string, new_game
from bbom_env.play import main
from bbom_env.play_session import Seat, parse_choice, run_session

ROOT = Path(__file__).resolve().parent.parent
OUTCOME = re.compile(r"^=== Outcome: (WIN|LOSS) - .+ ===$", re.M)


def _cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bbom_env.play", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _feeder(lines: Iterable[str], out: io.StringIO, then: BaseException | None = None):
    """An ``input`` stand-in: echoes the prompt and the line, like a terminal; after the lines,
    raises ``then`` (EOFError by default)."""
    it = iter(lines)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(it)
        except StopIteration:
            raise then or EOFError from None
        out.write(line + "\n")
        return line

    return read


def _run(argv: list[str], lines: Iterable[str] = (), then: BaseException | None = None) -> tuple[int, str]:
    out = io.StringIO()
    rc = main(argv, input_fn=_feeder(lines, out, then), out=out)
    return rc, out.getvalue()


def _first_menu(text: str) -> list[str]:
    """Move names of the first numbered list in ``text``."""
    block = text.split(" to decide: ", 1)[1]
    return re.findall(r"^\s+\d+  (\S+)", block.split("\nType ", 1)[0], re.M)


# -- a person at the terminal --------------------------------------------------------------------


def test_scripted_human_session_through_a_subprocess() -> None:
    """Junk gets a message and a new prompt; a valid pick is applied and logged; quit exits 0."""
    junk = ["", "abc", "99", "-1", "#9999", "#x", "card", "card Combustion", "help", "board"]
    res = _cli("--seats", "human,heuristic", "--seed", "1", stdin="\n".join([*junk, "1", "quit"]) + "\n")
    out = res.stdout
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and res.stderr == ""
    assert "== P0 (you) to decide: " in out
    menu = _first_menu(out)
    assert len(menu) >= 2, out
    assert "   0  " in out and "   1  " in out  # the legal moves by number and name
    for message in (
        "empty answer",
        "'abc' is not a move or a command",
        "no move numbered 99",
        "no move numbered -1",
        "move id 9999 is outside the action space",
        "'#x' is not a move id",
        "card NAME:",
        "Combustion~  [spell_combustion]",  # ~: a partial card (only partly the real one)
        "Commands: moves",
    ):
        assert message in out, message
    assert f"P0 (you): {menu[1]}" in out  # the move chosen, by name and by whom
    assert "=== Outcome: none - game stopped" in out and "quit before the end" in out
    assert "Monsters defeated: 0" in out and "Curses destroyed:" in out


def test_a_person_plays_a_whole_game_to_the_outcome() -> None:
    """Answering 0 everywhere (END first in every Action menu) finishes a game; the board names
    cards and the seats; agents' moves are logged with who made them."""
    rc, out = _run(["--seats", "human,random", "--seed", "3"], lines=["0"] * 5000)
    assert rc == 0
    assert OUTCOME.search(out), out[-2000:]
    assert re.search(r"^Monsters defeated: \d+$", out, re.M) and re.search(
        r"^Curses destroyed: \d+$", out, re.M
    )
    assert "seats: P0 you, P1 random" in out
    assert "Combustion" in out and "monster: " in out
    assert re.search(r"^P1 \(random\) \[[a-z_]+.*\]: [A-Z_]+", out, re.M)
    assert re.search(r"^P0 \(you\): [A-Z_]+", out, re.M)
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("answer", "check"),
    [
        ("end", lambda legal, m: m == 0),
        ("EnD", lambda legal, m: m == 0),
        ("#0", lambda legal, m: m == 0),
        ("0", lambda legal, m: m == legal[0]),
    ],
)
def test_answers_by_index_id_and_name(answer: str, check) -> None:
    state = new_game(GameConfig(num_players=2, seed=1))
    while 0 not in state.legal_actions():  # reach an Action menu (END is move 0)
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    kind, value = parse_choice(state, answer, legal)
    assert kind == "move" and check(legal, value)
    # Every legal move is reachable by its full name, in any case, and by its number.
    for i, m in enumerate(legal):
        assert parse_choice(state, move_to_string(m).lower(), legal) == ("move", m)
        assert parse_choice(state, str(i), legal) == ("move", m)


def test_bad_answers_are_messages_not_errors() -> None:
    state = new_game(GameConfig(num_players=2, seed=1))
    legal = state.legal_actions()
    for junk in ("", "   ", "zzz", "42", "#", "#abc", "#99999", "²", "PAY_CONFIRM", "ACTIVATE(spell#9 X=9)"):
        kind, message = parse_choice(state, junk, legal)
        assert kind == "error" and isinstance(message, str) and message, junk
    illegal = next(m for m in range(321) if m not in legal)
    kind, message = parse_choice(state, f"#{illegal}", legal)
    assert kind == "error" and "not legal now" in message
    assert parse_choice(state, "QUIT", legal) == ("command", ("quit", ""))
    assert parse_choice(state, "card Ashes", legal) == ("command", ("card", "Ashes"))


def test_end_of_input_and_ctrl_c_leave_cleanly() -> None:
    rc, out = _run(["--seed", "1"], lines=["nonsense"])
    assert rc == 0 and "end of input: leaving the game" in out and "=== Outcome: none" in out
    rc, out = _run(["--seed", "1"], lines=[], then=KeyboardInterrupt())
    assert rc == 130 and "interrupted: leaving the game" in out


def test_hot_seat_and_payment_manual() -> None:
    """Two people share the table; manual payment shows what is left to pay."""
    rc, out = _run(["--human", "0", "--human", "1", "--payment", "manual", "--seed", "2"], ["0"] * 5000)
    assert rc == 0 and OUTCOME.search(out)
    assert "seats: P0 human, P1 human" in out and "P1 (human): " in out


# -- watching agents -----------------------------------------------------------------------------


def test_watch_plays_a_full_game_and_is_reproducible() -> None:
    args = ("--watch", "--seats", "heuristic,heuristic", "--seed", "5")
    a, b = _cli(*args), _cli(*args)
    assert a.returncode == 0 and a.stderr == "", a.stderr
    assert a.stdout == b.stdout
    out = a.stdout
    assert OUTCOME.search(out), out[-2000:]
    assert re.search(r"^P[01] \(heuristic\) \[action\]: ", out, re.M)
    assert re.search(r"^--- turn 2: P\d is the Active Player ---$", out, re.M)
    assert re.search(r"^Monsters defeated: \d+$", out, re.M)


def test_watch_delay_step_and_max_steps() -> None:
    state = new_game(GameConfig(num_players=3, seed=4))
    from agents import make_agent

    seats = [Seat("random", make_agent("random", 4), "random") for _ in range(3)]
    out, pauses = io.StringIO(), []
    result = run_session(
        state,
        seats,
        _feeder(["", "", "q"], out),
        out,
        delay=0.25,
        step=True,
        sleep=pauses.append,
    )
    assert result.status == "quit" and result.steps == 3 and pauses == [0.25] * 3
    rc, text = _run(["--watch", "--agents", "random", "--players", "4", "--max-steps", "10"])
    assert rc == 0 and "game stopped at turn" in text and "the step limit was reached" in text
    assert "decisions: 10" in text


@pytest.mark.filterwarnings("ignore::UserWarning")  # sb3 may warn about the env checker / device
def test_a_trained_model_takes_a_seat(tmp_path: Path) -> None:
    """A model zip (untrained here: the point is the plumbing) plays a seat. A bit slower: torch."""
    gym = pytest.importorskip("gymnasium")
    sb3 = pytest.importorskip("sb3_contrib")
    import bbom_env  # noqa: F401  (registers the env)

    path = tmp_path / "model.zip"
    sb3.MaskablePPO("MlpPolicy", gym.make("BigBookOfMadness-v2"), seed=0).save(path)
    rc, out = _run(["--watch", "--seats", f"{path},heuristic", "--seed", "0"])
    assert rc == 0 and OUTCOME.search(out), out[-2000:]
    assert re.search(r"^P0 \(model\.zip\) \[", out, re.M)
    rc, out = _run(["--seats", f"human,{path}", "--seed", "0"], lines=["0"] * 5000)
    assert rc == 0 and OUTCOME.search(out)


# -- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "invalid choice"),
        (["--level", "4"], "invalid choice"),
        (["--mode", "hard"], "invalid choice"),
        (["--payment", "cash"], "invalid choice"),
        (["--seed", "-1"], "negative"),
        (["--delay", "soon"], "not a number"),
        (["--max-steps", "0"], "at least 1"),
        (["--seats", "human,heuristic", "--players", "3"], "--seats names 2 seats but --players is 3"),
        (["--seats", "human"], "the game takes 2 to 5"),
        (["--seats", "human,,random"], "empty entry"),
        (["--human", "2"], "seats are numbered 0 to 1"),
        (["--watch", "--human", "0"], "--watch has no human seat"),
        (["--watch", "--seats", "human,random"], "--watch has no human seat"),
        (["--agents", "genius"], "unknown agent 'genius'"),
        (["--seats", "human,nowhere/model.zip"], "no policy file"),
        (["--pack", "no_such_pack"], "not found"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exc:
        main(args, input_fn=_feeder([], io.StringIO()), out=io.StringIO())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_arguments_through_the_command_line() -> None:
    res = _cli("--seats", "human,heuristic,random", "--players", "2")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "--seats names 3 seats but --players is 2" in res.stderr


def test_importing_play_loads_no_agent_or_torch() -> None:
    code = "import sys, bbom_env.play; assert not {'agents', 'torch'} & set(sys.modules), sys.modules.keys()"
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
