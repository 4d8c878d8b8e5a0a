"""The one list of errors (config/error_codes.py) is complete and nothing else chooses a status.

- Every code the service raises is an entry of the list (a ``ServiceError`` takes an entry,
  never a string, and every ``codes.NAME`` names one); every entry is raised somewhere.
- The rules' codes are the engine's (games/engine/errors.py), each raised by the engine.
- The status of a refusal is its entry's, through the exception handler.
- docs/api.md carries the list's generated tables, and every error response of the schema lists
  its codes, each at a status the list gives it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework import exceptions

from config import error_codes as codes
from config import openapi
from config.errors import ServiceError, api_exception_handler
from games.engine import errors as engine_errors

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "config",
    "players",
    "games",
    "notifications",
    "ratings",
    "social",
    "chat",
    "moderation",
    "web",
)
ENTRIES = {name: value for name, value in vars(codes).items() if isinstance(value, codes.ErrorCode)}
# The codes that are the service's own at one status and the rules' (422) at another.
SHARED_WITH_THE_RULES = {"invalid_action", "invalid_setup", "game_over"}


def sources(*packages: str) -> Iterator[tuple[Path, ast.Module]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, ast.parse(path.read_text(), str(path))


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def names_used_from_the_list() -> dict[str, list[str]]:
    """``codes.NAME`` (and ``from config.error_codes import NAME``) outside the list itself."""
    used: dict[str, list[str]] = {}
    for path, tree in sources(*APPS):
        if path == ROOT / "config" / "error_codes.py":
            continue
        aliases = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "config"
            for alias in node.names
            if alias.name == "error_codes"
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "config.error_codes":
                for alias in node.names:
                    used.setdefault(alias.name, []).append(where(path, node))
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                used.setdefault(node.attr, []).append(where(path, node))
    return used


def calls_of(name: str, *packages: str) -> Iterator[tuple[str, ast.Call]]:
    for path, tree in sources(*packages):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    yield where(path, node), node


def test_every_name_used_from_the_list_is_listed() -> None:
    unknown = {
        name: places
        for name, places in names_used_from_the_list().items()
        if not hasattr(codes, name)
    }
    assert unknown == {}, "not in config/error_codes.py"


def test_a_service_error_is_raised_with_an_entry_never_a_string() -> None:
    # A string code (or a status beside it) would be a code the list does not hold.
    literal = [
        place
        for place, call in calls_of("ServiceError", *APPS)
        if not call.args
        or isinstance(call.args[0], ast.Constant)
        or len(call.args) > 2
        or any(keyword.arg == "status" for keyword in call.keywords)
    ]
    assert literal == [], "raise ServiceError(codes.NAME, message, **details)"


def test_no_error_body_is_written_with_a_code_of_its_own() -> None:
    literal = [
        place
        for place, call in calls_of("error_body", *APPS)
        if call.args and isinstance(call.args[0], ast.Constant)
    ]
    assert literal == []


def test_every_entry_is_used() -> None:
    used = set(names_used_from_the_list())
    # DRF's own codes are raised by DRF and answered through DRF_CODES.
    drf = {id(error) for _, error in codes.DRF_CODES}
    unused = [
        name
        for name, error in ENTRIES.items()
        if error in codes.SERVICE and name not in used and id(error) not in drf
    ]
    assert unused == [], "listed in config/error_codes.py but never raised: remove them"


def test_the_rules_codes_are_the_engines() -> None:
    assert sorted(codes.BY_RULE) == sorted(engine_errors.ALL_CODES)
    assert all(error.status == codes.RULES_STATUS for error in codes.RULES.entries)


def test_every_code_the_engine_raises_is_a_rules_code() -> None:
    # The engine names its codes by their constants (some through a variable or a choice), so
    # every constant it refers to counts as raised, and a code written as a string must be one.
    constants = {name for name in vars(engine_errors) if name.isupper()}
    raised: set[str] = set()
    for path, tree in sources("games/engine"):
        if path.name == "errors.py":
            continue
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        # ``from ..errors import NOT_YOUR_TURN`` and ``from .. import errors as E`` (E.X).
        names = {a.name for n in imports if (n.module or "").endswith("errors") for a in n.names}
        aliases = {a.asname or a.name for n in imports for a in n.names if a.name == "errors"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) in aliases:
                names.add(node.attr)
        raised |= {getattr(engine_errors, name) for name in names & constants}
    written = {
        place: call.args[0].value
        for place, call in calls_of("EngineError", "games/engine")
        if call.args and isinstance(call.args[0], ast.Constant)
    }
    assert {p: c for p, c in written.items() if c not in codes.BY_RULE} == {}
    never = sorted(set(codes.BY_RULE) - raised - set(written.values()))
    assert never == [], "listed rules' codes that no game raises"


def test_codes_are_unique_and_only_three_are_shared_with_the_rules() -> None:
    service = [error.code for error in codes.SERVICE]
    assert len(service) == len(set(service))
    assert set(service) & set(codes.BY_RULE) == SHARED_WITH_THE_RULES
    assert all(codes.BY_RULE[c].status != ENTRIES[c.upper()].status for c in SHARED_WITH_THE_RULES)


def test_a_service_error_answers_with_its_entrys_status_and_code() -> None:
    error = ServiceError(codes.VERSION_CONFLICT, "Reload.", current_version=4)
    response = api_exception_handler(error, {})
    assert response is not None and response.status_code == 409
    assert response.data == {
        "error": {
            "code": "version_conflict",
            "message": "Reload.",
            "details": {"current_version": 4},
        }
    }


def test_a_detail_may_be_called_error() -> None:
    # OAuth's refusals carry details.error (the OAuth error name) beside the entry.
    error = ServiceError(codes.OAUTH_INVALID_REQUEST, "No.", error="invalid_request")
    assert (error.code, error.status, error.details) == (
        "oauth_invalid_request",
        400,
        {"error": "invalid_request"},
    )


@pytest.mark.parametrize(("exc", "error"), codes.DRF_CODES)
def test_drfs_exceptions_answer_with_their_entry(
    exc: type[exceptions.APIException], error: codes.ErrorCode
) -> None:
    arguments = {exceptions.MethodNotAllowed: ["GET"], exceptions.UnsupportedMediaType: ["x/y"]}
    instance = exc(*arguments.get(exc, []))
    response = api_exception_handler(instance, {})
    assert response is not None
    assert (response.status_code, response.data["error"]["code"]) == (error.status, error.code)


def test_a_refusal_by_the_rules_is_422_with_the_rules_code() -> None:
    assert codes.refused_by_rules("not_your_turn") is codes.BY_RULE["not_your_turn"]
    assert codes.refused_by_rules("invalid_action").status == 422  # the 400 is the service's
    toy = codes.refused_by_rules("illegal_action")  # a game registered at run time
    assert (toy.code, toy.status) == ("illegal_action", 422)


def test_docs_carry_the_generated_tables() -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    assert codes.markdown() in text, "run: python -m config.error_codes docs/api.md"


def error_responses(schema: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    yield f"{method.upper()} {path}", int(status), response


def test_every_error_response_of_the_schema_lists_its_codes_at_their_status() -> None:
    schema = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    statuses: dict[str, set[int]] = {}
    for error in (*codes.SERVICE, *codes.RULES.entries):
        statuses.setdefault(error.code, set()).add(error.status)
    wrong = [
        (operation, status, code)
        for operation, status, response in error_responses(schema)
        for code in response.get(openapi.ERROR_CODES) or [None]
        if code is None or status not in statuses[code]
    ]
    assert wrong == []


def test_an_action_may_meet_every_rules_code() -> None:
    schema = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    action = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]["responses"]["422"]
    assert set(codes.BY_RULE) <= set(action[openapi.ERROR_CODES])
    assert (
        "- `not_your_turn`: a turn action from a seat whose turn it is not"
        in (action["description"])
    )


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    # drf-spectacular's warn() counts toward --fail-on-warn; here it is collected instead.
    collected: list[str] = []
    monkeypatch.setattr(openapi, "warn", collected.append)
    return collected


def document(description: str, status: int) -> dict[str, Any]:
    response = {"description": description}
    schema = {"paths": {"/x/": {"get": {"responses": {str(status): response}}}}}
    openapi.document_error_codes(schema)
    return response


def test_the_schema_hook_adds_each_named_codes_meaning(warnings: list[str]) -> None:
    response = document("`not_host`, or `permission_denied` (a `read` token).", 403)
    assert warnings == []
    assert response[openapi.ERROR_CODES] == ["not_host", "permission_denied"]
    assert f"- `not_host`: {codes.NOT_HOST.meaning}" in response["description"]


def test_the_schema_hook_warns_of_a_code_at_a_status_the_list_does_not_give_it(
    warnings: list[str],
) -> None:
    document("`game_full` or `not_found`.", 404)
    assert len(warnings) == 1 and "`game_full`" in warnings[0]


def test_the_schema_hook_warns_of_an_error_response_that_names_no_code(
    warnings: list[str],
) -> None:
    document("Something went wrong: `after` is out of range.", 400)
    assert len(warnings) == 1 and "names no code" in warnings[0]
