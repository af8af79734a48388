"""Effect ops on Spells and on the board (docs/rules.md sections 7, 10.5 DP-E09/E10): neutralize,
exhaust, refresh and lose Spells; neutralize and destroy Curses; Element tokens (A-62); the
Invocation marker; Madness under Curses (Sorcerer, A-43). The op framework is in ``ops.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bbom_env.engine.core import moves as M
from bbom_env.engine.core.resolver import push
from bbom_env.engine.core.rules import ruleset
from bbom_env.engine.model import move_args as A
from bbom_env.engine.model.constants import ELEMENT_NAMES, NUM_ELEMENTS, NUM_TRACK_SLOTS
from bbom_env.engine.model.records import CurseOnTrack, SpellSlot
from bbom_env.engine.play.ops import auto_op, choice_op
from bbom_env.engine.play.zones import destroy_curse, madness_under, spell_to_box

if TYPE_CHECKING:
    from bbom_env.engine.core.state import GameState


# Spells --------------------------------------------------------------------------------------


def _spell_choice(name: str, ok: Callable[[SpellSlot], bool], change: Callable[[dict], dict]) -> None:
    """An op that picks one of the player's Spells ``ok`` accepts; it takes the fields ``change(op)``."""

    def options(state: GameState, f: dict, op: dict) -> list[int]:
        return [M.PICK_SPELL + i for i, sp in enumerate(state.players[f["player"]].spells) if ok(sp)]

    def apply(state: GameState, f: dict, op: dict, move: int) -> None:
        spells = state.players[f["player"]].spells
        spells[move - M.PICK_SPELL] = spells[move - M.PICK_SPELL]._replace(**change(op))

    choice_op(name, options, apply)


_spell_choice("neutralize_spell", lambda sp: not sp.neutralized, lambda op: {"neutralized": op["duration"]})
_spell_choice(
    "exhaust_spell", lambda sp: not sp.exhausted and not sp.neutralized, lambda op: {"exhausted": True}
)
# only an exhausted, face-up Spell is refreshed
_spell_choice(
    "refresh_spell", lambda sp: sp.exhausted and not sp.neutralized, lambda op: {"exhausted": False}
)
choice_op(
    "lose_spell",
    lambda s, f, op: [M.PICK_SPELL + i for i in range(len(s.players[f["player"]].spells))],
    lambda s, f, op, m: spell_to_box(s, f["player"], m - M.PICK_SPELL, "spell_lost"),
)


# Curses --------------------------------------------------------------------------------------


_NO_TYPES: frozenset[str] = frozenset()


def barred_types(state: GameState, what: str) -> frozenset[str]:
    """Curse types an effect may not pick for ``what``: "destroy" (V-07: a Dark Curse, unless
    ``dark_curse_destroy_by_effect``) or "tokens" (V-08: Element tokens never go on a Dark
    Curse), as the modules' ``rules.CurseRule``s say. None in a base game (no lookup)."""
    config = state.config
    if not config.modules:
        return _NO_TYPES
    rules = ruleset(config.modules).curse_rules
    if what == "destroy":
        return frozenset(t for t, r in rules.items() if not r.by_effect(config))
    return frozenset(t for t, r in rules.items() if not r.tokens)


def _curse_moves(
    state: GameState, face_up_only: bool, with_tokens: bool = False, barred: frozenset[str] = _NO_TYPES
) -> list[int]:
    out = []
    for slot, stack in enumerate(state.track):
        d = len(stack)
        for pos in range(d):
            curse = stack[d - 1 - pos]
            if face_up_only and curse.neutralized_at >= 0:
                continue
            if with_tokens and not any(curse.tokens):
                continue
            if barred and state.pack.curses[curse.curse].type in barred:
                continue
            out.append(M.PICK_CURSE + M.curse_arg(slot, pos))
    return out


def _curse_place(state: GameState, move: int) -> tuple[list[CurseOnTrack], int]:
    """The track slot's stack and the index in it of the Curse a PICK_CURSE move names."""
    slot, pos = A.CURSE.from_index(move - M.PICK_CURSE)
    stack = state.track[slot]
    return stack, len(stack) - 1 - pos


def _neutralize_curse(state: GameState, f: dict, op: dict, move: int) -> None:
    stack, i = _curse_place(state, move)
    stack[i] = stack[i]._replace(neutralized_at=state.turn)  # released per A-19 (flow._release_curses)
    state.event("neutralize_curse", stack[i].curse)


choice_op("neutralize_curse", lambda s, f, op: _curse_moves(s, True), _neutralize_curse, who="controller")


def _destroy_curse(state: GameState, f: dict, op: dict, move: int) -> None:
    slot, pos = A.CURSE.from_index(move - M.PICK_CURSE)
    destroy_curse(state, slot, pos, f["controller"], op["reward"])


choice_op(
    "destroy_curse",
    lambda s, f, op: _curse_moves(s, True, barred=barred_types(s, "destroy")),  # V-07
    _destroy_curse,
    who="controller",
)


def _token_element(state: GameState, curse: CurseOnTrack, how: str) -> int:
    if how in ELEMENT_NAMES:
        return ELEMENT_NAMES.index(how)
    ctype = state.pack.curses[curse.curse].type
    if how == "curse" and ctype != "multi":
        return ELEMENT_NAMES.index(ctype)
    pool = [e for e in range(NUM_ELEMENTS) for _ in range(state.tokens[e])]  # "at random"
    return pool[state.rng.randrange(len(pool))] if pool else -1


def _add_tokens_to(state: GameState, stack: list[CurseOnTrack], i: int, n: int, how: str) -> None:
    curse = stack[i]
    tokens = list(curse.tokens)
    for _ in range(n):
        e = _token_element(state, curse, how)
        if e < 0 or state.tokens[e] <= 0:
            break
        state.tokens[e] -= 1
        tokens[e] += 1
    stack[i] = curse._replace(tokens=tuple(tokens))


def _add_tokens(state: GameState, f: dict, op: dict) -> None:
    if op["curse"] == "slot":
        stack = state.track[op["slot"]] if 0 <= op["slot"] < NUM_TRACK_SLOTS else []
        targets = [(stack, len(stack) - 1)] if stack else []
    else:
        targets = [(stack, i) for stack in state.track for i in range(len(stack))]
    barred = barred_types(state, "tokens")  # V-08: "every Curse" skips a Dark Curse
    for stack, i in targets:
        if barred and state.pack.curses[stack[i].curse].type in barred:
            continue
        _add_tokens_to(state, stack, i, f["count"], op["element"])


def _apply_add_tokens(state: GameState, f: dict, op: dict, move: int) -> None:
    _add_tokens_to(state, *_curse_place(state, move), f["count"] + 1, op["element"])
    f["count"] = 0  # one Curse receives all the tokens


choice_op(
    "add_tokens",
    lambda s, f, op: _curse_moves(s, False, barred=barred_types(s, "tokens")),  # V-08
    _apply_add_tokens,
    who="controller",
    auto=(lambda op: op["curse"] != "choose", _add_tokens),
)


def _remove_tokens_from(state: GameState, stack: list[CurseOnTrack], i: int, n: int) -> None:
    tokens = list(stack[i].tokens)
    for e in range(NUM_ELEMENTS):
        k = min(n, tokens[e])
        tokens[e] -= k
        state.tokens[e] += k
        n -= k
    stack[i] = stack[i]._replace(tokens=tuple(tokens))


def _remove_tokens(state: GameState, f: dict, op: dict) -> None:
    for stack in state.track:
        for i in range(len(stack)):
            _remove_tokens_from(state, stack, i, f["count"])


def _apply_remove_tokens(state: GameState, f: dict, op: dict, move: int) -> None:
    _remove_tokens_from(state, *_curse_place(state, move), f["count"] + 1)
    f["count"] = 0


choice_op(
    "remove_tokens",
    lambda s, f, op: _curse_moves(s, False, True),
    _apply_remove_tokens,
    who="controller",
    auto=(lambda op: op["curse"] != "choose", _remove_tokens),
)


def _madness_under_curses(state: GameState, f: dict, op: dict) -> None:
    """Sorcerer (A-43): taken from the pile, not "received": an empty pile just stops it."""
    for stack in state.track:
        for i, curse in enumerate(stack):
            if not state.madness_pile:
                return
            if not madness_under(state, curse.curse, state.madness_pile.pop()):  # V-29
                stack[i] = curse._replace(madness=curse.madness + 1)


auto_op("madness_under_curses", _madness_under_curses)


def _move_marker(state: GameState, f: dict, op: dict) -> None:
    steps = op["steps"]
    # Before the first round, and between two rounds (the marker rests on the Invocation space,
    # marker 0, while the Bonus/Failure and anything they grant resolve), there is no Curse space
    # to move along: the move does nothing. A round always plays over its 5 turns (section 3.3);
    # moving "back" from 0 used to put the marker on space 1, and "forward" crashed in advance.
    if state.round == 0 or state.marker == 0:
        return
    if steps < 0:  # moving back triggers nothing; the Curses trigger again when re-entered
        state.marker = max(1, state.marker + steps)
        state.event("marker", state.marker)
    else:
        push(state, *[{"kind": "advance"} for _ in range(steps)])


auto_op("move_marker", _move_marker)
