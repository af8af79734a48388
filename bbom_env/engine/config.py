"""GameConfig: everything that defines a game, validated on construction (RULES.md section 2.5).

Rule switches default to the [PROPOSED] resolutions of RULES.md section 11; each names its
ambiguity id.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .constants import MAX_PLAYERS, MIN_PLAYERS


class ConfigError(ValueError):
    """A config field has a value outside its allowed set; the message names both."""


MODES = ("normal", "fear", "nightmare", "fear+nightmare")  # independent flags, presets
PAYMENTS = ("auto", "manual")  # design decision 6
WIN_TIMINGS = ("immediate", "invocation_check")
RELEASES = ("after_next_monster_phase", "start_of_next_turn")
CURSE_DESTINATIONS = ("bottom", "out")


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

    def __post_init__(self) -> None:
        if isinstance(self.magicians, list):
            object.__setattr__(self, "magicians", tuple(self.magicians))
        if isinstance(self.pack_overrides, (list, str)):
            v = (self.pack_overrides,) if isinstance(self.pack_overrides, str) else self.pack_overrides
            object.__setattr__(self, "pack_overrides", tuple(v))
        if isinstance(self.modules, list):
            object.__setattr__(self, "modules", tuple(self.modules))
        self.validate()

    def validate(self) -> None:
        def bad(name: str, allowed: str) -> ConfigError:
            return ConfigError(
                f"GameConfig.{name}={getattr(self, name)!r} is not allowed; allowed: {allowed}"
            )

        if type(self.num_players) is not int or not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise bad("num_players", f"an int from {MIN_PLAYERS} to {MAX_PLAYERS}")
        if type(self.difficulty) is not int or self.difficulty not in (1, 2, 3):
            raise bad("difficulty", "1, 2 or 3")
        for name, allowed in (
            ("mode", MODES),
            ("payment", PAYMENTS),
            ("final_win_timing", WIN_TIMINGS),
            ("neutralized_curse_release", RELEASES),
            ("destroyed_curse_destination", CURSE_DESTINATIONS),
        ):
            if getattr(self, name) not in allowed:
                raise bad(name, ", ".join(allowed))
        for name in (
            "arrival_effect_after_placement",
            "irreducible_payments",
            "reward_optional",
            "skip_forced_decisions",
        ):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")
        if type(self.seed) is not int or self.seed < 0:
            raise bad("seed", "a non-negative int")
        if not isinstance(self.pack, str) or not self.pack:
            raise bad("pack", '"default", "test" or a path to a pack file')
        if self.modules:
            raise bad("modules", "() (the Vth Element modules are not implemented yet)")
        if self.magicians != "random":
            if not isinstance(self.magicians, tuple) or not all(isinstance(m, str) for m in self.magicians):
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
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown GameConfig field(s) {unknown}; known: {sorted(known)}")
        return cls(**data)
