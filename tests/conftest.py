"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pypi import fetch_package


@pytest.fixture(scope="session")
def pypi_package() -> Callable[[str, str], Path]:
    """``pypi_package(name, version)`` returns the unpacked package, from the cache after the first time."""
    return fetch_package
