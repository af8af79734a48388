"""The named constants and lookup tables of constants.py agree with what they name: the card-code
helpers (section 1.4), the Cost record's fields and the action layout."""

from bbom_env.engine.actions import base as actions
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import (
    CODE_COUNT_INDEX,
    CODE_ELEMENT,
    CODE_VALUE,
    COST_ANY,
    COST_PARTS,
    ELEMENT_CODES,
    ELEMENTS,
    NO_ELEMENT,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    NUM_ELEMENTS,
    NUM_VALUES,
    code_element,
    code_value,
    element_code,
)
from bbom_env.engine.payment.cost import Cost


def test_card_code_tables_match_the_helpers():
    assert NUM_ELEMENTS == len(ELEMENTS) and NUM_ELEMENT_CODES == NUM_ELEMENTS * NUM_VALUES
    assert len(CODE_ELEMENT) == len(CODE_VALUE) == NUM_CODES
    for code in range(NUM_CODES):
        if code < NUM_ELEMENT_CODES:
            e, v = code_element(code), code_value(code)
            assert element_code(e, v) == code
            assert CODE_ELEMENT[code] == e and CODE_VALUE[code] == v
            assert CODE_COUNT_INDEX[code] == (e, v - 1)
            assert ELEMENT_CODES[e][v - 1] == code
        else:  # not an Element card: no Element index matches, no value
            assert CODE_ELEMENT[code] == NO_ELEMENT and NO_ELEMENT not in range(NUM_ELEMENTS)
            assert CODE_VALUE[code] == 0


def test_cost_indices_name_the_cost_fields():
    assert Cost._fields[:COST_PARTS] == ("fire", "water", "earth", "air", "any")
    assert Cost._fields[COST_ANY] == "any"
    assert Cost(any=3)[COST_ANY] == 3


def test_menu_move_tables_match_encode_and_decode():
    for i, row in enumerate(actions._ACTIVATE_MOVES):
        for x, move in zip(actions.POWERS, row, strict=True):
            mv = M.decode(move)
            assert (mv.block, mv.args.spell, mv.args.x) == ("ACTIVATE", i, x)
    for e, row in enumerate(actions._ACQUIRE_MOVES):
        for v, move in zip((2, 3), row, strict=True):
            mv = M.decode(move)
            assert (mv.block, mv.args.element, mv.args.value) == ("ACQUIRE", e, v)
