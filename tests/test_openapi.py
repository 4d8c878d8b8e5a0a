"""The OpenAPI description is a contract: third parties generate clients from it.

- The live schema (what ``/api/schema/`` serves) equals the committed ``openapi.yaml``, so every
  change to the API's shape shows up in review as a change to that file.
- Operation ids never disappear: generated clients name their functions after them.
- The schema is valid OpenAPI 3 (``openapi-spec-validator``, not only drf-spectacular's own check).
- Every operation documents its errors in the one error shape, 401 unless it is public, and 429
  (with ``Retry-After``) exactly when its view is throttled, found from the URL resolver.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from openapi_spec_validator import validate
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from players.oauth import AppRateThrottle

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "openapi.yaml"
REGENERATE = "python manage.py spectacular --file openapi.yaml --validate --fail-on-warn"

# Every operation id that has been published. Third parties call functions named after these:
# never remove one (removals wait for /api/v2, see docs/api.md). Add new ids here when they ship.
STABLE_OPERATION_IDS = [
    "account_events_stream",
    "auth_email_verify",
    "auth_email_verify_confirm",
    "auth_login",
    "auth_login_csrf",
    "auth_logout",
    "auth_password_change",
    "auth_password_reset",
    "auth_password_reset_confirm",
    "auth_signup",
    "auth_tokens_create",
    "auth_tokens_destroy",
    "auth_tokens_list",
    "blocks_create",
    "blocks_destroy",
    "blocks_list",
    "games_actions_create",
    "games_bots_create",
    "games_bots_destroy",
    "games_create",
    "games_events_list",
    "games_invite_renew",
    "games_join",
    "games_join_by_invite",
    "games_leave",
    "games_list",
    "games_live_retrieve",
    "games_invitations_list",
    "games_invitation_decline",
    "games_open_list",
    "games_options_retrieve",
    "games_reclaim",
    "games_rematch",
    "games_record_retrieve",
    "games_retrieve",
    "games_start",
    "games_stream_retrieve",
    "games_playing_list",
    "games_spectating_partial_update",
    "games_spectators_retrieve",
    "games_watch_retrieve",
    "games_watch_stream_retrieve",
    "games_vs_computer_create",
    "me_delete",
    "me_vacation_end",
    "me_vacation_retrieve",
    "me_vacation_start",
    "me_destroy",
    "me_export_retrieve",
    "me_exports_create",
    "me_exports_download",
    "me_exports_retrieve",
    "me_partial_update",
    "me_bots_create",
    "me_bots_destroy",
    "me_bots_list",
    "me_bots_token_create",
    "me_retrieve",
    "me_stats_retrieve",
    "reports_create",
    "reports_list",
    "notifications_list",
    "notifications_preferences_retrieve",
    "notifications_preferences_update",
    "notifications_read",
    "notifications_read_all",
    "notifications_unread_count",
    "notifications_webhooks_attempts_list",
    "notifications_webhooks_create",
    "notifications_webhooks_destroy",
    "notifications_webhooks_list",
    "notifications_webhooks_partial_update",
    "notifications_webhooks_retrieve",
    "notifications_webhooks_test",
    "notifications_webpush_key_retrieve",
    "notifications_webpush_subscriptions_create",
    "notifications_webpush_subscriptions_delete",
    "players_profile_retrieve",
    "ratings_leaderboard_retrieve",
    "ratings_season_retrieve",
    # Friends and challenges (social/api).
    "challenges_accept",
    "challenges_create",
    "challenges_decline",
    "challenges_list",
    "lobby_retrieve",
    "seeks_create",
    "seeks_destroy",
    "seeks_take",
    "seeks_list",
    "seeks_take",
    "me_following_create",
    "me_following_destroy",
    "me_following_list",
    "me_friends_list",
    "me_social_retrieve",
    "me_social_update",
    "players_search",
    "games_chat_list",
    "games_chat_create",
    "me_chat_retrieve",
    "me_chat_update",
    "me_chat_mutes_list",
    "me_chat_mutes_create",
    "me_chat_mutes_destroy",
    "chat_messages_report_create",
    "oauth_apps_create",
    "oauth_apps_destroy",
    "oauth_apps_list",
    "oauth_authorizations_destroy",
    "oauth_authorizations_list",
    "oauth_authorize_create",
    "oauth_authorize_retrieve",
]

# Operations anyone may call: no token, no session. Everything else answers 401 without one.
PUBLIC_OPERATIONS = {
    "auth_signup",
    "auth_tokens_create",
    "auth_login",
    "auth_login_csrf",
    "auth_password_reset",
    "auth_password_reset_confirm",
    "auth_email_verify_confirm",
}

# The operations whose request and response carry examples.
WITH_EXAMPLES = {
    "auth_signup",
    "auth_tokens_create",
    "games_create",
    "games_actions_create",
    "notifications_webhooks_create",
    "notifications_webpush_subscriptions_create",
}

HTTP_METHODS = ("get", "put", "patch", "post", "delete")
Operation = dict[str, Any]


@pytest.fixture(scope="module")
def live_schema() -> dict[str, Any]:
    """The schema as served to clients, through the whole stack (URL, view, renderer)."""
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200, response.content[:500]
    schema: dict[str, Any] = json.loads(response.content)
    return schema


@pytest.fixture(scope="module")
def committed_schema() -> dict[str, Any]:
    assert COMMITTED.exists(), f"openapi.yaml is missing: run `{REGENERATE}`"
    schema: dict[str, Any] = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    return schema


def operations(schema: dict[str, Any]) -> dict[str, tuple[str, str, Operation]]:
    """operationId -> (method, path, operation)."""
    found: dict[str, tuple[str, str, Operation]] = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                found[operation["operationId"]] = (method, path, operation)
    return found


def _dump(schema: dict[str, Any]) -> list[str]:
    return yaml.safe_dump(schema, sort_keys=True, allow_unicode=True, width=100).splitlines()


# ---------------------------------------------------------------------------------------------
# The committed file and the stable ids


def test_live_schema_equals_the_committed_openapi_yaml(
    live_schema: dict[str, Any], committed_schema: dict[str, Any]
) -> None:
    if live_schema == committed_schema:
        return
    diff = list(
        difflib.unified_diff(
            _dump(committed_schema),
            _dump(live_schema),
            "openapi.yaml (committed)",
            "/api/schema/ (live)",
            lineterm="",
            n=2,
        )
    )
    shown = "\n".join(diff[:60]) + (f"\n… {len(diff) - 60} more lines" if len(diff) > 60 else "")
    pytest.fail(
        f"The API's schema differs from the committed openapi.yaml. If the change is intended, "
        f"run `{REGENERATE}` and commit openapi.yaml (check that no operation id or field that "
        f"clients use disappears; see docs/api.md, deprecation policy).\n{shown}",
        pytrace=False,
    )


def test_no_stable_operation_id_disappears(live_schema: dict[str, Any]) -> None:
    missing = sorted(set(STABLE_OPERATION_IDS) - set(operations(live_schema)))
    assert not missing, (
        f"Operation ids {missing} disappeared. Generated clients call functions named after "
        f"them: restore them (extend_schema(operation_id=...)); removals wait for /api/v2."
    )


def test_every_current_operation_id_is_listed_as_stable(live_schema: dict[str, Any]) -> None:
    # A new operation is welcome; listing it here makes its id a promise too.
    new = sorted(set(operations(live_schema)) - set(STABLE_OPERATION_IDS))
    assert not new, f"Add {new} to STABLE_OPERATION_IDS in tests/test_openapi.py."


def test_operation_ids_are_unique_snake_case(live_schema: dict[str, Any]) -> None:
    ids = [
        op["operationId"]
        for item in live_schema["paths"].values()
        for method, op in item.items()
        if method in HTTP_METHODS
    ]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids), ids


# ---------------------------------------------------------------------------------------------
# Validity


def test_schema_is_valid_openapi(live_schema: dict[str, Any]) -> None:
    validate(live_schema)  # raises OpenAPIValidationError with the offending path


def test_committed_schema_is_valid_openapi(committed_schema: dict[str, Any]) -> None:
    validate(committed_schema)


def test_all_examples_match_their_schemas(live_schema: dict[str, Any]) -> None:
    """openapi-spec-validator does not check examples: validate request examples here."""
    from jsonschema import Draft4Validator

    for operation_id, (_, _, op) in operations(live_schema).items():
        content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        for name, example in content.get("examples", {}).items():
            schema = _openapi_to_jsonschema(content["schema"], live_schema)
            validator = Draft4Validator(schema)
            errors = [e.message for e in validator.iter_errors(example["value"])]
            assert not errors, f"{operation_id} example {name!r}: {errors}"


@pytest.mark.django_db
def test_the_main_examples_work_against_the_api(
    live_schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sign up with the sign-up example, create a token with the token example, and create a
    game with the game example: the examples a reader copies are accepted as they are."""
    from django.core.cache.backends.locmem import LocMemCache
    from rest_framework.test import APIClient

    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache("openapi-examples", {}))
    ops = operations(live_schema)

    def example(operation_id: str) -> tuple[str, dict[str, Any]]:
        _, path, op = ops[operation_id]
        examples = op["requestBody"]["content"]["application/json"]["examples"]
        return path, next(iter(examples.values()))["value"]

    client = APIClient()
    path, body = example("auth_signup")
    response = client.post(path, body, format="json")
    assert response.status_code == 201, response.content
    path, body = example("auth_tokens_create")
    response = client.post(path, body, format="json")
    assert response.status_code == 201, response.content

    signed_up = APIClient()
    token = client.post(
        "/api/v1/auth/tokens/",
        {**example("auth_tokens_create")[1], "scope": "play"},
        format="json",
    ).json()["token"]
    signed_up.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    path, body = example("games_create")
    response = signed_up.post(path, body, format="json")
    assert response.status_code == 201, response.content


def _openapi_to_jsonschema(schema: Any, root: dict[str, Any]) -> Any:
    """Resolve $refs and turn OpenAPI 3.0's `nullable` into JSON Schema (enough for examples)."""
    if isinstance(schema, list):
        return [_openapi_to_jsonschema(s, root) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _openapi_to_jsonschema(target, root)
    out = {
        k: _openapi_to_jsonschema(v, root)
        for k, v in schema.items()
        if k not in ("discriminator", "readOnly", "writeOnly", "nullable", "example")
    }
    if schema.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


# ---------------------------------------------------------------------------------------------
# What every operation documents


@pytest.mark.parametrize("operation_id", STABLE_OPERATION_IDS)
def test_operation_is_fully_described(live_schema: dict[str, Any], operation_id: str) -> None:
    method, path, op = operations(live_schema)[operation_id]
    assert op.get("summary"), f"{operation_id}: no summary"
    assert op.get("tags"), f"{operation_id}: no tag"
    responses = op["responses"]
    successes = [code for code in responses if code.startswith("2")]
    assert successes, f"{operation_id}: no success response"
    for code in successes:
        if code != "204":
            assert "application/json" in responses[code].get("content", {}), (operation_id, code)
    errors = {code: r for code, r in responses.items() if code[0] in "45"}
    assert errors, f"{operation_id}: no error response"
    for code, response in errors.items():
        schema = response["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/Error"}, (operation_id, code)
        assert response["description"], (operation_id, code)
    body = op.get("requestBody")
    if body is not None:
        # JSON only: identical schemas under several media types confuse client generators.
        assert list(body["content"]) == ["application/json"], operation_id
        assert body["content"]["application/json"]["schema"], operation_id


@pytest.mark.parametrize("operation_id", sorted(WITH_EXAMPLES))
def test_main_operations_have_request_examples(
    live_schema: dict[str, Any], operation_id: str
) -> None:
    _, _, op = operations(live_schema)[operation_id]
    assert op["requestBody"]["content"]["application/json"]["examples"], operation_id


def test_every_action_type_has_an_example(live_schema: dict[str, Any]) -> None:
    _, _, op = operations(live_schema)["games_actions_create"]
    examples = op["requestBody"]["content"]["application/json"]["examples"].values()
    mapping = live_schema["components"]["schemas"]["ActionRequest"]["discriminator"]["mapping"]
    assert {e["value"]["type"] for e in examples} == set(mapping)


def test_action_request_is_a_union_discriminated_by_type(live_schema: dict[str, Any]) -> None:
    from games.kinds.registry import request_serializers

    _, _, op = operations(live_schema)["games_actions_create"]
    ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    union = live_schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert union["discriminator"]["propertyName"] == "type"
    mapping = union["discriminator"]["mapping"]
    assert set(mapping) == set(request_serializers())
    assert sorted(mapping.values()) == sorted(branch["$ref"] for branch in union["oneOf"])
    for action_type, branch_ref in mapping.items():
        branch = live_schema["components"]["schemas"][branch_ref.rsplit("/", 1)[1]]
        assert "type" in branch["required"], action_type
        type_schema = branch["properties"]["type"]
        if "$ref" in type_schema:
            type_schema = live_schema["components"]["schemas"][type_schema["$ref"].split("/")[-1]]
        assert type_schema["enum"] == [action_type]


@pytest.mark.parametrize("operation_id", STABLE_OPERATION_IDS)
def test_401_unless_public(live_schema: dict[str, Any], operation_id: str) -> None:
    _, _, op = operations(live_schema)[operation_id]
    if operation_id in PUBLIC_OPERATIONS:
        # Public: no security requirement, or an explicitly optional one.
        assert op.get("security", [{}]) == [{}] or {} in op["security"], operation_id
    else:
        assert "401" in op["responses"], f"{operation_id} needs credentials: document 401"
        assert {"bearerAuth": []} in op["security"], operation_id


# ---------------------------------------------------------------------------------------------
# Throttling, from the views themselves


def _api_routes(
    patterns: list[URLPattern | URLResolver], prefix: str = ""
) -> list[tuple[str, type[APIView]]]:
    """(OpenAPI path, view class) of every DRF view reachable from the root URLconf."""
    found: list[tuple[str, type[APIView]]] = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _api_routes(pattern.url_patterns, route)
            continue
        view_class = getattr(pattern.callback, "view_class", None) or getattr(
            pattern.callback, "cls", None
        )
        if isinstance(view_class, type) and issubclass(view_class, APIView):
            path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route).lstrip("^").rstrip("$")
            found.append((path, view_class))
    return found


def _is_throttled(view_class: type[APIView], method: str) -> bool:
    """Whether a request with this method can be answered 429.

    DRF's ScopedRateThrottle (and ours, players.throttles.AuthRateThrottle) only throttle views
    with a ``throttle_scope``; ours only the ``throttled_methods`` when the view lists them."""
    if not getattr(view_class, "throttle_scope", None):
        return False
    scoped = [c for c in view_class.throttle_classes if issubclass(c, ScopedRateThrottle)]
    if not scoped:
        return False
    methods = getattr(view_class, "throttled_methods", None)
    return methods is None or method.upper() in methods


def _app_limited(view_class: type[APIView], op: dict[str, Any]) -> bool:
    """Whether an app's token reaches the operation (its ``oauth2`` security) and the view
    counts an app's requests (``players.oauth.AppRateThrottle``, on every view by default)."""
    reaches = any("oauth2" in requirement for requirement in op.get("security", []))
    return reaches and any(issubclass(c, AppRateThrottle) for c in view_class.throttle_classes)


def throttled_operations(schema: dict[str, Any], *, apps: bool = True) -> dict[str, bool]:
    """operationId -> throttled? for every operation of a DRF view: by its own rate (a scope),
    or (``apps``) by the per-app rate an app's token meets."""
    result: dict[str, bool] = {}
    for path, view_class in _api_routes(get_resolver().url_patterns):
        item = schema["paths"].get(path)
        if item is None:
            continue  # e.g. the schema view itself
        for method, op in item.items():
            if method in HTTP_METHODS:
                result[op["operationId"]] = _is_throttled(view_class, method) or (
                    apps and _app_limited(view_class, op)
                )
    return result


def test_the_resolver_finds_every_operation(live_schema: dict[str, Any]) -> None:
    assert set(throttled_operations(live_schema)) == set(operations(live_schema))


def test_throttled_operations_are_the_expected_ones(live_schema: dict[str, Any]) -> None:
    own = throttled_operations(live_schema, apps=False)
    throttled = {op for op, yes in own.items() if yes}
    # Sign-up and everything that takes a password or sends mail; creating and joining games;
    # game actions.
    assert {"auth_signup", "auth_tokens_create", "auth_login", "games_actions_create"} <= throttled
    assert {"games_create", "games_join", "games_join_by_invite"} <= throttled
    assert "games_retrieve" not in throttled  # polling is not throttled (but for an app's rate)
    assert throttled_operations(live_schema)["games_retrieve"]


@pytest.mark.parametrize("operation_id", STABLE_OPERATION_IDS)
def test_429_documented_exactly_on_throttled_operations(
    live_schema: dict[str, Any], operation_id: str
) -> None:
    throttled = throttled_operations(live_schema)[operation_id]
    responses = operations(live_schema)[operation_id][2]["responses"]
    if throttled:
        assert "429" in responses, f"{operation_id} is throttled: document 429"
        assert "Retry-After" in responses["429"].get("headers", {}), operation_id
    else:
        assert "429" not in responses, f"{operation_id} is not throttled: do not document 429"


def test_legal_actions_are_a_union_sharing_the_request_shapes(live_schema: dict[str, Any]) -> None:
    schemas = live_schema["components"]["schemas"]
    request = schemas["ActionRequest"]["discriminator"]["mapping"]
    listed_anywhere: set[str] = set()
    for table, own_templates in (
        ("UnoAllWildTable", {"play_pair", "mercy"}),
        ("UnoSplashTable", {"play_pair", "mercy"}),
        ("GinRummyTable", set()),
    ):
        listed = schemas[table]["properties"]["legal_actions"]["items"]["$ref"]
        union = schemas[listed.rsplit("/", 1)[1]]
        assert union["discriminator"]["propertyName"] == "type"
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) <= set(request), table
        listed_anywhere |= set(mapping)
        # A listed action is sent back as it is, except the templates that leave cards to choose.
        templates = {t for t in mapping if mapping[t] != request[t]}
        assert templates == own_templates, table
    assert listed_anywhere == set(request)


def test_the_table_is_a_union_discriminated_by_the_game_kind(live_schema: dict[str, Any]) -> None:
    from games.engine.registry import DEFAULT_KIND

    schemas = live_schema["components"]["schemas"]
    table = schemas["Game"]["properties"]["table"]
    assert table["nullable"] is True
    union = schemas[table["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert union["discriminator"]["propertyName"] == "game"
    assert union["oneOf"][0] == {"$ref": union["discriminator"]["mapping"][DEFAULT_KIND]}


def test_every_request_body_with_a_required_field_is_required(
    live_schema: dict[str, Any],
) -> None:
    schemas = live_schema["components"]["schemas"]
    for operation_id, (_, _, op) in operations(live_schema).items():
        body = op.get("requestBody")
        if body is None:
            continue
        ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        branches = [b["$ref"].rsplit("/", 1)[1] for b in schemas[ref].get("oneOf", [])] or [ref]
        needs = all(schemas[b].get("required") for b in branches)
        assert bool(body.get("required")) == needs, operation_id
