"""The data export (GDPR), through the API: started, built in the background, fetched by its
owner only, throttled, and deleted a day later with its file."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games import selectors as game_selectors
from games.models import Move
from players import exports, tasks
from players.models import ApiToken, DataExport, User
from tests.errors import error_code
from tests.players.conftest import PASSWORD
from tests.players.test_me import played_game

pytestmark = pytest.mark.django_db

EXPORTS = "/api/v1/me/exports/"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


@pytest.fixture(autouse=True)
def export_storage(settings: Any, tmp_path: Path) -> Path:
    """Each test's exports in a folder of its own."""
    settings.STORAGES = {
        **settings.STORAGES,
        "exports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    return tmp_path


def files_in(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def start(api: APIClient) -> dict[str, Any]:
    response = api.post(EXPORTS)
    assert response.status_code == 202, response.content
    body: dict[str, Any] = response.json()
    assert response["Location"] == body["url"]
    return body


def download(api: APIClient, body: dict[str, Any]) -> Any:
    return api.get(body["download_url"])


def test_an_export_is_started_built_in_the_background_and_downloaded(
    alice: User, bob: User, carol: User, token_for: TokenFor, export_storage: Path
) -> None:
    token, api = token_for(alice, name="phone")
    revoked, _ = token_for(alice, name="old phone")
    revoked.revoked_at = timezone.now()
    revoked.save()
    token_for(bob, name="bob's phone")
    game = played_game([(bob, 500, 1), (alice, 80, 2)])
    Move.objects.create(game=game, number=1, seat=0, action={"type": "draw"})
    Move.objects.create(
        game=game, number=2, seat=1, action={"type": "play", "card": 3}, events=[{"secret": 1}]
    )
    Move.objects.create(game=game, number=3, seat=None, action={"type": "timeout"})
    played_game([(bob, 1, 1), (carol, 0, 2)])  # not alice's

    started = start(api)
    assert started["status"] == "pending" and started["download_url"] is None
    assert files_in(export_storage) == []

    assert tasks.build_exports() == 1  # the periodic job: a worker, or the embedded thread
    status = api.get(started["url"]).json()
    assert status["status"] == "ready" and status["size"] > 0
    response = download(api, status)

    assert response.status_code == 200
    assert response.streaming  # from the file, not a body built in memory
    assert response["Content-Disposition"].startswith("attachment;")
    body = b"".join(response.streaming_content)
    assert len(body) == status["size"]
    data = json.loads(body)
    assert data["profile"]["username"] == "alice"
    assert data["profile"]["email"] == "alice@example.com"
    assert {t["name"] for t in data["tokens"]} == {"phone", "old phone"}
    assert all("key_hash" not in t and "token" not in t for t in data["tokens"])
    (exported,) = data["games"]
    assert exported["id"] == str(game.pk)
    assert exported["my_seat"]["final_score"] == 80
    assert exported["my_seat"]["place"] == 2
    assert [s["player"] for s in exported["seats"]] == ["Bob", "Alice"]
    assert [s["is_me"] for s in exported["seats"]] == [False, True]
    assert [m["number"] for m in exported["my_moves"]] == [2]
    assert exported["my_moves"][0]["action"] == {"type": "play", "card": 3}
    assert "events" not in exported["my_moves"][0]
    assert token.key_hash not in body.decode()


def test_starting_an_export_reads_none_of_my_games(
    alice: User, bob: User, token_for: TokenFor
) -> None:
    _, api = token_for(alice)
    for _ in range(30):
        game = played_game([(alice, 1, 1), (bob, 0, 2)])
        Move.objects.create(game=game, number=1, seat=0, action={"type": "draw"})
    with CaptureQueriesContext(connection) as queries:
        started = start(api)
    assert started["status"] == "pending" and started["size"] is None
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert "games_game" not in read and "games_move" not in read


def test_building_takes_queries_per_chunk_of_games_not_per_game(
    alice: User, bob: User, carol: User, token_for: TokenFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_selectors, "EXPORT_CHUNK", 4)
    _, api = token_for(alice)
    played_game([(alice, 1, 1), (bob, 0, 2)])
    start(api)
    with CaptureQueriesContext(connection) as one:
        tasks.build_exports()
    games = [played_game([(alice, 1, 1), (bob, 0, 2), (carol, 0, 3)]) for _ in range(3)]
    for game in games:
        Move.objects.create(game=game, number=1, seat=0, action={"type": "draw"})
    body = start(api)
    with CaptureQueriesContext(connection) as four:  # still one chunk
        tasks.build_exports()
    assert len(four.captured_queries) == len(one.captured_queries)
    more = [played_game([(bob, 1, 1), (alice, 0, 2)]) for _ in range(4)]
    body = start(api)
    with CaptureQueriesContext(connection) as eight:  # two chunks: four queries more
        tasks.build_exports()
    assert len(eight.captured_queries) == len(one.captured_queries) + 4
    exported = json.loads(b"".join(download(api, api.get(body["url"]).json()).streaming_content))
    assert len(exported["games"]) == 8
    assert [g["id"] for g in exported["games"][-4:]] == [str(g.pk) for g in more]


def test_starting_exports_is_throttled_per_account(
    alice: User, bob: User, token_for: TokenFor, settings: Any
) -> None:
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest,
        "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "exports": "2/hour"},
    }
    _, alices = token_for(alice)
    _, bobs = token_for(bob)
    start(alices)
    start(alices)
    response = alices.post(EXPORTS)
    assert response.status_code == 429
    assert error_code(response) == "throttled"
    assert 0 < int(response["Retry-After"]) <= 3600
    # Reading its progress is not throttled, and another account has its own allowance.
    (export,) = DataExport.objects.filter(user=alice)
    assert alices.get(f"{EXPORTS}{export.pk}/").status_code == 200
    start(bobs)


def test_while_one_is_being_built_starting_again_returns_it(
    alice: User, alice_api: APIClient
) -> None:
    first = start(alice_api)
    assert start(alice_api)["id"] == first["id"]
    assert DataExport.objects.count() == 1


def test_a_new_export_replaces_the_finished_one_and_its_file(
    alice: User, alice_api: APIClient, export_storage: Path, django_capture_on_commit_callbacks: Any
) -> None:
    first = start(alice_api)
    tasks.build_exports()
    (old_file,) = files_in(export_storage)
    with django_capture_on_commit_callbacks(execute=True):  # the file goes after commit
        second = start(alice_api)
    assert second["id"] != first["id"]
    assert alice_api.get(first["url"]).status_code == 404
    assert not old_file.exists()


def test_only_its_owner_may_read_an_export(
    alice: User, bob: User, alice_api: APIClient, token_for: TokenFor
) -> None:
    started = start(alice_api)
    tasks.build_exports()
    ready = alice_api.get(started["url"]).json()
    _, bobs = token_for(bob)
    for response in (bobs.get(ready["url"]), bobs.get(ready["download_url"])):
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    assert download(alice_api, ready).status_code == 200


def test_a_download_before_the_export_is_ready_is_refused(alice_api: APIClient) -> None:
    started = start(alice_api)
    response = alice_api.get(f"{started['url']}download/")
    assert response.status_code == 409
    assert error_code(response) == "export_not_ready"


def test_a_read_token_may_start_and_fetch_an_export(alice: User, token_for: TokenFor) -> None:
    _, reader = token_for(alice, scope=ApiToken.SCOPE_READ)
    started = start(reader)
    tasks.build_exports()
    assert download(reader, reader.get(started["url"]).json()).status_code == 200


def test_exports_a_day_old_are_deleted_with_their_files(
    alice: User, alice_api: APIClient, export_storage: Path, django_capture_on_commit_callbacks: Any
) -> None:
    started = start(alice_api)
    tasks.build_exports()
    assert len(files_in(export_storage)) == 1
    assert exports.prune(now=timezone.now() + timedelta(hours=23)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert exports.prune(now=timezone.now() + timedelta(hours=25)) == 1
    assert files_in(export_storage) == []
    assert alice_api.get(started["url"]).status_code == 404


def test_a_build_whose_worker_died_is_taken_up_again(alice: User, alice_api: APIClient) -> None:
    started = start(alice_api)
    assert exports.claim() is not None  # a worker claims it, then dies
    assert exports.claim() is None  # nobody else takes it while it may still be running
    later = timezone.now() + exports.STALE + timedelta(seconds=1)
    export = exports.claim(now=later)
    assert export is not None and export.attempts == 2
    exports.build(export)
    assert alice_api.get(started["url"]).json()["status"] == "ready"


def test_deleting_the_account_deletes_its_export_files(
    alice: User, alice_api: APIClient, export_storage: Path, django_capture_on_commit_callbacks: Any
) -> None:
    start(alice_api)
    tasks.build_exports()
    assert len(files_in(export_storage)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        alice_api.delete("/api/v1/me/", {"password": PASSWORD}, format="json")
    assert files_in(export_storage) == []


def test_the_export_needs_authentication(client: APIClient) -> None:
    assert client.post(EXPORTS).status_code == 401


def test_the_old_export_address_serves_the_newest_finished_export(
    alice: User, alice_api: APIClient
) -> None:
    response = alice_api.get("/api/v1/me/export/")
    assert response.status_code == 409
    assert error_code(response) == "export_not_ready"
    start(alice_api)
    tasks.build_exports()
    response = alice_api.get("/api/v1/me/export/")
    assert response.status_code == 200 and response.streaming
    assert json.loads(b"".join(response.streaming_content))["profile"]["username"] == "alice"


def test_a_ready_export_whose_file_is_gone_is_not_found(
    alice: User, alice_api: APIClient, export_storage: Path
) -> None:
    started = start(alice_api)
    tasks.build_exports()
    for path in files_in(export_storage):
        path.unlink()
    response = download(alice_api, alice_api.get(started["url"]).json())
    assert response.status_code == 404
    assert error_code(response) == "not_found"
