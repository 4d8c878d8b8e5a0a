"""Social routes, mounted under /api/v1/ by config/urls.py."""

from config import routes
from social.api import seeks, views, watching

urlpatterns = routes.views(
    ("me/following/", views.FollowingView, "me-following"),
    ("me/following/<str:username>/", views.FollowingDetailView, "me-following-detail"),
    ("me/friends/", views.FriendsView, "me-friends"),
    ("me/social/", views.SocialSettingsView, "me-social"),
    ("players/search/", views.PlayerSearchView, "players-search"),
    ("challenges/", views.ChallengesView, "challenges"),
    ("challenges/<id:challenge_id>/accept/", views.ChallengeAcceptView, "challenge-accept"),
    ("challenges/<id:challenge_id>/decline/", views.ChallengeDeclineView, "challenge-decline"),
    ("lobby/", seeks.LobbyView, "lobby"),
    ("games/playing/", watching.PlayingGamesView, "games-playing"),
    ("seeks/", seeks.SeeksView, "seeks"),
    ("seeks/<id:seek_id>/", seeks.SeekDetailView, "seek-detail"),
    ("seeks/<id:seek_id>/take/", seeks.SeekTakeView, "seek-take"),
)
