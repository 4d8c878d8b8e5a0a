"""Accounts: log-in delay, bot accounts, passwords, account e-mails' links.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from config.env import env_int, env_url

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
