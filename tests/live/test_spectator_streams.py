"""A spectator's stream (``games/{id}/watch/stream/``): the game stream's steps with a
spectator's plan. Without a delay it forwards each move's public news with no query; new
settings for spectators in the news (the host made the game private) send it to the database,
which ends it; with a delay it reads the moves up to the version it is shown. And a move costs
the web process the same queries whether or not spectators watch."""

from __future__ import annotations

from typing import Any

import pytest

from games.api import streams
from games.models import Game, Move
from live import announce, presence
from players.models import ApiToken
from tests.games.conftest import API_TESTS, Player, game_url, player_to_move, start_game
from tests.games.test_query_counts import draw_and_pass, ready_to_draw
from tests.social.test_spectators import play_moves, set_spectating

pytestmark = API_TESTS


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """``with committed():`` runs the block's after-commit work (the live announcements) at
    its end, as a commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def plan_for(spectator: Player, game_id: str, delay: int = 0) -> streams.StreamPlan:
    game = Game.objects.get(pk=game_id)
    return streams.StreamPlan(
        game_id=game_id,
        kind=game.kind,
        user=spectator.user,
        token_id=ApiToken.objects.get(user=spectator.user).pk,
        seat=None,
        update={},
        watch=(game.spectating, delay),
    )


def spectator_json(spectator: Player, game_id: str, after: int) -> dict[str, Any]:
    response = spectator.get(game_url(game_id, "watch/stream/"), {"after": after})
    assert response.status_code == 200, response.content
    return response.json()


def test_without_a_delay_the_stream_forwards_the_public_news_with_no_query(
    alice: Player,
    bob: Player,
    carol: Player,
    committed: Any,
    django_assert_num_queries: Any,
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    before = Game.objects.get(pk=game_id).version
    with committed():
        play_moves([alice, bob], game_id, 3)
    after = Game.objects.get(pk=game_id).version
    plan = plan_for(carol, game_id)
    notifier = announce.notifier
    with django_assert_num_queries(0):
        update, last = streams._from_news(plan, before, before, after, notifier())
    assert update is not None and last is not None
    assert update == spectator_json(carol, game_id, before)
    # Every spectator's stream sends the one update made for the first.
    again, _ = streams._from_news(plan_for(carol, game_id), before, before, after, notifier())
    assert again is update
    assert [m["version"] for m in update["moves"]] == list(range(before + 1, after + 1))


def test_new_settings_in_the_news_end_the_stream_of_a_spectator_no_longer_let_in(
    alice: Player, bob: Player, carol: Player, committed: Any
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    plan = plan_for(carol, game_id)
    version = Game.objects.get(pk=game_id).version
    assert set_spectating(alice, game_id, spectating="private").status_code == 200
    with committed():
        play_moves([alice, bob], game_id, 1)
    notifier = announce.notifier()
    assert notifier.news_after(game_id, version, version + 1)[-1]["watch"] == ["private", 0]
    assert streams._from_news(plan, version, version, version + 1, notifier) == (None, None)
    assert streams._fetch(plan, version) == (None, "not_found", False)


def test_a_moment_without_a_move_is_read_from_the_database(
    alice: Player, bob: Player, carol: Player, committed: Any
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    notifier = announce.notifier()
    lobby_like = {"version": version + 1, "status": "active", "turn": None, "actors": None}
    notifier.publish(
        game_id, version + 1, {**lobby_like, "moves": [], "private": [], "watch": ["public", 0]}
    )
    plan = plan_for(carol, game_id)
    assert streams._from_news(plan, version, version, version + 1, notifier) == (None, None)


def test_with_a_delay_the_stream_reads_the_moves_up_to_the_version_shown(
    alice: Player, bob: Player, carol: Player, committed: Any
) -> None:
    game_id = start_game(alice, bob, target_score=0, spectator_delay=2)
    first = Game.objects.get(pk=game_id).version
    with committed():
        play_moves([alice, bob], game_id, 5)
    plan = plan_for(carol, game_id, delay=2)
    notifier = announce.notifier()
    now = Game.objects.get(pk=game_id).version
    assert streams._from_news(plan, first, first, now, notifier) == (None, None)
    update, reason, view = streams._fetch(plan, first)
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    assert (reason, view) == ("", False)
    assert update is not None and update["version"] == numbers[-3]
    assert [m["version"] for m in update["moves"]] == [
        n for n in numbers if first < n <= numbers[-3]
    ]


@pytest.mark.parametrize("watched", [False, True])
def test_a_move_costs_the_web_process_no_more_queries_with_spectators_watching(
    alice: Player,
    bob: Player,
    carol: Player,
    dave: Player,
    watched: bool,
    django_assert_num_queries: Any,
) -> None:
    game_id = start_game(alice, bob, target_score=100_000)
    ready_to_draw(game_id, [alice, bob])
    for player in (alice, bob):  # the token's last_used_at is written once: warm it up
        assert player.get("/api/v1/games/").status_code == 200
    if watched:
        for spectator in (carol, dave):
            assert spectator.get(game_url(game_id, "watch/")).status_code == 200
            presence.mark_watching(spectator.user.pk, game_id, 60, "tab")
    mover = player_to_move([alice, bob], game_id)
    version = Game.objects.get(pk=game_id).version
    draw_and_pass(django_assert_num_queries, mover, game_id, version)
    if watched:
        assert spectator_json(carol, game_id, version)["version"] == version + 2
