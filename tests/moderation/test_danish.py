"""Languages complete in the moderators' panel (issue 21, §4 and §6): the panel speaks its
moderator's own language (their profile's, over the browser's), and a Danish moderator meets no
English string of the panel's catalogue on its main pages (the report queue, a report, a player,
a game, its replay at move N, the audit log), nor common English words that a string left out of
the catalogue would bring. The committed catalogue is compiled: the .mo says what the .po says,
so a machine without gettext's tools serves the same Danish."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from moderation import audit, services
from moderation.models import AuditEntry, Report
from players.models import User
from tests.games.conftest import API_TESTS, Player, new_lobby, random_action, start_game
from tests.moderation.conftest import logged_in, make_moderator
from tests.moderation.test_admin import finished_game

pytestmark = API_TESTS

CATALOGUE = Path(__file__).resolve().parents[2] / "moderation" / "locale" / "da" / "LC_MESSAGES"
PO = polib.pofile(str(CATALOGUE / "django.po"))

# Words no Danish page of the panel has unless an English string slipped through (the players
# here are alice, bob and carol; "Uno All Wild" is the service's name in both languages).
ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|and|with|of|game|games|players?|reports?|reported|reporter|reason|"
    r"turn|cards?|seat|move|moves|pile|draw|discard|replay|round|until|none|open|dismiss|"
    r"warn|ban|banned|suspend|audit|entry|entries|history|recent|created|finished|"
    r"wild|skip|reverse|red|blue|green|yellow|clockwise|play|day|days|hours?)\b",
    re.IGNORECASE,
)


class _Text(HTMLParser):
    """A page's text as a person meets it: text outside script and style, and the words given
    to assistive technology or a confirmation (``aria-label``, ``placeholder``,
    ``data-confirm``). Not ``title``: the replay's cards carry their ids there (``red-7-b``)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "placeholder", "data-confirm") and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.texts.append(text)


def page_texts(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.texts


def english_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each English text of the catalogue whose Danish differs, as a pattern of its pieces
    between tags and placeholders (a piece needs a word of four letters or more to say anything
    on its own: "to" is also Danish for two)."""
    patterns = []
    for entry in PO:
        danish = entry.msgstr_plural.get(1) if entry.msgid_plural else entry.msgstr
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            if danish == english:
                continue
            for piece in re.split(r"<[^>]+>|%\(\w+\)[sd]", english):
                piece = piece.strip(" .,:;()—·")
                if re.search(r"[A-Za-z]{4,}", piece):
                    patterns.append((english, re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)")))
    return patterns


PATTERNS = english_patterns()


def assert_danish(client: Client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")  # the profile's language wins
    assert response.status_code == 200, url
    assert response["Content-Language"] == "da"
    html = response.content.decode()
    found = []
    for text in page_texts(html):
        text = text.replace("Uno All Wild", "")  # the service's name, in every language
        found += [f"{text!r} ({english!r})" for english, p in PATTERNS if p.search(text)]
        found += [f"{text!r} (word {m!r})" for m in ENGLISH_WORDS.findall(text)]
    assert not found, f"English on {url}:\n" + "\n".join(sorted(set(found)))
    return html


@pytest.fixture
def danish_moderator(db: None) -> User:
    user = make_moderator()
    user.language = "da"
    user.save(update_fields=["language"])
    return user


def test_the_compiled_catalogue_says_what_the_po_says() -> None:
    mo = polib.mofile(str(CATALOGUE / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): e for e in mo if e.msgid}
    written = [e for e in PO if not e.obsolete]
    assert all(e.translated() and "fuzzy" not in e.flags for e in written), "untranslated"
    assert {(e.msgctxt, e.msgid) for e in written} == set(compiled)
    for entry in written:
        mo_entry = compiled[(entry.msgctxt, entry.msgid)]
        if entry.msgid_plural:
            assert mo_entry.msgstr_plural == entry.msgstr_plural, entry.msgid
        else:
            assert mo_entry.msgstr == entry.msgstr, entry.msgid
    # Danish placeholders are the English ones: a slip would fail only at runtime.
    for entry in written:
        names = set(re.findall(r"%\(\w+\)[sd]", entry.msgid))
        for danish in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            assert set(re.findall(r"%\(\w+\)[sd]", danish)) == names, entry.msgid


def test_the_panel_speaks_the_moderators_own_language(danish_moderator: User) -> None:
    client = logged_in(danish_moderator)
    queue = reverse("admin:moderation_report_changelist")
    assert client.get(queue, HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "da"
    danish_moderator.language = "en"
    danish_moderator.save(update_fields=["language"])
    assert client.get(queue, HTTP_ACCEPT_LANGUAGE="da")["Content-Language"] == "en"
    # Signed out (the log-in page), the browser's language decides.
    login = Client().get(reverse("admin:login"), HTTP_ACCEPT_LANGUAGE="da")
    assert login["Content-Language"] == "da"


def test_a_danish_moderator_meets_no_english_on_the_main_pages(
    danish_moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = finished_game([alice, bob, carol])
    report = Report.objects.create(
        reporter=alice.user,
        reported=bob.user,
        reason=Report.CHEATING,
        reasons=[Report.CHEATING, Report.STALLING],
        game_id=game_id,
    )
    # A closed report and a sanction, so the history, sanction and audit tables have rows.
    other = make_moderator("mo2")
    services.warn(moderator=other, user_id=carol.user.pk, reason="Tak.")
    Report.objects.create(reporter=alice.user, reported=carol.user, reason=Report.OTHER)
    client = logged_in(danish_moderator)
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))

    assert_danish(client, reverse("admin:moderation_report_changelist"))
    html = assert_danish(client, reverse("admin:moderation_report_change", args=[report.pk]))
    assert "Anmeldt spiller" in html and ">Afvis<" in html and ">Advar<" in html
    assert "Udeluk" in html
    html = assert_danish(client, reverse("admin:players_user_change", args=[carol.user.pk]))
    # The panel's own dates in the Danish way (03.12.2026 14:32), not the English 2026-12-03.
    assert re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", html)
    assert not re.search(r"\d{4}-\d\d-\d\d \d", html)
    assert_danish(client, reverse("admin:players_user_changelist"))
    html = assert_danish(client, reverse("admin:games_game_change", args=[game_id]))
    assert "1 dag pr. tur" in html
    assert_danish(client, reverse("admin:games_game_changelist"))
    lobby = new_lobby(alice, options={"stacking": True, "mercy": True}, turn_seconds=5400)
    html = assert_danish(client, reverse("admin:games_game_change", args=[lobby["id"]]))
    assert "Stabling, Nåde" in html and "1 time 30 minutter pr. tur" in html
    replay = reverse("admin:games_game_replay", args=[game_id])
    html = assert_danish(client, f"{replay}?move={numbers[len(numbers) // 2]}")
    assert "Trækbunke" in html and "Efter træk" in html
    # Every move's events in words (the move log above lists every move's action).
    for number in numbers:
        assert_danish(client, f"{replay}?move={number}")
    html = assert_danish(client, reverse("admin:moderation_auditentry_changelist"))
    assert "Spiller advaret" in html and "Genafspilning set" in html
    assert "Åbnede genafspilningen ved træk" in html
    entry = AuditEntry.objects.filter(action=audit.PLAYER_WARNED).get()
    assert_danish(client, reverse("admin:moderation_auditentry_change", args=[entry.pk]))
    assert_danish(client, reverse("admin:moderation_sanction_changelist"))
    assert_danish(client, reverse("admin:moderation_collusionsignal_changelist") + "?all=1")
    assert_danish(client, reverse("admin:index"))
    # What an act answers, in the moderator's language too.
    resolve = reverse("admin:moderation_report_resolve", args=[report.pk])
    response = client.post(resolve, {"action": "warn", "reason": "Stop."}, follow=True)
    assert "Advarede bob." in response.content.decode()
    response = client.post(resolve, {"action": "warn", "reason": "Igen."}, follow=True)
    assert "Anmeldelsen er allerede lukket. (report_closed)" in response.content.decode()


# Random play ends a round within this many moves in these seeded games (Gin's and No Mercy's
# first round; Splash's is longer: its first 300 moves).
MOVES = 300


def play_a_round(players: list[Player], game_id: str, rng: random.Random) -> list[Move]:
    """Random legal actions for whoever is to move until the first round ends or MOVES have
    been played (a whole random match of some games runs to thousands of moves); the game's
    moves so far."""
    by_user = {p.user.pk: p for p in players}
    for _ in range(MOVES):
        last = Move.objects.filter(game_id=game_id).order_by("-number").first()
        if last is not None and any(e.get("type") == "round_over" for e in last.events):
            break
        player = by_user[Game.objects.get(pk=game_id).current_user_id]
        response = player.act(game_id, random_action(player.table(game_id), rng))
        assert response.status_code == 200, response.content
    return list(Move.objects.filter(game_id=game_id))


@pytest.mark.parametrize("kind", ["uno_splash", "uno_no_mercy", "gin_rummy"])
def test_every_games_replay_is_danish_for_a_danish_moderator(
    danish_moderator: User,
    alice: Player,
    bob: Player,
    kind: str,
    seeded_engine: Callable[[int], random.Random],
) -> None:
    """Each game names its own cards and logs its own moves: all of them read in Danish."""
    seeded_engine(5)  # the same deals every run
    game_id = start_game(alice, bob, game=kind)
    # Up to a round's end, with everything it logs (a Gin round: layouts, melds, deadwood).
    moves = play_a_round([alice, bob], game_id, random.Random(3))
    client = logged_in(danish_moderator)
    replay = reverse("admin:games_game_replay", args=[game_id])
    # Each page replays the log up to its move: about sixty pages, the round's end included.
    for move in [*moves[: -1 : max(1, len(moves) // 60)], moves[-1]]:
        assert_danish(client, f"{replay}?move={move.number}")
