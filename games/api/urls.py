"""Routes mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.views import APIView

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from games.api import actions, me, polls, records, spectate, streams, views


def _named(prefix: str, name: str, routes: dict[str, type[APIView]]) -> list[URLPattern]:
    """``prefix`` + each route, named ``name`` and the route's words (``watch/stream/`` ->
    ``game-watch-stream``; the empty route is ``name`` alone)."""
    return [
        path(prefix + route, view.as_view(), name="-".join([name, *route.split("/")]).strip("-"))
        for route, view in routes.items()
    ]


urlpatterns: list[URLPattern | URLResolver] = [
    *_named(
        "games/",
        "games",
        {
            "": views.GameListView,
            "open/": views.OpenGamesView,
            "live/": polls.MyGamesLiveView,
            "invitations/": views.InvitationsView,
        },
    ),
    path("games/join/", views.JoinByInviteView.as_view(), name="games-join-by-invite"),
    *_named(
        "games/",
        "games",
        {"vs-computer/": views.VsComputerView, "options/": views.GameOptionsView},
    ),
    *_named(
        "games/<uuid:game_id>/",
        "game",
        {
            "": views.GameDetailView,
            "join/": views.JoinGameView,
            "leave/": views.LeaveGameView,
            "start/": views.StartGameView,
            "invite/": views.InviteView,
            "rematch/": views.RematchView,
            "decline/": views.DeclineInvitationView,
            "actions/": actions.ActionView,
            "bots/": views.BotsView,
        },
    ),
    path("games/<uuid:game_id>/bots/<id:seat_id>/", views.BotDetailView.as_view(), name="game-bot"),
    *_named(
        "games/<uuid:game_id>/",
        "game",
        {
            "reclaim/": views.ReclaimView,
            "record/": records.GameRecordView,
            "events/": polls.EventsView,
            "stream/": streams.GameStreamView,
            "watch/": spectate.WatchView,
            "watch/stream/": spectate.WatchStreamView,
            "spectators/": spectate.SpectatorsView,
            "spectating/": spectate.SpectatingView,
        },
    ),
    # The player's game-side settings, beside players' own me/ routes (same URLs as ever).
    *_named("me/", "me", {"vacation/": me.MeVacationView, "stats/": me.MeStatsView}),
]
