"""The table's segments of the board picture (``svg.py``): the title bar, the Invocation track with
its Curses, and the side panel (Grimoire, Library tops, supply, Madness pile, the modules' parts).

What a seat sees (docs/rules.md A-66; the observation's rule, docs/observation.md): the track, the open
Grimoire spread, the Library tops, the supply and the piles' sizes are public. The Grimoire's
face-down pages are drawn for the spectator only."""

from __future__ import annotations

from bbom_env.engine import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, PHASE_NAMES, ROUNDS, code_name
from bbom_env.engine.model.records import CurseOnTrack
from bbom_env.modules.phobias.state import PHOBIA_BASE

from .svg_kit import (
    HIGHLIGHT,
    INK,
    MUTED,
    NEUTRALIZED,
    PANEL,
    PAPER,
    TYPE_COLOURS,
    WIDTH,
    clip,
    data,
    group,
    rect,
    text,
)

TRACK_X, TRACK_Y = 16, 40
# The track's columns left to right: (space, slot or None, width). Space 0 is the Invocation space;
# space 1 has no Curse slot; space 3 has two (S3L, S3R: docs/rules.md section 3.3.1, A-01).
COLUMNS: tuple[tuple[int, int | None, int], ...] = (
    (0, None, 80),
    (1, None, 80),
    (2, 0, 136),
    (3, 1, 136),
    (3, 2, 136),
    (4, 3, 136),
    (5, 4, 136),
)
SLOT_NAMES = ("S2", "S3L", "S3R", "S4", "S5")
CURSE_H = 62
SIDE_X = 872
LINE = 13  # the side panel's line height


def card_name(state: GameState, code: int) -> str:
    """A card code's name: an Element card as ``fire-2``; a Phobia by its card's marked name (the
    text views say ``phobia-3``: the picture has room for the name)."""
    if code >= PHOBIA_BASE and "phobias" in state.config.modules:
        from bbom_env.modules.phobias.content import phobia_codes

        by_code = {c: pid for pid, c in phobia_codes(state.pack.sections).items()}
        if code in by_code:
            return state.pack.marked_name(by_code[code])
    return code_name(code)


def counts_text(state: GameState, counts: list[int]) -> str:
    """A count vector (hand, discard) as ``fire-2 x2, earth-1``; "-" when empty."""
    parts = [card_name(state, c) + (f" x{n}" if n > 1 else "") for c, n in enumerate(counts) if n]
    return ", ".join(parts) or "-"


# -- the title bar -----------------------------------------------------------------------------------


def title(state: GameState, view: int | None) -> str:
    cfg = state.config
    phase = PHASE_NAMES[state.phase] if 0 <= state.phase < len(PHASE_NAMES) else str(state.phase)
    head = (
        f"Turn {state.turn}  \u00b7  Round {state.round}/{ROUNDS}  \u00b7  {phase} phase  \u00b7  "
        f"Active Player P{state.active}"
    )
    modules = ", ".join(cfg.modules) if cfg.modules else "base game"
    setup = f"{len(state.players)} players \u00b7 level {cfg.difficulty} \u00b7 {cfg.mode} \u00b7 {modules}"
    who = "spectator (sees everything)" if view is None else f"seat P{view}'s view"
    body = [
        rect(0, 0, WIDTH, 32, PANEL, rx=0),
        text(16, 22, head, 15, bold=True),
        text(WIDTH - 16, 14, setup, 11, fill=MUTED, anchor="end"),
        text(WIDTH - 16, 28, who, 11, fill=MUTED, anchor="end", attrs='id="view-label"'),
    ]
    if state.over:  # the reason is the decision panel's
        body[1] = text(
            16, 22, f"GAME OVER: {state.outcome.upper()}  \u00b7  {head}", 15, bold=True, fill="#a01010"
        )
    attrs = data(turn=state.turn, round=state.round, phase=phase, active=state.active)
    return group(body, f'id="title" {attrs} data-over="{int(state.over)}" data-outcome="{state.outcome}"')


# -- the Invocation track ------------------------------------------------------------------------------


def _space_label(space: int, slot: int | None) -> str:
    if space == 0:
        return "Invocation"
    return f"space {space}" + (f" {SLOT_NAMES[slot]}" if slot is not None else "")


def _curse_card(state: GameState, curse: CurseOnTrack, slot: int, pos: int, x: int, y: int, w: int) -> str:
    pack = state.pack
    card = pack.curses.get(curse.curse)
    ctype = card.type if card is not None else "?"
    name = pack.marked_name(curse.curse)
    neutralized = curse.neutralized_at >= 0
    colour = TYPE_COLOURS.get(ctype, MUTED)
    body = [
        rect(x, y, w, CURSE_H - 4, NEUTRALIZED if neutralized else PAPER, stroke=colour, width=3),
        text(x + 6, y + 16, clip(name, 16), 12, bold=True, fill=MUTED if neutralized else INK),
        text(x + 6, y + 31, ctype.replace("_", " ") + (" \u00b7 neutralized" * neutralized), 10, fill=colour),
    ]
    extra = []
    if any(curse.tokens):
        per = (f"{ELEMENT_NAMES[e][0].upper()}{n}" for e, n in enumerate(curse.tokens))
        extra.append("tokens " + " ".join(per))
    if curse.madness:
        extra.append(f"madness under {curse.madness}")
    if extra:
        body.append(text(x + 6, y + 46, clip(" \u00b7 ".join(extra), 22), 10, fill=INK))
    attrs = data(slot=slot, pos=pos, name=name, curse=curse.curse, neutralized=int(neutralized))
    attrs += " " + data(tokens=",".join(map(str, curse.tokens)), madness=curse.madness)
    return group(body, f'class="curse" {attrs}')


def track(state: GameState) -> str:
    """The Round track's spaces 0..5, the Invocation marker, and each slot's Curses, top first (a
    Dark Curse stacks on a slot: V-09)."""
    body = [text(TRACK_X, TRACK_Y + 8, "Invocation track", 11, fill=MUTED)]
    x = TRACK_X
    y = TRACK_Y + 14
    drawn = False  # space 3 has two columns: one marker
    for space, slot, w in COLUMNS:
        at_marker = space == state.marker
        body.append(rect(x, y, w - 4, 26, HIGHLIGHT if at_marker else PANEL))
        body.append(text(x + 6, y + 17, _space_label(space, slot), 11, bold=at_marker))
        if at_marker and not drawn:
            drawn = True
            dot = f'<circle cx="{x + w - 16}" cy="{y + 13}" r="7" fill="{INK}"/>'
            body.append(group([dot], f'id="marker" {data(space=state.marker)}'))
        if slot is not None:
            stack = state.track[slot]
            for pos, curse in enumerate(reversed(stack)):
                body.append(_curse_card(state, curse, slot, pos, x, y + 32 + pos * CURSE_H, w - 4))
        x += w
    return group(body, f'id="track" {data(marker=state.marker, curses=state.curses_on_track())}')


# -- the side panel -------------------------------------------------------------------------------------


def _symbols(state: GameState, page_id: str) -> str:
    page = state.pack.pages.get(page_id)
    monster = page.monster if page is not None else None
    return ", ".join(s.replace("_", " ") for s in monster.curse_symbols) if monster else "-"


def _grimoire_lines(state: GameState, view: int | None) -> list[tuple[str, str]]:
    """(text, colour) lines about the Grimoire: the open spread (section 1.5); the pages ahead are
    face down (A-66): the spectator's only."""
    r = state.round
    if r == 0:
        return [("closed: opens at the first Monster phase", INK)]
    left = state.grimoire[r - 1]
    lines = [(f"Monster: {state.pack.marked_name(left)} ({_symbols(state, left)})", INK)]
    if r < len(state.grimoire):
        right = state.grimoire[r]
        lines.append((f"right page: next symbols {_symbols(state, right)}", MUTED))
        ahead = state.grimoire[r:]
        if view is None and ahead:
            names = ", ".join(state.pack.marked_name(p) for p in ahead)
            lines.append((f"face down ahead: {names}", MUTED))
    return lines


def _supply_lines(state: GameState) -> list[tuple[str, str]]:
    piles = "  ".join(f"{ELEMENT_NAMES[e]} {s[0]}/{s[1]}" for e, s in enumerate(state.supply))
    tokens = " ".join(f"{ELEMENT_NAMES[e]} {n}" for e, n in enumerate(state.tokens))
    reserve = "/".join(str(n) for n in state.reserve1)
    curse_piles = " ".join(f"{t.split('_')[0]} {len(p)}" for t, p in state.curse_piles.items())
    return [
        (f"cards of value 2/3: {piles}", INK),
        (f"Element tokens: {tokens}", INK),
        (f"Madness pile {len(state.madness_pile)}  \u00b7  value-1 reserve {reserve}", INK),
        (f"Curse piles: {curse_piles}", INK),
    ]


def _module_lines(state: GameState) -> list[tuple[str, str]]:
    from .svg_modules import module_lines  # the Vth Element's parts (imported only for them)

    return module_lines(state) if state.config.modules else []


def side_panel(state: GameState, view: int | None) -> str:
    x, y = SIDE_X, TRACK_Y
    body = [rect(x - 6, y - 4, WIDTH - x - 10, 248, PANEL)]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("Grimoire", _grimoire_lines(state, view)),
        ("Library tops", []),
        ("Supply", _supply_lines(state)),
    ]
    mods = _module_lines(state)
    if mods:
        sections.append(("Vth Element", mods))
    y += 12
    for head, lines in sections:
        body.append(text(x, y, head, 11, bold=True))
        y += LINE
        if head == "Library tops":
            y = _library(state, x, y, body)
        for line, colour in lines:
            body.append(text(x + 8, y, clip(line, 66), 10, fill=colour))
            y += LINE - 1
    tops = ",".join(pile[-1] if pile else "" for pile in state.library)
    return group(body, f'id="side" {data(library_tops=tops, madness_pile=len(state.madness_pile))}')


def _library(state: GameState, x: int, y: int, body: list[str]) -> int:
    """The top Spell of each Library pile, in its Element's colour (the cards below are hidden)."""
    for e, pile in enumerate(state.library):
        col, row = e % 2, e // 2
        name = f"{state.pack.marked_name(pile[-1])} ({len(pile)})" if pile else "empty"
        colour = TYPE_COLOURS[ELEMENT_NAMES[e]]
        line = clip(f"{ELEMENT_NAMES[e]}: {name}", 32)
        body.append(text(x + 8 + col * 196, y + row * (LINE - 1), line, 10, fill=colour))
    return y + 2 * (LINE - 1)
