"""Per move: queries and CPU of the action request, of the next seat's view, and of the live
delivery to every seat's stream, with the announcements' news on and off in the same run.

Run from the repository root::

    python bench/per_move.py                    # 300 moves per mode, on a SQLite test database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/uaw python bench/per_move.py --moves 600

It creates a test database (Django's ``setup_databases``: ``test_<name>``, dropped at the end),
three players with bearer tokens and a 3-player game, and plays random legal moves through the
real service in this process: Django's test client, so every request goes through the URL
resolver, the middleware, DRF's authentication, permissions and throttles, the view and the
ORM. A finished game is followed by a new one.

Per move it measures (queries: ``CaptureQueriesContext``; CPU: this thread's CPU time):

* **action**: the ``POST games/{id}/actions/`` of the seat to move;
* **view**: the ``GET games/{id}/`` by which the next seat to move reloads its view;
* **stream view**: what replaces that request for a seat whose stream carries views
  (``?view=true``): the live process's read of the same view (``streams._read_view``: the
  credentials, the view), the same view checked equal, and its ``view`` event's bytes;
* **live**: what the live process does for the three streams of the game once the move is
  announced (``games.api.streams``: the update from the announcement's news, or the database
  read when there is none, then the Server-Sent Event's bytes), summed over the streams.

Modes, alternated in blocks of ``--block`` moves so a busy spell of the machine falls on all of
them (``--modes`` picks some): **shipped** (this tree, logging as docker-compose.yml sets it:
``LOG_FORMAT=json``, ``LOG_LEVEL=INFO``, the lines written to /dev/null), and the same with one
part of the move path switched off, to say what each costs: **no metrics** (the moves counter
and the request latency histogram), **no request log** (the JSON line per request), **no
last-seen** (social's middleware), **no account wake-ups** (the account stream's wake-up of each
player a move notifies), **no ratings** (the receivers of a finished match), **news off** (every
announcement carries only the version, so each stream reads the game back, as before the news
existed). With ``REDIS_URL`` set, announcements, the cache and the last-seen stamps go through
that Redis, as in production. The live process hands its database connection back to a pool
between reads; here it stays open (a pool's checkout is not what is measured), in every mode.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import logging
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for _scope in ("AUTH", "ACTIONS", "GAMES"):
    os.environ.setdefault(f"THROTTLE_{_scope}", "1000000/s")
# Logging as docker-compose.yml runs the service: one JSON line per request.
os.environ.setdefault("LOG_FORMAT", "json")
os.environ.setdefault("LOG_LEVEL", "INFO")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)
from rest_framework.test import APIClient  # noqa: E402
from rest_framework.utils.encoders import JSONEncoder  # noqa: E402

from config import logs, metrics  # noqa: E402
from games import signals  # noqa: E402
from games.api import streams  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.services import base  # noqa: E402
from live import announce  # noqa: E402
from notifications import services as notification_services  # noqa: E402
from players.models import ApiToken, User  # noqa: E402
from ratings import receivers  # noqa: E402
from social.middleware import LastSeenMiddleware  # noqa: E402

API = "/api/v1/games/"


MEASURED = ("action", "view", "stream view", "live")


class _Unobserved:
    """A histogram's or counter's stand-in that records nothing."""

    def labels(self, **_: Any) -> _Unobserved:
        return self

    def observe(self, _: float) -> None:
        return None

    def inc(self, _: float = 1) -> None:
        return None


def _patched(*patches: AbstractContextManager[Any]) -> Callable[[], AbstractContextManager[Any]]:
    @contextlib.contextmanager
    def both() -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            for one in patches:
                stack.enter_context(one)
            yield

    return both


@contextlib.contextmanager
def _no_ratings() -> Iterator[None]:
    signals.match_finished.disconnect(dispatch_uid="ratings.rate_finished_match")
    receivers.records.record_building.disconnect(dispatch_uid="ratings.record_rating_changes")
    try:
        yield
    finally:
        receivers.connect()


def _passed_through(self: LastSeenMiddleware, request: Any) -> Any:
    return self.get_response(request)


def _noop(*_: Any, **__: Any) -> None:
    return None


# Each mode: a fresh context manager that switches its part off (none for "shipped").
MODES: dict[str, Callable[[], AbstractContextManager[Any]]] = {
    "shipped": contextlib.nullcontext,
    "no metrics": lambda: _patched(
        mock.patch.object(metrics, "after_commit", _noop),
        mock.patch.object(logs.metrics, "REQUEST_SECONDS", _Unobserved()),
    )(),
    "no request log": lambda: mock.patch.object(logs.request_logger, "info", _noop),
    "no last-seen": lambda: mock.patch.object(LastSeenMiddleware, "__call__", _passed_through),
    "no account wake-ups": lambda: _patched(
        mock.patch.object(base, "announce_to", _noop),
        mock.patch.object(notification_services, "_announce_to", _noop),
    )(),
    "no ratings": _no_ratings,
    "news off": lambda: mock.patch.object(base, "move_news", lambda *a: None),
}


class Seated:
    def __init__(self, name: str) -> None:
        self.user = User.objects.create_user(username=name, display_name=name.title())
        self.token, raw = ApiToken.issue(self.user, name="bench", scope=ApiToken.SCOPE_PLAY)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")


class Totals:
    def __init__(self) -> None:
        self.queries: list[int] = []
        self.cpu: list[float] = []

    def add(self, queries: int, cpu: float) -> None:
        self.queries.append(queries)
        self.cpu.append(cpu)

    def line(self) -> tuple[float, float, float]:
        n = max(len(self.cpu), 1)
        median = statistics.median(self.cpu) * 1000 if self.cpu else 0.0
        return sum(self.queries) / n, sum(self.cpu) * 1000 / n, median


def measured(totals: Totals, call: Callable[[], Any]) -> Any:
    with CaptureQueriesContext(connection) as queries:
        started = time.thread_time()
        result = call()
        cpu = time.thread_time() - started
    totals.add(len(queries.captured_queries), cpu)
    return result


def new_game(players: list[Seated], rng: random.Random) -> str:
    host, *others = players
    lobby = host.client.post(
        API, {"max_players": len(players), "target_score": 0}, format="json"
    ).json()
    for other in others:
        answer = other.client.post(f"{API}join/", {"invite_code": lobby["invite_code"]})
        assert answer.status_code == 200, answer.content
    return str(lobby["id"])


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = view["table"]["legal_actions"]
    action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
    choose = action.pop("choose", None)
    if choose is not None:
        action["cards"] = rng.sample(choose["from"], choose["count"])
        if choose.get("targets"):
            action["targets"] = [rng.choice(choose["target_from"]) for _ in range(2)]
    if action["type"] in ("play", "play_drawn") and rng.random() < 0.7:
        action["uno"] = True
    return {**action, "expected_version": view["version"]}


class Streams:
    """The three streams of a game, as ``live.driver`` drives their steps after a wake-up."""

    def __init__(self, game_id: str, players: list[Seated]) -> None:
        game = Game.objects.get(pk=game_id)
        self.plans = []
        for player in players:
            seat = Seat.objects.filter(game_id=game_id, user=player.user).first()
            position = seat.position if seat is not None else None
            self.plans.append(
                streams.StreamPlan(
                    game_id, game.kind, player.user, player.token.pk, position, update={}
                )
            )
        self.cursor = {plan.user.pk: game.version for plan in self.plans}
        self.version = game.version

    def viewing(self, user_id: int) -> streams.StreamPlan:
        """The plan of ``user_id``'s stream, opened with ``?view=true``."""
        plan = next(plan for plan in self.plans if plan.user.pk == user_id)
        return dataclasses.replace(plan, with_view=True)

    def deliver(self, version: int, news_on: bool) -> None:
        notifier = announce.notifier()
        for plan in self.plans:
            after = self.cursor[plan.user.pk]
            update, last = (
                streams._from_news(plan, after, self.version, version, notifier)
                if news_on
                else (None, None)
            )
            if update is None:
                if last is not None:
                    update, _, _ = streams._fetch_private(plan, after, last)
                else:
                    update, _, _ = streams._fetch(plan, after)
            assert update is not None and update["version"] >= version, update
            streams._sse("version", update, event_id=update["next_after"])
            self.cursor[plan.user.pk] = update["next_after"]
        self.version = version


def stream_view(plan: streams.StreamPlan) -> dict[str, Any]:
    """What the live process does for a ``view`` event: read the view, write the event."""
    view, reason = streams._read_view(plan)
    assert view is not None and reason == "", reason
    streams._sse("view", view)
    return json.loads(json.dumps(view, cls=JSONEncoder))  # as the client reads it


class Table:
    """The game being played, carried from one block to the next: a new game per block would
    leave one unfinished game per block, and a player may only have so many."""

    game_id: str | None = None
    live: Streams | None = None


def play(
    moves: int, mode: str, players: list[Seated], rng: random.Random, out: dict, table: Table
) -> None:
    """``moves`` accepted moves in one mode; a finished game is followed by a new one."""
    by_user = {p.user.pk: p for p in players}
    news_on = mode != "news off"
    with MODES[mode]():
        if table.game_id is None or table.live is None:
            table.game_id = new_game(players, rng)
            table.live = Streams(table.game_id, players)
        game_id, live = table.game_id, table.live
        done = 0
        while done < moves:
            game = Game.objects.values_list("status", "current_user_id").get(pk=game_id)
            if game[0] != Game.ACTIVE:
                game_id = table.game_id = new_game(players, rng)
                live = table.live = Streams(game_id, players)
                continue
            mover = by_user[game[1]]
            url = f"{API}{game_id}/"
            view = measured(out["view"], lambda m=mover, u=url: m.client.get(u)).json()
            plan = live.viewing(mover.user.pk)
            streamed = measured(out["stream view"], lambda p=plan: stream_view(p))
            assert streamed == view, "the stream's view differs from the game view"
            action = pick(view, rng)
            answer = measured(
                out["action"],
                lambda m=mover, u=url, a=action: m.client.post(u + "actions/", a, format="json"),
            )
            assert answer.status_code == 200, answer.content
            version = answer.json()["version"]
            measured(out["live"], lambda v=version, s=live: s.deliver(v, news_on))
            done += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves per mode (300)")
    parser.add_argument("--block", type=int, default=50, help="moves per block (50)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--modes",
        default=",".join(MODES),
        help="comma-separated, of: " + ", ".join(MODES) + " (default: all)",
    )
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes: {sorted(unknown)}")
    # The log lines are formatted as in production and thrown away (the report is on stdout).
    devnull = open(os.devnull, "w")  # noqa: SIM115 - open for the whole run
    for handler in {
        h for lg in (logging.getLogger(), logging.getLogger("config")) for h in lg.handlers
    }:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(devnull)

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    # The live process hands its connection back to a pool between reads: keep it open here.
    streams.release_connections = lambda: None  # type: ignore[assignment]
    try:
        players = [Seated(name) for name in ("ann", "ben", "cat")]
        rng = random.Random(args.seed)
        results = {mode: {k: Totals() for k in MEASURED} for mode in modes}
        table = Table()
        play(10, "shipped", players, rng, {k: Totals() for k in MEASURED}, table)  # warm
        left = args.moves
        while left > 0:
            block = min(args.block, left)
            for mode in modes:
                play(block, mode, players, rng, results[mode], table)
            left -= block
    finally:
        teardown_databases(old, verbosity=0)

    print(
        f"# bench/per_move.py: {args.moves} moves per mode, {connection.vendor}, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"Redis: {'yes' if os.environ.get('REDIS_URL') else 'no'}, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print("| what | mode | queries per move | CPU ms per move (mean) | CPU ms (median) |")
    print("|---|---|---:|---:|---:|")
    for what in MEASURED:
        for mode in modes:
            queries, cpu, median = results[mode][what].line()
            print(f"| {what} | {mode} | {queries:.2f} | {cpu:.2f} | {median:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
