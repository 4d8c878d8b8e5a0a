"""The data export (GDPR): requested through the API, built in the background, fetched when ready.

An account with thousands of games makes an export of many megabytes that takes seconds to read
and write, so a request only records that an export is wanted (``request_export``); the periodic
job ``build_pending`` (a Celery worker with Redis, the embedded background thread without) claims
it with a compare-and-set and writes the JSON game by game into a file of the ``exports`` storage
(``write``: memory stays bounded by one chunk of games, ``games.selectors.EXPORT_CHUNK``). Only
its owner can fetch it, and ``prune`` deletes exports a day old.

The file's shape is ``ExportSerializer``: the same JSON the schema describes for the download.
"""

from __future__ import annotations

import io
import json
import logging
import tempfile
from collections.abc import Iterable
from datetime import timedelta
from typing import IO, Any

from django.core.files import File
from django.core.files.storage import Storage, storages
from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone
from rest_framework import serializers
from rest_framework.utils.encoders import JSONEncoder

from config import error_codes as codes
from config.errors import ServiceError
from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from players import selectors
from players.models import ApiToken, DataExport, User

logger = logging.getLogger(__name__)

# How long a finished export waits to be fetched before it is deleted.
KEEP = timedelta(days=1)
# A build that has run this long died with its worker: it is claimed again, at most MAX_ATTEMPTS.
STALE = timedelta(minutes=15)
MAX_ATTEMPTS = 3


def storage() -> Storage:
    return storages["exports"]


# ---------------------------------------------------------------------------------------------
# The file's shape


class ExportProfileSerializer(serializers.ModelSerializer):
    # The same choice list as the profile's (one enum in the schema, not two of one name).
    language = serializers.ChoiceField(
        choices=[code for code, _ in User._meta.get_field("language").choices or []],
        read_only=True,
    )

    class Meta:
        model = User
        fields = [*User.OWN_FIELDS, "last_login", "is_active"]
        read_only_fields = fields


class ExportTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = [*ApiToken.SHOWN_FIELDS, "revoked_at"]
        read_only_fields = fields


class ExportSeatSerializer(serializers.Serializer):
    position = StrictIntegerField(allow_null=True)
    player = StrictCharField(allow_null=True, help_text="Public name; null if deleted.")
    is_me = StrictBooleanField()
    final_score = StrictIntegerField(allow_null=True)
    place = StrictIntegerField(allow_null=True)


class ExportMySeatSerializer(serializers.Serializer):
    position = StrictIntegerField(allow_null=True)
    joined_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    final_score = StrictIntegerField(allow_null=True)
    place = StrictIntegerField(allow_null=True)


class ExportMoveSerializer(serializers.Serializer):
    number = StrictIntegerField(help_text="The game's version after this move.")
    action = serializers.JSONField()
    created_at = serializers.DateTimeField()


class ExportGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    preset = StrictCharField()
    status = StrictCharField()
    visibility = StrictCharField()
    target_score = StrictIntegerField()
    was_host = StrictBooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    my_seat = ExportMySeatSerializer()
    seats = ExportSeatSerializer(many=True)
    my_moves = ExportMoveSerializer(many=True)


class ExportSerializer(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    profile = ExportProfileSerializer()
    tokens = ExportTokenSerializer(many=True, help_text="Metadata only, revoked ones included.")
    games = ExportGameSerializer(many=True)


def write(user: User, out: IO[str]) -> None:
    """``user``'s export as JSON into ``out``, one list item at a time: a list (the games) is
    read from its selector lazily and never held whole."""
    data = selectors.export(user)
    fields = ExportSerializer().fields
    out.write("{")
    for index, (key, field) in enumerate(fields.items()):
        out.write(("," if index else "") + json.dumps(key) + ":")
        value = data[key]
        if isinstance(field, serializers.ListSerializer):
            _write_list(out, field.child, value)
        else:
            out.write(_dumps(field.to_representation(value)))
    out.write("}")


def _write_list(out: IO[str], child: serializers.Field, items: Iterable[Any]) -> None:
    out.write("[")
    for index, item in enumerate(items):
        out.write(("," if index else "") + _dumps(child.to_representation(item)))
    out.write("]")


def _dumps(value: Any) -> str:
    # DRF's encoder, as its JSONRenderer uses: the file reads like an API response.
    return json.dumps(value, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Requesting, building, fetching, pruning


def request_export(*, user: User) -> DataExport:
    """The export being built for ``user``, or a new pending one (older ones are deleted: a
    player has at most one). The build job picks it up within seconds."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one request at a time
        waiting = (
            DataExport.objects.filter(
                user=user, status__in=[DataExport.PENDING, DataExport.RUNNING]
            )
            .order_by("-created_at")
            .first()
        )
        if waiting is not None:
            return waiting
        # post_delete (below) removes each one's file: with a receiver connected, Django deletes
        # row by row and signals each.
        DataExport.objects.filter(user=user).delete()
        return DataExport.objects.create(user=user)


def export_of(user: User, export_id: Any) -> DataExport:
    """``user``'s own export ``export_id``; another player's is not found, like one that never
    was."""
    found = DataExport.objects.filter(pk=export_id, user=user).first()
    if found is None:
        raise ServiceError(codes.NOT_FOUND, "No such export.")
    return found


def latest_ready(user: User) -> DataExport:
    """``user``'s newest finished export, or ``export_not_ready`` (409) when there is none."""
    found = DataExport.objects.filter(user=user, status=DataExport.READY).first()
    if found is None:
        raise ServiceError(
            codes.EXPORT_NOT_READY, "No finished export: start one with POST me/exports/."
        )
    return found


def open_file(export: DataExport) -> IO[bytes]:
    """The finished file, or ``export_not_ready`` (409) while it is being built, or
    ``not_found`` when its file is gone (a storage that the web process does not share with the
    worker, or cleaned up by hand)."""
    if export.status != DataExport.READY:
        raise ServiceError(codes.EXPORT_NOT_READY, f"The export is {export.status}, not ready.")
    try:
        return storage().open(export.file_name, "rb")
    except OSError:
        logger.error("data export %s: its file %s is missing", export.pk, export.file_name)
        raise ServiceError(codes.NOT_FOUND, "The export's file is gone: start another.") from None


def claim(now: Any = None) -> DataExport | None:
    """Take the oldest pending export (or one whose build went stale) for this worker. Any
    number of workers may call this: the conditional UPDATE lets exactly one win each row."""
    now = now or timezone.now()
    due = Q(status=DataExport.PENDING) | Q(status=DataExport.RUNNING, started_at__lt=now - STALE)
    for candidate in DataExport.objects.filter(due).order_by("created_at")[:5]:
        won = DataExport.objects.filter(
            pk=candidate.pk, status=candidate.status, attempts=candidate.attempts
        ).update(status=DataExport.RUNNING, started_at=now, attempts=candidate.attempts + 1)
        if won:
            candidate.refresh_from_db()
            return candidate
    return None


def build(export: DataExport) -> None:
    """Write the file of a claimed export and mark it ready (or failed after
    ``MAX_ATTEMPTS``). Runs outside any transaction: it reads for seconds."""
    if export.attempts > MAX_ATTEMPTS:
        DataExport.objects.filter(pk=export.pk).update(
            status=DataExport.FAILED, finished_at=timezone.now()
        )
        return
    with tempfile.TemporaryFile() as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8")
        write(export.user, text)
        text.flush()
        raw.seek(0)
        name = storage().save(f"{export.user_id}/{export.pk}.json", File(raw))
        text.detach()  # the with-block closes the file, not the wrapper
    size = storage().size(name)
    updated = DataExport.objects.filter(pk=export.pk, status=DataExport.RUNNING).update(
        status=DataExport.READY, finished_at=timezone.now(), file_name=name, size=size
    )
    if not updated:  # deleted (a newer request, the account) while it was being built
        storage().delete(name)


def build_pending(limit: int = 1) -> int:
    """Build up to ``limit`` waiting exports; returns how many were built. One per run by
    default: in the embedded server the periodic jobs share one thread, and turn deadlines
    should not wait behind a queue of exports (the job runs again two seconds later)."""
    built = 0
    while built < limit and (export := claim()) is not None:
        build(export)
        built += 1
    return built


def prune(now: Any = None) -> int:
    """Delete exports older than ``KEEP``, files with them. Returns how many."""
    old = DataExport.objects.filter(created_at__lt=(now or timezone.now()) - KEEP)
    _, deleted = old.delete()
    return deleted.get(DataExport._meta.label, 0)


@receiver(post_delete, sender=DataExport)
def _delete_file(sender: type[DataExport], instance: DataExport, **kwargs: Any) -> None:
    # After commit: a rolled-back delete (of the account, say) must keep its file.
    if instance.file_name:
        name = instance.file_name
        transaction.on_commit(lambda: storage().delete(name))
