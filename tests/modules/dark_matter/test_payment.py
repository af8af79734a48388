"""Dark Matter as payment (docs/rules.md sections 4.6-4.9, V-06): only for Dark Curses,
the Black Book and Spontaneous Elements, through the engine's one cost model and solver
(``payment.Cost``'s ``currency`` and ``wildcards`` parts). The rulebook's own examples."""

from __future__ import annotations

from builders import Scenario

from bbom_env.engine.model.constants import CURE_COST, element_code
from bbom_env.engine.model.records import HandSource
from bbom_env.engine.payment.auto import auto_payment
from bbom_env.engine.payment.cost import Cost, covers
from bbom_env.modules.dark_matter.actions import ACQUIRE_COST, dark_matter_cost, with_spontaneous
from bbom_env.modules.dark_matter.module import NAME, PACK, dm_state
from bbom_env.modules.dark_matter.state import DARK_MATTER

DM = DARK_MATTER
FIRE1, EARTH1, EARTH3 = element_code(0, 1), element_code(2, 1), element_code(2, 3)
EARTH_CURSE = Cost(earth=4)  # a classic Earth Curse (section 4.4)
CURE = Cost(any=CURE_COST)  # section 4.5


def test_spontaneous_element_pays_an_element_part() -> None:
    """Section 4.9, the rulebook's example: an Earth Curse destroyed with 3 value-1 Earth cards and
    2 Dark Matter cards; one Dark Matter card alone pays nothing."""
    cost = with_spontaneous(EARTH_CURSE)
    assert covers([EARTH1] * 3 + [DM, DM], cost)
    assert not covers([EARTH1] * 3 + [DM], cost)
    assert not covers([EARTH1] * 3 + [DM, DM], EARTH_CURSE)  # without the module's part: no


def test_curing_with_spontaneous_elements() -> None:
    """Section 4.5 / 4.9: 1 Element card + 2 Dark Matter, or 4 Dark Matter, cure; 2 alone do not."""
    cost = with_spontaneous(CURE)
    assert covers([FIRE1, DM, DM], cost) and covers([DM] * 4, cost)
    assert not covers([DM, DM], cost)


def test_dark_curses_and_black_spells_are_paid_only_with_dark_matter() -> None:
    """Sections 4.7, 4.8 (V-06, V-07): 4 Dark Matter destroy a Dark Curse; Element cards, whatever
    their value, never pay a Dark Matter cost, and Spontaneous Elements do not apply to it."""
    cost = dark_matter_cost(4)
    assert covers([DM] * 4, cost) and not covers([DM] * 3, cost)
    assert not covers([EARTH3] * 4 + [DM] * 3, cost)
    assert with_spontaneous(cost) == cost


def test_acquiring_dark_matter_takes_no_spontaneous_element() -> None:
    """Section 4.6: Dark Matter cannot be used to acquire Dark Matter, as a pair neither."""
    assert with_spontaneous(ACQUIRE_COST) == ACQUIRE_COST
    assert not covers([FIRE1, DM, DM], ACQUIRE_COST) and covers([FIRE1, EARTH3], ACQUIRE_COST)


def test_auto_payment_spends_element_cards_before_dark_matter_pairs(dm: None) -> None:
    """Section 4.9, docs/rules_decisions.md: the canonical auto payment pays with Element cards
    first; Dark Matter pairs only for what they cannot cover (here: nothing)."""
    sc = Scenario(pack_overrides=(PACK,), modules=(NAME,)).hand(0, "earth-1", "earth-1", "earth-1", "earth-1")
    dm_state(sc.s).supply -= 2
    sc.p(0).hand[DM] += 2
    paid = auto_payment(sc.s, 0, with_spontaneous(EARTH_CURSE), "destroy")
    assert sorted(s.code for s in paid if isinstance(s, HandSource)) == [EARTH1] * 4
