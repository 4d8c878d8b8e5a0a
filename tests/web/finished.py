"""A game already played to its end, for the screens that show one (the replay page): a player
with a token, against heuristic bots, her seat handed to a bot too so that the turn sweep plays
every move."""

from __future__ import annotations

from games import services
from games.models import Game
from players.models import ApiToken, User


def finished_against_bots(
    kind: str, *, bots: int = 1, name: str = "alice", language: str = "en"
) -> tuple[str, User, str]:
    """(the game's id, the player, her play token) of a one-round game of ``kind`` that has
    finished."""
    user = User.objects.create_user(username=name, display_name=name.title(), language=language)
    _, token = ApiToken.issue(user, name="browser", scope=ApiToken.SCOPE_PLAY)
    game = services.play_vs_computer(
        user=user, bots_count=bots, kind=kind, target_score=0, level="heuristic"
    )
    services.hand_seat_to_bot(game.pk, user, level="heuristic")
    for _ in range(3000):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.ACTIVE:
            break
        assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    assert game.status == Game.FINISHED
    return str(game.pk), user, token
