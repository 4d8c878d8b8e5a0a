"""The ratings API's routes, under /api/v1/ (config/urls.py)."""

from config import routes
from ratings.api import views

urlpatterns = routes.views(
    ("ratings/leaderboards/<str:kind>/", views.LeaderboardView, "ratings-leaderboard"),
    ("ratings/seasons/<str:kind>/<str:month>/", views.SeasonView, "ratings-season"),
    ("players/<id:user_id>/profile/", views.ProfileView, "player-profile"),
)
