"""The Phobia module is not registered by default (part A, issue 12): the ``ph`` fixture registers
it for one test and unregisters it after; ``game`` helpers build states with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bbom_env.modules.phobias.module import registered


@pytest.fixture
def ph() -> Iterator[None]:
    with registered():
        yield
