"""Display names (and new usernames) pass the configurable blocklist at sign-up and rename."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from players import blocklist
from tests.games.conftest import API_TESTS, Player

pytestmark = API_TESTS

SIGNUP = "/api/v1/auth/signup/"


@pytest.fixture(autouse=True)
def words(settings: Any) -> None:
    settings.DISPLAY_NAME_BLOCKLIST = ["admin", "badword"]
    settings.DISPLAY_NAME_BLOCKLIST_FILE = ""


def signup(**body: Any) -> Any:
    body = {"username": "erin", "password": "correct-horse-battery-7", **body}
    return APIClient().post(SIGNUP, body, format="json")


@pytest.mark.parametrize("name", ["BadWord", "xX_b4dw0rd_Xx", "Bädwörd", "the admin", "ＡＤＭＩＮ"])
def test_a_blocked_display_name_is_refused_at_sign_up(name: str) -> None:
    response = signup(display_name=name)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert "display_name" in error["details"]["fields"]


def test_a_blocked_username_is_refused_at_sign_up() -> None:
    response = signup(username="admin_erin")
    assert response.status_code == 400
    assert "username" in response.json()["error"]["details"]["fields"]


def test_a_clean_name_is_welcome() -> None:
    assert signup(display_name="Erin the Bold").status_code == 201


def test_a_rename_to_a_blocked_name_is_refused(alice: Player) -> None:
    response = alice.client.patch("/api/v1/me/", {"display_name": "Badword"}, format="json")
    assert response.status_code == 400
    assert "display_name" in response.json()["error"]["details"]["fields"]
    alice.user.refresh_from_db()
    assert alice.user.display_name == "Alice"
    ok = alice.client.patch("/api/v1/me/", {"display_name": "Alice B."}, format="json")
    assert ok.status_code == 200


def test_more_words_come_from_a_file(settings: Any, tmp_path: Any) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# one word a line\nsnark  # trailing comment\n\n", encoding="utf-8")
    settings.DISPLAY_NAME_BLOCKLIST_FILE = str(path)
    assert not blocklist.is_allowed("Snarky")
    assert blocklist.is_allowed("Erin")


# ---------------------------------------------------------------------------------------------
# Look-alikes from other scripts (Unicode's confusables) and invisible characters


@pytest.mark.parametrize(
    "name",
    [
        "Моdеrаtоr",  # Cyrillic М, о, е, а, о
        "аdmin",  # Cyrillic а
        "ΑDΜΙΝ",  # Greek capitals
        "ɑdmin",  # Latin alpha
        "aԁmin",  # Cyrillic komi de
        "ADMlN",  # small L for capital i
        "𝐚𝐝𝐦𝐢𝐧",
    ],
)
def test_a_look_alike_of_a_blocked_word_is_refused(name: str, settings: Any) -> None:
    settings.DISPLAY_NAME_BLOCKLIST = ["admin", "moderator"]
    response = signup(display_name=name)
    assert response.status_code == 400, (name, response.content)
    assert "display_name" in response.json()["error"]["details"]["fields"]


def test_a_look_alike_username_is_refused(settings: Any) -> None:
    settings.DISPLAY_NAME_BLOCKLIST = ["moderator"]
    response = signup(username="Моdеrаtоr")
    assert response.status_code == 400
    assert "username" in response.json()["error"]["details"]["fields"]


@pytest.mark.parametrize("name", ["Søren", "Дмитрий", "Модератор", "山田", "Zoë", "José"])
def test_names_in_other_scripts_that_look_like_no_blocked_word_are_welcome(
    name: str, settings: Any
) -> None:
    settings.DISPLAY_NAME_BLOCKLIST = ["admin", "moderator"]
    assert signup(display_name=name).status_code == 201, name


@pytest.mark.parametrize(
    "name",
    [
        "Wild\u202e",  # right-to-left override: the game log would read ".dliW deyalp"
        "\u2066Erin\u2069",  # isolates
        "Er\u200bin",  # zero-width space
        "Er\u200din",  # zero-width joiner
        "Erin\u0007",  # a control character
        "Er\u2028in",  # line separator
        "Erin\ue000",  # private use
    ],
)
def test_invisible_and_control_characters_are_refused_in_a_display_name(name: str) -> None:
    response = signup(display_name=name)
    assert response.status_code == 400, repr(name)
    assert "display_name" in response.json()["error"]["details"]["fields"]


def test_a_rename_to_a_name_with_a_bidi_override_is_refused(alice: Player) -> None:
    response = alice.client.patch("/api/v1/me/", {"display_name": "\u202eecilA"}, format="json")
    assert response.status_code == 400
    alice.user.refresh_from_db()
    assert alice.user.display_name == "Alice"
