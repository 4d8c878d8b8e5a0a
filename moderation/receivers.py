"""Moderation's answers to the signals of the apps below it (connected in ``ModerationConfig``)."""

from __future__ import annotations

from typing import Any

from chat import signals as chat_signals
from config import error_codes as codes
from config.errors import ServiceError
from games import signals as game_signals
from moderation import chat, selectors, services
from players import signals as player_signals
from social import signals as social_signals


def lift_expired_suspension(*, username: str, **kwargs: Any) -> None:
    """At log-in, before the password check: reopen the account if its suspension ran out."""
    services.end_expired_suspension(username=username)


def refuse_blocked_player(*, user: Any, seats: list[Any], **kwargs: Any) -> None:
    """A private lobby refuses a player whom anybody seated in it blocked."""
    if selectors.is_blocked([seat.user_id for seat in seats], user):
        raise ServiceError(codes.JOIN_REFUSED, "You cannot join this private game.")


def hide_blocked_profile(*, viewer: Any, player: Any, **kwargs: Any) -> None:
    """A player who blocked the viewer, or whom the viewer blocked, has no profile for them."""
    if selectors.is_blocked_either_way(viewer, player):
        raise ServiceError(codes.NOT_FOUND, "No such player.")


def list_blocks(*, user_id: Any, **kwargs: Any) -> set[Any]:
    """Friends, presence, search and challenges: blocks count both ways."""
    return selectors.blocked_either_way(user_id)


def query_blocks(*, user_id: Any, **kwargs: Any) -> Any:
    """``list_blocks`` as a query, for another query's ``__in`` (quick pairing)."""
    return selectors.blocked_either_way_query(user_id)


def report_filtered_message(*, message: Any, **kwargs: Any) -> None:
    """A message the word filter caught counts toward moderation: its author's filter report."""
    chat.report_filtered(message=message)


def connect() -> None:
    chat_signals.message_filtered.connect(
        report_filtered_message, dispatch_uid="moderation.report_filtered_message"
    )
    social_signals.listing_blocks.connect(list_blocks, dispatch_uid="moderation.list_blocks")
    social_signals.blocks_query.connect(query_blocks, dispatch_uid="moderation.query_blocks")
    game_signals.joining_private_game.connect(
        refuse_blocked_player, dispatch_uid="moderation.refuse_blocked_player"
    )
    player_signals.viewing_player.connect(
        hide_blocked_profile, dispatch_uid="moderation.hide_blocked_profile"
    )
    player_signals.signing_in.connect(
        lift_expired_suspension, dispatch_uid="moderation.lift_expired_suspension"
    )
