"""Bad saves of module games: the module states (``ext.dark_matter``,
``ext.phobias``) and the module-shaped facts of the base state (crushed cards, stacked Curses) get
the same load-time validation as the base state: a save holding garbage there is refused with a
``SaveError`` whose message starts with the field path, before any rule reads it. Then the
property tests of test_bad_saves.py, on module saves: a field mutated with a bad value is refused
naming it; any change at all is refused or loads a consistent game that plays on, its invariants
checked after every move."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bbom_env.engine import GameConfig, SaveError, from_json, new_game
from bbom_env.engine.core.moves import layout
from bbom_env.engine.core.state import GameState
from bbom_env.engine.io.invariants import check_invariants
from bbom_env.engine.model.records import NO_CARD
from bbom_env.modules.phobias.state import PHOBIA_BASE
from tests.hardening.test_bad_saves import _apply, _get, _mutations, _near, _render, _walk, json_values

DM, PH, BOTH = ("dark_matter",), ("phobias",), ("dark_matter", "phobias")


def _features(s: GameState) -> set[str]:
    out = set()
    dm, ph = s.ext.get("dark_matter"), s.ext.get("phobias")
    if dm is not None:
        out |= {"book_used"} if dm.used_turn >= 0 else set()
        out |= {"stack"} if any(len(slot) > 1 for slot in s.track) else set()
        if any(s.pack.curses[c.curse].type == "dark_matter" for slot in s.track for c in slot):
            out.add("dark_curse")
    if ph is not None:
        out |= {"under"} if ph.under else set()
        out |= {"crushed"} if any(x.crushed != NO_CARD for p in s.players for x in p.support) else set()
        out |= (
            {"phobia_support"} if any(x.card >= PHOBIA_BASE for p in s.players for x in p.support) else set()
        )
    top = s.stack[-1] if s.stack else {}
    if top.get("kind") == "pay" and top["picks"]:
        out.add("picks")
    return out


def _play_until(config: GameConfig, want: set[str] | int) -> GameState:
    """Seeded random play to the first decision showing every feature of ``want`` (or offering the
    move id ``want``)."""
    state = new_game(config)
    rng = random.Random(config.seed)
    while not (want in state.legal_actions() if isinstance(want, int) else want <= _features(state)):
        assert not state.over and len(state.history) < 3000, f"no state with {want} in {config}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


# Module saves rich in module state (the seeds found by search): a stacked Dark Curse and a used
# Black Book; a crushed card and a Phobia under a Curse (V-29); a manual payment with both modules.
BASES = {
    "dark_matter": _play_until(GameConfig(num_players=3, seed=21, modules=DM), {"book_used", "stack"}),
    "phobias": _play_until(GameConfig(num_players=3, seed=7, modules=PH), {"crushed", "under"}),
    "both": _play_until(
        GameConfig(num_players=3, seed=0, modules=BOTH, payment="manual"), {"picks", "phobia_support"}
    ),
}
TEXTS = {k: s.to_json() for k, s in BASES.items()}
BASE_GAME = _play_until(GameConfig(num_players=3, seed=1, payment="manual"), set())


def _refused(save: dict) -> str:
    with pytest.raises(SaveError) as err:  # SaveError only: never KeyError, IndexError ...
        from_json(json.dumps(save))
    return str(err.value)


def _save(base: str) -> dict:
    return json.loads(TEXTS[base])


def _phobia_slot(d: dict) -> tuple[int, int]:
    return next(
        (i, j)
        for i, p in enumerate(d["players"])
        for j, s in enumerate(p["support"])
        if s["card"] >= PHOBIA_BASE
    )


def _boxed_phobia(d: dict) -> int:
    return next(c for c in range(PHOBIA_BASE, PHOBIA_BASE + 16) if c not in d["ext"]["phobias"]["chosen"])


def _crushed_in_base_game(d: dict) -> None:
    d["players"][0]["support"] = [{"card": 0, "crushed": 1}]  # fire-2 from the reserve under fire-1
    d["reserve1"][0] -= 1
    d["supply"][0][0] -= 1


def _phobia_under_phobia(d: dict) -> None:
    i, j = _phobia_slot(d)
    pile = d["madness_pile"]
    d["players"][i]["support"][j]["crushed"] = pile.pop(
        next(k for k, c in enumerate(pile) if c >= PHOBIA_BASE)
    )


def _boxed_phobia_to_hand(d: dict) -> None:
    code = _boxed_phobia(d)
    d["box"][code] -= 1
    d["players"][0]["hand"][code] += 1


def _chosen_plus_boxed(d: dict) -> None:
    d["ext"]["phobias"]["chosen"] = sorted([*d["ext"]["phobias"]["chosen"], _boxed_phobia(d)])


def _chosen_minus_piled(d: dict) -> None:
    d["ext"]["phobias"]["chosen"].remove(next(c for c in d["madness_pile"] if c >= PHOBIA_BASE))


def _chosen_swapped(d: dict) -> None:
    chosen = d["ext"]["phobias"]["chosen"]
    chosen.remove(next(c for c in d["madness_pile"] if c >= PHOBIA_BASE))
    d["ext"]["phobias"]["chosen"] = sorted([*chosen, _boxed_phobia(d)])


def _two_base_curses_stacked(d: dict) -> None:
    slot = next(s for s, stack in enumerate(d["track"]) if not stack)
    for t in ("fire", "water"):
        d["track"][slot].append(
            {"curse": d["curse_piles"][t].pop(), "neutralized_at": -1, "tokens": [0] * 4, "madness": 0}
        )


def _dm(d: dict, **values: int) -> None:
    d["ext"]["dark_matter"].update(values)


def _under_unknown_curse(d: dict) -> None:
    under = d["ext"]["phobias"]["under"]
    under[0] = ["curse_nope", under[0][1]]


def _book_plus_page(d: dict) -> None:
    book = d["ext"]["dark_matter"]["book"]
    book.insert(
        1, next(f"black_page_inside_{k:02}" for k in range(1, 13) if f"black_page_inside_{k:02}" not in book)
    )


D, P = "dark_matter", "phobias"
CHOSEN = r"is no Phobia of this game \(not in ext\.phobias\.chosen"
BOOK = r"^ext\.dark_matter\.book: "
CASES = [  # (base, mutation, message): each loaded and played on before
    (
        "base",
        _crushed_in_base_game,
        r"^players\[0\]\.support\[0\]\.crushed: fire-2 lies crushed under fire-1, which",
    ),
    (
        "both",
        _phobia_under_phobia,
        r"^players\[\d\]\.support\[\d\]\.crushed: phobia-\d+ is a Madness card that keeps its identity, nev",
    ),
    (P, _boxed_phobia_to_hand, r"^players\[0\]\.hand\[\d+\]: phobia-\d+ " + CHOSEN),
    (P, _chosen_plus_boxed, r"^ext\.phobias\.chosen: 13 Phobias, but a game of 3 players has 12"),
    ("both", _chosen_minus_piled, r"^ext\.phobias\.chosen: 11 Phobias, but a game of 3 players has 12"),
    ("both", _chosen_swapped, r"^madness_pile\[\d+\]: phobia-\d+ " + CHOSEN),
    (
        "base",
        _two_base_curses_stacked,
        r"^track\[\d\]\[1\]\.curse: '\w+', a \w+ Curse, lies on top of another",
    ),
    ("both", _two_base_curses_stacked, r"^track\[\d\]\[1\]\.curse: .* \(\['dark_matter'\], V-09\)"),
    (
        "dark_matter",
        _book_plus_page,
        BOOK + r"6 pages, but config\.black_book_inside_pages=3 makes a book of 5",
    ),
    (D, lambda d: d["ext"]["dark_matter"]["book"].pop(2), BOOK + r"4 pages, but config"),
    (
        "dark_matter",
        lambda d: d["config"].update(black_book_inside_pages=4),
        BOOK + r"5 pages, but config\.\w+=4 ",
    ),
    (
        "dark_matter",
        lambda d: d["config"].update(black_book_inside_pages=12),
        BOOK + r"5 pages, but config\.\w+=12",
    ),
    # Item 7: the supply named, not "0 Dark Matter cards in play".
    (D, lambda d: _dm(d, supply=-1), r"^ext\.dark_matter\.supply: -1 is not 0\.\.28"),
    (D, lambda d: _dm(d, supply=10**30), r"^ext\.dark_matter\.supply: 10{30} is not 0\.\.28"),
    (
        "dark_matter",
        lambda d: _dm(d, supply=20),
        r"expected 28 \(ext\.dark_matter\.supply holds 20",
    ),
    (
        "dark_matter",
        lambda d: _dm(d, used_turn=10**6),
        r"^ext\.dark_matter\.used_turn: 1000000",
    ),
    (P, _under_unknown_curse, r"^ext\.phobias\.under\[0\]: \('curse_nope', \d+\) is no Phobia"),
]


@pytest.mark.parametrize(("base", "mutate", "message"), CASES)
def test_module_shaped_garbage_is_refused_naming_the_field(base: str, mutate: Any, message: str) -> None:
    save = json.loads(BASE_GAME.to_json()) if base == "base" else _save(base)
    mutate(save)
    msg = _refused(save)
    assert re.search(message, msg), msg


def test_a_spread_out_of_range_is_named_where_the_menu_reads_the_book() -> None:
    """At a menu offering the Black Book its spread is read to list the pages' Actions: a spread past
    the book gave only "the pending decision cannot be evaluated (IndexError ...)"."""
    config = GameConfig(num_players=2, seed=3, modules=DM)
    state = _play_until(config, layout(DM).by_name["BLACK_BOOK_LEFT"].start)
    save = json.loads(state.to_json())
    for spread in (len(save["ext"]["dark_matter"]["book"]) - 1, 40, -1):
        save["ext"]["dark_matter"]["spread"] = spread
        assert re.match(rf"ext\.dark_matter\.spread: {spread} is not 0\.\.3$", _refused(save))


def test_round_trip_of_the_module_bases() -> None:
    for key, state in BASES.items():
        assert from_json(TEXTS[key]) == state
        assert _features(state) >= {"dark_matter": {"stack"}, "phobias": {"under"}, "both": {"picks"}}[key]


# -- property tests on module saves -------------------------------------------------------------

MUTATIONS = {k: _mutations(json.loads(t)) for k, t in TEXTS.items()}


def _names(msg: str, path: tuple) -> bool:
    """The message names the field: it starts with the path of the field or of a field holding it,
    or (a fact across fields: conservation) it names the field inside."""
    prefixes = [_render(path[:j]) for j in range(1, len(path) + 1)]
    if any(msg.startswith(p) and msg[len(p) : len(p) + 1] in (":", ".", "[") for p in prefixes):
        return True
    if path[:1] == ("ext",):
        return any(p in msg for p in prefixes[2:])
    return msg.startswith(
        ("inconsistent save: ", "save: ", "players: ", "outcome: ", "pack_sha256: ", "not a saved bbom state")
    )


def test_every_module_field_family_refuses_every_kind_of_bad_value() -> None:
    """Exhaustive over the field families of the module states (``ext.*``), the first and last
    field of each, every wrong type of the first."""
    wrong, tried = [], 0
    for base, kinds in MUTATIONS.items():
        for kind, families in kinds.items():
            for family, muts in families.items():
                if family[:1] != ("ext",):
                    continue
                picks = muts if kind == "wrong_type" else [muts[0], muts[-1]]
                for path, op, value in [m for m in picks if m[0] == muts[0][0]] + [muts[-1]]:
                    save = _save(base)
                    _apply(save, path, op, value)
                    tried += 1
                    try:
                        from_json(json.dumps(save))
                    except SaveError as err:
                        if not _names(str(err), path):
                            wrong.append((base, kind, _render(path), value, str(err)))
                        continue
                    wrong.append((base, kind, _render(path), value, "loaded"))
    assert tried > 150 and not wrong, wrong[:10]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_every_invalid_field_of_a_module_save_is_refused_naming_it(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(sorted(TEXTS)), "base")
    kinds = MUTATIONS[base]
    kind = data.draw(st.sampled_from(sorted(kinds)), "kind")
    family = data.draw(st.sampled_from(sorted(kinds[kind], key=str)), "family")
    path, op, value = data.draw(st.sampled_from(kinds[kind][family]), "mutation")
    save = _save(base)
    _apply(save, path, op, value)
    msg = _refused(save)
    assert _names(msg, path), (kind, _render(path), msg)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_change_to_a_module_save_is_refused_or_loads_a_consistent_game(data: st.DataObject) -> None:
    """Any one change, module fields drawn as often as all the others: refused with a SaveError
    (never another exception), or a game whose invariants hold, now and after each of a few moves."""
    base = data.draw(st.sampled_from(sorted(TEXTS)), "base")
    save = _save(base)
    leaves = [p for p, _ in _walk(save) if p]
    pool = sorted({v for _, v in _walk(save) if isinstance(v, str)})
    module = [p for p in leaves if p[:1] == ("ext",)]
    path = data.draw(st.sampled_from(module) | st.sampled_from(leaves), "path")
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
    check_invariants(state)
    assert json.loads(state.to_json()) == save
    rng = random.Random(len(leaves))
    for _ in range(8):
        if state.over:
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        check_invariants(state)
