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
state, an id of the caller's) gets it in ``world_for`` (tests/schema_world.py): create it for
the caller there and put the path parameters and body fields that name it into ``World.path`` /
``World.body``.

``SCHEMATHESIS_MAX_EXAMPLES`` (default 60) bounds the generated examples per operation; the seed
is fixed and generation derandomized, so a failure reproduces.
"""

from __future__ import annotations

import zlib
from collections import Counter

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from hypothesis import HealthCheck, Phase, settings
from schemathesis.core import NOT_SET
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode

from tests.schema_world import (  # noqa: F401  (wsgi_app: a fixture, found by name)
    CHECKS,
    MAX_EXAMPLES,
    World,
    schema,
    world_for,
    wsgi_app,
)

# The last test reads what the others counted in this process: one xdist worker runs them all,
# in order (`--dist loadgroup`). Its count needs the others, so it is never pure either.
pytestmark = [pytest.mark.xdist_group("schemathesis"), pytest.mark.services]


# operation id -> Counter({"total": n, "2xx": n, "<status>": n})
RESULTS: dict[str, Counter[str]] = {}


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
def test_api(case: schemathesis.Case, wsgi_app: WSGIHandler) -> None:  # noqa: F811
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
