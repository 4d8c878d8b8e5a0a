"""Live updates in process: the long-poll's contract (``events/?wait=``) and the stream's
(``stream/``) through the test client, and both through the live server (a WSGI server: a
long-poll woken by a move, the stream's keep-alive and end)."""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import pytest
from django.test import override_settings

from games.models import Game
from live import announce
from tests.games.conftest import (
    Player,
    game_url,
    player_to_move,
    random_action,
    start_game,
)
from tests.live.servers import (
    EventReader,
    Poll,
    open_stream,
)

# The pass's Redis (pub/sub, user marks) and uvicorn on its database: on both passes of CI.
pytestmark = pytest.mark.services


# ---------------------------------------------------------------------------------------------
# In-process: the long-poll's contract


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, float | None]]:
    """The notifier's waits of the requests in the test, answered at once as if their time ran
    out: an answer "at once" is one with no wait here, not one that came fast."""
    seen: list[tuple[str, int, float | None]] = []

    async def wait(self: Any, key: Any, *, above: int, timeout: float | None, **_: Any) -> None:
        seen.append((str(key), above, timeout))

    def wait_blocking(self: Any, key: Any, *, above: int, timeout: float) -> None:
        seen.append((str(key), above, timeout))

    monkeypatch.setattr(announce.Notifier, "wait", wait)
    monkeypatch.setattr(announce.Notifier, "wait_blocking", wait_blocking)
    return seen


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
class TestLongPollContract:
    def test_without_wait_the_move_log_answers_as_before(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.events(game_id)
        assert response.status_code == 200
        page = response.json()
        assert set(page) == {"moves", "next_after", "has_more"}
        assert page["next_after"] == version and page["has_more"] is False
        empty = alice.events(game_id, after=version)
        assert waits == []
        assert empty.json() == {"moves": [], "next_after": version, "has_more": False}

    def test_moves_already_there_are_answered_at_once(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.events(game_id, after=0, wait=25)
        assert waits == []
        assert response.status_code == 200
        assert response.json()["moves"], "the start is a move"
        assert response.json() == alice.events(game_id, after=0).json()

    def test_nothing_new_answers_an_empty_page_when_the_wait_is_over(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.events(game_id, after=version, wait=1)
        assert response.status_code == 200
        assert response.json() == {"moves": [], "next_after": version, "has_more": False}
        # One wait, for a version above this one, of up to the second asked; it ran out.
        ((key, above, timeout),) = waits
        assert (key, above) == (game_id, version)
        assert timeout is not None and 0.5 < timeout <= 1

    @pytest.mark.parametrize("wait", ["-1", "26", "abc", "1.5", ""])
    def test_wait_must_be_a_whole_number_of_seconds_up_to_25(
        self, alice: Player, bob: Player, wait: str, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.get(game_url(game_id, "events/") + f"?wait={wait}")
        assert waits == []
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == "invalid_request"

    def test_a_strangers_long_poll_is_404_at_once(
        self, alice: Player, bob: Player, carol: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = carol.events(game_id, after=version, wait=10)
        assert waits == []
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
        missing = carol.events(uuid.uuid4(), wait=10)
        assert missing.status_code == 404

    def test_without_credentials_it_is_401(
        self, alice: Player, bob: Player, anonymous: Any
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = anonymous.get(game_url(game_id, "events/"), {"wait": 5})
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_a_waiting_client_is_marked_as_watching_the_game(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long poll that waits records that its player watches the game (live.presence)."""
    from live import presence

    calls: list[tuple[Any, Any, Any]] = []

    def mark_watching(user_id: Any, game_id: Any, ttl: Any, tab: str = "") -> None:
        calls.append((user_id, game_id, ttl))

    monkeypatch.setattr(presence, "mark_watching", mark_watching)
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    assert alice.events(game_id, after=version).status_code == 200
    assert calls == []  # no wait, no presence
    assert alice.events(game_id, after=version, wait=1).status_code == 200
    assert calls == [(alice.user.pk, game_id, 6)]


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
class TestStreamContract:
    def test_without_event_stream_accept_it_answers_the_first_update_as_json(
        self, alice: Player, bob: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.get(game_url(game_id, "stream/"))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        update = response.json()
        assert update["version"] == version and update["status"] == "active"
        assert update["moves"] == alice.events(game_id).json()["moves"]
        assert update["next_after"] == version and update["has_more"] is False

    @pytest.mark.parametrize(
        ("query", "headers"),
        [("?after=-1", {}), ("?after=x", {}), ("", {"Last-Event-ID": "x"})],
    )
    def test_a_bad_cursor_is_400(
        self, alice: Player, bob: Player, query: str, headers: dict[str, str]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.get(
            game_url(game_id, "stream/") + query, Accept="text/event-stream", **headers
        )
        assert response.status_code == 400
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "invalid_request"

    def test_a_stranger_gets_404_in_json_even_when_asking_for_a_stream(
        self, alice: Player, bob: Player, carol: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = carol.get(game_url(game_id, "stream/"), Accept="text/event-stream")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "not_found"


# ---------------------------------------------------------------------------------------------
# In-process, through the live server (WSGI): woken by a move made by another client


def _act_for_whoever_moves(players: list[Player], game_id: str) -> None:
    player = player_to_move(players, game_id)
    view = player.table(game_id)
    response = player.act(game_id, random_action(view, random.Random(7)))
    assert response.status_code == 200, response.content


def _started_duel(alice: Player, bob: Player) -> tuple[str, int]:
    """A one-round game of two and its version, for a client to wait on."""
    game_id = start_game(alice, bob, target_score=0)
    return game_id, Game.objects.get(pk=game_id).version


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
class TestUnderTheLiveServer:
    def test_a_waiting_long_poll_returns_within_a_second_of_a_move(
        self, live_server: Any, alice: Player, bob: Player
    ) -> None:
        game_id, version = _started_duel(alice, bob)
        poll = Poll(
            f"{live_server.url}{game_url(game_id, 'events/')}?after={version}&wait=10", bob.token
        )
        poll.start()
        assert announce.notifier().wait_for_waiters(game_id, timeout=10), "the poll never waited"
        assert poll.is_alive(), "the long-poll answered before anything happened"
        moved_at = time.monotonic()
        _act_for_whoever_moves([alice, bob], game_id)
        poll.join(timeout=10)
        assert not poll.is_alive() and poll.error is None, poll.error
        latency = poll.finished_at - moved_at
        print(
            f"\nlong-poll wake-up after a move (live server, in-process publish): {latency:.3f} s"
        )
        # Woken by the move, well before its ten seconds ran out (which answer no moves).
        assert poll.status == 200, poll.body
        assert [m["version"] for m in poll.body["moves"]] == [version + 1]

    def test_the_stream_keeps_alive_and_ends_with_the_game_under_wsgi(
        self, live_server: Any, alice: Player, bob: Player
    ) -> None:
        game_id, version = _started_duel(alice, bob)
        with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
            connection, response = open_stream(
                live_server.url, game_url(game_id, "stream/"), bob.token
            )
            try:
                assert response.status == 200
                assert response.getheader("Content-Type") == "text/event-stream"
                reader = EventReader(response)
                reader.start()
                first = reader.next(5)
                assert first is not None and first.event == "version"
                assert first.json()["version"] == version and first.id == str(version)
                beat = reader.next(3, comments=True)
                assert beat is not None and beat.comment and beat.data == "keep-alive"
                # alice leaves: bob wins, the game is over, the stream says so and ends.
                assert alice.leave(game_id).status_code == 200
                update = reader.next(5)
                assert update is not None and update.event == "version"
                assert update.json()["status"] == "finished"
                assert update.json()["moves"]
                last_id = update.id
                end = reader.next(5)
                assert end is not None and end.event == "end"
                assert end.json() == {"reason": "finished"}
                assert reader.next(5) is None  # closed by the server
            finally:
                connection.close()
        # Reconnecting with everything delivered: 204, which stops EventSource for good.
        connection, response = open_stream(
            live_server.url,
            game_url(game_id, "stream/"),
            bob.token,
            {"Last-Event-ID": str(last_id)},
        )
        try:
            assert response.status == 204
        finally:
            connection.close()
