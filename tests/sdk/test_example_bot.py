"""examples/bot/ (issue 33 §3): the example bot, run as its own process with a bot account's
token against a live server, is challenged by four players to a game of each kind, accepts each
by itself from its event stream and plays every one to the end."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from games.models import Game
from tests.sdk.conftest import KINDS, ROOT, sign_up
from tests.sdk.test_python_sdk import Seat

BOT = ROOT / "examples" / "bot" / "bot.py"
TIME_LIMIT_SECONDS = 300


class BotProcess:
    """The bot's process, its output read line by line as it comes."""

    def __init__(self, url: str, token: str, client_dir: Path, games: int) -> None:
        paths = [str(client_dir), str(ROOT / "sdk" / "python")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self.process = subprocess.Popen(
            [sys.executable, str(BOT), "--url", url, "--token", token]
            + ["--stop-after", str(games), "--seed", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "the bot exited:\n" + "".join(self.output)
            if text in line:
                return


def make_bot_account(base_url: str, owner_token: str) -> tuple[str, str]:
    from cardgames_client.api.bots import me_bots_create
    from cardgames_client.models import NewBot
    from cardgames_sdk import CardGames

    made = CardGames(base_url, owner_token).call(
        me_bots_create, body=NewBot(username="example-bot", display_name="Example")
    )
    return made.bot.username, made.token.token


def challenge(base_url: str, token: str, bot: str, kind: str) -> Any:
    from cardgames_client.api.social import challenges_create
    from cardgames_client.models import ChallengeRequest, GameEnum
    from cardgames_sdk import CardGames

    sent = CardGames(base_url, token).call(
        challenges_create,
        body=ChallengeRequest(username=bot, game=GameEnum(kind), target_score=0),
    )
    return sent.game_id


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lifted_game_throttles")
def test_the_example_bot_accepts_a_challenge_of_each_kind_and_plays_them_to_the_end(
    live_server: Any, python_sdk: Path
) -> None:
    from cardgames_sdk import CardGames

    owner = sign_up(live_server.url, "olga")
    bot_name, bot_token = make_bot_account(live_server.url, owner.token)
    with override_settings(LIVE_HEARTBEAT_SECONDS=0.5):
        bot = BotProcess(live_server.url, bot_token, python_sdk, games=len(KINDS))
        try:
            bot.wait_for("listening from event")
            seats: list[Seat] = []
            for kind, name in zip(KINDS, ("ann", "ben", "cat", "dan"), strict=True):
                person = sign_up(live_server.url, name)
                after = CardGames(live_server.url, person.token).latest_event_id()
                seat = Seat(live_server.url, person, after)
                seat.game_id = challenge(live_server.url, person.token, bot_name, kind)
                seat.ready.set()
                seat.start()
                seats.append(seat)
            bot.process.wait(timeout=TIME_LIMIT_SECONDS)
            deadline = time.monotonic() + 30
            for seat in seats:
                seat.join(max(1.0, deadline - time.monotonic()))
        finally:
            if bot.process.poll() is None:
                bot.process.kill()
                bot.process.wait()
    log = "".join(bot.output)
    assert bot.process.returncode == 0, log
    assert "done: 4 games finished" in log, log
    for seat in seats:
        assert seat.error is None, repr(seat.error)
        assert seat.final is not None and str(seat.final.status) == "finished", log
        names = sorted(p.name for p in seat.final.players)
        assert "Example (bot)" in names, names
    games = Game.objects.filter(pk__in=[s.game_id for s in seats])
    assert sorted(g.kind for g in games) == sorted(KINDS)
    assert all(g.status == Game.FINISHED and not g.rated for g in games)
