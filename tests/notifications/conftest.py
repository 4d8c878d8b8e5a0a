"""Shared setup for the notification tests: personas with verified e-mail addresses (so e-mail
deliveries are written for them), games started through the services, and helpers to read what
the relay delivered.

The personas are alice, bob, carol and dave (``tests.games.conftest.Player``: user, bearer-token
client). Moves go through ``games.services`` in most tests, so each test controls when the relay
runs: pytest-django's transactions never commit, hence on-commit relays never fire unless a test
asks with ``django_capture_on_commit_callbacks(execute=True)``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest
from django.core import mail
from time_machine import TimeMachineFixture

from games import services
from games.engine.uno.allwild.game import ALL_WILD as engine
from games.engine.uno.state import State
from games.models import Game, Seat
from notifications import channels
from notifications.channels.base import Channel, Message
from notifications.kinds import STREAM_ONLY
from notifications.models import Delivery, Notification
from players.models import User
from tests.games.conftest import Player, make_player, persona_fixture
from tests.notifications.dns import dns  # noqa: F401  (fixture)

# A fixed, ordinary moment (a Tuesday, 12:00 UTC) so that quiet hours are never hit by accident.
NOON = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def persona(name: str, **fields: Any) -> Player:
    player = make_player(name)
    fields.setdefault("email", f"{name}@example.com")
    fields.setdefault("email_verified", True)
    for field, value in fields.items():
        setattr(player.user, field, value)
    player.user.save()
    return player


alice = persona_fixture("alice", persona)
bob = persona_fixture("bob", persona)
carol = persona_fixture("carol", persona)
dave = persona_fixture("dave", persona)


@pytest.fixture
def clock(time_machine: TimeMachineFixture) -> TimeMachineFixture:
    """Time stands still at NOON until the test moves it (``clock.move_to(...)``)."""
    time_machine.move_to(NOON, tick=False)
    return time_machine


@pytest.fixture(autouse=True)
def seeded_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 1 opens on a plain Wild: the first player simply takes a turn, no opening choice.
    rng = random.Random(1)
    monkeypatch.setattr(services.base, "new_rng", lambda: rng)


def new_game(*players: Player, **options: Any) -> Game:
    """A started game of ``players`` (the first hosts), through the services."""
    options.setdefault("target_score", 100_000)
    options.setdefault("turn_seconds", 3600)
    host, *others = players
    game = services.create_game(host=host.user, max_players=len(players), **options)
    for other in others:
        services.join_game(user=other.user, invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    # An opening card that needs a target waits for its chooser: settle it, so every test starts
    # on a plain turn.
    state = State.from_dict(game.state)
    while state.pending:
        chooser = Seat.objects.select_related("user").get(game=game, position=state.pending["seat"])
        action = next(a for a in engine.legal_actions(state, chooser.position))
        services.act(
            user=chooser.user,
            game_id=game.pk,
            action={k: v for k, v in action.to_dict().items() if k != "seat"},
            expected_version=None,
        )
        game.refresh_from_db()
        state = State.from_dict(game.state)
    return game


def seat_of(game: Game, player: Player) -> int:
    position = Seat.objects.get(game=game, user=player.user).position
    assert position is not None
    return position


def to_move(game: Game, *players: Player) -> Player:
    game.refresh_from_db()
    return next(p for p in players if p.user.pk == game.current_user_id)


def others(game: Game, *players: Player) -> list[Player]:
    mover = to_move(game, *players)
    return [p for p in players if p is not mover]


def started(*players: Player, **options: Any) -> tuple[Game, Player, list[Player]]:
    """A new game of ``players`` (``new_game``), the player to move in it, and the others."""
    game = new_game(*players, **options)
    return game, to_move(game, *players), others(game, *players)


def act(player: Player, game: Game, **action: Any) -> Game:
    return services.act(
        user=player.user, game_id=game.pk, action=action, expected_version=None
    ).game


def pass_turn(player: Player, game: Game) -> None:
    """Draw, then pass: the plainest way to hand the turn on."""
    act(player, game, type="draw")
    state = State.from_dict(Game.objects.get(pk=game.pk).state)
    if state.phase == "drawn":
        act(player, game, type="pass")


def your_turn_for(waiting: Player, *players: Player) -> Game:
    """A new game of ``players`` in which it is ``waiting``'s turn; of its notifications only
    that one "your turn" (and its delivery) is kept."""
    game = new_game(*players)
    while to_move(game, *players) is not waiting:
        pass_turn(to_move(game, *players), game)
    latest = Notification.objects.filter(game=game, user=waiting.user, kind="your_turn").latest(
        "pk"
    )
    Notification.objects.filter(game=game).exclude(pk=latest.pk).delete()
    return game


def inbox(user: User | Player, kind: str | None = None) -> list[Notification]:
    if isinstance(user, Player):
        user = user.user
    # The account event stream's own kinds are no inbox notices.
    rows = Notification.objects.filter(user=user).exclude(kind__in=STREAM_ONLY).order_by("pk")
    if kind is not None:
        rows = rows.filter(kind=kind)
    return list(rows)


def kinds_of(user: User | Player) -> list[str]:
    return [n.kind for n in inbox(user)]


def mails_to(player: Player) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if player.user.email in m.to]


def deliveries(player: Player, kind: str | None = None) -> list[Delivery]:
    rows = Delivery.objects.filter(notification__user=player.user).order_by("pk")
    if kind is not None:
        rows = rows.filter(notification__kind=kind)
    return list(rows)


def clear_outbox() -> None:
    """Forget what was written so far (inbox and outbox), e.g. the start's "your turn"."""
    Notification.objects.all().delete()
    mail.outbox.clear()


class PushSpy(Channel):
    """A stand-in for Web Push: what the relay hands a push channel (``sent``); the first
    ``failures`` sends fail, as they do while a push service is down."""

    name = "pushspy"
    default_kinds: ClassVar[Collection[str]] = ("your_turn", "caught")
    skip_while_watching = True

    def __init__(self) -> None:
        self.sent: list[Message] = []
        self.failures = 0

    def reachable(self, user: Any) -> bool:
        return True

    def send(self, message: Message) -> None:
        self.sent.append(message)
        if self.failures:
            self.failures -= 1
            raise ConnectionError("push service unavailable")


@pytest.fixture
def push() -> Iterator[PushSpy]:
    spy = channels.register(PushSpy())
    yield spy
    channels.unregister(spy.name)
