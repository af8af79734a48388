"""The replay page's HTML, CSS and JavaScript (``replay_html.py`` fills in the game's data).

One file, no network: the frames are SVG segments in a JSON block of the page, each distinct
segment stored once; a frame is a list of segment numbers (``svg.board_parts``). The script
assembles the frame of the current step and view into ``#board``.

Stable handles (tests/view/test_replay_browser.py reads them): ``#board`` with ``data-step`` and
``data-view``; buttons ``#first #prev #play #next #last``; ``#step-input`` (a step number);
``#turn-select`` (the first step of each turn); ``#view-select`` ("spectator", "0", "1"...);
``#step-label``, ``#move-text`` (``data-seat``, ``data-move``), ``#decision-text``, ``#events``
(one ``li`` per event); and ``window.bbomReplay`` (``go(step)``, ``setView(view)``, ``step``,
``view``, ``steps``). Inside the frame: the SVG's own ids (``#marker[data-space]``,
``.curse[data-name]``, ``#seat-N[data-hand-size]``...; see ``svg.py``). Keys: left/right arrows
step, Home/End jump, space plays or pauses. A link opens a step and a view: ``game.html#step=40&view=1``.
"""

from __future__ import annotations

CSS = """
body { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; margin: 0; background: #e9e4d8;
  color: #1d1d1d; }
header { padding: 8px 16px; background: #2b2b2b; color: #fbf8f1; }
header h1 { font-size: 18px; margin: 0 0 2px 0; }
header p { margin: 0; font-size: 12px; color: #cfc8b8; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 16px;
  background: #efe9dc; border-bottom: 1px solid #cfc8b8; font-size: 13px; }
#controls button { font-size: 13px; padding: 3px 10px; }
#controls input { width: 5em; }
#step-label { font-weight: bold; margin-left: 8px; }
main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
#board { flex: 0 0 auto; }
#board svg { display: block; max-width: 100%; height: auto; box-shadow: 0 1px 4px #0003; }
#log { flex: 1 1 320px; min-width: 280px; max-width: 520px; font-size: 13px; background: #fbf8f1;
  padding: 8px 12px; box-shadow: 0 1px 4px #0003; }
#log h2 { font-size: 14px; margin: 8px 0 4px 0; }
#events { margin: 0; padding-left: 18px; max-height: 420px; overflow-y: auto; }
#events li { margin: 1px 0; }
#events li.turn { list-style: none; margin-left: -18px; font-weight: bold; }
.muted { color: #6b6b6b; }
"""

SCRIPT = r"""
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const board = document.getElementById("board");
  const stepInput = document.getElementById("step-input");
  const viewSelect = document.getElementById("view-select");
  const turnSelect = document.getElementById("turn-select");
  const playButton = document.getElementById("play");
  const speed = document.getElementById("speed");
  const last = data.steps.length - 1;
  const state = { step: 0, view: "spectator", timer: null };

  function text(id, value) { document.getElementById(id).textContent = value; }

  function frame(step, view) {
    return data.frames[view][step].map(function (k) { return data.segments[k]; }).join("");
  }

  function render() {
    const s = data.steps[state.step];
    board.innerHTML = frame(state.step, state.view);
    board.dataset.step = String(state.step);
    board.dataset.view = state.view;
    stepInput.value = String(state.step);
    const where = " \u00b7 turn " + s.turn + " \u00b7 round " + s.round;
    text("step-label", "step " + state.step + " of " + last + where);
    text("decision-text", s.decision);
    const move = document.getElementById("move-text");
    move.textContent = s.move === null ? "(the game ends here)" : "P" + s.seat + " took " + s.move;
    move.dataset.seat = s.move === null ? "" : String(s.seat);
    move.dataset.move = s.move === null ? "" : String(s.move_id);
    const list = document.getElementById("events");
    list.replaceChildren();
    s.events.forEach(function (line) {
      const li = document.createElement("li");
      li.textContent = line.trim();
      if (line.startsWith("---")) { li.className = "turn"; }
      list.appendChild(li);
    });
    if (!s.events.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = s.move === null ? "none" : "nothing else happened";
      list.appendChild(li);
    }
    turnSelect.value = String(data.turn_of_step[state.step]);
  }

  function go(step) {
    const n = Number(step);
    if (!Number.isInteger(n)) { return; }
    state.step = Math.max(0, Math.min(last, n));
    render();
  }

  function setView(view) {
    const v = String(view);
    if (!(v in data.frames)) { throw new Error("no view " + v + "; views: " + Object.keys(data.frames)); }
    state.view = v;
    viewSelect.value = v;
    render();
  }

  function stop() {
    if (state.timer !== null) { clearInterval(state.timer); state.timer = null; }
    playButton.textContent = "\u25b6 play";
  }

  function play() {
    if (state.timer !== null) { stop(); return; }
    if (state.step >= last) { go(0); }
    playButton.textContent = "\u275a\u275a pause";
    state.timer = setInterval(function () {
      if (state.step >= last) { stop(); return; }
      go(state.step + 1);
    }, Number(speed.value));
  }

  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(state.step - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(state.step + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(last); });
  playButton.addEventListener("click", play);
  stepInput.addEventListener("change", function () { stop(); go(stepInput.value); });
  turnSelect.addEventListener("change", function () { stop(); go(data.turn_start[turnSelect.value]); });
  viewSelect.addEventListener("change", function () { setView(viewSelect.value); });
  speed.addEventListener("change", function () { if (state.timer !== null) { stop(); play(); } });
  document.addEventListener("keydown", function (e) {
    if (e.target === stepInput) { return; }
    if (e.key === "ArrowRight") { stop(); go(state.step + 1); }
    else if (e.key === "ArrowLeft") { stop(); go(state.step - 1); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(last); }
    else if (e.key === " ") { e.preventDefault(); play(); }
  });

  // A link can open a step and a view: page.html#step=40&view=1
  function fromHash() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    if (params.has("view") && params.get("view") in data.frames) {
      state.view = params.get("view");
      viewSelect.value = state.view;
    }
    if (params.has("step")) { state.step = Math.max(0, Math.min(last, Number(params.get("step")) || 0)); }
  }

  window.bbomReplay = {
    go: go,
    setView: setView,
    get step() { return state.step; },
    get view() { return state.view; },
    steps: data.steps.length,
  };
  fromHash();
  render();
})();
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="bbom-env {version} (python -m bbom_env.replay)">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header><h1>{title}</h1><p id="summary">{summary}</p></header>
<div id="controls">
<button id="first" title="first step (Home)">\u00ab first</button>
<button id="prev" title="previous step (left arrow)">\u25c0 prev</button>
<button id="play" title="play / pause (space)">\u25b6 play</button>
<button id="next" title="next step (right arrow)">next \u25b6</button>
<button id="last" title="last step (End)">last \u00bb</button>
<label>step <input id="step-input" type="number" min="0" max="{last}" value="0"></label>
<label>turn <select id="turn-select">{turn_options}</select></label>
<label>view <select id="view-select">{view_options}</select></label>
<label>speed <select id="speed"><option value="1000">1 step/s</option>
<option value="400" selected>2.5 steps/s</option><option value="100">10 steps/s</option></select></label>
<span id="step-label"></span>
</div>
<main>
<div id="board" data-step="0" data-view="spectator"></div>
<div id="log">
<h2>Decision</h2><div id="decision-text"></div>
<h2>Move</h2><div id="move-text"></div>
<h2>What it set off</h2><ul id="events"></ul>
<p class="muted">Card names: * reconstructed (not the real card), ~ partly known. A seat's view shows
what that seat sees; the move and event lists are the game's record, as the play command prints
them.</p>
</div>
</main>
<script id="game-data" type="application/json">{data}</script>
<script>{script}</script>
</body>
</html>
"""
