"""A rematch invites the other players of the finished game (an `invited` notification)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from notifications.models import Notification
from players.models import User


@pytest.mark.django_db
def test_a_rematch_invites_every_other_player_once() -> None:
    alice, bob, carol = (
        User.objects.create_user(username=name, password=f"pw-{name}-123")
        for name in ("alice", "bob", "carol")
    )
    game = services.create_game(host=alice, max_players=3)
    for user in (bob, carol):
        services.join_game(user=user, invite_code=game.invite_code)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)

    rematch = services.rematch(user=bob, game_id=game.pk)
    services.rematch(user=carol, game_id=game.pk)  # joins the same lobby, invites nobody again

    invited = Notification.objects.filter(kind="invited", game=rematch)
    assert sorted(n.user.username for n in invited) == ["alice", "carol"]
    assert all(n.data["by"] == "bob" for n in invited)
