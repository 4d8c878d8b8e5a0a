"""Notification routes, mounted under /api/v1/ by config/urls.py."""

from config import routes
from notifications.api import events, views, webhooks, webpush

urlpatterns = routes.views(
    ("notifications/", views.InboxView, "notifications"),
    # The account event stream: beside games/live/ ("My games", live) so that the proxy's live
    # location (deploy/nginx.conf) sends it to the live process as it is.
    ("games/live/stream/", events.AccountEventsView, "account-events"),
    ("notifications/unread-count/", views.UnreadCountView, "notifications-unread-count"),
    ("notifications/read-all/", views.ReadAllView, "notifications-read-all"),
    ("notifications/preferences/", views.PreferencesView, "notifications-preferences"),
    ("notifications/<id:notification_id>/read/", views.ReadView, "notification-read"),
    # Web Push (web/static/web/push.js calls exactly these).
    ("notifications/webpush/key/", webpush.PushKeyView, "notifications-webpush-key"),
    (
        "notifications/webpush/subscriptions/",
        webpush.PushSubscriptionsView,
        "notifications-webpush-subscriptions",
    ),
    (
        "notifications/webpush/subscriptions/delete/",
        webpush.PushUnsubscribeView,
        "notifications-webpush-unsubscribe",
    ),
    # Webhooks.
    ("notifications/webhooks/", webhooks.WebhookListView, "webhooks"),
    ("notifications/webhooks/<id:webhook_id>/", webhooks.WebhookView, "webhook"),
    ("notifications/webhooks/<id:webhook_id>/test/", webhooks.WebhookTestView, "webhook-test"),
    (
        "notifications/webhooks/<id:webhook_id>/attempts/",
        webhooks.WebhookAttemptsView,
        "webhook-attempts",
    ),
)
