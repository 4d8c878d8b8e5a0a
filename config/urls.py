"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from config.errors import api_not_found
from config.views import healthz, readyz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # ---- API v1 -------------------------------------------------------------------------------
    # The games HTTP API plugs in here: add routes to games/api/urls.py, not to this file.
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("players.api.urls")),
    path("api/v1/", include("notifications.api.urls")),
    path("api/v1/", include("moderation.api.urls")),
    # Anything else under /api/ is the API's JSON 404, DEBUG or not (config/errors.py); [\s\S]
    # rather than ".", which stops at a newline (a path with %0A).
    re_path(r"^api/(?P<rest>[\s\S]*)$", api_not_found),
    # The web client: "/", its page routes, /sw.js and /manifest.webmanifest (web/urls.py).
    path("", include("web.urls")),
]

# Errors outside DRF views (refused requests, unknown URLs, crashes) answer in the API's one JSON
# error shape.
handler400 = "config.errors.json_bad_request"
handler404 = "config.errors.json_not_found"
handler500 = "config.errors.json_server_error"
