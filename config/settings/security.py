"""HTTPS behind a proxy, request sizes, Content-Security-Policy.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from csp.constants import NONCE

from config.env import env_bool, env_int, env_str

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
