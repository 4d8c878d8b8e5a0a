"""The SDKs and the example bot against a live server (issue 33 §3, §4): each generated from the
committed openapi.yaml into a temporary folder by sdk/generate.py, the one command a developer
runs, so what is tested is what a developer builds."""

from __future__ import annotations

import importlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import ScopedRateThrottle

ROOT = Path(__file__).resolve().parents[2]
GENERATE = ROOT / "sdk" / "generate.py"
PASSWORD = "correct-horse-battery-7"
KINDS = ["uno_all_wild", "uno_splash", "uno_no_mercy", "gin_rummy"]


@pytest.fixture
def lifted_game_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games send more actions a minute than a person would: lift the games and actions rates,
    with a throttle cache of this test's own."""
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {**ScopedRateThrottle.THROTTLE_RATES, "actions": None, "games": None, "auth": None},
    )
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache(f"t-{uuid.uuid4()}", {}))


def generate(out: Path, *extra: str) -> None:
    result = subprocess.run(
        [sys.executable, str(GENERATE), "--out", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"sdk/generate.py failed:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def python_sdk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The generated ``cardgames_client`` (in a temporary folder) and the hand-written
    ``cardgames_sdk``, importable for the module. Yields the folder the client is in."""
    out = tmp_path_factory.mktemp("sdk")
    generate(out, "--python-only")
    paths = [str(ROOT / "sdk" / "python"), str(out / "python")]
    for path in paths:
        sys.path.insert(0, path)  # the fresh client first: before any local build of it
    try:
        importlib.import_module("cardgames_sdk")
        yield out / "python"
    finally:
        for path in paths:
            sys.path.remove(path)
        for name in [m for m in sys.modules if m.split(".")[0] in SDK_PACKAGES]:
            del sys.modules[name]


SDK_PACKAGES = {"cardgames_client", "cardgames_sdk"}


@dataclass
class Account:
    username: str
    token: str


def sign_up(base_url: str, name: str) -> Account:
    """A person's account, through the generated client's public sign-up."""
    from cardgames_client import Client
    from cardgames_client.api.auth import auth_signup
    from cardgames_client.models import Signup

    username = f"{name}-{uuid.uuid4().hex[:6]}"
    response = auth_signup.sync_detailed(
        client=Client(base_url=base_url, raise_on_unexpected_status=True),
        body=Signup(username=username, password=PASSWORD, display_name=name.title()),
    )
    assert response.status_code == 201, response.content
    parsed: Any = response.parsed
    return Account(username, parsed.token.token)
