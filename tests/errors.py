"""The API's error answers as the tests read them: ``{"error": {"code": …, "message": …}}`` and
nothing beside it (docs/api.md, "Errors"). One reading for every test module, so a change to the
error body is one change here."""

from __future__ import annotations

from typing import Any


def error_of(response: Any) -> dict[str, Any]:
    """The answer's error object, after checking the body is that object alone, with a code and
    words for a person."""
    body = response.json()
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert error["code"] and error["message"], error
    return error


def error_code(response: Any) -> str:
    return str(error_of(response)["code"])


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The answer is an error with this status and this stable code; its error object."""
    assert response.status_code == status, response.content
    error = error_of(response)
    assert error["code"] == code, error
    return error
