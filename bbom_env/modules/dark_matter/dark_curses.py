"""Dark Curses (docs/rules.md sections 3.3.3, 4.7, 9.1; V-07 to V-11; A-45 to A-48).

A Dark Curse is a base ``cards.Curse`` of type ``"dark_matter"`` (``content.DARK_SYMBOL``), placed
by a Monster's Dark Matter symbol with the base placement rules (``flow.run_place``). What differs
from the base Curses is said by one ``rules.CurseRule`` (``CURSE_RULES``), which the engine reads:

* **Destroy** (section 4.7, V-07): the base Destroy Action (``DESTROY_CURSE``, any face-up Curse at
  any stack position, section 4.4) at the Dark Curse's own cost, its section card's ``cost`` (4)
  in Dark Matter cards only (``actions.dark_matter_cost``: no Element, no Spontaneous Element);
  then the normal reward, a value-2 Element card of the player's choice, never Dark Matter (A-48,
  A-09, A-10); the Dark Curse goes to the bottom of the Dark Curse pile (A-08; or out with
  ``destroyed_curse_destination``). Statistic ``dark_curses_destroyed``.
* **Effects** that destroy "a Curse" (the ``destroy_curse`` op: Spells, the Black Book) cannot
  pick a Dark Curse unless ``GameConfig.dark_curse_destroy_by_effect`` (V-07); neutralizing can.
* **Element tokens** never go on a Dark Curse (V-08): "at random" and "every Curse" token effects
  skip it.

Stacks (V-09, A-45, A-46) are the base track's: ``state.track[slot]`` lists of at most
``MAX_STACK`` Curses; entering a space triggers its Curses left slot then right, each stack top
first (``flow.advance``). The three known Dark Curse texts:

* "All players lose their Ability until the next Monster." (V-10, A-68, V-27): the base
  ``modifier`` op with a ``lose_ability`` modifier lasting ``until_next_monster``; the lost
  capacities react at once (``engine/py``: the blue Magician discards support cards down to
  her printed 3, the green Magician puts a Spell of his choice in the box); the modifier ends at
  the page turn (``flow.run_expire``, A-68), so capacities come back, the discarded cards and lost
  Spells do not.
* "All players discard 1 Element card of value 2 or 3 ..." (V-11, A-47): op ``break_card``.
* "Add 1 Dark Curse to the next Curse space." (V-09, A-45): op ``add_dark_curse``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbom_env.engine.ext import (
    OPS,
    PICK_HAND,
    TARGETS,
    CurseRule,
    GameConfig,
    PackIndex,
    auto_op,
    done,
    lookup,
    standing_surcharge,
)
from bbom_env.engine.model.constants import (
    LAST_SPACE,
    MAX_STACK,
    NUM_ELEMENT_CODES,
    SLOTS_OF_SPACE,
    SPACE_OF_SLOT,
    code_element,
    code_value,
    element_code,
)
from bbom_env.engine.model.records import CurseOnTrack

from .actions import dark_matter_cost
from .content import DARK_CURSE, DARK_SYMBOL
from .state import NAME, dm_state

if TYPE_CHECKING:
    from bbom_env.engine.ext import Cost, GameState, Pack

STAT = "dark_curses_destroyed"


def dark_curse_cost(state: GameState, p: int, curse: CurseOnTrack) -> Cost:
    """Section 4.7, V-07: the Dark Curse's printed cost (4) in Dark Matter cards only; A-49: a
    standing "matching Element" destroy surcharge of the payer (the Phobia "Destroying a Curse
    costs you 1 additional matching Element", ``hooks.standing_surcharge``: 0 without a module
    modifier source) adds as many Dark Matter cards."""
    extra = standing_surcharge(state, p, "destroy")
    printed = _PRINTED(state.pack)[curse.curse]
    return dark_matter_cost(printed.currency + extra) if extra else printed


def _printed_costs(pack: Pack) -> dict[str, Cost]:
    """Each Dark Curse's printed cost (section 4.7), by Curse id: built once per pack."""
    return {cid: dark_matter_cost(c.cost) for cid, c in pack.sections[DARK_CURSE.name].items()}


_PRINTED: PackIndex[dict[str, Cost]] = PackIndex(_printed_costs)


def _by_effect(config: GameConfig) -> bool:
    return bool(config.switch("dark_curse_destroy_by_effect"))  # V-07 switch (default False)


CURSE_RULES: tuple[CurseRule, ...] = (
    CurseRule(
        DARK_SYMBOL,
        dark_curse_cost,
        by_effect=_by_effect,
        tokens=False,
        stat=STAT,
        stacks=True,  # V-09: added on top of the Curse of an occupied space (``_add_dark_curse``)
    ),
)


# -- "Add 1 Dark Curse to the next Curse space." (V-09, A-45) ----------------------------------

ADD_DARK_CURSE = "add_dark_curse"
ADD_DARK_CURSE_SCHEMA: dict = {}  # a board effect: the Active Player resolves it once (V-25: never doubled)


def next_space_slot(state: GameState, space: int) -> int | None:
    """The track slot a Dark Curse added "to the next Curse space" after ``space`` goes to
    (V-09, A-45): None from space 5 (the Invocation space comes next) or when every slot of the
    next space is ``MAX_STACK`` deep. An empty slot is filled, the left one first; else the new
    Curse goes on top of a stack, on space 3 the right slot's unless it is full."""
    if space >= LAST_SPACE:
        return None
    slots = SLOTS_OF_SPACE[space + 1]
    for slot in slots:
        if not state.track[slot]:
            return slot
    for slot in reversed(slots):
        if len(state.track[slot]) < MAX_STACK:
            return slot
    return None


def _source_slot(state: GameState, cid: str) -> int | None:
    for slot, stack in enumerate(state.track):
        if any(c.curse == cid for c in stack):
            return slot
    return None


def _add_dark_curse(state: GameState, f: dict, op: dict) -> None:
    """V-09, A-45: the next Dark Curse of the pile onto the next Curse space after the triggering
    Curse's own (the effect's ``source``, found on the track). Nothing when the pile is empty, the
    space is full, the source is on space 5, or the source is not on the track (another card's
    effect has no "next" space)."""
    slot = _source_slot(state, f["source"])
    if slot is None:
        return
    pile = state.curse_piles.get(DARK_SYMBOL)
    target = next_space_slot(state, SPACE_OF_SLOT[slot])
    if not pile or target is None:
        return
    cid = pile.pop()  # the top of the pile (the base placement draws the same end, flow.run_place)
    state.track[target].append(CurseOnTrack(cid))
    state.event("dark_curse_added", target, cid)


auto_op(ADD_DARK_CURSE, _add_dark_curse)


# -- "All players discard 1 Element card of value 2 or 3 ..." (V-11, A-47) --------------------

BREAK_CARD = "break_card"
BREAK_CARD_SCHEMA = {"target": (TARGETS, "each")}


def _break_options(state: GameState, f: dict) -> list[int]:
    """The value-2/3 Element cards of the player's hand (Dark Matter is no Element: never)."""
    hand = state.players[f["player"]].hand
    return [PICK_HAND + c for c in range(NUM_ELEMENT_CODES) if hand[c] and code_value(c) >= 2]


def _last_of_its_op(state: GameState, f: dict) -> bool:
    """Whether f was the last player's frame of its op: the target frame pushed one op frame per
    player (section 8.3), so the next one, if any, is on top of the stack now that f is done."""
    if not state.stack:
        return True
    top = state.stack[-1]
    return not (
        top["kind"] == "op"
        and top["source"] == f["source"]
        and top["part"] == f["part"]
        and top["path"] == f["path"]
    )


def _run_break(state: GameState, f: dict, op: dict) -> None:
    if not state.players[f["player"]].eliminated and _break_options(state, f):
        f["decider"] = f["player"]  # V-11: the player chooses which card
        return
    done(state, f)  # no value-2/3 card in hand: nothing for this player (V-11)
    if _last_of_its_op(state, f):
        deal_owed(state)


def _legal_break(state: GameState, f: dict, op: dict) -> list[int]:
    return _break_options(state, f)


def _answer_break(state: GameState, f: dict, op: dict, move: int) -> None:
    """A-47: the chosen card is destroyed; its value in value-1 cards is owed (dealt once every
    player has chosen, V-11). A player for whom the Curse is doubled (V-25) gets a second frame
    and owes the sum."""
    done(state, f)
    p, code = f["player"], move - PICK_HAND
    state.players[p].hand[code] -= 1
    state.destroyed[code] += 1
    dm_state(state).owed.append((p, code_element(code), code_value(code)))
    state.event("break_card", p, code)
    if _last_of_its_op(state, f):
        deal_owed(state)


OPS[BREAK_CARD] = (_run_break, _legal_break, _answer_break)


def deal_owed(state: GameState) -> None:
    """V-11: the value-1 cards owed, from the value-1 reserve to the discard piles, one card at a
    time round-robin over the players in choice order (turn order from the Active Player) until
    each has what they are owed or the reserve of that Element is empty."""
    st = dm_state(state)
    if not st.owed:
        return  # nobody had a value-2/3 card
    owed = [[p, e, n] for p, e, n in st.owed]
    st.owed = []
    seats = list(dict.fromkeys(p for p, _e, _n in owed))
    given = True
    while given:
        given = False
        for p in seats:
            for entry in owed:  # this player's first debt the reserve can still pay
                if entry[0] == p and entry[2] > 0 and state.reserve1[entry[1]] > 0:
                    state.reserve1[entry[1]] -= 1
                    state.players[p].discard[element_code(entry[1], 1)] += 1
                    entry[2] -= 1
                    given = True
                    break
    short = [(p, e, n) for p, e, n in owed if n > 0]
    state.event("break_card_dealt", tuple(short))


# -- invariants -----------------------------------------------------------------------------------


def check_dark_curses(state: GameState) -> None:
    """V-11 debts exist only while a ``break_card`` op is pending (each a seat, an Element and a
    value of 2 or 3: ``checks.check_fields``); no Element token lies on a Dark Curse (V-08)."""
    st = dm_state(state)
    if st.owed and not any(
        fr["kind"] == "op" and fr["source"] in state.pack.curses and _op_name(state, fr) == BREAK_CARD
        for fr in state.stack
    ):
        raise AssertionError(f"{NAME}: ext.{NAME}.owed: {st.owed} with no pending {BREAK_CARD} op")
    for slot, stack in enumerate(state.track):
        for curse in stack:
            if state.pack.curses[curse.curse].type == DARK_SYMBOL and any(curse.tokens):
                raise AssertionError(
                    f"{NAME}: track slot {slot}: Dark Curse {curse.curse} holds Element tokens (V-08)"
                )


def _op_name(state: GameState, fr: dict) -> str:
    return str(lookup(state, fr)["op"])


OP_NAMES: tuple[str, ...] = (ADD_DARK_CURSE, BREAK_CARD)
OP_SCHEMAS = ((ADD_DARK_CURSE, ADD_DARK_CURSE_SCHEMA), (BREAK_CARD, BREAK_CARD_SCHEMA))
# A waiting op's decision is named after the op (decision.pending): the observation must know it.
DECISION_KINDS: tuple[str, ...] = (BREAK_CARD,)
