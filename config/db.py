"""Database helpers shared by the apps (infrastructure, no app code)."""

from __future__ import annotations

from django.db.models import Model, QuerySet

BATCH = 1000


def delete_in_batches(rows: QuerySet[Model], batch: int = BATCH) -> int:
    """Delete ``rows`` oldest first, ``batch`` at a time (each batch its own statement, with
    its cascades); returns how many rows of ``rows``' model were deleted.

    Ids grow with time, so each batch walks the primary key from its start instead of scanning
    the table, and each statement stays short."""
    deleted = 0
    model = rows.model
    while ids := list(rows.order_by("pk").values_list("pk", flat=True)[:batch]):
        _, per_model = model._default_manager.filter(pk__in=ids).delete()
        deleted += per_model.get(model._meta.label, 0)
        if len(ids) < batch:
            break
    return deleted
