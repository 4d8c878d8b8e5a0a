"""Games made through the services, for tests that need a started table but not the API: one
place for "alice hosts, bob joins, the game starts", with what differs given by keyword."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

from games import services
from games.models import Game
from players.models import User


def user(name: str, **fields: Any) -> User:
    return User.objects.create_user(username=name, **fields)  # no password: fast


def started_game(*, host: User, guest: User, seed: int | None = None, **create: Any) -> Game:
    """A two-player game of ``host`` and ``guest``, started by the guest's joining (nobody has
    moved yet). One round unless ``target_score`` is given; ``create`` goes to
    ``services.create_game``. ``seed`` fixes the deal and seat order."""
    create.setdefault("target_score", 0)
    game = services.create_game(host=host, max_players=2, **create)
    if seed is None:
        services.join_game(user=guest, invite_code=game.invite_code)  # the last seat: it starts
    else:
        rng = random.Random(seed)
        with mock.patch.object(services.base, "new_rng", lambda: rng):
            services.join_game(user=guest, invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game
