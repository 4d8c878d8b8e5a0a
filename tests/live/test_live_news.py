"""The news a move's announcement carries (``selectors.move_news``), which live streams forward
to every seat without reading the game back.

It goes to every process and every stream of the game as it is, so it must hold nothing that
any one seat may not see: no card in a hand, none of the draw pile, no raw state key. For every
move of a random game it is checked on the text Redis would carry, and against what each seat
reads from the database: a seat the news does not name as ``private`` gets exactly the update
the database would give it, with no query; a seat it names (it drew a card) reads its own events
in one query, and those differ from the news.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.utils.encoders import JSONEncoder

from games import selectors
from games.api import streams
from games.models import Game, Seat
from live import announce
from live import notifier as live_notifier
from tests.games.conftest import API_TESTS, Player, player_to_move, random_action, start_game
from tests.games.test_leak_scan import RAW_KEYS

pytestmark = API_TESTS

Published = tuple[str, int, dict[str, Any] | None, dict[str, Any] | None]


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[Published]:
    """Each announcement: game, version, news, and the game's state when it was announced."""
    seen: list[Published] = []
    real_publish = announce.Notifier.publish

    def publish(self: Any, game_id: Any, version: int, news: Any = None) -> None:
        if not str(game_id).startswith(announce.USER_PREFIX):
            state = Game.objects.values_list("state", flat=True).get(pk=game_id)
            seen.append((str(game_id), version, news, state))
        real_publish(self, game_id, version, news)

    monkeypatch.setattr(announce.Notifier, "publish", publish)
    return seen


def hidden_cards(state: dict[str, Any]) -> set[str]:
    """What no seat may learn from the news: every hand and the draw pile."""
    cards = set(state["draw_pile"])
    for seat in state["seats"]:
        cards.update(seat["hand"])
    return cards


def as_json(data: Any) -> str:
    return json.dumps(data, cls=JSONEncoder, sort_keys=True)


def check_news(
    players: list[Player],
    positions: dict[int, int],
    item: Published,
    django_assert_num_queries: Any,
) -> int:
    """Check one announcement; returns how many seats it named private."""
    game_id, version, news, state = item
    assert news is not None and news["version"] == version
    # As Redis carries it to the other processes.
    text = json.dumps({"version": version, "news": news}, cls=JSONEncoder)
    for key in RAW_KEYS:
        assert key not in text, f"v{version}: raw key {key} in the news"
    revealing = any(e["type"] == "round_over" for m in news["moves"] for e in m["events"])
    if state is not None and not revealing:  # a round's end shows the hands left: allowed
        leaked = sorted(c for c in hidden_cards(state) if f'"{c}"' in text)
        assert not leaked, f"v{version}: hidden cards {leaked} in the news {text}"
    carried = live_notifier.news_from_json(json.loads(text)["news"])
    kind = Game.objects.values_list("kind", flat=True).get(pk=game_id)
    notifier = announce.notifier()
    for player in players:
        seat = positions[player.user.pk]
        plan = streams.StreamPlan(game_id, kind, player.user, None, seat, {})
        progress = selectors.Progress(game_id, kind, version, news["status"])
        expected = streams._update(progress, player.user, version - 1, seat)
        with django_assert_num_queries(0):
            update, last = streams._from_news(plan, version - 1, version - 1, version, notifier)
        assert last is not None, "the news was kept"
        if seat in news["private"]:
            assert update is None
            assert news["moves"][0]["events"] != expected["moves"][0]["events"]
            with django_assert_num_queries(1):
                read, reason, _ = streams._fetch_private(plan, version - 1, last)
            assert reason == "" and as_json(read) == as_json(expected)
        else:
            assert as_json(update) == as_json(expected), f"v{version} for seat {seat}"
            carried_update = streams._live_update(
                version, carried["status"], carried["moves"], version - 1, False
            )
            assert as_json(carried_update) == as_json(expected)
    return len(news["private"])


def test_the_news_holds_only_what_every_seat_may_see_and_streams_forward_it_as_read(
    alice: Player,
    bob: Player,
    carol: Player,
    published: list[Published],
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    players = [alice, bob, carol]
    rng = random.Random(11)
    private = checked = 0
    # The deal is shuffled by the system's randomness, so one game may end in a few moves:
    # play games until enough moves (and enough private parts) were checked.
    for _ in range(8):
        with django_capture_on_commit_callbacks(execute=True):
            game_id = start_game(alice, bob, carol, target_score=0)
        positions = dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position"))
        for _ in range(400):
            for item in published:
                if item[0] == str(game_id) and item[2] is not None and item[2]["moves"]:
                    private += check_news(players, positions, item, django_assert_num_queries)
                    checked += 1
            published.clear()
            if Game.objects.values_list("status", flat=True).get(pk=game_id) != Game.ACTIVE:
                break
            mover = player_to_move(players, game_id)
            with django_capture_on_commit_callbacks(execute=True):
                response = mover.act(game_id, random_action(mover.table(game_id), rng))
            assert response.status_code == 200, response.content
        if checked >= 20 and private >= 3:
            break
    assert checked >= 20, "too few moves checked"
    assert private >= 3, "no move had a private part: the test would not see a leak"


def test_a_stream_without_a_seat_or_without_the_news_reads_the_database() -> None:
    notifier = announce.Notifier(versions=lambda ids: {}, release=lambda: None)
    news = {"version": 5, "status": "active", "turn": 1, "moves": [], "private": []}
    notifier.notify("g", 5, news)
    seated = streams.StreamPlan("g", "uno", None, None, 0, {})  # type: ignore[arg-type]
    stranger = streams.StreamPlan("g", "uno", None, None, None, {})  # type: ignore[arg-type]
    assert streams._from_news(seated, 3, 4, 5, notifier)[1] == news
    assert streams._from_news(stranger, 3, 4, 5, notifier) == (None, None)
    # Version 4 was never announced with news (the database re-check saw it): no news to go by.
    assert streams._from_news(seated, 3, 3, 5, notifier) == (None, None)


def test_news_is_kept_for_the_games_announced_last(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_notifier, "NEWS_GAMES", 2)
    monkeypatch.setattr(live_notifier, "NEWS_PER_GAME", 2)
    notifier = announce.Notifier(versions=lambda ids: {}, release=lambda: None)

    def news(version: int) -> dict[str, Any]:
        return {"version": version, "status": "active", "turn": 0, "moves": [], "private": []}

    for version in (1, 2, 3):
        notifier.notify("a", version, news(version))
    notifier.notify("b", 1, news(1))
    notifier.notify("a", 4, news(4))  # "a" announced last: "b" goes first
    notifier.notify("c", 1, news(1))
    assert notifier.news_after("a", 2, 4) == [news(3), news(4)]
    assert notifier.news_after("a", 1, 4) is None  # version 2 no longer kept
    assert notifier.news_after("b", 0, 1) is None
    assert notifier.news_after("c", 0, 1) == [news(1)]
