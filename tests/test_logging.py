"""Log lines an operator can follow (config/logs.py, config/celery.py): one JSON line per request
with its route, status, duration, user and request id; the request id echoed to the client and
carried into the tasks the request queues, in this process (tasks run inline) and through the
broker to a real worker, whose task outcomes Prometheus scrapes from its own port."""

from __future__ import annotations

import io
import json
import logging
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import AsyncClient
from prometheus_client.parser import text_string_to_metric_families

from config.logs import RequestIdFilter, current_request_id, json_formatter, request_id_context
from tests import celery_procs
from tests.celery_procs import Worker
from tests.games.conftest import API, new_lobby, start_game
from tests.notifications.conftest import persona
from tests.test_serve import free_port

Lines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def json_log() -> Iterator[Lines]:
    """The JSON lines the service's own handler would write (settings.LOGGING's json formatter
    and request-id filter) for requests and tasks."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter())
    handler.addFilter(RequestIdFilter())
    loggers = [logging.getLogger(name) for name in ("config.requests", "config.tasks")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def requests_in(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["logger"] == "config.requests"]


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_a_request_writes_one_json_line_with_route_status_duration_user_and_id(
    json_log: Lines,
) -> None:
    alice, bob = persona("alice"), persona("bob")
    game_id = start_game(alice, bob)
    before = len(json_log())  # the set-up's own requests are not this test's

    response = alice.view(game_id)

    assert response.status_code == 200
    (line,) = requests_in(json_log()[before:])
    assert line["route"] == "api/v1/games/<uuid:game_id>/"
    assert game_id not in json.dumps(line)  # the route, not the path
    assert line["status"] == 200
    assert line["method"] == "GET"
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["user_id"] == alice.user.pk
    assert line["request_id"] == response["X-Request-ID"]
    assert len(line["request_id"]) == 32
    assert {"time", "level", "logger", "message"} <= set(line)
    assert line["level"] == "INFO"


@pytest.mark.django_db
def test_an_anonymous_request_that_is_refused_is_logged_too(json_log: Lines, client: Any) -> None:
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    (line,) = requests_in(json_log())
    assert (line["route"], line["status"], line["user_id"]) == ("api/v1/me/", 401, None)
    assert line["request_id"] == response["X-Request-ID"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "incoming",
    ["0f8fad5b-d9cb-469f-a165-70867728950e", "4c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f", "lb.trace_42"],
)
def test_a_sane_incoming_request_id_is_kept(json_log: Lines, client: Any, incoming: str) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": incoming})
    assert response["X-Request-ID"] == incoming
    assert requests_in(json_log())[0]["request_id"] == incoming


@pytest.mark.django_db
@pytest.mark.parametrize(
    "incoming", ["", "has space", "new\nline", "x" * 65, "<script>", "a;b=c", "ünïcode"]
)
def test_an_odd_incoming_request_id_is_replaced(
    json_log: Lines, client: Any, incoming: str
) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": incoming})
    ours = response["X-Request-ID"]
    assert ours != incoming and len(ours) == 32 and ours.isalnum()
    assert requests_in(json_log())[0]["request_id"] == ours


@pytest.mark.django_db
def test_under_asgi_too_a_request_is_logged_once_with_its_id(json_log: Lines) -> None:
    response = async_to_sync(AsyncClient().get)("/healthz", headers={"X-Request-ID": "asgi-1"})
    assert response["X-Request-ID"] == "asgi-1"
    (line,) = requests_in(json_log())
    assert (line["route"], line["status"], line["request_id"]) == ("healthz", 200, "asgi-1")


@pytest.mark.django_db
def test_an_unknown_url_is_logged_without_its_path(json_log: Lines, client: Any) -> None:
    client.get("/no/such/page/12345")
    (line,) = requests_in(json_log())
    assert line["status"] == 404
    assert "12345" not in line["route"]


# Real commits: the relay is queued when the request's transaction commits, inside the request,
# as in production (a captured on-commit callback would run after the request has ended).
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_the_request_id_reaches_the_tasks_the_request_queues(
    json_log: Lines, mailoutbox: list[Any]
) -> None:
    # Both reachable by e-mail: the join that fills the table starts the game, and the relay
    # task, queued after the commit (inline here: no broker in tests), mails "your turn".
    alice, bob = persona("alice"), persona("bob")
    lobby = new_lobby(alice, max_players=2)

    response = bob.post(
        f"{API}join/", {"invite_code": lobby["invite_code"]}, **{"X-Request-ID": "join-1234"}
    )

    assert response.status_code == 200, response.content
    assert response["X-Request-ID"] == "join-1234"
    tasks = [line for line in json_log() if line["logger"] == "config.tasks"]
    relay = [line for line in tasks if line["task"] == "notifications.tasks.relay"]
    assert relay, tasks
    assert [line["request_id"] for line in relay] == ["join-1234"] * len(relay)
    assert relay[0]["outcome"] == "SUCCESS" and relay[0]["duration_ms"] >= 0
    assert mailoutbox, "the relay sent no e-mail"
    assert current_request_id() is None  # nothing leaks past the request


# ---------------------------------------------------------------------------------------------
# Through the broker: a real worker


def scrape(url: str, token: str | None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def task_count(text: str, task: str) -> float:
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "unoallwild_celery_tasks_total"
        and sample.labels == {"task": task, "outcome": "SUCCESS"}
    )


@pytest.mark.django_db(transaction=True)
def test_a_worker_logs_the_request_id_it_was_sent_and_counts_its_pool(tmp_path: Path) -> None:
    """A task queued under a request id reaches a prefork worker in the message's headers; the
    worker's JSON line names it, and the worker's scrape port adds up its pool's counters."""
    token = "worker-metrics-token"
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    port = free_port()
    with celery_procs.redis_server(tmp_path / "redis") as redis_url:
        environ = celery_procs.subprocess_env(redis_url, settings.DATABASES["default"])
        environ.update(
            LOG_FORMAT="json",
            METRICS_TOKEN=token,
            WORKER_METRICS_PORT=str(port),
            PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        )
        probe = celery_procs.probe_app(redis_url)
        worker = Worker("obs", environ, tmp_path, pool="prefork", concurrency=2)
        try:
            worker.wait_ready(probe)
            with request_id_context("req-from-web-7"):
                for _ in range(4):
                    probe.send_task("notifications.tasks.relay", kwargs={"delivery_ids": []})
            assert current_request_id() is None

            def finished() -> list[dict[str, Any]]:
                lines = []
                for text in worker.log().splitlines():
                    if text.startswith("{"):
                        line = json.loads(text)
                        if line.get("logger") == "config.tasks":
                            lines.append(line)
                return lines

            worker.wait_for_log(lambda _: len(finished()) >= 4, "four relay tasks")
            assert {line["request_id"] for line in finished()} == {"req-from-web-7"}
            assert {line["outcome"] for line in finished()} == {"SUCCESS"}
            # Celery's own lines are JSON too, the task's "succeeded" with the request id.
            celery_lines = [
                json.loads(text)
                for text in worker.log().splitlines()
                if '"logger": "celery' in text
            ]
            succeeded = [line for line in celery_lines if "succeeded" in line["message"]]
            assert len(succeeded) == 4, celery_lines
            assert {line["request_id"] for line in succeeded} == {"req-from-web-7"}

            url = f"http://127.0.0.1:{port}/metrics"
            assert scrape(url, None)[0] == 404
            assert scrape(url, "wrong")[0] == 404
            status, text = scrape(url, token)
            assert status == 200
            assert task_count(text, "notifications.tasks.relay") == 4
            # Written by the pool's processes, not the worker's main process.
            written = {path.name for path in metrics_dir.iterdir()}
            counters = [name for name in written if name.startswith("counter_")]
            assert f"counter_{worker.process.pid}.db" not in counters
        finally:
            worker.stop()
            probe.close()
