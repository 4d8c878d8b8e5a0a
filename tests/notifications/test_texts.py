"""Every kind has words in English and Danish, and players get theirs in their own language."""

from __future__ import annotations

import pytest
from time_machine import TimeMachineFixture

from notifications import kinds, relay, texts
from tests.games.conftest import Player
from tests.notifications.conftest import mails_to, persona, your_turn_for

SAMPLE = {
    "opponents": ["Bob", "Carol"],
    "by": "Bob",
    "winner": "Bob",
    "round": 2,
    "points": 41,
    "cards": 2,
    "seconds_left": 5 * 3600,
    "message": "Please be kind at the table.",
}


def render(language: str, kind: str, **data: object) -> tuple[str, str]:
    with texts.in_language(language):
        return texts.render(kind, {**SAMPLE, **data})


@pytest.mark.parametrize("kind", kinds.KINDS)
def test_every_kind_has_an_english_and_a_danish_text(kind: str) -> None:
    english, danish = render("en", kind), render("da", kind)
    assert all(english) and all(danish)
    assert english[0] != danish[0]  # the title is translated
    if kind != kinds.MODERATION:  # a moderator's own words are shown as written
        assert english[1] != danish[1]
    assert "%(" not in "".join(english + danish)


def test_the_danish_texts_read_as_expected() -> None:
    assert render("da", kinds.YOUR_TURN) == ("Din tur", "Det er din tur mod Bob og Carol.")
    assert (
        render("da", kinds.REMINDER)[1] == "Du har 5 timer tilbage til dit træk mod Bob og Carol."
    )
    assert render("da", kinds.ROUND_OVER, you_won=True)[1] == "Du vandt runden og fik 41 point."
    assert render("en", kinds.ROUND_OVER, points=1)[1] == "Bob won the round and scored 1 point."
    with texts.in_language("da"):
        assert texts.render_collapsed(3)[0] == "Det er din tur i 3 spil"


def test_an_unknown_language_falls_back_to_english() -> None:
    assert render("xx", kinds.YOUR_TURN)[0] == "Your turn"


@pytest.mark.django_db
def test_a_danish_player_gets_danish_mail(alice: Player, clock: TimeMachineFixture) -> None:
    bo = persona("bo", language="da", display_name="Bo")
    your_turn_for(bo, alice, bo)
    relay.relay()
    (message,) = mails_to(bo)
    assert message.subject == "Din tur"
    assert "Det er din tur mod Alice." in message.body
    assert "Åbn spillet:" in message.body
