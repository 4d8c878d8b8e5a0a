"""The game view's fast path (games/api/fast_view.py, games/view_cache.py, players/token_cache.py).

Only with Redis (the PostgreSQL + Redis pass): without REDIS_URL there is no fast path, and every
other test of the game view covers the DRF view alone. These tests commit (``transaction=True``),
because the caches are only written once a transaction commits.

The fast answer must be the DRF view's answer to the byte, headers included; it must never show
a version older than the latest announced one; and a token must stop working on it as soon as it
is revoked or its player suspended.
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
import weakref
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

from config import redis_clients
from games import live, view_cache
from games.api import fast_view
from players import services as player_services
from players import token_cache
from players.models import ApiToken
from tests.games.conftest import Player, game_url, player_to_move, random_action, start_game

REDIS_URL = os.environ.get("REDIS_URL", "").strip()

if REDIS_URL:
    import redis

    pytestmark = [
        pytest.mark.django_db(transaction=True),
        pytest.mark.usefixtures("lift_throttles"),
    ]

    @dataclass
    class Answer:
        status_code: int
        headers: list[tuple[bytes, bytes]]
        content: bytes

        def json(self) -> Any:
            return json.loads(self.content)

        def header(self, name: str) -> str:
            return next(v.decode() for k, v in self.headers if k.decode().lower() == name.lower())

    async def _asgi_get(path: str, headers: dict[str, str], query: str = "") -> Answer:
        from config.asgi import application

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query.encode(),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)
        body = b""
        while True:
            message = await communicator.receive_output(10)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await communicator.wait(10)
        return Answer(start["status"], list(start["headers"]), body)

    def asgi_view(player: Player, game_id: Any, query: str = "", **headers: str) -> Answer:
        """``GET games/{id}/`` through config.asgi's application, as uvicorn would send it."""
        return async_to_sync(_asgi_get)(
            game_url(game_id),
            {"Host": "testserver", "Authorization": f"Bearer {player.token}", **headers},
            query,
        )

    @pytest.fixture
    def served(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
        """Records, for each game view request, whether the fast path answered it."""
        record: list[bool] = []
        real = fast_view.answer

        async def spy(*args: Any) -> Any:
            response = await real(*args)
            record.append(response is not None)
            return response

        monkeypatch.setattr(fast_view, "answer", spy)
        return record

    def slow_view(player: Player, game_id: Any, monkeypatch: pytest.MonkeyPatch, **h: str) -> Any:
        """Django's own answer (the fast path switched off for this one request)."""

        async def none(*args: Any) -> None:
            return None

        with monkeypatch.context() as m:
            m.setattr(fast_view, "answer", none)
            return asgi_view(player, game_id, **h)

    def same_answer(fast: Answer, slow: Answer) -> None:
        assert fast.status_code == slow.status_code
        assert fast.content == slow.content
        assert sorted(fast.headers) == sorted(slow.headers)

    def test_every_players_fast_view_is_the_drf_views_answer_through_a_whole_game(
        alice: Player,
        bob: Player,
        carol: Player,
        seeded_engine: Any,
        served: list[bool],
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        seeded_engine(7)
        table = [alice, bob, carol]
        game_id = start_game(*table, target_score=0)
        for player in table:
            player.view(game_id)  # the DRF view: remembers the token and the snapshot
        rng = random.Random(7)
        fast_answers = 0
        for _ in range(40):
            for player in table:
                served.clear()
                fast = asgi_view(player, game_id)
                assert served == [True], "the fast path did not answer"
                fast_answers += 1
                same_answer(fast, slow_view(player, game_id, monkeypatch))
                etag = fast.header("ETag")
                served.clear()
                not_modified = asgi_view(player, game_id, **{"If-None-Match": etag})
                assert served == [True] and not_modified.status_code == 304
                same_answer(
                    not_modified,
                    slow_view(player, game_id, monkeypatch, **{"If-None-Match": etag}),
                )
            view = fast.json()
            if view["status"] != "active":
                break
            mover = player_to_move(table, game_id)
            response = mover.act(game_id, random_action(mover.table(game_id), rng))
            assert response.status_code == 200, response.content
        assert fast_answers >= 30

    def test_a_new_version_is_never_answered_with_an_older_snapshot(
        alice: Player, bob: Player, served: list[bool], seeded_engine: Any
    ) -> None:
        seeded_engine(3)
        game_id = start_game(alice, bob)
        alice.view(game_id)
        bob.view(game_id)
        version = bob.table(game_id)["version"]
        # Another process announces a newer version (a move whose answer is not stored yet).
        live.publish(game_id, version + 1)
        served.clear()
        assert asgi_view(bob, game_id).json()["version"] == version  # the database's version
        assert served == [False]
        # A late write of the older snapshot does not bring it back.
        client = redis.Redis.from_url(REDIS_URL)
        pipe = client.pipeline(transaction=False)
        old = view_cache.snapshot(bob.table(game_id), None, None)
        view_cache.store(pipe, game_id, version, old)
        pipe.execute()
        served.clear()
        asgi_view(bob, game_id)
        assert served == [False]
        assert client.hget(view_cache.key(game_id), "v") == str(version + 1).encode()

    def test_a_move_is_seen_by_the_next_reader_at_once(
        alice: Player, bob: Player, served: list[bool], seeded_engine: Any
    ) -> None:
        rng = seeded_engine(5)
        game_id = start_game(alice, bob)
        for player in (alice, bob):
            player.view(game_id)
        for _ in range(6):
            mover = player_to_move([alice, bob], game_id)
            other = bob if mover is alice else alice
            before = other.table(game_id)["version"]
            answer = mover.act(game_id, random_action(mover.table(game_id), rng)).json()
            served.clear()
            seen = asgi_view(other, game_id).json()
            assert served == [True]
            assert seen["version"] == answer["version"] > before

    def test_a_revoked_token_stops_working_on_the_fast_path_at_once(
        alice: Player, bob: Player, served: list[bool]
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        served.clear()
        assert asgi_view(alice, game_id).status_code == 200 and served == [True]
        token = ApiToken.objects.get(user=alice.user)
        player_services.revoke_token(user=alice.user, token_id=token.pk)
        served.clear()
        assert asgi_view(alice, game_id).status_code == 401
        assert served == [False]

    def test_a_suspended_players_token_stops_working_on_the_fast_path_at_once(
        alice: Player, bob: Player, served: list[bool]
    ) -> None:
        game_id = start_game(alice, bob)
        bob.view(game_id)
        served.clear()
        assert asgi_view(bob, game_id).status_code == 200 and served == [True]
        bob.user.is_active = False
        bob.user.save(update_fields=["is_active"])
        served.clear()
        assert asgi_view(bob, game_id).status_code == 401
        assert served == [False]

    def test_a_stranger_with_a_remembered_token_gets_the_drf_views_404(
        alice: Player, bob: Player, carol: Player, served: list[bool]
    ) -> None:
        game_id = start_game(alice, bob)
        other = start_game(carol, alice)
        alice.view(game_id)
        carol.view(other)  # carol's token is remembered
        served.clear()
        response = asgi_view(carol, game_id)
        assert response.status_code == 404 and served == [False]

    def test_a_host_not_allowed_gets_djangos_400_not_a_fast_answer(
        alice: Player, bob: Player
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        assert asgi_view(alice, game_id).status_code == 200
        assert asgi_view(alice, game_id, Host="evil.example").status_code == 400

    def test_a_request_with_an_origin_or_a_cookie_is_djangos(
        alice: Player, bob: Player, served: list[bool]
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        for extra in ({"Origin": "https://elsewhere.example"}, {"Cookie": "sessionid=x"}):
            served.clear()
            assert asgi_view(alice, game_id, **extra).status_code == 200
            assert served == []

    def test_accept_headers_and_query_strings_get_drfs_own_answer(
        alice: Player, bob: Player, served: list[bool], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        for accept in ("application/json", "*/*", "text/html, application/json"):
            served.clear()
            fast = asgi_view(alice, game_id, Accept=accept)
            assert served == [True]
            same_answer(fast, slow_view(alice, game_id, monkeypatch, Accept=accept))
        for accept in ("text/html", "text/html, */*", "application/json; indent=4"):
            served.clear()
            answer = asgi_view(alice, game_id, Accept=accept)
            assert served == []  # not even asked: Django answered
            slow = slow_view(alice, game_id, monkeypatch, Accept=accept)
            assert answer.status_code == slow.status_code
            assert answer.header("Content-Type") == slow.header("Content-Type")
        served.clear()
        assert asgi_view(alice, game_id, query="format=json").status_code == 200
        assert served == []

    def test_a_token_checked_before_its_revocation_is_not_remembered_after_it(
        alice: Player, bob: Player, served: list[bool]
    ) -> None:
        """A request that passed the token check, then a revocation that commits and forgets,
        then the request's late write: the write is refused."""
        game_id = start_game(alice, bob)
        token = ApiToken.objects.select_related("user").get(user=alice.user)
        token_cache.mark_checked(token)  # the late request's check
        token_cache.forget_user(alice.user.pk)  # the revocation's, after it
        view_cache.run(lambda pipe: token_cache.remember(pipe, token))  # the late write
        client = redis.Redis.from_url(REDIS_URL)
        assert client.get(token_cache.key(token.key_hash)) is None
        token_cache.mark_checked(token)  # a check after the forgetting is remembered
        view_cache.run(lambda pipe: token_cache.remember(pipe, token))
        assert client.get(token_cache.key(token.key_hash)) is not None
        assert served == [] and game_id

    def test_tokens_are_forgotten_even_right_after_a_redis_failure(
        alice: Player, bob: Player, served: list[bool], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        token = ApiToken.objects.get(user=alice.user)
        client = redis.Redis.from_url(REDIS_URL)
        assert client.get(token_cache.key(token.key_hash)) is not None
        # This process failed a Redis call a moment ago: it skips Redis shortcuts, not this.
        monkeypatch.setattr("config.redis_clients._down_until", time.monotonic() + 60)
        token_cache.forget_user(alice.user.pk)
        assert client.get(token_cache.key(token.key_hash)) is None

    def test_a_move_voids_older_snapshots_before_it_commits_even_if_its_announcement_is_lost(
        alice: Player, bob: Player, served: list[bool], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        before = alice.table(game_id)["version"]
        monkeypatch.setattr(live.Notifier, "_publish_redis", lambda self, game, version: None)
        # A move that stores no snapshot of its own: a moderator aborts the game.
        from games import moderation as game_moderation
        from players.models import User

        moderator = User.objects.create_superuser(username="mod", password="x" * 20)
        game_moderation.abort_game(moderator=moderator, game_id=game_id, reason="test")
        served.clear()
        seen = asgi_view(alice, game_id).json()
        assert served == [False]
        assert seen["status"] == "aborted" and seen["version"] == before + 1

    def test_a_game_id_django_would_not_route_is_djangos_404(
        alice: Player, bob: Player, served: list[bool]
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        assert asgi_view(alice, str(game_id).upper()).status_code == 404
        assert served == []

    def test_lobbies_are_not_kept(alice: Player, served: list[bool]) -> None:
        lobby = alice.create(max_players=3).json()
        alice.view(lobby["id"])
        served.clear()
        assert asgi_view(alice, lobby["id"]).json()["invite_code"] == lobby["invite_code"]
        assert served == [False]

    def test_with_redis_down_the_drf_view_answers(
        alice: Player, bob: Player, served: list[bool], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id = start_game(alice, bob)
        alice.view(game_id)
        # Nothing listens on port 1: the connection is refused.
        from django.conf import settings

        monkeypatch.setattr(settings, "REDIS_URL", "redis://127.0.0.1:1/0")
        monkeypatch.setattr("config.redis_clients._async", weakref.WeakKeyDictionary())
        monkeypatch.setattr("config.redis_clients._down_until", 0.0)
        served.clear()
        assert asgi_view(alice, game_id).status_code == 200
        assert served == [False]
        assert not redis_clients.available()  # marked down: the next request skips Redis


def test_a_snapshot_holds_nothing_personal() -> None:
    payload = {
        "id": str(uuid.uuid4()),
        "status": "active",
        "your_turn": True,
        "your_seat": 1,
        "players": [
            {"seat": 0, "user_id": 5, "you": False},
            {"seat": 1, "user_id": 6, "you": True},
        ],
        "table": {"hand": ["wild-1"]},
    }
    data = view_cache.snapshot(payload, {"seats": []}, 6)
    assert b"wild-1" not in data
    assert b'"you":true' not in data and b'"your_turn":true' not in data


def test_a_token_entry_is_only_made_for_a_live_token(db: None) -> None:
    from players.models import User

    user = User.objects.create_user(username="t", display_name="T")
    token, _ = ApiToken.issue(user, name="phone", scope=ApiToken.SCOPE_PLAY)
    entry = token_cache.entry_for(token)
    assert entry is not None and token_cache.parse(entry[0]) == user.pk
    token.revoked_at = token.created_at
    assert token_cache.entry_for(token) is None


def test_the_fast_path_is_off_when_an_unknown_middleware_is_installed(settings: Any) -> None:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "example.Unknown"]
    django_app = object()
    assert fast_view.asgi(django_app) is django_app
