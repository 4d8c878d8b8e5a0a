"""The transactional outbox: notifications a move causes, written in the move's transaction.

``record_move`` is called by ``games.services`` inside the transaction that saves a move, with
the game row locked. It only writes rows (no network, no broker): delivery happens after commit,
by the relay. Because the rows commit or roll back with the move, the inbox gets each
notification exactly once; a move that fails leaves none.

Which events notify whom:

- the turn passed to another player → ``your_turn`` for the player now to move;
- ``caught`` → the caught player; a draw for a Targeted Draw 2 → its victim (``targeted``);
  ``swap`` → the other hand's owner (``swapped``); ``timeout`` → the player who timed out;
- a game's start → ``game_started`` for every player; ``bot_took_over`` → the seat's owner
  (``seat_taken_over``): both for the account event stream only (``kinds.STREAM_ONLY``);
- ``round_over`` → every player still in the game, unless the same move ends the match;
  ``match_over`` → every player still in the game.

Only public facts go into ``data`` (names and numbers): never a card that was drawn.

"Your turn" is one live notice per player and game (issue 21): every move withdraws the live
notices it makes moot (``cleared_at``) — the mover's (they acted), anyone's whose turn it no longer
is, and the next player's older one when a new one replaces it. Rows are never deleted here: a
notice that was already sent stays as history with its deliveries; a delivery still due is
skipped by the relay because its notice is cleared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import DateTimeField, F, Q, Value
from django.db.models.functions import Coalesce

from notifications import kinds as k
from notifications.models import Notification
from notifications.services import Planned, write

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.models import Game, Move, Seat
    from players.models import User

    # How plan_move's parts add a notice: at most one per (player, kind), the first one kept.
    Add = Callable[[User | None, str, dict[str, Any]], None]


def record_move(
    *,
    game: Game,
    move: Move,
    state: Any,  # the game's own state, as its kind's rules made it (unused: events suffice)
    events: list[dict[str, Any]],
    seats: list[Seat],
    turn_passed: bool,
) -> None:
    """Write the notification rows ``move`` causes. Caller holds the game lock."""
    planned = plan_move(game=game, move=move, events=events, seats=seats, turn_passed=turn_passed)
    # Before its start a game has no turns, so no "your turn" notice to withdraw.
    if move.action.get("type") != "start":
        clear_turn_notices(game=game, planned=planned, now=move.created_at)
    write(planned, game=game, now=move.created_at)


def clear_turn_notices(*, game: Game, planned: list[Planned], now: Any) -> int:
    """Withdraw the live "your turn" notices of ``game`` that this move makes moot: all but the
    one of the player now to move, and theirs too when ``planned`` replaces it. One UPDATE.
    Caller holds the game lock (so no other move writes a notice for this game meanwhile)."""
    live = Notification.objects.filter(game=game, kind=k.YOUR_TURN, cleared_at__isnull=True)
    current = game.current_user_id if game.status == game.ACTIVE else None
    replacing = any(p.kind == k.YOUR_TURN and p.user.pk == current for p in planned)
    if current is not None and not replacing:
        live = live.filter(~Q(user_id=current))
    # A cleared notice counts as read: it no longer waits for the player.
    return live.update(
        cleared_at=now, read_at=Coalesce(F("read_at"), Value(now, output_field=DateTimeField()))
    )


def plan_move(
    *,
    game: Game,
    move: Move,
    events: list[dict[str, Any]],
    seats: list[Seat],
    turn_passed: bool,
) -> list[Planned]:
    """The notifications of one move, at most one per (player, kind). No queries: the seats come
    with their users (``games.services`` loads them with ``select_related``)."""
    table = _Table(seats)
    out: dict[tuple[int, str], Planned] = {}

    def add(user: User | None, kind: str, data: dict[str, Any]) -> None:
        if user is None or (user.pk, kind) in out:
            return
        out[(user.pk, kind)] = Planned(user, kind, data, key=f"move:{move.pk}:{kind}:{user.pk}")

    match_over = any(e["type"] == "match_over" for e in events)
    # Speed mode: turns of a few seconds, played at the table. A "your turn" or "timed out"
    # message would arrive when that turn is already over: neither is sent.
    speed = bool(game.options.get("speed_mode"))
    last_actor: int | None = None  # the seat whose play or choice the following effects are
    for event in events:
        kind = event["type"]
        if kind in ("play", "target_chosen"):
            last_actor = event.get("seat")
        if kind == "caught":
            add(
                table.user(event["target"]),
                k.CAUGHT,
                {"by": table.name(event["seat"]), "cards": _caught_cards(events, event)},
            )
        elif kind == "draw" and event.get("reason") == "targeted_draw2":
            add(table.user(event["seat"]), k.TARGETED, {"by": table.name(last_actor)})
        elif kind == "bot_took_over":
            add(
                table.user(event["seat"]),
                k.SEAT_TAKEN_OVER,
                {"reason": event.get("reason"), "version": game.version},
            )
        elif kind == "swap":
            add(table.user(event["target"]), k.SWAPPED, {"by": table.name(event["seat"])})
        elif kind == "timeout" and not speed:
            user = table.user(event["seat"])
            add(user, k.TIMED_OUT, {"opponents": table.opponents(user)})
        elif kind == "round_over" and not match_over and event["winner"] is not None:
            # A drawn round (Gin Rummy's wall) has no winner to announce; the next deal's turn
            # notification follows as usual.
            _round_over(event, table, add)
        elif kind == "match_over":
            _match_over(event, table, add)

    if (move.action or {}).get("type") == "start":
        for _, user in table.players():
            add(user, k.GAME_STARTED, {"opponents": table.opponents(user), "version": game.version})
    waiting = game.status == game.ACTIVE and game.current_user_id is not None
    if turn_passed and not speed and waiting:
        _your_turn(game, move, table, add)
    return list(out.values())


def _round_over(event: dict[str, Any], table: _Table, add: Add) -> None:
    for position, user in table.players():
        add(
            user,
            k.ROUND_OVER,
            {
                "round": event["round"],
                "winner": table.name(event["winner"]),
                "you_won": position == event["winner"],
                "points": event["points"],
                "score": _score(event, position),
            },
        )


def _match_over(event: dict[str, Any], table: _Table, add: Add) -> None:
    winner = event.get("winner")
    for position, user in table.players():
        add(
            user,
            k.MATCH_OVER,
            {
                "winner": table.name(winner) if winner is not None else None,
                "you_won": winner is not None and position == winner,
                "place": table.place(position),
                "opponents": table.opponents(user),
            },
        )


def _your_turn(game: Game, move: Move, table: _Table, add: Add) -> None:
    mover = table.user(move.seat) if move.seat is not None else None
    # The mover who keeps the turn (a two-player Skip) is looking at the game already.
    if mover is None or mover.pk != game.current_user_id:
        current = table.user_by_id(game.current_user_id)
        add(
            current,
            k.YOUR_TURN,
            {
                "opponents": table.opponents(current),
                "deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
                # The version to act on (an app's ``expected_version``).
                "version": game.version,
            },
        )


def _caught_cards(events: list[dict[str, Any]], caught: dict[str, Any]) -> int:
    """How many cards the catch made the target draw (the count only: the cards are secret)."""
    index = events.index(caught)
    for event in events[index + 1 :]:
        if event["type"] == "draw" and event.get("reason") == "caught":
            return int(event.get("count", 2))
    return 2


def _score(event: dict[str, Any], position: int) -> int | None:
    scores = event.get("scores") or []
    return scores[position] if position < len(scores) else None


class _Table:
    """The seats of a game by engine position, with their players' public names."""

    def __init__(self, seats: list[Seat]) -> None:
        self._seats = {s.position: s for s in seats if s.position is not None}

    def user(self, position: int | None) -> User | None:
        seat = self._seats.get(position) if position is not None else None
        return seat.user if seat is not None and seat.user_id is not None else None

    def user_by_id(self, user_id: int) -> User | None:
        return next((s.user for s in self._seats.values() if s.user_id == user_id and s.user), None)

    def name(self, position: int | None) -> str | None:
        user = self.user(position)
        return user.public_name if user is not None else None

    def players(self) -> list[tuple[int, User]]:
        """Positions and users of the players still at the table (not left), in seat order."""
        return [
            (position, seat.user)
            for position, seat in sorted(self._seats.items())
            if seat.user is not None and seat.left_at is None
        ]

    def opponents(self, user: User | None) -> list[str]:
        return [u.public_name for _, u in self.players() if user is None or u.pk != user.pk]

    def place(self, position: int) -> int | None:
        seat = self._seats.get(position)
        return seat.place if seat is not None else None
