"""A fifth game, added the way a real one is: its rules (``engine.py``, behind
``games.engine.interface.Game``) and its adapter (``adapter.py``: its action requests, its
table, its examples; games.kinds). Registering the adapter is the one line it needs outside this
folder (tests/games/test_toy_game.py does it in a fixture)."""

from tests.toygame.adapter import ADAPTER
from tests.toygame.engine import TOY

__all__ = ["ADAPTER", "TOY"]
