"""The display-name blocklist, checked at sign-up and rename, and the characters a name may not
hold.

Names are compared by their confusable skeleton after folding away the usual disguises: case,
accents and compatibility forms (NFKD: "ＡＤＭＩＮ"), common digit-for-letter swaps, look-alike
letters of other scripts (Unicode's confusables data of UTS #39, as the `confusable-homoglyphs`
package ships it: Cyrillic "Моdеrаtоr" and "аdmin" are "moderator" and "admin") and everything
that is not a letter. A blocked term matches anywhere in the folded name, so "xX_Adm1n_Xx" is
caught by "admin". Terms come from DISPLAY_NAME_BLOCKLIST (comma-separated) and
DISPLAY_NAME_BLOCKLIST_FILE (one per line, ``#`` comments), folded the same way.

Invisible characters are refused outright rather than folded: format characters (Unicode
category Cf: bidi overrides such as U+202E, which reverse the text around a name wherever it is
shown, zero-width joiners and spaces), control characters, line and paragraph separators,
surrogates and private-use code points.
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache
from pathlib import Path

from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)

MESSAGE = "This name is not allowed. Please choose another one."
INVISIBLE_MESSAGE = "Names cannot contain invisible or control characters."
# Cc control, Cf format (bidi overrides, zero-width), Cs surrogates, Co private use,
# Zl/Zp line and paragraph separators.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> the ASCII prototype it is confusable with (UTS #39's confusables).

    The package's table lists, for a character that maps to a prototype, that one prototype, and
    for a prototype every character that maps to it; only the first kind is a mapping. Only
    ASCII prototypes are kept: blocked terms are folded the same way, so both sides meet there.
    """
    table: dict[str, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1 or len(glyphs) != 1:
            continue
        prototype = glyphs[0]["c"].strip("\u200e")
        if prototype.isascii() and prototype != char:
            table[char] = prototype
    return table


# After the skeleton: UTS #39 maps capital I (and 1, |, Greek Iota) to "l" but small i to itself;
# a case-insensitive comparison must not tell them apart.
_SAME = str.maketrans({"l": "i"})


def _looks(text: str) -> str:
    table = _prototypes()
    return "".join(table.get(ch, ch) for ch in text)


def _letters(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold().translate(_LEET)).translate(_SAME)
    return "".join(ch for ch in folded if ch.isalpha() and not unicodedata.combining(ch))


def skeletons(text: str) -> frozenset[str]:
    """What the name looks like, whatever characters spell it, in either letter case: the
    skeleton of its lower case, and of itself (a Cyrillic capital "М" looks like "M", its
    small "м" like no Latin letter)."""
    base = unicodedata.normalize("NFKD", text.translate(_LEET))
    lower = _looks(base.casefold())
    as_typed = _looks(_looks(base).casefold())
    return frozenset({_letters(lower), _letters(as_typed)})


def look_key(name: str) -> str:
    """What a username looks like, as one key: names with the same key cannot be told apart at a
    glance, so only one of them may exist. It is UTS #39's skeleton in any letter case: Cyrillic
    "аlice", "a1ice", "ALICE" and "aIice" all look like "alice", and "m" like "rn". Unlike
    ``skeletons`` it keeps digits and punctuation ("bob2" is not "bob"). Hashed: a name's
    skeleton can be many times its length, and the key is indexed."""
    text = unicodedata.normalize("NFKD", name)
    skeleton = unicodedata.normalize("NFKD", _looks(_looks(text).casefold()).translate(_SAME))
    return hashlib.sha256(skeleton.encode()).hexdigest()


def fold(text: str) -> str:
    """A blocked term's skeleton (a name has two: ``skeletons``)."""
    return _letters(_looks(unicodedata.normalize("NFKD", text.translate(_LEET)).casefold()))


def has_invisible(text: str) -> bool:
    return any(unicodedata.category(ch) in _INVISIBLE_CATEGORIES for ch in text)


@lru_cache(maxsize=8)
def _terms(words: tuple[str, ...], path: str, file_setting: str) -> frozenset[str]:
    found = list(words)
    if path:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ImproperlyConfigured(f"{file_setting}: {exc}") from exc
        found += [line.split("#", 1)[0] for line in lines]
    return frozenset(t for t in (fold(w) for w in found) if t)


def terms_from(list_setting: str, file_setting: str) -> frozenset[str]:
    """The folded terms of a word list kept like the names blocklist: a comma-separated setting
    and a file setting (one per line, ``#`` comments). The chat's word filter is another."""
    words = tuple(getattr(settings, list_setting, ()))
    return _terms(words, getattr(settings, file_setting, "") or "", file_setting)


def blocked_terms() -> frozenset[str]:
    return terms_from("DISPLAY_NAME_BLOCKLIST", "DISPLAY_NAME_BLOCKLIST_FILE")


def matches(text: str, terms: frozenset[str]) -> bool:
    """Whether any of ``terms`` (folded) appears anywhere in what ``text`` looks like."""
    return any(term in folded for folded in skeletons(text) for term in terms)


def is_allowed(name: str) -> bool:
    return not matches(name, blocked_terms())


def validate_name(name: str) -> str:
    """A field validator (serializers, forms): refuses invisible characters and a blocked name."""
    if has_invisible(name):
        raise ValidationError(INVISIBLE_MESSAGE, code="invisible_characters")
    if name and not is_allowed(name):
        raise ValidationError(MESSAGE, code="name_not_allowed")
    return name
