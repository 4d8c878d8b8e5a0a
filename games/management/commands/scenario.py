"""``manage.py scenario run FILE.json``: apply a scenario's actions and check its expectations.

Exit codes: 0 the scenario holds; 1 an expectation failed; 2 an action was refused that the file
did not expect to be refused; 3 the file is not a valid scenario.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine.scenario import ScenarioError, run_scenario


class Command(BaseCommand):
    help = "Work with scenario files (docs/scenarios.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="subcommand", required=True)
        run = sub.add_parser("run", help="apply the actions and check the expect block")
        run.add_argument("files", nargs="+", metavar="FILE.json")
        run.add_argument(
            "--quiet", action="store_true", help="print one line per file instead of the state"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        worst = 0
        for path in options["files"]:
            worst = max(worst, self._run(Path(path), quiet=options["quiet"]))
        if worst:
            sys.exit(worst)

    def _run(self, path: Path, *, quiet: bool) -> int:
        try:
            data = json.loads(path.read_text())
            result = run_scenario(data)
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
