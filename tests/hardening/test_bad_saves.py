"""Bad saves at ``from_json``: a real mid-game save is parsed, one field is mutated (wrong type,
negative count, unknown id, seat out of range, key removed or added), dumped and loaded. Every such
save is refused with ``SaveError`` (a ValueError) whose message starts with the field path (or says
which invariant broke); nothing else (KeyError, AttributeError, IndexError, AssertionError ...) may
escape, and a save that does load is a consistent game. Saves and pickles made with a card pack that
has since changed are refused, naming the file and both hashes."""

from __future__ import annotations

import json
import pickle
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bbom_env.engine import GameConfig, SaveError, from_json, new_game
from bbom_env.engine.cards.pack import NAMED_PACKS
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import check_invariants

ROOT = Path(__file__).resolve().parents[2]
Path_ = tuple[Any, ...]


def _features(s: GameState) -> set[str]:
    top = s.stack[-1] if s.stack else {}
    out = {f["kind"] for f in s.stack}
    if top.get("kind") == "pay" and top["picks"]:
        out.add("picks")
    if any(p.mods for p in s.players):
        out.add("mods")
    if any(p.support for p in s.players):
        out.add("support")
    return out


def _play_until(config: GameConfig, want: set[str], cap: int = 3000) -> GameState:
    """Seeded random play up to the first decision whose state shows every feature of ``want``."""
    state = new_game(config)
    rng = random.Random(config.seed)
    while not want <= _features(state):
        assert not state.over and len(state.history) < cap, f"no state with {want} in {config}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


MANUAL = GameConfig(num_players=3, payment="manual", destroyed_curse_destination="out", seed=34)
BASES = {
    "payment": _play_until(MANUAL, {"picks", "cure", "mods", "support"}),
    "effect": _play_until(MANUAL.replace(seed=13), {"op", "seq", "mods"}),
    "start": new_game(GameConfig(num_players=4, pack="test", seed=1, mode="fear")),
}
TEXTS = {k: s.to_json() for k, s in BASES.items()}


def _walk(x: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _walk(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _walk(v, path + (i,))


def _render(path: Path_) -> str:
    """A path as the loader's messages write it: players[1].hand[3], stack[2].decider."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "save"


def _free(path: Path_) -> bool:
    """Fields whose content the game never reads back: any value of the right type is valid."""
    return (path[:1] == ("log",) and len(path) > 2 and path[2] >= 2) or path == ("rng", 2)


def _is_seat(path: Path_) -> bool:
    if path in (("active",),) or path[:1] == ("movers",) and len(path) == 2:
        return True
    if path[:1] == ("stack",) and len(path) == 3 and path[2] in ("player", "controller", "decider", "owner"):
        return True
    return path[:1] == ("stack",) and len(path) == 5 and path[2] == "picks" and path[4] == "seat"


def _wrong_types(v: Any) -> list[Any]:
    if isinstance(v, bool):
        return [0, 1, "true", None]
    if isinstance(v, int):
        return [str(v), float(v), None, [v], True]
    if isinstance(v, str):
        return [0, None, [v], {v: 1}]
    if v is None:
        return ["none", 0.5, []]
    if isinstance(v, list):
        return [{}, "x", 0, None]
    return [[], "x", 0, None]


def _mutations(data: dict) -> dict[str, dict[tuple, list[tuple[Path_, str, Any]]]]:
    """Mutations every one of which makes the save invalid, by kind, then by field family."""
    out: dict[str, dict[tuple, list]] = {}

    def add(kind: str, path: Path_, op: str, value: Any = None) -> None:
        family = tuple("*" if isinstance(p, int) else p for p in path)
        out.setdefault(kind, {}).setdefault(family, []).append((path, op, value))

    for path, v in _walk(data):
        in_stats = path[:1] == ("stats",)
        if isinstance(v, dict) and not in_stats:
            add("add_key", path, "add")
            for k, kv in v.items():
                if not (path == ("curse_piles",) and k == "out" and not kv):
                    add("remove_key", path + (k,), "del")
        if path and not _free(path) and not (in_stats and len(path) == 1):
            for w in _wrong_types(v):
                add("wrong_type", path, "set", w)
        if type(v) is int and not _free(path):
            add("negative", path, "set", -2)
        if (
            type(v) is str
            and not _free(path)
            and path[:1] not in (("log",), ("reason",))
            and path[-1] != "target"  # a pay frame's free text
        ):
            add("unknown_id", path, "set", "no_such_card_zz")
        if _is_seat(path) and type(v) is int:
            for bad in (len(data["players"]), 99):
                add("bad_seat", path, "set", bad)
    return out


MUTATIONS = {k: _mutations(json.loads(t)) for k, t in TEXTS.items()}


def _apply(data: dict, path: Path_, op: str, value: Any) -> None:
    if op == "add":
        _get(data, path)["zz_unknown_field"] = 1
        return
    parent = _get(data, path[:-1])
    if op == "del":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


def _get(data: Any, path: Path_) -> Any:
    for p in path:
        data = data[p]
    return data


def _refused(text: str) -> SaveError:
    with pytest.raises(SaveError) as err:  # SaveError only: never KeyError, IndexError ...
        from_json(text)
    assert isinstance(err.value, ValueError)
    return err.value


def _names_the_field(msg: str, path: Path_) -> bool:
    prefixes = [_render(path[:j]) for j in range(1, len(path) + 1)]
    if any(msg.startswith(p) and msg[len(p) : len(p) + 1] in (":", ".", "[") for p in prefixes):
        return True
    if path[:1] == ("config",) and msg.startswith("pack_sha256: "):
        return True  # another pack or override named: its hash is not the one recorded
    return msg.startswith(
        ("inconsistent save: ", "save: ", "players: ", "outcome: ", "not a saved bbom state")
    )


def test_every_field_family_refuses_every_kind_of_bad_value() -> None:
    """Exhaustive over field families (players[*].hand[*], stack[*].decider ...): for each kind of bad
    value, its first and last field of each family (every wrong type of the first)."""
    wrong = []
    tried = 0
    for base, kinds in MUTATIONS.items():
        for kind, families in kinds.items():
            for muts in families.values():
                picks = muts if kind == "wrong_type" else [muts[0], muts[-1]]
                firsts = [m for m in picks if m[0] == muts[0][0]] + [muts[-1]]
                for path, op, value in firsts:
                    save = json.loads(TEXTS[base])
                    _apply(save, path, op, value)
                    tried += 1
                    try:
                        from_json(json.dumps(save))
                    except SaveError as err:
                        if not _names_the_field(str(err), path):
                            wrong.append((base, kind, _render(path), value, f"message: {err}"))
                        continue
                    wrong.append((base, kind, _render(path), value, "loaded"))
    assert tried > 1000 and not wrong, wrong[:10]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_every_invalid_field_is_refused_naming_it(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(sorted(TEXTS)), "base")
    kinds = MUTATIONS[base]
    kind = data.draw(st.sampled_from(sorted(kinds)), "kind")
    family = data.draw(st.sampled_from(sorted(kinds[kind], key=str)), "family")
    path, op, value = data.draw(st.sampled_from(kinds[kind][family]), "mutation")
    save = json.loads(TEXTS[base])
    _apply(save, path, op, value)
    err = _refused(json.dumps(save))
    assert _names_the_field(str(err), path), (kind, _render(path), str(err))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


def _near(v: Any, pool: list[str], data: st.DataObject) -> Any:
    """A value of the same type as v: what a plausible but wrong edit writes."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3, 12, 2**40]), "delta")
    if isinstance(v, str):
        return data.draw(st.sampled_from(pool), "string")
    return data.draw(json_values, "value")


@settings(max_examples=250, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_change_is_refused_or_loads_a_consistent_game(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(sorted(TEXTS)), "base")
    save = json.loads(TEXTS[base])
    leaves = list(_walk(save))
    pool = sorted({v for _, v in leaves if isinstance(v, str)})
    path = data.draw(st.sampled_from([p for p, _ in leaves if p]), "path")
    parent = _get(save, path[:-1])
    op = data.draw(st.sampled_from(["near", "near", "any", "del", "dup"]), "op")
    if op == "near":
        parent[path[-1]] = _near(parent[path[-1]], pool, data)
    elif op == "any":
        parent[path[-1]] = data.draw(json_values, "value")
    elif op == "del":
        del parent[path[-1]]
    elif isinstance(parent, list):
        parent.insert(path[-1], parent[path[-1]])
    try:
        state = from_json(json.dumps(save))
    except SaveError:
        event("refused")
        return
    event("loaded")
    check_invariants(state)  # what loads is a consistent game ...
    assert json.loads(state.to_json()) == save  # ... holding exactly what the save says
    for _ in range(3):  # ... that plays on
        if state.over:
            break
        state.apply_action(state.legal_actions()[-1])
        check_invariants(state)


# -- plain cases -------------------------------------------------------------------------------


def _save(base: str = "payment") -> dict:
    return json.loads(TEXTS[base])


def test_round_trip_of_the_bases() -> None:
    for key, state in BASES.items():
        assert from_json(TEXTS[key]) == state


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["players"][1]["deck"].__setitem__(0, 999),
            r"^players\[1\]\.deck\[0\]: unknown card code 999",
        ),
        (
            lambda d: d["players"][1]["hand"].__setitem__(3, -1),
            r"^players\[1\]\.hand\[3\]: a count cannot be neg",
        ),
        (
            lambda d: d["players"][0]["discard"].__setitem__(0, d["players"][0]["discard"][0] + 1),
            "copies of fire-1",
        ),
        (
            lambda d: d["players"][2]["spells"][0].__setitem__("spell", "spell_nope"),
            r"^players\[2\]\.spells\[0\]\.spell: unknown Spell id 'spell_nope'",
        ),
        (
            lambda d: d["stack"][-1].__setitem__("decider", 5),
            r"^stack\[\d+\]\.decider: seat 5 does not exist \(3 players",
        ),
        (lambda d: d["stack"][-1].__setitem__("player", 3), r"^stack\[\d+\]\.player: seat 3 does not exist"),
        (lambda d: d.__setitem__("active", -1), r"^active: seat -1 does not exist"),
        (lambda d: d["players"][d["stack"][-1]["decider"]].__setitem__("eliminated", True), "is eliminated"),
        (lambda d: d.pop("tokens"), r"^save: missing field\(s\) \['tokens'\]"),
        (lambda d: d["config"].pop("difficulty"), r"^config: missing field\(s\) \['difficulty'\]"),
        (lambda d: d["config"].__setitem__("num_players", 4), r"^players: expected 4 items, got 3"),
        (lambda d: d.__setitem__("players", None), r"^players: expected a list, got None"),
        (lambda d: d["stack"].insert(0, {"kind": "warp"}), r"^stack\[0\]\.kind: unknown frame kind 'warp'"),
        (
            lambda d: d["track"].__setitem__(
                0, [{"curse": "curse_nope", "neutralized_at": -1, "tokens": [0, 0, 0, 0], "madness": 0}]
            ),
            r"^track\[0\]\[0\]\.curse: unk",
        ),
        (
            lambda d: next(slot for slot in d["track"] if slot)[0].pop("tokens"),
            r"^track\[\d\]\[0\]: missing field\(s\) \['tokens'\]",
        ),
        (
            lambda d: next(p for p in d["players"] if p["support"])["support"][0].__setitem__("crushed", 99),
            r"^players\[\d\]\.support\[0\]\.crushed: unknown card code 99",
        ),
        (
            lambda d: d["stack"][-1]["picks"].append({"code": 3, "slot": 0}),
            r"^stack\[\d+\]\.picks\[\d+\]: expected a payment source",
        ),
        (lambda d: d["rng"][1].__setitem__(3, "x"), r"^rng\[1\]\[3\]: expected an int"),
        (lambda d: d.__setitem__("marker", 0), r"^marker: 0 does not fit round \d"),  # next advance: no space
        (lambda d: d["players"][0]["deck"].append(14), r"^players\[0\]\.deck\[\d+\]: unknown card code 14"),
        (lambda d: d.__setitem__("history", d["history"][:-1]), r"^movers: expected \d+ items"),
    ],
)
def test_plain_bad_saves(mutate: Any, message: str) -> None:
    save = _save()
    mutate(save)
    err = _refused(json.dumps(save))
    assert re.search(message, str(err)), str(err)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        "null",
        "42",
        '"text"',
        '{"format": "bbom-state/6"}',
        '{"format": "bbom-state/5"}',
        '{"format": "bbom-state/4"}',
        '{"format": "bbom-state/3"}',
        '{"format": "bbom-state/2"}',
        "\udcff",
    ],
)
def test_structurally_bad_json_is_refused(text: str) -> None:
    _refused(text)


@pytest.mark.parametrize("value", [None, 42, 4.5, ["x"], {"a": 1}])
def test_from_json_needs_text(value: Any) -> None:
    with pytest.raises(SaveError, match="expects the text of a save"):
        from_json(value)  # type: ignore[arg-type]


def test_save_records_the_pack_hashes() -> None:
    import hashlib

    save = _save()
    assert save["format"] == "bbom-state/6"
    assert save["pack_sha256"] == [hashlib.sha256(NAMED_PACKS["default"].read_bytes()).hexdigest()]


# Saves of formats 1 and 2 (one-letter frame keys, loaded by replay): tests/engine/test_frames.py.


# -- an edited pack ----------------------------------------------------------------------------


@pytest.fixture
def own_pack(tmp_path: Path) -> tuple[GameState, Path, Path]:
    """A game of a private copy of the test pack plus an override pack (both files editable)."""
    pack = tmp_path / "pack.toml"
    shutil.copy(NAMED_PACKS["test"], pack)
    override = tmp_path / "override.toml"
    override.write_text('[pack]\nid = "no_change"  # an override that replaces no card\n')
    state = new_game(GameConfig(num_players=2, pack=str(pack), pack_overrides=(str(override),), seed=4))
    return state, pack, override


def _edit(path: Path) -> str:
    import hashlib

    path.write_text(path.read_text() + "\n# edited after the save\n")
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("edited", ["pack", "override"])
def test_save_of_an_edited_pack_is_refused(own_pack: tuple[GameState, Path, Path], edited: str) -> None:
    state, pack, override = own_pack
    text = state.to_json()
    assert from_json(text) == state  # unchanged files: loads
    then = json.loads(text)["pack_sha256"][0 if edited == "pack" else 1]
    path = pack if edited == "pack" else override
    now = _edit(path)
    err = _refused(text)
    assert str(path) in str(err) and then in str(err) and now in str(err), str(err)


@pytest.mark.parametrize("edited", ["pack", "override"])
def test_pickle_of_an_edited_pack_is_refused(own_pack: tuple[GameState, Path, Path], edited: str) -> None:
    state, pack, override = own_pack
    blob = pickle.dumps(state)
    assert pickle.loads(blob) == state
    path = pack if edited == "pack" else override
    now = _edit(path)
    with pytest.raises(SaveError, match="cannot unpickle the state: card pack file") as err:
        pickle.loads(blob)
    assert str(path) in str(err.value) and now in str(err.value)


def test_missing_pack_file_is_refused(own_pack: tuple[GameState, Path, Path]) -> None:
    state, pack, _ = own_pack
    text = state.to_json()
    pack.unlink()
    err = _refused(text)
    assert str(pack) in str(err)
