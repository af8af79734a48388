"""The rules engine of The Big Book of Madness: rules only, no RL library (design decision 1).

Typical use::

    from bbom_env.engine import GameConfig, new_game
    state = new_game(GameConfig(num_players=2, seed=0))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
"""

from . import base_module  # noqa: F401  (registers the base game's rules module and its frames)
from .cards import Pack, PackError, load_pack
from .config import ConfigError, GameConfig
from .decision import Decision, describe, pending
from .moves import decode, move_to_string, num_moves
from .resample import Resampler, resample
from .resolver import IllegalActionError
from .serialize import from_json, replay, to_json
from .setup import new_game
from .state import GameState, MoveTypeError, SaveError

__all__ = [
    "ConfigError",
    "Decision",
    "GameConfig",
    "GameState",
    "IllegalActionError",
    "MoveTypeError",
    "Pack",
    "PackError",
    "Resampler",
    "SaveError",
    "decode",
    "describe",
    "from_json",
    "load_pack",
    "move_to_string",
    "new_game",
    "num_moves",
    "pending",
    "replay",
    "resample",
    "to_json",
]
