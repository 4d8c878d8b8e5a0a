"""An app's OAuth token on the live streams (a game's and the account's): revoking the app ends
its streams at their next keep-alive, under WSGI (the stream's own timer) and under ASGI (the
process's batched check, ``live.keepalive``); both kinds are driven by ``live.driver``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import override_settings
from oauth2_provider.models import AccessToken

from live import keepalive, presence
from tests.games.conftest import Player, game_url, start_game
from tests.live.servers import EventReader, open_stream
from tests.players.oauth import grant, register

HEARTBEAT = 0.3
ACCOUNT_STREAM = "/api/v1/games/live/stream/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_revoking_an_app_ends_its_stream_within_the_keep_alive_interval(
    live_server: Any, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    registered = register(carol.user)
    app = grant(bob.client, registered, scope="read")
    with override_settings(LIVE_HEARTBEAT_SECONDS=HEARTBEAT):
        connection, response = open_stream(
            live_server.url, game_url(game_id, "stream/"), app.access
        )
        try:
            assert response.status == 200
            reader = EventReader(response)
            reader.start()
            first = reader.next(5)
            assert first is not None and first.event == "version"
            beat = reader.next(3, comments=True)
            assert beat is not None and beat.comment  # alive while the grant stands
            revoked = bob.client.delete(f"/api/v1/me/oauth/authorizations/{registered.id}/")
            assert revoked.status_code == 204
            # The next keep-alive re-checks the token: the stream says why and ends. Waits on
            # the events, bounded well above one interval.
            end = reader.next(5 * HEARTBEAT + 2)
            while end is not None and end.comment:
                end = reader.next(5 * HEARTBEAT + 2)
            assert end is not None and end.event == "end"
            assert end.json() == {"reason": "authentication_failed"}
            assert reader.next(5) is None  # closed by the server
        finally:
            connection.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_revoking_an_app_ends_its_account_stream_within_the_keep_alive_interval(
    live_server: Any, bob: Player, carol: Player
) -> None:
    registered = register(carol.user)
    app = grant(bob.client, registered, scope="read")
    with override_settings(LIVE_HEARTBEAT_SECONDS=HEARTBEAT):
        connection, response = open_stream(live_server.url, ACCOUNT_STREAM, app.access)
        try:
            assert response.status == 200
            reader = EventReader(response)
            reader.start()
            # Keep-alives, not an end, while the grant stands: the keep-alive re-checks the
            # app's token (not a session the app never had).
            for _ in range(2):
                beat = reader.next(5 * HEARTBEAT + 2, comments=True)
                assert beat is not None and beat.comment, beat
            revoked = bob.client.delete(f"/api/v1/me/oauth/authorizations/{registered.id}/")
            assert revoked.status_code == 204
            end = reader.next(5 * HEARTBEAT + 2)
            assert end is not None and end.event == "end"
            assert end.json() == {"kind": "end", "reason": "authentication_failed"}
            assert reader.next(5) is None  # closed by the server
        finally:
            connection.close()


@pytest.mark.django_db
def test_the_batched_keep_alive_check_refuses_a_revoked_apps_token(
    alice: Player, bob: Player, carol: Player
) -> None:
    app = register(carol.user)
    grant(alice.client, app)
    grant(bob.client, app)
    alices = AccessToken.objects.get(user=alice.user)
    bobs = AccessToken.objects.get(user=bob.user)
    game_id = str(uuid.uuid4())
    members = [
        keepalive.Member(alice.user.pk, None, game_id, "a", 0, oauth_token_id=alices.pk),
        keepalive.Member(bob.user.pk, None, game_id, "b", 0, oauth_token_id=bobs.pk),
    ]
    assert bob.client.delete(f"/api/v1/me/oauth/authorizations/{app.id}/").status_code == 204
    # One call: it closes this thread's connection when done (as after a request).
    refused = keepalive.check_and_mark(members, 30)
    assert refused == {id(members[1]): "authentication_failed"}
    assert presence.is_watching(alice.user.pk, game_id)
    presence.stop_watching(alice.user.pk, game_id, "a")
    presence.stop_watching(bob.user.pk, game_id, "b")
