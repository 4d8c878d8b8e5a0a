"""The GIL's switch interval of an ASGI web process.

Under ASGI one event loop (HTTP parsing, the game view's fast path, handing each request to a
thread and its answer back) shares the GIL with the threads that run Django's views. A thread
that computes keeps the GIL until the interpreter asks it to let go, every
``sys.getswitchinterval()``: 5 ms by default. Every hand-over of a request between the loop and
a thread can wait that long, and an action crosses four times, so at half the maximum rate the
actions' p95 was 122 ms and even the fast path's (3 ms at the median) was 39 ms. With 1 ms the
same run gave 58 and 11 ms, and 83 and 22 ms at p99 (docs/performance.md). The cost is more
frequent switching between threads that all want the GIL, which the same run did not show in
its throughput.
"""

from __future__ import annotations

import sys

from django.conf import settings


def shorten_switch_interval() -> None:
    """Apply GIL_SWITCH_INTERVAL_US (settings) to this process. Call once, at start-up."""
    sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL_US / 1_000_000)
