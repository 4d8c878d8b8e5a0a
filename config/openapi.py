"""Postprocessing of the OpenAPI schema (drf-spectacular's ``POSTPROCESSING_HOOKS``), and
``error_response``, how a view declares an error response."""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.utils import OpenApiResponse

from config import error_codes as codes
from config.errors import ErrorSerializer

HTTP_METHODS = ("get", "put", "patch", "post", "delete")


def error_response(description: str) -> OpenApiResponse:
    """An error response in the one shape (config/errors.py) for ``extend_schema``'s
    ``responses``. The ``description`` names in backticks the codes the operation may answer
    with at that status (``"`not_host`, or `permission_denied` (a `read` token)."``) and says
    what they mean there; ``document_error_codes`` checks each against the list and adds its
    meaning."""
    return OpenApiResponse(ErrorSerializer, description=description)


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
            for status, errors in _common_errors(method, operation).items():
                # An operation's own description of the status is kept, and the stack's codes
                # are added to those it names (document_error_codes lists them all).
                response = responses.setdefault(
                    status, _response("", _RETRY_AFTER if status == "503" else None)
                )
                named = response.setdefault(ERROR_CODES, [])
                named.extend(e.code for e in errors if e.code not in named)
            operation["responses"] = dict(sorted(responses.items()))
    return result


def _common_errors(method: str, operation: dict[str, Any]) -> dict[str, list[codes.ErrorCode]]:
    out: dict[str, list[codes.ErrorCode]] = {}
    body = _reads_a_body(method, operation)
    if body or any(p.get("in") == "query" for p in operation.get("parameters", [])):
        out["400"] = [codes.INVALID_REQUEST, codes.UNKNOWN_FIELD]
    if body:
        out["400"].append(codes.MALFORMED_REQUEST)
        out["413"] = [codes.REQUEST_TOO_LARGE]
        out["415"] = [codes.UNSUPPORTED_MEDIA_TYPE]
    out["503"] = [codes.SERVICE_UNAVAILABLE]
    return out


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


# The codes an error response may answer with, as a list (``x-error-codes``) beside its
# description, for tools that read the schema.
ERROR_CODES = "x-error-codes"
_NAMED = re.compile(r"`([a-z][a-z0-9_]*)`")
_STATUSES: dict[str, set[int]] = {}
for _error in (*codes.SERVICE, *codes.RULES.entries):
    _STATUSES.setdefault(_error.code, set()).add(_error.status)
_MEANINGS = {e.code: e.meaning for e in codes.SERVICE}


def document_error_codes(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """List under each error response of each operation the codes it may answer with, with their
    meaning, from the one list (config/error_codes.py): the codes its description names (see
    ``error_response``) and those ``declare_common_errors`` added. A code named under a status
    the list does not give it, or an error response that names no code, is a warning (so
    ``spectacular --fail-on-warn`` refuses it). A 422 that names one of the rules' codes may
    answer any of them: all are listed."""
    for path, item in result.get("paths", {}).items():
        for method in HTTP_METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    where = f"{method.upper()} {path} {status}"
                    _document(response, int(status), where)
    return result


def _document(response: dict[str, Any], status: int, where: str) -> None:
    description = response.get("description", "")
    named = [c for c in _NAMED.findall(description) if c in _STATUSES]
    named += response.pop(ERROR_CODES, [])
    for code in named:
        if status not in _STATUSES[code]:
            warn(f"{where} names `{code}`, which config/error_codes.py lists at {_STATUSES[code]}")
    if status == codes.RULES_STATUS and any(code in codes.BY_RULE for code in named):
        named = [e.code for e in codes.RULES.entries] + named
    listed = list(dict.fromkeys(named))
    if not listed:
        warn(f"{where} names no code of config/error_codes.py")
        return
    lines = [f"- `{code}`: {_meaning(code, status)}" for code in listed]
    response["description"] = "\n\n".join(filter(None, [description, "\n".join(lines)]))
    response[ERROR_CODES] = listed


def _meaning(code: str, status: int) -> str:
    if status == codes.RULES_STATUS and code in codes.BY_RULE:
        return codes.BY_RULE[code].meaning
    return _MEANINGS[code]
