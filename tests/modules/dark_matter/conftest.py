"""``import bbom_env`` registers the Dark Matter module; the ``dm`` fixture makes sure it is
registered (another test may have unregistered it) and ``no_dm`` takes it away for one test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bbom_env.engine.core.rules import MODULES, register, unregister
from bbom_env.modules.dark_matter.module import DARK_MATTER_MODULE, NAME, registered


@pytest.fixture
def dm() -> Iterator[None]:
    with registered():
        yield


@pytest.fixture
def no_dm() -> Iterator[None]:
    """The module unregistered for one test, registered again after."""
    was = NAME in MODULES
    if was:
        unregister(NAME)
    try:
        yield
    finally:
        if was:
            register(DARK_MATTER_MODULE)
