"""E-mail through Django's e-mail backend (the console backend in development).

Every retry of a message has the same ``Message-ID`` (built from the event id) and an
``X-Uno-Event-Id`` header, so a mail server or client that has seen it can drop the duplicate.
"""

from __future__ import annotations

from email.utils import parseaddr
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMessage

from notifications import kinds as k
from notifications import texts
from notifications.channels import register
from notifications.channels.base import Channel, Message

if TYPE_CHECKING:
    from players.models import User

EVENT_ID_HEADER = "X-Uno-Event-Id"


def _mail_domain() -> str:
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    return address.rpartition("@")[2] or "unoallwild.invalid"


class EmailChannel(Channel):
    name = "email"
    # Off by default: the noisy kinds that the inbox (and later push) is better for.
    default_kinds = (
        k.YOUR_TURN,
        k.REMINDER,
        k.MATCH_OVER,
        k.INVITED,
        k.CHALLENGED,
        k.PAIRED,
        k.MODERATION,
    )
    collapses = True
    # A player looking at the game sees the move at the table: no mail about it either
    # (issue 21: no notice in any channel while the game is open and visible).
    skip_while_watching = True

    def reachable(self, user: User) -> bool:
        # Only verified addresses: otherwise anyone could sign up with a stranger's address and
        # have us mail them every move.
        return bool(user.is_active and user.email and user.email_verified)

    def render(self, message: Message) -> EmailMessage:
        with texts.in_language(message.language):
            lines = [message.body, ""]
            if message.collapsed:
                lines = [message.body]
                lines += [f"- {item.body} {item.url}" for item in message.items]
                lines.append("")
            else:
                lines.append(texts.open_game_line(message.url))
                lines.append("")
            lines.append("-- ")
            lines.append(texts.email_footer())
        return EmailMessage(
            subject=message.title,
            body="\n".join(lines),
            to=[message.user.email],
            headers={
                "Message-ID": f"<{message.event_id}@{_mail_domain()}>",
                EVENT_ID_HEADER: message.event_id,
                "Auto-Submitted": "auto-generated",
                **message.extra_headers,
            },
        )

    def send(self, message: Message) -> None:
        self.render(message).send(fail_silently=False)


email_channel = register(EmailChannel())
