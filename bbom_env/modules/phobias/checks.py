"""The Phobia module's state checked field by field (``rules.Module.save_checks``): what a loaded
save must hold before any rule reads it, and what every decision keeps (the module lists the check
among its invariants too). Each failure is an AssertionError whose message starts with the field
path; ``from_json`` raises it as a ``SaveError``. That every Phobia exists once is
``module.check_phobias``', which runs after; a crushed card lies only under a Phobia and is never
one (the engine's own save check and invariants, section 9.2)."""

from __future__ import annotations

from bbom_env.engine.ext import GameState
from bbom_env.engine.model.constants import code_name

from .state import COMPOSITION, NAME, NUM_PHOBIAS, PHOBIA_BASE, ph_state

WHERE = f"ext.{NAME}"
PHOBIA_CODES = tuple(range(PHOBIA_BASE, PHOBIA_BASE + NUM_PHOBIAS))


def check_fields(state: GameState) -> None:
    """``chosen``: the game's Phobias, sorted, as many as section 1.3 deals for the player count; every
    other Phobia lies in the box and nowhere else (A-77). ``under``: each a Phobia of this game under
    a Curse on the track (V-29)."""
    st = ph_state(state)
    for i, code in enumerate(st.chosen):
        if code not in PHOBIA_CODES:
            raise AssertionError(
                f"{WHERE}.chosen[{i}]: {code} is no Phobia code ({PHOBIA_CODES[0]}..{PHOBIA_CODES[-1]})"
            )
    if st.chosen != sorted(set(st.chosen)):
        raise AssertionError(f"{WHERE}.chosen: {st.chosen} are not distinct Phobia codes, sorted")
    n = len(state.players)
    want = COMPOSITION[n][0]
    if len(st.chosen) != want:
        raise AssertionError(
            f"{WHERE}.chosen: {len(st.chosen)} Phobias, but a game of {n} players has {want} (section 1.3)"
        )
    chosen = set(st.chosen)
    for code in PHOBIA_CODES:
        if code in chosen:
            continue
        found = held(state, code)
        if found:
            raise AssertionError(
                f"{found[0]}: {code_name(code)} is no Phobia of this game (not in {WHERE}.chosen: it stays "
                "in the box, A-77)"
            )
        if state.box[code] != 1:
            raise AssertionError(
                f"box[{code}]: {state.box[code]} copies of {code_name(code)}, a Phobia left in the box (A-77)"
            )
    on_track = {curse.curse for stack in state.track for curse in stack}
    for k, (cid, code) in enumerate(st.under):
        if cid not in on_track or code not in chosen:
            raise AssertionError(
                f"{WHERE}.under[{k}]: ({cid!r}, {code}) is no Phobia of the game under a Curse of the track"
            )


def held(state: GameState, code: int) -> list[str]:
    """The field paths of every place outside the box that holds card ``code``, in save order."""
    out: list[str] = []
    for i, pl in enumerate(state.players):
        where = f"players[{i}]"
        out += [f"{where}.deck[{k}]" for k, c in enumerate(pl.deck) if c == code]
        out += [f"{where}.{zone}[{code}]" for zone in ("hand", "discard") if getattr(pl, zone)[code]]
        for j, slot in enumerate(pl.support):
            out += [
                f"{where}.support[{j}].{part}" for part in ("card", "crushed") if getattr(slot, part) == code
            ]
    out += [f"madness_pile[{k}]" for k, c in enumerate(state.madness_pile) if c == code]
    out += [f"destroyed[{code}]"] if state.destroyed[code] else []
    out += [f"{WHERE}.under[{k}]" for k, (_cid, c) in enumerate(ph_state(state).under) if c == code]
    return out
