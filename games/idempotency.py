"""Idempotency-Key handling: a retried request gets the first response, never a second effect.

The key is looked up, the work done and its answer recorded in one transaction, so the answer
and the move commit together or not at all: a crash (or a lost database) in between leaves
neither, and the retry simply runs. Two copies of a request running at once both find no record;
the action's game row lock makes the second wait for the first, and the unique (user, key)
constraint makes the second's record fail once the first has committed: its whole transaction
(its move too, if it made one) is rolled back and it answers with the first one's stored answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import ServiceError, error_body
from games.models import IdempotencyRecord
from players.models import User

MAX_KEY_LENGTH = 128


def prune(now: datetime | None = None) -> int:
    """Forget keys older than IDEMPOTENCY_KEY_DAYS (a retry comes within minutes, not days);
    returns how many went. A claim still in progress is old enough to be dead by then."""
    from notifications.retention import delete_in_batches

    cutoff = (now or timezone.now()) - timedelta(days=settings.IDEMPOTENCY_KEY_DAYS)
    return delete_in_batches(IdempotencyRecord.objects.filter(created_at__lt=cutoff))


def request_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def run_once(
    *, user: User, key: str, body: Any, work: Callable[[], tuple[int, dict[str, Any]]]
) -> tuple[int, dict[str, Any], bool]:
    """Run ``work`` at most once per (user, key). Returns (status, body, replayed).

    A ServiceError from ``work`` is an answer like any other, recorded and replayed for the same
    key: ``work`` must undo its own writes when it raises one (``games.services.act`` runs in
    ``transaction.atomic``, a savepoint here)."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ServiceError(
            "invalid_idempotency_key", f"Idempotency-Key is 1 to {MAX_KEY_LENGTH} characters.", 400
        )
    digest = request_hash(body)
    try:
        with transaction.atomic():
            found = _recorded(user, key, digest)
            if found is not None:
                return _replay(found)
            try:
                status, payload = work()
            except ServiceError as exc:
                status, payload = exc.status, error_body(exc.code, exc.message, exc.details)
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                request_hash=digest,
                status=IdempotencyRecord.DONE,
                response_status=status,
                response_body=json.loads(json.dumps(payload, default=str)),
            )
    except IntegrityError:
        # The same request, run at the same time, committed its answer first; this one's work
        # went with the rolled-back transaction.
        found = _recorded(user, key, digest)
        if found is None:
            raise
        return _replay(found)
    return status, payload, False


def _recorded(user: User, key: str, digest: str) -> IdempotencyRecord | None:
    """The stored answer for this key, if any; 422 when the key came with another body."""
    # A slice, not .first(): (user, key) is unique, and .first() would add an ORDER BY.
    record = next(iter(IdempotencyRecord.objects.filter(user=user, key=key)[:1]), None)
    if record is None:
        return None
    if record.request_hash != digest:
        raise ServiceError(
            "idempotency_key_reused",
            "This Idempotency-Key was used with a different request body.",
            422,
        )
    if record.status != IdempotencyRecord.DONE:
        # A claim written by a release that claimed keys before running the work (a request
        # that died); nothing of it was committed but the claim.
        record.delete()
        return None
    return record


def _replay(record: IdempotencyRecord) -> tuple[int, dict[str, Any], bool]:
    return record.response_status or 200, record.response_body or {}, True
