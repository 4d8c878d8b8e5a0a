"""Routes mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from games.api import actions, me, polls, records, spectate, streams, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/open/", views.OpenGamesView.as_view(), name="games-open"),
    path("games/live/", polls.MyGamesLiveView.as_view(), name="games-live"),
    path("games/invitations/", views.InvitationsView.as_view(), name="games-invitations"),
    path("games/join/", views.JoinByInviteView.as_view(), name="games-join-by-invite"),
    path("games/vs-computer/", views.VsComputerView.as_view(), name="games-vs-computer"),
    path("games/options/", views.GameOptionsView.as_view(), name="games-options"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/join/", views.JoinGameView.as_view(), name="game-join"),
    path("games/<uuid:game_id>/leave/", views.LeaveGameView.as_view(), name="game-leave"),
    path("games/<uuid:game_id>/start/", views.StartGameView.as_view(), name="game-start"),
    path("games/<uuid:game_id>/invite/", views.InviteView.as_view(), name="game-invite"),
    path("games/<uuid:game_id>/rematch/", views.RematchView.as_view(), name="game-rematch"),
    path(
        "games/<uuid:game_id>/decline/",
        views.DeclineInvitationView.as_view(),
        name="game-decline",
    ),
    path("games/<uuid:game_id>/actions/", actions.ActionView.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/bots/", views.BotsView.as_view(), name="game-bots"),
    path(
        "games/<uuid:game_id>/bots/<id:seat_id>/",
        views.BotDetailView.as_view(),
        name="game-bot",
    ),
    path("games/<uuid:game_id>/reclaim/", views.ReclaimView.as_view(), name="game-reclaim"),
    path("games/<uuid:game_id>/record/", records.GameRecordView.as_view(), name="game-record"),
    path("games/<uuid:game_id>/events/", polls.EventsView.as_view(), name="game-events"),
    path("games/<uuid:game_id>/stream/", streams.GameStreamView.as_view(), name="game-stream"),
    path("games/<uuid:game_id>/watch/", spectate.WatchView.as_view(), name="game-watch"),
    path(
        "games/<uuid:game_id>/watch/stream/",
        spectate.WatchStreamView.as_view(),
        name="game-watch-stream",
    ),
    path(
        "games/<uuid:game_id>/spectators/",
        spectate.SpectatorsView.as_view(),
        name="game-spectators",
    ),
    path(
        "games/<uuid:game_id>/spectating/",
        spectate.SpectatingView.as_view(),
        name="game-spectating",
    ),
    # The player's game-side settings, beside players' own me/ routes (same URLs as ever).
    path("me/vacation/", me.MeVacationView.as_view(), name="me-vacation"),
    path("me/stats/", me.MeStatsView.as_view(), name="me-stats"),
]
