"""Postprocessing of the OpenAPI schema (drf-spectacular's ``POSTPROCESSING_HOOKS``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HTTP_METHODS = ("get", "put", "patch", "post", "delete")

# The schema's enum names: drf-spectacular's ENUM_NAME_OVERRIDES (name -> the choices, or the
# dotted path of a list of them), which settings point at. The platform's are below; each game
# kind adds its own when it is registered (games.kinds.registry, from its adapter's
# ``enum_names``), so that no game is named here or in settings.
ENUM_NAMES: dict[str, Any] = {
    # Reports have a `status` and a `reason` of their own: every `status` enum is named, so that
    # none gets a hash suffix, and `reason` and `reasons` (same choices) get one name.
    "StatusEnum": "moderation.api.serializers.GAME_STATUS_VALUES",
    "ReportStatusEnum": "moderation.models.Report.STATUSES",
    "ReportReasonEnum": "moderation.models.Report.REASONS",
    "OAuthScopeEnum": "players.oauth.SCOPE_NAMES",
    # Notification kinds keep one name wherever they appear (webhook `kinds` filters too);
    # the webhook event's `type` gets its own.
    "KindEnum": "notifications.kinds.KINDS",
    "WebhookEventTypeEnum": "notifications.models.WebhookDelivery.TYPES",
    # The kinds a game is created with (each game's table's own kind is its adapter's).
    "GameEnum": "games.api.serializers.game_kinds",
}


def name_enums(names: Mapping[str, Any]) -> None:
    """Add enum names to the schema's (``ENUM_NAMES``). A name means one choice set: giving it
    again with other choices is a mistake, refused."""
    for name, choices in names.items():
        if ENUM_NAMES.setdefault(name, choices) != choices:
            raise ValueError(f"the schema's enum {name} is named for other choices already")


def unname_enums(names: Mapping[str, Any], keep: Mapping[str, Any]) -> None:
    """Remove enum names added by ``name_enums``, but those in ``keep`` (still in use)."""
    for name in set(names) - set(keep):
        ENUM_NAMES.pop(name, None)


def require_union_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Mark a request body that is a union (``oneOf``, e.g. the action request) as required
    when every one of its shapes has a required property. drf-spectacular decides this only
    for a plain serializer, from its required fields."""
    schemas = result.get("components", {}).get("schemas", {})
    for item in result.get("paths", {}).values():
        for method in HTTP_METHODS:
            body = item.get(method, {}).get("requestBody")
            if body is None or body.get("required"):
                continue
            for media in body.get("content", {}).values():
                union = schemas.get(media.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1])
                if (
                    union
                    and "oneOf" in union
                    and all(_required(b, schemas) for b in union["oneOf"])
                ):
                    body["required"] = True
    return result


def _required(branch: dict[str, Any], schemas: dict[str, Any]) -> bool:
    target = schemas.get(branch.get("$ref", "").rsplit("/", 1)[-1], branch)
    return bool(target.get("required"))


def name_union_maps(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Give a name to each inline map (an ``object`` with ``additionalProperties``, e.g. a
    table's ``options``) of a union's variants: openapi-python-client builds such a model again
    for every union the variant is in, and refuses the duplicate (and so the whole union)."""
    schemas = result.get("components", {}).get("schemas", {})
    variants = {
        branch["$ref"].rsplit("/", 1)[-1]
        for schema in list(schemas.values())
        for branch in schema.get("oneOf", [])
        if "$ref" in branch
    }
    for variant in sorted(variants):
        for name, prop in schemas.get(variant, {}).get("properties", {}).items():
            if prop.get("type") != "object" or "additionalProperties" not in prop:
                continue
            component = variant + "".join(part.title() for part in name.split("_"))
            inline = dict(prop)
            description = inline.pop("description", None)
            schemas[component] = inline
            ref: dict[str, Any] = {"$ref": f"#/components/schemas/{component}"}
            prop.clear()
            prop.update({"allOf": [ref], "description": description} if description else ref)
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result


# Refusals any operation can meet, whatever its view declares: they come from the stack around
# the view (config/errors.py). (status, description, applies to an operation that ...)
_ERROR = {"$ref": "#/components/schemas/Error"}
_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "Seconds to wait before retrying.",
    }
}


def _reads_a_body(method: str, operation: dict[str, Any]) -> bool:
    # DELETE me/ reads a body OpenAPI 3.0 cannot describe (its description says so).
    return "requestBody" in operation or (
        method == "delete" and "body" in operation.get("description", "")
    )


def declare_common_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Declare on every operation the answers the stack around its view may give:

    - 503 ``service_unavailable`` with ``Retry-After``: the database is unreachable;
    - 413 ``request_too_large`` and 415 ``unsupported_media_type`` where a body is read;
    - 400 ``invalid_request`` where a body or a query parameter is read (strict input:
      ``unknown_field``, a boolean that is not true/false, a number out of bounds).

    An operation's own description of a status (e.g. its 400 codes) is kept."""
    for item in result.get("paths", {}).values():
        for method in HTTP_METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            extra: dict[str, dict[str, Any]] = {}
            has_query = any(p.get("in") == "query" for p in operation.get("parameters", []))
            if _reads_a_body(method, operation) or has_query:
                extra["400"] = _response(
                    "`invalid_request` (details.fields), `unknown_field` (a body field the "
                    "operation does not take) or `malformed_request` (not JSON)."
                )
            if _reads_a_body(method, operation):
                extra["413"] = _response("`request_too_large`: the body is too large.")
                extra["415"] = _response(
                    "`unsupported_media_type`: send the body as `application/json`."
                )
            extra["503"] = _response(
                "`service_unavailable`: briefly unavailable; retry after `Retry-After` seconds.",
                headers=_RETRY_AFTER,
            )
            for status, response in extra.items():
                responses.setdefault(status, response)
            operation["responses"] = dict(sorted(responses.items()))
    return result


def _response(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    response: dict[str, Any] = {}
    if headers:
        response["headers"] = headers
    response["content"] = {"application/json": {"schema": dict(_ERROR)}}
    response["description"] = description
    return response


def forbid_unknown_request_fields(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """``additionalProperties: false`` on every request body's object schemas (nested ones
    too): the server refuses a field it does not declare (``unknown_field``,
    config/serializers.py), and a generated client or a fuzzer must know it. A map (an object
    with ``additionalProperties`` of its own, e.g. ``options``) keeps its own."""
    schemas = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref", "")
        if ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                visit(schemas.get(name))
            return
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for key in ("properties",):
            for prop in node.get(key, {}).values():
                visit(prop)
        for key in ("allOf", "oneOf", "anyOf", "items"):
            if key in node:
                visit(node[key])

    for item in result.get("paths", {}).values():
        for method in HTTP_METHODS:
            body = item.get(method, {}).get("requestBody")
            if body is not None:
                for media in body.get("content", {}).values():
                    visit(media.get("schema"))
    return result
