"""Idempotency-Key handling: a retried request gets the first response, never a second effect.

The record is claimed in its own short transaction (so a concurrent duplicate sees it at once),
and the response is stored in the same transaction as the move itself: either both are committed
or neither is, so a crash in between cannot apply a move without remembering its answer.
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

# A claim older than this belongs to a request that died; a retry may take it over.
STALE_AFTER = timedelta(seconds=60)
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
    """Run ``work`` at most once per (user, key). Returns (status, body, replayed)."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ServiceError(
            "invalid_idempotency_key", f"Idempotency-Key is 1 to {MAX_KEY_LENGTH} characters.", 400
        )
    digest = request_hash(body)
    record = _claim(user, key, digest)
    if record.status == IdempotencyRecord.DONE:
        return _replay(record)
    with transaction.atomic():
        # The row lock orders this run after a request that was taken over as stale but was
        # only slow: if that one finished meanwhile, its answer stands and nothing runs again.
        current = IdempotencyRecord.objects.select_for_update().get(pk=record.pk)
        if current.status == IdempotencyRecord.DONE:
            return _replay(current)
        try:
            status, payload = work()
        except ServiceError as exc:
            status, payload = exc.status, error_body(exc.code, exc.message, exc.details)
        record.status = IdempotencyRecord.DONE
        record.response_status = status
        record.response_body = json.loads(json.dumps(payload, default=str))
        record.save(update_fields=["status", "response_status", "response_body"])
    return status, payload, False


def _replay(record: IdempotencyRecord) -> tuple[int, dict[str, Any], bool]:
    return record.response_status or 200, record.response_body or {}, True


def _claim(user: User, key: str, digest: str) -> IdempotencyRecord:
    try:
        with transaction.atomic():
            return IdempotencyRecord.objects.create(user=user, key=key, request_hash=digest)
    except IntegrityError:
        pass
    record = IdempotencyRecord.objects.get(user=user, key=key)
    if record.request_hash != digest:
        raise ServiceError(
            "idempotency_key_reused",
            "This Idempotency-Key was used with a different request body.",
            422,
        )
    if record.status == IdempotencyRecord.IN_PROGRESS:
        cutoff = timezone.now() - STALE_AFTER
        # Compare-and-set: of several retries of a dead request, exactly one takes it over.
        taken = IdempotencyRecord.objects.filter(
            pk=record.pk, status=IdempotencyRecord.IN_PROGRESS, created_at__lt=cutoff
        ).update(created_at=timezone.now())
        if not taken:
            record.refresh_from_db()
            if record.status == IdempotencyRecord.DONE:
                return record
            raise ServiceError(
                "request_in_progress",
                "A request with this Idempotency-Key is still being processed; retry shortly.",
                409,
            )
    return record
