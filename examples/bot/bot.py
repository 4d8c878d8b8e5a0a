"""A small third-party bot for the card games API: it plays Uno All Wild, Uno Splash, Uno No
Mercy and Gin Rummy from its account's event stream, with the Python SDK only (the generated
``cardgames_client`` and the thin ``cardgames_sdk``), nothing of the server's code.

    python sdk/generate.py --python-only && pip install ./sdk/python
    python examples/bot/bot.py --url https://<host> --token uaw_…   # a bot account's token

It takes challenges from anyone, accepts each (while it has fewer than ``--max-games`` games
going; declines the others), joins the rematches it is invited to, and acts whenever its event
stream says it is its turn. See README.md beside it.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from typing import Any

from cardgames_client.api.games import games_join, games_list
from cardgames_client.api.social import (
    challenges_accept,
    challenges_decline,
    challenges_list,
    me_social_update,
)
from cardgames_client.models import (
    ChallengedAccountEvent,
    GameStartedAccountEvent,
    InvitedAccountEvent,
    MatchOverAccountEvent,
    PatchedSocialSettings,
    SeatTakenOverAccountEvent,
    YourTurnAccountEvent,
)
from cardgames_client.models.challenges_from_enum import ChallengesFromEnum
from cardgames_client.models.games_list_status import GamesListStatus
from cardgames_sdk import ApiError, CardGames, turn_actions

log = logging.getLogger("cardgames-bot")

# Refusals that mean "somebody else moved first" or "that is over": read again, nothing more.
STALE = frozenset(
    {"version_conflict", "not_your_turn", "challenge_closed", "game_already_started", "not_found"}
)


def choose(view: Any, rng: random.Random) -> Any | None:
    """The action to take in ``view`` (the bot's own view of a game), or None if it has no turn.

    Gin Rummy: knock or go gin as soon as it may, take the upcard only if it is no deadwood,
    throw the heaviest deadwood. Uno: play a card when it can (saying UNO with the
    second-to-last), else draw or pass; choices (colour, target) at random."""
    actions = [a for a in turn_actions(view) if not type(a).__name__.endswith("Template")]
    if not actions:
        return None
    by_type: dict[str, list[Any]] = {}
    for action in actions:
        by_type.setdefault(action.type_, []).append(action)
    for finishing in ("big_gin", "knock"):
        if finishing in by_type:
            return by_type[finishing][-1]
    if "discard" in by_type:
        table = view.table
        values = {card.id: card.value for card in table.hand}
        heavy = [a for a in by_type["discard"] if a.card in set(table.deadwood)]
        return max(heavy or by_type["discard"], key=lambda a: values[a.card])
    plays = by_type.get("play", []) + by_type.get("play_drawn", [])
    if plays:
        chosen = rng.choice(plays)
        hand = getattr(view.table, "hand", None)
        if hasattr(chosen, "uno") and hand is not None and len(hand) == 2:
            chosen.uno = True
        return chosen
    return rng.choice(actions)


class Bot:
    def __init__(self, api: CardGames, *, max_games: int, seed: int | None = None) -> None:
        self.api = api
        self.max_games = max_games
        self.rng = random.Random(seed)
        self.finished: set[str] = set()

    # -- games ------------------------------------------------------------------------------

    def play(self, game_id: Any) -> None:
        """Act in ``game_id`` for as long as it is the bot's turn. After its own move no event
        says so (a two-player Skip keeps the turn), nor that the game is over: the move's
        answer does."""
        view = self.api.game(game_id)
        while (action := choose(view, self.rng)) is not None:
            try:
                view = self.api.act(game_id, action, expected_version=view.version)
            except ApiError as error:
                if error.code not in STALE:
                    raise
                view = self.api.game(game_id)
        if str(view.status) == "finished":
            self.finished.add(str(game_id))
        log.info("game %s: waiting (version %s, %s)", game_id, view.version, view.status)

    def games_going(self) -> list[Any]:
        return list(self.api.call(games_list, status=GamesListStatus.ACTIVE))

    # -- invitations ------------------------------------------------------------------------

    def answer_challenge(self, challenge_id: int) -> None:
        try:
            if len(self.games_going()) >= self.max_games:
                self.api.call(challenges_decline, challenge_id)
                log.info("challenge %s declined: busy", challenge_id)
                return
            game = self.api.call(challenges_accept, challenge_id)
            log.info("challenge %s accepted: game %s (%s)", challenge_id, game.id, game.game)
            self.play(game.id)
        except ApiError as error:
            if error.code not in STALE:
                raise

    def join(self, game_id: Any) -> None:
        try:
            self.api.call(games_join, game_id)
        except ApiError as error:
            if error.code not in STALE and error.code != "already_joined":
                raise

    # -- the event loop ---------------------------------------------------------------------

    def catch_up(self) -> None:
        """What happened while the bot was away: challenges waiting, games on its turn."""
        for challenge in self.api.call(challenges_list):
            if challenge.incoming:
                self.answer_challenge(challenge.id)
        for game in self.games_going():
            self.play(game.id)

    def run(self, *, stop_after: int | None = None) -> None:
        self.api.call(
            me_social_update,
            body=PatchedSocialSettings(challenges_from=ChallengesFromEnum.EVERYONE),
        )
        after = self.api.latest_event_id()  # before catching up: nothing slips between
        self.catch_up()
        log.info("listening from event %s", after)
        for event in self.api.events(after=after):
            log.info("event %s %s game=%s", event.id, event.kind, event.game)
            self.react(event)
            if stop_after is not None and len(self.finished) >= stop_after:
                return

    def react(self, event: Any) -> None:
        """Act on one event: each kind is its own generated model (the schema's ``AccountEvent``
        is a union discriminated by ``kind``), its ``data`` typed; other kinds need nothing."""
        if isinstance(event, ChallengedAccountEvent):
            self.answer_challenge(event.data.challenge)
        elif isinstance(event, InvitedAccountEvent) and event.game:
            self.join(event.game)
        elif (
            isinstance(
                event, GameStartedAccountEvent | YourTurnAccountEvent | SeatTakenOverAccountEvent
            )
            and event.game
        ):
            self.play(event.game)
        elif isinstance(event, MatchOverAccountEvent) and event.game:
            self.finished.add(str(event.game))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A bot that plays the four card games.")
    parser.add_argument("--url", required=True, help="The server, e.g. https://cards.example")
    parser.add_argument("--token", required=True, help="The bot account's token (uaw_…)")
    parser.add_argument("--max-games", type=int, default=10, help="Games at once (default 10)")
    parser.add_argument("--stop-after", type=int, help="Exit after this many games end")
    parser.add_argument("--seed", type=int, help="Seed its random choices (for tests)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stdout)
    bot = Bot(CardGames(args.url, args.token), max_games=args.max_games, seed=args.seed)
    bot.run(stop_after=args.stop_after)
    log.info("done: %s games finished", len(bot.finished))
    return 0


if __name__ == "__main__":
    sys.exit(main())
