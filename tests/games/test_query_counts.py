"""The number of queries behind the game view, an action, the event log and the game list does
not grow with the game's history (or the number of games).

The numbers are pinned: a change that adds a query shows up here, on purpose. They count
everything a request runs, savepoints included (the test runs inside a transaction, so the
service's atomic blocks are savepoints), and the bearer-token lookup.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services
from games.engine.uno.allwild.game import ALL_WILD as engine
from games.engine.uno.state import State
from games.models import Game, Move
from tests.games.conftest import API_TESTS, Player, start_game

pytestmark = API_TESTS

# Pinned after measuring (identical on SQLite and PostgreSQL).
# token, then one: the game's seats, each joined to the game and its user (selectors.
# game_with_seats), whose seats say whether I may see it.
VIEW_QUERIES = 2
# A conditional GET (If-None-Match) of a client still current: token, the game's version (if
# visible to me). The game itself is not loaded.
VIEW_NOT_MODIFIED_QUERIES = 2
# A conditional GET with an old ETag: the version first, then the view as without one.
VIEW_MODIFIED_QUERIES = VIEW_QUERIES + 1
# token, the seats with their users and the game FOR UPDATE (one query), insert move, update game
# (the view in the answer reuses the seats and the state the move just saved), and one UPDATE
# withdrawing the "your turn" notices the move made moot (notifications.outbox: one live notice
# per game). The action takes no savepoint inside a caller's transaction (here the test's;
# games.services.base.atomic_unless_in_one).
ACTION_QUERIES = 5
# One more when the action passes the turn, written in the move's transaction
# (notifications.outbox): the next player's "your turn" inbox row. Whether they have push
# subscriptions or webhook endpoints is asked (one UNION query) only of a player whose
# User.has_channel_targets says they may; these players have none. Players with a verified
# e-mail address, a subscription or an endpoint add two: their notification preferences and the
# delivery rows.
TURN_PASSING_ACTION_QUERIES = ACTION_QUERIES + 1
# The next player has a push subscription: the UNION, their preferences and the delivery row.
TURN_PASSING_TO_A_SUBSCRIBER_QUERIES = TURN_PASSING_ACTION_QUERIES + 3
# With an Idempotency-Key: the key's record, in the move's own transaction (here a savepoint and
# its release: the test runs inside a transaction). A fresh key is not looked up: only a failed
# insert (a used key) leads to the lookup, after the rollback (games.idempotency).
KEYED_ACTION_QUERIES = ACTION_QUERIES + 3
EVENTS_QUERIES = 4  # token, the game (if visible to me), my seat, one page of moves
LIST_QUERIES = 4  # token, the games, their seats, the seats' users
# token, my lobbies and running games, the lobbies I am invited to (selectors.live_games). The
# player's announcement mark is not a query (live.announce.user_mark).
LIVE_QUERIES = 3
INVITATIONS_QUERIES = 4  # token, the lobbies, their seats, the seats' users


def advance(game_id: str, players: list[Player], count: int, rng: random.Random) -> None:
    """Apply ``count`` random legal actions of the seat to move, through the service."""
    by_user = {p.user.pk: p.user for p in players}
    for _ in range(count):
        game = Game.objects.get(pk=game_id)
        state = State.from_dict(game.state)
        legal = engine.legal_actions(state, state.current)
        action = rng.choice(legal).to_dict()
        action.pop("seat")
        services.act(
            user=by_user[game.current_user_id],
            game_id=game_id,
            action=action,
            expected_version=None,
        )


def ready_to_draw(game_id: str, players: list[Player]) -> Player:
    """Bring the game to a plain turn (no drawn card, no open choice); return who is to move."""
    by_user = {p.user.pk: p for p in players}
    while True:
        game = Game.objects.get(pk=game_id)
        state = State.from_dict(game.state)
        player = by_user[game.current_user_id]
        if state.phase == "play" and (state.draw_pile or len(state.discard_pile) > 1):
            return player
        legal = [a.to_dict() for a in engine.legal_actions(state, state.current)]
        action = next(a for a in legal if a["type"] in ("pass", "choose_target", "play"))
        action.pop("seat")
        services.act(user=player.user, game_id=game_id, action=action, expected_version=None)


def history(game_id: str) -> int:
    return Move.objects.filter(game_id=game_id).count()


@pytest.fixture(params=["1 move", "200 moves"])
def game(request: Any, alice: Player, bob: Player) -> str:
    """A game of alice and bob with 1 move (the start) or over 200 moves of history."""
    game_id = start_game(alice, bob, target_score=100_000)
    if request.param == "200 moves":
        advance(game_id, [alice, bob], 200, random.Random(7))
        ready_to_draw(game_id, [alice, bob])
        assert history(game_id) >= 200
    else:
        ready_to_draw(game_id, [alice, bob])
        assert history(game_id) <= 2  # the start (and an opening target, if one was owed)
    for player in (alice, bob):  # the token's last_used_at is written once: warm it up
        assert player.get("/api/v1/games/").status_code == 200
    return game_id


def measure(django_assert_num_queries: Any, expected: int, call: Any) -> Any:
    with django_assert_num_queries(expected):
        response = call()
    assert response.status_code == 200, response.content
    return response


def draw_and_pass(
    django_assert_num_queries: Any, mover: Player, game_id: str, version: int
) -> None:
    """The mover draws (at ``version``), then passes the turn: each with its pinned queries."""
    measure(
        django_assert_num_queries,
        ACTION_QUERIES,
        lambda: mover.act(game_id, {"type": "draw", "expected_version": version}),
    )
    measure(
        django_assert_num_queries,
        TURN_PASSING_ACTION_QUERIES,
        lambda: mover.act(game_id, {"type": "pass"}),
    )


def test_the_game_view_and_an_action_take_the_same_queries_whatever_the_history(
    alice: Player, bob: Player, game: str, django_assert_num_queries: Any
) -> None:
    mover = alice if Game.objects.get(pk=game).current_user_id == alice.user.pk else bob
    version = Game.objects.get(pk=game).version

    measure(django_assert_num_queries, VIEW_QUERIES, lambda: alice.view(game))
    measure(django_assert_num_queries, VIEW_QUERIES, lambda: bob.view(game))
    draw_and_pass(django_assert_num_queries, mover, game, version)
    assert Game.objects.get(pk=game).version == version + 2
    mover = alice if Game.objects.get(pk=game).current_user_id == alice.user.pk else bob
    measure(
        django_assert_num_queries,
        KEYED_ACTION_QUERIES,
        lambda: mover.act(game, {"type": "draw"}, **{"Idempotency-Key": "counted"}),
    )
    etag = measure(django_assert_num_queries, VIEW_QUERIES, lambda: alice.view(game))["ETag"]
    with django_assert_num_queries(VIEW_NOT_MODIFIED_QUERIES):
        assert alice.view(game, **{"If-None-Match": etag}).status_code == 304
    measure(
        django_assert_num_queries,
        VIEW_MODIFIED_QUERIES,
        lambda: alice.view(game, **{"If-None-Match": '"an-older-etag"'}),
    )


def test_a_turn_passed_to_a_push_subscriber_takes_the_pinned_queries(
    alice: Player, bob: Player, game: str, django_assert_num_queries: Any
) -> None:
    from notifications.models import Delivery, PushSubscription

    mover = alice if Game.objects.get(pk=game).current_user_id == alice.user.pk else bob
    waiting = bob if mover is alice else alice
    PushSubscription.objects.create(
        user=waiting.user, endpoint="https://push.example/1", p256dh="k", auth="a"
    )

    measure(django_assert_num_queries, ACTION_QUERIES, lambda: mover.act(game, {"type": "draw"}))
    measure(
        django_assert_num_queries,
        TURN_PASSING_TO_A_SUBSCRIBER_QUERIES,
        lambda: mover.act(game, {"type": "pass"}),
    )
    pushes = Delivery.objects.filter(notification__user=waiting.user, channel="webpush")
    assert pushes.filter(notification__kind="your_turn").count() == 1


def test_an_events_page_takes_the_same_queries_whatever_the_history(
    alice: Player, game: str, django_assert_num_queries: Any
) -> None:
    measure(django_assert_num_queries, EVENTS_QUERIES, lambda: alice.events(game, limit=200))
    measure(django_assert_num_queries, EVENTS_QUERIES, lambda: alice.events(game, after=2, limit=5))


@pytest.mark.parametrize("count", [1, 10])
def test_the_game_lists_take_the_same_queries_whatever_their_length(
    alice: Player, bob: Player, django_assert_num_queries: Any, count: int
) -> None:
    for _ in range(count):
        start_game(alice, bob)
        alice.create(visibility="public")
    assert bob.get("/api/v1/games/").status_code == 200

    response = measure(django_assert_num_queries, LIST_QUERIES, lambda: bob.get("/api/v1/games/"))
    assert len(response.json()) == count
    response = measure(
        django_assert_num_queries, LIST_QUERIES, lambda: bob.get("/api/v1/games/open/")
    )
    assert len(response.json()) == count


@pytest.mark.parametrize("count", [1, 10])
def test_my_games_live_and_the_invitations_take_the_same_queries_whatever_their_number(
    alice: Player, bob: Player, django_assert_num_queries: Any, count: int
) -> None:
    for _ in range(count):
        finished = start_game(alice, bob)
        Game.objects.filter(pk=finished).update(status=Game.FINISHED)
        assert alice.post(f"/api/v1/games/{finished}/rematch/").status_code in (200, 201)
        start_game(alice, bob)
    assert bob.get("/api/v1/games/").status_code == 200

    live = measure(django_assert_num_queries, LIVE_QUERIES, lambda: bob.get("/api/v1/games/live/"))
    assert live.json()["invitations"] == count
    invited = measure(
        django_assert_num_queries,
        INVITATIONS_QUERIES,
        lambda: bob.get("/api/v1/games/invitations/"),
    )
    assert len(invited.json()) == count
