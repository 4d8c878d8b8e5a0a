"""Garbage collection settled for a long-running web process.

A web process holds a large, permanent heap after start-up (Django, DRF, the models, every view
and serializer), and Python's cyclic collector walks all of it on every full (generation 2)
collection, a pause during which that process answers nothing. Freezing the start-up heap and
raising the first generation's threshold removes those full collections from request handling
(docs/performance.md has the measurements).

- ``gc.freeze()`` moves everything alive after start-up to a permanent generation that no
  collection walks again (it is never garbage: modules, classes, URL patterns).
- A first-generation threshold of 10,000 instead of 700 makes the young collections, which
  every request's short-lived objects trigger, much rarer, each a little longer.
"""

from __future__ import annotations

import gc

GEN0_THRESHOLD = 10_000


def settle_after_startup() -> None:
    """Load what requests would load lazily, then freeze the heap and raise the threshold.
    Call once per process, after the application object is made."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view, serializer and model routed
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
