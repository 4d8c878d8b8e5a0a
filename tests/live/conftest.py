"""Shared setup for the live tests (the live app: announcements, the stream driver, keep-alives,
presence): the personas and helpers of the games tests, whose views they stream."""

from tests.games.conftest import (  # noqa: F401  (fixtures)
    alice,
    anonymous,
    bob,
    carol,
    dave,
    lift_throttles,
)
