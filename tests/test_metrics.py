"""Prometheus metrics (config/metrics.py): scraped through ``GET /metrics`` with the operator's
token, never without it; a move played through the API is counted by its game's kind and its
request timed by its route; the outbox's backlog is read at the scrape."""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from games import services
from games.models import Game
from notifications import relay
from notifications.models import Delivery, Notification
from tests import celery_procs
from tests.games.conftest import game_url, make_player, player_to_move, random_action, start_game
from tests.notifications.conftest import persona
from tests.test_serve import ROOT, free_port

TOKEN = "a-long-random-metrics-token"
ACTIONS_ROUTE = "api/v1/games/<uuid:game_id>/actions/"


@pytest.fixture
def metrics_token(settings: Any) -> str:
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape(token: str = TOKEN) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of one scrape, by name and labels."""
    response = Client().get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.mark.django_db
def test_a_scrape_without_the_token_is_refused(metrics_token: str) -> None:
    assert Client().get("/metrics").status_code == 404
    wrong = Client().get("/metrics", headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 404
    assert b"unoallwild" not in wrong.content
    basic = Client().get("/metrics", headers={"Authorization": f"Basic {metrics_token}"})
    assert basic.status_code == 404


@pytest.mark.django_db
def test_without_a_configured_token_there_are_no_metrics(settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_a_move_through_the_api_is_counted_by_kind_and_timed_by_route(
    metrics_token: str, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game_id = start_game(alice, bob)
    before = scrape()

    mover = player_to_move([alice, bob], game_id)
    action = random_action(mover.table(game_id), random.Random(1))
    with django_capture_on_commit_callbacks(execute=True):
        response = mover.act(game_id, action)
    assert response.status_code == 200, response.content

    after = scrape()
    moves = "unoallwild_moves_total"
    assert value(after, moves, kind="uno_all_wild") == value(before, moves, kind="uno_all_wild") + 1
    timed = "unoallwild_http_request_duration_seconds_count"
    labels = {"method": "POST", "route": ACTIONS_ROUTE, "status": "200"}
    assert value(after, timed, **labels) == value(before, timed, **labels) + 1
    # The route, never the path: no game's id in any label.
    assert not any(game_id in str(key) for key in after)
    assert game_url(game_id) not in str(after)


@pytest.mark.django_db
def test_a_move_rolled_back_is_not_counted(metrics_token: str) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game_id = start_game(alice, bob)
    mover = player_to_move([alice, bob], game_id)
    before = scrape()
    # Outside the capture, the test's transaction never commits: nor does the move.
    mover.act(game_id, random_action(mover.table(game_id), random.Random(1)))
    after = scrape()
    moves = "unoallwild_moves_total"
    assert value(after, moves, kind="uno_all_wild") == value(before, moves, kind="uno_all_wild")


@pytest.mark.django_db
def test_the_outbox_backlog_and_its_lateness_are_read_at_the_scrape(metrics_token: str) -> None:
    carol = make_player("carol")
    notification = Notification.objects.create(user=carol.user, kind="your_turn")
    before = scrape()
    Delivery.objects.create(
        notification=notification,
        channel="email",
        next_attempt_at=timezone.now() - timedelta(minutes=5),
    )
    after = scrape()
    assert (
        value(after, "unoallwild_outbox_backlog") == value(before, "unoallwild_outbox_backlog") + 1
    )
    assert value(after, "unoallwild_outbox_oldest_due_seconds") >= 300


# ---------------------------------------------------------------------------------------------
# gunicorn's several workers


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), dict(refused.headers)


@pytest.mark.django_db(transaction=True)
def test_one_scrape_adds_up_every_gunicorn_worker_also_those_that_exited(tmp_path: Path) -> None:
    """gunicorn as docs/deploy.md runs it, with workers that exit after 5 requests each (so 20
    requests are served by at least four processes): one scrape counts all 20. Its access log
    and the service's JSON lines name each request's id."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    port = free_port()
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "PROMETHEUS_MULTIPROC_DIR"}
    }
    # No PROMETHEUS_MULTIPROC_DIR: config/gunicorn.conf.py makes one in the temp directory.
    environ.update(
        celery_procs.database_env(settings.DATABASES["default"]),
        TMPDIR=str(temp),
        METRICS_TOKEN=TOKEN,
        LOG_FORMAT="json",
        PYTHONUNBUFFERED="1",
    )
    argv = [sys.executable, "-m", "gunicorn", "--config", "config/gunicorn.conf.py"]
    argv += ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--max-requests", "5"]
    log_path = tmp_path / "gunicorn.log"
    base = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*argv, "config.wsgi:application"],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log_path.read_text(errors="replace")
                assert time.monotonic() < deadline, log_path.read_text(errors="replace")
                try:
                    if _get(f"{base}/readyz")[0] == 200:
                        break
                except (urllib.error.URLError, ConnectionError):
                    time.sleep(0.2)
            ids = [f"gunicorn-{n}" for n in range(20)]
            for request_id in ids:
                status, _, headers = _get(f"{base}/healthz", {"X-Request-ID": request_id})
                assert (status, headers["X-Request-ID"]) == (200, request_id)

            assert _get(f"{base}/metrics")[0] == 404
            status, text, _ = _get(f"{base}/metrics", {"Authorization": f"Bearer {TOKEN}"})
            assert status == 200
            (metrics_dir,) = temp.glob("unoallwild-metrics-*")
            served_by = {p.name for p in metrics_dir.iterdir() if p.name.startswith("histogram_")}
        finally:
            process.terminate()
            process.wait(timeout=30)
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    labels = {"method": "GET", "route": "healthz", "status": "200"}
    assert value(samples, "unoallwild_http_request_duration_seconds_count", **labels) == 20
    # Four or more processes served the 20 requests, and one scrape counted them all.
    assert len(served_by) >= 4, served_by
    assert not metrics_dir.exists()  # gone with gunicorn
    assert "unoallwild_outbox_backlog" in {name for name, _ in samples}

    output = log_path.read_text(errors="replace").splitlines()
    for request_id in ids:
        # gunicorn's access line: the request, its status, its time in ms and its id.
        assert any(
            '"GET /healthz HTTP/1.1" 200' in line and f"id={request_id} " in line and "ms " in line
            for line in output
        ), request_id
    logged = [json.loads(line) for line in output if line.startswith("{")]
    requests = [line for line in logged if line.get("logger") == "config.requests"]
    assert {line["request_id"] for line in requests if line["route"] == "healthz"} == set(ids)


@pytest.mark.django_db
def test_deliveries_are_counted_by_channel_and_outcome(
    metrics_token: str, mailoutbox: list[Any]
) -> None:
    carol = persona("carol")  # a verified e-mail address
    dave = make_player("dave")  # none: not reachable by e-mail
    due = [
        Delivery.objects.create(
            notification=Notification.objects.create(user=player.user, kind="moderation"),
            channel="email",
        )
        for player in (carol, dave)
    ]
    before = scrape()

    relay.relay(delivery_ids=[d.pk for d in due])

    after = scrape()
    name = "unoallwild_deliveries_total"
    for outcome in ("sent", "skipped"):
        labels = {"channel": "email", "outcome": outcome}
        assert value(after, name, **labels) == value(before, name, **labels) + 1, outcome
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_timeouts_and_bot_moves_are_counted_with_the_moves(
    metrics_token: str, django_capture_on_commit_callbacks: Any
) -> None:
    """Against a bot, every overdue turn the sweep finds is either the player's (a timeout) or
    the bot's (the bot moves): each is a move of the game's kind."""
    erin = make_player("erin")
    game = services.play_vs_computer(user=erin.user, kind="uno_splash")
    kind = {"kind": "uno_splash"}
    before = scrape()
    for _ in range(6):
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        with django_capture_on_commit_callbacks(execute=True):
            assert services.sweep_expired_turns() == 1
        now = scrape()
        timeouts = value(now, "unoallwild_turn_timeouts_total", **kind) - value(
            before, "unoallwild_turn_timeouts_total", **kind
        )
        bot_moves = value(now, "unoallwild_bot_moves_total", **kind) - value(
            before, "unoallwild_bot_moves_total", **kind
        )
        if timeouts and bot_moves:
            break
    assert timeouts >= 1 and bot_moves >= 1
    moves = value(now, "unoallwild_moves_total", **kind) - value(
        before, "unoallwild_moves_total", **kind
    )
    assert moves >= timeouts + bot_moves


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_an_open_event_stream_is_a_live_connection_until_it_closes(metrics_token: str) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game_id = start_game(alice, bob)
    gauge = "unoallwild_live_connections"
    # A stream another test left open closes when it is collected: not in the middle of this.
    gc.collect()
    before = value(scrape(), gauge)

    response = alice.get(game_url(game_id, "stream/"), Accept="text/event-stream")
    assert response.status_code == 200
    assert next(iter(response.streaming_content)).startswith(b"retry:")
    assert value(scrape(), gauge) == before + 1

    response.close()
    assert value(scrape(), gauge) == before


@pytest.mark.django_db
def test_labels_stay_few_whatever_clients_send(metrics_token: str) -> None:
    """A made-up method or path is one label value for all of them, not one each."""
    for n in range(3):
        Client().generic(f"BREW{n}", f"/no/such/page/{n}/")
    labels = {key for key in scrape() if key[0] == "unoallwild_http_request_duration_seconds_count"}
    methods = {dict(key[1])["method"] for key in labels}
    routes = {dict(key[1])["route"] for key in labels}
    assert not any(m.startswith("BREW") for m in methods)
    assert "other" in methods and "<unmatched>" in routes
    assert not any("no/such" in r for r in routes)
