"""Notification routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from notifications.api import events, views, webhooks, webpush

urlpatterns: list[URLPattern | URLResolver] = [
    path("notifications/", views.InboxView.as_view(), name="notifications"),
    # The account event stream: beside games/live/ ("My games", live) so that the proxy's live
    # location (deploy/nginx.conf) sends it to the live process as it is.
    path("games/live/stream/", events.AccountEventsView.as_view(), name="account-events"),
    path(
        "notifications/unread-count/",
        views.UnreadCountView.as_view(),
        name="notifications-unread-count",
    ),
    path("notifications/read-all/", views.ReadAllView.as_view(), name="notifications-read-all"),
    path(
        "notifications/preferences/",
        views.PreferencesView.as_view(),
        name="notifications-preferences",
    ),
    path(
        "notifications/<id:notification_id>/read/",
        views.ReadView.as_view(),
        name="notification-read",
    ),
    # Web Push (web/static/web/push.js calls exactly these).
    path(
        "notifications/webpush/key/",
        webpush.PushKeyView.as_view(),
        name="notifications-webpush-key",
    ),
    path(
        "notifications/webpush/subscriptions/",
        webpush.PushSubscriptionsView.as_view(),
        name="notifications-webpush-subscriptions",
    ),
    path(
        "notifications/webpush/subscriptions/delete/",
        webpush.PushUnsubscribeView.as_view(),
        name="notifications-webpush-unsubscribe",
    ),
    # Webhooks.
    path("notifications/webhooks/", webhooks.WebhookListView.as_view(), name="webhooks"),
    path(
        "notifications/webhooks/<id:webhook_id>/",
        webhooks.WebhookView.as_view(),
        name="webhook",
    ),
    path(
        "notifications/webhooks/<id:webhook_id>/test/",
        webhooks.WebhookTestView.as_view(),
        name="webhook-test",
    ),
    path(
        "notifications/webhooks/<id:webhook_id>/attempts/",
        webhooks.WebhookAttemptsView.as_view(),
        name="webhook-attempts",
    ),
]
