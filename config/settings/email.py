"""Outgoing e-mail.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from config.env import env_bool, env_int, env_str

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
