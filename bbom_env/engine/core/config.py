"""GameConfig: everything that defines a game, validated on construction (docs/rules.md section 2.5).

Rule switches default to the [PROPOSED] resolutions of docs/rules.md section 11; each names its
ambiguity id.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bbom_env.engine.cards.vocab import show
from bbom_env.engine.core.moves import canonical_modules
from bbom_env.engine.model.constants import MAX_PLAYERS, MIN_PLAYERS


class ConfigError(ValueError):
    """A config field has a value outside its allowed set; the message names both."""


MODES = ("normal", "fear", "nightmare", "fear+nightmare")  # independent flags, presets
PAYMENTS = ("auto", "manual")  # design decision 6
MAX_SEED = 2**64 - 1  # numpy-sized seeds; a save writes the seed as a JSON number


@dataclass(frozen=True, init=False)
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
        switches: the rules switches of the modules (``rules.Switch``, declared by each module:
            docs/rules_decisions.md), given as keywords (``phobia_dealing="by_player"``) or as a
            mapping (``switches={...}``); read with ``switch(name)``. Held here are those moved
            off their defaults, sorted by name; a game without a switch's module takes only its
            default (which it drops).
    """

    num_players: int
    difficulty: int
    mode: str
    payment: str
    magicians: Any
    pack: str
    pack_overrides: tuple[str, ...]
    seed: int
    final_win_timing: str
    arrival_effect_after_placement: bool
    neutralized_curse_release: str
    irreducible_payments: bool
    destroyed_curse_destination: str
    reward_optional: bool
    skip_forced_decisions: bool
    modules: tuple[str, ...]
    switches: tuple[tuple[str, Any], ...]
    # Every switch of the game's modules with its value (``switch``); derived, not compared.
    _values: dict[str, Any] = dataclasses.field(init=False, compare=False, repr=False)

    def __init__(
        self,
        *,
        num_players: int = 2,
        difficulty: int = 1,
        mode: str = "normal",
        payment: str = "auto",
        magicians: Any = "random",
        pack: str = "default",
        pack_overrides: tuple[str, ...] = (),
        seed: int = 0,
        final_win_timing: str = "immediate",
        arrival_effect_after_placement: bool = True,
        neutralized_curse_release: str = "after_next_monster_phase",
        irreducible_payments: bool = True,
        destroyed_curse_destination: str = "bottom",
        reward_optional: bool = True,
        skip_forced_decisions: bool = True,
        modules: tuple[str, ...] = (),
        switches: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
        **switch_values: Any,
    ) -> None:
        given = dict(locals())
        # Friendly spellings, normalised before validation: lists for tuples, one path for a tuple
        # of one, os.PathLike paths for str. Anything else is validated as given.
        if isinstance(magicians, list):
            given["magicians"] = tuple(magicians)
        given["pack"] = _fspath(pack)
        overrides: object = (
            (pack_overrides,) if isinstance(pack_overrides, (str, os.PathLike)) else pack_overrides
        )
        if isinstance(overrides, list | tuple):
            given["pack_overrides"] = tuple(_fspath(o) for o in overrides)
        if isinstance(modules, list | tuple):
            given["modules"] = canonical_modules(tuple(modules))
        for name in _BASE_FIELDS:
            object.__setattr__(self, name, given[name])
        try:
            pairs = dict(switches.items() if isinstance(switches, Mapping) else switches)
        except (TypeError, ValueError):
            pairs = None
        if pairs is None or isinstance(switches, str):
            raise ConfigError(
                f"GameConfig.switches={show(switches, 80)} is not allowed; allowed: a mapping of switches"
            )
        # A keyword switch wins over the same name in ``switches`` (``replace`` passes both).
        object.__setattr__(self, "_given", {**pairs, **switch_values})
        object.__setattr__(self, "switches", ())
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError naming the first field whose value is not allowed, and what is."""
        for name, ok, allowed in _CHECKS:
            if not ok(getattr(self, name)):
                raise self._bad(name, allowed)
        if self.modules:  # registered modules, each once, with those they require (rules.md section 9)
            from bbom_env.engine.core.rules import ruleset  # (here: a config is plain data)

            try:
                ruleset(self.modules)
            except ValueError as exc:
                allowed = f"registered module names, each once, () for the base game ({exc})"
                raise self._bad("modules", allowed) from None
        self._check_module_switches()
        if self.magicians != "random":
            self._check_magicians()

    def _bad(self, name: str, allowed: str, *value: Any) -> ConfigError:
        shown = show(value[0] if value else getattr(self, name), 80)
        return ConfigError(f"GameConfig.{name}={shown} is not allowed; allowed: {allowed}")

    def _check_module_switches(self) -> None:
        """The modules' switches (``rules.Switch``): each declared by a registered module, a value
        it allows, and no switch moved off its default in a game without its module (it would do
        nothing: surely a mistake). Keeps those moved off their defaults, and every value of the
        game's switches for ``switch``."""
        from bbom_env.engine.core.rules import switch_defaults, switch_owner

        given = self.__dict__.get("_given", dict(self.switches))
        unknown = sorted((n for n in given if not isinstance(n, str) or switch_owner(n) is None), key=repr)
        if unknown:
            raise ConfigError(
                f"unknown GameConfig field(s) {show(unknown, 80)}: not a field, nor a switch of a "
                f"registered module ({', '.join(self.switch_names()) or 'none'})"
            )
        moved = []
        for name, value in given.items():
            module, sw = switch_owner(name)  # type: ignore[misc]  # (none unknown, above)
            allowed = sw.refusal(value)
            if allowed:
                raise self._bad(name, allowed, value)
            if value != sw.default:
                if module not in self.modules:
                    raise self._bad(
                        name, f"its default {sw.default!r} without module {module!r} in modules", value
                    )
                moved.append((name, value))
        object.__setattr__(self, "switches", tuple(sorted(moved)))
        object.__setattr__(self, "_values", {**switch_defaults(self.modules), **dict(moved)})
        self.__dict__.pop("_given", None)

    def switch(self, name: str) -> Any:
        """The value of rules switch ``name`` in this game (its default for a registered module
        the game does not play); ConfigError for a name no registered module declares."""
        try:
            return self._values[name]
        except KeyError:
            from bbom_env.engine.core.rules import switch_owner

            owner = switch_owner(name)
            if owner is None:
                raise ConfigError(f"no registered module declares a switch {name!r}") from None
            return owner[1].default

    @staticmethod
    def field_names() -> list[str]:
        """Its fields, the module switches aside (``switches``)."""
        return list(_BASE_FIELDS)

    @staticmethod
    def switch_names() -> list[str]:
        """The registered modules' switches (``rules.Switch``), each a keyword GameConfig takes."""
        from bbom_env.engine.core.rules import switch_defaults

        return list(switch_defaults())

    @staticmethod
    def known_names() -> list[str]:
        """Every keyword GameConfig takes: its fields and the registered modules' switches."""
        return [*_BASE_FIELDS, "switches", *GameConfig.switch_names()]

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
    def fear(self) -> bool:
        return "fear" in self.mode

    @property
    def nightmare(self) -> bool:
        return "nightmare" in self.mode

    def replace(self, **changes: Any) -> GameConfig:
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The fields (lists for tuples), then the value of every switch of the game's modules."""
        d: dict[str, Any] = {}
        for name in _BASE_FIELDS:
            v = getattr(self, name)
            d[name] = list(v) if isinstance(v, tuple) else v
        return {**d, **self._values}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        if not isinstance(data, dict):
            raise ConfigError(f"a GameConfig is read from a dict of its fields, not {type(data).__name__}")
        _check_names(data)
        return cls(**data)


def _check_names(data: dict[str, Any]) -> None:
    known = set(GameConfig.known_names())
    unknown = sorted(set(data) - known, key=repr)
    if unknown:
        raise ConfigError(f"unknown GameConfig field(s) {unknown}; known: {sorted(known)}")


def _fspath(value: Any) -> Any:
    """A path object as its str; anything else unchanged (then refused by validate)."""
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return path if isinstance(path, str) else value
    return value


def _path_ok(value: Any) -> bool:
    # Control characters (a NUL byte cannot be opened) are refused by the pack loader too.
    return isinstance(value, str) and bool(value) and value.isprintable()


Check = tuple[str, Callable[[Any], bool], str]  # (field, test of its value, what is allowed)


def _ints(name: str, low: int, high: int, allowed: str) -> Check:
    return name, lambda v: type(v) is int and low <= v <= high, allowed


def _choice(name: str, options: tuple[str, ...]) -> Check:
    return name, lambda v: isinstance(v, str) and v in options, ", ".join(options)


def _flag(name: str) -> Check:
    return name, lambda v: isinstance(v, bool), "True or False"


# The checks of the plain fields, in the order ``validate`` runs them.
_CHECKS: tuple[Check, ...] = (
    _ints("num_players", MIN_PLAYERS, MAX_PLAYERS, f"an int from {MIN_PLAYERS} to {MAX_PLAYERS}"),
    _ints("difficulty", 1, 3, "1, 2 or 3"),
    _choice("mode", MODES),
    _choice("payment", PAYMENTS),
    _choice("final_win_timing", ("immediate", "invocation_check")),
    _choice("neutralized_curse_release", ("after_next_monster_phase", "start_of_next_turn")),
    _choice("destroyed_curse_destination", ("bottom", "out")),
    _flag("arrival_effect_after_placement"),
    _flag("irreducible_payments"),
    _flag("reward_optional"),
    _flag("skip_forced_decisions"),
    _ints("seed", 0, MAX_SEED, "a non-negative int below 2**64"),
    ("pack", _path_ok, '"default", "test" or a path to a pack file (str)'),
    (
        "pack_overrides",
        lambda v: isinstance(v, tuple) and all(map(_path_ok, v)),
        'a tuple (or list) of override pack paths (str), e.g. ("my_cards.toml",)',
    ),
    (
        "modules",
        lambda v: isinstance(v, tuple) and all(isinstance(m, str) for m in v),
        "a tuple of module names (str); () for the base game",
    ),
)
_BASE_FIELDS = tuple(f.name for f in dataclasses.fields(GameConfig) if f.init and f.name != "switches")
