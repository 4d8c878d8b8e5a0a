"""Shared setup for the ratings tests: the personas alice, bob, carol and dave (bearer-token API
clients, from tests/games) and helpers that finish a rated match."""

from __future__ import annotations

from tests.games.conftest import (  # noqa: F401  (fixtures re-exported for this package)
    Player,
    alice,
    anonymous,
    bob,
    carol,
    dave,
    everyone,
    lift_throttles,
    make_player,
    seeded_engine,
)
