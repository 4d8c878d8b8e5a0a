"""``manage.py recompute_ratings [--game KIND ...]``: rate every rated match again from the
start, in the order the match ends applied them (``ratings/recompute.py``).

The result equals what the match ends wrote (and, after voids, what they would have written
without the voided matches), so running it on an untouched history changes nothing: the summary
says how many rows changed. One transaction per game kind, holding the kind's rating rows, so
matches ending meanwhile wait and then apply to the recomputed ratings.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import registry
from ratings import recompute


class Command(BaseCommand):
    help = "Rate every rated match again from the start, in order, and report what changed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            action="append",
            dest="kinds",
            metavar="KIND",
            help="Only this game kind (repeatable); every kind by default.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kinds = options["kinds"] or list(registry.kinds())
        unknown = sorted(set(kinds) - set(registry.kinds()))
        if unknown:
            raise CommandError(f"unknown game kind: {', '.join(unknown)}")
        for kind in kinds:
            started = time.perf_counter()
            done = recompute.recompute(kinds=[kind])[kind]
            seconds = time.perf_counter() - started
            self.stdout.write(
                f"{kind}: {done.matches} matches rated again, {done.changed} rating changes "
                f"differed, {done.players} players, {seconds:.1f} s"
            )
