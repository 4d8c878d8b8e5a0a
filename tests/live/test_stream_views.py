"""A stream opened with ``?view=true`` carries the seat's own view (``games.api.streams``).

Each change announces who may act now (the news' ``actors``); a stream that carries views sends
its seat's view, exactly as ``GET games/{id}/`` answers it, after every change that lets that
seat act, so a client needs no request between its turns. Checked for every move of random games
of each kind: the actors are exactly the seats with legal actions, and the view a stream reads
is byte for byte the seat's GET, in one query. The order of the events on a stream is checked
in ``test_stream_view_events`` below and, under uvicorn, in ``tests/live/test_live.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from games import selectors
from games.api import streams
from games.models import Game, Seat
from live import announce, driver
from players.models import ApiToken
from tests.games.conftest import (
    API_TESTS,
    Player,
    game_url,
    player_to_move,
    random_action,
    start_game,
)

pytestmark = API_TESTS


def as_json(data: Any) -> str:
    return json.dumps(data, cls=JSONEncoder, sort_keys=True)


@pytest.fixture
def news(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The news of each game announcement, as published."""
    seen: list[dict[str, Any]] = []
    real_publish = announce.Notifier.publish

    def publish(self: Any, game_id: Any, version: int, news: Any = None) -> None:
        if news is not None:
            seen.append(news)
        real_publish(self, game_id, version, news)

    monkeypatch.setattr(announce.Notifier, "publish", publish)
    return seen


class TestTheFirstEvent:
    def test_with_view_true_it_is_the_seats_view_as_the_game_view_answers_it(
        self, alice: Player, bob: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        for player in (alice, bob):
            update = player.get(game_url(game_id, "stream/") + "?view=true").json()
            assert as_json(update["view"]) == as_json(player.table(game_id))
            assert update["view"]["version"] == update["version"]

    def test_without_it_there_is_no_view(self, alice: Player, bob: Player) -> None:
        game_id = start_game(alice, bob, target_score=0)
        for query in ("", "?view=false", "?view=0"):
            assert "view" not in alice.get(game_url(game_id, "stream/") + query).json()

    @pytest.mark.parametrize("value", ["yes", "", "2", "True "])
    def test_view_must_be_true_or_false(self, alice: Player, bob: Player, value: str) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.get(
            game_url(game_id, "stream/") + f"?view={value}", Accept="text/event-stream"
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("kind", ["uno_all_wild", "uno_splash", "uno_no_mercy", "gin_rummy"])
def test_each_change_brings_the_view_to_exactly_the_seats_that_may_act(
    alice: Player,
    bob: Player,
    carol: Player,
    news: list[dict[str, Any]],
    kind: str,
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    players = [alice, bob] if kind == "gin_rummy" else [alice, bob, carol]
    with django_capture_on_commit_callbacks(execute=True):
        game_id = start_game(*players, game=kind, target_score=0)
    assert Game.objects.values_list("kind", flat=True).get(pk=game_id) == kind
    positions = dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position"))
    # Each player streams with their token (one query to re-check, as for the view's read).
    tokens = dict(ApiToken.objects.values_list("user_id", "pk"))
    rng = random.Random(5)
    checked = sent = 0
    for _ in range(60):
        news.clear()
        mover = player_to_move(players, game_id)
        with django_capture_on_commit_callbacks(execute=True):
            response = mover.act(game_id, random_action(mover.table(game_id), rng))
        assert response.status_code == 200, response.content
        (last,) = news
        for player in players:
            seat = positions[player.user.pk]
            token_id = tokens[player.user.pk]
            plan = streams.StreamPlan(
                game_id, kind, player.user, token_id, seat, {}, with_view=True
            )
            view = player.table(game_id)
            may_act = bool(view["table"]["legal_actions"])
            assert streams._wants_view(plan, last) is may_act, (last, seat)
            if may_act:
                with django_assert_num_queries(2):  # the credentials, the view
                    read, reason = streams._read_view(plan)
                assert reason == "" and as_json(read) == as_json(view)
                sent += 1
            checked += 1
        if Game.objects.values_list("status", flat=True).get(pk=game_id) != Game.ACTIVE:
            break
    assert checked >= 15 and sent >= 5, "too few moves checked"


def test_a_stream_without_views_never_reads_one() -> None:
    plan = streams.StreamPlan("g", "uno", None, None, 0, {})  # type: ignore[arg-type]
    for last in (None, {"actors": None}, {"actors": [0]}):
        assert not streams._wants_view(plan, last)


def update(version: int, status: str = "active") -> dict[str, Any]:
    return streams._live_update(version, status, [], version, False)


def sse(name: str, data: Any, event_id: int | None = None) -> bytes:
    return streams._sse(name, data, event_id=event_id)


def test_stream_view_events_come_right_after_their_version_event() -> None:
    """Driven by hand: the first view (from the view's answer) after the first version event;
    then a change that lets the seat act is its version event, a read of the view, the view
    event; one that does not is its version event alone."""
    first = {**update(4), "view": {"version": 4}}
    plan = streams.StreamPlan("g", "uno", None, None, 0, first, with_view=True)  # type: ignore[arg-type]
    steps = streams._steps(plan)
    assert next(steps).startswith(b"retry:")
    assert steps.send(None) == sse("version", update(4), 4)
    assert steps.send(None) == sse("view", {"version": 4})
    assert isinstance(steps.send(None), driver.Wait)
    assert calls(steps.send(5), streams._fetch)
    assert steps.send((update(5), "", False)) == sse("version", update(5), 5)
    assert isinstance(steps.send(None), driver.Wait)  # not the seat's turn: no view
    assert calls(steps.send(6), streams._fetch)
    assert steps.send((update(6), "", True)) == sse("version", update(6), 6)
    assert calls(steps.send(None), streams._read_view)
    assert steps.send(({"version": 6}, "")) == sse("view", {"version": 6})
    assert isinstance(steps.send(None), driver.Wait)
    assert calls(steps.send(7), streams._fetch)
    # The game ended: the last view (scores) before the end.
    assert steps.send((update(7, "finished"), "", True)) == sse("version", update(7, "finished"), 7)
    assert calls(steps.send(None), streams._read_view)
    assert steps.send((None, "")) == sse("end", {"reason": "finished"})  # not visible: no view


def calls(step: Any, fn: Any) -> bool:
    """Whether the stream asked its driver to run ``fn``."""
    return isinstance(step, driver.Call) and step.fn is fn


def test_a_revoked_token_gets_no_view_and_its_stream_ends(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, target_score=0)
    token = ApiToken.objects.get(user=alice.user)
    plan = streams.StreamPlan(game_id, "uno_all_wild", alice.user, token.pk, 0, {}, with_view=True)
    assert streams._read_view(plan)[0] is not None
    token.revoked_at = timezone.now()
    token.save()
    assert streams._read_view(plan) == (None, "authentication_failed")
    first = {**update(4), "view": {"version": 4}}
    steps = streams._steps(
        streams.StreamPlan(game_id, "uno_all_wild", alice.user, token.pk, 0, first, True)
    )
    for _ in range(3):
        next(steps)  # retry, version 4, its view
    assert isinstance(steps.send(None), driver.Wait)
    assert calls(steps.send(5), streams._fetch)
    assert steps.send((update(5), "", True)) == sse("version", update(5), 5)
    assert calls(steps.send(None), streams._read_view)
    assert steps.send(streams._read_view(plan)) == sse("end", {"reason": "authentication_failed"})


def test_news_without_actors_sends_the_view_to_every_seat() -> None:
    seated = streams.StreamPlan("g", "uno", None, None, 1, {}, with_view=True)  # type: ignore[arg-type]
    stranger = streams.StreamPlan("g", "uno", None, None, None, {}, with_view=True)  # type: ignore[arg-type]
    lobby_change = {"version": 3, "status": "active", "turn": None, "actors": None}
    assert streams._wants_view(seated, lobby_change)
    assert streams._wants_view(seated, None)  # a version only the database re-check saw
    move = {**lobby_change, "actors": [0]}
    assert not streams._wants_view(seated, move)
    assert not streams._wants_view(stranger, move)
    assert streams._wants_view(seated, {**move, "actors": [0, 1]})


def test_a_finished_game_announces_nobody_may_act(
    alice: Player,
    bob: Player,
    news: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.leave(game_id).status_code == 200
    assert news[-1]["status"] == Game.FINISHED and news[-1]["actors"] == []
    assert selectors.progress_for(bob.user, game_id) is not None
