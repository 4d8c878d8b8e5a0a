"""The web client's routes, included at the site root by config/urls.py.

The client routes are listed one by one (no catch-all), so an unknown URL still gets the API's
JSON 404 and a typo in a link is not silently a blank page.
"""

from django.urls import URLPattern, path, re_path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from web import views

urlpatterns: list[URLPattern] = [
    path("", views.index, name="web-index"),
    path("sw.js", views.service_worker, name="web-sw"),
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    path("login", views.index, name="web-login"),
    path("signup", views.index, name="web-signup"),
    path("games", views.index, name="web-games"),
    path("games/new", views.index, name="web-new-game"),
    path("games/<uuid:game_id>", views.index, name="web-game"),
    path("games/<uuid:game_id>/replay", views.index, name="web-game-replay"),
    path("games/<uuid:game_id>/watch", views.index, name="web-game-watch"),
    path("watch", views.index, name="web-watch"),
    re_path(r"^join/(?P<code>[A-Za-z0-9_-]{1,32})$", views.index, name="web-join"),
    path("notifications", views.index, name="web-notifications"),
    path("settings", views.index, name="web-settings"),
    # An app's authorization request: the consent screen (docs/oauth.md).
    path("oauth/authorize", views.index, name="web-oauth-authorize"),
    path("players/<int:player_id>", views.index, name="web-player"),
    path("friends", views.index, name="web-friends"),
    path("lobby", views.index, name="web-lobby"),
    path("players/<id:player_id>/profile", views.index, name="web-profile"),
    path("leaderboards", views.index, name="web-leaderboards"),
    re_path(r"^leaderboards/(?P<kind>[a-z_]{1,32})$", views.index, name="web-leaderboard"),
    path("seasons", views.index, name="web-seasons"),
    re_path(r"^seasons/(?P<kind>[a-z_]{1,32})$", views.index, name="web-season"),
    re_path(
        r"^seasons/(?P<kind>[a-z_]{1,32})/(?P<month>\d{4}-\d{2})$",
        views.index,
        name="web-season-month",
    ),
]
