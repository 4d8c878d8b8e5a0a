"""Lobbies: create, join, leave, start, invite codes, expiry and rematches."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from config import error_codes as codes
from config.errors import ServiceError
from games import signals
from games.engine import EngineError, registry
from games.kinds import registry as kinds
from games.models import Game, Seat
from games.services import base
from games.services.base import (
    DEFAULT_SPEED_SECONDS,
    DEFAULT_TURN_SECONDS,
    MAX_SPEED_SECONDS,
    MAX_TURN_SECONDS,
    MIN_SPEED_SECONDS,
    MIN_TURN_SECONDS,
    announce_to,
    bump_version,
    check_host,
    check_lobby,
    lock_game,
    rules_of,
    seat_of_user,
)
from games.services.play import apply_action, bots_leave_alone, save_state
from players.models import User


def _lobby_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "LOBBY_TTL_SECONDS", 7 * 24 * 3600))


def _invite_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "INVITE_TTL_SECONDS", 7 * 24 * 3600))


# Seats in a new game when the host names none, as far as the game allows (Gin Rummy: 2).
DEFAULT_SEATS = 4


def default_seats(rules: Any) -> int:
    """The seats of a new game of ``rules`` (a registered game) when none are asked for."""
    return max(rules.min_players, min(DEFAULT_SEATS, rules.max_players))


def games_in_progress_max() -> int:
    return int(getattr(settings, "GAMES_IN_PROGRESS_MAX", 50))


def seats_in_progress() -> QuerySet[Seat]:
    """Seats in lobbies and games in progress: what the cap on games in progress counts."""
    return Seat.objects.filter(left_at__isnull=True, game__status__in=[Game.LOBBY, Game.ACTIVE])


def games_in_progress_of(user_ref: Any) -> Coalesce:
    """The count of ``check_games_in_progress`` as an expression over ``user_ref`` (an
    ``OuterRef`` to a user id), so that a read of many players (quick pairing's candidates)
    asks it of each in the same query."""
    counted = (
        seats_in_progress()
        .filter(user_id=user_ref)
        .order_by()
        .values("user_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted), 0)


def check_games_in_progress(user: User, *, seated: int | None = None) -> None:
    """Refuse a new seat to a player already in GAMES_IN_PROGRESS_MAX lobbies and games in
    progress: players with too many asynchronous games abandon them (Lichess caps correspondence
    games at 100, BGA at 21). The one check of every path to a seat: create, join, accept.
    ``seated``: the count, when the caller read it already (``games_in_progress_of``)."""
    limit = games_in_progress_max()
    if seated is None:
        seated = seats_in_progress().filter(user=user).count()
    if seated >= limit:
        raise ServiceError(
            codes.TOO_MANY_GAMES,
            f"You are already in {limit} games; finish or leave one first.",
            limit=limit,
        )


def create_game(
    *,
    host: User,
    kind: str = registry.DEFAULT_KIND,
    preset: str | None = None,
    max_players: int | None = None,
    target_score: int | None = None,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
    visibility: str = Game.PRIVATE,
    options: dict[str, bool] | None = None,
    rematch_of: Game | None = None,
    speed_seconds: int = DEFAULT_SPEED_SECONDS,
    rated: bool | None = None,
    spectating: str = Game.WATCH_PUBLIC,
    spectator_delay: int = 0,
) -> Game:
    """A new lobby with the host in the first seat. ``spectating`` and ``spectator_delay``: who
    may watch it being played, and how many moves behind (games/spectators.py).
    ``speed_seconds`` is the turn limit when the speed_mode house rule is on (``turn_seconds``
    is then unused). ``kind`` names the game (games.engine.registry); its preset, seats,
    target and options are checked by that game.
    ``rated`` (None: whenever allowed) asks for a rated game: the default preset and no house
    rule on, or ``rated_not_allowed``; bots never join one (``add_bot``)."""
    rules = _rules_of(kind)
    preset = rules.default_preset if preset is None else preset
    target_score = rules.default_target if target_score is None else target_score
    max_players = default_seats(rules) if max_players is None else max_players
    if preset not in rules.presets:
        raise ServiceError(codes.INVALID_SETUP, f"Unknown preset {preset!r}.")
    opts = _seats_and_options(rules, max_players, options)
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise ServiceError(
            codes.INVALID_SETUP,
            f"The turn time limit is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds.",
        )
    if not MIN_SPEED_SECONDS <= speed_seconds <= MAX_SPEED_SECONDS:
        raise ServiceError(
            codes.INVALID_SETUP,
            f"The speed mode turn limit is {MIN_SPEED_SECONDS} to {MAX_SPEED_SECONDS} seconds.",
        )
    rated = _rated(rules.default_preset, preset, opts, rated, bot_host=host.is_bot)
    now = timezone.now()
    with transaction.atomic():
        check_games_in_progress(host)
        game = Game.objects.create(
            host=host,
            kind=rules.kind,
            preset=preset,
            options=opts,
            max_players=max_players,
            target_score=target_score,
            turn_seconds=turn_seconds,
            speed_seconds=speed_seconds,
            visibility=visibility,
            invite_expires_at=now + _invite_ttl(),
            lobby_expires_at=now + _lobby_ttl(),
            rematch_of=rematch_of,
            rated=rated,
            spectating=spectating,
            spectator_delay=spectator_delay,
        )
        Seat.objects.create(game=game, user=host)
        # The host's other tabs and devices list it at once.
        announce_to([host.pk])
    return game


def _rated(
    default_preset: str,
    preset: str,
    options: dict[str, Any],
    rated: bool | None,
    *,
    bot_host: bool = False,
) -> bool:
    """Whether a new game is rated: one rating pool per game compares like with like, so only
    the game as its rulebook has it, and ratings compare people, so never a game a bot
    account hosts (docs/ratings.md)."""
    if rated and bot_host:
        raise ServiceError(
            codes.RATED_NOT_ALLOWED, "A rated game is played by people, not by a bot account."
        )
    allowed = preset == default_preset and not any(options.values()) and not bot_host
    if rated and not allowed:
        raise ServiceError(
            codes.RATED_NOT_ALLOWED,
            "A rated game uses the game's default preset and no house rules.",
        )
    return allowed if rated is None else rated


def _may_join_without_code(game: Game, user: User) -> bool:
    if game.visibility == Game.PUBLIC:
        return True
    original = game.rematch_of
    return original is not None and original.seats.filter(user=user).exists()


def join_game(*, user: User, game_id: Any = None, invite_code: str | None = None) -> Game:
    """Take a seat in a lobby: public games by id, private ones by invite code.

    The game starts by itself when the last seat is taken.
    """
    with transaction.atomic():
        if invite_code is not None:
            found = Game.objects.filter(invite_code=invite_code).values_list("pk", flat=True)
            if not found:
                raise ServiceError(codes.INVALID_INVITE, "This invite code does not exist.")
            game = lock_game(found[0])
            # Starting a game ends its invite, but a started game is not an expired invite:
            # "expired" sends the player to ask the host for a new code, which cannot exist.
            if game.started_at is not None:
                raise ServiceError(codes.GAME_ALREADY_STARTED, "This game has already started.")
            if game.invite_expires_at and game.invite_expires_at <= timezone.now():
                raise ServiceError(codes.INVITE_EXPIRED, "This invite has expired.")
        else:
            game = lock_game(game_id)
            if not _may_join_without_code(game, user):
                # A private game is invisible without its code.
                raise ServiceError(codes.NOT_FOUND, "No such game.")
        seats = list(game.seats.select_related("user"))
        if any(seat.user_id == user.pk for seat in seats):
            raise ServiceError(codes.ALREADY_JOINED, "You already have a seat in this game.")
        # A full lobby starts at once, so "full" is checked first: it is the more useful answer.
        if len(seats) >= game.max_players:
            raise ServiceError(codes.GAME_FULL, "Every seat is taken.")
        if game.status != Game.LOBBY:
            raise ServiceError(codes.GAME_ALREADY_STARTED, "This game is no longer open.")
        if game.visibility == Game.PRIVATE:
            # Blocks are moderation's (a layer above): it refuses through the signal by raising
            # ServiceError("join_refused").
            signals.joining_private_game.send(sender=Game, game=game, seats=seats, user=user)
        check_games_in_progress(user)
        Seat.objects.create(game=game, user=user)
        # The other players hear of the new version; the joiner's other tabs, of a new game.
        announce_to([user.pk])
        bump_version(game)
        changed = ["version"]
        if game.rated and user.is_bot:
            # Ratings compare people (docs/ratings.md): a bot account's seat makes the lobby
            # unrated at once and for good, as a house bot does, so that every list shows it.
            game.rated = False
            changed.append("rated")
        game.save(update_fields=changed)
        if len(seats) + 1 == game.max_players:
            deal_first_round(game)
    return game


def leave_game(*, user: User, game_id: Any) -> Game:
    """Leave a lobby (the seat is freed) or a game in progress (the engine's ``leave``)."""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seats.select_related("user"))
        seat = seat_of_user(game, user, seats)
        if game.status == Game.LOBBY:
            seat.delete()
            # Bots wait for people: a lobby with bots only closes.
            rest = sorted((s for s in seats if s.pk != seat.pk and not s.is_bot), key=_joined)
            if not rest:
                game.status = Game.EXPIRED
                game.finished_at = timezone.now()
            elif game.host_id == user.pk:
                game.host = rest[0].user  # the longest-waiting player hosts from now on
            bump_version(game)
            game.save()
        elif game.status == Game.ACTIVE:
            if seat.left_at is not None:
                raise ServiceError(codes.NOT_IN_GAME, "You have already left this game.")
            seat.left_at = timezone.now()
            seat.save(update_fields=["left_at"])
            leave = rules_of(game).leave_action(seat.position)
            apply_action(game, leave, seat=None, seats=seats)
            bots_leave_alone(game, seats)
        else:
            raise ServiceError(codes.GAME_OVER, "This game is over.")
    return game


def _joined(seat: Seat) -> datetime:
    return seat.joined_at


def start_game(*, user: User, game_id: Any) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        seat_of_user(game, user)
        check_lobby(game)
        check_host(game, user, "start the game")
        if game.seats.count() < 2:
            raise ServiceError(codes.NOT_ENOUGH_PLAYERS, "A game needs at least 2 players.")
        deal_first_round(game)
    return game


def deal_first_round(game: Game) -> None:
    """Shuffle the seat order, deal round 1. Caller holds the game lock."""
    seats = list(game.seats.select_related("user"))
    base.new_rng().shuffle(seats)
    for position, seat in enumerate(seats):
        seat.position = position
    Seat.objects.bulk_update(seats, ["position"])
    _deal(game, seats)


def _deal(game: Game, seats: list[Seat]) -> None:
    """Deal round 1 to ``seats`` (positions set and saved) and start the game. Caller holds the
    game lock (or made the game in its own transaction)."""
    state, events = rules_of(game).new_game(
        players=len(seats),
        rng=base.new_rng(),
        preset=game.preset,
        options=game.options,
        target_score=game.target_score,
    )
    game.status = Game.ACTIVE
    game.started_at = timezone.now()
    game.invite_expires_at = game.started_at  # the invite link dies with the lobby
    save_state(game, state, {"type": "start"}, None, events, seats)
    signals.game_started.send(sender=Game, game=game, seats=seats)


def start_game_with(
    *, players: list[User], kind: str, options: dict[str, bool], rated: bool
) -> Game:
    """A private game of ``kind`` for exactly ``players`` (quick pairing's group), started at
    once with the game's default preset, target and turn time: the first player hosts, the seat
    order is shuffled. The caller has checked, under its own locks, what ``create_game`` and
    ``join_game`` would check on the way: the settings (``check_settings``), each player's cap
    (``games_in_progress_of``) and blocks between them. Making the lobby and joining it seat by
    seat would ask all that again and cost a dozen statements a player; this is two (the game,
    its seats) before the deal (docs/performance.md, "Quick pairing"). Inside a caller's
    transaction it takes no savepoint of its own: a failure rolls the caller's back too."""
    rules = _rules_of(kind)
    now = timezone.now()
    order = list(players)
    base.new_rng().shuffle(order)
    with transaction.atomic(savepoint=False):
        game = Game.objects.create(
            host=players[0],
            kind=rules.kind,
            preset=rules.default_preset,
            options=options,
            max_players=len(players),
            target_score=rules.default_target,
            turn_seconds=DEFAULT_TURN_SECONDS,
            speed_seconds=DEFAULT_SPEED_SECONDS,
            visibility=Game.PRIVATE,
            invite_expires_at=now,  # never joined by code: its seats are all taken
            lobby_expires_at=now + _lobby_ttl(),
            rated=rated,
        )
        seats = Seat.objects.bulk_create(
            [Seat(game=game, user=user, position=i, joined_at=now) for i, user in enumerate(order)]
        )
        # Every player's "My games" lists it at once.
        announce_to(user.pk for user in players)
        _deal(game, seats)
    return game


def regenerate_invite(*, user: User, game_id: Any) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        seat_of_user(game, user)
        check_host(game, user, "renew the invite")
        check_lobby(game)
        game.invite_code = secrets.token_urlsafe(12)
        game.invite_expires_at = timezone.now() + _invite_ttl()
        bump_version(game)
        game.save(update_fields=["invite_code", "invite_expires_at", "version"])
    return game


def expire_lobbies(*, now: Any = None) -> int:
    """Close lobbies that never started. Returns how many were closed."""
    now = now or timezone.now()
    # The version moves too, so clients polling with If-None-Match see the lobby close.
    return Game.objects.filter(status=Game.LOBBY, lobby_expires_at__lte=now).update(
        status=Game.EXPIRED, finished_at=now, version=F("version") + 1
    )


def _out_for_good(game: Game, seat: Seat) -> bool:
    """Whether ``seat`` is out of a game that goes on without it and will never deal it in
    again: knocked out of a one-round game (No Mercy), its place already decided. Such a player
    may start the rematch at once instead of watching the others finish."""
    out = kinds.adapter_of(game.kind).out_for_good
    if out is None or game.status != Game.ACTIVE or game.target_score or seat.left_at:
        return False
    return out(rules_of(game).state_from_dict(game.state), seat.position)


# The settings a rematch keeps (create_game's arguments, the Game's fields of the same names).
REMATCH_COPIES = (
    "kind",
    "preset",
    "target_score",
    "turn_seconds",
    "speed_seconds",
    "options",
    "rated",
    "spectating",
    "spectator_delay",
)


def rematch(*, user: User, game_id: Any) -> Game:
    """A new game with the same settings and bots that the finished game's players may join by
    id (or that a player knocked out of a one-round game may make before it ends). The bots
    take their seats again (same names and levels), so a game against the computer alone is
    full at once and starts: "Play again" is one tap to the next deal. With other people it
    is a lobby that starts when the last of them joins (or the host starts it)."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_of_user(game, user)
        if game.status != Game.FINISHED and not _out_for_good(game, seat):
            raise ServiceError(codes.GAME_NOT_FINISHED, "A rematch needs a finished game.")
        existing = game.rematches.filter(status__in=[Game.LOBBY, Game.ACTIVE]).first()
        if existing is not None:
            if not existing.seats.filter(user=user).exists():
                return join_game(user=user, game_id=existing.pk)
            return existing
        new = create_game(
            host=user,
            max_players=game.seats.count(),
            visibility=Game.PRIVATE,
            rematch_of=game,
            **{name: getattr(game, name) for name in REMATCH_COPIES},
        )
        new = _seat_bots_again(new, game)
        if new.status == Game.ACTIVE:
            return new
        # The other players of the finished game are invited: they may join it by its id. Not
        # those the lobby would refuse (moderation: the host blocked them); for them it is
        # declined from the start, so it never shows as an invitation they cannot take.
        seated = list(new.seats.select_related("user"))
        invited, refused = [], []
        for seat in game.seats.select_related("user"):
            if seat.user is None or seat.user_id == user.pk:
                continue
            try:
                signals.joining_private_game.send(
                    sender=Game, game=new, seats=seated, user=seat.user
                )
            except ServiceError:
                refused.append(seat.user)
            else:
                invited.append(seat.user)
        new.declined_by.add(*refused)
        for player in invited:
            signals.player_invited.send(sender=Game, user=player, game=new, by=user)
        # Their "My games" lists the invitation within a second (``selectors.invitations``).
        announce_to(player.pk for player in invited)
        return new


def _seat_bots_again(new: Game, old: Game) -> Game:
    """``new`` with the finished game's bots seated again, started when that fills it (its
    only person is the host). Caller holds transaction.atomic(), in which ``new`` was made. A
    person's seat that a bot played for them stays theirs: only the seat fillers come back."""
    bots = [s for s in old.seats.all() if s.is_bot and s.user_id is None]
    if not bots:
        return new
    game = lock_game(new.pk)
    Seat.objects.bulk_create(
        Seat(game=game, bot_level=seat.bot_level, bot_name=seat.bot_name)
        for seat in sorted(bots, key=_by_position)
    )
    # The finished game had bots, so it was unrated, and so is ``new`` (``add_bot``).
    if len(bots) + 1 == game.max_players:
        deal_first_round(game)
    return game


def _by_position(seat: Seat) -> int:
    return -1 if seat.position is None else seat.position


def decline_invitation(*, user: User, game_id: Any) -> None:
    """Say no to a rematch one is invited to: it leaves one's invitations (and the badge). One may
    still join it by id while it waits, e.g. on second thoughts from the finished game."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.rematch_of_id is None or not _may_join_without_code(game, user):
            # Only a rematch invites; any other game is invisible here, as in join_game.
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        if game.seats.filter(user=user).exists():
            raise ServiceError(codes.ALREADY_JOINED, "You already have a seat in this game.")
        if game.status != Game.LOBBY:
            raise ServiceError(codes.GAME_ALREADY_STARTED, "This game is no longer open.")
        game.declined_by.add(user)
        announce_to([user.pk])


def check_settings(
    *, kind: str, max_players: int, options: dict[str, bool] | None, rated: bool | None
) -> tuple[dict[str, bool], bool]:
    """What ``create_game`` would make of these settings with the game's default preset, before
    any game exists (quick pairing's seeks are checked when posted, their game made later): the
    house rules as the game reads them, and whether it is rated. Raises ``create_game``'s codes."""
    rules = _rules_of(kind)
    opts = _seats_and_options(rules, max_players, options)
    return opts, _rated(rules.default_preset, rules.default_preset, opts, rated)


def _rules_of(kind: str) -> Any:
    try:
        return registry.get_game(kind)
    except EngineError as exc:
        raise ServiceError(codes.INVALID_SETUP, f"Unknown game {kind!r}.") from exc


def _seats_and_options(rules: Any, max_players: int, options: dict[str, bool] | None) -> Any:
    """The seats and house rules a game takes (else ``invalid_setup``), as it reads them."""
    if not rules.min_players <= max_players <= rules.max_players:
        raise ServiceError(
            codes.INVALID_SETUP,
            f"A game has {rules.min_players} to {rules.max_players} seats.",
        )
    try:
        return rules.validate_options(options or {})
    except EngineError as exc:
        raise ServiceError(codes.INVALID_SETUP, exc.message) from exc
