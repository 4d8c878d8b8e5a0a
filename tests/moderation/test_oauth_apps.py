"""Third-party apps in the moderators' view of a player (players/oauth.py): the apps acting for
the player, by name and maker, and the apps the player made; a ban or a password change ends
every app's access."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from moderation import services
from players import services as player_services
from players.models import User
from tests.games.conftest import API_TESTS, Player
from tests.players.oauth import grant, register

pytestmark = API_TESTS


def test_the_player_page_names_the_apps_acting_for_the_player(
    mod_client: Client, alice: Player, bob: Player
) -> None:
    grant(alice.client, register(bob.user, name="Card Buddy"), scope="read")
    register(alice.user, name="Alice's Bot Lab")
    page = mod_client.get(reverse("admin:players_user_change", args=[alice.user.pk]))
    html = page.content.decode()
    acting = html.split('id="allowed-apps"', 1)[1].split("</table>", 1)[0]
    assert "Card Buddy" in acting and "<td>bob</td>" in acting and "<td>read</td>" in acting
    made = html.split('id="registered-apps"', 1)[1].split("</table>", 1)[0]
    assert "Alice&#x27;s Bot Lab" in made and "https://app.example/callback" in made


def test_a_ban_ends_every_apps_access(moderator: User, alice: Player, bob: Player) -> None:
    app = grant(alice.client, register(bob.user))
    assert app.api.get("/api/v1/me/").status_code == 200
    services.suspend(
        moderator=moderator, user_id=alice.user.pk, reason="Cheating", until=None, ban=True
    )
    assert app.api.get("/api/v1/me/").status_code == 401
    services.unban(moderator=moderator, user_id=alice.user.pk, reason="Appeal")
    assert app.api.get("/api/v1/me/").status_code == 401  # gone, not only paused


def test_a_password_change_ends_every_apps_access(alice: Player, bob: Player) -> None:
    alice.user.set_password("old-Password-123")
    alice.user.save()
    app = grant(alice.client, register(bob.user))
    player_services.change_password(
        user=alice.user, old_password="old-Password-123", new_password="a-New-passw0rd-456"
    )
    assert app.api.get("/api/v1/me/").status_code == 401
