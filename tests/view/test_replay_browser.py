"""The replay page in a real browser: headless Chromium driven by Selenium (Debian's ``chromium`` and
``chromium-driver``; .ci/run installs them). Load the page from disk, step forward and back, jump,
play and pause, switch the view, and check what the page shows against the engine's state at that
step; no JavaScript error in the console. Skipped with the reason where no browser is found."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from bbom_env.engine import GameState
from bbom_env.play_text import event_lines
from bbom_env.view.game_file import record_of
from bbom_env.view.replay_html import write_replay
from bbom_env.view.svg_table import counts_text

BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
DRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401
except ImportError:  # the dev extra installs it
    SELENIUM = False
else:
    SELENIUM = True

pytestmark = pytest.mark.skipif(
    not (BROWSER and DRIVER and SELENIUM),
    reason=f"no headless browser: chromium {BROWSER}, chromedriver {DRIVER}, selenium {SELENIUM} "
    "(apt-get install chromium chromium-driver; pip install -e '.[dev]')",
)


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1800,1100",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield d
    d.quit()


# Read in one script, so that a frame drawn meanwhile (while playing) cannot leave a stale element.
SHOWN = """
const board = document.getElementById("board");
const seats = Array.from(board.querySelectorAll(".seat"));
return {
  step: Number(board.dataset.step),
  view: board.dataset.view,
  marker: Number(board.querySelector("#marker").dataset.space),
  curses: Array.from(board.querySelectorAll(".curse")).map(e => e.dataset.name).sort(),
  hand_sizes: seats.map(e => Number(e.dataset.handSize)),
  hands: seats.map((e, i) => document.getElementById("hand-" + i).textContent),
  move_seat: document.getElementById("move-text").dataset.seat,
  events: document.querySelectorAll("#events li").length,
};
"""


def shown(driver) -> dict:
    """What the page shows now: the step and view, the marker's space, the Curses on the track, the
    hand sizes and hand lines, the move line, the number of event lines."""
    return driver.execute_script(SHOWN)


def js_order(name: str) -> list[int]:
    """JavaScript's default sort: by UTF-16 code units."""
    return list(name.encode("utf-16-be"))


def expected(states: list[GameState], step: int) -> dict:
    s = states[step]
    return {
        "step": step,
        "marker": s.marker,
        "curses": sorted((s.pack.marked_name(c.curse) for stack in s.track for c in stack), key=js_order),
        "hand_sizes": [sum(p.hand) for p in s.players],
        "move_seat": str(states[-1].movers[step]) if step < len(states) - 1 else "",
    }


def check(driver, states: list[GameState], step: int) -> dict:
    now = shown(driver)
    assert {k: now[k] for k in expected(states, step)} == expected(states, step)
    return now


@pytest.mark.parametrize("game", ["base_game", "module_game"])
def test_step_jump_play_and_switch_views(driver, game: str, request, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    states: list[GameState] = request.getfixturevalue(game)
    page = write_replay(record_of(states[-1], ["heuristic"] * len(states[0].players)), tmp_path / "game.html")
    driver.get(page.resolve().as_uri())
    click = lambda name: driver.find_element(By.ID, name).click()  # noqa: E731

    check(driver, states, 0)
    for step in range(1, 6):  # forward
        click("next")
        check(driver, states, step)
    click("prev")  # and back
    check(driver, states, 4)
    late = next(i for i in range(len(states) * 2 // 3, len(states)) if states[i].curses_on_track() >= 2)
    box = driver.find_element(By.ID, "step-input")
    box.clear()
    box.send_keys(str(late), Keys.ENTER)  # jump to a step
    now = check(driver, states, late)
    assert now["curses"] and now["view"] == "spectator"
    assert now["hands"][1] == "hand: " + counts_text(states[late], states[late].players[1].hand)
    lines = event_lines(states[late + 1], len(states[late].log))  # what the move set off
    assert now["events"] == max(len(lines), 1)  # or the one line "nothing else happened"

    Select(driver.find_element(By.ID, "view-select")).select_by_value("1")  # switch to P1's view
    now = check(driver, states, late)
    assert now["view"] == "1"
    assert now["hands"][0] == f"hand: {sum(states[late].players[0].hand)} cards (hidden from P1)"
    assert now["hands"][1] == "hand: " + counts_text(states[late], states[late].players[1].hand)
    Select(driver.find_element(By.ID, "view-select")).select_by_value("spectator")
    assert "hidden" not in shown(driver)["hands"][0]

    turn = states[late].turn - 1  # jump to the start of an earlier turn
    Select(driver.find_element(By.ID, "turn-select")).select_by_value(str(turn))
    first = next(i for i, s in enumerate(states) if s.turn == turn)
    check(driver, states, first)

    click("last")
    check(driver, states, len(states) - 1)
    assert "game over" in driver.find_element(By.ID, "decision-text").text
    click("first")
    Select(driver.find_element(By.ID, "speed")).select_by_value("100")
    click("play")
    deadline = time.time() + 10
    while shown(driver)["step"] < 3 and time.time() < deadline:
        time.sleep(0.05)
    click("play")  # pause
    paused = shown(driver)["step"]
    assert paused >= 3
    time.sleep(0.4)
    check(driver, states, shown(driver)["step"])
    assert shown(driver)["step"] == paused

    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
