"""The ratings API's routes, under /api/v1/ (config/urls.py)."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from ratings.api import views

urlpatterns = [
    path(
        "ratings/leaderboards/<str:kind>/",
        views.LeaderboardView.as_view(),
        name="ratings-leaderboard",
    ),
    path(
        "ratings/seasons/<str:kind>/<str:month>/",
        views.SeasonView.as_view(),
        name="ratings-season",
    ),
    path("players/<id:user_id>/profile/", views.ProfileView.as_view(), name="player-profile"),
]
