"""Shared fixtures. ``tests/`` is on sys.path (pytest's rootdir conftest), so test modules import
the scenario builder as ``from builders import Scenario``."""

from __future__ import annotations

import pytest
from builders import Scenario


@pytest.fixture
def sc() -> Scenario:
    """A cleared 2-player scenario of the test pack: P0 (Fire Magician) to act in the Action phase."""
    return Scenario().action_phase(0)
