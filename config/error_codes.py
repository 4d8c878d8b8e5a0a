"""Every error the API answers with: its stable code, its HTTP status and what it means.

This is the one list. A service refuses with an entry (``raise ServiceError(codes.NOT_HOST,
"Only the host can add bots.")``) and the status comes from the entry, never from the raise
site; ``config.errors.api_exception_handler`` turns it into the one JSON error shape. Each
operation's error responses in the schema list their codes with these meanings
(``config.openapi.document_error_codes``), docs/api.md's tables are generated from it
(``python -m config.error_codes docs/api.md``), and ``tests/test_error_codes.py`` fails on a
code raised but not listed here, or listed but never raised.

The rules engine keeps its own codes (``games/engine/errors.py``): it is pure Python and
imports nothing of the service, and this module may not import it either (players, below games,
imports this one). ``RULES`` gives each of the engine's codes its meaning here, at the one
status a refusal by the rules answers with; a test checks that both name the same codes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from rest_framework import exceptions


@dataclass(frozen=True)
class ErrorCode:
    """A stable ``code`` clients branch on, the HTTP ``status`` it answers with, and its
    ``meaning`` (Markdown, for the schema and the docs; a message says the particulars)."""

    code: str
    status: int
    meaning: str
    section: str = ""


@dataclass
class Section:
    """A heading of the docs' tables, and the entries under it in the order they are listed."""

    title: str
    intro: str = ""
    entries: list[ErrorCode] = field(default_factory=list)

    def entry(self, code: str, status: int, meaning: str) -> ErrorCode:
        error = ErrorCode(code, status, meaning, self.title)
        self.entries.append(error)
        return error


# The stack around every view (config/errors.py, DRF): any operation may meet these.
ANY = Section("Any operation")
INVALID_REQUEST = ANY.entry(
    "invalid_request",
    400,
    "a field or query parameter is missing, malformed, of another JSON type (types are strict) "
    "or out of range; `details.fields` maps each to its problems",
)
UNKNOWN_FIELD = ANY.entry(
    "unknown_field",
    400,
    "a body field the operation does not take (a misspelling, or another operation's field); "
    "`details.fields` names each. Checked first",
)
MALFORMED_REQUEST = ANY.entry(
    "malformed_request", 400, "the body is not valid JSON (or is nested more than 32 levels deep)"
)
NOT_AUTHENTICATED = ANY.entry("not_authenticated", 401, "no credentials")
AUTHENTICATION_FAILED = ANY.entry(
    "authentication_failed",
    401,
    "a bad `Authorization` header, or a revoked, expired or unknown token, or an inactive account",
)
PERMISSION_DENIED = ANY.entry(
    "permission_denied",
    403,
    "a `read` token on a write (or a token without the operation's scope), or a session request"
    " without CSRF token",
)
NOT_FOUND = ANY.entry("not_found", 404, "no such URL or thing, or one you may not see")
METHOD_NOT_ALLOWED = ANY.entry("method_not_allowed", 405, "e.g. `PUT` where only `PATCH` exists")
NOT_ACCEPTABLE = ANY.entry(
    "not_acceptable",
    406,
    "not answered by the API any more: an `Accept` it cannot satisfy gets JSON anyway",
)
REQUEST_TOO_LARGE = ANY.entry(
    "request_too_large", 413, "a body over 2.5 MB (or a form with over 1000 fields)"
)
UNSUPPORTED_MEDIA_TYPE = ANY.entry(
    "unsupported_media_type", 415, "a body that is not JSON (or a form)"
)
THROTTLED = ANY.entry("throttled", 429, "too many requests: wait `Retry-After` seconds")
SERVER_ERROR = ANY.entry(
    "server_error",
    500,
    "a bug on our side; the request may be retried (with the same `Idempotency-Key` for actions)",
)
SERVICE_UNAVAILABLE = ANY.entry(
    "service_unavailable",
    503,
    "the database is briefly unreachable: retry after `Retry-After` seconds (with the same "
    "`Idempotency-Key` for actions)",
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

ACCOUNTS = Section("Accounts")
INVALID_CREDENTIALS = ACCOUNTS.entry(
    "invalid_credentials", 400, "wrong username or password (never says which)"
)
WEAK_PASSWORD = ACCOUNTS.entry(
    "weak_password", 400, "the password validators refused it; `details.messages` says why"
)
PASSWORD_REQUIRED = ACCOUNTS.entry(
    "password_required", 400, "changing `email` needs the current `password`"
)
INVALID_TOKEN = ACCOUNTS.entry(
    "invalid_token",
    400,
    "a password-reset or e-mail verification link that is wrong, used or expired (or its "
    "address changed or was verified since)",
)
USERNAME_TAKEN = ACCOUNTS.entry(
    "username_taken",
    409,
    "the username exists, in any letter case, or one that looks the same (`a1ice`, or `alice` "
    "with a Cyrillic `a`); `details.username`",
)
NAME_MARKS_A_BOT = ACCOUNTS.entry(
    "name_marks_a_bot",
    400,
    "a display name ending in `(bot)`, the mark only bot accounts are shown with (any letter "
    "case); `details.field`",
)
NO_EMAIL = ACCOUNTS.entry("no_email", 409, "e-mail verification without an address on the profile")
EMAIL_ALREADY_VERIFIED = ACCOUNTS.entry(
    "email_already_verified", 409, "the address is verified already"
)
BOT_CANNOT_OWN_BOTS = ACCOUNTS.entry(
    "bot_cannot_own_bots", 403, "a bot account making bot accounts (a person owns bots)"
)
TOO_MANY_BOTS = ACCOUNTS.entry(
    "too_many_bots", 409, "the owner has `BOT_ACCOUNTS_PER_PLAYER` bot accounts already"
)
EXPORT_NOT_READY = ACCOUNTS.entry(
    "export_not_ready",
    409,
    "a data export's file asked for before its `status` is `ready` (still `pending` or "
    "`running`, or `failed`; or no finished export at all)",
)
OAUTH_INVALID_REQUEST = ACCOUNTS.entry(
    "oauth_invalid_request",
    400,
    "an OAuth app's authorization request the server cannot accept (unknown client, redirect "
    "URI not registered, no PKCE or not `S256`, unknown scope); `details.error` is the OAuth "
    "error, `details.redirect_to` where to tell the app when it may be told "
    "([oauth.md](oauth.md))",
)

NOTIFICATIONS = Section("Notifications")
PUSH_UNAVAILABLE = NOTIFICATIONS.entry(
    "push_unavailable", 404, "this server has no VAPID key: it offers no Web Push"
)
TOO_MANY_WEBHOOKS = NOTIFICATIONS.entry(
    "too_many_webhooks", 409, "a player has at most 10 webhooks; delete one first"
)

GAMES = Section("Games")
INVALID_SETUP = GAMES.entry(
    "invalid_setup",
    400,
    "an unknown game or house rule; a preset, seat count or turn limit out of range; a bot game"
    " without bots or of a game no bot plays",
)
INVALID_ACTION = GAMES.entry(
    "invalid_action",
    400,
    "an unknown action `type`, or a malformed action (also 422 from the rules, below)",
)
INVALID_IDEMPOTENCY_KEY = GAMES.entry(
    "invalid_idempotency_key",
    400,
    "an `Idempotency-Key` that is empty or longer than 128 characters",
)
RATED_NOT_ALLOWED = GAMES.entry(
    "rated_not_allowed",
    400,
    "`rated: true` with a preset other than the game's default, a house rule on, or by a bot "
    "account ([ratings.md](ratings.md#what-is-rated))",
)
INVALID_BOT_LEVEL = GAMES.entry("invalid_bot_level", 400, "no bot plays at this `level`")
NOT_HOST = GAMES.entry(
    "not_host", 403, "only the host may start the game, renew its invite, or add and remove bots"
)
INVALID_INVITE = GAMES.entry("invalid_invite", 404, "no game has this invite code")
BOT_NOT_FOUND = GAMES.entry("bot_not_found", 404, "the game has no such bot seat")
INVITE_EXPIRED = GAMES.entry(
    "invite_expired",
    410,
    "the invite code of a lobby expired (invites last a week); ask the host for a new one. A "
    "started game's invite answers `game_already_started` instead",
)
GAME_ALREADY_STARTED = GAMES.entry(
    "game_already_started",
    409,
    "the lobby has started (or closed): no joining, starting, new invite or bots",
)
ALREADY_JOINED = GAMES.entry("already_joined", 409, "you have a seat in this game already")
GAME_FULL = GAMES.entry("game_full", 409, "every seat is taken")
NOT_ENOUGH_PLAYERS = GAMES.entry("not_enough_players", 409, "starting needs at least 2 players")
NOT_IN_GAME = GAMES.entry(
    "not_in_game", 409, "you (or the player a seat is handed to a bot for) have left this game"
)
NOT_TAKEN_OVER = GAMES.entry(
    "not_taken_over", 409, "taking back a seat that no bot is playing for you"
)
GAME_NOT_STARTED = GAMES.entry("game_not_started", 409, "an action in a lobby")
GAME_NOT_ACTIVE = GAMES.entry(
    "game_not_active", 409, "handing a seat to a bot in a game that is not in progress"
)
GAME_OVER = GAMES.entry(
    "game_over", 409, "the game is no longer in progress (also 422 from the rules, below)"
)
GAME_NOT_FINISHED = GAMES.entry(
    "game_not_finished", 409, "a rematch, or the record, of a game that has not finished"
)
RECORD_UNAVAILABLE = GAMES.entry(
    "record_unavailable",
    409,
    "a game started from a saved position (`manage.py scenario load`), or whose log does not "
    "replay, has no record",
)
VERSION_CONFLICT = GAMES.entry(
    "version_conflict",
    409,
    "`expected_version` is stale; `details.current_version`: reload and decide again",
)
TOO_MANY_GAMES = GAMES.entry(
    "too_many_games",
    409,
    "creating, joining or accepting a seat beyond `GAMES_IN_PROGRESS_MAX` (default 50) lobbies "
    "and games in progress; `details.limit`",
)
ALREADY_ON_VACATION = GAMES.entry("already_on_vacation", 409, "starting a vacation while on one")
NOT_ON_VACATION = GAMES.entry("not_on_vacation", 409, "ending a vacation while on none")
VACATION_BANK_EXHAUSTED = GAMES.entry(
    "vacation_bank_exhausted", 409, "not enough vacation left this month; `details.days_left`"
)
IDEMPOTENCY_KEY_REUSED = GAMES.entry(
    "idempotency_key_reused",
    422,
    "the `Idempotency-Key` was used before with a different body; use a new key",
)
IDEMPOTENCY_KEY_OTHER_URL = GAMES.entry(
    "idempotency_key_other_url",
    422,
    "the `Idempotency-Key` was used before for another URL (another game); use a new key",
)

SOCIAL = Section("Friends, challenges and quick pairing")
CANNOT_FOLLOW_SELF = SOCIAL.entry("cannot_follow_self", 400, "following yourself")
CANNOT_CHALLENGE_SELF = SOCIAL.entry("cannot_challenge_self", 400, "challenging yourself")
FOLLOW_REFUSED = SOCIAL.entry("follow_refused", 403, "a block, either way")
CHALLENGE_REFUSED = SOCIAL.entry(
    "challenge_refused",
    403,
    "the player takes challenges from nobody, or from friends only and you are not one, or a "
    "block either way",
)
NOT_CHALLENGED = SOCIAL.entry("not_challenged", 403, "only the challenged player accepts")
ALREADY_CHALLENGED = SOCIAL.entry(
    "already_challenged", 409, "a challenge of yours to this player is still pending"
)
CHALLENGE_CLOSED = SOCIAL.entry(
    "challenge_closed",
    409,
    "the challenge was accepted, declined, withdrawn or has expired (`CHALLENGE_TTL_SECONDS`)",
)
ALREADY_SEEKING = SOCIAL.entry(
    "already_seeking", 409, "you already have an open seek with these settings (one per pool)"
)
SEEK_CLOSED = SOCIAL.entry(
    "seek_closed", 409, "the seek was paired, withdrawn or has expired (`SEEK_TTL_SECONDS`)"
)
SEEK_REFUSED = SOCIAL.entry(
    "seek_refused",
    403,
    "taking this seek: its player's rating range leaves you out, or it is your own",
)
SEEK_NEEDS_GROUP = SOCIAL.entry(
    "seek_needs_group",
    409,
    "a seek for more than two players is not taken alone: post a seek like it to be grouped",
)

CHAT = Section("Chat")
NOT_IN_CHAT = CHAT.entry(
    "not_in_chat",
    403,
    "not a channel of yours: the players' chat takes a seat still held, the spectators' chat "
    "is for those watching the game without one",
)
CHAT_DISABLED = CHAT.entry(
    "chat_disabled", 409, "writing while your own chat is off (`me_chat_update`): turn it on"
)
CHAT_MUTED = CHAT.entry(
    "chat_muted", 403, "the moderators muted you from chat until `details.until`"
)
CANNOT_MUTE_YOURSELF = CHAT.entry("cannot_mute_yourself", 400, "muting yourself")

SPECTATORS = Section("Spectators")
SPECTATORS_FRIENDS_ONLY = SPECTATORS.entry(
    "spectators_friends_only", 403, "the host lets only their friends watch this game"
)
SEATED_NOT_SPECTATOR = SPECTATORS.entry(
    "seated_not_spectator", 409, "you play in this game: open it as a player, not to watch"
)

MODERATION = Section("Blocks, reports and moderators")
JOIN_REFUSED = MODERATION.entry(
    "join_refused",
    403,
    "a block between you and a seated player keeps you out of this private game",
)
CANNOT_BLOCK_YOURSELF = MODERATION.entry("cannot_block_yourself", 400, "blocking yourself")
CANNOT_REPORT_YOURSELF = MODERATION.entry("cannot_report_yourself", 400, "reporting yourself")
PLAYER_NOT_IN_GAME = MODERATION.entry(
    "player_not_in_game", 400, "the reported player has no seat in `game_id`"
)
REASON_REQUIRED = MODERATION.entry(
    "reason_required", 400, "a moderator's action without a reason for the audit log"
)
UNTIL_REQUIRED = MODERATION.entry(
    "until_required", 400, "a suspension (or a mute from chat) without an end date"
)
INVALID_UNTIL = MODERATION.entry(
    "invalid_until", 400, "a suspension's (or a mute from chat's) end that is not in the future"
)
NOT_ALLOWED = MODERATION.entry(
    "not_allowed",
    403,
    "a moderator sanctioning their own account, or (unless an administrator) a staff account",
)
SEATED_MODERATOR = MODERATION.entry(
    "seated_moderator", 403, "a moderator who plays in the game: another moderator must handle it"
)
NO_TURN = MODERATION.entry("no_turn", 409, "timing out a turn in a game that has none")
NOT_RESTRICTED = MODERATION.entry(
    "not_restricted", 409, "lifting a sanction from a player who is not suspended or banned"
)
REPORT_CLOSED = MODERATION.entry(
    "report_closed", 409, "acting on a report that has been closed already"
)
CONFLICT = MODERATION.entry("conflict", 409, "a concurrent change got there first: try again")
NOT_RATED = MODERATION.entry(
    "not_rated", 409, "voiding the rating changes of a game that is not a finished rated one"
)
ALREADY_VOIDED = MODERATION.entry(
    "already_voided", 409, "voiding a game whose rating changes are voided already"
)


# The rules' refusals: a well-formed action the rules refuse now answers 422 with the engine's
# code. Three of the codes are the service's own too, at another status: ``invalid_action`` and
# ``invalid_setup`` (400) for a body that is no action or no setup of the game at all (the
# engine's parsing of an action and of options refuses with those two only), and ``game_over``
# (409) once the game row has ended.
RULES_STATUS = 422
RULES = Section(
    "The rules (422 from `games/{id}/actions/`)",
    "The engine's codes, from `games/engine/errors.py`; [rules.md](rules.md#error-codes) says "
    "exactly when each applies.",
)
_RULES_MEANINGS = {
    "not_your_turn": "a turn action from a seat whose turn it is not",
    "card_not_in_hand": "that card is not in your hand",
    "target_required": "the card, choice or catch needs a `target`",
    "target_not_allowed": "the card takes no `target` here",
    "invalid_target": "yourself, a seat that does not exist or has left",
    "target_protected": "Force Swap at a player holding one card with `force_swap_protection` on",
    "draw_not_allowed": "the `mattel_2021` preset forbids drawing now",
    "nothing_to_draw": "the draw pile is empty and nothing can be reshuffled",
    "must_play_drawn_card_or_pass": "you already drew: play that card or pass",
    "pass_not_allowed": "passing without having drawn",
    "nothing_drawn": "`play_drawn` without having drawn",
    "choice_pending": "choose the target (or colour) the card on the table asks for first",
    "no_choice_pending": "`choose_target` (or `choose_colour`) with no open choice",
    "uno_not_allowed": "UNO when not holding exactly one card, or said already",
    "nothing_to_catch": "that seat is not catchable",
    "round_over": "the round is being scored",
    "round_in_progress": "(system actions only)",
    "game_over": "the match is over (`game_over` is 409 when the game itself is over)",
    "not_in_round": "your seat has left the game",
    "invalid_action": (
        "a malformed action the rules catch (400 when caught before the engine runs)"
    ),
    "invalid_setup": "(game creation only, where it is 400)",
    "house_rule_off": (
        "`play_pair`, `play_top` or `mercy` in a game without double down, blind play or mercy"
    ),
    "stack_pending": "a voluntary draw while a stack is owed: stack a draw card or `take_stack`",
    "not_stackable": (
        "that card (or pair) cannot answer the stack: a Draw 2 or Draw 4 on a Draw 2, only a "
        "Draw 4 on a Draw 4"
    ),
    "no_stack": "`take_stack` with no stack owed",
    "hand_face_down": (
        "blind play: choosing cards (`play`, `play_pair`, `mercy` with `cards`) from a "
        "face-down hand"
    ),
    "not_a_pair": "`play_pair` with two cards that are not alike, or one card twice",
    "wrong_card_count": (
        "`play_pair` without exactly two cards, `mercy` without five different cards"
    ),
    "mercy_not_allowed": (
        "mercy with fewer than 15 cards, or used already since the hand last held fewer than 15"
    ),
    "colour_required": "(Uno Splash, No Mercy) a wild names the colour it sets",
    "colour_not_allowed": (
        "(Uno Splash, No Mercy) a colour named by a card or action that names none"
    ),
    "card_not_playable": (
        "(Uno Splash, No Mercy) the card matches neither the colour in force nor the top card"
    ),
    "response_required": "(Uno Splash) a Wild Draw Four waits: accept or challenge it first",
    "challenge_not_allowed": (
        "(Uno Splash) only the next player challenges a Wild Draw Four, and only then"
    ),
    "offer_pending": "(Gin Rummy) the upcard offer comes first: take the upcard or pass",
    "no_offer": "(Gin Rummy) the upcard offer is over",
    "must_draw_stock": "(Gin Rummy) both passed the upcard: the non-dealer draws from the stock",
    "card_just_taken": "(Gin Rummy) the card taken from the discard pile stays this turn",
    "discard_take_limit": "(Gin Rummy) the loop guard: only the stock may be drawn now",
    "knock_not_allowed": "(Gin Rummy) the ten kept cards would leave more than 10 deadwood",
    "big_gin_not_allowed": "(Gin Rummy) the eleven cards do not all meld",
}
for _code, _meaning in _RULES_MEANINGS.items():
    RULES.entry(_code, RULES_STATUS, _meaning)
BY_RULE: dict[str, ErrorCode] = {error.code: error for error in RULES.entries}

SECTIONS = (ANY, ACCOUNTS, NOTIFICATIONS, GAMES, SOCIAL, CHAT, SPECTATORS, MODERATION, RULES)
# The service's own entries (the rules' are RULES.entries).
SERVICE: tuple[ErrorCode, ...] = tuple(e for s in SECTIONS if s is not RULES for e in s.entries)


def refused_by_rules(code: str) -> ErrorCode:
    """The entry of a refusal by the rules. A game registered at run time (the tests' toy
    games) may refuse with a code of its own: at the rules' status all the same."""
    return BY_RULE.get(code) or ErrorCode(code, RULES_STATUS, "the rules refuse the action")


def markdown() -> str:
    """docs/api.md's tables of the codes, one per section."""
    lines: list[str] = []
    for section in SECTIONS:
        lines += ["", f"### {section.title}", ""]
        if section.intro:
            lines += [section.intro, ""]
        if section is RULES:
            lines += ["| Code | Meaning |", "| --- | --- |"]
            lines += [f"| `{e.code}` | {e.meaning} |" for e in section.entries]
        else:
            lines += ["| Code | Status | Meaning |", "| --- | --- | --- |"]
            lines += [f"| `{e.code}` | {e.status} | {e.meaning} |" for e in section.entries]
    return "\n".join([BEGIN, *lines[1:], "", END])


BEGIN = (
    "<!-- The tables below are generated from config/error_codes.py: "
    "python -m config.error_codes docs/api.md -->"
)
END = "<!-- End of the generated tables. -->"


def write_docs(path: Path) -> None:
    """Replace the generated tables in ``path`` (docs/api.md) by the list's."""
    text = path.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    path.write_text(text[:start] + markdown() + text[end:])


if __name__ == "__main__":
    write_docs(Path(sys.argv[1]))
