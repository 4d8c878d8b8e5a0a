"""The search form of a display name: what player search compares, prefix against prefix."""

from __future__ import annotations

import unicodedata

from anyascii import anyascii

MAX_LENGTH = 80


def search_key(name: str) -> str:
    """Case- and accent-insensitive: "Søren", "SOREN" and "søren" all give "soren".

    anyascii transliterates what plain decomposition leaves alone (ø, æ, ß, ł), so a Danish
    player is found from an English keyboard; NFKC first folds compatibility forms (ﬁ, full-width
    letters) so they transliterate like their plain letters. Runs of spaces become one.
    """
    folded = anyascii(unicodedata.normalize("NFKC", name)).casefold()
    return " ".join(folded.split())[:MAX_LENGTH]
