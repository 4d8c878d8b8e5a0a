"""gunicorn's settings for the REST API (docs/deploy.md, "The deployment's shape").

    gunicorn --config config/gunicorn.conf.py config.wsgi:application

The API runs under WSGI, where Django's request cycle is synchronous end to end: no thread hop per
request, and a persistent database connection per worker thread that is really reused
(``CONN_MAX_AGE`` > 0; Django's pool, ``DATABASE_POOL_SIZE``, stays off). Live updates
(``games/{id}/stream/`` and ``events/``) hold a request open for minutes: they belong on the
ASGI process (uvicorn), which a reverse proxy routes them to by path.

Command-line options win over these (``--workers``, ``--threads``, ``--bind``), as does
``GUNICORN_CMD_ARGS``.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# gunicorn's own variable for the number of workers; two per core suits a CPU-bound API that
# also waits on PostgreSQL and Redis.
workers = int(os.environ.get("WEB_CONCURRENCY", str(2 * (os.cpu_count() or 1))))
# 1: sync workers, one request at a time each (the proxy in front buffers slow clients); more:
# gthread workers with that many threads, each with its own persistent database connection.
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# A request that takes this long is a bug: the worker is killed and restarted.
timeout = 30
graceful_timeout = 30
# Behind the proxy: keep its connections open a little longer than it does.
keepalive = 5
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# Load the application once in the master and fork the workers from it: they share the frozen
# start-up heap (config/gc_tuning.py) instead of each building its own. Nothing opens a database
# or Redis connection at import, so no socket is shared across the fork.
preload_app = True
