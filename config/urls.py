"""Top-level URL routes."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from oauth2_provider import views as oauth_views

from config.errors import api_not_found
from config.metrics import metrics_view
from config.views import healthz, readyz

DOCS_POLICY = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # Prometheus, with METRICS_TOKEN only (config/metrics.py).
    path("metrics", metrics_view, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start-up script is a file of its own (the split view), so the docs pages run
    # only the service's script files too; Swagger UI and ReDoc style their elements inline, and
    # ReDoc searches in a worker it makes from a blob.
    path(
        "api/docs/",
        DOCS_POLICY(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
    path(
        "api/redoc/",
        DOCS_POLICY(
            SpectacularRedocView.as_view(url_name="schema", template_name="api_docs/redoc.html")
        ),
        name="redoc",
    ),
    # ---- API v1 -------------------------------------------------------------------------------
    # The games HTTP API plugs in here: add routes to games/api/urls.py, not to this file.
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("players.api.urls")),
    path("api/v1/", include("notifications.api.urls")),
    path("api/v1/", include("moderation.api.urls")),
    path("api/v1/", include("ratings.api.urls")),
    path("api/v1/", include("social.api.urls")),
    path("api/v1/", include("chat.api.urls")),
    # OAuth 2 (django-oauth-toolkit): apps trade a code for tokens, refresh and revoke them here.
    # The browser's /oauth/authorize is the web client's consent screen (web/urls.py).
    path("oauth/token/", oauth_views.TokenView.as_view(), name="oauth-token"),
    path(
        "oauth/revoke_token/",
        oauth_views.RevokeTokenView.as_view(),
        name="oauth-revoke-token",
    ),
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
