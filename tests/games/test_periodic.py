"""Periodic jobs run under both schedulers: Celery beat with Redis, the web thread without."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config import background
from config.celery import app as celery_app
from games import jobs as games_jobs
from games import services, tasks
from games.models import Game
from moderation import jobs as moderation_jobs
from notifications import jobs as notifications_jobs
from players import jobs as players_jobs
from players.models import User
from social import jobs as social_jobs


def test_every_periodic_job_is_scheduled_by_beat_and_by_the_background_thread() -> None:
    every_job = (
        games_jobs.JOBS
        | notifications_jobs.JOBS
        | moderation_jobs.JOBS
        | players_jobs.JOBS
        | social_jobs.JOBS
    )
    registered = {job.name for job in background.registered_jobs()}
    assert set(every_job) <= registered
    assert {name: entry["task"] for name, entry in celery_app.conf.beat_schedule.items()} == {
        name: task for name, (_, task) in every_job.items()
    }


@pytest.mark.django_db
def test_the_expiry_task_closes_lobbies_that_never_started_and_only_those() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    stale = services.create_game(host=alice)
    fresh = services.create_game(host=alice)
    Game.objects.filter(pk=stale.pk).update(lobby_expires_at=timezone.now() - timedelta(seconds=1))

    assert tasks.expire_lobbies.apply().get() == 1  # runs here, with or without a broker
    assert tasks.expire_lobbies() == 0  # a second run finds nothing left to do

    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert (stale.status, fresh.status) == (Game.EXPIRED, Game.LOBBY)
