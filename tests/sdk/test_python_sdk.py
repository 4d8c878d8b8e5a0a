"""The Python SDK (sdk/python: the client openapi-python-client generates from openapi.yaml,
and the thin ``cardgames_sdk``) plays every game to the end against a live server: two players,
each driven by nothing but its account event stream, act with ``expected_version`` and an
``Idempotency-Key``; one player's stream is cut mid-game and resumed from its last id. Each
event is its kind's generated model (the schema's ``AccountEvent`` is a union by ``kind``)."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import pytest
from django.test import override_settings

from tests.sdk.conftest import KINDS, Account, sign_up

TIME_LIMIT_SECONDS = 240
MAX_ACTIONS = 3000


def choose(view: Any, rng: random.Random) -> Any | None:
    """A listed turn action: finish (knock, gin) when possible, else play a card."""
    from cardgames_sdk import turn_actions

    actions = [a for a in turn_actions(view) if not type(a).__name__.endswith("Template")]
    if not actions:
        return None
    finishing = [a for a in actions if a.type_ in ("knock", "big_gin")]
    if finishing:
        return finishing[-1]
    discards = [a for a in actions if a.type_ == "discard"]
    if discards:  # Gin Rummy: throw the heaviest deadwood, or the game runs to the wall
        values = {card.id: card.value for card in view.table.hand}
        heavy = [a for a in discards if a.card in set(view.table.deadwood)]
        return max(heavy or discards, key=lambda a: values[a.card])
    plays = [a for a in actions if a.type_ in ("play", "play_drawn")]
    chosen = rng.choice(plays if plays else actions)
    hand = getattr(view.table, "hand", None)
    if hasattr(chosen, "uno") and hand is not None and len(hand) == 2:
        chosen.uno = True
    return chosen


class Seat(threading.Thread):
    """One player: reads its event stream and acts in the game whenever the stream (or its own
    last move's answer) says it is its turn, until the game is over. With ``cut_after``, the
    stream is dropped after that many events and resumed from the last id received."""

    def __init__(self, base_url: str, account: Account, after: int, cut_after: int = 0) -> None:
        super().__init__(daemon=True)
        from cardgames_sdk import CardGames

        self.api = CardGames(base_url, account.token)
        self.after = after
        self.cut_after = cut_after
        self.game_id: Any = None
        self.ready = threading.Event()
        self.received: list[int] = []
        self.kinds: set[str] = set()
        self.opponents: list[str] = []
        self.actions = 0
        self.final: Any = None
        self.error: BaseException | None = None
        self.rng = random.Random(len(account.username))

    def play(self) -> None:
        view = self.api.game(self.game_id)
        while (action := choose(view, self.rng)) is not None:
            view = self.api.act(self.game_id, action, expected_version=view.version)
            self.actions += 1
            assert self.actions < MAX_ACTIONS
        if str(view.status) == "finished":
            self.final = view

    def handle(self, event: Any) -> bool:
        """Whether the game is over for this player."""
        self.received.append(event.id)
        self.kinds.add(str(event.kind))
        # Each kind its own generated model (the schema's union), its data typed.
        assert type(event).__name__ == f"{str(event.kind).title().replace('_', '')}AccountEvent"
        if str(event.game) == str(self.game_id):
            if str(event.kind) == "game_started":
                self.opponents = event.data.opponents
            if str(event.kind) in ("game_started", "your_turn"):
                self.play()
            if str(event.kind) == "match_over":
                self.final = self.api.game(self.game_id)
        return self.final is not None

    def run(self) -> None:
        try:
            self.ready.wait(30)
            if self.cut_after:
                stream = self.api.events(after=self.after, reconnect=False)
                for event in stream:
                    if self.handle(event) or len(self.received) >= self.cut_after:
                        break
                stream.close()  # the connection drops mid-game
            if self.final is None:
                resume_from = self.received[-1] if self.received else self.after
                self.play()  # what the stream said while it was away may have been a turn
                for event in self.api.events(after=resume_from):
                    if self.handle(event):
                        break
        except BaseException as exc:  # reported by the test's thread
            self.error = exc


# An event only this game logs: the generated client parses it into the game's own model.
OWN_EVENT = {
    "uno_all_wild": ("round_started", "UnoRoundStartedEvent"),
    "uno_splash": ("round_started", "UnoRoundStartedEvent"),
    "uno_no_mercy": ("round_started", "UnoRoundStartedEvent"),
    "gin_rummy": ("deal", "GinRummyDealEvent"),
}


def check_move_log(api: Any, game_id: Any, kind: str) -> None:
    """The whole move log, read through the generated client: every action and event parses
    into a model of the typed schema that gives back exactly what the server sent, the round's
    end with its revealed hands as a typed field. (The client tries a union's models in turn:
    a shape two games share, such as `pass`, may come as the first game's model.)"""
    from cardgames_client.api.games import games_events_list

    after, parsed = 0, []
    while True:
        response = games_events_list.sync_detailed(game_id, client=api.client, after=after)
        raw = json.loads(response.content)
        page = response.parsed
        assert [m.action.to_dict() for m in page.moves] == [m["action"] for m in raw["moves"]]
        for move, sent in zip(page.moves, raw["moves"], strict=True):
            assert [e.to_dict() for e in move.events] == sent["events"]
            parsed += move.events
        if not page.has_more:
            break
        after = page.next_after
    own_type, own_model = OWN_EVENT[kind]
    assert {type(e).__name__ for e in parsed if e.type_ == own_type} == {own_model}
    round_ends = [e for e in parsed if e.type_ == "round_over"]
    assert round_ends and all(e.hands.to_dict() == e.to_dict()["hands"] for e in round_ends)


def start_game(base_url: str, host: Account, guest: Account, kind: str) -> Any:
    """A private one-round game: the host creates it (with the default seats of two for the
    game), the guest joins by its code and it starts."""
    from cardgames_client.api.games import games_create, games_join_by_invite
    from cardgames_client.models import CreateGame, GameEnum, JoinByCode, VisibilityEnum
    from cardgames_sdk import CardGames

    lobby = CardGames(base_url, host.token).call(
        games_create,
        body=CreateGame(
            game=GameEnum(kind),
            max_players=2,
            target_score=0,
            visibility=VisibilityEnum.PRIVATE,
        ),
    )
    started = CardGames(base_url, guest.token).call(
        games_join_by_invite, body=JoinByCode(invite_code=lobby.invite_code)
    )
    assert str(started.status) == "active"
    return lobby.id


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lifted_game_throttles", "python_sdk")
@pytest.mark.parametrize("kind", KINDS)
def test_the_python_sdk_plays_a_game_to_the_end_from_the_event_stream(
    live_server: Any, kind: str
) -> None:
    from cardgames_sdk import CardGames

    alice, bob = sign_up(live_server.url, "alice"), sign_up(live_server.url, "bob")
    seats = []
    for account, cut in ((alice, 3), (bob, 0)):
        seats.append(
            Seat(
                live_server.url,
                account,
                CardGames(live_server.url, account.token).latest_event_id(),
                cut,
            )
        )
    with override_settings(LIVE_HEARTBEAT_SECONDS=0.5):
        for seat in seats:
            seat.start()
        game_id = start_game(live_server.url, alice, bob, kind)
        for seat in seats:
            seat.game_id = game_id
            seat.ready.set()
        deadline = time.monotonic() + TIME_LIMIT_SECONDS
        for seat in seats:
            seat.join(max(1.0, deadline - time.monotonic()))
    for seat in seats:
        assert seat.error is None, repr(seat.error)
        assert not seat.is_alive(), (
            "the game did not end in time",
            [(s.kinds, s.actions, s.received[-3:]) for s in seats],
            [choose(s.api.game(game_id), random.Random(0)) for s in seats],
        )
        assert seat.final is not None and str(seat.final.status) == "finished"
        # Each event once, in order, across the cut and the resumption.
        assert seat.received == sorted(set(seat.received)), seat.received
        assert "game_started" in seat.kinds
    assert [seat.opponents for seat in seats] == [["Bob"], ["Alice"]]
    final = seats[0].final
    check_move_log(seats[1].api, game_id, kind)
    assert sum(seat.actions for seat in seats) > 0
    assert sorted(p.place for p in final.players) == [1, 2]
    assert final.table.winner is not None


@pytest.mark.usefixtures("python_sdk")
def test_an_event_is_its_kinds_model_and_a_kind_newer_than_the_client_is_skipped() -> None:
    from cardgames_client.models import ChallengedAccountEvent, ChallengedData
    from cardgames_sdk import parse_event

    sent = {
        "id": 3,
        "kind": "challenged",
        "game": None,
        "version": None,
        "data": {"by": "Carol", "challenge": 7},
        "created_at": "2026-03-10T12:00:00+00:00",
    }
    event = parse_event(sent)
    assert isinstance(event, ChallengedAccountEvent) and isinstance(event.data, ChallengedData)
    assert event.data.challenge == 7 and event.to_dict() == sent
    assert parse_event({**sent, "kind": "tournament_round"}) is None
    with pytest.raises(ValueError):  # a known kind whose data does not parse is not skipped
        parse_event({**sent, "data": {"by": "Carol"}})


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lifted_game_throttles", "python_sdk")
def test_an_action_retried_with_its_key_is_answered_once_and_a_stale_version_is_refused(
    live_server: Any,
) -> None:
    from cardgames_sdk import ApiError, CardGames

    alice, bob = sign_up(live_server.url, "alice"), sign_up(live_server.url, "bob")
    game_id = start_game(live_server.url, alice, bob, "uno_splash")
    apis = [CardGames(live_server.url, a.token) for a in (alice, bob)]
    views = [api.game(game_id) for api in apis]
    mover = next(i for i, v in enumerate(views) if choose(v, random.Random(1)) is not None)
    view = views[mover]
    action = choose(view, random.Random(1))
    first = apis[mover].act(game_id, action, expected_version=view.version, idempotency_key="k-1")
    again = apis[mover].act(game_id, action, expected_version=view.version, idempotency_key="k-1")
    assert again.version == first.version > view.version  # the retry changed nothing
    with pytest.raises(ApiError) as refused:
        apis[mover].act(game_id, action, expected_version=view.version)
    assert refused.value.status == 409 and refused.value.code in (
        "version_conflict",
        "not_your_turn",
    )
