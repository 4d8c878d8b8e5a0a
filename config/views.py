"""Views that belong to the service as a whole rather than to one app."""

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process is up and routing requests.

    Deliberately touches neither the database nor Redis. An orchestrator restarts a container whose
    liveness check fails, and restarting web processes does not fix a database outage.
    """
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: the database answers and, when configured, so does Redis.

    A load balancer stops sending traffic to a process whose dependencies are down; the body
    says which check failed so an operator sees it at once.
    """
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except DatabaseError as exc:
        checks["database"] = f"error: {exc.__class__.__name__}"
    if settings.REDIS_URL:
        try:
            redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1
            ).ping()
            checks["redis"] = "ok"
        except redis.RedisError as exc:
            checks["redis"] = f"error: {exc.__class__.__name__}"
    ready = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503
    )
