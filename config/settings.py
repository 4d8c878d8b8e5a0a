"""Django settings, read from environment variables through ``config.env``.

The defaults run the whole service on one machine with nothing but Python installed: SQLite in the
project directory, no Redis (local-memory cache, Celery tasks run inline, periodic jobs run in a
thread of the web process). Setting DATABASE_URL and REDIS_URL switches to PostgreSQL, Redis and a
separate Celery worker and beat, which is what docker-compose.yml does.

Every variable is read unconditionally, even when the branch that uses it is not taken, so that the
registry in ``config.env`` always lists the complete set of knobs.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import dj_database_url
from corsheaders.defaults import default_headers as cors_default_headers
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured

from config.enum_names import ENUM_NAMES
from config.env import env_bool, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------------------

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

# --- Database ---------------------------------------------------------------------------------

DATABASE_URL = env_url(
    "DATABASE_URL",
    default=None,
    help="Database URL, e.g. postgres://user:pass@host:5432/name. Unset: SQLite.",
)
SQLITE_PATH = env_str(
    "SQLITE_PATH",
    default=str(BASE_DIR / "db.sqlite3"),
    help="SQLite file used when DATABASE_URL is unset.",
)
# 0 by default: under ASGI every request runs in its own thread, so a kept connection is never
# reused and persistent connections pile up until PostgreSQL refuses new ones.
CONN_MAX_AGE = env_int(
    "CONN_MAX_AGE",
    default=0,
    min_value=0,
    help="Seconds to keep a PostgreSQL connection open (0: close after each request).",
)
# A pool per process hands each request an open connection and takes it back at the end, so
# PostgreSQL does not start (and tear down) a backend per request; its maximum also bounds how
# many requests of one process use the database at once (the others wait up to the timeout,
# then get a 503). Django's pool needs CONN_MAX_AGE=0.
DATABASE_POOL_SIZE = env_int(
    "DATABASE_POOL_SIZE",
    default=0,
    min_value=0,
    help="PostgreSQL connections pooled per process (0: no pool, one connection per request).",
)
DATABASE_POOL_TIMEOUT = env_int(
    "DATABASE_POOL_TIMEOUT",
    default=10,
    min_value=1,
    help="Seconds a request waits for a pooled connection before it is answered 503.",
)
# Prepared statements: psycopg sends a query's text and its values apart (server-side binding),
# so a query the ORM builds has the same text on every request, and prepares it on the
# connection after its fifth run (psycopg's default threshold): PostgreSQL then parses and plans
# it once per connection instead of once per request. Needs connections that live across
# requests (CONN_MAX_AGE or the pool) and no pooler in transaction mode in between (PgBouncer
# before 1.21 loses prepared statements), which is why Django leaves it off by default.
DATABASE_PREPARED_STATEMENTS = env_bool(
    "DATABASE_PREPARED_STATEMENTS",
    default=False,
    help="PostgreSQL: server-side binding and prepared statements (repeated queries planned once).",
)
PREPARE_THRESHOLD = 5

# SQLite locks the whole file for writes. With the default DEFERRED transactions two requests can
# both start reading, then both try to upgrade to a write lock, and one fails at once with
# "database is locked". IMMEDIATE takes the write lock at BEGIN, so the second writer waits (up to
# `timeout` seconds) instead. WAL lets readers carry on while a writer holds the lock.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL;",
}

_database: dict[str, Any]
if DATABASE_URL:
    _database = dict(
        dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
    )
    if DATABASE_PREPARED_STATEMENTS and _database["ENGINE"] == "django.db.backends.postgresql":
        _database["OPTIONS"] = {
            **_database.get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": PREPARE_THRESHOLD,
        }
    if DATABASE_POOL_SIZE and _database["ENGINE"] == "django.db.backends.postgresql":
        if CONN_MAX_AGE:
            raise ImproperlyConfigured("DATABASE_POOL_SIZE needs CONN_MAX_AGE=0.")
        _database["OPTIONS"] = {
            **_database.get("OPTIONS", {}),
            "pool": {
                "min_size": min(2, DATABASE_POOL_SIZE),
                "max_size": DATABASE_POOL_SIZE,
                "timeout": DATABASE_POOL_TIMEOUT,
            },
        }
else:
    _database = {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH}
if _database["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite connections are cheap and file locks are per connection: never keep them around.
    _database["CONN_MAX_AGE"] = 0
    _database["OPTIONS"] = {**SQLITE_OPTIONS, **_database.get("OPTIONS", {})}
    # Tests get a file, not Django's default in-memory database: shared-cache memory databases
    # lock whole tables and ignore the busy timeout, so tests with concurrent writers (a live
    # server, threads) would fail where the real file-backed service waits its turn.
    _database["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"unoallwild-test-{os.getpid()}.sqlite3")
    }
DATABASES = {"default": _database}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "players.User"

# --- Accounts ---------------------------------------------------------------------------------

# Every log-in (API session, token creation, admin form) goes through authenticate(), and so
# through the per-account delay after failed attempts (players/lockout.py).
AUTHENTICATION_BACKENDS = ["players.lockout.LoginDelayBackend"]
LOGIN_FAILURES_BEFORE_DELAY = env_int(
    "LOGIN_FAILURES_BEFORE_DELAY",
    default=5,
    min_value=1,
    help="Failed log-ins per account (any path, any address) before each further try waits.",
)
LOGIN_MAX_DELAY_SECONDS = env_int(
    "LOGIN_MAX_DELAY_SECONDS",
    default=900,
    min_value=1,
    help="Longest wait between log-in tries of one account (the wait doubles from 1 s).",
)
BOT_ACCOUNTS_PER_PLAYER = env_int(
    "BOT_ACCOUNTS_PER_PLAYER",
    default=5,
    min_value=0,
    help="Bot accounts one player may own (players/bots.py); 0 turns bot accounts off.",
)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    # Django's list of common passwords, also in disguise ("Passw0rd!"), and the service's own
    # words ("uno-all-wild"); and no password of spaces only (players/passwords.py).
    {"NAME": "players.passwords.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "players.passwords.NotBlankPasswordValidator"},
]
PASSWORD_RESET_MAILS_PER_HOUR = env_int(
    "PASSWORD_RESET_MAILS_PER_HOUR",
    default=3,
    min_value=1,
    help="Password-reset requests per e-mail address per hour that send mail; more are ignored.",
)
# Links in account e-mails (password reset, e-mail verification) point at the web client.
FRONTEND_URL = env_url(
    "FRONTEND_URL",
    default="http://localhost:8000",
    schemes=("http", "https"),
    help="Base URL of the web client, used for links in account e-mails.",
).rstrip("/")
PASSWORD_RESET_TIMEOUT = env_int(
    "PASSWORD_RESET_TIMEOUT",
    default=24 * 3600,
    min_value=60,
    help="Seconds a password-reset or e-mail verification link stays valid.",
)

# --- Redis, cache and Celery ------------------------------------------------------------------

REDIS_URL = env_url(
    "REDIS_URL",
    default=None,
    schemes=("redis", "rediss", "unix"),
    help="Redis URL for cache and Celery. Unset: local-memory cache, tasks run inline.",
)

# Redis pub/sub ignores database numbers: two deployments on one Redis would hear each other's
# games. Their live channels and counters (live/announce.py) carry this prefix, by default one
# derived from the database, which two deployments never share.
_database_identity = "|".join(str(_database.get(k, "")) for k in ("ENGINE", "HOST", "PORT", "NAME"))
LIVE_CHANNEL_PREFIX = env_str(
    "LIVE_CHANNEL_PREFIX",
    default=f"live:{hashlib.blake2b(_database_identity.encode(), digest_size=5).hexdigest()}:",
    help="Prefix of the live updates' Redis channels and keys. Unset: derived from the database.",
)

if REDIS_URL:
    # Fails open (config/cache.py): with Redis down, cache reads miss and throttles let requests
    # through instead of answering 500. Short timeouts so a hung Redis costs little.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No broker: run tasks inline in the caller. Periodic jobs run in a thread of the web process
    # instead of Celery beat (see config/background.py and the `serve` command).
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
# With tasks run inline, account mails (password reset, verification) are sent from a thread of
# their own after commit, so that no response waits on the mail server (players/services.py).
ACCOUNT_MAILS_IN_BACKGROUND = CELERY_TASK_ALWAYS_EAGER
# Inline tasks should fail loudly in development and tests, as they would in a worker's log.
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
# Tasks re-check state before acting, so a redelivered message is harmless; losing one is not.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True


# The beat schedule is not set here: each app registers its own periodic jobs when it is ready
# (config/jobs.py), so settings import no app code.
# Beat keeps when each job last ran in this file. Not in the working directory (Celery's
# default): the image's /app is read-only for the user beat runs as, and beat would exit with
# PermissionError, so no turn timer would fire. Losing the file only means each job runs once
# more at start-up (every job is safe to run late or twice).
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME",
    default=str(Path(tempfile.gettempdir()) / "unoallwild-celerybeat-schedule"),
    help="Where Celery beat keeps its schedule (a writable path; a suffix may be added).",
)
# Beat writes the schedule out after this many sent tasks (and every 3 minutes). The sweep is
# sent every second, so the file is rewritten every half minute or so, and its age tells the
# health check that beat is alive (config/healthcheck.py).
CELERY_BEAT_SYNC_EVERY = 30
# Results of the 1-second sweeps are rarely read: keep them an hour, not Celery's default day.
CELERY_RESULT_EXPIRES = 3600

# --- HTTPS behind a proxy, request sizes, Content-Security-Policy ------------------------------

# A TLS-terminating proxy talks plain HTTP to the service and says so in X-Forwarded-Proto. Opt-in:
# trusting the header without a proxy that overwrites it would let any client claim HTTPS.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https")
    if env_bool(
        "SECURE_PROXY_SSL_HEADER",
        default=False,
        help="Trust X-Forwarded-Proto: https from the proxy (only behind one that sets it).",
    )
    else None
)
# The servers (gunicorn, uvicorn) read this variable themselves; here it is only registered, so
# the README lists it and `serve` hands the same value to uvicorn.
FORWARDED_ALLOW_IPS = env_str(
    "FORWARDED_ALLOW_IPS",
    default="127.0.0.1,::1",
    help="Proxy addresses (or networks) whose X-Forwarded-For/-Proto gunicorn and uvicorn trust.",
)
SECURE_SSL_REDIRECT = env_bool(
    "SECURE_SSL_REDIRECT", default=False, help="Redirect plain HTTP requests to HTTPS."
)
# Health checks come over plain HTTP from inside the deployment: a redirect would fail them.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = env_bool(
    "SESSION_COOKIE_SECURE", default=False, help="Send the session cookie over HTTPS only."
)
CSRF_COOKIE_SECURE = env_bool(
    "CSRF_COOKIE_SECURE", default=False, help="Send the CSRF cookie over HTTPS only."
)
SECURE_HSTS_SECONDS = env_int(
    "SECURE_HSTS_SECONDS",
    default=0,
    min_value=0,
    help="Strict-Transport-Security max-age in seconds (0: no HSTS header).",
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False, help="HSTS covers subdomains too."
)
SECURE_HSTS_PRELOAD = env_bool(
    "SECURE_HSTS_PRELOAD", default=False, help="HSTS asks to be on the browsers' preload list."
)
# Django's own default (2.5 MB), stated because the ASGI wrapper refuses bodies over it before
# Django reads them (config/asgi_limits.py), and every server in front bounds its part too
# (config/gunicorn.conf.py, config/asgi_server.py, deploy/nginx.conf). No body the API takes comes
# near it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# The web client keeps its bearer token in localStorage: a script injected into its pages could
# read it, so its pages run only the service's own script files (django-csp). The page shell's
# import map is inline and carries the request's nonce (web/templates/web/index.html); the API
# docs pages add what Swagger UI and ReDoc need (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- HTTP API ---------------------------------------------------------------------------------

CORS_ALLOWED_ORIGINS = env_list(
    "CORS_ALLOWED_ORIGINS",
    default=[],
    help="Browser origins allowed to call the API, e.g. https://play.example.com.",
)

# Browsers send and read these only when CORS allows it: third-party web apps need the
# conditional-GET and idempotency headers as much as phones do.
CORS_ALLOW_HEADERS = (*cors_default_headers, "idempotency-key", "if-none-match")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "Idempotent-Replayed"]

VACATION_DAYS_PER_MONTH = env_int(
    "VACATION_DAYS_PER_MONTH",
    default=7,
    min_value=0,
    help="Days a month a player may pause their turn clocks.",
)

TURN_SECONDS_MIN = env_int(
    "TURN_SECONDS_MIN",
    default=30,
    min_value=1,
    help="Shortest turn time limit a game may be created with (lower it only for demos/tests).",
)

# Fixed here rather than read from the environment (tests lower them): a lobby closes, and an
# invite code stops working, a week after it was made; waiting live readers re-read their games'
# versions from the database every second (live/announce.py), in case a Redis announcement is lost.
LOBBY_TTL_SECONDS = 7 * 24 * 3600
INVITE_TTL_SECONDS = 7 * 24 * 3600
LIVE_RECHECK_SECONDS = 1.0

# Friends and challenges (social/): a pending challenge lapses after CHALLENGE_TTL_SECONDS; a
# player may be seated in at most GAMES_IN_PROGRESS_MAX lobbies and games in progress.
CHALLENGE_TTL_SECONDS = env_int(
    "CHALLENGE_TTL_SECONDS",
    default=3 * 24 * 3600,
    min_value=60,
    help="Seconds before a pending challenge expires.",
)
GAMES_IN_PROGRESS_MAX = env_int(
    "GAMES_IN_PROGRESS_MAX",
    default=50,
    min_value=1,
    help="Lobbies and games in progress a player may be seated in at once.",
)
# Quick pairing (social/pairing.py): an open seek lapses after SEEK_TTL_SECONDS.
SEEK_TTL_SECONDS = env_int(
    "SEEK_TTL_SECONDS",
    default=24 * 3600,
    min_value=60,
    help="Seconds before an unmatched quick-pairing seek expires.",
)

# Bots (games/services/turns.py, bots.py): how a bot paces its moves, who takes an absent seat.
_bot_delay = env_list(
    "BOT_DELAY_SECONDS",
    default=["1.0", "2.5"],
    help="A bot waits a random time in this range (low,high seconds) before it moves.",
)
try:
    BOT_DELAY_SECONDS = tuple(float(x) for x in _bot_delay)
except ValueError:
    raise ImproperlyConfigured(
        f"BOT_DELAY_SECONDS must be two numbers, got {_bot_delay!r}."
    ) from None
if len(BOT_DELAY_SECONDS) != 2 or not 0 <= BOT_DELAY_SECONDS[0] <= BOT_DELAY_SECONDS[1]:
    raise ImproperlyConfigured("BOT_DELAY_SECONDS must be low,high with 0 <= low <= high.")
_bot_grace = env_str(
    "BOT_GRACE_SECONDS",
    default="5.0",
    help="With a worker: a bot's turn deadline is its delay plus this, the sweep's safety net.",
)
try:
    BOT_GRACE_SECONDS = float(_bot_grace)
except ValueError:
    raise ImproperlyConfigured(f"BOT_GRACE_SECONDS must be a number, got {_bot_grace!r}.") from None
if BOT_GRACE_SECONDS < 0:
    raise ImproperlyConfigured("BOT_GRACE_SECONDS must be 0 or more.")
BOT_BUDGET_MS = env_int(
    "BOT_BUDGET_MS",
    default=150,
    min_value=1,
    help="Milliseconds an expert bot may think about one move.",
)
# Checked against the bots' levels when the games app is ready (settings import no app code).
BOT_TAKEOVER_LEVEL = env_str(
    "BOT_TAKEOVER_LEVEL",
    default="heuristic",
    help="Level of the bot that plays a seat taken over (timeouts, moderation).",
)

THROTTLE_RATES = {
    "auth": env_str("THROTTLE_AUTH", default="20/min", help="Sign-up, log-in, reset requests."),
    "actions": env_str("THROTTLE_ACTIONS", default="120/min", help="Game actions per user."),
    "games": env_str("THROTTLE_GAMES", default="60/min", help="Create/join games per user."),
    "reports": env_str("THROTTLE_REPORTS", default="10/hour", help="Player reports per user."),
    "webhooks": env_str(
        "THROTTLE_WEBHOOKS",
        default="30/hour",
        help="New webhook endpoints and webhook test events per user.",
    ),
    "exports": env_str("THROTTLE_EXPORTS", default="3/hour", help="Data exports started per user."),
    "search": env_str("THROTTLE_SEARCH", default="30/min", help="Player searches per user."),
    "apps": env_str(
        "THROTTLE_APPS",
        default="600/min",
        help="Requests per OAuth app, over all its players (players.oauth.AppRateThrottle).",
    ),
}

# OAuth 2 for third-party apps (django-oauth-toolkit; players/oauth.py, docs/oauth.md):
# authorization code with PKCE (S256) only, the personal tokens' scopes.
OAUTH2_PROVIDER = {
    "SCOPES": {"read": "Read", "play": "Read and play"},
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    # RFC 9700's recommendations, ahead of DOT 4.0 (and `check --deploy` clean): S256 only (no
    # `plain`), no implicit or password grant, tokens only in the Authorization header, `iss` in
    # the authorization response, tokens stored hashed, https redirect URIs only.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "ACCESS_TOKEN_GENERATOR": "players.oauth.access_token",
    "REFRESH_TOKEN_GENERATOR": "players.oauth.refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int(
        "OAUTH_ACCESS_TOKEN_SECONDS",
        default=3600,
        min_value=60,
        help="Lifetime of an OAuth app's access token (refresh tokens renew it).",
    ),
    "REFRESH_TOKEN_EXPIRE_SECONDS": 90 * 24 * 3600,
    # A used refresh token is revoked on use, and reusing it revokes the whole family.
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Bearer first: its WWW-Authenticate header makes DRF answer 401 (not 403) without credentials.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # An app's `uao_` token (OAuth); passes any other on without a query.
        "players.auth.OAuthAuthentication",
        "players.auth.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["players.permissions.TokenScopePermission"],
    # JSON only, DEBUG or not, whatever Accept asks for: the browsable view is Swagger UI.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.JSONWhateverAccept",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    # DRF's parsers, with JSON nested too deeply refused as malformed rather than a crash.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.ScopedRateThrottle",
        "players.oauth.AppRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": THROTTLE_RATES,
    # Who a client without an account is, for the rate limits: its address as the trusted proxies
    # in front saw it. DRF's default (unset) keys on the whole X-Forwarded-For header, which a
    # client writes itself: each made-up value would be a fresh bucket for sign-up and log-in.
    "NUM_PROXIES": env_int(
        "NUM_PROXIES",
        default=0,
        min_value=0,
        help="Reverse proxies in front that append to X-Forwarded-For (0: none, the peer address).",
    ),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Uno All Wild API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages load Swagger UI and ReDoc from our static files (drf-spectacular-sidecar,
    # pinned), so they work offline and never change under us as a CDN's @latest would.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ``<id:...>`` routes (config/converters.py): a database id.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.require_union_bodies",
        "config.openapi.name_union_maps",
        # 400/413/415/503 where the stack around a view can answer them.
        "config.openapi.declare_common_errors",
        # Each error response lists its codes with their meanings (config/error_codes.py).
        "config.openapi.document_error_codes",
        # Request bodies take no field they do not declare (config/serializers.py).
        "config.openapi.forbid_unknown_request_fields",
    ],
    # Every enum named (config/openapi.py: the platform's, and each game kind's from its adapter).
    "ENUM_NAME_OVERRIDES": ENUM_NAMES,
}

# --- Email ------------------------------------------------------------------------------------

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.console.EmailBackend",
    help="Django email backend. Default prints mail to the console.",
)
EMAIL_HOST = env_str("EMAIL_HOST", default="localhost", help="SMTP host.")
EMAIL_PORT = env_int("EMAIL_PORT", default=25, min_value=1, help="SMTP port.")
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", default="", help="SMTP user name.")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", default="", help="SMTP password.")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False, help="Use STARTTLS for SMTP.")
DEFAULT_FROM_EMAIL = env_str(
    "DEFAULT_FROM_EMAIL", default="Uno All Wild <noreply@localhost>", help="From address."
)

# --- Notifications ----------------------------------------------------------------------------


def _fractions(name: str, default: list[str], help: str) -> list[float]:
    raw = env_list(name, default=default, help=help)
    try:
        values = sorted({float(x) for x in raw}, reverse=True)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a list of numbers, got {raw!r}.") from None
    if any(not 0 < v < 1 for v in values):
        raise ImproperlyConfigured(f"{name} must be fractions between 0 and 1, got {raw!r}.")
    return values


NOTIFY_REMINDER_FRACTIONS = _fractions(
    "NOTIFY_REMINDER_FRACTIONS",
    ["0.5", "0.1"],
    "Turn reminders when this fraction of the turn's time is left (comma-separated).",
)
NOTIFY_MAX_ATTEMPTS = env_int(
    "NOTIFY_MAX_ATTEMPTS",
    default=8,
    min_value=1,
    help="Tries of an e-mail (or other external) notification before it is given up.",
)
NOTIFY_RETRY_BASE_SECONDS = env_int(
    "NOTIFY_RETRY_BASE_SECONDS",
    default=30,
    min_value=1,
    help="Wait before the first retry of a failed delivery; doubles with every retry.",
)
NOTIFY_RETRY_MAX_SECONDS = env_int(
    "NOTIFY_RETRY_MAX_SECONDS",
    default=3600,
    min_value=1,
    help="Longest wait between two retries of a delivery.",
)
NOTIFY_CLAIM_TIMEOUT_SECONDS = env_int(
    "NOTIFY_CLAIM_TIMEOUT_SECONDS",
    default=600,
    min_value=30,
    help="A delivery claimed this long ago and not finished is sent again (its worker died).",
)

# Web Push (notifications/vapid.py). Without a configured key pair, debug and embedded (SQLite)
# mode generate one once and keep it beside the SQLite file, so restarts keep the subscriptions;
# elsewhere Web Push is off and the key endpoint answers 404 `push_unavailable`.
VAPID_PRIVATE_KEY = env_str(
    "VAPID_PRIVATE_KEY",
    default="",
    help="Web Push: the VAPID private key (base64url raw 32 bytes, base64 DER or PEM).",
)
VAPID_PUBLIC_KEY = env_str(
    "VAPID_PUBLIC_KEY",
    default="",
    help="Web Push: the VAPID public key (base64url); optional, must match the private key.",
)
VAPID_SUBJECT = env_str(
    "VAPID_SUBJECT",
    default="mailto:" + (parseaddr(DEFAULT_FROM_EMAIL)[1] or "noreply@localhost"),
    help="Web Push: who push services may contact about our pushes (mailto: or https: URL).",
)
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: address or an https:// URL.")
# A VAPID_PRIVATE_KEY that does not parse or match VAPID_PUBLIC_KEY is refused when the
# notifications app is ready (notifications/apps.py): settings import no app code.
if VAPID_PUBLIC_KEY and not VAPID_PRIVATE_KEY:
    raise ImproperlyConfigured("VAPID_PUBLIC_KEY is set without VAPID_PRIVATE_KEY.")
# Where a generated pair is kept (debug or embedded mode only); ignored when the keys are set.
VAPID_KEY_FILE: Path | None = (
    Path(SQLITE_PATH).with_name(Path(SQLITE_PATH).name + ".vapid-key.pem")
    if DEBUG or not DATABASE_URL
    else None
)

# Webhooks (notifications/channels/webhook.py).
WEBHOOK_MAX_FAILURES = env_int(
    "WEBHOOK_MAX_FAILURES",
    default=10,
    min_value=1,
    help="Webhook deliveries in a row that may fail before the endpoint is switched off.",
)
WEBHOOK_TIMEOUT_SECONDS = env_int(
    "WEBHOOK_TIMEOUT_SECONDS",
    default=10,
    min_value=1,
    help="How long a webhook receiver (or a push service) has to answer one request.",
)
WEBHOOK_ALLOW_LOOPBACK = env_bool(
    "WEBHOOK_ALLOW_LOOPBACK",
    default=False,
    help="Allow webhook URLs on this machine (127.0.0.1, ::1, localhost) also when DEBUG is off.",
)

# Retention (notifications/retention.py, games/idempotency.py): what is old enough to delete.
NOTIFICATION_RETENTION_DAYS = env_int(
    "NOTIFICATION_RETENTION_DAYS",
    default=90,
    min_value=1,
    help="Days inbox notifications and their finished deliveries are kept.",
)
WEBHOOK_LOG_RETENTION_DAYS = env_int(
    "WEBHOOK_LOG_RETENTION_DAYS",
    default=30,
    min_value=1,
    help="Days finished webhook deliveries and their attempt log are kept.",
)
IDEMPOTENCY_KEY_DAYS = env_int(
    "IDEMPOTENCY_KEY_DAYS",
    default=7,
    min_value=1,
    help="Days an Idempotency-Key and its stored answer are remembered.",
)

# --- Moderation -------------------------------------------------------------------------------

DISPLAY_NAME_BLOCKLIST = env_list(
    "DISPLAY_NAME_BLOCKLIST",
    default=["admin", "moderator", "unoallwild"],
    help="Words refused anywhere in a display name or username (by look-alike skeleton).",
)
DISPLAY_NAME_BLOCKLIST_FILE = env_str(
    "DISPLAY_NAME_BLOCKLIST_FILE",
    default="",
    help="A file with more blocked words, one per line (# starts a comment).",
)
_collusion_z = env_str(
    "COLLUSION_Z_THRESHOLD",
    default="3.0",
    help="Collusion signals list pairs whose targeting is this many standard deviations off.",
)
try:
    COLLUSION_Z_THRESHOLD = float(_collusion_z)
except ValueError:
    raise ImproperlyConfigured(
        f"COLLUSION_Z_THRESHOLD must be a number, got {_collusion_z!r}."
    ) from None
if not COLLUSION_Z_THRESHOLD > 0:
    raise ImproperlyConfigured("COLLUSION_Z_THRESHOLD must be greater than 0.")
COLLUSION_MIN_TARGETED_PLAYS = env_int(
    "COLLUSION_MIN_TARGETED_PLAYS",
    default=20,
    min_value=1,
    help="Targeted plays a pair needs between them before it can be flagged.",
)
COLLUSION_WINDOW_DAYS = env_int(
    "COLLUSION_WINDOW_DAYS",
    default=90,
    min_value=1,
    help="Collusion signals look at games created in this many last days.",
)

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(
    env_str(
        "STATIC_ROOT",
        default=str(BASE_DIR / "staticfiles"),
        help="Where collectstatic writes files for WhiteNoise to serve.",
    )
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Data exports (players/exports.py): written by whichever process builds them (a Celery
    # worker, or the embedded background thread) and read by the web process, so with separate
    # containers this must be a shared volume (or another Django storage backend).
    "exports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": env_str(
                "EXPORT_ROOT",
                default=str(BASE_DIR / "exports"),
                help="Where data exports are kept until fetched (a day at most).",
            )
        },
    },
    # Hashed names let browsers cache static files forever; `serve` runs collectstatic first.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Internationalisation ---------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
# The languages a player may have (players.User.language); anything else gets English.
LANGUAGES = [("en", "English"), ("da", "Dansk")]
TIME_ZONE = "UTC"
USE_I18N = True
# Our own short date formats for English (config/formats/en); Danish uses Django's.
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env_str(
    "LOG_LEVEL", default="INFO", help="Log level of the service's own loggers (DEBUG, INFO, ...)."
).upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    # Checked here so the message names the variable; logging's own error would not.
    raise ImproperlyConfigured("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")

# The worker and beat log nothing about a periodic job's run that found nothing to do
# (config/celery.py); the timer sweep alone runs every second.
LOG_PERIODIC_JOBS = env_bool(
    "LOG_PERIODIC_JOBS",
    default=False,
    help="Log every run of the periodic jobs (worker and beat), also those that did nothing.",
)

LOG_FORMAT = env_str(
    "LOG_FORMAT",
    default="text",
    help="Log lines as text (readable) or json (one JSON object per line, for a log collector).",
).lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be text or json.")

# Every record carries the id of the request or task that wrote it (config/logs.py); the JSON
# lines add the fields a record was given (a request's route, status, duration_ms, user_id).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        name: {"level": LOG_LEVEL, "handlers": ["console"], "propagate": False}
        for name in ("config", "games", "players", "notifications")
    },
}

# --- Watching it run: metrics and the error reporter (docs/deploy.md) -------------------------

METRICS_TOKEN = env_str(
    "METRICS_TOKEN",
    default="",
    help="Bearer token Prometheus must send to GET /metrics (and a worker's port). Unset: off.",
)
# prometheus_client reads this itself, at import; it is read here too so that it is documented
# and checked with the other settings.
PROMETHEUS_MULTIPROC_DIR = env_str(
    "PROMETHEUS_MULTIPROC_DIR",
    default="",
    help="An empty directory where each process of a kind (gunicorn's workers) writes its metrics.",
)
if PROMETHEUS_MULTIPROC_DIR and not Path(PROMETHEUS_MULTIPROC_DIR).is_dir():
    raise ImproperlyConfigured("PROMETHEUS_MULTIPROC_DIR must be an existing directory.")
# Not CELERY_…: Celery reads every setting of that prefix as one of its own.
WORKER_METRICS_PORT = env_int(
    "WORKER_METRICS_PORT",
    default=0,
    min_value=0,
    help="A Celery worker answers Prometheus on this port (0: not at all).",
)

SENTRY_DSN = env_url(
    "SENTRY_DSN",
    default=None,
    schemes=("http", "https"),
    help="Report unhandled errors of views and tasks to this Sentry DSN. Unset: no reporter.",
)
SENTRY_ENVIRONMENT = env_str(
    "SENTRY_ENVIRONMENT", default="production", help="The environment errors are reported under."
)
SENTRY_RELEASE = env_str(
    "SENTRY_RELEASE", default="", help="The release errors are reported under (e.g. a git tag)."
)
if SENTRY_DSN:
    # Only then: sentry_sdk and its integrations are not even loaded without a DSN.
    from config import sentry

    sentry.init(dsn=SENTRY_DSN, environment=SENTRY_ENVIRONMENT, release=SENTRY_RELEASE)
