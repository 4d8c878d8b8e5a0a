"""The service's password validators (``AUTH_PASSWORD_VALIDATORS``), beside Django's own.

Django's CommonPasswordValidator compares the password as typed with its list of 20,000 common
passwords, so ``Passw0rd!`` (the list has ``passw0rd``) and the service's own name pass; and
MinimumLengthValidator counts eight spaces as eight characters.
"""

from __future__ import annotations

import re
import string
from typing import Any

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Words a guesser tries first on this service: its name and its game's words.
SERVICE_WORDS = ("unoallwild", "uno", "all", "wild", "card", "cards", "game", "games", "play")

# Digits and symbols read as the letters they stand for; "1" is tried as both "i" and "l".
_LEET = (
    str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}),
    str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}),
)
_EDGES = string.digits + string.punctuation + string.whitespace


def _disguises(password: str) -> set[str]:
    """The password and what it is a disguise of: lower case, with digits and symbols tacked
    on at either end removed, with digits for letters read back."""
    typed = password.lower().strip()
    core = typed.strip(_EDGES)
    return {typed, core} | {form.translate(t) for form in (typed, core) for t in _LEET}


class CommonPasswordValidator(password_validation.CommonPasswordValidator):
    """Django's common passwords, also in disguise (``Passw0rd!``), and passwords made of
    nothing but the service's own words (``uno-all-wild``, ``WildCard2024``)."""

    def __init__(self, *args: Any, service_words: tuple[str, ...] = SERVICE_WORDS, **kw: Any):
        super().__init__(*args, **kw)
        # Longest first, so that "cards" goes before "card" leaves an "s" behind.
        self.service_words = sorted(service_words, key=len, reverse=True)

    def validate(self, password: str, user: Any = None) -> None:
        super().validate(password, user)
        if any(form in self.passwords for form in _disguises(password)):
            raise ValidationError(self.get_error_message(), code="password_too_common")
        if self._only_service_words(password):
            raise ValidationError(
                _("This password is made of this service's own name and words."),
                code="password_service_words",
            )

    def _only_service_words(self, password: str) -> bool:
        for table in _LEET:
            letters = re.sub(r"[^a-z]", "", password.lower().translate(table))
            rest = letters
            for word in self.service_words:
                rest = rest.replace(word, "")
            # Fewer than four letters of its own: the service's words are the password.
            if rest != letters and len(rest) < 4:
                return True
        return False


class NotBlankPasswordValidator:
    """A password of nothing but spaces is refused, however long."""

    def validate(self, password: str, user: Any = None) -> None:
        if not password.strip():
            raise ValidationError(_("This password is nothing but spaces."), code="password_blank")

    def get_help_text(self) -> str:
        return _("Your password can't be only spaces.")
