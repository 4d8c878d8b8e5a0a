"""Reports and blocks routes, mounted under /api/v1/ by config/urls.py."""

from config import routes
from moderation.api import views

urlpatterns = routes.views(
    ("reports/", views.ReportListView, "reports"),
    ("chat/messages/<id:message_id>/report/", views.ChatReportView, "chat-message-report"),
    ("blocks/", views.BlockListView, "blocks"),
    ("blocks/<id:player_id>/", views.BlockDetailView, "block"),
)
