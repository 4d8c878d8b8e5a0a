"""The games API personas and helpers (tests/games/conftest.py) for the bot tests."""

from tests.games.conftest import (  # noqa: F401 - fixtures are found by name
    alice,
    bob,
    carol,
    lift_throttles,
    seeded_engine,
)
