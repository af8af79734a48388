"""The Vth Element's lines of the board picture's side panel (``svg_table.side_panel``): Dark Matter
(its supply, the Dark Curse pile, the Black Book's open spread: section 4.8) and Phobias (the
Madness pile's face-up top: section 1.3). Dark Curses stacked on a slot are drawn by the track
itself (``svg_table.track``, V-09); Phobias in a support and the cards crushed under them by the
seats (``svg_seats``).

Hidden (A-66), for every seat: the Black Book's pages after the open spread, the Dark Curse pile's
order, the Madness pile below its top."""

from __future__ import annotations

from bbom_env.engine import GameState

from .svg_kit import INK, MUTED
from .svg_table import card_name

Line = tuple[str, str]


def _dark_matter(state: GameState) -> list[Line]:
    from bbom_env.modules.dark_matter.black_book import LEFT, RIGHT, shown_spell
    from bbom_env.modules.dark_matter.content import DARK_SYMBOL
    from bbom_env.modules.dark_matter.module import used_this_turn
    from bbom_env.modules.dark_matter.state import dm_state

    st = dm_state(state)
    pile = len(state.curse_piles.get(DARK_SYMBOL, ()))
    lines: list[Line] = [(f"Dark Matter supply {st.supply}  \u00b7  Dark Curse pile {pile}", INK)]
    if st.closed:
        lines.append(("Black Book: closed", MUTED))
        return lines
    used = " (used this turn)" if used_this_turn(state) else ""
    spread = f"Black Book {st.spread + 1}/{len(st.book) - 1}{used}"
    for side, name in ((LEFT, "left"), (RIGHT, "right")):
        shown = shown_spell(state, side)
        head = f"{spread}, {name}" if side == LEFT else f"{' ' * 8}{name}"
        if shown is None:
            lines.append((f"{head}: no Black Spell", MUTED))
            continue
        pid, spell = shown
        closes = ", closes it" if spell.closes else ""
        lines.append((f"{head}: {state.pack.marked_name(pid)} ({spell.cost} DM{closes})", INK))
    return lines


def _phobias(state: GameState) -> list[Line]:
    from bbom_env.modules.phobias.state import PHOBIA_BASE

    pile = state.madness_pile
    top = card_name(state, pile[-1]) if pile else "empty"
    left = sum(1 for c in pile if c >= PHOBIA_BASE)
    return [(f"Madness pile top: {top} (face up; {left} Phobias in the pile)", INK)]


def module_lines(state: GameState) -> list[Line]:
    """The side panel's lines of the game's modules, in ``config.modules`` order."""
    out: list[Line] = []
    for name in state.config.modules:
        if name == "dark_matter":
            out += _dark_matter(state)
        elif name == "phobias":
            out += _phobias(state)
        else:  # a module this picture has no part for: say so rather than draw nothing
            out.append((f"module {name}: not drawn (the text view, str(state), shows it)", MUTED))
    return out
