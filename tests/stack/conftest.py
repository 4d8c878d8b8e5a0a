"""The stack tests (tests/stack): every service of docker-compose.yml started on this machine.

They take minutes and start PostgreSQL databases, nginx and browsers of their own, so the usual
passes (``dev.py test``, CI's SQLite and PostgreSQL passes) leave them out: they are deselected
(never skipped) unless ``STACK_TESTS=1``, which .ci/run's "Stack" section sets.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.conftest import browser, playwright  # noqa: F401 - fixtures, found by name

HERE = Path(__file__).parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "stack: starts the whole stack (tests/stack); runs only with STACK_TESTS=1"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("STACK_TESTS") == "1":
        return
    left_out = [item for item in items if item.get_closest_marker("stack")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("stack")]
