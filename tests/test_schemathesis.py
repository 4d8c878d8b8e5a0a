"""Schemathesis against the committed OpenAPI schema: every operation, as a real player.

Each operation is one test. Schemathesis generates requests from ``openapi.yaml`` (its examples,
boundary values, then random valid and invalid data; fixed seed, bounded number of examples) and
each goes to the Django WSGI application in this process, authenticated with the bearer token
of a player made for that request alone: operations that revoke the caller's credentials
(log-out, password change, token revocation, account deletion) cannot take anyone else's away.

Path parameters and the fields that must name something real (a game where the caller sits, a
lobby to join, an invite code, the caller's password, a token to revoke, a reset link...) are
filled in from that player's fixtures for most requests, so that every operation can succeed;
the rest keep Schemathesis's generated values. Every check Schemathesis has runs on every answer
(and ours, ``shape_of_valid_data_accepted``), among them:

- no 5xx;
- the status code is one the operation documents;
- the content type and the body fit the documented response schema, and documented headers
  are present in the documented form;
- schema-violating data (a field the schema forbids, a value out of bounds) is refused, and
  schema-valid data is accepted or refused with a status the schema declares for it, never
  for its shape;
- the credentials are checked (the request is sent again without them), and undeclared
  methods answer 405.

Per operation the run counts how many answers were 2xx, prints the share, and fails when an
operation never succeeded. A new operation that needs something to exist first (a game in some
state, an id of the caller's) gets it in ``world_for``: create it for the caller there and put
the path parameters and body fields that name it into ``World.path`` / ``World.body``.

``SCHEMATHESIS_MAX_EXAMPLES`` (default 60) bounds the generated examples per operation; the seed
is fixed and generation derandomized, so a failure reproduces.
"""

from __future__ import annotations

import os
import secrets
import uuid
import zlib
from collections import Counter
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
from hypothesis import HealthCheck, Phase, settings
from oauth2_provider.models import AccessToken
from rest_framework.throttling import ScopedRateThrottle
from schemathesis.checks import CHECKS as ALL_CHECKS
from schemathesis.checks import load_all_checks
from schemathesis.core import NOT_SET
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode

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

# The last test reads what the others counted in this process: one xdist worker runs them all,
# in order (`--dist loadgroup`). Its count needs the others, so it is never pure either.
pytestmark = [pytest.mark.xdist_group("schemathesis"), pytest.mark.services]

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

# operation id -> Counter({"total": n, "2xx": n, "<status>": n})
RESULTS: dict[str, Counter[str]] = {}


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


def world_for(operation_id: str, path_names: set[str]) -> World:
    me = _user()
    other = _user()
    world = World(me=me, token=_token(me))
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
    elif operation_id == "games_leave":
        world.path["game_id"] = str(_active_game(me, other).pk)
    elif operation_id == "games_join":
        lobby = game_services.create_game(host=other, max_players=3, visibility=Game.PUBLIC)
        world.path["game_id"] = str(lobby.pk)
    elif operation_id in {"games_start", "games_invite_renew"}:
        lobby = game_services.create_game(host=me, max_players=3)
        game_services.join_game(user=other, invite_code=lobby.invite_code)
        world.path["game_id"] = str(lobby.pk)
    elif operation_id == "games_rematch":
        game = _active_game(me, other)
        Game.objects.filter(pk=game.pk).update(
            status=Game.FINISHED, finished_at=timezone.now(), turn_deadline=None
        )
        world.path["game_id"] = str(game.pk)
    elif operation_id == "games_record_retrieve":
        # A finished game: the other player leaves, and the one left at the table wins.
        game = _active_game(me, other)
        game_services.leave_game(user=other, game_id=game.pk)
        world.path["game_id"] = str(game.pk)
    elif operation_id == "games_invitation_decline":
        game = _active_game(other, me)
        Game.objects.filter(pk=game.pk).update(
            status=Game.FINISHED, finished_at=timezone.now(), turn_deadline=None
        )
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
    elif operation_id == "games_join_by_invite":
        lobby = game_services.create_game(host=other, max_players=3)
        world.body["invite_code"] = lobby.invite_code
    elif operation_id == "auth_tokens_destroy":
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
    return world


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
    elif operation_id == "seeks_destroy":
        world.path["seek_id"] = pairing.post_seek(user=me, kind="uno_splash", seats=3).pk
    elif operation_id == "ratings_season_retrieve":
        world.path["month"] = timezone.now().strftime("%Y-%m")  # a month with a board: this one


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


_CALLS: Counter[str] = Counter()


def _real(case: schemathesis.Case, operation_id: str) -> bool:
    """Whether this request names the caller's things: three requests in four, chosen by the
    generated data and the request's place in the run (both fixed by the seed), so the choice
    is as reproducible as the data and varies even where the data cannot."""
    _CALLS[operation_id] += 1
    body = None if case.body is NOT_SET else case.body
    data = repr((case.path_parameters, case.query, case.headers, body))
    return (zlib.crc32(data.encode("utf-8", "surrogatepass")) + _CALLS[operation_id]) % 4 != 0


def fill_in(case: schemathesis.Case, world: World, *, real: bool) -> None:
    """Point the request at the caller's things (when ``real``; otherwise the generated ids and
    values stay, which name nothing). Body fields are filled in only in valid (positive)
    requests, so that an invalid request stays invalid."""
    # A path made invalid on purpose (negative generation: an id out of bounds) stays invalid.
    negative_path = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
    if real and not negative_path:
        for name, value in world.path.items():
            if case.path_parameters is not None and name in case.path_parameters:
                case.path_parameters[name] = value
    positive = case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE
    if real and positive and isinstance(case.body, dict):
        case.body.update(world.body)
        # An action of a type the caller may take now: its card and target too.
        case.body.update(world.legal.get(case.body.get("type"), {}))
    if case.operation.method.upper() == "DELETE" and "password" in world.body:
        # DELETE me/ takes its body as documented in prose (OpenAPI 3.0 has no DELETE bodies).
        case.body = {"password": world.body["password"] if real else "not my password"}
        case.media_type = "application/json"
    if real and world.query:
        case.query = {**(case.query or {}), **world.query}
    if case.query and "wait" in case.query:
        # Long-polls wait up to 25 s for a move that never comes here: answer at once.
        case.query["wait"] = 0
    formats = case.query.get("format") if case.query else None  # a value, or a list of them
    if {"sse", "ndjson"} & set(map(str, formats if isinstance(formats, list) else [formats])):
        # The account event stream never ends by itself: this in-process call would read it for
        # ever. Its stream forms: tests/notifications/test_account_events.py.
        case.query["format"] = "json"


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


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)
def test_api(case: schemathesis.Case, wsgi_app: WSGIHandler) -> None:
    operation_id = case.operation.schema.get_operation_id(case.operation) or case.operation.label
    world = world_for(operation_id, set(case.path_parameters or {}))
    fill_in(case, world, real=_real(case, operation_id))
    headers = {"Authorization": f"Bearer {world.token}", **world.headers}
    response = case.call(app=wsgi_app, headers=headers, cookies=world.cookies)
    if case.method.upper() == case.operation.method.upper():
        # Not the coverage phase's probes with other methods (405, or 200 for OPTIONS).
        counts = RESULTS.setdefault(operation_id, Counter())
        counts["total"] += 1
        counts[str(response.status_code)] += 1
        if 200 <= response.status_code < 300:
            counts["2xx"] += 1
    # The headers sent, and the app that answers probes (ignored_auth sends the request again
    # without them).
    case.operation.schema.app = case.operation.app = wsgi_app
    case.validate_response(response, checks=CHECKS, headers=headers)


def test_every_operation_succeeded_at_least_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs after the operations (pytest keeps the order of a module): the share of 2xx answers
    per operation, and a failure for any operation that never succeeded."""
    operations = sorted(
        schema.get_operation_id(result.ok()) or result.ok().label
        for result in schema.get_all_operations()
    )
    lines = []
    for operation_id in operations:
        counts = RESULTS.get(operation_id, Counter())
        share = counts["2xx"] / counts["total"] if counts["total"] else 0.0
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()) if code.isdigit())
        lines.append(
            f"{operation_id:40} {counts['2xx']:4}/{counts['total']:<4} 2xx {share:6.1%}  {statuses}"
        )
    with capsys.disabled():  # the shares belong in the run's output, pass or fail
        print("\n\nSchemathesis: 2xx answers per operation\n" + "\n".join(lines))
    never_ran = [op for op in operations if not RESULTS.get(op, Counter())["total"]]
    assert not never_ran, f"operations that were not tested: {never_ran}"
    never_succeeded = [op for op in operations if not RESULTS[op]["2xx"]]
    assert not never_succeeded, "operations that never succeeded:\n" + "\n".join(
        line for line in lines if line.split()[0] in never_succeeded
    )


# ---------------------------------------------------------------------------------------------
# Wrong JSON types, field by field
#
# Generated data rarely hits the type mistakes a real client makes. Every field of every JSON
# request body in the schema gets one, derived from its documented type: a boolean as "yes", an
# integer as "105", a string as 5 (and the same one level down, in nested objects and in lists).
# Each answer must be 400 in the one error shape naming that field, and conform to the schema.

WRONG_TYPE: dict[str, Any] = {"boolean": "yes", "integer": "105", "string": 5}
RAW_SCHEMA: dict[str, Any] = schema.raw_schema


def _resolved(node: dict[str, Any]) -> dict[str, Any]:
    """The schema a node stands for: $ref followed, drf-spectacular's wrappers unwrapped
    (``allOf: [$ref]`` with a description, ``oneOf: [$ref, null]`` for nullable fields)."""
    while True:
        if "$ref" in node:
            target: Any = RAW_SCHEMA
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        elif len(node.get("allOf", [])) == 1:
            node = node["allOf"][0]
        elif "oneOf" in node and "discriminator" not in node:
            options = [o for o in node["oneOf"] if o.get("type") != "null" and "enum" not in o]
            if len(options) != 1:
                return node
            node = options[0]
        else:
            return node


def _wrong_values(prop: dict[str, Any]) -> Iterator[Any]:
    prop = _resolved(prop)
    kind = prop.get("type")
    if kind in WRONG_TYPE:
        yield WRONG_TYPE[kind]
    elif kind == "array":
        item = _resolved(prop.get("items", {}))
        if item.get("type") in WRONG_TYPE:
            yield [WRONG_TYPE[item["type"]]]
    elif kind == "object":
        for name, sub in prop.get("properties", {}).items():
            sub = _resolved(sub)
            if sub.get("type") in WRONG_TYPE and not sub.get("readOnly"):
                yield {name: WRONG_TYPE[sub["type"]]}


def _bodies(body_schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(field, body) for each wrong type of each field; a union member's body keeps its type."""
    body_schema = _resolved(body_schema)
    if "discriminator" in body_schema:
        field = body_schema["discriminator"]["propertyName"]
        for value, ref in body_schema["discriminator"]["mapping"].items():
            for name, wrong in _bodies({"$ref": ref}):
                if name != field:
                    yield name, {field: value, **wrong}
        return
    for name, prop in body_schema.get("properties", {}).items():
        if _resolved(prop).get("readOnly"):
            continue
        for wrong in _wrong_values(prop):
            yield name, {name: wrong}


def _wrong_type_cases() -> Iterator[Any]:
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() not in {"POST", "PUT", "PATCH"}:
            continue
        content = operation.definition.raw.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            continue
        operation_id = schema.get_operation_id(operation) or operation.label
        for field_name, body in _bodies(content["application/json"]["schema"]):
            kind = body.get("type", "")
            label = f"{operation_id}-{kind + '-' if kind else ''}{field_name}"
            yield pytest.param(operation, field_name, body, id=label)


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "field_name", "body"), list(_wrong_type_cases()))
def test_a_wrong_json_type_is_refused_with_400(
    operation: Any, field_name: str, body: dict[str, Any], wsgi_app: WSGIHandler
) -> None:
    operation_id = schema.get_operation_id(operation) or operation.label
    path_names = {p.name for p in operation.path_parameters}
    world = world_for(operation_id, path_names)
    case = operation.Case(
        path_parameters={name: world.path[name] for name in path_names},
        # The caller's valid values for the other fields (a challenge's player), so that the
        # wrong one is the request's only fault: DRF checks a field's contents (a house rule's
        # type) only once every required field is there.
        body={**world.body, **body},
        media_type="application/json",
    )
    headers = {"Authorization": f"Bearer {world.token}", **world.headers}
    response = case.call(app=wsgi_app, headers=headers, cookies=world.cookies)

    assert response.status_code == 400, (body, response.status_code, response.text[:500])
    error = response.json()["error"]
    assert error["code"] == "invalid_request", error
    assert field_name in error["details"]["fields"], error
    case.validate_response(response, checks=CHECKS)


# ---------------------------------------------------------------------------------------------
# A field the operation does not take, in every JSON request body
#
# A misspelt field (``color`` for ``colour``) was dropped and the request answered without it.
# Every body now refuses it: 400 ``unknown_field`` naming it, as the schema's
# ``additionalProperties: false`` says.

UNKNOWN = "colour_typo"


def _unknown_field_cases() -> Iterator[Any]:
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() not in {"POST", "PUT", "PATCH"}:
            continue
        content = operation.definition.raw.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            continue
        body_schema = _resolved(content["application/json"]["schema"])
        body: dict[str, Any] = {UNKNOWN: 1}
        if "discriminator" in body_schema:
            field_name = body_schema["discriminator"]["propertyName"]
            body[field_name] = next(iter(body_schema["discriminator"]["mapping"]))
        operation_id = schema.get_operation_id(operation) or operation.label
        yield pytest.param(operation, body, id=operation_id)


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "body"), list(_unknown_field_cases()))
def test_a_field_the_operation_does_not_take_is_refused_naming_it(
    operation: Any, body: dict[str, Any], wsgi_app: WSGIHandler
) -> None:
    operation_id = schema.get_operation_id(operation) or operation.label
    path_names = {p.name for p in operation.path_parameters}
    world = world_for(operation_id, path_names)
    case = operation.Case(
        path_parameters={name: world.path[name] for name in path_names},
        body={**world.body, **world.legal.get(body.get("type", ""), {}), **body},
        media_type="application/json",
    )
    # With the world's headers and cookies: a session log-in checks CSRF before the body.
    headers = {"Authorization": f"Bearer {world.token}", **world.headers}
    response = case.call(app=wsgi_app, headers=headers, cookies=world.cookies)

    assert response.status_code == 400, (body, response.status_code, response.text[:500])
    error = response.json()["error"]
    assert error["code"] == "unknown_field", error
    assert UNKNOWN in error["details"]["fields"], error
