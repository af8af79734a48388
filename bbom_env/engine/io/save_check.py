"""Validation of a parsed save (``from_json``) before it becomes a ``GameState``.

A save is untrusted text: it may be hand-edited, truncated, from another version, or made with a
pack that has changed. ``check_save`` checks the JSON type of every field against the type that
``GameState`` declares for it (``typed.check_json``), then the values: ranges, the ids against the
pack (cards, Spells, Curses, pages, effect paths, modifiers), the seats against the player count
and the frames of the decision stack against what the engine builds; ``check_state``
then runs the engine invariants (card, Curse, token and Spell conservation; a live decider with
legal moves). Every refusal is a ``SaveError`` whose message starts with the field path, e.g.
``players[1].deck[3]: unknown card code 999``. What a game never reads back (the event log's data,
the progress counters' names) is checked for type only.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bbom_env.engine.cards.pack import Pack, PackError, PackIndex, pack_mismatch
from bbom_env.engine.cards.vocab import walk_ops
from bbom_env.engine.core.config import ConfigError, GameConfig
from bbom_env.engine.core.moves import num_moves
from bbom_env.engine.core.rules import (
    Ruleset,
    check_game_pack,
    game_pack,
    pack_spec,
    ruleset,
    switch_defaults,
)
from bbom_env.engine.core.state import GameState, SaveError
from bbom_env.engine.io.invariants import check_invariants, crushed_fault
from bbom_env.engine.io.save_values import (
    BASE_CODES,
    Game,
    _amounts,
    _code,
    _counts,
    _frame,
    _id,
    _int,
    _list,
    _name,
    _seat,
    _str,
)
from bbom_env.engine.model.constants import (
    LAST_SPACE,
    MAX_SPELLS,
    MAX_STACK,
    MAX_SUPPORT_SLOTS,
    NUM_ELEMENTS,
    NUM_TRACK_SLOTS,
    ROUNDS,
    Phase,
    is_madness,
)
from bbom_env.engine.model.records import NO_CARD
from bbom_env.engine.model.typed import JSONShapeError, check_json, check_object, object_fields, saved_fields

# Saved only when not empty (typed.SAVED_IF_SET): the module states of GameState.ext, so that a
# base game's save is what it was before they existed.
IF_SET = object_fields(GameState)[1]
DURATIONS = ("until_next_monster", "this_turn")
OUTCOMES = ("", "win", "loss")
# The fields checked by their declared JSON type: all but the config (``GameConfig.from_dict``),
# the RNG's state and the module states (each of its module's type), which have their own checks.
_TYPED = {name: h for name, h in saved_fields(GameState).items() if name not in ("config", "rng", "ext")}


def check_save(data: Any, keys: frozenset[str], hashed: bool) -> tuple[GameConfig, Pack]:
    """Check everything a save holds; return its config and (freshly checked) pack."""
    try:
        return _check_save(data, keys, hashed)
    except JSONShapeError as exc:  # a JSON type (typed.check_json), or the keys of an object
        raise SaveError(str(exc)) from None


def _check_save(data: Any, keys: frozenset[str], hashed: bool) -> tuple[GameConfig, Pack]:
    check_object(data, "save", keys, optional=IF_SET)
    config = _config(data["config"])
    if hashed:
        check_json(list[str], data["pack_sha256"], "pack_sha256")
        why = pack_mismatch(*pack_spec(config), data["pack_sha256"])
        if why is not None:
            raise SaveError(f"pack_sha256: {why}")
    rules = ruleset(config.modules)
    try:
        pack = game_pack(config)
        check_game_pack(pack, config.modules)  # as setup does
    except (PackError, OSError) as exc:
        raise SaveError(f"config.pack: the save's card pack cannot be loaded: {exc}") from None
    _rng(data["rng"])
    for name, h in _TYPED.items():  # the JSON types first: the checks below read them as typed
        check_json(h, data[name], name)
    n = config.num_players
    codes = frozenset(rules.card_codes)  # the base game's and its modules' (Dark Matter: 13)
    for i, d in enumerate(_list(data["players"], "players", n)):
        _player(d, f"players[{i}]", pack, codes)
    _magicians(config, data["players"])
    _progress(data, n, num_moves(config.modules))
    _books(data, pack)
    _curse_piles(data, pack, rules.curse_types)
    _track(data, pack, frozenset(t for t, r in rules.curse_rules.items() if r.stacks))
    _seat(data["active"], "active", n)
    _round_and_marker(data)
    _zones(data, codes)
    game = Game(pack, n, rules.pay_actions, codes)
    for i, f in enumerate(data["stack"]):
        _frame(f, f"stack[{i}]", game, data, top=i == len(data["stack"]) - 1)
    _module_states(data.get("ext", {}), rules)
    return config, pack


def _module_states(ext: Any, rules: Ruleset) -> None:
    """``ext``: exactly one state per module of the game that has one (``Module.state_type``), each
    of the shape its type declares (``typed.check_json``); its values are then checked by
    the module's invariants (``check_state``)."""
    want = dict(rules.state_types)
    if type(ext) is not dict:
        raise SaveError(f"ext: expected an object (module name -> module state), got {_name(ext)}")
    for name in ext:
        if name not in want:
            raise SaveError(
                f"ext.{name}: no module of this game keeps a state named {name!r} "
                f"(config.modules {list(rules.modules)}; with a state: {sorted(want)})"
            )
    for name, cls in want.items():
        if name not in ext:
            raise SaveError(f"ext.{name}: missing: module {name!r} keeps a state ({cls.__name__})")
        check_json(cls, ext[name], f"ext.{name}")


def _config(d: Any) -> GameConfig:
    # All of them, and the switches of its modules: a missing field must not fall back to a default.
    # A save of another module set may name switches at their defaults (saves before format 6's
    # switches were per module did).
    modules = d.get("modules") if type(d) is dict else None
    others = set(switch_defaults()) - set(switch_defaults(modules if type(modules) is list else ()))
    check_object(d, "config", frozenset(GameConfig.known_names()) - {"switches"}, optional=frozenset(others))
    check_json(list[str], d["pack_overrides"], "config.pack_overrides")
    _list(d["modules"], "config.modules")  # GameConfig takes any empty container there
    try:
        return GameConfig.from_dict(d)
    except (ConfigError, TypeError) as exc:
        raise SaveError(f"config: {exc}") from None


def _rng(v: Any) -> None:
    version, internal, gauss = _list(v, "rng", 3)
    _int(version, "rng[0]", random.Random.VERSION, random.Random.VERSION)
    words = _list(internal, "rng[1]", 625)  # Mersenne Twister: 624 words and a position
    for i, w in enumerate(words):
        if type(w) is not int or not 0 <= w < 2**32:  # inline: 625 words per load
            _int(w, f"rng[1][{i}]", 0, 2**32 - 1)
    if gauss is not None and type(gauss) is not float:
        raise SaveError(f"rng[2]: expected null or a float, got {_name(gauss)}")
    try:
        random.Random().setstate((version, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError) as exc:
        raise SaveError(f"rng: not a state of Python's random.Random: {exc}") from None


def _player(d: dict, where: str, pack: Pack, codes: frozenset[int]) -> None:
    _id(d["magician"], pack.magicians, f"{where}.magician", "Magician")
    for i, c in enumerate(d["deck"]):
        _code(c, f"{where}.deck[{i}]", codes)
    _counts(d["hand"], f"{where}.hand", codes)
    _counts(d["discard"], f"{where}.discard", codes)
    for i, slot in enumerate(_list(d["support"], f"{where}.support", most=MAX_SUPPORT_SLOTS)):
        _code(slot["card"], f"{where}.support[{i}].card", codes)
        if slot["crushed"] != NO_CARD:  # a card code, or NO_CARD (-1): nothing crushed
            _code(slot["crushed"], f"{where}.support[{i}].crushed", codes)
            if why := crushed_fault(slot["card"], slot["crushed"]):
                raise SaveError(f"{where}.support[{i}].crushed: {why}")
    for i, sp in enumerate(_list(d["spells"], f"{where}.spells", most=MAX_SPELLS)):
        _id(sp["spell"], pack.spells, f"{where}.spells[{i}].spell", "Spell")
        _str(sp["neutralized"], f"{where}.spells[{i}].neutralized", ("",) + DURATIONS)
    for i, m in enumerate(d["mods"]):
        mod, duration, src = m["modifier"], m["duration"], m["source"]
        _str(duration, f"{where}.mods[{i}].duration", DURATIONS)
        if (src, json.dumps(mod, sort_keys=True), duration) not in _MODIFIERS(pack):
            raise SaveError(
                f"{where}.mods[{i}]: no card effect of {src!r} gives the modifier {_name(mod)} ({duration})"
            )


def _modifiers(pack: Pack) -> set[tuple[str, str, str]]:
    """(source card, modifier as canonical JSON, duration) of every "modifier" op of the pack."""
    return {
        (src, json.dumps(op["mod"], sort_keys=True), op["duration"])
        for (src, _part), ops in pack.effects.items()
        for _path, op in walk_ops(ops)
        if op["op"] == "modifier"
    }


_MODIFIERS = PackIndex(_modifiers)


def _magicians(config: GameConfig, players: list | tuple) -> None:
    mags = [p["magician"] for p in players]
    if len(set(mags)) != len(mags):
        raise SaveError(f"players: a Magician sits at two seats: {mags}")
    if config.magicians != "random" and tuple(mags) != config.magicians:
        raise SaveError(f"players: Magicians {mags} are not config.magicians {list(config.magicians)}")


def _books(data: dict, pack: Pack) -> None:
    """The Grimoire (its pages' kinds in order), the Library piles, the boxed Spells."""
    grimoire = _list(data["grimoire"], "grimoire", ROUNDS + 1)
    kinds = ["cover"] + ["inside"] * (ROUNDS - 1) + ["end"]
    for i, (pid, kind) in enumerate(zip(grimoire, kinds, strict=True)):
        _id(pid, pack.pages, f"grimoire[{i}]", "Grimoire page")
        if pack.pages[pid].kind != kind:
            raise SaveError(f"grimoire[{i}]: page {pid!r} is a {pack.pages[pid].kind} page, expected {kind}")
    for e, pile in enumerate(_list(data["library"], "library", NUM_ELEMENTS)):
        for i, sid in enumerate(pile):
            _id(sid, pack.spells, f"library[{e}][{i}]", "Spell")
            if pack.spells[sid].basic or pack.spells[sid].element != e:
                raise SaveError(f"library[{e}][{i}]: {sid!r} is not a Library Spell of Element {e}")
    for i, sid in enumerate(data["box_spells"]):
        _id(sid, pack.spells, f"box_spells[{i}]", "Spell")


def _curse_piles(data: dict, pack: Pack, types: tuple[str, ...]) -> None:
    piles = data["curse_piles"]
    check_object(piles, "curse_piles", {*types, "out"}, optional=frozenset({"out"}))
    for t, pile in piles.items():
        for i, cid in enumerate(pile):
            _id(cid, pack.curses, f"curse_piles.{t}[{i}]", "Curse")
            if t != "out" and pack.curses[cid].type != t:
                raise SaveError(f"curse_piles.{t}[{i}]: {cid!r} is a {pack.curses[cid].type} Curse")


def _track(data: dict, pack: Pack, stacking: frozenset[str] = frozenset()) -> None:
    """The Curses on the track (and the turn, which bounds when one was neutralized); a Curse lies
    on top of another only when its type stacks (``rules.CurseRule.stacks``: a Dark Curse, V-09)."""
    turn = _int(data["turn"], "turn", 0)
    for s, slot in enumerate(_list(data["track"], "track", NUM_TRACK_SLOTS)):
        for j, curse in enumerate(_list(slot, f"track[{s}]", most=MAX_STACK)):
            w = f"track[{s}][{j}]"
            cid = _id(curse["curse"], pack.curses, f"{w}.curse", "Curse")
            if j > 0 and pack.curses[cid].type not in stacking:
                raise SaveError(
                    f"{w}.curse: {cid!r}, a {pack.curses[cid].type} Curse, lies on top of another Curse; "
                    f"only Curses of a type that stacks do ({sorted(stacking) or 'none in this game'}, V-09)"
                )
            # -1 face up, else the turn it was neutralized
            _int(curse["neutralized_at"], f"{w}.neutralized_at", -1, turn)
            _amounts(curse["tokens"], f"{w}.tokens", NUM_ELEMENTS)
            _int(curse["madness"], f"{w}.madness", 0)


def _round_and_marker(data: dict) -> None:
    """The round, the Invocation marker (fitting the round and the stack) and the phase."""
    rnd = _int(data["round"], "round", 0, ROUNDS)
    marker = _int(data["marker"], "marker", 0, LAST_SPACE)
    # In a running game marker 0 (the Invocation space) is held only before the first Monster phase
    # and between the end of a round and its New Monster; elsewhere the next advance finds no space.
    pending_page = any(type(f) is dict and f.get("kind") == "newmonster" for f in data["stack"])
    if not data["over"] and ((rnd == 0 and marker != 0) or (rnd > 0 and marker == 0 and not pending_page)):
        raise SaveError(f"marker: {marker} does not fit round {rnd} (marker 0 only before a New Monster)")
    _int(data["phase"], "phase", min(Phase), max(Phase))


def _zones(data: dict, codes: frozenset[int] = BASE_CODES) -> None:
    for e, pile in enumerate(_list(data["supply"], "supply", NUM_ELEMENTS)):
        _amounts(pile, f"supply[{e}]", 2)  # values 2 and 3
    _amounts(data["reserve1"], "reserve1", NUM_ELEMENTS)
    _amounts(data["tokens"], "tokens", NUM_ELEMENTS)
    for i, c in enumerate(data["madness_pile"]):
        if not is_madness(_code(c, f"madness_pile[{i}]", codes)):  # a module's too (9.2)
            raise SaveError(f"madness_pile[{i}]: card code {c} is not a Madness card of this game")
    _counts(data["destroyed"], "destroyed", codes)
    _counts(data["box"], "box", codes)


def _progress(data: dict, n: int, moves: int) -> None:
    over, outcome = data["over"], _str(data["outcome"], "outcome", OUTCOMES)
    if over != (outcome != ""):
        raise SaveError(f"outcome: {outcome!r} does not fit over={over}")
    for k, v in data["stats"].items():  # an open set of counter names
        _int(v, f"stats.{k}", 0)
    history, movers = data["history"], _list(data["movers"], "movers", len(data["history"]))
    # The long lists (hundreds of moves, thousands of events) test inline and explain only a failure.
    for i, (m, p) in enumerate(zip(history, movers, strict=True)):
        if not 0 <= m < moves or not 0 <= p < n:
            _int(m, f"history[{i}]", 0, moves - 1)  # the layout of config.modules
            _seat(p, f"movers[{i}]", n)
    for i, e in enumerate(data["log"]):
        if type(e) is list and len(e) >= 2 and type(e[0]) is int and e[0] >= 0 and type(e[1]) is str:
            continue
        entry = _list(e, f"log[{i}]")
        if len(entry) < 2:
            raise SaveError(f"log[{i}]: expected [turn, kind, data...], got {_name(entry)}")
        _int(entry[0], f"log[{i}][0]", 0)
        _str(entry[1], f"log[{i}][1]")


def check_state(state: GameState) -> None:
    """The engine invariants of a state built from a checked save (SaveError when one fails)."""
    for check in state.rules.save_checks:  # the modules' state, field by field
        try:
            check(state)
        except AssertionError as exc:
            raise SaveError(str(exc)) from None
        except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
            raise SaveError(f"inconsistent save: a module's state cannot be checked ({exc!r})") from None
    try:
        check_invariants(state)
    except AssertionError as exc:
        raise SaveError(f"inconsistent save: {exc}") from None
    # A fact the structure check missed makes a rule handler fail while evaluating the pending
    # decision; that is still a bad save, never a crash of the loader.
    except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
        raise SaveError(f"inconsistent save: the pending decision cannot be evaluated ({exc!r})") from None
