"""Prometheus metrics (config/metrics.py): scraped through ``GET /metrics`` with the operator's
token, never without it; a move played through the API is counted by its game's kind and its
request timed by its route; the outbox's backlog is read at the scrape."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from notifications.models import Delivery, Notification
from tests.games.conftest import (
    game_url,
    lift_throttles,  # noqa: F401  (a fixture, used by name)
    make_player,
    player_to_move,
    random_action,
    start_game,
)

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
