"""Every error the API answers with: its stable code, its HTTP status and what it means.

This is the one list. A service refuses with an entry (``raise ServiceError(codes.NOT_HOST,
"Only the host can add bots.")``) and the status comes from the entry, never from the raise
site; ``config.errors.api_exception_handler`` turns it into the one JSON error shape. The
schema's error responses (``config.openapi.document_error_codes``) and the table in
docs/api.md are built from it, and ``tests/test_error_codes.py`` fails on a code raised but not
listed here, or listed but never raised.

The rules engine has its own list (``games/engine/errors.py``, pure Python: nothing here may be
imported by it, and the players app below games may not import the engine through this module);
``RULES`` gives each of its codes the one status and meaning the API answers a refusal by the
rules with, and a test checks that both lists name the same codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework import exceptions


@dataclass(frozen=True)
class ErrorCode:
    """A stable ``code`` clients branch on, the HTTP ``status`` it answers with, and its
    ``meaning`` in one line (for the schema and the docs; the message says the particulars)."""

    code: str
    status: int
    meaning: str


# ---------------------------------------------------------------------------------------------
# The stack around every view (config/errors.py, DRF): any operation may meet these.
# ---------------------------------------------------------------------------------------------
INVALID_REQUEST = ErrorCode(
    "invalid_request", 400, "A field or parameter is missing or malformed (details.fields)."
)
UNKNOWN_FIELD = ErrorCode(
    "unknown_field", 400, "The body has a field the operation does not take (details.fields)."
)
MALFORMED_REQUEST = ErrorCode("malformed_request", 400, "The body is not JSON, or nests too deep.")
NOT_AUTHENTICATED = ErrorCode("not_authenticated", 401, "No credentials were sent.")
AUTHENTICATION_FAILED = ErrorCode(
    "authentication_failed",
    401,
    "The token is unknown, revoked or expired, or its account is inactive.",
)
PERMISSION_DENIED = ErrorCode(
    "permission_denied",
    403,
    "Not allowed: a token without the scope, or a session request without its CSRF token.",
)
NOT_FOUND = ErrorCode("not_found", 404, "No such thing, or not yours to see.")
METHOD_NOT_ALLOWED = ErrorCode(
    "method_not_allowed", 405, "The operation does not take this HTTP method."
)
NOT_ACCEPTABLE = ErrorCode(
    "not_acceptable", 406, "The operation cannot answer in a type Accept names."
)
REQUEST_TOO_LARGE = ErrorCode("request_too_large", 413, "The body is too large.")
UNSUPPORTED_MEDIA_TYPE = ErrorCode(
    "unsupported_media_type", 415, "Send the body as application/json."
)
THROTTLED = ErrorCode("throttled", 429, "Too many requests: retry after Retry-After seconds.")
SERVER_ERROR = ErrorCode("server_error", 500, "A bug on the server's side; retry, or report it.")
SERVICE_UNAVAILABLE = ErrorCode(
    "service_unavailable", 503, "The database is unreachable: retry after Retry-After seconds."
)

# DRF's exception classes to their entries (config.errors.api_exception_handler).
DRF_CODES: tuple[tuple[type[exceptions.APIException], ErrorCode], ...] = (
    (exceptions.NotAuthenticated, NOT_AUTHENTICATED),
    (exceptions.AuthenticationFailed, AUTHENTICATION_FAILED),
    (exceptions.PermissionDenied, PERMISSION_DENIED),
    (exceptions.NotFound, NOT_FOUND),
    (exceptions.MethodNotAllowed, METHOD_NOT_ALLOWED),
    (exceptions.NotAcceptable, NOT_ACCEPTABLE),
    (exceptions.UnsupportedMediaType, UNSUPPORTED_MEDIA_TYPE),
    (exceptions.Throttled, THROTTLED),
    (exceptions.ParseError, MALFORMED_REQUEST),
    (exceptions.ValidationError, INVALID_REQUEST),
)

# ---------------------------------------------------------------------------------------------
# Accounts, tokens, exports, OAuth (players)
# ---------------------------------------------------------------------------------------------
INVALID_CREDENTIALS = ErrorCode("invalid_credentials", 400, "Wrong username or password.")
WEAK_PASSWORD = ErrorCode(
    "weak_password", 400, "The password is too weak (details.messages say why)."
)
PASSWORD_REQUIRED = ErrorCode(
    "password_required", 400, "Changing the e-mail address needs the current password."
)
INVALID_TOKEN = ErrorCode(
    "invalid_token", 400, "The link is wrong, used or expired, or its address has changed."
)
USERNAME_TAKEN = ErrorCode("username_taken", 409, "The name exists (in any letter case).")
NO_EMAIL = ErrorCode("no_email", 409, "The profile has no e-mail address to verify.")
EMAIL_ALREADY_VERIFIED = ErrorCode(
    "email_already_verified", 409, "The e-mail address is verified already."
)
EXPORT_NOT_READY = ErrorCode(
    "export_not_ready", 409, "No finished data export: still pending or running, or failed."
)
OAUTH_INVALID_REQUEST = ErrorCode(
    "oauth_invalid_request",
    400,
    "The app's authorization request is not valid (details.error; details.redirect_to).",
)

# ---------------------------------------------------------------------------------------------
# Games: lobbies, seats, moves, bots, clocks, records (games)
# ---------------------------------------------------------------------------------------------
INVALID_SETUP = ErrorCode(
    "invalid_setup", 400, "An unknown game, preset or house rule, or seats or times out of range."
)
RATED_NOT_ALLOWED = ErrorCode(
    "rated_not_allowed", 400, "A rated game takes the default preset and no house rules."
)
INVALID_BOT_LEVEL = ErrorCode("invalid_bot_level", 400, "No bot plays at this level.")
INVALID_ACTION = ErrorCode(
    "invalid_action", 400, "The body is no action of this game (unknown type or fields)."
)
INVALID_IDEMPOTENCY_KEY = ErrorCode(
    "invalid_idempotency_key", 400, "The Idempotency-Key header is empty or too long."
)
NOT_HOST = ErrorCode("not_host", 403, "Only the game's host may do this.")
INVALID_INVITE = ErrorCode("invalid_invite", 404, "No game has this invite code.")
BOT_NOT_FOUND = ErrorCode("bot_not_found", 404, "The game has no such bot seat.")
ALREADY_JOINED = ErrorCode("already_joined", 409, "You have a seat in this game already.")
GAME_FULL = ErrorCode("game_full", 409, "Every seat of the game is taken.")
GAME_ALREADY_STARTED = ErrorCode(
    "game_already_started", 409, "The game has started: its lobby is closed."
)
GAME_NOT_STARTED = ErrorCode("game_not_started", 409, "The game has not started yet.")
GAME_NOT_ACTIVE = ErrorCode("game_not_active", 409, "The game is not in progress.")
GAME_OVER = ErrorCode("game_over", 409, "The game is over (or was never played).")
GAME_NOT_FINISHED = ErrorCode("game_not_finished", 409, "The game has not finished yet.")
NOT_ENOUGH_PLAYERS = ErrorCode("not_enough_players", 409, "A game needs at least 2 players.")
NOT_IN_GAME = ErrorCode("not_in_game", 409, "You (or this player) have left the game.")
NOT_TAKEN_OVER = ErrorCode("not_taken_over", 409, "You are playing this seat already.")
VERSION_CONFLICT = ErrorCode(
    "version_conflict",
    409,
    "The game has moved on since expected_version (details.current_version): reload, decide again.",
)
TOO_MANY_GAMES = ErrorCode(
    "too_many_games", 409, "You are in as many games as allowed (details.limit)."
)
ALREADY_ON_VACATION = ErrorCode("already_on_vacation", 409, "You are on vacation already.")
NOT_ON_VACATION = ErrorCode("not_on_vacation", 409, "You are not on vacation.")
VACATION_BANK_EXHAUSTED = ErrorCode(
    "vacation_bank_exhausted", 409, "Not enough vacation left this month (details.days_left)."
)
RECORD_UNAVAILABLE = ErrorCode(
    "record_unavailable", 409, "The game was loaded from a position, or its log does not replay."
)
INVITE_EXPIRED = ErrorCode(
    "invite_expired", 410, "The invite ran out (invites last a week): ask the host for a new code."
)
IDEMPOTENCY_KEY_REUSED = ErrorCode(
    "idempotency_key_reused", 422, "The Idempotency-Key was used with a different body."
)
IDEMPOTENCY_KEY_OTHER_URL = ErrorCode(
    "idempotency_key_other_url", 422, "The Idempotency-Key was used for another URL."
)

# ---------------------------------------------------------------------------------------------
# Notifications, social, moderation
# ---------------------------------------------------------------------------------------------
PUSH_UNAVAILABLE = ErrorCode(
    "push_unavailable", 404, "This server has no VAPID key, so it offers no Web Push."
)
TOO_MANY_WEBHOOKS = ErrorCode("too_many_webhooks", 409, "You have as many webhooks as allowed.")
CANNOT_FOLLOW_SELF = ErrorCode("cannot_follow_self", 400, "You cannot follow yourself.")
CANNOT_CHALLENGE_SELF = ErrorCode("cannot_challenge_self", 400, "You cannot challenge yourself.")
FOLLOW_REFUSED = ErrorCode("follow_refused", 403, "A block (either way) forbids following.")
CHALLENGE_REFUSED = ErrorCode(
    "challenge_refused", 403, "The player takes no challenges from you, or a block forbids it."
)
NOT_CHALLENGED = ErrorCode("not_challenged", 403, "Only the challenged player may accept.")
ALREADY_CHALLENGED = ErrorCode(
    "already_challenged", 409, "You have challenged this player already."
)
CHALLENGE_CLOSED = ErrorCode(
    "challenge_closed", 409, "The challenge was answered, withdrawn or has expired."
)
JOIN_REFUSED = ErrorCode("join_refused", 403, "A block keeps you out of this private game.")
CANNOT_REPORT_YOURSELF = ErrorCode("cannot_report_yourself", 400, "You cannot report yourself.")
CANNOT_BLOCK_YOURSELF = ErrorCode("cannot_block_yourself", 400, "You cannot block yourself.")
PLAYER_NOT_IN_GAME = ErrorCode(
    "player_not_in_game", 400, "The reported player has no seat in that game."
)
REASON_REQUIRED = ErrorCode(
    "reason_required", 400, "A moderator's action needs a reason for the audit log."
)
UNTIL_REQUIRED = ErrorCode("until_required", 400, "A suspension needs an end date.")
INVALID_UNTIL = ErrorCode("invalid_until", 400, "The end date must be in the future.")
NOT_ALLOWED = ErrorCode(
    "not_allowed", 403, "A moderator may not sanction their own account, nor staff's."
)
SEATED_MODERATOR = ErrorCode(
    "seated_moderator", 403, "The moderator plays in this game: another must handle it."
)
NO_TURN = ErrorCode("no_turn", 409, "The game has no turn to time out.")
NOT_RESTRICTED = ErrorCode("not_restricted", 409, "The player is not suspended or banned.")
REPORT_CLOSED = ErrorCode("report_closed", 409, "The report has been closed already.")
CONFLICT = ErrorCode("conflict", 409, "A concurrent change got there first: please try again.")

# ---------------------------------------------------------------------------------------------
# The rules' refusals: a well-formed action the rules refuse now is 422, with the engine's code
# (games/engine/errors.py). Three of them are also the service's own codes at another status:
# ``invalid_action`` and ``invalid_setup`` (400) when the body is no action or no setup of the
# game at all, and ``game_over`` (409) when the game row has ended.
# ---------------------------------------------------------------------------------------------
RULES_STATUS = 422
_RULES_MEANINGS = {
    "not_your_turn": "It is not your turn (or not yours to answer).",
    "card_not_in_hand": "The card is not in your hand.",
    "target_required": "The card needs a target seat.",
    "target_not_allowed": "The card takes no target.",
    "invalid_target": "No seat that may be targeted.",
    "target_protected": "The target is protected from this card.",
    "draw_not_allowed": "You may not draw now.",
    "nothing_to_draw": "No card is left to draw.",
    "must_play_drawn_card_or_pass": "Play the card you drew, or pass.",
    "pass_not_allowed": "You may pass only after drawing.",
    "nothing_drawn": "You have drawn no card to play.",
    "choice_pending": "A choice (a target, a colour) is owed first.",
    "no_choice_pending": "No choice is owed.",
    "uno_not_allowed": "UNO may be said with one card left only.",
    "nothing_to_catch": "Nobody can be caught for a missed UNO.",
    "round_over": "The round is over.",
    "round_in_progress": "The round is still being played.",
    "game_over": "The match is over.",
    "not_in_round": "The seat is out of this round.",
    "invalid_action": "The action's fields do not fit it in this position.",
    "invalid_setup": "The game cannot be set up so.",
    "house_rule_off": "The action belongs to a house rule this game does not use.",
    "stack_pending": "A stack is owed: stack a draw card or take the cards.",
    "not_stackable": "That card cannot answer the stack.",
    "no_stack": "No stack is owed.",
    "hand_face_down": "Blind play: cards cannot be chosen from a face-down hand.",
    "not_a_pair": "Double down plays two cards alike.",
    "wrong_card_count": "The action got the wrong number of cards.",
    "mercy_not_allowed": "Mercy needs 15 cards or more, once.",
    "colour_required": "A wild names the colour it sets.",
    "colour_not_allowed": "This card or action names no colour.",
    "card_not_playable": "The card matches neither the colour in force nor the top card.",
    "response_required": "A Wild Draw Four waits: accept or challenge it first.",
    "challenge_not_allowed": "Only the next player challenges, and only then.",
    "offer_pending": "The upcard offer comes first: take the upcard or pass.",
    "no_offer": "The upcard offer is over.",
    "must_draw_stock": "Both passed the upcard: the non-dealer draws from the stock.",
    "card_just_taken": "The card taken from the discard pile stays this turn.",
    "discard_take_limit": "The loop guard: only the stock may be drawn now.",
    "knock_not_allowed": "The kept cards would leave more than 10 deadwood.",
    "big_gin_not_allowed": "The eleven cards do not all meld.",
}
RULES: dict[str, ErrorCode] = {
    code: ErrorCode(code, RULES_STATUS, meaning) for code, meaning in _RULES_MEANINGS.items()
}

# Every entry of the service's own (those of the rules are RULES).
SERVICE: tuple[ErrorCode, ...] = tuple(
    value for value in list(globals().values()) if isinstance(value, ErrorCode)
)


def refused_by_rules(code: str) -> ErrorCode:
    """The entry of a refusal by the rules. A game registered at run time (the tests' toy
    games) may refuse with a code of its own: the rules' status all the same."""
    return RULES.get(code) or ErrorCode(code, RULES_STATUS, "The rules refuse the action.")
