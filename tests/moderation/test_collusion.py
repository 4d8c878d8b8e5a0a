"""Collusion signals: targeting between pairs compared with random targeting."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Move, Seat
from moderation import collusion
from players.models import User
from tests.ratings.changes import rating_change

pytestmark = pytest.mark.django_db


def play(seat: int, target: int, card: str = "targeted_draw2") -> dict[str, Any]:
    return {"type": "play", "seat": seat, "card": f"{card}-1", "card_type": card, "target": target}


def table(users: list[User], turns: list[tuple[int, int]], *, leave: int | None = None) -> Game:
    """A finished game of ``users`` (seat i = users[i]) whose moves are these targeted plays."""
    game = Game.objects.create(status=Game.FINISHED, started_at=timezone.now())
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    Move.objects.create(game=game, number=1, action={"type": "start"}, events=[])
    number = 2
    for i, (actor, target) in enumerate(turns):
        if leave is not None and i == len(turns) // 2:
            Move.objects.create(
                game=game,
                number=number,
                action={"type": "leave", "seat": leave},
                events=[{"type": "left", "seat": leave, "count": 3}],
            )
            number += 1
        Move.objects.create(
            game=game,
            number=number,
            seat=actor,
            action={"type": "play", "card": "x"},
            events=[play(actor, target)],
        )
        number += 1
    return game


@pytest.fixture
def four() -> list[User]:
    return [User.objects.create_user(username=n) for n in ("alice", "bob", "carol", "dave")]


def test_candidates_are_the_other_seats_still_in_the_game() -> None:
    moves = [
        (2, {}, [play(0, 1)]),
        (3, {}, [{"type": "left", "seat": 2}]),
        (4, {}, [play(0, 3, "force_swap"), {"type": "swap", "seat": 0, "target": 3}]),
        (5, {}, [{"type": "play", "seat": 1, "card_type": "draw2"}]),  # not targeted
        (6, {}, [{"type": "play", "seat": 1, "card_type": "force_swap"}]),  # no target
    ]
    assert collusion.targeted_plays(moves, 4) == [(0, 1, [1, 2, 3]), (0, 3, [1, 3])]


def test_partners_who_spare_each_other_are_flagged(four: list[User], settings: Any) -> None:
    settings.COLLUSION_MIN_TARGETED_PLAYS = 20
    settings.COLLUSION_Z_THRESHOLD = 3.0
    # alice (0) and bob (1) never aim at each other; carol (2) and dave (3) aim round-robin.
    alices, bobs = itertools.cycle([2, 3]), itertools.cycle([3, 2])
    turns: list[tuple[int, int]] = []
    for i in range(30):
        turns += [(0, next(alices)), (1, next(bobs))]
        turns += [(2, [0, 1, 3][i % 3]), (3, [0, 1, 2][i % 3])]
    for _ in range(2):
        table(four, turns)
    signals = collusion.compute()
    flagged = collusion.flagged(signals)
    pair = next(s for s in signals if {s.a_name, s.b_name} == {"alice", "bob"})
    assert pair.observed == 0
    assert pair.expected == pytest.approx(40.0)
    assert pair.third_observed == pair.plays == 120
    assert pair.z < -3
    assert len(pair.games) == 2
    assert pair in flagged
    assert [(s.a_name, s.b_name) for s in flagged] == [("alice", "bob")]
    # The flip side: the partners hit carol more than chance would (not yet past the threshold).
    victim = next(s for s in signals if {s.a_name, s.b_name} == {"alice", "carol"})
    assert victim.z > 0


def test_random_looking_targeting_is_not_flagged(four: list[User], settings: Any) -> None:
    settings.COLLUSION_MIN_TARGETED_PLAYS = 5
    turns = [(a, t) for a in range(4) for t in range(4) if t != a] * 5
    table(four, turns)
    assert collusion.flagged(collusion.compute()) == []


def test_small_samples_are_not_flagged(four: list[User], settings: Any) -> None:
    settings.COLLUSION_MIN_TARGETED_PLAYS = 1000
    table(four, [(0, 2), (1, 3)] * 30)
    assert collusion.flagged(collusion.compute()) == []


def test_two_player_games_carry_no_signal(four: list[User]) -> None:
    table(four[:2], [(0, 1), (1, 0)] * 50)
    (pair,) = collusion.compute()
    assert pair.z == 0.0


def test_a_player_who_left_is_no_longer_a_candidate(four: list[User]) -> None:
    table(four[:3], [(0, 2)] * 4, leave=1)
    pair = next(s for s in collusion.compute() if {s.a_name, s.b_name} == {"alice", "bob"})
    assert pair.a_to_b.plays == 2  # only the plays before bob left


def test_the_collusion_page_lists_the_flagged_pair(
    four: list[User], settings: Any, moderator: User
) -> None:
    settings.COLLUSION_MIN_TARGETED_PLAYS = 20
    others = itertools.cycle([2, 3])
    table(four, [t for _ in range(40) for t in ((0, next(others)), (1, next(others)))])
    client = Client()
    client.force_login(moderator)
    page = client.get("/admin/moderation/collusionsignal/").content.decode()
    assert "alice</a> &amp;" in page and ">bob</a>" in page


def test_a_pair_shows_the_rating_points_that_flowed_between_them(
    four: list[User], settings: Any, moderator: User
) -> None:
    settings.COLLUSION_MIN_TARGETED_PLAYS = 20
    others = itertools.cycle([2, 3])
    turns = [t for _ in range(40) for t in ((0, next(others)), (1, next(others)))]
    alice, bob, carol, dave = four
    # Two rated games where bob fed alice, one unrated: only the rated ones count.
    for rated, deltas in ((True, (30, -25, 1, -6)), (True, (20, -18, 3, -5)), (False, None)):
        game = table(four, turns)
        if not rated:
            continue
        for user, delta in zip(four, deltas, strict=True):
            change = rating_change(game, user, place=1, shown_before=1500, shown_after=1500 + delta)
            change.save()
    pair = next(s for s in collusion.compute() if {s.a, s.b} == {alice.pk, bob.pk})
    assert (pair.rated_games, pair.a_points, pair.b_points) == (2, 50, -43)
    client = Client()
    client.force_login(moderator)
    page = client.get("/admin/moderation/collusionsignal/").content.decode()
    assert '<td class="rating-points">+50 / -43 (2)</td>' in page
