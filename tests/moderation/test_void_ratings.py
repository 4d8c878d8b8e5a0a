"""Moderators void a match's rating changes (issue 32, "Moderation"): with a reason, never for a
game they sat in, audited, and from the game's page in the panel, where a player's rating
history shows too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import ServiceError
from games.models import Game
from moderation import audit, interventions
from moderation.models import AuditEntry
from players.models import User
from ratings.models import Rating, RatingChange, VoidedMatch
from tests.games.conftest import API_TESTS, Player, start_game
from tests.moderation.conftest import logged_in, make_moderator

pytestmark = API_TESTS


def rated_duel(winner: Player, loser: Player) -> str:
    game_id = start_game(winner, loser, game="gin_rummy")
    assert loser.leave(game_id).status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED and game.rated
    return game_id


def test_a_void_removes_the_changes_rates_later_matches_again_and_is_audited(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    collusion = rated_duel(alice, bob)
    later = rated_duel(alice, carol)
    before = RatingChange.objects.get(game_id=later, user=alice.user)
    done = interventions.void_ratings(
        moderator=moderator, game_id=collusion, reason="Bob threw the game to alice."
    )
    assert done.matches == 1
    assert not RatingChange.objects.filter(game_id=collusion).exists()
    after = RatingChange.objects.get(game_id=later, user=alice.user)
    # Alice met carol as a new player after all: her later change starts from 1500.
    assert before.shown_before > after.shown_before == 1500
    assert Rating.objects.get(user=alice.user).rated_games == 1
    assert Rating.objects.get(user=bob.user).rated_games == 0
    entry = AuditEntry.objects.get(action=audit.RATINGS_VOIDED)
    assert entry.actor == moderator and str(entry.target_game_id) == collusion
    assert entry.reason == "Bob threw the game to alice."
    assert entry.details["matches_rated_again"] == 1


def test_a_void_needs_a_reason_and_a_moderator_who_did_not_play(alice: Player, bob: Player) -> None:
    game_id = rated_duel(alice, bob)
    seated = alice.user
    seated.is_staff = True
    seated.save()
    with pytest.raises(ServiceError) as own:
        interventions.void_ratings(moderator=seated, game_id=game_id, reason="Mine.")
    assert own.value.code == "seated_moderator"
    other = make_moderator("mo2")
    with pytest.raises(ServiceError) as bare:
        interventions.void_ratings(moderator=other, game_id=game_id, reason="  ")
    assert bare.value.code == "reason_required"
    assert RatingChange.objects.filter(game_id=game_id).count() == 2
    assert not AuditEntry.objects.filter(action=audit.RATINGS_VOIDED).exists()


def test_the_game_page_shows_the_changes_and_voids_them(
    mod_client: Client, alice: Player, bob: Player
) -> None:
    game_id = rated_duel(alice, bob)
    page_url = reverse("admin:games_game_change", args=[game_id])
    page = mod_client.get(page_url).content.decode()
    assert 'id="rating-changes"' in page and 'id="void-form"' in page
    url = reverse("admin:games_game_void_ratings", args=[game_id])
    response = mod_client.post(url, {"reason": "Collusion ring."}, follow=True)
    assert response.status_code == 200
    assert "1 later match" not in response.content.decode()
    assert "0 later matches were rated again." in response.content.decode()
    assert VoidedMatch.objects.filter(game_id=game_id).exists()
    page = mod_client.get(page_url).content.decode()
    assert 'id="ratings-voided"' in page and 'id="void-form"' not in page
    # Twice: refused with its code, nothing changes.
    again = mod_client.post(url, {"reason": "Again."}, follow=True).content.decode()
    assert "already_voided" in again
    assert AuditEntry.objects.filter(action=audit.RATINGS_VOIDED).count() == 1


def test_a_moderator_without_the_permission_cannot_void(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = rated_duel(alice, bob)
    staff = User.objects.create_user(username="helper", password="pw-helper-123", is_staff=True)
    response = logged_in(staff).post(
        reverse("admin:games_game_void_ratings", args=[game_id]), {"reason": "x"}
    )
    assert response.status_code == 403
    assert RatingChange.objects.filter(game_id=game_id).count() == 2


def test_a_players_page_shows_their_rating_history(
    mod_client: Client, alice: Player, bob: Player
) -> None:
    game_id = rated_duel(alice, bob)
    change = RatingChange.objects.get(game_id=game_id, user=alice.user)
    page = mod_client.get(reverse("admin:players_user_change", args=[alice.user.pk]))
    text = page.content.decode()
    assert 'id="rating-history"' in text
    assert f"<td>{change.shown_before}</td><td>{change.shown_after}</td>" in text
    assert f"+{change.delta}" in text
