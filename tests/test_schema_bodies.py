"""Every JSON request body of the committed schema, sent with a wrong type in each field and
with a field the operation does not take: each is refused with 400 in the one error shape,
naming the field, and the answer fits the schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler

from tests.schema_world import (  # noqa: F401  (wsgi_app: a fixture, found by name)
    CHECKS,
    schema,
    world_for,
    wsgi_app,
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


def _json_bodies() -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """(operation, its id, its body's schema) for every operation that takes a JSON body."""
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() not in {"POST", "PUT", "PATCH"}:
            continue
        content = operation.definition.raw.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            operation_id = schema.get_operation_id(operation) or operation.label
            yield operation, operation_id, content["application/json"]["schema"]


def _wrong_type_cases() -> Iterator[Any]:
    for operation, operation_id, body_schema in _json_bodies():
        for field_name, body in _bodies(body_schema):
            kind = body.get("type", "")
            label = f"{operation_id}-{kind + '-' if kind else ''}{field_name}"
            yield pytest.param(operation, field_name, body, id=label)


def refused(
    operation: Any, app: WSGIHandler, body: dict[str, Any], *, legal_action: bool
) -> tuple[Any, Any]:
    """``operation`` called in its world with ``body`` over the caller's valid values for the
    other fields (a challenge's player), so that ``body`` is the request's only fault: DRF checks
    a field's contents (a house rule's type) only once every required field is there. With
    ``legal_action``, a legal action of ``body``'s type fills in its fields too. It must be
    refused with 400: (the case, its response)."""
    operation_id = schema.get_operation_id(operation) or operation.label
    path_names = {p.name for p in operation.path_parameters}
    world = world_for(operation_id, path_names)
    action = world.legal.get(body.get("type", ""), {}) if legal_action else {}
    case = operation.Case(
        path_parameters={name: world.path[name] for name in path_names},
        body={**world.body, **action, **body},
        media_type="application/json",
    )
    # With the world's headers and cookies: a session log-in checks CSRF before the body.
    headers = {"Authorization": f"Bearer {world.token}", **world.headers}
    response = case.call(app=app, headers=headers, cookies=world.cookies)
    assert response.status_code == 400, (body, response.status_code, response.text[:500])
    return case, response


def refused_naming(
    operation: Any,
    app: WSGIHandler,
    body: dict[str, Any],
    *,
    legal_action: bool,
    naming: tuple[str, str],
) -> tuple[Any, Any]:
    """``refused``, with the error code ``naming[0]`` naming the field ``naming[1]``."""
    code, field_name = naming
    case, response = refused(operation, app, body, legal_action=legal_action)
    error = response.json()["error"]
    assert error["code"] == code, error
    assert field_name in error["details"]["fields"], error
    return case, response


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "field_name", "body"), list(_wrong_type_cases()))
def test_a_wrong_json_type_is_refused_with_400(
    operation: Any,
    field_name: str,
    body: dict[str, Any],
    wsgi_app: WSGIHandler,  # noqa: F811
) -> None:
    case, response = refused_naming(
        operation, wsgi_app, body, legal_action=False, naming=("invalid_request", field_name)
    )
    case.validate_response(response, checks=CHECKS)


# ---------------------------------------------------------------------------------------------
# A field the operation does not take, in every JSON request body
#
# A misspelt field (``color`` for ``colour``) was dropped and the request answered without it.
# Every body now refuses it: 400 ``unknown_field`` naming it, as the schema's
# ``additionalProperties: false`` says.

UNKNOWN = "colour_typo"


def _unknown_field_cases() -> Iterator[Any]:
    for operation, operation_id, raw_schema in _json_bodies():
        body_schema = _resolved(raw_schema)
        body: dict[str, Any] = {UNKNOWN: 1}
        if "discriminator" in body_schema:
            field_name = body_schema["discriminator"]["propertyName"]
            body[field_name] = next(iter(body_schema["discriminator"]["mapping"]))
        yield pytest.param(operation, body, id=operation_id)


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "body"), list(_unknown_field_cases()))
def test_a_field_the_operation_does_not_take_is_refused_naming_it(
    operation: Any,
    body: dict[str, Any],
    wsgi_app: WSGIHandler,  # noqa: F811
) -> None:
    refused_naming(operation, wsgi_app, body, legal_action=True, naming=("unknown_field", UNKNOWN))
