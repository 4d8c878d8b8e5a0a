"""Scenario files (docs/scenarios.md) from the command line.

``manage.py scenario run FILE.json…``: apply the actions and check the expect block. Exit codes:
0 the scenario holds; 1 an expectation failed; 2 an action was refused that the file did not
expect to be refused; 3 the file is not a valid scenario.

``manage.py scenario load FILE.json``: create the players and a real game in the file's position
(after its actions with ``--apply-actions``) and print the game id and a play token per player,
so the position can be played on over HTTP.

A file's ``game`` key names the game (``uno_all_wild`` when absent). Uno All Wild's files are run
by its own runner (exact positions, card tokens: games/engine/scenario.py); any other registered
game's by the runner over the game interface (games/engine/game_scenario.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine import registry
from games.engine.scenario import ScenarioError, parts_of, run_file
from games.services import load_position


class Command(BaseCommand):
    help = "Work with scenario files (docs/scenarios.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="subcommand", required=True)
        run = sub.add_parser("run", help="apply the actions and check the expect block")
        run.add_argument("files", nargs="+", metavar="FILE.json")
        run.add_argument(
            "--quiet", action="store_true", help="print one line per file instead of the state"
        )

        load = sub.add_parser("load", help="create a real game in the file's position")
        load.add_argument("file", metavar="FILE.json")
        load.add_argument(
            "--apply-actions",
            action="store_true",
            help="load the position reached after the file's actions",
        )
        load.add_argument("--turn-seconds", type=int, default=24 * 3600)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["subcommand"] == "load":
            sys.exit(self._load(Path(options["file"]), options))
        worst = 0
        for path in options["files"]:
            worst = max(worst, self._run(Path(path), quiet=options["quiet"]))
        if worst:
            sys.exit(worst)

    def _run(self, path: Path, *, quiet: bool) -> int:
        try:
            data = json.loads(path.read_text())
            result = run_file(data)
        except (OSError, ValueError, ScenarioError) as exc:
            self.stderr.write(f"{path}: invalid scenario: {exc}")
            return 3
        if not quiet:
            self.stdout.write(json.dumps(result.to_dict(), indent=2))
        if result.unexpected_error is not None:
            err = result.unexpected_error
            self.stderr.write(f"{path}: refused: {err.code}: {err.message}")
            return 2
        if result.failures:
            for failure in result.failures:
                self.stderr.write(f"{path}: {failure}")
            return 1
        if quiet:
            self.stdout.write(f"{path}: ok")
        return 0

    def _load(self, path: Path, options: dict[str, Any]) -> int:
        try:
            data = json.loads(path.read_text())
            body = data if isinstance(data, dict) else {}
            kind = body.get("game", registry.DEFAULT_KIND)
            if options["apply_actions"]:
                result = run_file(data)
                if result.unexpected_error is not None:
                    err = result.unexpected_error
                    self.stderr.write(f"{path}: refused: {err.code}: {err.message}")
                    return 2
                state, names = result.state, result.names
            else:
                _, start, names = parts_of(data).start(data)
                state = start.state
        except (OSError, ValueError, ScenarioError) as exc:
            self.stderr.write(f"{path}: invalid scenario: {exc}")
            return 3
        game, players = load_position(
            state=state,
            names=names,
            kind=kind,
            preset=body.get("preset"),
            options=body.get("options"),
            target_score=body.get("target_score"),
            turn_seconds=options["turn_seconds"],
        )
        out = {
            "game_id": str(game.id),
            "version": game.version,
            "players": [
                {"seat": seat, "name": names[seat], "username": user.username, "token": token}
                for seat, (user, token) in enumerate(players)
            ],
        }
        self.stdout.write(json.dumps(out, indent=2))
        return 0
