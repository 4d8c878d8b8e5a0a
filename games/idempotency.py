"""Idempotency-Key handling: a retried request gets the first response, never a second effect.

The work is done and its answer recorded in one transaction, so the answer and the move commit
together or not at all: a crash (or a lost database) in between leaves neither, and the retry
simply runs. The key is not looked up first: the unique (user, key) constraint is the check. A
request whose key has a record already fails to insert its own; its whole transaction (its move
too, if it made one) is rolled back, and only then is the key looked up: the stored answer is
replayed, or 422 when the key came with another body. Two copies of a request running at once:
the action's game row lock makes the second wait for the first, and its record fails once the
first has committed, so it answers with the first one's stored answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from config import error_codes as codes
from config.db import delete_in_batches
from config.errors import ServiceError, error_body
from games.models import IdempotencyRecord
from players.models import User

MAX_KEY_LENGTH = 128


def prune(now: datetime | None = None) -> int:
    """Forget keys older than IDEMPOTENCY_KEY_DAYS (a retry comes within minutes, not days);
    returns how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.IDEMPOTENCY_KEY_DAYS)
    return delete_in_batches(IdempotencyRecord.objects.filter(created_at__lt=cutoff))


def request_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True)
class Answer:
    """An answer as sent: the first one, or the stored one replayed byte for byte."""

    status: int
    content: bytes
    content_type: str
    replayed: bool = False


JSON = "application/json"


def render(payload: Any) -> bytes:
    """The body DRF's JSONRenderer sends for ``Response(payload)``."""
    return JSONRenderer().render(payload)


def run_once(
    *,
    user: User,
    key: str,
    target: str,
    body: Any,
    work: Callable[[], tuple[int, dict[str, Any]]],
) -> Answer:
    """Run ``work`` at most once per (user, key) and answer with its rendered (status, payload);
    a request with a used key gets the stored answer, the same bytes, with ``replayed``. The key
    belongs to one ``target`` (the request's method and URL) and one ``body``: another one of
    either is refused with 422, each with its own code.

    A ServiceError from ``work`` is an answer like any other, recorded and replayed for the same
    key: ``work`` must raise it before its first write, or undo its writes itself
    (``games.services.act`` refuses before it writes)."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ServiceError(
            codes.INVALID_IDEMPOTENCY_KEY, f"Idempotency-Key is 1 to {MAX_KEY_LENGTH} characters."
        )
    digest = _digest(target, body)
    # No lookup first: a fresh key (nearly every request) costs only its record's insert. The
    # unique (user, key) constraint finds a used key, and the rolled-back transaction takes the
    # work's effects with it.
    outcome = _run_and_record(user, key, digest, work)
    if not isinstance(outcome, IntegrityError):
        return outcome
    found = _recorded(user, key, digest)
    if found is None:
        # The record in the way went meanwhile (pruned): nothing to replay, and the request's
        # own work was rolled back with its record. Run it again.
        retry = _run_and_record(user, key, digest, work)
        if isinstance(retry, IntegrityError):
            raise retry
        return retry
    return _replay(found)


def _run_and_record(
    user: User, key: str, digest: str, work: Callable[[], tuple[int, dict[str, Any]]]
) -> Answer | IntegrityError:
    """Run ``work`` and record its answer in one transaction. The record's IntegrityError when
    the key has a record already: the transaction, ``work``'s effects with it, was rolled back."""
    recording = False
    try:
        with transaction.atomic():
            try:
                status, payload = work()
            except ServiceError as exc:
                status, payload = exc.status, error_body(exc.code, exc.message, exc.details)
            recording = True
            answer = Answer(status, render(payload), JSON)
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                request_hash=digest,
                response_status=answer.status,
                response_content=answer.content,
                response_content_type=answer.content_type,
            )
    except IntegrityError as exc:
        if not recording:
            raise  # the work's own error, not the key's unique constraint
        return exc
    return answer


def _digest(target: str, body: Any) -> str:
    """The request's fingerprint in the record's 64 characters: half of the target's hash, then
    half of the body's (128 bits each), so a refusal can say which one differs."""
    return request_hash(target)[:_HALF] + request_hash(body)[:_HALF]


_HALF = 32


def _recorded(user: User, key: str, digest: str) -> IdempotencyRecord | None:
    """The stored answer for this key, if any; 422 when the key came with another target or
    another body."""
    # A slice, not .first(): (user, key) is unique, and .first() would add an ORDER BY.
    record = next(iter(IdempotencyRecord.objects.filter(user=user, key=key)[:1]), None)
    if record is None:
        return None
    if record.request_hash[:_HALF] != digest[:_HALF]:
        raise ServiceError(
            codes.IDEMPOTENCY_KEY_OTHER_URL,
            "This Idempotency-Key was used for a request to another URL; use a new key.",
        )
    if record.request_hash != digest:
        raise ServiceError(
            codes.IDEMPOTENCY_KEY_REUSED,
            "This Idempotency-Key was used with a different request body.",
        )
    return record


def _replay(record: IdempotencyRecord) -> Answer:
    # Every record is written with its answer (_run_and_record). bytes(): PostgreSQL's driver
    # hands a bytea back as a memoryview.
    return Answer(
        record.response_status or 200,
        bytes(record.response_content or b""),
        record.response_content_type or JSON,
        replayed=True,
    )
