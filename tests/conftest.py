"""Shared fixtures. ``tests/`` is on sys.path (pytest's rootdir conftest), so test modules import
the scenario builder as ``from builders import Scenario``."""

from __future__ import annotations

import os

import pytest
from builders import Scenario

# CI (.ci/run sets HYPOTHESIS_PROFILE=ci; so does CI=true) runs the hypothesis tests derandomized:
# the same examples on every run (seeded from each test), so whether a submission lands never
# depends on which random examples a run drew; local runs keep exploring new ones (and replay the
# failures they found).
try:
    from hypothesis import settings
except ImportError:  # the RLlib step's venv (.venv-rllib, scripts/setup_rllib.sh) has no hypothesis
    pass
else:
    settings.register_profile("ci", derandomize=True)
    profile = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
    settings.load_profile(profile)


@pytest.fixture
def sc() -> Scenario:
    """A cleared 2-player scenario of the test pack: P0 (Fire Magician) to act in the Action phase."""
    return Scenario().action_phase(0)
