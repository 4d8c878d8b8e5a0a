"""A backup restores into a new database and a game that was in progress is finished there
(issue 30, §3), with the commands docs/deploy.md ("Backups") gives an operator.

On PostgreSQL: ``pg_dump -Fc`` of the test database while alice and bob are mid-game, ``createdb``
and ``pg_restore`` into a fresh database. On SQLite (the other CI pass): ``sqlite3 … .backup`` of
the live file into a new one. Either way gunicorn is then started on the restored copy alone and
the two play the game to its end over HTTP with the tokens they had, while the original database
keeps the game as it was at the dump.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

from games.models import Game
from tests.games.conftest import (
    Player,
    make_player,
    player_to_move,
    random_action,
    start_game,
)
from tests.test_serve import free_port, server_process
from tests.test_server_limits import gunicorn_command

ROOT = Path(__file__).resolve().parent.parent
MOVES_BEFORE_THE_DUMP = 4

pytestmark = pytest.mark.django_db(transaction=True)


def pg_environ(db: dict[str, Any]) -> dict[str, str]:
    """libpq's variables for the test database's server (the commands take no password flag)."""
    environ = dict(os.environ)
    for var, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER")):
        if db.get(key):
            environ[var] = str(db[key])
    if db.get("PASSWORD"):
        environ["PGPASSWORD"] = str(db["PASSWORD"])
    return environ


@contextmanager
def restored_copy(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Back the test database up, restore it as a new database; the server's environment for it."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        environ = pg_environ(db)
        dump = tmp_path / "uno.dump"
        name = f"{db['NAME']}_restored_{uuid.uuid4().hex[:8]}"
        run = {"env": environ, "check": True, "capture_output": True, "timeout": 120}
        subprocess.run(["pg_dump", "-Fc", "--no-owner", "-d", db["NAME"], "-f", dump], **run)
        subprocess.run(["createdb", "-T", "template0", name], **run)
        try:
            subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", name, dump], **run)
            user = quote(str(db.get("USER") or "postgres"))
            password = f":{quote(str(db['PASSWORD']))}" if db.get("PASSWORD") else ""
            host = db.get("HOST") or "127.0.0.1"
            port = db.get("PORT") or 5432
            yield {"DATABASE_URL": f"postgres://{user}{password}@{host}:{port}/{name}"}
        finally:
            subprocess.run(["dropdb", "--if-exists", "--force", name], **run)
    else:
        copy = tmp_path / "restored.sqlite3"
        # SQLite's online backup: consistent while the service (here, this test) has it open.
        subprocess.run(
            ["sqlite3", db["NAME"], f".backup '{copy}'"], check=True, capture_output=True
        )
        yield {"SQLITE_PATH": str(copy)}


@contextmanager
def gunicorn_on(database: dict[str, str], tmp_path: Path) -> Iterator[str]:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    environ.update(
        DEBUG="false",
        SECRET_KEY="test-restore-secret",
        # A whole round in seconds: more actions a minute than a person makes.
        THROTTLE_ACTIONS="100000/min",
        **database,
    )
    log = tmp_path / "gunicorn.log"
    with server_process(gunicorn_command(port), environ, port, log):
        yield f"http://127.0.0.1:{port}/api/v1/games/"


def call(url: str, token: str, body: Any = None) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def play_over_http(api: str, game_id: str, players: list[Player], rng: random.Random) -> int:
    """Random legal moves by whoever is to move, until the game is over; the moves made."""
    for moves in range(3000):
        views = {p.name: call(f"{api}{game_id}/", p.token) for p in players}
        if any(view["status"] != Game.ACTIVE for view in views.values()):
            return moves
        mover = next(p for p in players if views[p.name]["your_turn"])
        call(f"{api}{game_id}/actions/", mover.token, random_action(views[mover.name], rng))
    raise AssertionError("the game did not end within 3000 moves")


def test_a_restored_backup_finishes_the_game_that_was_in_progress(tmp_path: Path) -> None:
    if connection.vendor == "postgresql":
        assert shutil.which("pg_dump") and shutil.which("pg_restore"), "PostgreSQL's client tools"
    alice, bob = make_player("alice"), make_player("bob")
    game_id = start_game(alice, bob, target_score=0)
    rng = random.Random(30)
    for _ in range(MOVES_BEFORE_THE_DUMP):
        mover = player_to_move([alice, bob], game_id)
        response = mover.act(game_id, random_action(mover.table(game_id), rng))
        assert response.status_code == 200, response.content
    at_the_dump = Game.objects.values_list("status", "version").get(pk=game_id)

    with restored_copy(tmp_path) as database, gunicorn_on(database, tmp_path) as api:
        assert call(f"{api}{game_id}/", alice.token)["version"] == at_the_dump[1]
        moves = play_over_http(api, game_id, [alice, bob], rng)
        finished = call(f"{api}{game_id}/", bob.token)

    assert moves > 0 and finished["status"] == Game.FINISHED, finished["status"]
    # The copy is a database of its own: the original still has the game as it was dumped.
    assert Game.objects.values_list("status", "version").get(pk=game_id) == at_the_dump
