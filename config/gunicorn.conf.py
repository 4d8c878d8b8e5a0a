"""gunicorn's settings for the REST API (docs/deploy.md, "The deployment's shape").

    gunicorn --config config/gunicorn.conf.py config.wsgi:application

The API runs under WSGI, where Django's request cycle is synchronous end to end: no thread hop per
request, and a persistent database connection per worker thread that is really reused
(``CONN_MAX_AGE`` > 0; Django's pool, ``DATABASE_POOL_SIZE``, stays off). Live updates
(``games/{id}/stream/`` and ``events/``) hold a request open for minutes: they belong on the
ASGI process (uvicorn), which a reverse proxy routes them to by path.

Command-line options win over these (``--workers 4``, ``--threads 4``, ``--bind``), and so do
gunicorn's own ``GUNICORN_CMD_ARGS`` (e.g. ``GUNICORN_CMD_ARGS="--workers 8"``). The one
variable read here, ``FORWARDED_ALLOW_IPS``, is registered (and documented) by
config/settings/security.py and read by uvicorn under the same name, so the API and the live
routes trust the same proxies.
Beside it, this file only gives prometheus_client's PROMETHEUS_MULTIPROC_DIR a default (below).
"""

import os
import shutil
import tempfile

# Each worker counts its own requests; prometheus_client's multiprocess mode adds them all up at a
# scrape (config/metrics.py, docs/deploy.md). The mode is chosen when prometheus_client is first
# imported, so here, before the app: a fresh, empty directory of this gunicorn's own, unless the
# operator names one in PROMETHEUS_MULTIPROC_DIR.
_METRICS_PREFIX = "unoallwild-metrics-"
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix=_METRICS_PREFIX)

from prometheus_client import multiprocess  # noqa: E402  (after the directory is chosen)

bind = "0.0.0.0:8000"
# Two per core suits a CPU-bound API that also waits on PostgreSQL and Redis.
workers = 2 * (os.cpu_count() or 1)
# 1: sync workers, one request at a time each (the proxy in front buffers slow clients); more
# (``--threads N``): gthread workers, each thread with its own persistent database connection.
threads = 1
# A request that takes this long is a bug: the worker is killed and restarted.
timeout = 30
graceful_timeout = 30
# Behind the proxy: keep its connections open a little longer than it does.
keepalive = 5
# One line per request on stdout with its id (the X-Request-ID the service answers with) and its
# time in ms; the service's own JSON line per request has the route and user (config/logs.py).
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms id=%({x-request-id}o)s "%(a)s"'
errorlog = "-"
loglevel = "warning"
# Load the application once in the master and fork the workers from it: they share the frozen
# start-up heap (config/gc_tuning.py) instead of each building its own. Nothing opens a database
# or Redis connection at import, so no socket is shared across the fork.
preload_app = True

# The proxies whose X-Forwarded-Proto (and X-Forwarded-For) count: gunicorn's own default is this
# machine only, so a proxy in another container or on another host could never say "https".
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1,::1"

# Bounds on what a client may send before the application sees it (issue 36): gunicorn's own
# defaults, stated so that the bound is written down next to uvicorn's (config/asgi_server.py).
# A longer request line is answered 414, more or longer header fields 400.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


def child_exit(server: object, worker: object) -> None:
    """A worker that exits takes its live gauges with it; its counters stay counted."""
    multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]


def on_exit(server: object) -> None:
    """The directory this file made goes with the gunicorn that made it (one named by the
    operator stays)."""
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    if os.path.basename(path).startswith(_METRICS_PREFIX):
        shutil.rmtree(path, ignore_errors=True)
