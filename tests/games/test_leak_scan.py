"""A whole 4-player game through the API, scanning every response for hidden cards.

Every card has a stable id (``draw4-3``), so a leak can be found by id: at the moment each
response is received, the cards held by the *other* seats and the cards in the draw pile are read
from ``Game.state``, and none of them may appear (as a quoted JSON string) in that response, its
headers included.

The one allowed reveal is the end of a round: the table's ``round_results`` and the ``hands`` of
``round_over`` events show the hands left when a round ended. Those parts are cut out before the
scan and checked separately: they may only ever show hands of a round that is over, exactly as
the round ended.

Event pages hold moves from the past. A move is scanned against the state right after it (every
state the game went through is kept), since that is what its reader could know at the time.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

from games.models import Game, RoundResult, Seat
from tests.games.conftest import API, API_TESTS, Player, start_game, strip_seat

pytestmark = API_TESTS

# Keys of the stored state and of raw events that must never reach a client.
RAW_KEYS = ('"draw_pile"', '"secret"', '"exposed"', '"mercy_used"', '"chance"', '"to"')


@dataclass
class Scanner:
    game_id: str
    seats: dict[int, int] = field(default_factory=dict)  # user pk -> position
    states: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> state
    responses: int = 0
    moves_scanned: int = 0
    reveals_checked: int = 0
    forbidden_seen: int = 0  # sum of the forbidden-set sizes: proves the scan had teeth
    transcript: list[str] = field(default_factory=list)

    def remember_state(self) -> None:
        game = Game.objects.get(pk=self.game_id)
        self.states[game.version] = copy.deepcopy(game.state)

    @staticmethod
    def hidden_from(state: dict[str, Any] | None, seat: int | None) -> set[str]:
        """Card ids ``seat`` may not know in ``state``: other hands and the draw pile."""
        if state is None:
            return set()
        cards = set(state["draw_pile"])
        for i, other in enumerate(state["seats"]):
            if i != seat:
                cards.update(other["hand"])
        return cards

    def assert_hidden(self, text: str, cards: set[str], where: str) -> None:
        self.forbidden_seen += len(cards)
        leaked = sorted(c for c in cards if f'"{c}"' in text)
        assert not leaked, f"{where}: hidden cards {leaked} in {text[:2000]}"

    def check_round_results(self, results: list[dict[str, Any]], table: dict[str, Any]) -> None:
        for result in results:
            over = (
                table["phase"] in ("round_over", "match_over") or table["round"] > result["round"]
            )
            assert over, f"round {result['round']} revealed while it is being played"
            self.check_reveal(result["round"], result["hands"])

    def check_reveal(self, round_no: int, hands: dict[str, list[str]]) -> None:
        stored = RoundResult.objects.get(game_id=self.game_id, round=round_no)
        assert hands == stored.hands, "a reveal that is not the hands left at the round's end"
        self.reveals_checked += 1

    def scan(self, player: Player, response: Any, what: str) -> Any:
        """Scan one response ``player`` received; returns it."""
        self.responses += 1
        game = Game.objects.get(pk=self.game_id)
        now = game.state
        seat = self.seats[player.user.pk]
        where = f"{player.name} {what} (v{game.version})"
        headers = "\n".join(f"{k}: {v}" for k, v in response.items())
        raw = response.content.decode()
        self.transcript.append(f"{where}\n{headers}\n\n{raw}")
        for key in RAW_KEYS:
            assert key not in raw, f"{where}: raw key {key} in the response"
        if now is not None and now["draw_pile"]:
            pile = now["draw_pile"]
            for dumped in (json.dumps(pile), json.dumps(pile, separators=(",", ":"))):
                assert dumped[1:-1] not in raw, f"{where}: the draw pile in order"
        self.assert_hidden(headers, self.hidden_from(now, seat), f"{where} headers")
        if not raw:
            return response
        body = json.loads(raw)
        if isinstance(body, dict) and "moves" in body:
            for move in body["moves"]:
                self.scan_move(move, seat, where)
            rest = {k: v for k, v in body.items() if k != "moves"}
            self.assert_hidden(json.dumps(rest), self.hidden_from(now, seat), where)
            return response
        for summary in body if isinstance(body, list) else [body]:
            table = summary.get("table") if isinstance(summary, dict) else None
            if table:
                results = table.pop("round_results")
                self.check_round_results(results, table)
        self.assert_hidden(json.dumps(body), self.hidden_from(now, seat), where)
        return response

    def scan_move(self, move: dict[str, Any], seat: int, where: str) -> None:
        self.moves_scanned += 1
        move = copy.deepcopy(move)
        for event in move["events"]:
            if event["type"] == "round_over":
                self.check_reveal(event["round"], event.pop("hands"))
        state = self.states[move["version"]]
        self.assert_hidden(
            json.dumps(move), self.hidden_from(state, seat), f"{where} move {move['version']}"
        )


def scan_refusals(
    scanner: Scanner, game_id: str, version: int, mover: Player, waiter: Player
) -> None:
    """A play out of turn and a stale action (``version`` is the game's): refused, and their
    answers leak nothing."""
    own = scanner.scan(waiter, waiter.view(game_id), "view while waiting").json()
    card = own["table"]["hand"][0]["id"]
    refused = waiter.act(game_id, {"type": "play", "card": card})
    assert scanner.scan(waiter, refused, "refused play").status_code == 422
    stale = mover.act(game_id, {"type": "draw", "expected_version": version - 1})
    assert scanner.scan(mover, stale, "stale action").status_code == 409


def scan_history(scanner: Scanner, game_id: str, player: Player) -> None:
    """The event log page by page, then whole."""
    page = {"has_more": True, "next_after": 0}
    while page["has_more"]:
        response = player.events(game_id, after=page["next_after"], limit=7)
        page = scanner.scan(player, response, "history page").json()
    for after_version in (0, 3):
        response = player.events(game_id, after=after_version, limit=200)
        scanner.scan(player, response, "whole history")


def assert_the_scan_saw_enough(scanner: Scanner, game_id: str, moves: int) -> None:
    """The finished game's scan covered every player's responses and reveals, and would have
    caught the revealed hands had they leaked."""
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    assert scanner.responses > 40 * moves // 10
    assert scanner.moves_scanned >= 4 * 2 * moves
    # Every player saw the round-end reveal, in the table and in the event log.
    assert scanner.reveals_checked >= 4 * 2
    assert scanner.forbidden_seen > 0
    # The detector works: the revealed hands, had they not been cut out, would have been caught.
    final = scanner.states[game.version]
    result = RoundResult.objects.get(game_id=game_id)
    revealed = {c for seat, hand in result.hands.items() for c in hand}
    assert revealed, "nobody held a card at the end: the reveal check proved nothing"
    text = "\n".join(scanner.transcript)
    assert any(f'"{c}"' in text for c in revealed)
    assert json.dumps(final) not in text


def test_no_response_reveals_another_players_cards_or_the_draw_pile(
    everyone: list[Player], seeded_engine: Any
) -> None:
    seeded_engine(2024)
    rng = random.Random(2024)
    game_id = start_game(*everyone, target_score=0)
    scanner = Scanner(game_id)
    scanner.seats = dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position"))
    scanner.remember_state()
    by_user = {p.user.pk: p for p in everyone}
    after = {p.name: 0 for p in everyone}
    etags: dict[str, str] = {}

    def poll(player: Player) -> None:
        page = scanner.scan(player, player.events(game_id, after=after[player.name]), "events")
        after[player.name] = page.json()["next_after"]
        headers = {"If-None-Match": etags[player.name]} if player.name in etags else {}
        view = scanner.scan(player, player.view(game_id, **headers), "view")
        assert view.status_code in (200, 304)
        etags[player.name] = view["ETag"]

    def lists(player: Player) -> None:
        for url, params in (
            (API, {}),
            (API, {"my_turn": "true"}),
            (API, {"status": "active"}),
            (f"{API}open/", {}),
        ):
            response = scanner.scan(player, player.get(url, params), f"list {url} {params}")
            assert response.status_code == 200

    for player in everyone:
        lists(player)
        poll(player)

    moves = 0
    while Game.objects.get(pk=game_id).status == Game.ACTIVE:
        moves += 1
        assert moves < 2000, "the game did not end"
        game = Game.objects.get(pk=game_id)
        mover = by_user[game.current_user_id]
        view = scanner.scan(mover, mover.view(game_id), "view before acting").json()
        if moves % 7 == 0:
            waiter = next(p for p in everyone if p is not mover)
            scan_refusals(scanner, game_id, view["version"], mover, waiter)
        action = strip_seat(rng.choice(view["table"]["legal_actions"]))
        action["expected_version"] = view["version"]
        response = mover.act(game_id, action)
        assert response.status_code == 200, response.content
        scanner.remember_state()
        scanner.scan(mover, response, f"action {action}")
        for player in everyone:
            poll(player)
        if moves % 10 == 0:
            for player in everyone:
                lists(player)
                same = player.view(game_id, **{"If-None-Match": etags[player.name]})
                assert scanner.scan(player, same, "view, not modified").status_code == 304

    for player in everyone:
        lists(player)
        poll(player)
        scan_history(scanner, game_id, player)
        refused = player.act(game_id, {"type": "draw"})
        assert scanner.scan(player, refused, "action after the end").status_code == 409

    assert_the_scan_saw_enough(scanner, game_id, moves)
