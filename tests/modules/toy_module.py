"""A toy rules module, used only by tests: it exercises every seam a real module (the Vth Element's
Dark Matter and Phobias, docs/rules.md section 9) plugs into, without being one.

What it adds (``TOY``):

* a move block ``TOY_MEDITATE`` (argument: an Element) and its Action of the Action menu: pay 1
  Element card of that Element, then the module's own frame kind ``toy_meditate`` counts the
  statistic ``toy_meditations``, logs ``toy_meditate`` and pushes ``toy_attune``: a frame that
  waits for the meditating player to choose the next omen Element (base block ``PICK_ELEMENT``),
  described as the module's own decision kind ``toy_omen_element`` (``Module.decisions``);
* its own part of the state, ``ToyState`` in ``state.ext["toy"]``: the omen card drawn at setup and
  every omen Element so far (records ``ToyOmen``), cloned and saved by its field types;
* a pack section ``[[toy_omen]]`` (``OMEN_SECTION``, cards in ``toy_pack.toml``): required, so a
  game with the module whose pack lacks it is refused at setup; each omen card has an Element and
  may carry an effect in the effect vocabulary (indexed in ``pack.effects``);
* the engine's module-only modifier kinds ``replace`` and ``lose_ability`` (the cards that use
  them are in ``toy_pack.toml``, an override pack for the test pack);
* a modifier source: while a Madness card is in a player's support, their hand size is 5 (a
  ``replace`` modifier at the ``hand_size`` rule point, as the Phobia "refill your hand to 5
  cards instead of 6" will be);
* a setup step that draws the omen card from the game's RNG after the base setup;
* an invariant, a render part and an observation section (``toy.*``).

``registered()`` registers it (engine and observation sections) for a ``with`` block and
unregisters it after.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from bbom_env.engine.actions.menu import req_of
from bbom_env.engine.cards.checks import check_fields, element, labels, opt, req
from bbom_env.engine.cards.pack import COMMON_FIELDS, PackSection
from bbom_env.engine.cards.vocab import TARGETS, IntRange, normalize_effect
from bbom_env.engine.core import moves as M
from bbom_env.engine.core.moves import BlockSpec, Move
from bbom_env.engine.core.resolver import done, frame, push
from bbom_env.engine.core.rules import MenuAction, Module, register, unregister
from bbom_env.engine.core.state import GameState
from bbom_env.engine.model.constants import ELEMENT_NAMES, MADNESS
from bbom_env.engine.model.frames import Decider, Element, Frame, Seat
from bbom_env.engine.model.move_args import ELEMENT
from bbom_env.engine.model.typed import ModuleState
from bbom_env.engine.payment.frame import pay_frame
from bbom_env.engine.payment.seat import SeatView
from bbom_env.engine.play.decision import Decision
from bbom_env.engine.play.ops import auto_op

NAME = "toy"
TOY_PACK = str(Path(__file__).with_name("toy_pack.toml"))
BLOCK = "TOY_MEDITATE"
HAND_SIZE_WITH_MADNESS = 5  # the toy "Phobia": a Madness in support refills the hand to 5
DECISION = "toy_omen_element"  # the toy's decision kind, after the base game's


# -- the pack section [[toy_omen]] ----------------------------------------------------------------


@dataclass(frozen=True)
class ToyOmenCard:
    """A card of the toy's pack section: an omen of an Element, with an optional effect."""

    id: str
    name: str
    element: int
    text: str
    effect: tuple[dict, ...]
    provenance: str
    source: str = ""
    notes: str = ""
    known: str = ""


def parse_omen(e: dict, where: str) -> ToyOmenCard:
    """One ``[[toy_omen]]`` entry; errors name the file, the entry and the field."""
    check_fields(e, set(COMMON_FIELDS) | {"element", "text", "effect"}, where)
    meta = labels(e, where)
    return ToyOmenCard(
        id=e["id"],
        name=req(e, "name", where, str),
        element=element(e, "element", where),
        text=opt(e, "text", "", where, str),
        effect=tuple(normalize_effect(opt(e, "effect", [], where, list), f"{where}.effect")),
        **meta,
    )


def omen_effects(card: ToyOmenCard) -> Iterable[tuple[str, tuple[dict, ...]]]:
    return [("effect", card.effect)] if card.effect else []


OMEN_SECTION = PackSection("toy_omen", parse_omen, omen_effects, doc="omen cards of the toy module")


# -- the module's own state ------------------------------------------------------------------------


class ToyOmen(NamedTuple):
    """An omen Element and who chose it (-1: drawn at setup)."""

    element: int
    seat: int = -1


@dataclass
class ToyState(ModuleState):
    """The toy module's part of the game state (``state.ext["toy"]``)."""

    card: str = ""  # id of the omen card drawn at setup (pack.sections["toy_omen"])
    omens: list[ToyOmen] = field(default_factory=list)  # setup's omen, then one per meditation


def toy_state(state: GameState) -> ToyState:
    st = state.ext[NAME]
    assert isinstance(st, ToyState)
    return st


def _start(state: GameState) -> int:
    return M.layout(state.config.modules).by_name[BLOCK].start


def legal_meditate(state: GameState, view: SeatView) -> Iterator[int]:
    """One id per Element the decider can pay 1 card of (not forbidden for this Action)."""
    start = _start(state)
    for e in range(4):
        if not view.forbidden("toy_meditate", e) and view.can_pay("toy_meditate", e, req_of(e, 1)):
            yield start + e


class ToyMeditateFrame(Frame):
    """``player`` has paid 1 card of ``element``: count the meditation."""

    player: Seat
    element: Element


def choose_meditate(state: GameState, f: dict, mv: Move) -> None:
    p, e = f["player"], mv.args.element
    target: ToyMeditateFrame = {"kind": "toy_meditate", "player": p, "element": e}
    push(state, pay_frame(p, req_of(e, 1), "toy_meditate", ""), target)


def run_meditate(state: GameState, f: ToyMeditateFrame) -> None:
    done(state, f)
    state.stat("toy_meditations")
    state.event("toy_meditate", f["player"], f["element"])
    attune: ToyAttuneFrame = {"kind": "toy_attune", "player": f["player"], "decider": None}
    push(state, attune)


frame("toy_meditate", run_meditate, typed=ToyMeditateFrame)


class ToyAttuneFrame(Frame):
    """``player`` chooses the next omen Element (a module frame that waits for a decision)."""

    player: Seat
    decider: Decider


def run_attune(state: GameState, f: ToyAttuneFrame) -> None:
    f["decider"] = f["player"]


def legal_attune(state: GameState, f: ToyAttuneFrame) -> list[int]:
    return [M.PICK_ELEMENT + e for e in range(len(ELEMENT_NAMES))]


def answer_attune(state: GameState, f: ToyAttuneFrame, move: int) -> None:
    done(state, f)
    e = move - M.PICK_ELEMENT
    toy_state(state).omens.append(ToyOmen(e, f["player"]))
    state.event("toy_attune", f["player"], e)


def describe_attune(state: GameState, f: dict) -> Decision:
    """The toy's decision kind; the source is the omen card drawn at setup."""
    return Decision(DECISION, f["decider"], toy_state(state).card, 1, (0,) * 5, ())


frame("toy_attune", run_attune, legal_attune, answer_attune, typed=ToyAttuneFrame)


def madness_in_support(state: GameState, p: int) -> Iterator[dict]:
    """The toy module's modifier source: cards active in a zone, asked fresh on every query."""
    if MADNESS in state.players[p].support_cards():
        yield {"kind": "replace", "point": "hand_size", "value": HAND_SIZE_WITH_MADNESS}


def setup_omen(state: GameState) -> None:
    """Runs after the base setup: the base deal of a seed is the same with the module or without.
    The engine made ``state.ext["toy"]`` (a ``ToyState()``) before this step."""
    cards = state.pack.sections[OMEN_SECTION.name]
    ids = sorted(cards)
    card = cards[ids[state.rng.randrange(len(ids))]]
    st = toy_state(state)
    st.card = card.id
    st.omens.append(ToyOmen(card.element))
    state.event("toy_omen", card.id)


def check_toy(state: GameState) -> None:
    """The omen card is one of the pack's, every omen an Element chosen by a seat (or -1), one per
    attunement after setup's, and every meditation was logged once."""
    st = toy_state(state)
    if st.card not in state.pack.sections.get(OMEN_SECTION.name, {}):
        raise AssertionError(f"toy: ext.toy.card: {st.card!r} is not a [[toy_omen]] card of the pack")
    for i, (e, seat) in enumerate(st.omens):
        if not 0 <= e < len(ELEMENT_NAMES) or not -1 <= seat < len(state.players):
            raise AssertionError(f"toy: ext.toy.omens[{i}]: ({e}, {seat}) is no Element chosen by a seat")
    attuned = sum(1 for e in state.log if e[1] == "toy_attune")
    if len(st.omens) != 1 + attuned:
        raise AssertionError(f"toy: ext.toy.omens holds {len(st.omens)} omens, expected 1 + {attuned}")
    logged = sum(1 for e in state.log if e[1] == "toy_meditate")
    counted = state.stats.get("toy_meditations", 0)
    if counted != logged:
        raise AssertionError(f"toy: {counted} meditations counted, {logged} logged")


def render_toy(state: GameState) -> list[str]:
    st = toy_state(state)
    omen = ELEMENT_NAMES[st.omens[-1].element]
    card = state.pack.marked_name(st.card)
    return [f"toy: omen {omen} (card {card}), meditations {state.stats.get('toy_meditations', 0)}"]


# -- an effect op of the toy's own (the vocabulary grows with a module) --------------------------

GLIMMER = "toy_glimmer"
# Its parameters, as vocab.OP_SCHEMAS writes the base ops' (kind, default).
GLIMMER_SCHEMA = {"target": (TARGETS, "you"), "amount": (IntRange(1, 3), 1)}


def _glimmer(state: GameState, f: dict, op: dict) -> None:
    """The toy's op: count ``amount`` glimmers (a statistic), for the controller's effect."""
    state.stat("toy_glimmers", op["amount"])
    state.event("toy_glimmer", f["player"], op["amount"])


auto_op(GLIMMER, _glimmer)  # the handler first: rules.register refuses an op without one


TOY = Module(
    name=NAME,
    blocks=(BlockSpec(BLOCK, ELEMENT, "Element paid (toy module)"),),
    actions=(MenuAction("toy_meditate", (BLOCK,), legal_meditate, choose_meditate),),
    frames=("toy_meditate", "toy_attune"),
    ops=(GLIMMER,),
    op_schemas=((GLIMMER, GLIMMER_SCHEMA),),
    decision_kinds=(DECISION,),
    decisions=(("toy_attune", describe_attune),),
    modifier_kinds=("replace", "lose_ability"),
    modifier_sources=(madness_in_support,),
    pay_actions=("toy_meditate",),
    pack_sections=(OMEN_SECTION,),
    state_type=ToyState,
    setup=(setup_omen,),
    invariants=(check_toy,),
    stats=("toy_meditations", "toy_glimmers"),
    render=(render_toy,),
    doc="Toy module for the engine's module tests (never game content).",
)


def toy_obs_module():  # noqa: ANN201  (imports the RL views only when a test asks)
    import numpy as np

    from bbom_env.rl.obs_core import ObsContext, ObsModule, ObsSection, Part

    class ToySection(ObsSection):
        group = "toy"

        def __init__(self, ctx: ObsContext) -> None:
            super().__init__(ctx)
            self.parts = [
                Part("toy.omen", len(ELEMENT_NAMES), "the toy module's omen Element, one-hot"),
                Part("toy.meditations", 1, "toy meditations so far / 20", 1 / 20),
            ]

        def encode(
            self, state: GameState, seat: int, vec: np.ndarray, on: list[int], idx: list, val: list
        ) -> None:
            st = state.ext.get(NAME)  # absent when a test encodes a base game with this layout
            on.append(self.at["toy.omen"] + (st.omens[-1].element if st is not None else 0))
            idx.append(self.at["toy.meditations"])
            val.append(float(state.stats.get("toy_meditations", 0)))

    return ObsModule(NAME, (ToySection,), doc="toy module section")


@contextmanager
def registered(obs: bool = True) -> Iterator[Module]:
    """The toy module registered (and its observation section, unless ``obs=False``) for a block."""
    register(TOY)
    if obs:
        from bbom_env.rl.obs_core import register_sections, unregister_sections

        register_sections(toy_obs_module())
    try:
        yield TOY
    finally:
        if obs:
            unregister_sections(NAME)
        unregister(NAME)
