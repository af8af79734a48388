"""RL views of the engine: the flat action layout, the observation encoder and the environments.

Kept light on purpose: importing ``bbom_env.rl`` pulls in numpy only; the Gymnasium and PettingZoo
environments live in their own modules and import those libraries themselves.
"""

from .layout import ActionLayout
from .observation import ObservationEncoder

__all__ = ["ActionLayout", "ObservationEncoder"]
