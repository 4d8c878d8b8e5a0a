"""``manage.py simulate``: an arena of bots on the pure engine (games/bots/arena.py).

    python manage.py simulate --games 2000 --players 2 --bots heuristic,random
    python manage.py simulate --games 1000 --players 2 --bots expert,heuristic --playouts 16
    python manage.py simulate --games 2000 --players 2 --ablation
    python manage.py simulate --game uno_all_wild --games 200
    python manage.py simulate --game uno_splash --games 1000 --bots heuristic,random
    python manage.py simulate --game uno_no_mercy --games 1000 --bots heuristic,random

``--game`` names any registered game; bots play only the games whose adapter says so
(``games.kinds``: the Uno games and Gin Rummy today), and any other is refused with a clear
error.

Bots decide through ``games.bots.decide`` exactly as the Celery task does; no database is used.
Seats rotate (the bot list goes round the table, one seat further each game), and the games of
one rotation share their deal. Prints each bot's win rate per seat-round with a 95 % Wilson
interval, the mean round length, move times and what the bots did (cards by type, voluntary
draws, UNO calls, catches).
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import DEFAULT_BUDGET_MS, arena, is_level
from games.bots.heuristic import Rules
from games.engine import EngineError, registry
from games.kinds import registry as kinds


def _slice(kwargs: dict[str, Any]) -> arena.ArenaResult:
    return arena.run(**kwargs)


class Command(BaseCommand):
    help = "Bots play each other on the pure engine; prints win rates with 95% intervals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200, help="Games (matches) to play.")
        parser.add_argument("--players", type=int, default=2, help="Seats per game, 2 to 10.")
        parser.add_argument(
            "--bots",
            default="heuristic,random",
            help="Comma-separated levels, repeated round the table: random, heuristic, expert, "
            "nodraw (random that never draws), heuristic-<rule> (the heuristic without a rule).",
        )
        parser.add_argument(
            "--game",
            default=registry.DEFAULT_KIND,
            help=f"The game to play: a registered kind ({registry.DEFAULT_KIND} by default).",
        )
        parser.add_argument(
            "--preset", default=None, help="One of the game's presets (its default if absent)."
        )
        parser.add_argument(
            "--target-score", type=int, default=0, help="Points per match (0: one round)."
        )
        parser.add_argument("--seed", type=int, default=1, help="Names the series of deals.")
        parser.add_argument(
            "--budget-ms", type=int, default=DEFAULT_BUDGET_MS, help="Expert's time per move."
        )
        parser.add_argument(
            "--playouts",
            type=int,
            default=None,
            help="Expert: a fixed number of samples per move instead of a time budget.",
        )
        parser.add_argument("--jobs", type=int, default=1, help="Processes to play in.")
        parser.add_argument(
            "--out",
            default=None,
            help="With --jobs 1: also write the report so far to this file every 5%% of the "
            "games (a long run stopped early still leaves its figures).",
        )
        parser.add_argument(
            "--ablation",
            action="store_true",
            help="Instead of --bots: the heuristic against itself without each rule in turn.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = registry.get_game(options["game"])
        except EngineError:
            raise CommandError(
                f"unknown game {options['game']!r}: one of {', '.join(registry.kinds())}"
            ) from None
        if not kinds.plays_bots(game.kind):
            raise CommandError(
                f"no bots play {game.name} ({game.kind}) yet: simulate plays "
                f"{', '.join(kinds.bot_kinds())}"
            )
        options["preset"] = options["preset"] or game.default_preset
        if options["preset"] not in game.presets:
            raise CommandError(f"--preset is one of {', '.join(game.presets)}")
        if not 2 <= options["players"] <= 10:
            raise CommandError("--players is 2 to 10")
        if options["games"] < 1 or options["jobs"] < 1:
            raise CommandError("--games and --jobs are at least 1")
        if options["ablation"]:
            for rule in Rules.names():
                result = self._run(["heuristic", f"heuristic-{rule}"], options)
                full = result.stats["heuristic"]
                low, high = arena.wilson(full.wins, full.seat_rounds)
                rate = full.wins / full.seat_rounds if full.seat_rounds else 0.0
                self.stdout.write(
                    f"{rule:<18} heuristic beats heuristic-{rule}: {rate:.1%} "
                    f"[{low:.1%}, {high:.1%}] of {full.seat_rounds} seat-rounds"
                    + (f" ({result.abandoned} abandoned)" if result.abandoned else "")
                )
            return
        bots = [b.strip() for b in options["bots"].split(",") if b.strip()]
        unknown = [b for b in bots if not is_level(b)]
        if not bots or unknown:
            raise CommandError(f"unknown bot levels: {', '.join(unknown) or '(none given)'}")
        self.stdout.write(arena.report(self._run(bots, options)))

    def _run(self, bots: list[str], options: dict[str, Any]) -> arena.ArenaResult:
        games, jobs = options["games"], min(options["jobs"], options["games"])
        common = {
            "bots": bots,
            "players": options["players"],
            "preset": options["preset"],
            "target_score": options["target_score"],
            "seed": options["seed"],
            "budget_ms": options["budget_ms"],
            "playouts": options["playouts"],
            "kind": options["game"],
        }
        if jobs == 1:
            return arena.run(games=games, progress=self._progress(games, options["out"]), **common)
        # Slices of whole rotations, so that games sharing a deal stay in one process.
        rotation = options["players"]
        blocks = -(-games // rotation)
        per_job = -(-blocks // jobs) * rotation
        slices = [
            {**common, "first_game": start, "games": min(per_job, games - start)}
            for start in range(0, games, per_job)
        ]
        total = arena.ArenaResult(bots=bots, players=options["players"])
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_slice, slices):
                total.merge(part)
        return total

    def _progress(self, games: int, out: str | None = None) -> Any:
        step = max(games // 20, 1)

        def show(result: arena.ArenaResult) -> None:
            if result.games % step and result.games < games:
                return
            rates = []
            for name in dict.fromkeys(result.bots):
                st = result.stats[name]
                low, high = arena.wilson(st.wins, st.seat_rounds)
                rate = st.wins / st.seat_rounds if st.seat_rounds else 0.0
                rates.append(f"{name} {rate:.1%} [{low:.1%}, {high:.1%}]")
            sys.stderr.write(
                f"  {result.games}/{games} games, {result.rounds} rounds, "
                f"{result.seconds:.0f} s: {'; '.join(rates)}\n"
            )
            if out:
                path = Path(out)
                partial = path.with_name(path.name + ".tmp")
                partial.write_text(arena.report(result) + "\n")
                partial.replace(path)

        return show
