"""Postprocessing of the OpenAPI schema (drf-spectacular's ``POSTPROCESSING_HOOKS``)."""

from __future__ import annotations

from typing import Any

HTTP_METHODS = ("get", "put", "patch", "post", "delete")


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
