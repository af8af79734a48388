"""The interpreter of the effect vocabulary (docs/rules.md sections 7, 8 and 10.5; schema in vocab.py).

An effect runs as a ``seq`` frame over its op list. Each op first resolves its target (a ``tgt``
frame: You / Each player / Each other player / A player / the Active Player), then runs as one
``op`` frame per affected player, in turn order from the Active Player (section 8.3). Ops that need
a choice wait for the player whose cards they are (A-34) or for the controller (the caster; the
Active Player for Curses and Grimoire effects, A-33). An op that can apply only partly applies what
it can; one that cannot apply is skipped for that player (section 8.2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import OPS, done, frame, push
from bbom_env.engine.core.rules import ruling
from bbom_env.engine.model.constants import (
    MAX_SUPPORT_SLOTS,
    MAX_VALUE,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    code_element,
    code_value,
    element_code,
    is_madness,
)
from bbom_env.engine.modifiers import hooks
from bbom_env.engine.play.zones import put, take_top

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


def lookup(state: GameState, f: dict) -> dict:
    ops = state.pack.effects[(f["source"], f["part"])]
    path = f["path"]
    for idx in path[:-1]:
        ops = ops[idx]["ops"]
    return ops[path[-1]]


# -- seq and target frames ---------------------------------------------------------------------


def run_seq(state: GameState, f: dict) -> None:
    ops = state.pack.effects[(f["source"], f["part"])]
    for idx in f["path"]:
        ops = ops[idx]["ops"]
    i = f["step"]
    if i >= len(ops):
        done(state, f)
        return
    f["step"] = i + 1
    push(
        state,
        {
            "kind": "tgt",
            "source": f["source"],
            "part": f["part"],
            "path": f["path"] + (i,),
            "controller": f["controller"],
            "x": f["x"],
        },
    )


def _op_frame(f: dict, p: int, op: dict) -> dict:
    base, per_x = op.get("count", (1, 0))
    return {
        "kind": "op",
        "source": f["source"],
        "part": f["part"],
        "path": f["path"],
        "controller": f["controller"],
        "x": f["x"],
        "player": p,
        "count": base + per_x * f["x"],
        "decider": None,
        "stage": 0,
    }


def _target_candidates(state: GameState, f: dict, op: dict) -> list[int]:
    c = f["controller"]
    alive = state.order_from_active()
    if op["target"] == "another_player":
        return [q for q in alive if q != c]
    return alive


def run_tgt(state: GameState, f: dict) -> None:
    op = lookup(state, f)
    target = op.get("target", "you")
    c = f["controller"]
    if state.config.modules and state.players[c].eliminated and c == state.active:
        c = f["controller"] = _stand_in(state, f)
    if target in ("a_player", "another_player"):
        if _target_candidates(state, f, op):
            f["decider"] = c  # DP-E01 / DP-29
        else:
            done(state, f)
        return
    done(state, f)
    if target == "you":
        players = [c]
    elif target == "active":
        players = [state.active]
    else:
        players = state.order_from_active()
        if target == "each_other":
            players = [q for q in players if q != c]
    players = [q for q in players if not state.players[q].eliminated]
    if target == "each" and f["source"] in state.pack.curses:
        # A rule point may make a Curse part that targets every player apply more than once to
        # one player (docs/rules.md section 9.2); each application is its own frame, in turn order.
        players = [q for q in players for _ in range(hooks.rule_point(state, q, "curse_part_times", 1))]
    frames = [_op_frame(f, q, op) for q in players]
    if (
        state.config.modules
        and len(frames) > 1
        and op["op"] == "receive_madness"
        and ruling(state, "madness_round_robin", False)  # V-24: the Phobia module's face-up pile
    ):
        frames = deal_round_robin(frames)
    push(state, *frames)


def deal_round_robin(frames: list[dict]) -> list[dict]:
    """V-24 (docs/rules.md 5.3 "one at a time in turn order"): with a face-up pile of distinct cards,
    several players' Madness is dealt one card at a time, round-robin in turn order from the
    Active Player, until each has what they must: one frame per card, each taking 1 (a frame's
    placement frames, V-21, V-22, run before the next card). Two frames of one player (a part
    applied twice, V-25) stay side by side in each round."""
    out = []
    for k in range(max(fr["count"] for fr in frames)):
        out += [{**fr, "count": 1} for fr in frames if fr["count"] > k]
    return out


def _stand_in(state: GameState, f: dict) -> int:
    """A-73, V-38: the Active Player was eliminated during their own turn (a Phobia placement, a
    shrunk limit): the Curses and Grimoire effects of the turn still resolve for the others, and
    the next player in turn order takes the Active Player's part of deciding for them (A-33). A
    Spell's or an ability's effect keeps its eliminated controller: its "you" parts are skipped."""
    c = f["controller"]
    src = f["source"]
    if src not in state.pack.curses and src not in state.pack.pages:
        return c
    n = len(state.players)
    return next(((c + k) % n for k in range(1, n) if not state.players[(c + k) % n].eliminated), c)


def legal_tgt(state: GameState, f: dict) -> list[int]:
    op = lookup(state, f)
    n = len(state.players)
    return sorted(M.PICK_PLAYER + (q - f["controller"]) % n for q in _target_candidates(state, f, op))


def answer_tgt(state: GameState, f: dict, move: int) -> None:
    done(state, f)
    q = (f["controller"] + move - M.PICK_PLAYER) % len(state.players)
    push(state, _op_frame(f, q, lookup(state, f)))


frame("seq", run_seq)
frame("tgt", run_tgt, legal_tgt, answer_tgt)


# -- op frames ---------------------------------------------------------------------------------

# OPS (core/resolver.py): name -> (run, legal, answer); run decides whether to wait
# (f["decider"]) or finish.


def run_op(state: GameState, f: dict) -> None:
    op = lookup(state, f)
    OPS[op["op"]][0](state, f, op)


def legal_op(state: GameState, f: dict) -> list[int]:
    op = lookup(state, f)
    return OPS[op["op"]][1](state, f, op)


def answer_op(state: GameState, f: dict, move: int) -> None:
    op = lookup(state, f)
    OPS[op["op"]][2](state, f, op, move)


frame("op", run_op, legal_op, answer_op)


def _filter_ok(flt: str, code: int) -> bool:
    if flt == "element":
        return code < NUM_ELEMENT_CODES
    if flt == "madness":
        return is_madness(code)
    return True


def choice_op(
    name: str,
    options: Callable[[GameState, dict, dict], list[int]],
    apply: Callable,
    who: str = "player",
    auto: tuple[Callable[[dict], bool], Callable[[GameState, dict, dict], None]] | None = None,
) -> None:
    """Register an op that repeats a single pick ``n`` times: options() lists the moves, apply()
    performs one pick. ``optional`` ops add DECLINE ("may"), which ends the op. ``auto=(when, act)``:
    an op for which ``when(op)`` holds (every Curse, the deck top) leaves the stack and acts without
    a choice, as an ``auto_op``."""

    def run(state: GameState, f: dict, op: dict) -> None:
        if auto is not None and auto[0](op):
            done(state, f)
            auto[1](state, f, op)
            return
        if f["count"] <= 0 or state.players[f["player"]].eliminated or not options(state, f, op):
            done(state, f)
            return
        f["decider"] = f[who]

    def legal(state: GameState, f: dict, op: dict) -> list[int]:
        out = options(state, f, op)
        if op.get("optional"):
            out = out + [M.DECLINE]
        return out

    def answer(state: GameState, f: dict, op: dict, move: int) -> None:
        if move == M.DECLINE:
            done(state, f)
            return
        f["count"] -= 1
        apply(state, f, op, move)

    OPS[name] = (run, legal, answer)


def auto_op(name: str, apply: Callable[[GameState, dict, dict], None]) -> None:
    """Register an op without choices: it leaves the stack first, then acts (so frames it pushes,
    e.g. triggers, run after it)."""

    def run(state: GameState, f: dict, op: dict) -> None:
        done(state, f)
        if not state.players[f["player"]].eliminated:
            apply(state, f, op)

    OPS[name] = (run, _no_choice, _no_choice)


def _no_choice(state: GameState, f: dict, op: dict, *move: int) -> list[int]:
    """The legal/answer slot of an op without choices (``auto_op``): it never waits for a
    decision, so reaching this is an engine bug."""
    raise RuntimeError(f"op {op['op']!r} has no choices: nothing to list or answer")


# Hand / discard / support pickers -------------------------------------------------------------


def _counts_options(counts: list[int], base: int, op: dict) -> list[int]:
    """Picks of a zone kept as counts by card code (hand, discard pile): ``base`` + card code."""
    flt = op.get("filter", "any")
    return [base + c for c in range(NUM_CODES) if counts[c] and _filter_ok(flt, c)]


def _support_options(state: GameState, f: dict, op: dict) -> list[int]:
    cards = state.players[f["player"]].support_cards()
    flt = op.get("filter", "any")
    out = [M.PICK_SUPPORT + s for s, c in enumerate(cards) if s < MAX_SUPPORT_SLOTS and _filter_ok(flt, c)]
    if state.config.modules:
        # Cards a module keeps in their support against discard and destroy effects (rule question
        # "fixed_support_cards": a set of card codes; the Phobias, V-26).
        fixed = ruling(state, "fixed_support_cards", ())
        out = [m for m in out if cards[m - M.PICK_SUPPORT] not in fixed]
    return out


def _zone_options(state: GameState, f: dict, op: dict) -> list[int]:
    zone = op["from"]
    if zone == "hand":
        return _counts_options(state.players[f["player"]].hand, M.PICK_HAND, op)
    if zone == "discard":
        return _counts_options(state.players[f["player"]].discard, M.PICK_DISCARD, op)
    return _support_options(state, f, op)


def _take(state: GameState, f: dict, move: int) -> int:
    """Remove the picked card from its zone and return its code."""
    pl = state.players[f["player"]]
    if move < M.PICK_DISCARD:
        code = move - M.PICK_HAND
        pl.hand[code] -= 1
    elif move < M.PICK_SUPPORT:
        code = move - M.PICK_DISCARD
        pl.discard[code] -= 1
    else:
        code = pl.take_support(move - M.PICK_SUPPORT)
    return code


def _apply_discard(state: GameState, f: dict, op: dict, move: int) -> None:
    state.players[f["player"]].discard[_take(state, f, move)] += 1  # section 7: to the owner's pile


def _apply_destroy(state: GameState, f: dict, op: dict, move: int) -> None:
    code = _take(state, f, move)
    state.destroyed[code] += 1  # section 7: destroyed Madness does not return to the pile
    state.event("destroyed", f["player"], code)


choice_op("discard", _zone_options, _apply_discard)


def _destroy_deck_top(state: GameState, f: dict, op: dict) -> None:
    for _ in range(f["count"]):
        code = take_top(state, f["player"])  # an empty deck is refilled first
        if code < 0:
            return
        state.destroyed[code] += 1


choice_op(
    "destroy", _zone_options, _apply_destroy, auto=(lambda op: op["from"] == "deck_top", _destroy_deck_top)
)


def _support_room(state: GameState, p: int) -> bool:
    return len(state.players[p].support) < hooks.support_capacity(state, p)


def _place_options(state: GameState, f: dict, op: dict) -> list[int]:
    if not _support_room(state, f["player"]):
        return []
    return _counts_options(state.players[f["player"]].hand, M.PICK_HAND, {})


choice_op(
    "place_in_support",
    _place_options,
    lambda s, f, op, m: put(s.players[f["player"]], _take(s, f, m), "support"),
)
choice_op(
    "put_on_top",
    lambda s, f, op: _zone_options(s, f, {"from": op["from"]}),
    lambda s, f, op, m: s.players[f["player"]].deck.append(_take(s, f, m)),
)


def _upgrade_options(state: GameState, f: dict, op: dict) -> list[int]:
    """Higher-value: same Element, value + 1, if the supply has one (section 7)."""
    out = []
    for m in _zone_options(state, f, {"from": op["from"], "filter": "element"}):
        code = m - (M.PICK_HAND if op["from"] == "hand" else M.PICK_DISCARD)
        e, v = code_element(code), code_value(code)
        if v < MAX_VALUE and state.supply[e][v - 1] > 0:  # the supply of value v + 1
            out.append(m)
    return out


def _apply_upgrade(state: GameState, f: dict, op: dict, move: int) -> None:
    code = _take(state, f, move)
    e, v = code_element(code), code_value(code) - 1  # v: 0 for value 1, 1 for value 2
    if v == 0:
        state.reserve1[e] += 1
    else:
        state.supply[e][0] += 1
    state.supply[e][v] -= 1
    put(state.players[f["player"]], element_code(e, v + 2), op["from"])  # the higher card
    state.event("upgrade", f["player"], code)


choice_op("upgrade", _upgrade_options, _apply_upgrade)
