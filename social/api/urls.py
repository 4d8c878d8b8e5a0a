"""Social routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from social.api import seeks, views, watching

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/following/", views.FollowingView.as_view(), name="me-following"),
    path(
        "me/following/<str:username>/",
        views.FollowingDetailView.as_view(),
        name="me-following-detail",
    ),
    path("me/friends/", views.FriendsView.as_view(), name="me-friends"),
    path("me/social/", views.SocialSettingsView.as_view(), name="me-social"),
    path("players/search/", views.PlayerSearchView.as_view(), name="players-search"),
    path("challenges/", views.ChallengesView.as_view(), name="challenges"),
    path(
        "challenges/<id:challenge_id>/accept/",
        views.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<id:challenge_id>/decline/",
        views.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    path("lobby/", seeks.LobbyView.as_view(), name="lobby"),
    path("games/playing/", watching.PlayingGamesView.as_view(), name="games-playing"),
    path("seeks/", seeks.SeeksView.as_view(), name="seeks"),
    path("seeks/<id:seek_id>/", seeks.SeekDetailView.as_view(), name="seek-detail"),
    path("seeks/<id:seek_id>/take/", seeks.SeekTakeView.as_view(), name="seek-take"),
]
