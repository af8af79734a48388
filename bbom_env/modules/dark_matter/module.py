"""The Dark Matter module (docs/rules.md section 9.1): its ``rules.Module``, its state, setup steps,
invariants, statistics and render part (docs/vth_element.md).

``bbom_env.modules`` registers it on ``import bbom_env``; ``registered()`` makes sure it is for a
``with`` block (tests that unregister it).

Its parts: the four pack sections (``content.py``; their cards join the base tables in a game
with the module), the module state ``DarkMatterState`` (``state.ext["dark_matter"]``), the setup
steps (after the base setup, so a seed deals the base game exactly as without the module, the
Grimoire aside: ``grimoire.py``), the invariants (Dark Matter conserved: 28 cards, section 1.2),
Acquire Dark Matter and Spontaneous Elements (``actions.py``, sections 4.6, 4.9), the Black Book
(``black_book.py``, section 4.8), Dark Curses (``dark_curses.py``, sections 4.7, 9.1) and the Air
Magician's conversion (``air.py``, V-12).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from bbom_env.engine.ext import GameConfig, GameState, Magician, Module, Pack, PackIndex, Switch
from bbom_env.engine.ext import registered as rules_registered

from . import actions, air, black_book, checks, dark_curses, grimoire
from .content import BLACK_PAGE, DARK_CURSE, DARK_SYMBOL, SECTIONS, BlackPage, BlackSpell
from .state import DARK_MATTER, DARK_MATTER_CARDS, DARK_MATTER_TOKENS, NAME, DarkMatterState, dm_state

__all__ = ["NAME", "DARK_MATTER_CARDS", "DARK_MATTER_TOKENS", "DarkMatterState", "dm_state"]  # re-exported

PACK = str(Path(__file__).resolve().parents[2] / "data" / "vth_dark_matter.toml")
STATS = ("dark_matter_acquired", "black_spells_cast", "dark_curses_destroyed")


def spread_spells(state: GameState) -> tuple[BlackSpell | None, BlackSpell | None]:
    """(left page, right page) Black Spells of the open spread; (None, None) when the book is
    closed (section 4.8: the left page's spell is reusable, the right page's is cast once)."""
    st = dm_state(state)
    if st.closed:
        return None, None
    pages = state.pack.sections[BLACK_PAGE.name]
    left: BlackPage = pages[st.book[st.spread]]
    right: BlackPage = pages[st.book[st.spread + 1]]
    return left.back, right.front


def used_this_turn(state: GameState) -> bool:
    return dm_state(state).used_turn == state.turn


# -- setup (section 2.2) ---------------------------------------------------------------------------


def _book_pages(pack: Pack) -> dict[str, tuple[str, ...]]:
    """The Black Book's page ids by kind (Cover, Inside, Back), each sorted."""
    pages = pack.sections[BLACK_PAGE.name]
    return {k: tuple(sorted(i for i, p in pages.items() if p.kind == k)) for k in ("cover", "inside", "back")}


# Sorted once per pack (every new game sorted them again; the draws from them are unchanged).
_DARK_CURSE_IDS: PackIndex[tuple[str, ...]] = PackIndex(
    lambda pk: tuple(sorted(pk.sections[DARK_CURSE.name]))
)
_BOOK_PAGES: PackIndex[dict[str, tuple[str, ...]]] = PackIndex(_book_pages)


def setup_dark_curses(state: GameState) -> None:
    """Section 2.2 step 3: shuffle the 12 Dark Curses into a pile beside the other Curse piles
    (``state.curse_piles["dark_matter"]``: a Monster's Dark Matter symbol draws from it by the base
    placement rules, section 9.1). Runs after the base setup, so these draws come after every base
    draw of the RNG."""
    pile = list(_DARK_CURSE_IDS(state.pack))
    state.rng.shuffle(pile)
    state.curse_piles[DARK_SYMBOL] = pile


def setup_black_book(state: GameState) -> None:
    """V-01 (a hypothesis, A-59): 1 random Cover, ``config.black_book_inside_pages`` (default 3,
    the V-01 switch) random Inside pages in random order, 1 random Back page, opened on the first
    spread (the Cover's back and Inside page 1's front): pages + 1 spreads."""
    by_kind = _BOOK_PAGES(state.pack)
    cover = by_kind["cover"][state.rng.randrange(len(by_kind["cover"]))]
    pages = state.config.switch("black_book_inside_pages")  # the V-01 switch
    insides = state.rng.sample(by_kind["inside"], pages)
    back = by_kind["back"][state.rng.randrange(len(by_kind["back"]))]
    st = dm_state(state)
    st.book, st.spread, st.closed, st.used_turn = [cover, *insides, back], 0, False, -1
    state.event("black_book", tuple(st.book))


# V-19: the new Water Magician's ability, "spend 1 Dark Matter to move 1 Phobia", is a modifier of
# this kind on its sheet; the Phobia module plays it (bbom_env/modules/phobias/move.py).
MOVE_PHOBIA = "move_phobia"
PHOBIAS = "phobias"


def offer_magician(config: GameConfig, magician: Magician) -> bool:
    """V-18: the 4 new Magicians join the Magician choice in a game with this module; the switch
    ``GameConfig.vth_magicians=False`` leaves them out. V-18, V-19: the Magician who moves Phobias
    is offered with Dark Matter alone too (set-up step 6 adds every new Magician; "some Magicians
    are more or less interesting depending on the modules you play with"): without the Phobia
    module his ability has nothing to move (no MOVE_PHOBIA is ever legal, docs/rules_decisions.md)."""
    return bool(config.switch("vth_magicians"))


# -- invariants --------------------------------------------------------------------------------------


def dark_matter_count(state: GameState) -> int:
    """Dark Matter cards everywhere: the supply, every player's hand, deck, discard pile and
    support (crushed cards too), the box and the destroyed cards."""
    total = dm_state(state).supply + state.box[DARK_MATTER] + state.destroyed[DARK_MATTER]
    for pl in state.players:
        total += pl.hand[DARK_MATTER] + pl.discard[DARK_MATTER] + pl.deck.count(DARK_MATTER)
        total += sum((s.card == DARK_MATTER) + (s.crushed == DARK_MATTER) for s in pl.support)
    return total


def check_dark_matter(state: GameState) -> None:
    """Dark Matter is conserved (28 cards, section 1.2); the Dark Curse pile holds the pack's Dark
    Curses. The module state's own fields (the pools' sizes, the Black Book as V-01 builds it) are
    ``checks.check_fields``', which runs first."""
    st = dm_state(state)
    total = dark_matter_count(state)
    if total != DARK_MATTER_CARDS:
        raise AssertionError(
            f"dark_matter: {total} Dark Matter cards in play, expected {DARK_MATTER_CARDS} "
            f"(ext.dark_matter.supply holds {st.supply}, the other zones {total - st.supply})"
        )
    curses = state.pack.sections.get(DARK_CURSE.name, {})
    for i, cid in enumerate(state.curse_piles.get(DARK_SYMBOL, ())):
        if cid not in curses:
            raise AssertionError(f"dark_matter: curse_piles.dark_matter[{i}]: {cid!r} is not a Dark Curse")


def render_dark_matter(state: GameState) -> list[str]:
    st = dm_state(state)
    if st.closed:
        book = "closed"
    else:
        left, right = (state.pack.marked_name(st.book[st.spread + k]) for k in (0, 1))
        used = ", used this turn" if used_this_turn(state) else ""
        book = f"spread {st.spread + 1}/{len(st.book) - 1}: {left} | {right}{used}"
    pile = len(state.curse_piles.get(DARK_SYMBOL, ()))
    return [f"dark matter: supply {st.supply}, Dark Curse pile {pile}; Black Book {book}"]


DARK_MATTER_MODULE = Module(
    name=NAME,
    blocks=actions.BLOCKS + black_book.BLOCKS,  # the Black Book's two blocks after Acquire's
    actions=actions.ACTIONS + black_book.ACTIONS,
    frames=actions.FRAMES + black_book.FRAMES,
    ops=black_book.OPS + grimoire.OPS + dark_curses.OP_NAMES,  # V-03, V-04; V-14, V-15; V-09, V-11
    op_schemas=black_book.OP_SCHEMAS + grimoire.OP_SCHEMAS + dark_curses.OP_SCHEMAS,
    decision_kinds=black_book.DECISION_KINDS + dark_curses.DECISION_KINDS,
    # V-10: "All players lose their Ability until the next Monster" (a Dark Curse) is a
    # lose_ability modifier, a kind only a module enables (docs/engine.md, "Hooks").
    modifier_kinds=("lose_ability", air.KIND, MOVE_PHOBIA),
    # The Air Magician's conversion (V-12); the Water Magician's Phobia move (V-19: its sheet is
    # this module's card, so a game with this module alone reads it too, and never offers it).
    modifier_schemas=(*air.MODIFIER_SCHEMAS, (MOVE_PHOBIA, {})),
    pay_actions=actions.PAY_ACTIONS + black_book.PAY_ACTIONS,
    card_codes=(DARK_MATTER,),
    card_names=("dark-matter",),
    # Costs in Dark Matter cards (4.6-4.8), two of them as one Element (4.9), one Air card as another
    # Element (V-12), cards of different Elements (the Acquire Action, 4.6).
    cost_parts=("currency", "wildcards", "convert", "distinct"),
    # Spontaneous Elements (section 4.9, V-06), the Air conversion (V-12): both add ways to pay.
    cost_transforms=(actions.SPONTANEOUS, air.AIR_CONVERSION),
    # Dark Curses are Curses of their own type (section 9.1): their pile, placement and the
    # observation's Curse types follow from it.
    curse_types=(DARK_SYMBOL,),
    # Section 4.7, V-07, V-08: destroyed with Dark Matter only, not by effects, never tokens.
    curse_rules=dark_curses.CURSE_RULES,
    pack_sections=SECTIONS,
    pack_files=(PACK,),
    offer_magician=offer_magician,
    # The module's rules switches (docs/rules_decisions.md): GameConfig keywords.
    switches=(
        Switch("black_book_inside_pages", 3, range(1, 13), "V-01: the 12 Inside pages"),
        Switch("dark_curse_destroy_by_effect", False, (False, True), "V-07"),
        Switch("vth_magicians", True, (False, True), "V-18"),
    ),
    state_type=DarkMatterState,
    setup=(setup_dark_curses, setup_black_book, grimoire.setup_dark_grimoire),  # section 2.2 steps 3, 7
    save_checks=(checks.check_fields,),
    invariants=(
        checks.check_fields,
        black_book.check_black_book,
        grimoire.check_dark_grimoire,
        dark_curses.check_dark_curses,
        check_dark_matter,
    ),
    stats=STATS,
    render=(render_dark_matter, black_book.render_payment),
    doc="The Vth Element: Dark Matter (docs/vth_element.md).",
)


def registered() -> AbstractContextManager[Module]:
    """The module registered for a ``with`` block (``rules.registered``): ``import bbom_env``
    registers it already, so this matters only after a test unregistered it."""
    return rules_registered(DARK_MATTER_MODULE)
