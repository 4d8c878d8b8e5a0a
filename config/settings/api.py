"""The HTTP API: CORS, game limits, bots, throttles, OAuth, DRF and the schema.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from corsheaders.defaults import default_headers as cors_default_headers
from django.core.exceptions import ImproperlyConfigured

from config.enum_names import ENUM_NAMES
from config.env import env_int, env_list, env_str

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
    "chat": env_str("THROTTLE_CHAT", default="20/min", help="Chat messages written per user."),
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
    "DEFAULT_SCHEMA_CLASS": "players.throttle_schema.AutoSchema",
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
