"""GameConfig: everything that defines a game, validated on construction (docs/rules.md section 2.5).

Rule switches default to the [PROPOSED] resolutions of docs/rules.md section 11; each names its
ambiguity id.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

from bbom_env.engine.core.moves import canonical_modules
from bbom_env.engine.model.constants import MAX_PLAYERS, MIN_PLAYERS


class ConfigError(ValueError):
    """A config field has a value outside its allowed set; the message names both."""


MODES = ("normal", "fear", "nightmare", "fear+nightmare")  # independent flags, presets
PAYMENTS = ("auto", "manual")  # design decision 6
WIN_TIMINGS = ("immediate", "invocation_check")
RELEASES = ("after_next_monster_phase", "start_of_next_turn")
CURSE_DESTINATIONS = ("bottom", "out")
MAX_SEED = 2**64 - 1  # numpy-sized seeds; a save writes the seed as a JSON number
DARK_MATTER_MODULE = "dark_matter"
DARK_MATTER_SWITCHES = ("black_book_inside_pages", "dark_curse_destroy_by_effect", "vth_magicians")
PHOBIA_MODULE = "phobias"
PHOBIA_SWITCHES = (
    "phobia_elimination",
    "phobia_leaves_support",
    "phobia_dealing",
    "spell_surcharge_element",
    "cure_cost_mode",
)
PHOBIA_ELIMINATIONS = ("no_slot", "literal_second_phobia")
PHOBIA_DEALINGS = ("round_robin", "by_player")  # V-24
SPELL_SURCHARGES = ("any", "spell")
CURE_COST_MODES = ("value", "cards")  # V-37
# The module switches that take one of a few names, with those names.
_CHOICE_SWITCHES = (
    ("phobia_elimination", PHOBIA_ELIMINATIONS),
    ("phobia_dealing", PHOBIA_DEALINGS),
    ("spell_surcharge_element", SPELL_SURCHARGES),
    ("cure_cost_mode", CURE_COST_MODES),
)
_PACK = '"default", "test" or a path to a pack file (str)'


@dataclass(frozen=True)
class GameConfig:
    """One game's settings. Build it with keyword arguments; ``validate()`` runs on init.

    Attributes:
        num_players: 2 to 5.
        difficulty: Round-track row, 1 (easy) to 3 (hard) (section 2.3).
        mode: "normal", "fear", "nightmare" or "fear+nightmare" (section 2.4, A-38).
        payment: "auto" (the engine picks a canonical least-waste payment) or "manual" (each card
            of a payment is its own decision, section 10.4).
        magicians: "random", or a tuple of Magician ids, one per seat.
        pack: "default", "test", or a path to a card-pack TOML file.
        pack_overrides: paths of override packs applied on top of ``pack`` in order.
        seed: the game's seed; the whole game follows from config + seed + moves.
        final_win_timing: A-05. arrival_effect_after_placement: A-03.
        neutralized_curse_release: A-19. irreducible_payments: A-18.
        destroyed_curse_destination: A-08. reward_optional: A-10.
        skip_forced_decisions: a decision with exactly one legal move is applied by the engine
            (it still appears in the event log); off, every decision is returned to the caller.
        modules: rules modules played with the base game (``rules.register``; ``import bbom_env``
            registers the Vth Element's "dark_matter" and "phobias", docs/vth_element.md). A set:
            kept in the canonical order (sorted by name, ``canonical_modules``) whatever order is
            given, so both orders are the same game, move ids and observation layout.
        black_book_inside_pages: V-01, the Black Book's Inside pages (1 to 12; Dark Matter module).
        dark_curse_destroy_by_effect: V-07, effects that destroy "a Curse" may destroy a Dark Curse
            (Dark Matter module). vth_magicians: V-18, the 4 new Magicians join the Magician choice
            (Dark Matter module).
        phobia_elimination: A-52, when placing a Phobia eliminates: "no_slot" (no free slot and
            nothing to crush) or "literal_second_phobia" (the support already holds a Phobia)
            (Phobia module). phobia_leaves_support: V-26, discard and destroy effects may take a
            Phobia out of a support (Phobia module). phobia_dealing: V-24, how an effect that
            gives several players Madness at once deals the face-up pile: "round_robin" (one card
            at a time in turn order from the Active Player) or "by_player" (each player all of
            theirs at their turn-order position) (Phobia module). spell_surcharge_element: A-50,
            the Element of "Activating Spells costs you 1 additional Element": "any" Element, or
            the activated "spell"'s own (Phobia module). cure_cost_mode: V-37, what the Cure Action
            costs: 2 Elements counted by "value" (A-11), or any 2 Element "cards", whatever their
            values (Phobia module).
    """

    num_players: int = 2
    difficulty: int = 1
    mode: str = "normal"
    payment: str = "auto"
    magicians: Any = "random"
    pack: str = "default"
    pack_overrides: tuple[str, ...] = ()
    seed: int = 0
    final_win_timing: str = "immediate"
    arrival_effect_after_placement: bool = True
    neutralized_curse_release: str = "after_next_monster_phase"
    irreducible_payments: bool = True
    destroyed_curse_destination: str = "bottom"
    reward_optional: bool = True
    skip_forced_decisions: bool = True
    modules: tuple[str, ...] = field(default=())
    # The Dark Matter module's switches (docs/rules_decisions.md; a non-default value needs the module).
    black_book_inside_pages: int = 3
    dark_curse_destroy_by_effect: bool = False
    vth_magicians: bool = True
    # The Phobia module's switches (a non-default value needs the module).
    phobia_elimination: str = "no_slot"
    phobia_leaves_support: bool = False
    phobia_dealing: str = "round_robin"
    spell_surcharge_element: str = "any"
    cure_cost_mode: str = "value"

    def __post_init__(self) -> None:
        # Friendly spellings, normalised before validation: lists for tuples, one path for a tuple
        # of one, os.PathLike paths for str. Anything else is validated as given.
        if isinstance(self.magicians, list):
            object.__setattr__(self, "magicians", tuple(self.magicians))
        if isinstance(self.pack, os.PathLike):
            object.__setattr__(self, "pack", _fspath(self.pack))
        overrides: object = self.pack_overrides  # as given: normalised below
        if isinstance(overrides, (str, os.PathLike)):
            overrides = (overrides,)
        if isinstance(overrides, list | tuple):
            object.__setattr__(self, "pack_overrides", tuple(_fspath(o) for o in overrides))
        if isinstance(self.modules, list | tuple):
            object.__setattr__(self, "modules", canonical_modules(tuple(self.modules)))
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError naming the first field whose value is not allowed, and what is."""
        self._check_numbers()
        self._check_options()
        if type(self.seed) is not int or not 0 <= self.seed <= MAX_SEED:
            raise self._bad("seed", "a non-negative int below 2**64")
        self._check_sources()
        if self.magicians != "random":
            self._check_magicians()

    def _bad(self, name: str, allowed: str) -> ConfigError:
        value = _short_repr(getattr(self, name))
        return ConfigError(f"GameConfig.{name}={value} is not allowed; allowed: {allowed}")

    def _check_numbers(self) -> None:
        """The player count and the difficulty level."""
        bad = self._bad
        if type(self.num_players) is not int or not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise bad("num_players", f"an int from {MIN_PLAYERS} to {MAX_PLAYERS}")
        if type(self.difficulty) is not int or self.difficulty not in (1, 2, 3):
            raise bad("difficulty", "1, 2 or 3")

    def _check_options(self) -> None:
        for name, allowed in (
            ("mode", MODES),
            ("payment", PAYMENTS),
            ("final_win_timing", WIN_TIMINGS),
            ("neutralized_curse_release", RELEASES),
            ("destroyed_curse_destination", CURSE_DESTINATIONS),
        ):
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise self._bad(name, ", ".join(allowed))
        for name in (
            "arrival_effect_after_placement",
            "irreducible_payments",
            "reward_optional",
            "skip_forced_decisions",
        ):
            if not isinstance(getattr(self, name), bool):
                raise self._bad(name, "True or False")

    def _check_sources(self) -> None:
        """The card pack, its overrides and the rules modules."""
        bad = self._bad
        if not _path_ok(self.pack):
            raise bad("pack", _PACK)
        if not isinstance(self.pack_overrides, tuple) or not all(_path_ok(p) for p in self.pack_overrides):
            raise bad(
                "pack_overrides", 'a tuple (or list) of override pack paths (str), e.g. ("my_cards.toml",)'
            )
        if not isinstance(self.modules, tuple) or not all(isinstance(m, str) for m in self.modules):
            raise bad("modules", "a tuple of module names (str); () for the base game")
        if self.modules:
            _check_modules(self.modules, bad)
        self._check_module_switches()

    def _check_module_switches(self) -> None:
        """The modules' switches (Dark Matter, Phobias): their types, and no switch moved off its
        default in a game without its module (it would do nothing: surely a mistake)."""
        if type(self.black_book_inside_pages) is not int or not 1 <= self.black_book_inside_pages <= 12:
            raise self._bad("black_book_inside_pages", "an int from 1 to 12 (V-01: the 12 Inside pages)")
        for name in ("dark_curse_destroy_by_effect", "vth_magicians"):
            if not isinstance(getattr(self, name), bool):
                raise self._bad(name, "True or False")
        if not isinstance(self.phobia_leaves_support, bool):
            raise self._bad("phobia_leaves_support", "True or False")
        for name, allowed in _CHOICE_SWITCHES:
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise self._bad(name, ", ".join(allowed))
        for module, switches in (
            (DARK_MATTER_MODULE, DARK_MATTER_SWITCHES),
            (PHOBIA_MODULE, PHOBIA_SWITCHES),
        ):
            if module in self.modules:
                continue
            for f in dataclasses.fields(self):
                if f.name in switches and getattr(self, f.name) != f.default:
                    raise self._bad(f.name, f"its default {f.default!r} without module {module!r} in modules")

    def _check_magicians(self) -> None:
        """A tuple of distinct Magician ids, one per player (when not "random")."""
        bad = self._bad
        ok = isinstance(self.magicians, tuple) and all(isinstance(m, str) and m for m in self.magicians)
        if not ok:
            raise bad("magicians", '"random" or a list of Magician ids, one per player')
        if len(self.magicians) != self.num_players:
            raise bad("magicians", f"exactly num_players={self.num_players} Magician ids")
        if len(set(self.magicians)) != len(self.magicians):
            raise bad("magicians", "distinct Magician ids (each sheet exists once)")

    @property
    def deals_round_robin(self) -> bool:
        """V-24: Madness for several players at once is dealt one card at a time, round-robin (the
        Phobia module's face-up pile makes the order matter; a base game keeps its order)."""
        return self.phobia_dealing == "round_robin" and PHOBIA_MODULE in self.modules

    @property
    def fear(self) -> bool:
        return "fear" in self.mode

    @property
    def nightmare(self) -> bool:
        return "nightmare" in self.mode

    def replace(self, **changes: Any) -> GameConfig:
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        if not isinstance(data, dict):
            raise ConfigError(f"a GameConfig is read from a dict of its fields, not {type(data).__name__}")
        _check_names(data)
        return cls(**data)


def _check_modules(modules: tuple[str, ...], bad: Any) -> None:
    """Registered modules (``rules.MODULES``, the base game aside), each once, with the modules
    they require (docs/rules.md section 9). Imported here, not at the top: a config is plain data."""
    from bbom_env.engine.core.rules import ruleset

    try:
        ruleset(modules)
    except ValueError as exc:
        raise bad("modules", f"registered module names, each once, () for the base game ({exc})") from None


def _check_names(data: dict[str, Any]) -> None:
    known = {f.name for f in dataclasses.fields(GameConfig)}
    unknown = sorted(set(data) - known, key=repr)
    if unknown:
        raise ConfigError(f"unknown GameConfig field(s) {unknown}; known: {sorted(known)}")


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits has no repr
        return f"<an int of {value.bit_length()} bits>"
    return text if len(text) <= 80 else text[:77] + "..."


def _fspath(value: Any) -> Any:
    """A path object as its str; anything else unchanged (then refused by validate)."""
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return path if isinstance(path, str) else value
    return value


def _path_ok(value: Any) -> bool:
    # Control characters (a NUL byte cannot be opened) are refused by the pack loader too.
    return isinstance(value, str) and bool(value) and value.isprintable()
