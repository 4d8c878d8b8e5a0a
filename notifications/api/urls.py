"""Notification routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from notifications.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("notifications/", views.InboxView.as_view(), name="notifications"),
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
        "notifications/<int:notification_id>/read/",
        views.ReadView.as_view(),
        name="notification-read",
    ),
]
