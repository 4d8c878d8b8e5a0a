"""Bot accounts (issue 33 §3, docs/bots-api.md): an account a person makes for a program of theirs.

A bot account is an ordinary player row with ``bot_owner`` set, so everything a player may do
through the API it may do too (be challenged, invited, seated; act; read its event stream),
and nothing needs a second code path. What differs:

- It has no password (an unusable one): it never signs in to the web client, and its only
  credentials are the personal tokens its owner issues here (``play`` scope).
- Its name is marked as a bot's wherever it is shown (``User.public_name``), and its profile
  says ``bot: true``.
- A game it is seated in is unrated (ratings compare people; ``ratings.receivers``).
- It belongs to its owner: listed, re-keyed and deleted by them only, gone with their account;
  a bot owns no bots, and a player owns at most ``BOT_ACCOUNTS_PER_PLAYER``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from config import error_codes as codes
from config.errors import ServiceError
from players import services
from players.models import ApiToken, User

BOT_TOKEN_NAME = "bot"


def bots_of(owner: User) -> QuerySet[User]:
    return User.objects.filter(bot_owner=owner).order_by("date_joined", "pk")


def _check_may_own(owner: User) -> None:
    if owner.is_bot:
        raise ServiceError(codes.BOT_CANNOT_OWN_BOTS, "A bot account cannot make bot accounts.")
    limit = settings.BOT_ACCOUNTS_PER_PLAYER
    if bots_of(owner).count() >= limit:
        raise ServiceError(
            codes.TOO_MANY_BOTS, f"You may own {limit} bot accounts; delete one first.", limit=limit
        )


def create_bot(*, owner: User, username: str, display_name: str = "") -> tuple[User, ApiToken, str]:
    """Make a bot account for ``owner`` and its first ``play`` token. Returns the raw token too,
    which is never stored and can be shown only now."""
    _check_may_own(owner)
    services.check_username_free(username)
    bot = User(
        username=username,
        display_name=display_name,
        language=owner.language,
        time_zone=owner.time_zone,
        bot_owner=owner,
    )
    bot.set_unusable_password()
    try:
        with transaction.atomic():
            bot.save()
            token, raw = ApiToken.issue(bot, name=BOT_TOKEN_NAME, scope=ApiToken.SCOPE_PLAY)
    except IntegrityError as exc:  # two sign-ups raced for the name: a unique index decided
        raise services.username_taken(username) from exc
    return bot, token, raw


def _bot_of(owner: User, bot_id: int) -> User:
    bot = bots_of(owner).filter(pk=bot_id).first()
    if bot is None:
        # Somebody else's bot is exactly as unknown as no bot: ids cannot be probed.
        raise ServiceError(codes.NOT_FOUND, "No such bot account.")
    return bot


def new_bot_token(*, owner: User, bot_id: int) -> tuple[ApiToken, str]:
    """A new ``play`` token for the bot; every other token of it is revoked (a leaked token is
    replaced in one call). Returns the raw token, shown only now."""
    with transaction.atomic():
        bot = _bot_of(owner, bot_id)
        services.revoke_all_tokens(user=bot)
        return ApiToken.issue(bot, name=BOT_TOKEN_NAME, scope=ApiToken.SCOPE_PLAY)


def delete_bot(*, owner: User, bot_id: int) -> None:
    """Delete the bot account, as deleting one's own account does (``account_deleting``: its
    seats are freed), without a password: it has none, and its owner answers for it."""
    services.remove_account(user=_bot_of(owner, bot_id))
