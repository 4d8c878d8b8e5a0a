"""Languages, time zone and formats.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

LANGUAGE_CODE = "en-us"
# The languages a player may have (players.User.language); anything else gets English.
LANGUAGES = [("en", "English"), ("da", "Dansk")]
TIME_ZONE = "UTC"
USE_I18N = True
# Our own short date formats for English (config/formats/en); Danish uses Django's.
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True
