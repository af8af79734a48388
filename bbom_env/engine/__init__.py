"""The rules engine of The Big Book of Madness: rules only, no RL library (design decision 1).

Typical use::

    from bbom_env.engine import GameConfig, new_game
    state = new_game(GameConfig(num_players=2, seed=0))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
"""

from bbom_env.engine.actions import base_game as base_module  # noqa: F401  (registers the base game's rules module and its frames)
from bbom_env.engine.cards.pack import Pack, PackError, load_pack
from bbom_env.engine.core.config import ConfigError, GameConfig
from bbom_env.engine.core.moves import decode, move_to_string, num_moves
from bbom_env.engine.core.resample import Resampler, resample
from bbom_env.engine.core.resolver import IllegalActionError
from bbom_env.engine.core.state import GameState, MoveTypeError, SaveError
from bbom_env.engine.io.serialize import from_json, replay, to_json
from bbom_env.engine.io.setup import new_game
from bbom_env.engine.play.decision import Decision, describe, pending

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
