"""Expired sessions are deleted on a schedule (issue 30, §3): Django's `clearsessions` as a
periodic job of both schedulers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from config import background
from config.celery import app as celery_app
from players import tasks


def test_clearing_sessions_is_a_job_of_beat_and_of_the_background_thread() -> None:
    job = next(j for j in background.registered_jobs() if j.name == "clear-expired-sessions")
    assert job.func is tasks.clear_expired_sessions
    entry = celery_app.conf.beat_schedule["clear-expired-sessions"]
    assert (entry["task"], entry["schedule"]) == ("players.tasks.clear_expired_sessions", 3600.0)


@pytest.mark.django_db
def test_the_job_deletes_expired_sessions_and_keeps_live_ones() -> None:
    alices = SessionStore()
    alices["who"] = "alice"
    alices.create()
    bobs = SessionStore()
    bobs["who"] = "bob"
    bobs.create()
    Session.objects.filter(session_key=bobs.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    tasks.clear_expired_sessions.apply().get()  # as beat's worker or the thread would run it

    assert list(Session.objects.values_list("session_key", flat=True)) == [alices.session_key]
    assert SessionStore(session_key=alices.session_key)["who"] == "alice"
