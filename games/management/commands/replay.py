"""``manage.py replay RECORD``: replay a game record (docs/records.md) through the engine.

RECORD is a file path, or ``-`` for standard input (``curl …/record/ | manage.py replay -``).
Exit codes: 0 the record replays to the end it records (one summary line on stdout); 1 it
diverges (the first difference on stderr: the move's number and what differs); 2 it is not
JSON or cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.records import Divergence, replay_record


class Command(BaseCommand):
    help = "Replay a game record through the engine and check that it reaches its recorded end."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="A record's JSON file, or - for standard input.")

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["record"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            record = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            self.stderr.write(f"cannot read {source}: {exc}")
            sys.exit(2)
        try:
            replayed = replay_record(record)
        except Divergence as exc:
            self.stderr.write(f"diverges at {exc}")
            sys.exit(1)
        self.stdout.write(replayed.summary(record))
