"""The games the service knows, by kind: the one place a kind string becomes a ``Game``.

The registry is the top of the engine: it imports the built-in games, and no game imports it.
"""

from __future__ import annotations

from typing import Any

from .errors import INVALID_SETUP, EngineError
from .gin.game import GIN_RUMMY
from .interface import Game
from .uno.allwild.game import ALL_WILD
from .uno.nomercy.game import NO_MERCY
from .uno.splash.game import SPLASH

DEFAULT_KIND = ALL_WILD.kind

_GAMES: dict[str, Game[Any, Any]] = {
    ALL_WILD.kind: ALL_WILD,
    SPLASH.kind: SPLASH,
    NO_MERCY.kind: NO_MERCY,
    GIN_RUMMY.kind: GIN_RUMMY,
}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add ``game`` under its kind (tests register a toy game); a kind is registered once."""
    if game.kind in _GAMES and _GAMES[game.kind] is not game:
        raise ValueError(f"a game of kind {game.kind!r} is registered already")
    _GAMES[game.kind] = game
    return game


def unregister(kind: str) -> None:
    """Remove a kind registered by ``register`` (the default game stays)."""
    if kind != DEFAULT_KIND:
        _GAMES.pop(kind, None)


def get_game(kind: str | None = None) -> Game[Any, Any]:
    """The game of ``kind`` (the default game for ``None``); ``EngineError(invalid_setup)`` for an
    unknown kind."""
    game = _GAMES.get(DEFAULT_KIND if kind is None else kind)
    if game is None:
        raise EngineError(INVALID_SETUP, f"unknown game {kind!r}")
    return game


def kinds() -> list[str]:
    """Every registered kind, the default first."""
    return sorted(_GAMES, key=lambda k: (k != DEFAULT_KIND, k))
