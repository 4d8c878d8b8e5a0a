"""Playing through the API: whole matches with random legal actions, refused actions, leaving,
ETags and the event log."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.models import Game, Move, RoundResult, Seat
from players.models import ApiToken
from tests.errors import assert_error
from tests.games.conftest import (
    API,
    API_TESTS,
    Player,
    game_url,
    give_card,
    iter_pages,
    new_lobby,
    play_to_end,
    player_to_move,
    start_game,
)

pytestmark = API_TESTS


def settle_opening(players: list[Player], game_id: str) -> None:
    """If the opening card asks the first player for a target, choose one."""
    player = player_to_move(players, game_id)
    view = player.table(game_id)
    if view["table"]["phase"] == "choose":
        target = next(
            a["target"] for a in view["table"]["legal_actions"] if a["type"] == "choose_target"
        )
        assert player.act(game_id, {"type": "choose_target", "target": target}).status_code == 200


def mover_and_waiter(players: list[Player], game_id: str) -> tuple[Player, Player]:
    mover = player_to_move(players, game_id)
    return mover, next(p for p in players if p is not mover)


def all_events(player: Player, game_id: str) -> list[dict[str, Any]]:
    return [move for page in iter_pages(player, game_id, limit=200) for move in page["moves"]]


# ---------------------------------------------------------------------------------------------
# Whole matches


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_one_round_match_is_played_to_its_end_through_the_api(
    everyone: list[Player], seeded_engine: Any, players: int
) -> None:
    seeded_engine(players)
    table = everyone[:players]
    game_id = start_game(*table, target_score=0)

    moves = play_to_end(table, game_id, random.Random(players))

    game = Game.objects.get(pk=game_id)
    assert moves > 0
    assert game.status == Game.FINISHED
    assert game.finished_at is not None
    assert game.current_user is None and game.turn_deadline is None
    numbers = list(Move.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(game.version - moves, game.version + 1))  # the start, then each
    result = RoundResult.objects.get(game=game)
    assert result.round == 1
    seats = {s.position: s for s in Seat.objects.filter(game=game)}
    assert sorted(s.place for s in seats.values()) == list(range(1, players + 1))
    assert seats[result.winner_position].place == 1
    assert seats[result.winner_position].final_score == result.points
    assert all(s.final_score == 0 for p, s in seats.items() if p != result.winner_position)
    for player in table:
        view = player.table(game_id)
        assert view["status"] == "finished"
        assert view["table"]["phase"] == "match_over"
        assert view["table"]["winner"] == result.winner_position
        assert view["table"]["legal_actions"] == []
        assert {p["seat"]: p["place"] for p in view["players"]} == {
            p: s.place for p, s in seats.items()
        }
        assert {p["seat"]: p["final_score"] for p in view["players"]} == {
            p: s.final_score for p, s in seats.items()
        }
        assert_error(player.act(game_id, {"type": "draw"}), 409, "game_over")
        assert_error(player.leave(game_id), 409, "game_over")
    assert Game.objects.get(pk=game_id).version == game.version


def test_a_match_to_a_target_crosses_rounds_by_itself(
    alice: Player, bob: Player, seeded_engine: Any
) -> None:
    table = [alice, bob]
    # A round scores 20-60 points per card left in the loser's hand, so a target of 300 often,
    # but not always, takes more than one round: play seeded matches until one does.
    for seed in range(2, 12):
        seeded_engine(seed)
        game_id = start_game(alice, bob, target_score=300)
        rounds_seen: list[int] = []

        def watch(
            player: Player, action: dict[str, Any], response: Any, seen: list[int] = rounds_seen
        ) -> None:
            body = response.json()
            if body["table"] is not None and body["status"] == "active":
                seen.append(body["table"]["round"])

        play_to_end(table, game_id, random.Random(seed), after_move=watch)
        results = list(RoundResult.objects.filter(game_id=game_id))
        if len(results) >= 2:
            break
    else:
        pytest.fail("ten seeded matches to 300 points all ended in their first round")

    assert [r.round for r in results] == list(range(1, len(results) + 1))
    distinct = sorted(set(rounds_seen))
    assert distinct == list(range(1, len(results) + 1))
    assert rounds_seen == sorted(rounds_seen)  # the round only ever goes up
    totals = [0, 0]
    for result in results:
        totals[result.winner_position] += result.points
        assert result.scores == totals
    assert max(totals) >= 300
    assert all(max(r.scores) < 300 for r in results[:-1])
    seats = {s.position: s for s in Seat.objects.filter(game_id=game_id)}
    assert [seats[0].final_score, seats[1].final_score] == totals
    view = alice.table(game_id)
    assert view["table"]["round"] == len(results)
    assert [r["round"] for r in view["table"]["round_results"]] == [r.round for r in results]
    assert [r["hands"] for r in view["table"]["round_results"]] == [r.hands for r in results]
    # Every new round was dealt in the move that ended the previous one.
    for result in results[:-1]:
        move = next(
            m
            for m in Move.objects.filter(game_id=game_id)
            if any(e["type"] == "round_over" and e["round"] == result.round for e in m.events)
        )
        kinds = [e["type"] for e in move.events]
        assert kinds.index("round_over") < kinds.index("round_started")


def test_a_new_round_is_dealt_when_a_round_ends(trio: list[Player], seeded_engine: Any) -> None:
    seeded_engine(11)
    game_id = start_game(*trio, target_score=100_000)
    rng = random.Random(11)
    while not RoundResult.objects.filter(game_id=game_id).exists():
        player = player_to_move(trio, game_id)
        view = player.table(game_id)
        action = rng.choice(view["table"]["legal_actions"])
        action = {k: v for k, v in action.items() if k != "seat"}
        assert player.act(game_id, action).status_code == 200

    view = trio[0].table(game_id)
    assert view["status"] == "active"
    assert view["table"]["round"] == 2
    assert view["table"]["phase"] in ("play", "choose")
    assert len(view["table"]["round_results"]) == 1
    sizes = [s["hand_size"] for s in view["table"]["seats"]]
    assert min(sizes) >= 7 and sum(sizes) in (21, 23, 25)  # 7 each, plus an opening draw
    assert Game.objects.get(pk=game_id).current_user_id is not None


# ---------------------------------------------------------------------------------------------
# Refused actions


@pytest.fixture
def duel(alice: Player, bob: Player) -> str:
    game_id = start_game(alice, bob)
    settle_opening([alice, bob], game_id)
    return game_id


@pytest.fixture
def trio(alice: Player, bob: Player, carol: Player) -> list[Player]:
    """Three players for a game of three, in the order they sit down."""
    return [alice, bob, carol]


def snapshot(game_id: str) -> tuple[int, int]:
    """The game's version and how many moves it logged."""
    return Game.objects.get(pk=game_id).version, Move.objects.filter(game_id=game_id).count()


def assert_refused_unchanged(
    player: Player, game_id: str, actions: list[dict[str, Any]], status: int, code: str
) -> None:
    """Each action is refused with ``status``/``code`` and leaves the game as it was."""
    before = snapshot(game_id)
    for action in actions:
        assert_error(player.act(game_id, action), status, code)
    assert snapshot(game_id) == before


def test_playing_out_of_turn_is_refused_with_422(alice: Player, bob: Player, duel: str) -> None:
    _, waiter = mover_and_waiter([alice, bob], duel)
    card = waiter.table(duel)["table"]["hand"][0]["id"]
    tries = [{"type": "play", "card": card}, {"type": "draw"}]

    assert_refused_unchanged(waiter, duel, tries, 422, "not_your_turn")


def test_a_card_that_is_not_in_your_hand_is_refused_with_422(
    alice: Player, bob: Player, duel: str
) -> None:
    mover, waiter = mover_and_waiter([alice, bob], duel)
    theirs = waiter.table(duel)["table"]["hand"][0]["id"]
    tries = [{"type": "play", "card": theirs}, {"type": "play", "card": "wild-999"}]

    assert_refused_unchanged(mover, duel, tries, 422, "card_not_in_hand")


@pytest.mark.parametrize("card_type", ["targeted_draw2", "force_swap"])
def test_a_card_that_needs_a_target_is_refused_without_one(
    alice: Player, bob: Player, duel: str, card_type: str
) -> None:
    mover, _ = mover_and_waiter([alice, bob], duel)
    card = give_card(duel, mover.table(duel)["your_seat"], card_type)

    assert_refused_unchanged(mover, duel, [{"type": "play", "card": card}], 422, "target_required")


def test_a_stale_expected_version_is_refused_with_the_current_version(
    alice: Player, bob: Player, duel: str
) -> None:
    mover, _ = mover_and_waiter([alice, bob], duel)
    before = snapshot(duel)
    version = before[0]

    error = assert_error(
        mover.act(duel, {"type": "draw", "expected_version": version - 1}), 409, "version_conflict"
    )

    assert error["details"] == {"current_version": version}
    assert snapshot(duel) == before
    assert mover.act(duel, {"type": "draw", "expected_version": version}).status_code == 200


@pytest.mark.parametrize("kind", ["fly", "timeout", "leave", "next_round", "", None, 3])
def test_an_unknown_or_system_action_type_is_refused_with_invalid_action(
    alice: Player, bob: Player, duel: str, kind: Any
) -> None:
    mover, _ = mover_and_waiter([alice, bob], duel)
    tries = [{"type": kind}, {"card": "wild-1"}]

    assert_refused_unchanged(mover, duel, tries, 400, "invalid_action")


def test_a_body_that_is_not_a_json_object_is_refused_with_400(
    alice: Player, bob: Player, duel: str
) -> None:
    mover, _ = mover_and_waiter([alice, bob], duel)
    url = game_url(duel, "actions/")
    before = snapshot(duel)

    not_json = mover.client.post(url, "{draw", content_type="application/json")
    assert_error(not_json, 400, "malformed_request")
    assert_error(mover.act(duel, [{"type": "draw"}]), 400, "invalid_request")
    assert_error(mover.act(duel, "draw"), 400, "invalid_request")
    bad_field = mover.act(duel, {"type": "catch", "target": "bob"})
    assert "target" in assert_error(bad_field, 400, "invalid_request")["details"]["fields"]
    assert snapshot(duel) == before


def test_acting_in_a_lobby_is_refused_with_game_not_started(alice: Player, bob: Player) -> None:
    game_id = new_lobby(alice, visibility="public")["id"]
    assert bob.join(game_id).status_code == 200

    assert_error(alice.act(game_id, {"type": "draw"}), 409, "game_not_started")
    assert_error(bob.act(game_id, {"type": "draw"}), 409, "game_not_started")


def test_a_player_not_in_the_game_gets_404_for_its_actions(
    alice: Player, bob: Player, carol: Player, duel: str
) -> None:
    assert_error(carol.act(duel, {"type": "draw"}), 404, "not_found")
    assert_error(carol.view(duel), 404, "not_found")


def test_a_read_only_token_may_look_but_not_act(alice: Player, bob: Player, duel: str) -> None:
    mover, _ = mover_and_waiter([alice, bob], duel)
    _, raw = ApiToken.issue(mover.user, name="tv", scope=ApiToken.SCOPE_READ)
    mover.client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    before = snapshot(duel)

    assert mover.view(duel).status_code == 200
    assert mover.events(duel).status_code == 200
    assert_error(mover.act(duel, {"type": "draw"}), 403, "permission_denied")
    assert_error(mover.leave(duel), 403, "permission_denied")
    assert snapshot(duel) == before


# ---------------------------------------------------------------------------------------------
# Leaving a game in progress


def test_when_one_of_two_players_leaves_the_other_wins_the_match(
    alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)

    response = bob.leave(game_id)

    assert response.status_code == 200, response.content
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    seats = {s.user_id: s for s in Seat.objects.filter(game=game)}
    assert seats[alice.user.pk].place == 1
    assert seats[bob.user.pk].place == 2
    assert seats[bob.user.pk].left_at is not None
    view = alice.table(game_id)
    assert view["table"]["winner"] == view["your_seat"]
    assert view["table"]["phase"] == "match_over"
    assert [p["left"] for p in view["players"] if p["user_id"] == bob.user.pk] == [True]
    last = all_events(alice, game_id)[-1]
    assert last["action"] == {"type": "leave", "seat": seats[bob.user.pk].position}
    assert {"type": "match_over", "winner": view["your_seat"], "reason": "last_player_left"} in (
        last["events"]
    )
    assert_error(alice.act(game_id, {"type": "draw"}), 409, "game_over")
    assert_error(bob.leave(game_id), 409, "game_over")


def test_a_player_who_leaves_a_game_of_three_is_out_and_the_others_play_on(
    alice: Player, bob: Player, carol: Player, seeded_engine: Any
) -> None:
    seeded_engine(5)
    game_id = start_game(alice, bob, carol, target_score=0)
    leaver = player_to_move([alice, bob, carol], game_id)
    rest = [p for p in (alice, bob, carol) if p is not leaver]
    seat = leaver.table(game_id)["your_seat"]

    response = leaver.leave(game_id)

    assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE
    assert player_to_move([alice, bob, carol], game_id) is not leaver
    view = rest[0].table(game_id)
    assert view["table"]["seats"][seat]["active"] is False
    assert view["table"]["seats"][seat]["hand_size"] == 0
    assert_error(leaver.act(game_id, {"type": "draw"}), 409, "not_in_game")
    assert_error(leaver.leave(game_id), 409, "not_in_game")
    assert leaver.table(game_id)["table"]["legal_actions"] == []

    play_to_end(rest, game_id, random.Random(5))

    seats = {s.user_id: s for s in Seat.objects.filter(game_id=game_id)}
    assert sorted(s.place for s in seats.values()) == [1, 2, 3]
    assert seats[leaver.user.pk].place != 1
    assert seats[leaver.user.pk].final_score == 0


# ---------------------------------------------------------------------------------------------
# ETag


def test_the_game_view_answers_304_while_nothing_changed(
    alice: Player, bob: Player, duel: str
) -> None:
    first = alice.view(duel)
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')

    same = alice.view(duel, **{"If-None-Match": etag})

    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == etag
    assert bob.view(duel)["ETag"] != etag  # each player sees a different view
    assert alice.view(duel, **{"If-None-Match": '"something-else"'}).status_code == 200

    mover, _ = mover_and_waiter([alice, bob], duel)
    assert mover.act(duel, {"type": "draw"}).status_code == 200

    changed = alice.view(duel, **{"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert changed.json()["version"] == first.json()["version"] + 1


def test_if_none_match_star_answers_304(alice: Player, bob: Player, duel: str) -> None:
    response = alice.view(duel, **{"If-None-Match": "*"})

    assert response.status_code == 304


def test_a_weak_etag_matches_too(alice: Player, bob: Player, duel: str) -> None:
    etag = alice.view(duel)["ETag"]

    assert alice.view(duel, **{"If-None-Match": f"W/{etag}"}).status_code == 304
    assert alice.view(duel, **{"If-None-Match": f'"other", {etag}'}).status_code == 304


# ---------------------------------------------------------------------------------------------
# Events


def test_events_come_in_pages(alice: Player, bob: Player, seeded_engine: Any) -> None:
    seeded_engine(3)
    game_id = start_game(alice, bob, target_score=0)
    play_to_end([alice, bob], game_id, random.Random(3))
    version = Game.objects.get(pk=game_id).version
    assert version > 7

    pages = list(iter_pages(alice, game_id, limit=3))

    assert all(len(p["moves"]) == 3 for p in pages[:-1])
    assert all(p["has_more"] for p in pages[:-1]) and not pages[-1]["has_more"]
    versions = [m["version"] for p in pages for m in p["moves"]]
    assert versions == list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    assert versions == list(range(versions[0], version + 1))
    assert [p["next_after"] for p in pages] == [p["moves"][-1]["version"] for p in pages]
    assert pages[0]["moves"][0]["action"] == {"type": "start"}
    assert pages[0]["moves"][0]["seat"] is None
    end = alice.events(game_id, after=version).json()
    assert end == {"moves": [], "next_after": version, "has_more": False}
    default = alice.events(game_id).json()
    assert len(default["moves"]) == min(50, len(versions))
    for params in ({"after": -1}, {"after": "x"}, {"limit": 0}, {"limit": 201}):
        assert_error(alice.events(game_id, **params), 400, "invalid_request")


def test_you_see_the_cards_you_draw_and_only_the_count_of_what_others_draw(
    alice: Player, bob: Player, duel: str
) -> None:
    mover, waiter = mover_and_waiter([alice, bob], duel)
    after = Game.objects.get(pk=duel).version

    drawn = mover.act(duel, {"type": "draw"}).json()["table"]["drawn_card"]["id"]

    mine = mover.events(duel, after=after).json()["moves"]
    theirs = waiter.events(duel, after=after).json()["moves"]
    seat = mover.table(duel)["your_seat"]
    assert [m["events"] for m in mine] == [
        [
            {
                "type": "draw",
                "seat": seat,
                "count": 1,
                "wanted": 1,
                "reason": "voluntary",
                "cards": [drawn],
            }
        ]
    ]
    assert [m["events"] for m in theirs] == [
        [{"type": "draw", "seat": seat, "count": 1, "wanted": 1, "reason": "voluntary"}]
    ]
    assert f'"{drawn}"' not in json.dumps(waiter.events(duel).json())


def test_the_event_log_hides_chance_and_other_players_cards_but_reveals_hands_at_round_end(
    trio: list[Player], seeded_engine: Any
) -> None:
    seeded_engine(8)
    game_id = start_game(*trio, target_score=0)
    play_to_end(trio, game_id, random.Random(8))
    raw = list(Move.objects.filter(game_id=game_id))
    assert any(e["type"] == "chance" for m in raw for e in m.events)
    result = RoundResult.objects.get(game_id=game_id)

    for player in trio:
        seat = player.table(game_id)["your_seat"]
        moves = all_events(player, game_id)
        assert len(moves) == len(raw)
        draws_seen = 0
        for move in moves:
            for event in move["events"]:
                assert event["type"] != "chance"
                assert "secret" not in event and "to" not in event
                if event["type"] == "draw":
                    if event["seat"] == seat:
                        assert len(event["cards"]) == event["count"]
                        draws_seen += 1
                    else:
                        assert "cards" not in event
                if event["type"] == "left":
                    assert "cards" not in event
        own_draws = sum(
            1 for m in raw for e in m.events if e["type"] == "draw" and e["seat"] == seat
        )
        assert draws_seen == own_draws
        over = [e for m in moves for e in m["events"] if e["type"] == "round_over"]
        assert len(over) == 1
        assert over[0]["hands"] == result.hands
        assert over[0]["winner"] == result.winner_position
        assert over[0]["hands"][str(result.winner_position)] == []
        assert len(over[0]["hands"]) == 3


def test_a_stranger_cannot_read_the_event_log(carol: Player, duel: str) -> None:
    assert_error(carol.events(duel), 404, "not_found")
    assert_error(carol.get(f"{API}{duel}/events/", {"after": 0}), 404, "not_found")
