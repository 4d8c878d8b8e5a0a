"""The kinds of notification: stable codes that clients branch on (never renamed)."""

from __future__ import annotations

YOUR_TURN = "your_turn"
REMINDER = "reminder"
CAUGHT = "caught"
TARGETED = "targeted"
SWAPPED = "swapped"
TIMED_OUT = "timed_out"
ROUND_OVER = "round_over"
MATCH_OVER = "match_over"
INVITED = "invited"
MODERATION = "moderation"
FOLLOWED = "followed"
CHALLENGED = "challenged"
CHAT_MENTION = "chat_mention"
PAIRED = "paired"
# Stream-only kinds: facts an app reacts to on the account event stream
# (notifications.api.events) that a person needs no notice of. Their rows are written already
# withdrawn from the inbox (``cleared_at``) and no channel delivers them.
GAME_STARTED = "game_started"
SEAT_TAKEN_OVER = "seat_taken_over"

# In the order preference screens list them.
KINDS: tuple[str, ...] = (
    YOUR_TURN,
    REMINDER,
    CAUGHT,
    TARGETED,
    SWAPPED,
    TIMED_OUT,
    ROUND_OVER,
    MATCH_OVER,
    INVITED,
    CHALLENGED,
    PAIRED,
    FOLLOWED,
    CHAT_MENTION,
    MODERATION,
)

# Kinds only the account event stream carries (not in KINDS: no preference switches them on).
STREAM_ONLY: tuple[str, ...] = (GAME_STARTED, SEAT_TAKEN_OVER)

# Kinds about a turn that may be over by the time a message would go out: the relay checks that
# the turn is still the player's before sending one (a held or retried "your turn" for a turn
# already played is noise).
TURN_KINDS = frozenset({YOUR_TURN, REMINDER})

# Kinds about what happens at a game's table: a player who has that game open and visible sees
# it there, so such a notice is withdrawn in every channel (notifications.services).
GAME_KINDS = frozenset(
    {YOUR_TURN, REMINDER, CAUGHT, TARGETED, SWAPPED, TIMED_OUT, ROUND_OVER, MATCH_OVER}
)

# Kinds whose pending messages on one channel collapse into one ("your turn in 3 games").
COLLAPSIBLE = frozenset({YOUR_TURN})

DESCRIPTIONS: dict[str, str] = {
    YOUR_TURN: "It is your turn in a game.",
    REMINDER: "Your turn's time is running out (at configured fractions of the time left).",
    CAUGHT: "Another player caught you without UNO.",
    TARGETED: "Another player played a Targeted Draw 2 on you.",
    SWAPPED: "Another player swapped hands with you (Force Swap).",
    TIMED_OUT: "Your turn timed out.",
    ROUND_OVER: "A round of your game is over.",
    MATCH_OVER: "Your game is over.",
    INVITED: "Someone invited you to a game.",
    CHALLENGED: "A player challenged you to a game (accept or decline it).",
    PAIRED: "Quick pairing found you a game: it has started.",
    FOLLOWED: "A player follows you (following them back makes you friends).",
    CHAT_MENTION: "A player named you (@username) in a game's chat.",
    MODERATION: "A notice from the moderators.",
    GAME_STARTED: "A game you are seated in started (stream only).",
    SEAT_TAKEN_OVER: "A bot took over your seat after your turns timed out (stream only).",
}


def register(kind: str, description: str, *, stream_only: bool = False) -> None:
    """Add a kind (another app's: a challenge received), in one line from its AppConfig.ready.

    Every kind is an event of the account stream; a ``stream_only`` one is never in the inbox
    nor delivered, the others are notifications like any (``texts.render`` falls back to the
    kind's name until the app adds its text)."""
    global KINDS, STREAM_ONLY
    if kind in KINDS or kind in STREAM_ONLY:
        return
    if stream_only:
        STREAM_ONLY = (*STREAM_ONLY, kind)
    else:
        KINDS = (*KINDS, kind)
    DESCRIPTIONS[kind] = description


def all_kinds() -> tuple[str, ...]:
    """Every kind the account event stream may carry."""
    return (*KINDS, *STREAM_ONLY)
