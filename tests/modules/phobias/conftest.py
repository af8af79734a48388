"""``import bbom_env`` registers the Phobia module; the ``ph`` fixture makes sure it is registered
for one test (after a test unregistered it); ``game`` helpers build states with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bbom_env.modules.phobias.module import registered


@pytest.fixture
def ph() -> Iterator[None]:
    with registered():
        yield
