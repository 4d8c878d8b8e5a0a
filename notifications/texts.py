"""The words of every notification, in English and Danish (notifications/locale).

Texts are rendered from a notification's ``kind`` and ``data`` when they are read or sent, in the
language active at the time: callers wrap rendering in ``translation.override(user.language)``
(``in_language``). Keeping only data in the database means a player who switches language sees
the whole inbox in the new one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notifications import kinds as k

LANGUAGES = ("en", "da")


@contextmanager
def in_language(language: str | None) -> Iterator[None]:
    """Render in ``language`` (a player's ``language`` field); unknown ones fall back to English."""
    with translation.override(language if language in LANGUAGES else "en"):
        yield


def game_url(game_id: Any) -> str:
    return f"{settings.FRONTEND_URL}/games/{game_id}"


def games_url() -> str:
    return f"{settings.FRONTEND_URL}/games"


def inbox_url() -> str:
    return f"{settings.FRONTEND_URL}/notifications"


def friends_url() -> str:
    return f"{settings.FRONTEND_URL}/friends"


def url_for(kind: str, game_id: Any) -> str:
    # An invitation's game is not the player's until they join it (its page would be "not
    # found"): "My games" lists it with its Join button.
    if kind == k.INVITED:
        return games_url()
    # A challenge is answered, and a follower followed back, on the friends page.
    if kind in (k.CHALLENGED, k.FOLLOWED):
        return friends_url()
    return game_url(game_id) if game_id else inbox_url()


def names(people: Sequence[str]) -> str:
    """A list of names: "Bob", "Bob and Carol", "Bob, Carol and Dave" (active language)."""
    if not people:
        return _("your opponents")
    return str(get_text_list(list(people), _("and")))


def duration(seconds: float) -> str:
    """A rounded-down span for people: "2 days", "5 hours", "10 minutes", "30 seconds"."""
    seconds = max(0, int(seconds))
    if seconds >= 2 * 86400:
        n = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", n) % {"count": n}
    if seconds >= 2 * 3600:
        n = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", n) % {"count": n}
    if seconds >= 2 * 60:
        n = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", n) % {"count": n}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def render(kind: str, data: dict[str, Any]) -> tuple[str, str]:
    """(title, body) of one notification in the active language."""
    opponents = names(data.get("opponents") or [])
    by = data.get("by") or _("Another player")
    if kind == k.YOUR_TURN:
        return _("Your turn"), _("It's your turn against %(opponents)s.") % {"opponents": opponents}
    if kind == k.REMINDER:
        left = duration(data.get("seconds_left", 0))
        return (
            _("Your time is running out"),
            _("You have %(left)s left to move against %(opponents)s.")
            % {"left": left, "opponents": opponents},
        )
    if kind == k.CAUGHT:
        cards = int(data.get("cards", 2))
        return (
            _("Caught without UNO"),
            ngettext(
                "%(by)s caught you without UNO: you drew %(count)d card.",
                "%(by)s caught you without UNO: you drew %(count)d cards.",
                cards,
            )
            % {"by": by, "count": cards},
        )
    if kind == k.TARGETED:
        return _("You were targeted"), _("%(by)s played a Targeted Draw 2 on you.") % {"by": by}
    if kind == k.SWAPPED:
        return _("Hands swapped"), _("%(by)s swapped hands with you.") % {"by": by}
    if kind == k.TIMED_OUT:
        return (
            _("Your turn timed out"),
            _("You ran out of time in the game against %(opponents)s.") % {"opponents": opponents},
        )
    if kind == k.ROUND_OVER:
        title = _("Round %(round)d is over") % {"round": int(data.get("round", 0))}
        points = int(data.get("points", 0))
        if data.get("you_won"):
            body = ngettext(
                "You won the round and scored %(count)d point.",
                "You won the round and scored %(count)d points.",
                points,
            ) % {"count": points}
        else:
            body = ngettext(
                "%(winner)s won the round and scored %(count)d point.",
                "%(winner)s won the round and scored %(count)d points.",
                points,
            ) % {"winner": data.get("winner") or by, "count": points}
        return title, body
    if kind == k.MATCH_OVER:
        if data.get("you_won"):
            body = _("You won the game against %(opponents)s!") % {"opponents": opponents}
        elif data.get("winner"):
            body = _("%(winner)s won the game.") % {"winner": data["winner"]}
        else:
            body = _("The game is over.")
        return _("Game over"), body
    if kind == k.INVITED:
        return _("You are invited"), _("%(by)s invited you to a game.") % {"by": by}
    if kind == k.CHALLENGED:
        return _("You are challenged"), _("%(by)s challenged you to a game.") % {"by": by}
    if kind == k.PAIRED:
        return _("Your game is ready"), _(
            "Quick pairing found you a game against %(opponents)s."
        ) % {"opponents": opponents}
    if kind == k.FOLLOWED:
        return _("A new follower"), _("%(by)s follows you.") % {"by": by}
    if kind == k.CHAT_MENTION:
        return _("You were named in a chat"), _("%(by)s named you in a game's chat.") % {"by": by}
    if kind == k.MODERATION:
        # The moderators' own words, as they wrote them: only the title is translated.
        return _("Message from the moderators"), str(data.get("message", ""))
    return kind, ""


def render_collapsed(count: int) -> tuple[str, str]:
    """(title, first line) of a message that stands for ``count`` "your turn" notifications."""
    title = ngettext(
        "It's your turn in %(count)d game", "It's your turn in %(count)d games", count
    ) % {"count": count}
    return title, _("Games waiting for your move:")


def open_game_line(url: str) -> str:
    return _("Open the game: %(url)s") % {"url": url}


def email_footer() -> str:
    return _(
        "You get these e-mails because of your notification settings; you can change them in the "
        "app."
    )
