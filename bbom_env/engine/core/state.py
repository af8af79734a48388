"""The game state: every zone of docs/rules.md section 1.5, the RNG, and the pending-decision stack.

Everything a game needs to resume lives here as plain data (ints, strs, lists, tuples, dicts of
those), so ``clone()`` is a cheap explicit copy, pickle works, and ``to_dict()`` is JSON-ready
(design decision 3). The card pack is shared, read-only.

Zones: ``deck`` is an ordered list of card codes (top = last); ``hand``, ``discard``, ``destroyed``
and ``box`` are count vectors indexed by card code (equal cards are interchangeable); ``support``
is the ordered list of its slots (``records.SupportSlot``). Curses on the track, Spells, support
slots and temporary modifiers are the immutable records of ``records.py``.
"""

from __future__ import annotations

import numbers
import random
from dataclasses import dataclass, field
from typing import Any

from bbom_env.engine.cards.pack import Pack, pack_mismatch, pack_sha256
from bbom_env.engine.cards.vocab import show
from bbom_env.engine.core.config import GameConfig
from bbom_env.engine.core.resolver import ANSWER, LEGAL, IllegalActionError, run
from bbom_env.engine.core.rules import Ruleset, pack_spec, ruleset
from bbom_env.engine.model.constants import NUM_CODES, NUM_TRACK_SLOTS, Phase
from bbom_env.engine.model.records import NO_CARD, CurseOnTrack, SpellSlot, SupportSlot, TempModifier
from bbom_env.engine.model.typed import NOT_SAVED, SAVED_IF_SET, ModuleState, make_clone


class MoveTypeError(IllegalActionError, TypeError):
    """A move that is not an integer (a float, a str, None, a bool ...): both an
    ``IllegalActionError`` (so callers that catch illegal moves catch it) and a ``TypeError``."""


class SaveError(ValueError):
    """A save (JSON text or pickle) that cannot be loaded: malformed, inconsistent, or made with a
    card pack that has changed since. The message names the field path and what is wrong."""


@dataclass
class PlayerState:
    """A player's zones and flags (docs/rules.md section 1.5). ``clone`` copies every field by the rule
    of its declared type (``typed_fields.py``): records are immutable, lists of them are copied."""

    magician: str
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=lambda: [0] * NUM_CODES)
    discard: list[int] = field(default_factory=lambda: [0] * NUM_CODES)
    support: list[SupportSlot] = field(default_factory=list)
    spells: list[SpellSlot] = field(default_factory=list)
    eliminated: bool = False
    ability_used: bool = False
    ability_lost: bool = False
    mods: list[TempModifier] = field(default_factory=list)  # temporary modifiers

    def clone(self) -> PlayerState:
        return _clone_player(self)

    def spell_index(self, spell_id: str) -> int:
        for i, s in enumerate(self.spells):
            if s.spell == spell_id:
                return i
        return -1

    def support_cards(self) -> list[int]:
        """Card codes of the support's slots (the cards on top; crushed cards are not counted)."""
        return [s.card for s in self.support]

    def take_support(self, slot: int) -> int:
        """The card of a support slot leaves it (its code returned): the slot closes up, or, when
        a card is crushed under it, that card is uncovered and holds the slot (V-21:
        crushed until the Phobia leaves). Base game: nothing is ever crushed."""
        top = self.support[slot]
        if top.crushed == NO_CARD:
            del self.support[slot]
        else:
            self.support[slot] = SupportSlot(top.crushed)
        return top.card


@dataclass
class GameState:
    """Full state. Build with ``bbom_env.engine.new_game``; drive with ``legal_actions`` and
    ``apply_action`` (see ``game.py``)."""

    config: GameConfig
    pack: Pack = field(metadata=NOT_SAVED)  # named by config.pack, fingerprinted in saves
    rng: random.Random
    players: list[PlayerState]
    active: int = 0
    turn: int = 0
    round: int = 0  # 0: Grimoire closed (before the first Monster phase)
    marker: int = 0  # 0: Invocation space; 1..5 spaces of the track
    phase: int = Phase.SETUP
    grimoire: list[str] = field(default_factory=list)  # [cover, 5 inside pages, end page]
    library: list[list[str]] = field(default_factory=list)  # per Element, top = last
    curse_piles: dict[str, list[str]] = field(default_factory=dict)  # top = last
    # One stack per track slot (S2, S3L, S3R, S4, S5), top = last.
    track: list[list[CurseOnTrack]] = field(default_factory=lambda: [[] for _ in range(NUM_TRACK_SLOTS)])
    supply: list[list[int]] = field(default_factory=list)  # [element][value-2] counts
    reserve1: list[int] = field(default_factory=list)  # value-1 cards in the box
    tokens: list[int] = field(default_factory=list)  # Element token pool
    madness_pile: list[int] = field(default_factory=list)  # top = last
    destroyed: list[int] = field(default_factory=lambda: [0] * NUM_CODES)
    box: list[int] = field(default_factory=lambda: [0] * NUM_CODES)
    box_spells: list[str] = field(default_factory=list)
    stack: list[dict] = field(default_factory=list)
    over: bool = False
    outcome: str = ""  # "win" / "loss" once over
    reason: str = ""
    stats: dict[str, int] = field(default_factory=dict)
    log: list[tuple] = field(default_factory=list)
    history: list[int] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)  # seat that took each move of history
    # Each module's own state (``rules.Module.state_type``), by module name in ruleset order; made
    # at setup before the module setup steps. Empty in a base game, and then not saved at all.
    ext: dict[str, ModuleState] = field(default_factory=dict, metadata=SAVED_IF_SET)
    # The game's rules: the base game and its modules (``rules.ruleset(config.modules)``), made
    # once per game and shared by its clones; not saved (the config names the modules).
    rules: Ruleset = field(default=None, metadata=NOT_SAVED, repr=False)  # type: ignore[assignment]  # (set by __post_init__)
    # Derived per decision, never saved, dropped on every move: the legal moves and the seat views
    # (``payment/seat.py``). Set ``legal_cache = None`` after changing a state by hand: both go.
    cache_legal: list[int] | None = field(default=None, metadata=NOT_SAVED, repr=False)
    cache_views: Any = field(default=None, metadata=NOT_SAVED, repr=False)

    def __post_init__(self) -> None:
        if self.rules is None:
            self.rules = ruleset(self.config.modules)

    @property
    def legal_cache(self) -> list[int] | None:
        """The legal moves of the pending decision, once computed (None: not yet)."""
        return self.cache_legal

    @legal_cache.setter
    def legal_cache(self, legal: list[int] | None) -> None:
        self.cache_legal = legal
        if legal is None:
            self.cache_views = None  # the state changed: every derived fact goes

    # -- copying ------------------------------------------------------------------------------

    def clone(self) -> GameState:
        """A copy sharing no mutable container: every field copied by the rule of its declared
        type (``typed_fields.py``); the config and the pack are shared, the RNG state copied."""
        c = _clone_game(self)
        c.cache_views = None  # (views read their own state)
        return c

    def resample_from_infostate(self, seat: int, rng: random.Random | int) -> GameState:
        """OpenSpiel's name for ``resample.resample(self, seat, rng)``: a state drawn uniformly from
        what ``seat`` knows (docs/search.md); this state is unchanged."""
        from bbom_env.engine.core.resample import resample

        return resample(self, seat, rng)

    def __deepcopy__(self, memo: dict) -> GameState:
        return self.clone()

    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        d["cache_legal"] = d["cache_views"] = d["rules"] = None
        if not d["ext"]:
            del d["ext"]  # a base game pickles as it did before module states existed
        # The pack pickles by reference (its path): record what the files held, so that unpickling
        # against an edited pack is refused instead of silently playing other cards.
        try:
            d["pack_sha256"] = pack_sha256(*pack_spec(self.config))
        except OSError as exc:
            raise SaveError(f"cannot pickle the state: its card pack file cannot be read: {exc}") from None
        return d

    def __setstate__(self, d: dict) -> None:
        recorded = d.pop("pack_sha256", None)  # absent in pickles made before the hash existed
        if recorded is not None:
            config = d["config"]
            why = pack_mismatch(*pack_spec(config), recorded)
            if why is not None:
                raise SaveError(f"cannot unpickle the state: {why}")
        if any("k" in f for f in d.get("stack", ())):  # one-letter frame keys: before frames.py
            raise SaveError("cannot unpickle the state: it was pickled before the typed frames (frames.py)")
        d.setdefault("ext", {})
        d.pop("legal_cache", None)  # (the field's name in pickles made before the seat views)
        d["cache_legal"] = d["cache_views"] = None
        d["rules"] = ruleset(d["config"].modules)
        self.__dict__.update(d)

    # -- public API (the logic lives in resolver / decision / serialize) ----------------------

    def legal_actions(self) -> list[int]:
        """Sorted legal move ids of the current decider; [] once the game is over."""
        legal = self.cache_legal
        if legal is None:
            f = self.stack[-1] if self.stack else None
            legal = self.cache_legal = LEGAL[f["kind"]](self, f) if f and f.get("decider") is not None else []
        return legal

    def current_player(self) -> int:
        """Seat that must decide now, or -1 when the game is over."""
        if self.over or not self.stack:
            return -1
        w = self.stack[-1].get("decider")
        return -1 if w is None else w

    def apply_action(self, action: int) -> None:
        """Apply the decider's move; an illegal one raises and leaves the state unchanged.

        A move is an int (a numpy integer is accepted and stored as an int); anything else raises
        ``MoveTypeError``, a move outside the legal list ``IllegalActionError``."""
        if type(action) is not int:  # the hot path pays this one test; normalising is the slow path
            action = self._as_move(action)
        legal = self.legal_actions()
        if action not in legal:
            from bbom_env.engine.core.moves import move_to_string

            try:  # the game's own layout: a module's move ids lie past the base ones
                name = move_to_string(action, self.config.modules)
            except ValueError:
                name = "outside the layout"
            raise IllegalActionError(self._illegal_message(action, name, legal))
        f = self.stack[-1]
        self.movers.append(f["decider"])
        f["decider"] = None
        self.history.append(action)
        self.cache_legal = self.cache_views = None
        ANSWER[f["kind"]](self, f, action)
        run(self)

    def _as_move(self, action: Any) -> int:
        # numbers.Integral covers numpy integers (registered there) and IntEnums; bool is an int
        # subclass but True is no move id, and a float (289.0 == 289) must not pass `in legal`.
        if isinstance(action, numbers.Integral) and not isinstance(action, bool):
            return int(action)
        kind = type(action).__name__
        raise MoveTypeError(self._illegal_message(action, f"not a move id: moves are ints, got {kind}"))

    def _illegal_message(self, action: Any, why: str, legal: list[int] | None = None) -> str:
        from bbom_env.engine.core.moves import move_to_string
        from bbom_env.engine.play.decision import describe

        legal = self.legal_actions() if legal is None else legal
        return (
            f"illegal action {show(action, 80)} ({why}); pending decision: {describe(self)}; "
            f"legal: {[move_to_string(a, self.config.modules) for a in legal]}"
        )

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """+1 each on a win, -1 each on a loss, 0 while the game runs (section 6)."""
        r = 1.0 if self.outcome == "win" else -1.0 if self.outcome == "loss" else 0.0
        return [r] * len(self.players)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        from bbom_env.engine.io.serialize import to_dict

        return to_dict(self) == to_dict(other)

    def to_json(self) -> str:
        from bbom_env.engine.io.serialize import to_json

        return to_json(self)

    def __str__(self) -> str:
        from bbom_env.engine.io.render import render

        return render(self)

    def alive(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.eliminated]

    def order_from_active(self) -> list[int]:
        """Non-eliminated seats from the Active Player clockwise (section 8.3)."""
        n = len(self.players)
        return [(self.active + k) % n for k in range(n) if not self.players[(self.active + k) % n].eliminated]

    def curses_on_track(self) -> int:
        return sum(len(s) for s in self.track)

    def event(self, kind: str, *data: Any) -> None:
        self.log.append((self.turn, kind) + data)

    def stat(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n


# Built once from the declared field types (after both classes exist: GameState's hints name
# PlayerState).
_clone_player = make_clone(PlayerState)
_clone_game = make_clone(GameState)
