"""The optional error reporter: Sentry (or any service that speaks its protocol, e.g. GlitchTip).

Settings call ``init`` only when ``SENTRY_DSN`` is set; without it sentry_sdk is never
initialised and sends nothing. Unhandled exceptions in views (Django integration) and in tasks
(Celery integration) are reported; no personal data (users' addresses, cookies, request bodies)
is sent (``send_default_pii=False``) and no performance traces (the metrics do that).
"""

from __future__ import annotations

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration


def init(*, dsn: str, environment: str, release: str | None) -> None:
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        traces_sample_rate=0.0,
    )
