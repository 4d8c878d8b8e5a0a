"""gunicorn's settings for the REST API (docs/deploy.md, "The deployment's shape").

    gunicorn --config config/gunicorn.conf.py config.wsgi:application

The API runs under WSGI, where Django's request cycle is synchronous end to end: no thread hop per
request, and a persistent database connection per worker thread that is really reused
(``CONN_MAX_AGE`` > 0; Django's pool, ``DATABASE_POOL_SIZE``, stays off). Live updates
(``games/{id}/stream/`` and ``events/``) hold a request open for minutes: they belong on the
ASGI process (uvicorn), which a reverse proxy routes them to by path.

Command-line options win over these (``--workers 4``, ``--threads 4``, ``--bind``), and so do
gunicorn's own ``GUNICORN_CMD_ARGS`` (e.g. ``GUNICORN_CMD_ARGS="--workers 8"``): this file reads
no variable of its own, so the service's settings stay the ones config/settings.py reads.
"""

import os

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
accesslog = None
errorlog = "-"
loglevel = "warning"
# Load the application once in the master and fork the workers from it: they share the frozen
# start-up heap (config/gc_tuning.py) instead of each building its own. Nothing opens a database
# or Redis connection at import, so no socket is shared across the fork.
preload_app = True
