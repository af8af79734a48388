"""A toy rules module, used only by tests: it exercises every seam a real module (the Vth Element's
Dark Matter and Phobias, RULES.md section 9) plugs into, without being one.

What it adds (``TOY``):

* a move block ``TOY_MEDITATE`` (argument: an Element) and its Action of the Action menu: pay 1
  Element card of that Element, then the module's own frame kind ``toy_meditate`` counts the
  statistic ``toy_meditations`` and logs ``toy_meditate``;
* the engine's module-only modifier kinds ``replace`` and ``lose_ability`` (the cards that use
  them are in ``toy_pack.toml``, an override pack for the test pack);
* a modifier source: while a Madness card is in a player's support, their hand size is 5 (a
  ``replace`` modifier at the ``hand_size`` rule point, as the Phobia "refill your hand to 5
  cards instead of 6" will be);
* a setup step that draws the omen Element from the game's RNG after the base setup;
* an invariant, a render part and an observation section (``toy.*``).

``registered()`` registers it (engine and observation sections) for a ``with`` block and
unregisters it after.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bbom_env.engine import moves as M
from bbom_env.engine.constants import ELEMENT_NAMES, MADNESS
from bbom_env.engine.frames import Element, Frame, Seat
from bbom_env.engine.menu import MenuView, req_of
from bbom_env.engine.move_args import ELEMENT
from bbom_env.engine.moves import BlockSpec, Move
from bbom_env.engine.payment_frame import pay_frame
from bbom_env.engine.resolver import done, frame, push
from bbom_env.engine.rules import MenuAction, Module, register, unregister
from bbom_env.engine.state import GameState

NAME = "toy"
TOY_PACK = str(Path(__file__).with_name("toy_pack.toml"))
BLOCK = "TOY_MEDITATE"
HAND_SIZE_WITH_MADNESS = 5  # the toy "Phobia": a Madness in support refills the hand to 5


def _start(state: GameState) -> int:
    return M.layout(state.config.modules).by_name[BLOCK].start


def legal_meditate(state: GameState, view: MenuView) -> Iterator[int]:
    """One id per Element the decider can pay 1 card of (not forbidden for this Action)."""
    start = _start(state)
    for e in range(4):
        if not view.forbidden(state, "toy_meditate", e) and view.can_pay_single(state, "toy_meditate", e, 1):
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


frame("toy_meditate", run_meditate, typed=ToyMeditateFrame)


def madness_in_support(state: GameState, p: int) -> Iterator[dict]:
    """The toy module's modifier source: cards active in a zone, asked fresh on every query."""
    if MADNESS in state.players[p].support_cards():
        yield {"kind": "replace", "point": "hand_size", "value": HAND_SIZE_WITH_MADNESS}


def setup_omen(state: GameState) -> None:
    """Runs after the base setup: the base deal of a seed is the same with the module or without."""
    omen = state.rng.randrange(len(ELEMENT_NAMES))
    state.stats["toy_omen"] = omen
    state.event("toy_omen", omen)


def check_toy(state: GameState) -> None:
    """The omen is an Element and every meditation was logged once."""
    omen = state.stats.get("toy_omen", -1)
    if not 0 <= omen < len(ELEMENT_NAMES):
        raise AssertionError(f"toy: omen {omen} is not an Element")
    logged = sum(1 for e in state.log if e[1] == "toy_meditate")
    counted = state.stats.get("toy_meditations", 0)
    if counted != logged:
        raise AssertionError(f"toy: {counted} meditations counted, {logged} logged")


def render_toy(state: GameState) -> list[str]:
    omen = ELEMENT_NAMES[state.stats["toy_omen"]]
    return [f"toy: omen {omen}, meditations {state.stats.get('toy_meditations', 0)}"]


TOY = Module(
    name=NAME,
    blocks=(BlockSpec(BLOCK, ELEMENT, "Element paid (toy module)"),),
    actions=(MenuAction("toy_meditate", (BLOCK,), legal_meditate, choose_meditate),),
    frames=("toy_meditate",),
    modifier_kinds=("replace", "lose_ability"),
    modifier_sources=(madness_in_support,),
    pay_actions=("toy_meditate",),
    setup=(setup_omen,),
    invariants=(check_toy,),
    stats=("toy_meditations", "toy_omen"),
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
            on.append(self.at["toy.omen"] + state.stats.get("toy_omen", 0))
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
