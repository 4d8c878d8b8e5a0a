"""Failed log-ins are limited per account, on every log-in path, with a wait that doubles
(players/lockout.py): the API's session log-in, token creation and the admin's form."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from time_machine import TimeMachineFixture

from players import lockout
from players.models import User
from tests.errors import error_code
from tests.players.conftest import PASSWORD

WRONG = "not-the-password-9"


@pytest.fixture(autouse=True)
def generous_address_throttle(settings: Any) -> None:
    # The per-address throttle is not under test here: only the per-account limit.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "auth": "1000/min",
        },
    }


@pytest.fixture
def mo(make_user: Any) -> User:
    return make_user("mo", is_staff=True, is_superuser=True)


def token_attempt(username: str, password: str, address: str) -> Any:
    return APIClient().post(
        "/api/v1/auth/tokens/",
        {"username": username, "password": password, "name": "x", "scope": "play"},
        format="json",
        REMOTE_ADDR=address,
    )


def session_attempt(client: APIClient, username: str, password: str) -> Any:
    return client.post(
        "/api/v1/auth/login/", {"username": username, "password": password}, format="json"
    )


def admin_attempt(client: Client, username: str, password: str, address: str) -> Any:
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def fail_five_times_in_the_admin(username: str) -> None:
    attacker = Client()
    for n in range(5):
        response = admin_attempt(attacker, username, WRONG, f"198.51.100.{n}")
        assert response.status_code == 200  # the form again, with its error


def test_while_the_admin_form_makes_an_account_wait_the_api_session_log_in_waits_too(
    mo: User, time_machine: TimeMachineFixture
) -> None:
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    fail_five_times_in_the_admin("mo")
    client = APIClient()
    refused = session_attempt(client, "mo", PASSWORD)
    assert refused.status_code == 429
    assert error_code(refused) == "throttled"
    assert refused["Retry-After"] == "1"
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # to the log-in page


def test_token_creation_is_limited_per_account_from_any_number_of_addresses(
    alice: User, time_machine: TimeMachineFixture
) -> None:
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    answers = [token_attempt("alice", WRONG, f"203.0.113.{n}").status_code for n in range(5)]
    assert answers == [400] * 5
    # A sixth address, with the right password: refused without the password being checked.
    refused = token_attempt("alice", PASSWORD, "203.0.113.99")
    assert refused.status_code == 429
    assert not alice.tokens.exists()


def test_the_wait_doubles_with_each_further_failure_and_refusals_do_not_lengthen_it(
    alice: User, time_machine: TimeMachineFixture
) -> None:
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    for n in range(5):
        assert token_attempt("alice", WRONG, f"203.0.113.{n}").status_code == 400
    for wait in (1, 2, 4, 8):
        early = token_attempt("alice", WRONG, "203.0.113.50")
        assert early.status_code == 429 and early["Retry-After"] == str(wait)
        time_machine.shift(wait)
        assert token_attempt("alice", WRONG, "203.0.113.51").status_code == 400
    # Twenty refused tries later, the wait is still the one the last failure set.
    for _ in range(20):
        assert token_attempt("alice", WRONG, "203.0.113.52").status_code == 429
    time_machine.shift(16)
    assert token_attempt("alice", PASSWORD, "203.0.113.53").status_code == 201


def test_the_wait_is_capped(alice: User, settings: Any, time_machine: TimeMachineFixture) -> None:
    settings.LOGIN_MAX_DELAY_SECONDS = 3
    assert [lockout.delay_after(n) for n in range(4, 10)] == [0, 1, 2, 3, 3, 3]


def test_someone_elses_failures_keep_a_moderator_out_for_one_wait_at_most(
    mo: User, make_user: Any, time_machine: TimeMachineFixture
) -> None:
    make_user("sam", is_staff=True, is_superuser=True)
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    fail_five_times_in_the_admin("mo")
    moderator = Client()
    refused = admin_attempt(moderator, "mo", PASSWORD, "192.0.2.10")
    assert "Too many failed log-in attempts. Try again in 1 seconds." in refused.content.decode()
    # The address that failed is not locked for other accounts.
    assert admin_attempt(Client(), "sam", PASSWORD, "198.51.100.4").status_code == 302
    time_machine.shift(1)
    welcome = admin_attempt(moderator, "mo", PASSWORD, "192.0.2.10")
    assert welcome.status_code == 302
    assert moderator.get("/admin/").status_code == 200


def test_a_success_clears_the_failures(alice: User, time_machine: TimeMachineFixture) -> None:
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    for _ in range(4):
        assert token_attempt("alice", WRONG, "203.0.113.1").status_code == 400
    assert token_attempt("alice", PASSWORD, "203.0.113.1").status_code == 201
    for _ in range(5):
        assert token_attempt("alice", WRONG, "203.0.113.1").status_code == 400


def test_unknown_names_wait_like_real_ones(db: None, time_machine: TimeMachineFixture) -> None:
    # Otherwise the 429 would tell which names have accounts.
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    answers = [token_attempt("nobody", WRONG, "203.0.113.1").status_code for _ in range(6)]
    assert answers == [400] * 5 + [429]


def test_parallel_attempts_after_a_wait_get_one_turn_between_them(
    time_machine: TimeMachineFixture,
) -> None:
    time_machine.move_to("2026-05-01 12:00:00Z", tick=False)
    for _ in range(5):
        lockout.begin("alice")
        lockout.failed("alice")
    time_machine.shift(1)
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def attempt() -> None:
        start.wait()
        try:
            lockout.begin("alice")
        except lockout.LoginDelayed:
            outcomes.append("refused")
        else:
            outcomes.append("checked")

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["checked"] + ["refused"] * 7
