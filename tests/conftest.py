"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pypi import fetch_package

#: ``pytester`` runs pytest on generated test files (the errdex pytest plugin's tests).
pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def pypi_package() -> Callable[..., Path]:
    """``pypi_package(name, version, sdist=False)`` returns the unpacked package, from the cache after
    the first time; ``sdist=True`` asks for the source distribution, tests and all."""
    return fetch_package
