"""What the Schemathesis run (tests/test_schemathesis.py) and the request-body tests
(tests/test_schema_bodies.py) send to: the committed schema, every check Schemathesis has, a
fresh player per request with the things its requests may name (``world_for``), and the WSGI
application they are sent to (the ``wsgi_app`` fixture).
"""

from __future__ import annotations

import os
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core.cache.backends.locmem import LocMemCache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone
from oauth2_provider.models import AccessToken
from rest_framework.throttling import ScopedRateThrottle
from schemathesis.checks import CHECKS as ALL_CHECKS
from schemathesis.checks import load_all_checks
from schemathesis.generation import GenerationMode

from chat import services as chat_services
from games import services as game_services
from games.engine.uno.allwild.game import ALL_WILD as engine
from games.engine.uno.state import State
from games.models import Game, Seat
from moderation.models import Block
from notifications import services as notification_services
from notifications.channels import webhook
from players import bots, exports, links, oauth
from players.models import ApiToken, DataExport, User
from social import pairing
from social import services as social_services

ROOT = Path(__file__).resolve().parent.parent
SEED = 20260310
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "60"))
PASSWORD = "Tr0ub4dor&3-horse"

schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
schema.config.generation.update(
    max_examples=MAX_EXAMPLES,
    # Requests carry the player's real token (below); generated Authorization headers and
    # session cookies would only test the 401 path, which tests/players covers.
    with_security_parameters=False,
    database="none",
)
schema.config.seed = SEED

# Answers the schema declares for a request that fits it: 304 to If-None-Match, and refusals (a
# wrong password, a name taken, a move the rules refuse, a game in another state). Schema-valid
# data must get one of these or a success (positive_data_acceptance); a refusal of its shape is
# never one (the check below).
DECLARED_REFUSALS = ["2xx", "304", "400", "401", "403", "404", "409", "410", "422", "429"]
schema.config.checks.positive_data_acceptance.expected_statuses = DECLARED_REFUSALS
# Codes that say a request's shape is wrong: schema-valid data must never get them.
SHAPE_CODES = {"unknown_field", "malformed_request", "unsupported_media_type"}


@schemathesis.check
def shape_of_valid_data_accepted(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """Schema-valid data (positive generation) is never refused for its shape: the schema
    declares every field the server takes and forbids the others (additionalProperties)."""
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return None
    if response.status_code != 400:
        return None
    code = (response.json() or {}).get("error", {}).get("code")
    assert code not in SHAPE_CODES, f"schema-valid data refused as {code}: {response.text[:300]}"
    return None


# Every check Schemathesis has (its registry, after load_all_checks()), ours among them.
load_all_checks()
CHECKS = [check for check in ALL_CHECKS.get_all() if callable(check)]


def _names() -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield f"st{n}-{uuid.uuid4().hex[:6]}"


_NAMES = _names()


def _user(**extra: Any) -> User:
    name = next(_NAMES)
    user = User.objects.create_user(
        username=name, password=PASSWORD, email=f"{name}@example.com", **extra
    )
    return user


def _strong_password() -> str:
    return f"New-{uuid.uuid4().hex[:12]}-pass"


def _token(user: User, scope: str = ApiToken.SCOPE_PLAY) -> str:
    _, raw = ApiToken.issue(user, name="schemathesis", scope=scope)
    return raw


# Webhooks and push subscriptions name a loopback address (allowed by the fixture below): no
# request ever leaves the machine, even if one were sent (on-commit work never runs here).
HOOK_URL = "http://127.0.0.1:9/uno-hook"
OAUTH_REDIRECT = "https://app.example/callback"
PUSH_KEYS = {
    # A browser's real subscription keys (the schema's example).
    "p256dh": (
        "BLZl0X16w3nVE8EXUOkrxJJwBk5vjOzuGaRFz2SWD-VLD-UTYEe_4LIA5X3hxm5I3sFY4pNRY06hJBmLd2Umw-E"
    ),
    "auth": "NYS0I9IRXd6U9wfN1py4mQ",
}


@dataclass
class World:
    """The caller and what the caller's requests may name, made fresh for one request."""

    me: User
    token: str
    path: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)
    # games_actions_create: the caller's legal actions, by type (without the seat).
    legal: dict[str, dict[str, Any]] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)


def _active_game(me: User, other: User) -> Game:
    lobby = game_services.create_game(host=me, max_players=2)
    return game_services.join_game(user=other, invite_code=lobby.invite_code)


def _finished_game(me: User, other: User) -> Game:
    """A game of the two, marked finished without being played out."""
    game = _active_game(me, other)
    Game.objects.filter(pk=game.pk).update(
        status=Game.FINISHED, finished_at=timezone.now(), turn_deadline=None
    )
    return game


def world_for(operation_id: str, path_names: set[str]) -> World:
    me = _user()
    other = _user()
    world = World(me=me, token=_token(me))
    if not _games_world(operation_id, world, other):
        _account_world(operation_id, path_names, world, other)
    return world


def _games_world(operation_id: str, world: World, other: User) -> bool:
    """The games' operations: a game in the state the operation needs. False for any other."""
    me = world.me
    if operation_id in {"games_retrieve", "games_events_list", "games_stream_retrieve"}:
        world.path["game_id"] = str(_active_game(me, other).pk)
    elif operation_id == "games_actions_create":
        game = _active_game(me, other)
        # The player to move makes the request, so that a legal action can succeed.
        if game.current_user_id != me.pk:
            world.me, world.token = other, _token(other)
        world.path["game_id"] = str(game.pk)
        world.body["expected_version"] = game.version
        seat = Seat.objects.get(game=game, user=world.me).position
        for action in engine.legal_actions(State.from_dict(game.state), seat):
            fields = {k: v for k, v in action.to_dict().items() if k != "seat"}
            world.legal.setdefault(fields["type"], fields)
    elif operation_id in {"games_leave", "games_spectating_partial_update"}:
        world.path["game_id"] = str(_active_game(me, other).pk)
    elif operation_id == "games_join":
        lobby = game_services.create_game(host=other, max_players=3, visibility=Game.PUBLIC)
        world.path["game_id"] = str(lobby.pk)
    elif operation_id in {"games_start", "games_invite_renew"}:
        lobby = game_services.create_game(host=me, max_players=3)
        game_services.join_game(user=other, invite_code=lobby.invite_code)
        world.path["game_id"] = str(lobby.pk)
    elif operation_id == "games_rematch":
        world.path["game_id"] = str(_finished_game(me, other).pk)
    elif operation_id == "games_record_retrieve":
        # A finished game: the other player leaves, and the one left at the table wins.
        game = _active_game(me, other)
        game_services.leave_game(user=other, game_id=game.pk)
        world.path["game_id"] = str(game.pk)
    elif operation_id == "games_invitation_decline":
        game = _finished_game(other, me)
        world.path["game_id"] = str(game_services.rematch(user=other, game_id=game.pk).pk)
    elif operation_id == "games_bots_create":
        world.path["game_id"] = str(game_services.create_game(host=me, max_players=3).pk)
    elif operation_id == "games_bots_destroy":
        lobby = game_services.create_game(host=me, max_players=3)
        game_services.add_bot(user=me, game_id=lobby.pk)
        world.path["game_id"] = str(lobby.pk)
        world.path["seat_id"] = Seat.objects.get(game=lobby, user__isnull=True).pk
    elif operation_id == "games_reclaim":
        game = _active_game(me, other)
        game_services.hand_seat_to_bot(game.pk, me, reason="timeout")
        world.path["game_id"] = str(game.pk)
    elif operation_id in {
        "games_watch_retrieve",
        "games_watch_stream_retrieve",
        "games_spectators_retrieve",
    }:
        # A game of two others', which anyone may watch (the default).
        world.path["game_id"] = str(_active_game(other, _user()).pk)
    elif operation_id == "games_join_by_invite":
        lobby = game_services.create_game(host=other, max_players=3)
        world.body["invite_code"] = lobby.invite_code
    else:
        return False
    return True


def _account_world(operation_id: str, path_names: set[str], world: World, other: User) -> None:
    """The accounts', players' and notifications' operations; then OAuth's and the social ones."""
    me = world.me
    if operation_id == "auth_tokens_destroy":
        token, _ = ApiToken.issue(me, name="another device", scope=ApiToken.SCOPE_PLAY)
        world.path["token_id"] = token.pk
    elif operation_id in {"me_bots_destroy", "me_bots_token_create"}:
        bot, _, _ = bots.create_bot(owner=me, username=f"bot-{uuid.uuid4().hex[:8]}")
        world.path["bot_id"] = bot.pk
    elif operation_id == "blocks_destroy":
        Block.objects.create(blocker=me, blocked=other)
        world.path["player_id"] = other.pk
    elif operation_id == "players_profile_retrieve":
        world.path["user_id"] = other.pk
    elif operation_id == "blocks_create":
        world.body["player_id"] = other.pk
    elif operation_id == "reports_create":
        game = _active_game(me, other)
        world.body.update(player_id=other.pk, game_id=str(game.pk))
    elif operation_id == "notifications_read":
        notice = notification_services.notify_moderation(user=me, message="Be kind.")
        world.path["notification_id"] = notice.pk
    elif operation_id in {"auth_tokens_create", "auth_login"}:
        world.body.update(username=me.username, password=PASSWORD)
        # A session log-in is checked for CSRF like a browser page's: cookie and header agree.
        world.cookies["csrftoken"] = world.headers["X-CSRFToken"] = secrets.token_hex(16)
    elif operation_id == "auth_password_change":
        world.body.update(old_password=PASSWORD, new_password=_strong_password())
    elif operation_id in {"me_destroy", "me_delete"}:
        world.body["password"] = PASSWORD
        # Leaving a running game on the way out is part of deleting an account.
        _active_game(me, other)
    elif operation_id == "me_partial_update":
        world.body["password"] = PASSWORD
    elif operation_id == "auth_password_reset_confirm":
        world.body.update(
            uid=links.encode_uid(me),
            token=links.password_reset_tokens.make_token(me),
            new_password=_strong_password(),
        )
    elif operation_id == "auth_email_verify_confirm":
        world.body.update(
            uid=links.encode_uid(me), token=links.email_verification_tokens.make_token(me)
        )
    elif operation_id == "me_vacation_end":
        game_services.start_vacation(user=me, days=1)
    elif operation_id == "auth_signup":
        world.body.update(username=next(_NAMES), password=_strong_password())
    elif operation_id == "auth_password_reset":
        world.body["email"] = me.email
    elif operation_id == "notifications_webhooks_create":
        world.body.update(url=HOOK_URL, token_id=ApiToken.objects.filter(user=me).get().pk)
    elif operation_id.startswith("notifications_webhooks_") and "webhook_id" in path_names:
        world.path["webhook_id"] = webhook.create_endpoint(user=me, url=HOOK_URL).pk
    elif operation_id == "notifications_webpush_subscriptions_create":
        world.body.update(endpoint=f"{HOOK_URL}/push/{uuid.uuid4().hex}", keys=PUSH_KEYS)
    elif operation_id in {"me_exports_retrieve", "me_exports_download", "me_export_retrieve"}:
        world.path["export_id"] = str(_finished_export(me).pk)
    elif operation_id.startswith("oauth_"):
        _oauth_world(world, operation_id, other)
    else:
        _social_world(operation_id, world, other)


def _social_world(operation_id: str, world: World, other: User) -> None:
    """The social operations: a player to follow, challenge or find, a challenge to answer, a
    seek; and this month's season board."""
    me = world.me
    if operation_id == "me_following_create":
        world.body["username"] = other.username
    elif operation_id == "me_following_destroy":
        social_services.follow(user=me, other=other)
        world.path["username"] = other.username
    elif operation_id == "challenges_create":
        social_services.update_settings(user=other, challenges_from="everyone")
        world.body["username"] = other.username
    elif operation_id in {"challenges_accept", "challenges_decline"}:
        social_services.update_settings(user=me, challenges_from="everyone")
        challenge = social_services.send_challenge(challenger=other, challenged=me)
        world.path["challenge_id"] = challenge.pk
    elif operation_id == "seeks_create":
        world.body.update(game="uno_all_wild", seats=2)
    elif operation_id == "seeks_take":
        world.path["seek_id"] = pairing.post_seek(user=other, kind="uno_splash", seats=2).pk
    elif operation_id == "seeks_destroy":
        world.path["seek_id"] = pairing.post_seek(user=me, kind="uno_splash", seats=3).pk
    elif operation_id == "ratings_season_retrieve":
        world.path["month"] = timezone.now().strftime("%Y-%m")  # a month with a board: this one
    else:
        _chat_world(operation_id, world, other)


def _chat_world(operation_id: str, world: World, other: User) -> None:
    """The chat: a game of the caller's, a player to mute, a message of another's to report."""
    me = world.me
    if operation_id in {"games_chat_list", "games_chat_create"}:
        world.path["game_id"] = str(_active_game(me, other).pk)
    elif operation_id == "me_chat_mutes_create":
        world.body["username"] = other.username
    elif operation_id == "me_chat_mutes_destroy":
        chat_services.mute(user=me, username=other.username)
        world.path["username"] = other.username
    elif operation_id == "chat_messages_report_create":
        game = _active_game(me, other)
        message = chat_services.post(user=other, game_id=game.pk, channel="players", text="hi")
        world.path["message_id"] = message.pk


def _oauth_world(world: World, operation_id: str, other: User) -> None:
    """An app of ``other``'s to authorize, an app of the caller's, a grant to revoke."""
    app, _ = oauth.register_app(
        user=other, name="Card Buddy", redirect_uris=[OAUTH_REDIRECT], confidential=False
    )
    if operation_id in {"oauth_authorize_retrieve", "oauth_authorize_create"}:
        world.query.update(
            response_type="code",
            client_id=app.client_id,
            redirect_uri=OAUTH_REDIRECT,
            code_challenge="E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            code_challenge_method="S256",
        )
    elif operation_id == "oauth_apps_create":
        world.body["redirect_uris"] = [OAUTH_REDIRECT]
    elif operation_id == "oauth_apps_destroy":
        mine, _ = oauth.register_app(
            user=world.me, name="Mine", redirect_uris=[OAUTH_REDIRECT], confidential=True
        )
        world.path["app_id"] = mine.pk
    elif operation_id == "oauth_authorizations_destroy":
        AccessToken.objects.create(
            user=world.me,
            application=app,
            token=oauth.access_token(None),
            scope="read",
            expires=timezone.now() + timedelta(hours=1),
        )
        world.path["app_id"] = app.pk


def _finished_export(user: User) -> DataExport:
    """``user``'s export, built as the periodic job would (claimed, then written)."""
    export = exports.request_export(user=user)
    DataExport.objects.filter(pk=export.pk).update(
        status=DataExport.RUNNING, started_at=timezone.now(), attempts=1
    )
    export.refresh_from_db()
    exports.build(export)
    return export


@pytest.fixture
def wsgi_app(
    settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[WSGIHandler]:
    # Fast hashing: every request gets a new player with a password.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # No throttling (each operation sends its examples in a burst) and no counts shared with
    # other tests or Redis.
    no_limits = {scope: None for scope in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", no_limits)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": no_limits}
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache(f"st-{uuid.uuid4()}", {}))
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    # The data exports this run builds go to a folder of its own.
    settings.STORAGES = {
        **settings.STORAGES,
        "exports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    # As Django's test client does: the test's transaction holds the connection, so requests
    # must not close it when they start or finish.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
