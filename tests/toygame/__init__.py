"""A fifth game, added the way a real one is: its rules (``engine.py``, behind
``games.engine.interface.Game``) and its adapter (``adapter.py``: its action requests, its
table, its examples; games.kinds). Registering the adapter is the one line it needs outside this
folder (``registered``, which tests/games/test_toy_game.py and the web client's test use in a
fixture)."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.urls import get_resolver

from games.kinds import registry as kinds
from tests.toygame.adapter import ADAPTER
from tests.toygame.engine import TOY

__all__ = ["ADAPTER", "TOY", "registered"]


@contextmanager
def registered() -> Iterator[None]:
    """The toy registered for the block, and nothing of it left behind after."""
    # Some serializers and views read the registered kinds when they are imported (ratings'
    # `kind` parameter): import them all first, so that the toy stays out of later tests' schema.
    get_resolver().url_patterns  # noqa: B018
    kinds.register(ADAPTER)  # the registration line
    try:
        yield
    finally:
        kinds.unregister(TOY.kind)
