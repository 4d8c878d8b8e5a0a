"""The arena: bots play each other on the pure engine, through the same ``decide`` as the service.

Nothing here touches Django. Each game is one match (``target_score`` 0: one round, unless asked
otherwise); seats rotate so every bot plays every seat equally often, and the games of one
rotation share their deal (the same engine seed), so a bot's edge is measured on the same cards
its opponent had: luck cancels out much faster than with independent deals.

Scheduling mirrors the service: after every action, bots not on turn that may say UNO or catch
are asked first (in seat order after the current one), then the seat on turn.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine.interface import Event, Game
from games.engine.registry import DEFAULT_KIND, get_game
from games.engine.uno.actions import Action
from games.engine.uno.state import MATCH_OVER, ROUND_OVER, State

from . import schedule
from .decide import DEFAULT_BUDGET_MS, decide, is_level

TURN_TYPES = (
    "play",
    "draw",
    "play_drawn",
    "pass",
    "choose_target",
    # Uno Splash: the opening colour and the answer to a Wild Draw Four
    "choose_colour",
    "accept",
    "challenge",
)
# Bots that all swap with the shortest hand and attack early can keep every card in the hands
# and pass them around for a very long time (seen at 4+ seats, and heads-up before the
# heuristic's ``ATTACK_LIMIT``). Such a round is abandoned,
# counted, and left out of the win rates.
MAX_ROUND_TURNS = 500


@dataclass
class BotStats:
    seat_rounds: int = 0  # rounds played, counted per seat
    wins: int = 0
    points: int = 0
    plays: Counter[str] = field(default_factory=Counter)  # cards played, by type
    draws: int = 0  # voluntary draws
    uno_calls: int = 0
    catches: int = 0
    caught: int = 0  # missed UNO and caught for it
    decisions: int = 0
    abandoned: int = 0  # seat-rounds in rounds abandoned after MAX_ROUND_TURNS
    move_ms: list[float] = field(default_factory=list)  # turn decisions only, wall clock
    move_cpu_ms: list[float] = field(default_factory=list)  # the same, this process's CPU time

    def merge(self, other: BotStats) -> None:
        self.seat_rounds += other.seat_rounds
        self.wins += other.wins
        self.points += other.points
        self.plays.update(other.plays)
        self.draws += other.draws
        self.uno_calls += other.uno_calls
        self.catches += other.catches
        self.caught += other.caught
        self.decisions += other.decisions
        self.abandoned += other.abandoned
        self.move_ms.extend(other.move_ms)
        self.move_cpu_ms.extend(other.move_cpu_ms)


@dataclass
class ArenaResult:
    bots: list[str]
    players: int
    games: int = 0
    rounds: int = 0
    round_turns: list[int] = field(default_factory=list)  # turn actions per round
    stats: dict[str, BotStats] = field(default_factory=dict)
    seconds: float = 0.0
    abandoned: int = 0  # rounds stopped after MAX_ROUND_TURNS

    def merge(self, other: ArenaResult) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.abandoned += other.abandoned
        self.round_turns.extend(other.round_turns)
        self.seconds = max(self.seconds, other.seconds)
        for name, st in other.stats.items():
            self.stats.setdefault(name, BotStats()).merge(st)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) for a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def lineup(bots: list[str], players: int, game: int) -> list[str]:
    """Who sits where in game ``game``: the bot list repeated around the table, rotated by one
    seat per game."""
    return [bots[(seat + game) % len(bots)] for seat in range(players)]


def run(
    bots: list[str],
    *,
    games: int,
    players: int,
    preset: str | None = None,
    options: dict[str, bool] | None = None,
    target_score: int = 0,
    seed: int = 0,
    kind: str = DEFAULT_KIND,
    first_game: int = 0,
    budget_ms: int = DEFAULT_BUDGET_MS,
    playouts: int | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play games ``first_game`` .. ``first_game + games - 1`` of the series named by ``seed``.

    A series can be split into slices (one per process) and the results merged: game ``g``
    depends only on ``seed``, ``g`` and the settings."""
    for name in bots:
        if not is_level(name):
            raise ValueError(f"unknown bot level {name!r}")
    result = ArenaResult(bots=list(bots), players=players)
    for name in bots:
        result.stats.setdefault(name, BotStats())
    started = time.perf_counter()
    for game in range(first_game, first_game + games):
        _play_game(
            get_game(kind),
            result,
            lineup(bots, players, game),
            # Games of one rotation share the deal: seed by the rotation, not the game.
            deal_seed=f"deal:{seed}:{game // players}",
            bot_seed=f"bots:{seed}:{game}",
            preset=preset,
            options=options or {},
            target_score=target_score,
            budget_ms=budget_ms,
            playouts=playouts,
        )
        result.games += 1
        result.seconds = time.perf_counter() - started
        if progress is not None:
            progress(result)
    return result


def _play_game(
    rules: Game[Any, Any],
    result: ArenaResult,
    seats: list[str],
    *,
    deal_seed: str,
    bot_seed: str,
    preset: str | None,
    options: dict[str, bool],
    target_score: int,
    budget_ms: int,
    playouts: int | None,
) -> None:
    engine_rng = random.Random(deal_seed)
    bot_rngs = [random.Random(f"{bot_seed}:{i}") for i in range(len(seats))]
    state, events = rules.new_game(
        players=len(seats),
        rng=engine_rng,
        preset=preset,
        options=options,
        target_score=target_score,
    )
    histories = [_visible(rules, events, i) for i in range(len(seats))]
    turns = 0
    while state.phase != MATCH_OVER:
        if state.phase == ROUND_OVER:
            state, events = rules.apply(state, rules.next_round_action(), engine_rng)
            histories = [_visible(rules, events, i) for i in range(len(seats))]
            turns = 0
            continue
        seat, action = _next_action(
            rules, state, seats, histories, bot_rngs, budget_ms, playouts, result
        )
        state, events = rules.apply(state, action, engine_rng)
        if action.type in TURN_TYPES:
            turns += 1
        for i in range(len(seats)):
            histories[i].extend(_visible(rules, events, i))
        _count(result, seats, events)
        if any(e["type"] == "round_over" for e in events):
            result.rounds += 1
            result.round_turns.append(turns)
            continue  # a round won on its last allowed turn is not abandoned as well
        if turns > MAX_ROUND_TURNS:
            result.abandoned += 1
            for name in seats:
                result.stats[name].abandoned += 1
            return


def _visible(rules: Game[Any, Any], events: list[Event], seat: int) -> list[Event]:
    return [e for e in (rules.visible_event(e, seat) for e in events) if e is not None]


def _next_action(
    rules: Game[Any, Any],
    state: State,
    seats: list[str],
    histories: list[list[dict[str, Any]]],
    rngs: list[random.Random],
    budget_ms: int,
    playouts: int | None,
    result: ArenaResult,
) -> tuple[int, Action]:
    for seat, allowed in schedule.to_ask(state, range(len(seats))):
        v = rules.view(state, seat)
        if not v["legal_actions"]:
            continue
        started = time.perf_counter()
        started_cpu = time.process_time()
        chosen = decide(
            v,
            histories[seat],
            level=seats[seat],
            rng=rngs[seat],
            budget_ms=budget_ms,
            playouts=playouts,
        )
        elapsed = (time.perf_counter() - started) * 1000
        elapsed_cpu = (time.process_time() - started_cpu) * 1000
        if chosen is None or (allowed is not None and chosen["type"] not in allowed):
            continue
        st = result.stats[seats[seat]]
        st.decisions += 1
        if chosen["type"] in TURN_TYPES:
            st.move_ms.append(elapsed)
            st.move_cpu_ms.append(elapsed_cpu)
        action: Action = rules.action_from_dict({**chosen, "seat": seat})
        return seat, action
    raise RuntimeError(  # pragma: no cover - a bot on turn always acts
        f"seat {state.current} ({seats[state.current]}) returned no action on its turn"
    )


def _count(result: ArenaResult, seats: list[str], events: list[dict[str, Any]]) -> None:
    stats = result.stats
    for e in events:
        kind = e["type"]
        if kind == "play":
            # By rank in a game with colours ("blue-skip" counts as "skip"): the report's columns.
            rank = e["card_type"].rsplit("-", 1)[-1]
            stats[seats[e["seat"]]].plays[rank] += 1
        elif kind == "draw" and e.get("reason") == "voluntary":
            stats[seats[e["seat"]]].draws += 1
        elif kind == "uno":
            stats[seats[e["seat"]]].uno_calls += 1
        elif kind == "caught":
            stats[seats[e["seat"]]].catches += 1
            stats[seats[e["target"]]].caught += 1
        elif kind == "round_over":
            for name in seats:
                stats[name].seat_rounds += 1
            if e["winner"] is not None:  # a drawn round (Gin Rummy's wall) is won by nobody
                stats[seats[e["winner"]]].wins += 1
            stats[seats[e["winner"]]].points += e["points"]


def report(result: ArenaResult) -> str:
    """The arena's table: win rate per seat-round with its 95 % Wilson interval, round length,
    move times and what each bot did."""
    lines = []
    rounds = result.rounds
    mean_turns = statistics.fmean(result.round_turns) if result.round_turns else 0.0
    lines.append(
        f"{result.games} games, {rounds} rounds, {result.players} players, "
        f"{result.seconds:.1f} s; mean round length {mean_turns:.1f} turn actions "
        f"(median {statistics.median(result.round_turns) if result.round_turns else 0:.0f})"
        + (
            f"; {result.abandoned} rounds abandoned after {MAX_ROUND_TURNS} turns"
            if result.abandoned
            else ""
        )
    )
    lines.append(
        f"{'bot':<28} {'seat-rounds':>11} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'pts/win':>8} {'ms/move med':>11} {'p95':>7} {'max':>7}"
    )
    for name in dict.fromkeys(result.bots):
        st = result.stats[name]
        low, high = wilson(st.wins, st.seat_rounds)
        rate = st.wins / st.seat_rounds if st.seat_rounds else 0.0
        times = sorted(st.move_ms)
        med = statistics.median(times) if times else 0.0
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        mx = times[-1] if times else 0.0
        ppw = st.points / st.wins if st.wins else 0.0
        lines.append(
            f"{name:<28} {st.seat_rounds:>11} {st.wins:>6} {rate:>8.1%} "
            f"{f'[{low:.1%}, {high:.1%}]':>17} {ppw:>8.0f} {med:>11.2f} {p95:>7.2f} {mx:>7.1f}"
        )
    if result.abandoned:
        # The strict reading: an abandoned round is a round every seat failed to win.
        lines.append(
            f"counting the {result.abandoned} abandoned rounds as lost by every seat: "
            + "; ".join(
                f"{name} {_rate(st.wins, st.seat_rounds + st.abandoned)}"
                for name, st in ((n, result.stats[n]) for n in dict.fromkeys(result.bots))
            )
        )
    lines.append("")
    lines.append("effects per seat-round (cards played by type, voluntary draws, UNO, catches):")
    kinds = sorted({k for st in result.stats.values() for k in st.plays})
    header = f"{'bot':<28} " + " ".join(f"{k[:8]:>8}" for k in kinds)
    header += f" {'draws':>6} {'uno':>6} {'catches':>7} {'caught':>6}"
    lines.append(header)
    for name in dict.fromkeys(result.bots):
        st = result.stats[name]
        per = max(st.seat_rounds, 1)
        row = f"{name:<28} " + " ".join(f"{st.plays[k] / per:>8.2f}" for k in kinds)
        row += (
            f" {st.draws / per:>6.2f} {st.uno_calls / per:>6.2f} {st.catches / per:>7.2f}"
            f" {st.caught / per:>6.2f}"
        )
        lines.append(row)
    searched = [n for n in dict.fromkeys(result.bots) if n.partition("-")[0] == "expert"]
    if searched:
        lines.append("")
        lines.append(
            f"move time per turn decision, ms (wall clock, then this process's CPU time; over "
            f"{SLOW_MOVE_MS} ms: wall):"
        )
        lines.append(
            f"{'bot':<28} {'moves':>7} {'med':>7} {'p95':>7} {'p99':>7} {'max':>7}   "
            f"{'cpu med':>7} {'p95':>7} {'p99':>7} {'max':>7} {'over':>6}"
        )
        for name in searched:
            st = result.stats[name]
            wall, cpu = _quantiles(st.move_ms), _quantiles(st.move_cpu_ms)
            over = sum(ms >= SLOW_MOVE_MS for ms in st.move_ms)
            lines.append(
                f"{name:<28} {len(st.move_ms):>7} "
                + " ".join(f"{q:>7.1f}" for q in wall)
                + "   "
                + " ".join(f"{q:>7.1f}" for q in cpu)
                + f" {over:>6}"
            )
    return "\n".join(lines)


def _rate(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins}/{n} = {wins / n if n else 0.0:.1%} [{low:.1%}, {high:.1%}]"


SLOW_MOVE_MS = 200  # the expert's target: a move under 200 ms


def _quantiles(values: list[float]) -> list[float]:
    """Median, p95, p99 and max (0s for no values)."""
    if not values:
        return [0.0] * 4
    v = sorted(values)
    pick = [v[min(len(v) - 1, int(q * len(v)))] for q in (0.95, 0.99)]
    return [statistics.median(v), *pick, v[-1]]
