"""config/middleware.py: under ASGI, Django's middleware run their hooks without thread hops.

Django calls every ``MiddlewareMixin`` hook through ``sync_to_async`` on its async path; with
the project's middleware that was sixteen thread hops per API request. What remains is what must
run in a thread: the sync DRF view, and the ``request_started`` / ``request_finished`` signal
receivers (database connection housekeeping), plus a session save when there is one. A DRF
response rendered as JSON is rendered on the event loop (``RenderJsonInline``); any other
rendering still hops."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client

from players.models import ApiToken, User

pytestmark = pytest.mark.django_db

# The request_started receivers (a signal runs its sync receivers in one sync_to_async), the sync
# view, and closing its response (the request_finished receivers).
HOPS_PER_API_REQUEST = 3


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen: list[Any] = []
    real = sync.SyncToAsync.__call__

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(getattr(self.func, "__qualname__", self.func))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    return seen


def _token() -> str:
    user = User.objects.create_user(username="hops", display_name="Hops")
    return ApiToken.issue(user, name="t", scope=ApiToken.SCOPE_PLAY)[1]


def test_an_api_request_hops_to_a_thread_only_for_the_view_and_the_signals(
    hops: list[Any],
) -> None:
    token = _token()
    response = async_to_sync(AsyncClient().get)(
        "/api/v1/me/", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200
    assert len(hops) == HOPS_PER_API_REQUEST, hops


def test_a_json_response_is_rendered_on_the_loop_and_any_other_in_a_thread(
    hops: list[Any],
) -> None:
    token = _token()
    client = AsyncClient()
    auth = {"Authorization": f"Bearer {token}"}
    as_json = async_to_sync(client.get)("/api/v1/me/", headers=auth)
    assert len(hops) == HOPS_PER_API_REQUEST, hops
    assert as_json["Content-Type"] == "application/json"
    assert as_json.json()["username"] == "hops"
    assert as_json.content == Client().get("/api/v1/me/", headers=auth).content  # as under WSGI
    hops.clear()
    as_html = async_to_sync(client.get)("/api/v1/me/", headers={**auth, "Accept": "text/html"})
    assert as_html.status_code == 200 and as_html["Content-Type"].startswith("text/html")
    assert b"hops" in as_html.content  # the browsable API's page, rendered in a thread
    assert len(hops) == HOPS_PER_API_REQUEST + 1, hops
    assert any("render" in str(hop) for hop in hops), hops


def test_a_session_that_changed_is_still_saved_in_a_thread(hops: list[Any]) -> None:
    User.objects.create_user(username="web", password="a long enough password 1")
    client = AsyncClient()
    response = async_to_sync(client.post)(
        "/api/v1/auth/login/",
        {"username": "web", "password": "a long enough password 1"},
        content_type="application/json",
    )
    assert response.status_code in (200, 201, 204), response.content
    assert "sessionid" in response.cookies  # saved, and the cookie set
    assert len(hops) == HOPS_PER_API_REQUEST + 1, hops


def test_under_wsgi_the_middleware_are_djangos() -> None:
    token = _token()
    response = Client().get("/api/v1/me/", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_csrf_check_of_an_unsafe_request_runs_in_a_thread(hops: list[Any]) -> None:
    """It may parse the body (a multipart upload) and render the failure page: not on the
    event loop. The answer is Django's: 403 without a token."""
    client = AsyncClient(enforce_csrf_checks=True)
    response = async_to_sync(client.post)("/admin/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert any("process_view" in str(hop) for hop in hops), hops
