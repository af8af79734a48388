"""JSON save/load of a full state (design decision 3), and replay from config + moves."""

from __future__ import annotations

import json
import random
from typing import Any

from .cards import load_pack
from .config import GameConfig
from .state import GameState, PlayerState

FORMAT = "bbom-state/1"
# GameState fields that are plain JSON data as they are (saved and restored unchanged).
_PLAIN_FIELDS = (
    "active", "turn", "round", "marker", "phase", "grimoire", "library", "curse_piles", "supply",
    "reserve1", "tokens", "madness_pile", "destroyed", "box", "box_spells", "over", "outcome",
    "reason", "stats", "history", "movers",
)  # fmt: skip


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(v) for v in x) if isinstance(x, list) else x


def to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-ready dict of everything in the state (the pack is named by the config)."""
    version, internal, gauss = state.rng.getstate()
    return {
        "format": FORMAT,
        "config": state.config.to_dict(),
        "rng": [version, list(internal), gauss],
        "players": [
            {
                "magician": p.magician,
                "deck": p.deck,
                "hand": p.hand,
                "discard": p.discard,
                "support": p.support,
                "spells": p.spells,
                "eliminated": p.eliminated,
                "ability_used": p.ability_used,
                "ability_lost": p.ability_lost,
                "mods": [list(m) for m in p.mods],
            }
            for p in state.players
        ],
        **{k: getattr(state, k) for k in _PLAIN_FIELDS},
        "track": [[[c[0], c[1], list(c[2]), c[3]] for c in slot] for slot in state.track],
        "stack": [{k: _listify(v) for k, v in f.items()} for f in state.stack],
        "log": [list(e) for e in state.log],
    }


def _listify(x: Any) -> Any:
    return [_listify(v) for v in x] if isinstance(x, tuple) else x


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: dict[str, Any]) -> GameState:
    if data.get("format") != FORMAT:
        raise ValueError(f"not a saved bbom state (format {data.get('format')!r}, expected {FORMAT!r})")
    config = GameConfig.from_dict(data["config"])
    pack = load_pack(config.pack, config.pack_overrides)
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    players = []
    for d in data["players"]:
        p = PlayerState(d["magician"])
        p.deck, p.hand, p.discard, p.support = d["deck"], d["hand"], d["discard"], d["support"]
        p.spells = d["spells"]
        p.eliminated, p.ability_used, p.ability_lost = d["eliminated"], d["ability_used"], d["ability_lost"]
        p.mods = [(m[0], m[1], m[2]) for m in d["mods"]]
        players.append(p)
    state = GameState(config=config, pack=pack, rng=rng, players=players)
    for k in _PLAIN_FIELDS:
        setattr(state, k, data[k])
    state.track = [[[c[0], c[1], tuple(c[2]), c[3]] for c in slot] for slot in data["track"]]
    state.stack = [{k: _tuplify(v) for k, v in f.items()} for f in data["stack"]]
    state.log = [tuple(_tuplify(v) for v in e) for e in data["log"]]
    from .resolver import LEGAL

    if state.stack and state.stack[-1].get("w") is not None:
        state.legal_cache = LEGAL[state.stack[-1]["k"]](state, state.stack[-1])
    else:
        state.legal_cache = []
    return state


def from_json(text: str) -> GameState:
    return from_dict(json.loads(text))


def replay(config: GameConfig, actions: list[int]) -> GameState:
    """The state reached by applying ``actions`` to a new game of ``config`` (its seed included)."""
    from .setup import new_game

    state = new_game(config)
    for a in actions:
        state.apply_action(a)
    return state
