"""A client generated from the live schema by a generator nobody here wrote plays a whole game.

At test time the schema is fetched from a live server, ``openapi-python-client`` (a pinned dev
dependency, so this test fails rather than skips when it is missing) generates a Python package
from it into a temporary folder, and three players use only that package's functions: sign up,
create a game, join it by invite code, poll it (with ``If-None-Match``), act with
``expected_version`` and an ``Idempotency-Key``, read the move log, until the round, and with
``target_score`` 0 the match, is over; and two of them search, follow each other and play a
challenge. If the generator cannot handle something in the schema,
fix the schema (component names, discriminator mapping), not this test.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import ScopedRateThrottle

MAX_ACTIONS = 3000
TIME_LIMIT_SECONDS = 300
FREE_ACTIONS = {"uno", "catch"}  # may be taken out of turn
PASSWORD = "correct-horse-battery-7"


# Every test plays against the live server, many moves a minute.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lifted_game_throttles"),
]


@dataclass
class GeneratedClient:
    """The generated package, and importers for its modules."""

    package: str

    def module(self, dotted: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{dotted}")

    def api(self, tag: str, operation_id: str) -> Any:
        return self.module(f"api.{tag}.{operation_id}")

    @property
    def models(self) -> Any:
        return self.module("models")

    @property
    def types(self) -> Any:
        return self.module("types")


@pytest.fixture
def lifted_game_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game sends more actions a minute than a person would: lift the games and actions rates
    (sign-ups still go through the auth throttle), with a throttle cache of this test's own."""
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {**ScopedRateThrottle.THROTTLE_RATES, "actions": None, "games": None},
    )
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache(f"t-{uuid.uuid4()}", {}))


@pytest.fixture(scope="module")
def generated(
    live_server: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GeneratedClient]:
    # Generated once for the module: each game kind plays with the same client.
    tmp_path = tmp_path_factory.mktemp("generated")
    schema_path = tmp_path / "schema.json"
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json", timeout=30) as r:
        assert r.status == 200
        schema_path.write_bytes(r.read())
    # No post-hooks: the generator would otherwise run ruff over the generated code, which
    # changes nothing that matters here and depends on ruff being on PATH.
    config_path = tmp_path / "generator.yaml"
    config_path.write_text("post_hooks: []\n", encoding="utf-8")
    package = f"uaw_generated_client_{uuid.uuid4().hex[:12]}"  # never clashes with a module
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(schema_path),
            "--output-path",
            str(tmp_path / package),
            "--meta",
            "none",
            "--config",
            str(config_path),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, (
        "openapi-python-client could not generate a client from the live schema (it is a "
        "pinned dev dependency: `pip install -e .[dev]`).\n"
        f"stdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-3000:]}"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(package)
        yield GeneratedClient(package)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[name]


@dataclass
class Player:
    name: str
    client: Any  # the generated AuthenticatedClient
    view: Any = None  # the generated Game model, as last polled
    etag: str | None = None
    polls: dict[int, int] = field(default_factory=lambda: {200: 0, 304: 0})


def _camel(snake: str) -> str:
    return "".join(part.title() for part in snake.split("_"))


def sign_up(generated: GeneratedClient, base_url: str, names: tuple[str, ...]) -> list[Player]:
    """Each name signs up, a public operation (the generated function takes a client without a
    token), and gets a client with the token it was given."""
    import httpx

    m = generated.models
    client_module = generated.module("client")
    timeout = httpx.Timeout(30.0)
    anonymous = client_module.Client(
        base_url=base_url, raise_on_unexpected_status=True, timeout=timeout
    )
    players: list[Player] = []
    for name in names:
        response = generated.api("auth", "auth_signup").sync_detailed(
            client=anonymous,
            body=m.Signup(
                username=f"{name}-{uuid.uuid4().hex[:6]}",
                password=PASSWORD,
                display_name=name.title(),
                token_name="generated client test",
            ),
        )
        assert response.status_code == 201, response.content
        signed_up = response.parsed
        assert isinstance(signed_up, m.SignupResponse)
        assert signed_up.token.token.startswith("uaw_")
        assert signed_up.token.scope == m.ScopeEnum.PLAY
        client = client_module.AuthenticatedClient(
            base_url=base_url,
            token=signed_up.token.token,
            raise_on_unexpected_status=True,
            timeout=timeout,
        )
        players.append(Player(name, client))
    return players


def start_private_game(generated: GeneratedClient, players: list[Player], kind: str) -> Any:
    """The first player creates a private one-round game with a seat each; the others join by
    invite code, and the last one starts it. Returns the game's id."""
    m = generated.models
    host, *guests = players
    response = generated.api("games", "games_create").sync_detailed(
        client=host.client,
        body=m.CreateGame(
            game=m.GameEnum(kind),
            max_players=len(players),
            target_score=0,
            visibility=m.VisibilityEnum.PRIVATE,
        ),
    )
    assert response.status_code == 201, response.content
    lobby = response.parsed
    assert isinstance(lobby, m.Game)
    assert lobby.status == m.StatusEnum.LOBBY and lobby.table is None
    assert isinstance(lobby.invite_code, str)
    for guest in guests:
        response = generated.api("games", "games_join_by_invite").sync_detailed(
            client=guest.client, body=m.JoinByCode(invite_code=lobby.invite_code)
        )
        assert response.status_code == 200, response.content
    assert response.parsed.status == m.StatusEnum.ACTIVE  # the last seat starts it
    return lobby.id


def poll(generated: GeneratedClient, game_id: Any, player: Player) -> None:
    """The player's view, fetched with ``If-None-Match``: a 304 keeps the last one."""
    response = generated.api("games", "games_retrieve").sync_detailed(
        game_id,
        client=player.client,
        if_none_match=player.etag if player.etag is not None else generated.types.UNSET,
    )
    player.polls[response.status_code] += 1
    if response.status_code == 304:
        assert player.view is not None
        return
    assert response.status_code == 200, response.content
    player.view = response.parsed
    player.etag = response.headers["ETag"]


def choose_an_action(
    generated: GeneratedClient, players: list[Player], rng: random.Random
) -> tuple[Player, Any]:
    """Whoever has a turn action (play, draw, pass, choose a target...) picks one (mostly a
    card: the round ends sooner); free actions (uno, catch) are picked now and then too.
    Returns the mover and the listed action, typed, with the version it was listed at."""
    m = generated.models
    movers = [
        p for p in players if any(a.type_ not in FREE_ACTIONS for a in p.view.table.legal_actions)
    ]
    assert len(movers) == 1, [(p.name, p.view.table.legal_actions) for p in movers]
    mover = movers[0]
    table = mover.view.table
    assert table.current_seat == mover.view.your_seat or table.pending_choice is not None
    legal = table.legal_actions
    plays = [a for a in legal if a.type_ in ("play", "play_drawn")]
    chosen = rng.choice(plays if plays and rng.random() < 0.85 else legal)
    # One typed class per action, shared by the listed action and the request: the listed
    # action goes straight back, with the version it was listed at.
    assert isinstance(chosen, getattr(m, f"{_camel(chosen.type_)}Action")), chosen
    chosen.expected_version = mover.view.version
    if hasattr(chosen, "uno") and len(table.hand) == 2:
        chosen.uno = True  # about to hold one card: say UNO with the play
    return mover, chosen


def play_to_the_end(
    generated: GeneratedClient, game_id: Any, players: list[Player], started: float
) -> int:
    """Everyone polls, the one on turn acts (with an Idempotency-Key; the first action is sent
    twice, and the retry answered from the first), until the game is over, within
    TIME_LIMIT_SECONDS of ``started``. Returns how many actions were taken."""
    m = generated.models
    act = generated.api("games", "games_actions_create")
    rng = random.Random(20260301)
    actions_taken = 0
    replay_checked = False
    while True:
        assert time.monotonic() - started < TIME_LIMIT_SECONDS, "the game took too long"
        for player in players:
            poll(generated, game_id, player)
        versions = {p.view.version for p in players}
        assert len(versions) == 1, versions  # nobody moved between the polls
        if players[0].view.status == m.StatusEnum.FINISHED:
            return actions_taken
        assert players[0].view.status == m.StatusEnum.ACTIVE
        assert actions_taken < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
        mover, body = choose_an_action(generated, players, rng)
        key = str(uuid.uuid4())
        response = act.sync_detailed(game_id, client=mover.client, body=body, idempotency_key=key)
        assert response.status_code == 200, (body, response.content)
        assert isinstance(response.parsed, m.Game)
        assert response.parsed.version > mover.view.version
        actions_taken += 1
        if not replay_checked:
            # A retry with the same key and body answers the first response; nothing happens.
            again = act.sync_detailed(game_id, client=mover.client, body=body, idempotency_key=key)
            assert again.status_code == 200, again.content
            assert again.headers.get("Idempotent-Replayed") == "true"
            assert again.parsed.version == response.parsed.version
            replay_checked = True


def read_the_move_log(generated: GeneratedClient, game_id: Any, player: Player) -> list[Any]:
    """Every move, paged with the generated events function."""
    moves: list[Any] = []
    after = 0
    while True:
        response = generated.api("games", "games_events_list").sync_detailed(
            game_id, client=player.client, after=after, limit=200
        )
        assert response.status_code == 200, response.content
        page = response.parsed
        moves += page.moves
        after = page.next_after
        if not page.has_more:
            return moves


def read_the_record(generated: GeneratedClient, game_id: Any, player: Player, final: Any) -> None:
    """The finished game's record, typed: every move with every hand after it, and the end the
    players saw."""
    m = generated.models
    response = generated.api("games", "games_record_retrieve").sync_detailed(
        game_id, client=player.client
    )
    assert response.status_code == 200, response.content
    record = response.parsed
    assert isinstance(record, m.GameRecord)
    assert record.version == 1 and record.game.id == game_id
    # The move log is typed: the deal is the service's own `start`, an event a model of its own.
    assert isinstance(record.moves[0].action, m.StartMoveAction)
    assert all(not isinstance(e, dict) for move in record.moves for e in move.events)
    assert record.moves[-1].number == final.version
    last = record.moves[-1].position
    assert len(last.hands) == record.setup.players == len(final.players)
    assert record.result.winner == final.table.winner
    assert sorted(p.place for p in record.players) == sorted(p.place for p in final.players)


@pytest.mark.parametrize("kind", ["uno_all_wild", "uno_splash", "uno_no_mercy"])
def test_generated_client_plays_a_three_player_game_to_the_end(
    live_server: Any, generated: GeneratedClient, kind: str
) -> None:
    started = time.monotonic()
    players = sign_up(generated, live_server.url, ("ann", "ben", "cat"))
    host, *guests = players
    game_id = start_private_game(generated, players, kind)

    # Nothing changed between two polls: the second is a 304 without a body.
    poll(generated, game_id, host)
    poll(generated, game_id, host)
    assert host.polls == {200: 1, 304: 1}

    actions_taken = play_to_the_end(generated, game_id, players, started)

    # -- the end: a winner, and every player placed
    final = host.view
    assert final.finished_at is not None
    assert final.table is not None and final.table.winner is not None
    assert len(final.table.round_results) == 1
    places = sorted(p.place for p in final.players)
    # One winner; the two others are placed by their hands' points, and equal points share a
    # place (docs/ratings.md: "Equal results share a place"), which a random deal sometimes gives.
    assert places in ([1, 2, 3], [1, 2, 2]), places
    winners = [p for p in final.players if p.place == 1]
    assert len(winners) == 1 and winners[0].seat == final.table.winner
    assert all(p.view.table.legal_actions == [] for p in players)
    assert all(p.polls[200] >= actions_taken for p in players)

    moves = read_the_move_log(generated, game_id, guests[0])
    versions = [move.version for move in moves]
    assert versions == sorted(versions) and len(versions) == len(set(versions))
    assert versions[-1] == final.version
    assert len(moves) >= actions_taken

    read_the_record(generated, game_id, guests[1], final)


def test_generated_client_plays_a_round_of_gin_rummy(
    live_server: Any, generated: GeneratedClient
) -> None:
    """Two players play a one-round Gin Rummy match with the typed Gin Rummy actions: they
    throw the heaviest deadwood card the view shows and knock as soon as they may."""
    m = generated.models
    players = sign_up(generated, live_server.url, ("alice", "bob"))
    clients = [p.client for p in players]
    game_id = start_private_game(generated, players, "gin_rummy")
    retrieve = generated.api("games", "games_retrieve")
    act = generated.api("games", "games_actions_create")
    for _ in range(400):
        views = [retrieve.sync_detailed(game_id, client=c).parsed for c in clients]
        if views[0].status == m.StatusEnum.FINISHED:
            break
        mover = next(i for i, v in enumerate(views) if v.table.legal_actions)
        table = views[mover].table
        assert isinstance(table, m.GinRummyTable) and table.current_seat == views[mover].your_seat
        legal = table.legal_actions
        knocks = [a for a in legal if a.type_ in ("knock", "big_gin")]
        discards = {a.card: a for a in legal if a.type_ == "discard"}
        heavy = [c for c in table.deadwood if c in discards]
        if knocks:
            chosen = knocks[-1]
        elif discards:
            by_value = {c.id: c.value for c in table.hand}
            chosen = discards[max(heavy or discards, key=lambda c: by_value[c])]
        else:
            chosen = legal[0]
        assert type(chosen).__name__.startswith(("GinRummy", "PassAction", "DrawAction")), chosen
        chosen.expected_version = views[mover].version
        response = act.sync_detailed(game_id, client=clients[mover], body=chosen)
        assert response.status_code == 200, (chosen, response.content)
    final = retrieve.sync_detailed(game_id, client=clients[1]).parsed
    assert final.status == m.StatusEnum.FINISHED
    result = final.table.round_results[-1]
    assert result.how in ("knock", "undercut", "gin", "big_gin")
    assert result.winner == final.table.winner
    assert sorted(p.place for p in final.players) == [1, 2]
    read_the_record(generated, game_id, players[0], final)


def test_generated_client_follows_a_friend_and_challenges_them(
    live_server: Any, generated: GeneratedClient
) -> None:
    """Alice and bob follow each other (friends), alice finds bob by name, sees him among her
    friends, challenges him to Uno Splash; bob accepts and the game has started."""
    m = generated.models
    # The database gives ids out again after an earlier test of this worker; its presence stamp
    # ("seen in the last minute", social.middleware) and friends list, cached by user id, would
    # then answer for bob: a CI run saw him offline.
    cache.clear()
    alice, bob = sign_up(generated, live_server.url, ("alice", "bob"))
    me = generated.api("me", "me_retrieve")
    usernames = [me.sync_detailed(client=p.client).parsed.username for p in (alice, bob)]
    social = "social"
    found = generated.api(social, "players_search").sync_detailed(client=alice.client, q="BO")
    assert usernames[1] in [row.player.username for row in found.parsed]
    follow = generated.api(social, "me_following_create")
    for player, other in ((alice, usernames[1]), (bob, usernames[0])):
        response = follow.sync_detailed(client=player.client, body=m.PlayerRequest(username=other))
        assert response.status_code == 200, response.content
    assert response.parsed.friend is True
    friends = generated.api(social, "me_friends_list").sync_detailed(client=alice.client).parsed
    assert [f.player.username for f in friends] == [usernames[1]]
    assert friends[0].presence.status.value == "online"  # bob's requests just now

    sent = generated.api(social, "challenges_create").sync_detailed(
        client=alice.client,
        body=m.ChallengeRequest(username=usernames[1], game=m.GameEnum("uno_splash")),
    )
    assert sent.status_code == 201, sent.content
    waiting = generated.api(social, "challenges_list").sync_detailed(client=bob.client).parsed
    assert [(c.id, c.incoming) for c in waiting] == [(sent.parsed.id, True)]
    accepted = generated.api(social, "challenges_accept").sync_detailed(
        sent.parsed.id, client=bob.client
    )
    assert accepted.status_code == 200, accepted.content
    assert accepted.parsed.status == m.StatusEnum.ACTIVE


def test_generated_client_spectates_a_game(live_server: Any, generated: GeneratedClient) -> None:
    """Carol finds alice and bob's game among the public games being played, watches it (the
    public table, typed by its kind, without a hand), follows its stream's first update and the
    count of spectators; alice then lets only her friends watch, and carol is refused."""
    m = generated.models
    alice, bob, carol = sign_up(generated, live_server.url, ("alice", "bob", "carol"))
    game_id = start_private_game(generated, [alice, bob], "uno_all_wild")
    tag = "spectators"
    playing = generated.api(tag, "games_playing_list").sync_detailed(client=carol.client)
    assert [(row.id, row.game) for row in playing.parsed] == [(game_id, "uno_all_wild")]
    watched = generated.api(tag, "games_watch_retrieve").sync_detailed(game_id, client=carol.client)
    view = watched.parsed
    assert isinstance(view, m.SpectatorView), watched.content
    assert isinstance(view.table, m.PublicUnoAllWildTable)
    assert not hasattr(view.table, "hand") and view.spectators == 1
    assert [p.name for p in view.players] and view.spectating == m.SpectatingEnum.PUBLIC
    update = generated.api(tag, "games_watch_stream_retrieve").sync_detailed(
        game_id, client=carol.client
    )
    assert update.parsed.version == view.version and update.parsed.moves
    count = generated.api(tag, "games_spectators_retrieve").sync_detailed(
        game_id, client=alice.client
    )
    assert count.parsed.spectating == m.SpectatingEnum.PUBLIC

    changed = generated.api(tag, "games_spectating_partial_update").sync_detailed(
        game_id,
        client=alice.client,
        body=m.PatchedSpectating(spectating=m.SpectatingEnum.FRIENDS, spectator_delay=2),
    )
    assert changed.status_code == 200, changed.content
    refused = generated.api(tag, "games_watch_retrieve").sync_detailed(game_id, client=carol.client)
    assert refused.status_code == 403
    assert refused.parsed.error.code == "spectators_friends_only"
