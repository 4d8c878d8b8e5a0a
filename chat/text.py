"""What a chat message may hold, and the word filter.

A message is plain text: control characters and format characters (bidi overrides and
isolates such as U+202E, zero-width joiners) are removed, so a message can neither reverse the
text shown after it nor hide words from the filter; a line break stays, runs of blank lines do
not. Clients show it as text, never as HTML (the web client sets ``textContent``).

The word filter is a list kept like the display-name blocklist (``CHAT_WORD_FILTER``, comma
separated, and ``CHAT_WORD_FILTER_FILE``) and matched the same way (``players.blocklist``:
look-alike letters, digits for letters, accents, case), word by word: a word of the message
that contains a listed term, as its letters look, is a hit. Word by word rather than across the
whole message so that two innocent words meeting ("as sorted") make no hit.
"""

from __future__ import annotations

import re
import unicodedata

from players import blocklist

# Cc control (but the line break), Cf format (bidi controls, zero-width), Cs, Co, Zl/Zp.
_DROP = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_BLANK_LINES = re.compile(r"\n\s*\n+")
_SPACES = re.compile(r"[^\S\n]+")


def clean(text: str) -> str:
    """The message as it is stored and shown: NFC, without control and format characters,
    with spaces and blank lines collapsed, stripped."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    kept = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) not in _DROP)
    kept = _SPACES.sub(" ", kept)
    return _BLANK_LINES.sub("\n\n", kept).strip()


def filter_terms() -> frozenset[str]:
    return blocklist.terms_from("CHAT_WORD_FILTER", "CHAT_WORD_FILTER_FILE")


def is_filtered(text: str) -> bool:
    """Whether the word filter hides this (cleaned) message from everybody but its author."""
    terms = filter_terms()
    return bool(terms) and any(blocklist.matches(word, terms) for word in text.split())


_MENTION = re.compile(r"(?<![\w@])@([\w.+-]{1,150})")


def mentions(text: str) -> set[str]:
    """The names written as ``@name`` (usernames; case-insensitive matching is the caller's)."""
    return {m.group(1).rstrip(".").casefold() for m in _MENTION.finditer(text)}
