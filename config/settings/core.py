"""Core: debug, secret key, hosts, apps, middleware, templates.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_list, env_str

# The checkout (`__file__` is the including config/settings/__init__.py).
BASE_DIR = Path(__file__).resolve().parent.parent.parent


DEBUG = env_bool("DEBUG", default=True, help="Django debug mode. Set false in production.")

_secret_key = env_str(
    "SECRET_KEY", default=None, help="Django secret key. Required when DEBUG is false."
)
if _secret_key is None and not DEBUG:
    # Refusing to start beats signing sessions with a key that is published in the repo.
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")
SECRET_KEY = _secret_key or "django-insecure-dev-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1", "[::1]"],
    help="Host names this service answers to.",
)
CSRF_TRUSTED_ORIGINS = env_list(
    "CSRF_TRUSTED_ORIGINS", default=[], help="Origins trusted for unsafe requests (admin forms)."
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "csp",
    # OAuth 2 for third-party apps (players/oauth.py, docs/oauth.md).
    "oauth2_provider",
    # Live updates (live/): announcements after commit, streams, keep-alives, presence; under
    # games and notifications, which feed it.
    "live",
    "games",
    "players",
    "notifications",
    "moderation",
    "ratings",
    # Friends, presence and challenges (social/): above games and notifications, under moderation.
    "social",
    # A game's chat (chat/): above social, under moderation (which deletes, mutes and audits).
    "chat",
    # The web client (web/): the page shell, service worker and manifest; its files are static.
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise right after SecurityMiddleware: static files skip the rest of the stack.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The request id, one log line and the latency metric per request (config/logs.py); after
    # WhiteNoise, which answers static files before it.
    "config.logs.RequestLogMiddleware",
    # A view failing because the database is unreachable answers 503 with Retry-After (DRF views
    # do so through EXCEPTION_HANDLER; see config/errors.py).
    "config.errors.DatabaseUnavailableMiddleware",
    # Errors under /api/ answer JSON with DEBUG on too (Django's debug pages are HTML).
    "config.errors.ApiErrorMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of an answer's messages (validation, password rules) is the request's
    # Accept-Language among LANGUAGES; the web client sends the one its player chose.
    "django.middleware.locale.LocaleMiddleware",
    # CORS must run before CommonMiddleware, which can answer (redirect) on its own.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in session (the moderators' panel) speaks its user's profile language, not the
    # browser's (moderation/middleware.py).
    "moderation.middleware.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # A signed-in player's last request, for friends' presence (written at most once a minute).
    "social.middleware.LastSeenMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The API docs pages' own templates (config/templates/api_docs/).
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
