"""What each screenshot of docs/web-client.md shows and how it is reached (see
tests/web/screenshots.py for the command that regenerates them)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from games.models import Game, Move
from players.models import User
from tests.web.conftest import Client, act_over_the_api, load_scenario
from tests.web.finished import finished_against_bots
from tests.web.screenshots import ONLY_ENV, OUT_ENV, SIZE

LOCALES = {"en": "en-GB", "da": "da-DK"}
PHONE_1X: dict[str, Any] = {
    "viewport": {"width": SIZE[0], "height": SIZE[1]},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
MODERATOR_PASSWORD = "correct-horse-battery-7"


@dataclass
class Shooter:
    """One screen in one language: browsers made for it, and where its PNG goes."""

    browser: Browser
    base: str
    lang: str
    out: Path
    made: list[Client] = field(default_factory=list)

    def client(self, name: str) -> Client:
        client = Client(self.browser, self.base, name, locale=LOCALES[self.lang], **PHONE_1X)
        self.made.append(client)
        return client

    def signed_in(self, user: User, token: str, path: str) -> Client:
        """The player's browser on ``path``, with the player's language chosen in the profile."""
        User.objects.filter(pk=user.pk).update(language=self.lang)
        client = self.client(user.username)
        client.sign_in_with_token(token, path)
        return client

    def save(self, client: Client, screen: str) -> Path:
        page = client.page
        # Web fonts and the last frame of an entrance animation, before the picture is taken.
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.wait_for_timeout(400)
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{screen}-{self.lang}.png"
        page.screenshot(path=str(path), full_page=False, animations="disabled")
        return path

    def close(self) -> list[str]:
        """Close every browser; the errors the client pages reported (the admin's are not ours)."""
        errors = [e for c in self.made if c.name != "moderator" for e in c.errors]
        for client in self.made:
            client.close()
        return errors


def words(lang: str, en: str, da: str) -> str:
    return da if lang == "da" else en


# -- the screens ----------------------------------------------------------------------------


def sign_in(s: Shooter) -> None:
    client = s.client("visitor")
    client.goto("/login")
    expect(client.page.locator("form input[type=password]")).to_be_visible()
    s.save(client, "sign-in")


def sign_up(s: Shooter) -> None:
    client = s.client("visitor")
    page = client.page
    client.goto("/signup")
    page.get_by_label(words(s.lang, "Username", "Brugernavn")).fill("lars")
    page.get_by_label(words(s.lang, "Password", "Adgangskode")).fill("abc")
    page.locator("form button[type=submit]").click()
    expect(page.get_by_role("alert")).not_to_have_text("")
    s.save(client, "sign-up")


def my_games(s: Shooter) -> None:
    from tests.games.conftest import game_url, make_player, player_to_move, start_game
    from tests.games.test_lobby_api import finished_game
    from tests.web.test_notices import turn_to

    alice, bob, carol = (make_player(n) for n in ("alice", "bob", "carol"))
    splash = start_game(bob, alice, game="uno_splash")
    turn_to(alice, [alice, bob], splash)
    gin = start_game(carol, alice, game="gin_rummy")
    if player_to_move([alice, carol], gin) is carol:
        # The upcard is offered to the non-dealer first: carol passes it on to alice.
        view = carol.table(gin)
        response = carol.act(gin, {"type": "pass", "expected_version": view["version"]})
        assert response.status_code == 200, response.content
    waiting = start_game(alice, carol)
    turn_to(carol, [alice, carol], waiting)
    old = finished_game(bob, alice)
    assert bob.post(game_url(old, "rematch/")).status_code == 200
    client = s.signed_in(alice.user, alice.token, "/games")
    expect(client.page.locator(".game-row.invitation")).to_have_count(1)
    expect(client.page.locator(".game-row.mine")).to_have_count(2)
    s.save(client, "my-games")


def new_game(s: Shooter) -> None:
    from tests.games.conftest import make_player

    alice = make_player("alice")
    client = s.signed_in(alice.user, alice.token, "/games/new")
    expect(client.page.locator("form")).to_be_visible()
    s.save(client, "new-game")


def at_table(s: Shooter, position: str) -> Client:
    """The scenario's game opened by the player whose turn it is."""
    data = load_scenario(position)
    current = Game.objects.values_list("current_user_id", flat=True).get(pk=data["game_id"])
    player = next(
        p for p in data["players"] if User.objects.get(username=p["username"]).pk == current
    )
    user = User.objects.get(username=player["username"])
    client = s.signed_in(user, player["token"], f"/games/{data['game_id']}")
    expect(client.page.locator(".prompt.mine")).to_be_visible()
    return client


def table(position: str, screen: str) -> Callable[[Shooter], None]:
    def shoot(s: Shooter) -> None:
        s.save(at_table(s, position), screen)

    shoot.__name__ = screen
    return shoot


def standings(s: Shooter) -> None:
    data = load_scenario("tie.json")
    player = next(p for p in data["players"] if p["name"] == "alice")
    user = User.objects.get(username=player["username"])
    client = s.signed_in(user, player["token"], f"/games/{data['game_id']}")
    # Alice goes out with her last card; the others, on 0 points each, are placed by the points
    # left in their hands, which the standings say (tests/web/test_help.py).
    expect(client.page.locator(".prompt.mine")).to_be_visible()
    client.page.locator(".hand button.card").first.click()
    client.page.locator("dialog[open] .round-buttons button").click()  # "See the result"
    why = client.page.locator(".standings-why")
    expect(why).to_be_visible()
    why.scroll_into_view_if_needed()
    s.save(client, "standings")


def round_end(s: Shooter) -> None:
    """All Wild, a match to 500: alice goes out with her Wild and the round's end is told (issue
    35, item 3): the winner, bob's hand shown with its points, this round's points."""
    client = at_table(s, "round_end.json")
    client.page.locator(".hand button.card").first.click()
    expect(client.page.locator("dialog[open] #round-title")).to_be_focused()
    s.save(client, "round-end")


def knocked_out(s: Shooter) -> Client:
    """No Mercy, one round (issue 35, item 8): alice's Wild Draw 10 (over the API) knocks bob
    out at 25 cards; bob's table says so and offers "Skip to the result"."""
    data = load_scenario("no_mercy_knockout.json")
    tokens = {p["name"]: p["token"] for p in data["players"]}
    game_id = data["game_id"]
    play = {"type": "play", "card": "wd10-1", "colour": "red"}
    act_over_the_api(s.base, tokens["alice"], game_id, play)
    act_over_the_api(s.base, tokens["bob"], game_id, {"type": "take_stack"})
    client = s.signed_in(User.objects.get(display_name="bob"), tokens["bob"], f"/games/{game_id}")
    expect(client.page.locator(".skip-to-result")).to_be_visible()
    return client


def knockout(s: Shooter) -> None:
    s.save(knocked_out(s), "knockout")


def knockout_result(s: Shooter) -> None:
    """Bob skipped to the result: his place, decided, while alice and carol play on."""
    client = knocked_out(s)
    client.page.locator(".skip-to-result").click()
    expect(client.page.locator(".out-result .result-banner")).to_be_visible()
    s.save(client, "knockout-result")


def inbox(s: Shooter) -> None:
    """The inbox with a notice that arrived while it was open (it is live), above an older one."""
    from social import services as social
    from tests.games.conftest import game_url, make_player
    from tests.games.test_lobby_api import finished_game

    alice, bob, carol = (make_player(n) for n in ("alice", "bob", "carol"))
    old = finished_game(bob, alice)
    assert bob.post(game_url(old, "rematch/")).status_code == 200
    client = s.signed_in(alice.user, alice.token, "/notifications")
    expect(client.page.locator(".inbox li")).to_have_count(1)
    social.follow(user=carol.user, other=alice.user)
    expect(client.page.locator(".inbox li")).to_have_count(2)
    s.save(client, "inbox")


def help_sheet(s: Shooter) -> None:
    client = at_table(s, "stacking.json")
    client.page.locator(".table-head .help-button").click()
    expect(client.page.locator("dialog.help-sheet[open]")).to_be_visible()
    s.save(client, "help")


def settings(s: Shooter) -> None:
    from tests.games.conftest import make_player

    alice = make_player("alice")
    client = s.signed_in(alice.user, alice.token, "/settings")
    expect(client.page.locator("form").first).to_be_visible()
    # The push switch (or why there is none) is drawn once the service worker answers.
    expect(client.page.locator(".push label, .push p")).to_be_visible()
    expect(client.page.locator(".prefs fieldset").first).to_be_visible()
    s.save(client, "settings")


def consent(s: Shooter) -> None:
    """A third-party app's authorization request (docs/oauth.md), as alice meets it."""
    from tests.games.conftest import make_player
    from tests.players.oauth import authorize_query, pkce, register

    alice, bob = make_player("alice"), make_player("bob")
    app = register(bob.user, name="Card Buddy")
    query = authorize_query(app, scope="read play", challenge=pkce()[1])
    client = s.signed_in(alice.user, alice.token, f"/oauth/authorize?{query}")
    expect(client.page.locator(".consent .scopes li").first).to_be_visible()
    s.save(client, "consent")


def player(s: Shooter) -> None:
    from tests.games.conftest import make_player, start_game
    from tests.moderation.conftest import cheating_report

    alice, bob = make_player("alice"), make_player("bob")
    start_game(alice, bob)
    cheating_report(alice.user, bob.user)
    client = s.signed_in(alice.user, alice.token, f"/players/{bob.user.pk}")
    expect(client.page.locator(".reports")).to_be_visible()
    s.save(client, "player")


def report(s: Shooter) -> None:
    """The report sheet, opened from the player's screen, a reason picked."""
    from tests.games.conftest import make_player, start_game

    alice, bob = make_player("alice"), make_player("bob")
    start_game(alice, bob)
    client = s.signed_in(alice.user, alice.token, f"/players/{bob.user.pk}")
    page = client.page
    page.get_by_role("button", name=words(s.lang, "Report Bob", "Anmeld Bob")).click()
    sheet = page.locator("dialog[open]")
    sheet.get_by_role("radio").nth(1).check()
    expect(sheet.get_by_role("radio").nth(1)).to_be_checked()
    s.save(client, "report")


def moderator(s: Shooter) -> tuple[Client, str, int]:
    """A moderator signed in to the panel; a finished game of three and a report about bob."""
    from tests.games.conftest import make_player
    from tests.moderation.conftest import cheating_report, moderators_group
    from tests.moderation.test_admin import finished_game

    # The panel speaks the moderator's profile language (moderation/middleware.py).
    mo = User.objects.create_user(
        username="mo", password=MODERATOR_PASSWORD, is_staff=True, language=s.lang
    )
    mo.groups.add(moderators_group())
    players = [make_player(name) for name in ("alice", "bob", "carol")]
    game_id = finished_game(players)
    report = cheating_report(players[0].user, players[1].user)
    report.game_id = game_id
    report.save(update_fields=["game"])
    client = s.client("moderator")
    client.goto("/admin/login/?next=/admin/")
    client.page.locator("#id_username").fill("mo")
    client.page.locator("#id_password").fill(MODERATOR_PASSWORD)
    client.page.locator("form [type=submit]").click()
    expect(client.page.locator("#user-tools")).to_be_visible()
    return client, game_id, report.pk


def moderation_report(s: Shooter) -> None:
    client, _, report = moderator(s)
    client.goto(f"/admin/moderation/report/{report}/change/")
    panel = client.page.locator(".moderation-panel").first
    expect(panel).to_be_visible()
    # The part a moderator acts on: who is reported by whom, the actions apart from Ban, the
    # reported player's recent games (the report's fields above are the admin's usual form).
    panel.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 8)")
    s.save(client, "moderation-report")


def moderation_replay(s: Shooter) -> None:
    client, game_id, _ = moderator(s)
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    client.goto(f"/admin/games/game/{game_id}/replay/?move={numbers[len(numbers) // 2]}")
    expect(client.page.locator("#replay-table")).to_be_visible()
    s.save(client, "moderation-replay")


def replay(s: Shooter) -> None:
    game_id, user, token = finished_against_bots("uno_splash", bots=2, language=s.lang)
    client = s.signed_in(user, token, f"/games/{game_id}/replay")
    page = client.page
    expect(page.locator(".replay-hand").first).to_be_visible()
    forward = page.locator(".replay-forward")
    for _ in range(3):
        forward.click()
    expect(page.locator(".replay-where")).to_contain_text("4")
    s.save(client, "replay")


def _rated_page(s: Shooter, path: str, mine: str, name: str, *, seasons: bool = False) -> None:
    """Alice of the rated players (or of the season players) on ``path``, once ``mine`` (what is
    hers on the page) shows: saved as ``name``."""
    from tests.web.rated import rated_players, season_players

    alice = season_players()[0] if seasons else rated_players()[0]
    client = s.signed_in(alice.user, alice.token, path)
    expect(client.page.locator(mine)).to_be_visible()
    s.save(client, name)


def leaderboard(s: Shooter) -> None:
    _rated_page(s, "/leaderboards/uno_splash", ".board-row.me", "leaderboard")


def profile(s: Shooter) -> None:
    from tests.web.rated import rated_players

    alice, bob = rated_players()
    client = s.signed_in(alice.user, alice.token, f"/players/{bob.user.pk}/profile")
    expect(client.page.locator("svg.rating-chart")).to_have_count(2)
    s.save(client, "profile")


def seasons(s: Shooter) -> None:
    _rated_page(s, "/seasons/uno_splash", ".board.season .board-row.me", "seasons", seasons=True)


def lobby(s: Shooter) -> None:
    from tests.games.conftest import make_player, new_lobby

    alice, bob, carol = (make_player(name) for name in ("alice", "bob", "carol"))
    new_lobby(bob, game="uno_splash", visibility="public")
    new_lobby(carol, game="uno_splash", visibility="public", options={"stacking": True})
    client = s.signed_in(alice.user, alice.token, "/lobby")
    page = client.page
    expect(page.locator("ul[aria-labelledby=open-title] .pill-rated")).to_have_count(1)
    page.locator("#open-title").scroll_into_view_if_needed()
    s.save(client, "lobby")


SCREENS: dict[str, Callable[[Shooter], None]] = {
    "sign-in": sign_in,
    "sign-up": sign_up,
    "my-games": my_games,
    "new-game": new_game,
    "table-all-wild": table("stacking.json", "table-all-wild"),
    "table-splash": table("splash_challenge.json", "table-splash"),
    "table-no-mercy": table("no_mercy_knockout.json", "table-no-mercy"),
    "table-gin": table("gin_knock.json", "table-gin"),
    "hand-24": table("hand_24_no_mercy.json", "hand-24"),
    "round-end": round_end,
    "knockout": knockout,
    "knockout-result": knockout_result,
    "standings": standings,
    "help": help_sheet,
    "settings": settings,
    "inbox": inbox,
    "consent": consent,
    "player": player,
    "report": report,
    "moderation-report": moderation_report,
    "moderation-replay": moderation_replay,
    "replay": replay,
    "leaderboard": leaderboard,
    "profile": profile,
    "seasons": seasons,
    "lobby": lobby,
}
# What the normal test run captures (into a temporary directory): a signed-out screen, a table
# and the moderator's panel, one of each kind of setup.
QUICK = ("sign-up", "table-gin", "moderation-replay")


def selected() -> list[str]:
    """The screens this run captures: all when regenerating, else QUICK."""
    if not os.environ.get(OUT_ENV):
        return list(QUICK)
    only = [name for name in os.environ.get(ONLY_ENV, "").split(",") if name]
    unknown = set(only) - set(SCREENS)
    if unknown:
        raise ValueError(f"unknown screens: {sorted(unknown)}; known: {list(SCREENS)}")
    return only or list(SCREENS)
