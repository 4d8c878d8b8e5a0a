"""The OpenAPI description of the accounts API."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

OPERATIONS = {
    ("post", "/api/v1/auth/signup/"): "auth_signup",
    ("get", "/api/v1/auth/tokens/"): "auth_tokens_list",
    ("post", "/api/v1/auth/tokens/"): "auth_tokens_create",
    ("delete", "/api/v1/auth/tokens/{token_id}/"): "auth_tokens_destroy",
    ("post", "/api/v1/auth/login/"): "auth_login",
    ("post", "/api/v1/auth/logout/"): "auth_logout",
    ("post", "/api/v1/auth/password/change/"): "auth_password_change",
    ("post", "/api/v1/auth/password/reset/"): "auth_password_reset",
    ("post", "/api/v1/auth/password/reset/confirm/"): "auth_password_reset_confirm",
    ("post", "/api/v1/auth/email/verify/"): "auth_email_verify",
    ("post", "/api/v1/auth/email/verify/confirm/"): "auth_email_verify_confirm",
    ("get", "/api/v1/me/"): "me_retrieve",
    ("patch", "/api/v1/me/"): "me_partial_update",
    ("delete", "/api/v1/me/"): "me_destroy",
    ("get", "/api/v1/me/stats/"): "me_stats_retrieve",
    ("get", "/api/v1/me/export/"): "me_export_retrieve",
    ("post", "/api/v1/me/exports/"): "me_exports_create",
    ("get", "/api/v1/me/exports/{export_id}/"): "me_exports_retrieve",
    ("get", "/api/v1/me/exports/{export_id}/download/"): "me_exports_download",
}
THROTTLED = {
    "auth_signup",
    "auth_tokens_create",
    "auth_login",
    "auth_password_change",
    "auth_password_reset",
    "auth_password_reset_confirm",
    "auth_email_verify",
    "auth_email_verify_confirm",
    "me_partial_update",
    "me_destroy",
    "me_exports_create",
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    generated: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(generated)
    return generated


def operation(schema: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    found: dict[str, Any] = schema["paths"][path][method]
    return found


@pytest.mark.parametrize(("key", "operation_id"), OPERATIONS.items())
def test_every_operation_has_its_stable_id(
    schema: dict[str, Any], key: tuple[str, str], operation_id: str
) -> None:
    assert operation(schema, *key)["operationId"] == operation_id


@pytest.mark.parametrize(("key", "operation_id"), OPERATIONS.items())
def test_every_error_response_uses_the_one_error_shape(
    schema: dict[str, Any], key: tuple[str, str], operation_id: str
) -> None:
    responses = operation(schema, *key)["responses"]
    errors = {code: r for code, r in responses.items() if code.startswith(("4", "5"))}
    assert errors, operation_id
    for response in errors.values():
        ref = response["content"]["application/json"]["schema"]["$ref"]
        assert ref == "#/components/schemas/Error"
        assert response["description"]


@pytest.mark.parametrize(("key", "operation_id"), OPERATIONS.items())
def test_throttled_operations_document_429(
    schema: dict[str, Any], key: tuple[str, str], operation_id: str
) -> None:
    """The accounts' own limits (THROTTLED), and the per-app limit wherever an app's token reaches
    the operation (its ``oauth2`` security requirement); nothing else answers 429 here."""
    found = operation(schema, *key)
    app_reaches = any("oauth2" in requirement for requirement in found.get("security", []))
    assert ("429" in found["responses"]) == (operation_id in THROTTLED or app_reaches)


def test_signup_and_token_creation_have_examples(schema: dict[str, Any]) -> None:
    for path in ("/api/v1/auth/signup/", "/api/v1/auth/tokens/"):
        op = operation(schema, "post", path)
        assert op["requestBody"]["content"]["application/json"]["examples"]
        assert op["responses"]["201"]["content"]["application/json"]["examples"]


def test_bearer_tokens_are_described_as_a_security_scheme(schema: dict[str, Any]) -> None:
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert {"bearerAuth": []} in operation(schema, "get", "/api/v1/me/")["security"]


def test_login_needs_no_credentials_in_the_schema(schema: dict[str, Any]) -> None:
    assert operation(schema, "post", "/api/v1/auth/login/")["security"] == [{}]
