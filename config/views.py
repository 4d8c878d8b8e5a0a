"""Views that belong to the service as a whole rather than to one app."""

from django.http import HttpRequest, JsonResponse


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process is up and routing requests.

    Deliberately touches neither the database nor Redis. An orchestrator restarts a container whose
    liveness check fails, and restarting web processes does not fix a database outage.
    """
    return JsonResponse({"status": "ok"})
