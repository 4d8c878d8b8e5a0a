"""The notification settings read from the environment."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.test_settings_env import load_settings


def test_reminder_fractions_default_to_half_and_a_tenth(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(monkeypatch)["NOTIFY_REMINDER_FRACTIONS"] == [0.5, 0.1]


def test_reminder_fractions_are_read_largest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, NOTIFY_REMINDER_FRACTIONS="0.05, 0.75,0.25")
    assert loaded["NOTIFY_REMINDER_FRACTIONS"] == [0.75, 0.25, 0.05]


@pytest.mark.parametrize("value", ["half", "0.5,1", "0", "-0.1"])
def test_bad_reminder_fractions_stop_the_service(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="NOTIFY_REMINDER_FRACTIONS"):
        load_settings(monkeypatch, NOTIFY_REMINDER_FRACTIONS=value)


def test_with_redis_the_cache_fails_open(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, REDIS_URL="redis://cache:6379/0")
    assert loaded["CACHES"]["default"]["BACKEND"] == "config.cache.FailOpenRedisCache"
    assert loaded["CACHES"]["default"]["OPTIONS"]["socket_connect_timeout"] <= 1
