"""Rules-engine throughput: random legal playouts, next to RLCard's UNO environment.

Run from the repository root::

    python bench/engine.py              # 2000 rounds per configuration, median of 3 repeats
    python bench/engine.py --quick      # ~10 s smoke run
    python bench/engine.py --min-ratio 5  # exit 1 if ours/RLCard actions/s (2 players) is below 5
    python bench/engine.py --cpu          # CPU time, not wall time (a loaded, shared machine)
    python bench/engine.py --compiled build/engine-mypyc  # the engine bench/compile_engine.py built

The figure that counts is **actions per second**: decisions, each one ``legal_actions`` then
``apply``. Rounds differ in length between the two games (an All Wild ``standard`` round is about
twice as long as an RLCard UNO round), so rounds/s is shown but not compared.

What is timed
-------------
* Ours: one round = ``new_game(players=n, preset=..., target_score=0)`` (a match that ends with
  the first round), then, until the phase is ``round_over``/``match_over``:
  ``acts = legal_actions(state, state.current)``, ``a = rng.choice(acts)``,
  ``state, _ = apply(state, a, rng)``. These are the functions the service calls. A listed
  template (a Double down pair, Mercy's five cards) is played as a random instance. The free
  actions the engine lists for the current seat (``uno`` when it holds one card, ``catch``
  against an exposed seat) are part of that list and may be picked like any other action.
* RLCard: ``env.run(is_training=False)`` with two ``RandomAgent``s: RLCard's own loop (reset,
  legal actions, state encoding, step), one game = one round since its UNO ends when the first
  player goes out.

Each repeat replays the same seeded rounds (``random.Random(seed)`` for ours, the env seed plus
``numpy.random.seed`` for RLCard), so repeats do identical work and the median of them only
filters timing noise. Every configuration is warmed up first; then each repeat times every
configuration in turn, RLCard's included, so a machine whose load changes (a shared one) slows
both sides of a ratio alike.

The two games differ (All Wild has no colours or numbers, every card is playable, and drawing
is a separate ``draw`` then ``play_drawn``/``pass``), so rounds differ in length: the table shows
actions per round to make rounds/s and actions/s comparable.

Gin Rummy (``gin_rummy``, ``run_gin``) is timed next to OpenSpiel's ``gin_rummy`` (C++ behind
``pyspiel``, ``run_openspiel_gin``) and RLCard's ``GinRummyGame`` (``run_rlcard_gin``): one
round each, random choices among the listed actions. The rules differ a little (the rulings'
list: big gin, the wall, OpenSpiel's manual melds after a knock, RLCard's 11-card deal), so
actions per round differ; actions/s is the figure.

Uno Splash (classic UNO, ``uno_splash``) is timed through its game object from the registry
(``run_splash``: the same loop, ``target_score=0``, random choice among the listed actions) next
to RLCard's ``UnoGame`` object alone (``run_rlcard_game``: ``init_game``, then
``step(random choice of get_legal_actions())`` until ``is_over``; no environment, no state
encoding), both 2 players: the same game on both sides, so this ratio compares like with like.
Random Splash players draw whenever it is listed (classic UNO allows it), so their rounds are
longer than RLCard's, whose players draw only when nothing is playable; a Splash round is cut at
``ROUND_CAP`` decisions like the every-house-rule line. The line "RLCard's choices" plays the same
rounds RLCard's players could (``rlcard_choice``): a play if there is one (a Wild Draw Four only
when nothing else), else the draw; rounds and hands then have RLCard's sizes.

Is the peer like for like? Both are game objects stepped by a random policy, but RLCard's ``step``
does more than apply the rules: it returns the next player's observation (``get_state``: hand and
played cards as strings, the legal actions listed a second time), about two thirds of its time.
Its draw is one decision that also plays a matching drawn card (ours: ``draw`` then
``play_drawn``), and it has no answer to a Wild Draw Four (ours: ``accept``), so our rounds count
a few more, cheaper, decisions. Hence one more line, "rules only" (``run_rlcard_rules``: RLCard's
``round.proceed_round`` alone), the strictest peer; the issue's target is against ``UnoGame``.

Uno Show 'Em No Mercy (``uno_no_mercy``) is timed the same way (``run_no_mercy``: its game object,
``target_score=0``, random choice among the listed actions), 2 and 6 players: rounds end by a
player going out or by knockouts (25 cards), and the actions per round column shows how long.

With every house rule on (one more line, 2 players, ``standard``), random players can pass the
few loose cards round for ever (stacking, blind play: see tests/engine/playout.py), so a round is
cut at ``ROUND_CAP`` decisions; the figure is decisions per second all the same.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import cpu_model  # noqa: E402  (the checkout on the path first)


def compiled_dir(argv: Sequence[str]) -> str | None:
    """The ``--compiled DIR`` of the command line, read before the engine is imported (argparse
    reads it again, in main, for the help and the errors)."""
    for i, arg in enumerate(argv):
        if arg == "--compiled" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--compiled="):
            return arg.split("=", 1)[1]
    return None


# A compiled engine (bench/compile_engine.py) is imported from its build directory: first on the
# path, ahead of the repository's sources.
if (_compiled := compiled_dir(sys.argv[1:])) is not None:
    sys.path.insert(0, str(Path(_compiled).resolve()))

import games.engine.uno.state as engine_state  # noqa: E402
from games.engine.registry import get_game  # noqa: E402
from games.engine.uno.actions import Action  # noqa: E402
from games.engine.uno.allwild.house_rules import HOUSE_RULES  # noqa: E402
from games.engine.uno.allwild.legal import legal_actions  # noqa: E402
from games.engine.uno.allwild.rules import apply, new_game  # noqa: E402
from games.engine.uno.state import MATCH_OVER, ROUND_OVER  # noqa: E402

PRESETS = ("standard", "mattel_2021")
PLAYER_COUNTS = (2, 4, 10)
DEFAULT_ROUNDS = 2000
QUICK_ROUNDS = 300
OVER = (ROUND_OVER, MATCH_OVER)
ALL_HOUSE_RULES = dict.fromkeys(HOUSE_RULES, True)
ROUND_CAP = 2000  # decisions, with every house rule on (see the docstring)
# What every run is timed by: wall time, or with --cpu this process's CPU time, which another
# process's load on a shared machine disturbs far less (set once, in main).
clock: Callable[[], float] = time.perf_counter


@dataclass(frozen=True, slots=True)
class Result:
    engine: str
    players: int
    preset: str
    rounds: int
    seconds: float  # median over the repeats
    actions: int  # actions taken over ``rounds`` rounds (identical in every repeat)

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def actions_per_round(self) -> float:
        return self.actions / self.rounds


# ---------------------------------------------------------------------------------------------
# Ours


def instance(action: Action, rng: random.Random) -> Action:
    """A random concrete action of a listed template (a concrete action: itself)."""
    pick = action.choose
    if pick is None:
        return action
    targets = tuple(rng.choice(pick.target_from) for _ in range(pick.targets)) or None
    return Action(
        action.type, action.seat, cards=tuple(rng.sample(pick.cards, pick.size)), targets=targets
    )


def play_round(
    players: int, preset: str, rng: random.Random, options: dict[str, bool] | None = None
) -> int:
    """Deal one round and play it out with random legal actions; return the actions taken."""
    state, _ = new_game(players=players, rng=rng, preset=preset, options=options, target_score=0)
    taken = 0
    while state.phase not in OVER and taken < ROUND_CAP:
        acts = legal_actions(state, state.current)
        state, _ = apply(state, instance(rng.choice(acts), rng), rng)
        taken += 1
    return taken


def run_ours(
    players: int, preset: str, rounds: int, seed: int, options: dict[str, bool] | None = None
) -> tuple[float, int]:
    """Time ``rounds`` random rounds; return (seconds, actions)."""
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        taken += play_round(players, preset, rng, options)
    return clock() - start, taken


def rlcard_choice(acts: list[Action], rng: random.Random) -> Action:
    """A random choice among the listed actions RLCard's rules would allow: a play other than a
    Wild Draw Four if any, else a Wild Draw Four, else the draw (then the drawn card is played if
    it can be), the Wild Draw Four accepted. No UNO, no catch (RLCard has neither)."""
    plays = [a for a in acts if a.type in ("play", "play_drawn") and a.card not in WD4S]
    if plays:
        return rng.choice(plays)
    wd4 = [a for a in acts if a.type == "play"]
    if wd4:
        return rng.choice(wd4)
    return rng.choice([a for a in acts if a.type in ("draw", "pass", "accept", "choose_colour")])


WD4S = frozenset(f"wd4-{n}" for n in range(1, 5))


def time_rounds(
    kind: str,
    players: int,
    rounds: int,
    seed: int,
    choose: Callable[[list[Action], random.Random], Action],
) -> tuple[float, int]:
    """Time ``rounds`` random rounds of the game ``kind`` through its game object (the interface
    the service calls: ``legal_actions`` then ``apply``), ``choose`` picking each action among
    those listed; return (seconds, actions)."""
    game = get_game(kind)
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        state, _ = game.new_game(players=players, rng=rng, target_score=0)
        played = 0
        while state.phase not in OVER and played < ROUND_CAP:
            acts = game.legal_actions(state, state.current)
            state, _ = game.apply(state, choose(acts, rng), rng)
            played += 1
        taken += played
    return clock() - start, taken


def run_splash(
    players: int, rounds: int, seed: int, like_rlcard: bool = False
) -> tuple[float, int]:
    """Time ``rounds`` random rounds of Uno Splash, choosing among every listed action or
    (``like_rlcard``) among those RLCard's rules allow; return (seconds, actions)."""
    choose = rlcard_choice if like_rlcard else (lambda acts, rng: instance(rng.choice(acts), rng))
    return time_rounds("uno_splash", players, rounds, seed, choose)


NO_MERCY_PLAYERS = (2, 6)


def run_no_mercy(players: int, rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` random rounds of Uno Show 'Em No Mercy, choosing among every listed
    action; return (seconds, actions)."""
    return time_rounds("uno_no_mercy", players, rounds, seed, lambda acts, rng: rng.choice(acts))


# ---------------------------------------------------------------------------------------------
# RLCard


def rlcard_version() -> str | None:
    try:
        import rlcard
    except ImportError:
        return None
    return str(getattr(rlcard, "__version__", "?"))


def run_rlcard(rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` games of RLCard's 2-player UNO with random agents; return (s, actions)."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * env.num_players)
    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    taken = 0
    start = clock()
    for _ in range(rounds):
        trajectories, _ = env.run(is_training=False)
        # Each player's trajectory is state, (action, state)*: one action per pair.
        taken += sum((len(t) - 1) // 2 for t in trajectories)
    return clock() - start, taken


def run_rlcard_game(rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` rounds of RLCard's ``UnoGame`` object alone (no environment, no state
    encoding), 2 players choosing at random among ``get_legal_actions()``: the peer of
    ``run_splash``. Return (seconds, actions)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            taken += 1
    return clock() - start, taken


def run_rlcard_rules(rounds: int, seed: int) -> tuple[float, int]:
    """``run_rlcard_game`` without the observation RLCard's ``step`` builds for the next player
    (``get_state``: hand and played cards as strings, the legal actions once more): its round's
    ``proceed_round`` alone, the rules and nothing else. Stricter than the issue's peer; shown so
    the ratio is not read as ours against a game object that does more per step."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        game.init_game()
        while not game.is_over():
            game.round.proceed_round(game.players, rng.choice(game.get_legal_actions()))
            taken += 1
    return clock() - start, taken


# ---------------------------------------------------------------------------------------------
# Gin Rummy: ours, OpenSpiel's (C++) and RLCard's, one round each, random legal choices


def run_gin(rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` random rounds of Gin Rummy through its game object (``legal_actions``
    then ``apply``, ``target_score=0``: a wall round ends the loop too); return (s, actions)."""
    game = get_game("gin_rummy")
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        state, _ = game.new_game(players=2, rng=rng, target_score=0)
        while state.phase not in OVER:
            acts = game.legal_actions(state, state.current)
            state, _ = game.apply(state, rng.choice(acts), rng)
            taken += 1
    return clock() - start, taken


def run_openspiel_gin(rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` random rounds of OpenSpiel's ``gin_rummy`` (C++ behind ``pyspiel``):
    decisions at random among ``legal_actions()``, chance outcomes (the deal, stock draws)
    at random too but not counted as actions; return (s, actions)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                taken += 1
    return clock() - start, taken


def run_rlcard_gin(rounds: int, seed: int) -> tuple[float, int]:
    """Time ``rounds`` rounds of RLCard's ``GinRummyGame`` object (no environment), random
    choices among its judge's legal actions; return (s, actions)."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    taken = 0
    start = clock()
    for _ in range(rounds):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            taken += 1
    return clock() - start, taken


# ---------------------------------------------------------------------------------------------
# Measuring


@dataclass(frozen=True, slots=True)
class Config:
    engine: str
    players: int
    preset: str
    run: Callable[[int, int], tuple[float, int]]
    rounds: int


def measure(configs: Sequence[Config], repeats: int, seed: int) -> list[Result]:
    """Warm up every configuration, then time ``repeats`` rounds of all of them in turn (RLCard's
    and ours side by side, so a change in the machine's load hits both alike) and keep each
    one's median time."""
    for c in configs:
        c.run(max(10, c.rounds // 10), seed + 1)
    times: list[list[float]] = [[] for _ in configs]
    counts: list[set[int]] = [set() for _ in configs]
    for _ in range(repeats):
        for i, c in enumerate(configs):
            seconds, taken = c.run(c.rounds, seed)
            times[i].append(seconds)
            counts[i].add(taken)
    results = []
    for c, c_times, c_counts in zip(configs, times, counts, strict=True):
        if len(c_counts) != 1:  # the same seed must replay the same rounds
            raise RuntimeError(f"{c.engine} {c.players}p {c.preset}: repeats differ {c_counts}")
        median = statistics.median(c_times)
        results.append(Result(c.engine, c.players, c.preset, c.rounds, median, c_counts.pop()))
    return results


def table(results: Sequence[Result]) -> str:
    """A Markdown table of the results."""
    lines = [
        "| engine | players | preset | rounds | seconds | rounds/s | actions/s | actions/round |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.engine} | {r.players} | {r.preset} | {r.rounds} | {r.seconds:.3f}"
            f" | {r.rounds_per_s:,.0f} | {r.actions_per_s:,.0f} | {r.actions_per_round:.1f} |"
        )
    return "\n".join(lines)


def profile_ours(
    title: str, run: Callable[[int, int], tuple[float, int]], rounds: int, seed: int, top: int = 15
) -> None:
    """Print cProfile's top functions (by own time) for ``rounds`` of ``run``."""
    profiler = cProfile.Profile()
    profiler.enable()
    run(rounds, seed)
    profiler.disable()
    print(f"\n## cProfile: {title}, 2 players, {rounds} rounds (by own time)\n")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random legal playouts: our rules engine vs RLCard's UNO environment."
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help=f"rounds per configuration ({DEFAULT_ROUNDS})"
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"smoke run: {QUICK_ROUNDS} rounds per configuration"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats; the median counts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--presets",
        nargs="+",
        choices=PRESETS,
        default=list(PRESETS),
        help="our presets to run (all by default)",
    )
    parser.add_argument(
        "--min-ratio",
        type=float,
        default=None,
        help="exit 1 unless ours/RLCard actions/s, 2 players, is at least this for each preset",
    )
    parser.add_argument("--no-rlcard", action="store_true", help="run our engine only")
    parser.add_argument(
        "--splash-only", action="store_true", help="Uno Splash and RLCard's lines only"
    )
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile hot spots (2 players)"
    )
    parser.add_argument(
        "--compiled",
        metavar="DIR",
        default=None,
        help="import the engine compiled by bench/compile_engine.py from DIR (build/engine-mypyc)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time this process's CPU seconds (time.process_time), not wall time: a loaded,"
        " shared machine disturbs CPU time far less",
    )
    args = parser.parse_args(argv)
    if args.rounds is None:
        args.rounds = QUICK_ROUNDS if args.quick else DEFAULT_ROUNDS
    if args.rounds < 1 or args.repeats < 1:
        parser.error("--rounds and --repeats must be at least 1")
    if args.no_rlcard and args.min_ratio is not None:
        parser.error("--min-ratio needs RLCard: drop --no-rlcard")
    return args


# Uno Splash played as RLCard's random agent plays (its own decisions counted the same way).
SPLASH_LIKE_RLCARD = partial(run_splash, 2, like_rlcard=True)


def engine_kind() -> str:
    """Which engine this process imported: compiled by mypyc (a ``.so``) or the sources."""
    compiled = Path(engine_state.__file__ or "").suffix in (".so", ".pyd")
    return "compiled (mypyc)" if compiled else "pure Python"


def print_header(args: argparse.Namespace, version: str | None) -> None:
    print("# Rules engine vs RLCard: random legal playouts\n")
    print(f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"- command: python {' '.join(['bench/engine.py', *sys.argv[1:]])}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {platform.system()}")
    print(f"- python: {platform.python_implementation()} {platform.python_version()}")
    print(f"- rlcard: {version or 'not run'}")
    print(f"- rounds per configuration: {args.rounds}, median of {args.repeats}, seed {args.seed}")
    print(f"- engine: {engine_kind()} ({engine_state.__file__})")
    timer = "CPU time of this process (--cpu)" if args.cpu else "wall time"
    print(f"- clock: {timer}; load average at the start: {os.getloadavg()[0]:.2f}")
    print()


def build_configs(args: argparse.Namespace) -> list[Config]:
    """What to measure, RLCard's lines first (the ratios below read them by position)."""
    rounds = args.rounds
    configs: list[Config] = []
    if not args.no_rlcard:
        configs.append(Config("rlcard", 2, "uno", run_rlcard, rounds))
        configs.append(Config("rlcard UnoGame", 2, "uno", run_rlcard_game, rounds))
        configs.append(Config("rlcard UnoGame, rules only", 2, "uno", run_rlcard_rules, rounds))
    configs.append(Config("uno_splash, RLCard's choices", 2, "classic", SPLASH_LIKE_RLCARD, rounds))
    for players in PLAYER_COUNTS:
        # Random players who draw whenever it is listed play rounds of up to ROUND_CAP
        # decisions (about 1,000 on average): a tenth as many rounds.
        uniform = partial(run_splash, players)
        configs.append(Config("uno_splash", players, "classic", uniform, max(10, rounds // 10)))
    if not args.splash_only:
        configs += other_games_configs(args)
    return configs


def other_games_configs(args: argparse.Namespace) -> list[Config]:
    """All Wild's lines, No Mercy's and Gin Rummy's (with its peers)."""
    rounds = args.rounds
    configs: list[Config] = []
    for players in PLAYER_COUNTS:
        for preset in args.presets:
            configs.append(
                Config("ours", players, preset, partial(run_ours, players, preset), rounds)
            )
    # Rounds of up to ROUND_CAP decisions: a tenth as many.
    every_rule = partial(run_ours, 2, "standard", options=ALL_HOUSE_RULES)
    configs.append(
        Config("ours, every house rule", 2, "standard", every_rule, max(10, rounds // 10))
    )
    for players in NO_MERCY_PLAYERS:
        no_mercy = partial(run_no_mercy, players)
        configs.append(Config("uno_no_mercy", players, "standard", no_mercy, rounds))
    configs.append(Config("gin_rummy", 2, "standard", run_gin, rounds))
    configs.append(Config("openspiel gin_rummy", 2, "standard", run_openspiel_gin, rounds))
    if not args.no_rlcard:
        configs.append(Config("rlcard GinRummyGame", 2, "standard", run_rlcard_gin, rounds))
    return configs


def print_gin_ratios(results: list[Result]) -> None:
    gin = {r.engine: r for r in results if "gin" in r.engine.lower()}
    print("\nGin Rummy, actions/s (no target against C++: the ratio as measured):\n")
    for name, r in gin.items():
        if name != "gin_rummy":
            ratio = gin["gin_rummy"].actions_per_s / r.actions_per_s
            print(f"- gin_rummy / {name}: x{ratio:.2f}")


def print_splash_ratios(results: list[Result]) -> None:
    """Uno Splash against RLCard's game objects (``results[1]`` and ``results[2]``)."""
    game, rules_only = results[1], results[2]
    print("\nUno Splash / RLCard's UnoGame (the game objects alone), 2 players:\n")
    for r in results:
        if r.engine.startswith("uno_splash") and r.players == 2:
            print(
                f"- {r.engine}: {r.actions_per_s:,.0f} actions/s against"
                f" {game.actions_per_s:,.0f}: x{r.actions_per_s / game.actions_per_s:.2f}"
                f" (rules only {rules_only.actions_per_s:,.0f}:"
                f" x{r.actions_per_s / rules_only.actions_per_s:.2f})"
            )


def print_rlcard_ratios(results: list[Result], rl: Result, min_ratio: float | None) -> bool:
    """All Wild against RLCard's environment, 2 players; False when a ratio is under
    ``min_ratio``."""
    ok_all = True
    print("\nRatio ours / RLCard, 2 players, actions (decisions) per second:\n")
    for r in results:
        if not r.engine.startswith("ours") or r.players != 2:
            continue
        ratio = r.actions_per_s / rl.actions_per_s
        verdict = ""
        if min_ratio is not None and r.engine == "ours":
            ok = ratio >= min_ratio
            ok_all = ok_all and ok
            verdict = f"  [{'ok' if ok else 'BELOW'} --min-ratio {min_ratio:g}]"
        print(
            f"- {r.engine}, {r.preset}: {r.actions_per_s:,.0f} actions/s against RLCard's"
            f" {rl.actions_per_s:,.0f}: x{ratio:.2f}{verdict}"
        )
    return ok_all


def print_profiles(args: argparse.Namespace) -> None:
    rounds = min(args.rounds, 500)
    profile_ours("uno_splash, RLCard's choices", SPLASH_LIKE_RLCARD, rounds, args.seed)
    if not args.splash_only:
        for preset in args.presets:
            profile_ours(f"ours, {preset}", partial(run_ours, 2, preset), rounds, args.seed)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    version = None if args.no_rlcard else rlcard_version()
    if not args.no_rlcard and version is None:
        print(
            "rlcard is not installed: pip install -e '.[bench]' (or rlcard==1.2.0 numpy),"
            " or pass --no-rlcard",
            file=sys.stderr,
        )
        return 2
    built = Path(args.compiled).resolve() if args.compiled is not None else None
    if built is not None and (
        engine_kind() == "pure Python" or built not in Path(engine_state.__file__ or "").parents
    ):
        print(
            f"--compiled {args.compiled}: the engine imported is not compiled"
            f" ({engine_state.__file__}); build it with bench/compile_engine.py",
            file=sys.stderr,
        )
        return 2
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    print_header(args, version)
    results = measure(build_configs(args), args.repeats, args.seed)
    print(table(results))
    print_gin_ratios(results)
    ok = True
    if not args.no_rlcard:
        print_splash_ratios(results)
        ok = print_rlcard_ratios(results, results[0], args.min_ratio)
    if args.profile:
        print_profiles(args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
