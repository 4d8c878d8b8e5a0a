"""Chat routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from chat.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<uuid:game_id>/chat/", views.GameChatView.as_view(), name="game-chat"),
    path("me/chat/", views.ChatSettingsView.as_view(), name="me-chat"),
    path("me/chat/mutes/", views.MutesView.as_view(), name="me-chat-mutes"),
    path("me/chat/mutes/<str:username>/", views.MuteDetailView.as_view(), name="me-chat-mute"),
]
