"""Reports and blocks routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from moderation.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("reports/", views.ReportListView.as_view(), name="reports"),
    path(
        "chat/messages/<id:message_id>/report/",
        views.ChatReportView.as_view(),
        name="chat-message-report",
    ),
    path("blocks/", views.BlockListView.as_view(), name="blocks"),
    path("blocks/<id:player_id>/", views.BlockDetailView.as_view(), name="block"),
]
