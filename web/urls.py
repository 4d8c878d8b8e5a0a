"""The web client's routes, included at the site root by config/urls.py.

The client routes are listed one by one (no catch-all), so an unknown URL still gets the API's
JSON 404 and a typo in a link is not silently a blank page.
"""

from django.urls import URLPattern, path, re_path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from web import views

# The client's other routes, each answered with the page shell; a route starting with "^" is a
# regular expression (its values have a bounded alphabet and length).
CLIENT_ROUTES = (
    ("login", "web-login"),
    ("signup", "web-signup"),
    ("games", "web-games"),
    ("games/new", "web-new-game"),
    ("games/<uuid:game_id>", "web-game"),
    ("games/<uuid:game_id>/replay", "web-game-replay"),
    ("games/<uuid:game_id>/watch", "web-game-watch"),
    ("watch", "web-watch"),
    (r"^join/(?P<code>[A-Za-z0-9_-]{1,32})$", "web-join"),
    ("notifications", "web-notifications"),
    ("settings", "web-settings"),
    # An app's authorization request: the consent screen (docs/oauth.md).
    ("oauth/authorize", "web-oauth-authorize"),
    ("players/<int:player_id>", "web-player"),
    ("friends", "web-friends"),
    ("lobby", "web-lobby"),
    ("players/<id:player_id>/profile", "web-profile"),
    ("leaderboards", "web-leaderboards"),
    (r"^leaderboards/(?P<kind>[a-z_]{1,32})$", "web-leaderboard"),
    ("seasons", "web-seasons"),
    (r"^seasons/(?P<kind>[a-z_]{1,32})$", "web-season"),
    (r"^seasons/(?P<kind>[a-z_]{1,32})/(?P<month>\d{4}-\d{2})$", "web-season-month"),
)

urlpatterns: list[URLPattern] = [
    path("", views.index, name="web-index"),
    path("sw.js", views.service_worker, name="web-sw"),
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    *(
        (re_path if route.startswith("^") else path)(route, views.index, name=name)
        for route, name in CLIENT_ROUTES
    ),
]
