"""The display-name blocklist, checked at sign-up and rename.

Names are compared after folding away the usual disguises: case, accents and look-alike
characters (NFKC), common digit-for-letter swaps and everything that is not a letter. A blocked
term matches anywhere in the folded name, so "xX_Adm1n_Xx" is caught by "admin". Terms come from
DISPLAY_NAME_BLOCKLIST (comma-separated) and DISPLAY_NAME_BLOCKLIST_FILE (one per line, ``#``
comments), folded the same way.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)

MESSAGE = "This name is not allowed. Please choose another one."


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_LEET))
    return "".join(ch for ch in decomposed if ch.isalpha() and not unicodedata.combining(ch))


@lru_cache(maxsize=4)
def _terms(words: tuple[str, ...], path: str) -> frozenset[str]:
    found = list(words)
    if path:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ImproperlyConfigured(f"DISPLAY_NAME_BLOCKLIST_FILE: {exc}") from exc
        found += [line.split("#", 1)[0] for line in lines]
    return frozenset(t for t in (fold(w) for w in found) if t)


def blocked_terms() -> frozenset[str]:
    words = tuple(getattr(settings, "DISPLAY_NAME_BLOCKLIST", ()))
    return _terms(words, getattr(settings, "DISPLAY_NAME_BLOCKLIST_FILE", "") or "")


def is_allowed(name: str) -> bool:
    folded = fold(name)
    return not any(term in folded for term in blocked_terms())


def validate_name(name: str) -> str:
    """A field validator (serializers, forms): refuses a blocked name."""
    if name and not is_allowed(name):
        raise ValidationError(MESSAGE, code="name_not_allowed")
    return name
