"""The players' rows and the decision panel of the board picture (``svg.py``).

What a seat sees (docs/rules.md A-66, the observation encoder's rule, docs/observation.md): every
Magician, Spell row, support (crushed cards included: A-74) and discard pile is public; a hand is
seen by its owner only (by everyone with ``observe_other_hands``, the A-66 table-talk option), the
others see its size; deck order is nobody's (sizes only). The legal moves are the decider's: another
seat sees who decides and what kind of decision it is, not the moves (they would tell the decider's
hand, e.g. which cards it can pay with). The argument of another player's ``PICK_HAND`` is hidden as
in the observation's history (the card may stay hidden, e.g. put on top of their deck)."""

from __future__ import annotations

from bbom_env.engine import GameState, decode, move_to_string, pending
from bbom_env.engine.model.constants import HAND_SIZE
from bbom_env.play_text import decision_text, move_label

from .svg_kit import (
    EXHAUSTED,
    HIGHLIGHT,
    MUTED,
    NEUTRALIZED,
    PANEL,
    PAPER,
    READY,
    SEAT_HEIGHT,
    TOP_HEIGHT,
    WIDTH,
    clip,
    data,
    group,
    rect,
    text,
)
from .svg_table import card_name, counts_text

SPELL_X, SPELL_W = 380, 144
MOVE_COLUMNS, MOVE_ROWS = 4, 6


def sees_hand(view: int | None, seat: int, observe_other_hands: bool) -> bool:
    """Whether ``view`` (None: the spectator) sees ``seat``'s hand (A-66)."""
    return view is None or view == seat or observe_other_hands


def move_text(state: GameState, move: int) -> str:
    """A move's words as the play view writes them (``play_text.move_label``: the name and the card
    it points at), read before the move is applied."""
    return move_label(state, move)


def _spell_box(state: GameState, seat: int, k: int, y: int) -> str:
    slot = state.players[seat].spells[k]
    name = state.pack.marked_name(slot.spell)
    if slot.neutralized:
        fill, status = NEUTRALIZED, f"neutralized ({slot.neutralized.replace('_', ' ')})"
    elif slot.exhausted:
        fill, status = EXHAUSTED, "exhausted"
    else:
        fill, status = READY, "ready"
    x = SPELL_X + k * SPELL_W
    body = [
        rect(x, y, SPELL_W - 6, 40, fill, stroke="#9a9a9a"),
        # Clipped to the box: a text never runs under the next box (svg_kit: texts are the top layer).
        text(x + 6, y + 16, clip(name, 18), 11, bold=True),
        text(x + 6, y + 32, clip(status, 21), 10, fill=MUTED),
    ]
    return group(body, f'class="spell" {data(seat=seat, index=k, name=name, status=status.split(" ")[0])}')


def _support_text(state: GameState, seat: int) -> str:
    """The support's slots: each card, and the card crushed under a Phobia (V-21, A-74)."""
    from bbom_env.engine.model.records import NO_CARD

    parts = []
    for slot in state.players[seat].support:
        name = card_name(state, slot.card)
        crushed = "" if slot.crushed == NO_CARD else f" (crushing {card_name(state, slot.crushed)})"
        parts.append(name + crushed)
    return ", ".join(parts) or "-"


def _mods_text(state: GameState, seat: int) -> str:
    mods = state.players[seat].mods
    return ", ".join(f"{m.modifier.get('kind', '?')} ({state.pack.marked_name(m.source)})" for m in mods)


def _flags(state: GameState, seat: int) -> list[str]:
    """The seat's status. Who decides now is the decision panel's (a row changes only when the
    seat's own things change: ``raster.py`` redraws only changed segments)."""
    pl = state.players[seat]
    flags = []
    if seat == state.active:
        flags.append("Active Player")
    if pl.eliminated:
        flags.append("eliminated")
    if pl.ability_used:
        flags.append("ability used")
    if pl.ability_lost:
        flags.append("ability lost")
    return flags


def seat_row(state: GameState, seat: int, view: int | None, observe_other_hands: bool) -> str:
    """Player ``seat``'s row: Magician, status, zone sizes, Spells, support, hand (or its size)."""
    pl = state.players[seat]
    y = TOP_HEIGHT + seat * SEAT_HEIGHT
    hand_size = sum(pl.hand)
    frame = HIGHLIGHT if seat == state.active else "none"
    magician = state.pack.marked_name(pl.magician)
    body = [
        # An eliminated player's row is greyed (its background: no shape is drawn over text, raster.py).
        rect(
            8,
            y + 4,
            WIDTH - 16,
            SEAT_HEIGHT - 8,
            NEUTRALIZED if pl.eliminated else PANEL,
            stroke=frame,
            width=3,
        ),
        text(20, y + 24, f"P{seat}", 16, bold=True),
        text(52, y + 24, clip(magician, 38), 12, bold=True, attrs=f'{data(name=magician)} class="magician"'),
        text(20, y + 42, clip(" \u00b7 ".join(_flags(state, seat)), 48), 11, fill=MUTED),
        text(
            20,
            y + 60,
            f"hand {hand_size}/{HAND_SIZE}  \u00b7  deck {len(pl.deck)}  \u00b7  discard {sum(pl.discard)}",
            12,
            attrs=f'id="sizes-{seat}"',
        ),
        text(20, y + 78, clip("discard: " + counts_text(state, pl.discard), 56), 10, fill=MUTED),
    ]
    body += [_spell_box(state, seat, k, y + 10) for k in range(len(pl.spells))]
    if not pl.spells:
        body.append(text(SPELL_X, y + 34, "no Spell", 11, fill=MUTED))
    body.append(text(SPELL_X, y + 70, clip("support: " + _support_text(state, seat), 140), 11))
    visible = sees_hand(view, seat, observe_other_hands)
    hand = counts_text(state, pl.hand) if visible else f"{hand_size} cards (hidden from P{view})"
    hand_attrs = f'id="hand-{seat}" data-visible="{int(visible)}"'
    body.append(text(SPELL_X, y + 90, clip(f"hand: {hand}", 140), 11, attrs=hand_attrs))
    mods = _mods_text(state, seat)
    if mods:
        body.append(text(SPELL_X, y + 110, clip(f"modifiers: {mods}", 140), 10, fill=MUTED))
    attrs = data(seat=seat, hand_size=hand_size, deck_size=len(pl.deck), discard_size=sum(pl.discard))
    return group(body, f'id="seat-{seat}" class="seat" {attrs} data-spells="{len(pl.spells)}"')


# -- the decision panel ---------------------------------------------------------------------------------


def last_move_text(state: GameState, view: int | None, observe_other_hands: bool) -> str:
    """Who took the last move and which (its block and argument: the card it pointed at is no longer
    where it was, so no gloss); another player's PICK_HAND without its card (A-66)."""
    if not state.history:
        return "no move yet"
    move, seat = state.history[-1], state.movers[-1]
    words = move_to_string(move, state.config.modules)
    hidden = not sees_hand(view, seat, observe_other_hands)
    if hidden and decode(move, state.config.modules).block == "PICK_HAND":
        words = "PICK_HAND(a card of their hand)"
    return f"P{seat} {words}"


def _moves(state: GameState, view: int | None, decider: int, y: int) -> list[str]:
    legal = state.legal_actions()
    if view is not None and view != decider:
        return [text(20, y + 16, f"P{decider} decides; their legal moves are theirs to see.", 11, fill=MUTED)]
    shown = MOVE_COLUMNS * MOVE_ROWS
    body = [text(20, y + 2, f"legal moves ({len(legal)}):", 11, bold=True)]
    for i, move in enumerate(legal[:shown]):
        col, row = divmod(i, MOVE_ROWS)
        x, y_row = 28 + col * 310, y + 18 + row * 15
        if i == shown - 1 and len(legal) > shown:
            body.append(text(x, y_row, f"... and {len(legal) - shown + 1} more", 11, fill=MUTED))
            break
        body.append(text(x, y_row, clip(f"#{move} {move_text(state, move)}", 44), 11, attrs=data(move=move)))
    return body


def decision_panel(state: GameState, view: int | None, observe_other_hands: bool) -> str:
    n = len(state.players)
    y = TOP_HEIGHT + n * SEAT_HEIGHT
    d = pending(state)
    body = [rect(8, y + 4, WIDTH - 16, 152, PAPER, stroke="#b9b2a3")]
    if state.over:
        line = f"Game over: {state.outcome} ({state.reason})"
    else:
        line = f"Decision: P{d.player} \u00b7 {decision_text(state)}"
    body.append(text(20, y + 24, clip(line, 150), 13, bold=True))
    last = "Last move: " + last_move_text(state, view, observe_other_hands)
    body.append(text(20, y + 42, clip(last, 150), 11))
    if not state.over:
        body += _moves(state, view, d.player, y + 62)
    attrs = data(kind=d.kind, decider=d.player, history=len(state.history))
    if view is None or view == d.player:  # how many moves there are tells the decider's hand too
        attrs += " " + data(legal=len(state.legal_actions()))
    return group(body, f'id="decision" {attrs}')
