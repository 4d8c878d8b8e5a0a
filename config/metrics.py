"""Prometheus metrics: what the service counts, and the scrape endpoint that is not public.

Counters and histograms live in the process's memory (``prometheus_client``): incrementing one
costs no query and no network call, so the move path keeps its pinned query counts. What only
the database knows (the outbox's backlog) is read when Prometheus scrapes, by collectors the apps
add with ``add_scrape_collector`` (one cheap query each).

Several processes (gunicorn's workers, Celery's prefork children) each count their own requests
and tasks. With ``PROMETHEUS_MULTIPROC_DIR`` set (before the process starts: prometheus_client
reads it at import), each process writes its values to files there and a scrape adds up every
process's files (prometheus_client's multiprocess mode), so one scrape of any worker sees all of
them. docs/deploy.md, "Watching it run", says how each process kind is scraped.

The endpoint answers only a request bearing ``METRICS_TOKEN`` (``Authorization: Bearer …``), and
404 to everyone while no token is configured.
"""

from __future__ import annotations

import hmac
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    make_wsgi_app,
)
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

PREFIX = "unoallwild"

REQUEST_SECONDS = Histogram(
    f"{PREFIX}_http_request_duration_seconds",
    "Time from the request reaching Django to its answer (a stream: to its first byte).",
    ["method", "route", "status"],
    # From a cached GET (a few ms) to the 30-second worker timeout.
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
MOVES = Counter(f"{PREFIX}_moves_total", "Moves applied and committed, by game kind.", ["kind"])
BOT_MOVES = Counter(
    f"{PREFIX}_bot_moves_total", "Moves bots chose and applied, by game kind.", ["kind"]
)
TURN_TIMEOUTS = Counter(
    f"{PREFIX}_turn_timeouts_total", "Turns that ran out of time, by game kind.", ["kind"]
)
DELIVERIES = Counter(
    f"{PREFIX}_deliveries_total",
    "Notification deliveries finished or retried, by channel and outcome "
    "(sent, failed, skipped, retry).",
    ["channel", "outcome"],
)
LIVE_CONNECTIONS = Gauge(
    f"{PREFIX}_live_connections",
    "Event streams open now.",
    # Summed over the live processes that are running (a dead one's streams are gone).
    multiprocess_mode="livesum",
)
LIVE_WAITING = Gauge(
    f"{PREFIX}_live_waiting_polls",
    "Long-polls waiting for a change now.",
    multiprocess_mode="livesum",
)
TASKS = Counter(
    f"{PREFIX}_celery_tasks_total",
    "Celery tasks run, by task name and final state (SUCCESS, FAILURE, RETRY, ...).",
    ["task", "outcome"],
)
TASK_SECONDS = Histogram(
    f"{PREFIX}_celery_task_duration_seconds",
    "Time a Celery task ran.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0),
)


def after_commit(count: Any) -> None:
    """Count ``count`` (a counter with its labels) once the current transaction commits: a move
    rolled back was never applied. In memory only: registering the callback costs no query."""
    transaction.on_commit(count.inc)


_scrape_collectors: list[Collector] = []


def add_scrape_collector(collector: Collector) -> None:
    """Read ``collector`` at every scrape of the endpoint (an app's ``ready``: what only the
    database knows, like the outbox's backlog). Added once per process."""
    if all(type(c) is not type(collector) for c in _scrape_collectors):
        _scrape_collectors.append(collector)


def multiprocess() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def process_metrics() -> Collector:
    """Every process's counters in multiprocess mode, this process's otherwise."""
    if not multiprocess():
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


class _Scrape:
    """The processes' metrics, then the scrape-time collectors'."""

    def __init__(self, sources: Iterable[Collector]) -> None:
        self.sources = list(sources)

    def collect(self) -> Iterator[Metric]:
        for source in self.sources:
            yield from source.collect()


def _authorized(header: str) -> bool:
    scheme, _, token = header.partition(" ")
    expected = settings.METRICS_TOKEN
    return (
        bool(expected)
        and scheme.lower() == "bearer"
        and hmac.compare_digest(token.strip().encode(), expected.encode())
    )


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics`` for Prometheus, with ``Authorization: Bearer <METRICS_TOKEN>``.

    Without a configured token it does not exist (404); with one, any other request is 404 too,
    so the route tells a stranger nothing."""
    if not _authorized(request.headers.get("Authorization", "")):
        return HttpResponse("Not found.\n", status=404, content_type="text/plain")
    body = generate_latest(_Scrape([process_metrics(), *_scrape_collectors]))
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Prometheus scrapes every few seconds: no access line for each."""


def _token_required(app: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not _authorized(environ.get("HTTP_AUTHORIZATION", "")):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"Not found.\n"]
        return app(environ, start_response)

    return guarded


def serve_worker_metrics(port: int, host: str = "0.0.0.0") -> WSGIServer:
    """A Celery worker's scrape port (``CELERY_METRICS_PORT``): a worker serves no HTTP of its
    own, so its main process answers scrapes in a thread, with its pool's counters added up from
    ``PROMETHEUS_MULTIPROC_DIR`` and the same token as the web's endpoint. Returns the server
    (``shutdown()`` stops it)."""
    app = _token_required(make_wsgi_app(process_metrics()))
    server = make_server(host, port, app, _ThreadingServer, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    logger.info("Metrics for Prometheus on port %d", server.server_port)
    return server
