"""The Dark Matter module is not registered by default (issue 11 is in progress): these tests
register it (engine only) for each test and unregister it after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bbom_env.modules.dark_matter.module import registered


@pytest.fixture
def dm() -> Iterator[None]:
    with registered():
        yield
