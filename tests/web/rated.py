"""Rated players for the leaderboard and profile screens: a board of twelve around alice, and
bob's history of 40 rated games of Uno Splash and 12 of Gin Rummy (rating changes as the match
ends write them, with games behind them so the profile links to their replays)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.models import Game
from players.models import User
from ratings import formula
from ratings.models import Rating, RatingChange
from tests.games.conftest import Player, make_player
from tests.web.conftest import PHONE

LOCALES = {"en": "en-GB", "da": "da-DK"}
PHONE_390 = {**PHONE, "viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
NAMES = ["Freja", "Magnus", "Ida", "Oscar", "Clara", "William", "Alma", "Noah", "Ella", "Lucas"]


def history(user: User, other: User, kind: str, games: int, seed: int) -> None:
    """``games`` rated duels of ``user`` against ``other``, one an hour up to now, the ratings
    from the formula itself."""
    rng = random.Random(seed)
    start = timezone.now() - timedelta(hours=games)
    mine, theirs = (formula.MU, formula.SIGMA), (formula.MU, formula.SIGMA)
    wins = places = 0
    for i in range(games):
        game = Game.objects.create(
            kind=kind, host=user, status=Game.FINISHED, rated=True, finished_at=start
        )
        place = 1 if rng.random() < 0.62 else 2
        after = formula.rate([mine, theirs], [place, 3 - place])
        at = start + timedelta(hours=i)
        for who, where, before, new in (
            (user, place, mine, after[0]),
            (other, 3 - place, theirs, after[1]),
        ):
            RatingChange.objects.create(
                game=game,
                user=who,
                kind=kind,
                place=where,
                mu_before=before[0],
                sigma_before=before[1],
                mu_after=new[0],
                sigma_after=new[1],
                shown_before=formula.shown(*before),
                shown_after=formula.shown(*new),
                created_at=at,
            )
        mine, theirs = after
        wins += place == 1
        places += place
    Rating.objects.create(
        user=user,
        kind=kind,
        mu=mine[0],
        sigma=mine[1],
        shown=formula.shown(*mine),
        rated_games=games,
        wins=wins,
        places_total=places,
    )


def rated_players() -> tuple[Player, Player]:
    """alice (on the Uno Splash board, 8th) and bob (with a history); their board neighbours."""
    alice, bob = make_player("alice"), make_player("bob")
    history(bob.user, alice.user, "uno_splash", 40, seed=3)
    history(bob.user, alice.user, "gin_rummy", 12, seed=5)
    for i, name in enumerate(NAMES):
        user = User.objects.create_user(username=name.lower(), display_name=name)
        Rating.objects.create(
            user=user,
            kind="uno_splash",
            mu=34.0 - i,
            sigma=2.5 + i * 0.4,
            shown=1900 - 37 * i,
            rated_games=60 - 3 * i,
            wins=30 - i,
            places_total=90,
        )
    Rating.objects.create(
        user=alice.user,
        kind="uno_splash",
        mu=30.0,
        sigma=3.0,
        shown=1700,
        rated_games=24,
        wins=11,
        places_total=40,
    )
    return alice, bob


def on_phone(clients: Any, player: Player, lang: str, path: str) -> Any:
    """``player``'s browser on a 390×844 phone in ``lang`` (their profile's language), on
    ``path``."""
    player.user.language = lang
    player.user.save(update_fields=["language"])
    browser = clients(player.name, locale=LOCALES[lang], **PHONE_390)
    browser.sign_in_with_token(player.token, path)
    return browser


def season_players() -> tuple[Player, dict[str, str]]:
    """Uno Splash's season boards: this month Freja won 3 rated duels, alice 2 and Magnus 1; last
    month only Ida (4) and alice (1). Returns alice and the two months (``YYYY-MM``)."""
    from tests.ratings.test_seasons import duel

    alice = make_player("alice")
    freja, magnus, ida = (
        User.objects.create_user(username=name.lower(), display_name=name)
        for name in ("Freja", "Magnus", "Ida")
    )
    now = timezone.now()
    start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    last = start - timedelta(days=10)
    # This month's wins lie between its start and now, whenever the test runs.
    when = [max(start, now - timedelta(minutes=minutes)) for minutes in range(6, 0, -1)]
    for at, (winner, rating) in zip(
        when,
        [
            (freja, 1720),
            (freja, 1740),
            (freja, 1760),
            (alice.user, 1650),
            (alice.user, 1660),
            (magnus, 1610),
        ],
        strict=True,
    ):
        duel(winner, ida, at, (rating, 1400))
    for hours, (winner, rating) in enumerate(
        [(ida, 1550), (ida, 1570), (ida, 1590), (ida, 1610), (alice.user, 1600)]
    ):
        duel(winner, magnus, last + timedelta(hours=hours), (rating, 1450))
    return alice, {"this": f"{start:%Y-%m}", "last": f"{last:%Y-%m}"}
