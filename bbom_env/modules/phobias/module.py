"""The Phobia module (docs/rules.md sections 1.3, 9.2; V-19 to V-41;
docs/vth_element.md): its ``rules.Module``, state, setup, Madness identity and invariants.

``bbom_env.modules`` registers it on ``import bbom_env``, so ``GameConfig(modules=("phobias",))``
plays it; ``registered()`` makes sure it is for a ``with`` block (after a test unregistered it).
Here: the face-up Madness pile of section 1.3 (``setup_pile``), Madness cards that keep their
identity (cured ones under the pile, those under Curses: V-29) and the conservation invariant.
Elsewhere in the package: the cards (``content.py``), placement in supports with crushing and
elimination (``placement.py``), the constraints as the module's modifier source
(``constraints.py``), the Water Magician's move (``move.py``, V-19, with Dark Matter too).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from bbom_env.engine.ext import Cost, GameConfig, GameState, Module, PackIndex, Switch, card_totals
from bbom_env.engine.ext import registered as rules_registered
from bbom_env.engine.model.constants import CURE_COST, MADNESS, MADNESS_IN_BOX, code_name, madness_pile_size
from bbom_env.engine.model.records import SupportSlot

from . import checks, constraints, move, placement
from .content import SECTIONS, phobia_codes
from .state import COMPOSITION, NAME, NUM_PHOBIAS, PHOBIA_BASE, PhobiaState, ph_state

__all__ = ["NAME", "COMPOSITION", "PhobiaState", "ph_state", "PHOBIA_MODULE", "registered"]

PACK = str(Path(__file__).resolve().parents[2] / "data" / "vth_phobias.toml")
PHOBIA_CODES = tuple(range(PHOBIA_BASE, PHOBIA_BASE + NUM_PHOBIAS))
STATS = ("phobia_eliminations", "cards_crushed", "phobias_moved")


# -- setup (section 1.3) -----------------------------------------------------------------------------

# The pack's Phobia card codes, sorted, once per pack (every new game built and sorted them again).
_PHOBIA_CODES: PackIndex[tuple[int, ...]] = PackIndex(
    lambda pk: tuple(sorted(phobia_codes(pk.sections).values()))
)


def setup_pile(state: GameState) -> None:
    """Section 1.3, A-77: the Madness pile rebuilt as (Phobias, Madness) by player count, the
    Phobias a random subset of the 16 (the rest to the box), shuffled, face up (the top,
    ``state.madness_pile[-1]``, is public). Runs after the base setup, so these draws come after
    every base draw of the RNG.

    Fear mode (section 2.4): the base setup put one Madness from the pile into each deck. With
    Phobias those cards come from this pile, dealt one at a time from the first player (V-24);
    a Phobia among them takes the place of that plain Madness (in the deck, or in the opening
    hand, where it is placed at once: V-23; the support is empty, so a free slot takes it)."""
    n = state.config.num_players
    phobias, madness = COMPOSITION[n]
    codes = _PHOBIA_CODES(state.pack)
    chosen = sorted(state.rng.sample(codes, phobias))
    pile = chosen + [MADNESS] * madness
    state.rng.shuffle(pile)
    dealt = madness_pile_size(n) - len(state.madness_pile)  # Fear: one per player, else none
    for k in range(dealt):
        _swap_fear_madness(state, (state.active + k) % n, pile.pop())
    state.madness_pile = pile
    state.box[MADNESS] = MADNESS_IN_BOX - madness
    for c in codes:
        state.box[c] = 0 if c in chosen else 1
    ph_state(state).chosen = chosen


def _swap_fear_madness(state: GameState, p: int, code: int) -> None:
    if code == MADNESS:
        return
    pl = state.players[p]
    if MADNESS in pl.deck:
        pl.deck[pl.deck.index(MADNESS)] = code
        return
    pl.hand[MADNESS] -= 1  # drawn in the opening hand: V-23, placed right after the opening draw
    pl.support.append(SupportSlot(code))


# -- V-29: Phobias under Curses keep their identity -------------------------------------------------


def under_curse(state: GameState, curse: str, code: int) -> bool:
    if code < PHOBIA_BASE:
        return False
    ph_state(state).under.append((curse, code))
    return True


def from_curse(state: GameState, curse: str) -> list[int]:
    st = ph_state(state)
    kept = [c for cid, c in st.under if cid == curse]
    if kept:
        st.under = [(cid, c) for cid, c in st.under if cid != curse]
    return kept


# -- invariants -------------------------------------------------------------------------------------


def phobia_totals(state: GameState) -> dict[int, int]:
    """Copies of each Phobia code over every zone: the pile, hands, decks, discard piles,
    supports (crushed cards too), under Curses, the box and the destroyed cards."""
    totals = card_totals(state)
    for _cid, code in ph_state(state).under:
        totals[code] += 1
    return {c: totals[c] for c in PHOBIA_CODES}


def check_phobias(state: GameState) -> None:
    """Every Phobia exists once (section 1.2: 16 cards; plain Madness: the base invariant). The
    module state's own fields (``chosen``, ``under``) are ``checks.check_fields``', which runs
    first; crushed cards, only under Phobias, are the engine's (section 9.2)."""
    for code, n in phobia_totals(state).items():
        if n != 1:
            raise AssertionError(f"phobias: {n} copies of {code_name(code)} in play, expected 1")


def render_phobias(state: GameState) -> list[str]:
    pile = state.madness_pile
    top = code_name(pile[-1]) if pile else "empty"
    left = sum(1 for c in pile if c >= PHOBIA_BASE)
    return [f"phobias: Madness pile top {top} (face up), {left} Phobias in the pile of {len(pile)}"]


# The module's rules switches (docs/rules_decisions.md): GameConfig keywords.
SWITCHES = (
    Switch("phobia_elimination", "no_slot", ("no_slot", "literal_second_phobia"), "A-52"),
    Switch("phobia_leaves_support", False, (False, True), "V-26"),
    Switch("phobia_dealing", "round_robin", ("round_robin", "by_player"), "V-24"),
    Switch("spell_surcharge_element", "any", ("any", "spell"), "A-50"),
    Switch("cure_cost_mode", "value", ("value", "cards"), "V-37"),
)
CURE_CARDS = Cost(cards=CURE_COST)  # V-37, cure_cost_mode="cards": any 2 Element cards
_FIXED = frozenset(PHOBIA_CODES)


def _cure_cost(config: GameConfig) -> Cost | None:
    """V-37: with ``cure_cost_mode="cards"`` the Cure Action costs any 2 Element cards, whatever
    their values (every Madness, Phobias included); else the engine's 2 Elements by value (A-11)."""
    return CURE_CARDS if config.switch("cure_cost_mode") == "cards" else None


def _fixed_support_cards(config: GameConfig) -> frozenset[int]:
    """V-26: a Phobia leaves a support only by a cure or a move, never by a discard or destroy
    effect (unless ``phobia_leaves_support``)."""
    return frozenset() if config.switch("phobia_leaves_support") else _FIXED


def _round_robin(config: GameConfig) -> bool:
    """V-24: with the face-up pile, Madness for several players at once is dealt one card at a
    time, round-robin from the Active Player (``phobia_dealing="by_player"``: all of each at once)."""
    return config.switch("phobia_dealing") == "round_robin"


PHOBIA_MODULE = Module(
    name=NAME,
    # V-19: the Dark Matter module's Water Magician moves a Phobia (move.py; both modules).
    blocks=move.BLOCKS,
    actions=move.ACTIONS,
    pay_actions=move.PAY_ACTIONS,
    frames=placement.FRAMES + move.FRAMES,
    # V-28: the engine's cure op waits for the owner's pick when Madness cards differ (a Phobia).
    decision_kinds=placement.DECISION_KINDS + ("cure",) + move.DECISION_KINDS,
    decisions=((placement.PLACE, placement.describe_place), *move.DECISIONS),
    # Section 9.2: each Phobia in its owner's support constrains them (constraints.py); every
    # modifier kind the constraints use is declared (the base's ones are the base's already).
    modifier_kinds=constraints.MODIFIER_KINDS,
    modifier_sources=(constraints.phobia_modifiers,),
    card_codes=PHOBIA_CODES,
    card_names=tuple(f"phobia-{k}" for k in range(NUM_PHOBIAS)),
    # The matching-Element surcharge paid in the Curse's or a token's colour (V-32), the Cure in
    # Element cards (V-37), the Phobia move's Dark Matter card (V-19, with the Dark Matter module).
    cost_parts=("one_of", "cards", "currency"),
    pack_sections=SECTIONS,
    pack_files=(PACK,),
    state_type=PhobiaState,
    setup=(setup_pile,),
    save_checks=(checks.check_fields,),
    invariants=(checks.check_fields, check_phobias),
    stats=STATS,
    render=(render_phobias,),
    madness_arrived=(placement.madness_arrived,),
    recup_drawn=(placement.recup_drawn,),
    under_curse=(under_curse,),
    from_curse=(from_curse,),
    switches=SWITCHES,
    rulings=(
        ("cure_cost", _cure_cost),
        ("fixed_support_cards", _fixed_support_cards),
        ("madness_round_robin", _round_robin),
    ),
    doc="The Vth Element: Phobias (docs/vth_element.md).",
)


def registered() -> AbstractContextManager[Module]:
    """The module registered for a ``with`` block (``rules.registered``): ``import bbom_env``
    registers it already, so this matters only after a test unregistered it."""
    return rules_registered(PHOBIA_MODULE)
