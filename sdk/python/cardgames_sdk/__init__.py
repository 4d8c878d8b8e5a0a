"""The Python SDK's hand-written layer over the generated client (``cardgames_client``, made by
openapi-python-client from openapi.yaml: ``python sdk/generate.py``).

The generated package has a function per operation and a class per schema component; use it
for everything. This layer adds only what a generator cannot know:

- ``CardGames.act``: an action with the ``expected_version`` it was chosen at and an
  ``Idempotency-Key``, retried with the same key after a network failure (a retry is answered
  from the first attempt, never applied twice);
- ``CardGames.events``: the account event stream (NDJSON), resumed from the last event id after
  a disconnect or at the end of its hour, so that no event is lost or repeated; each event is
  its kind's generated model (``ChallengedAccountEvent``, its ``data`` a ``ChallengedData``: the
  schema's ``AccountEvent`` is a union discriminated by ``kind``), read by ``parse_event``;
- ``ApiError``: the API's one error shape, ``{"error": {"code", "message", "details"}}``.
"""

from __future__ import annotations

import functools
import json
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, get_args, get_type_hints

import httpx
from cardgames_client import AuthenticatedClient, models
from cardgames_client._schema import OPENAPI_SHA256
from cardgames_client.api.games import games_actions_create, games_retrieve
from cardgames_client.api.notifications import account_events_stream
from cardgames_client.models import AccountEventPage, Game
from cardgames_client.models.account_events_stream_format import AccountEventsStreamFormat

__all__ = [
    "FREE_ACTIONS",
    "OPENAPI_SHA256",
    "AccountEvent",
    "ApiError",
    "CardGames",
    "parse_event",
    "turn_actions",
]

# One of the generated ``<Kind>AccountEvent`` models: the schema's union has no class of its own.
AccountEvent: TypeAlias = Any

STREAM_PATH = "/api/v1/games/live/stream/"
# The stream sends a keep-alive every 15 s: a silence much longer than that is a dead connection.
STREAM_READ_TIMEOUT = 60.0
# Actions any seat may take out of turn (Uno's "uno" and "catch"): never a turn of one's own.
FREE_ACTIONS = frozenset({"uno", "catch"})


@dataclass
class ApiError(Exception):
    """A refusal: the HTTP status and the stable ``code`` to branch on."""

    status: int
    code: str
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}"

    @classmethod
    def from_response(cls, status: int, content: bytes) -> ApiError:
        try:
            error = json.loads(content)["error"]
            return cls(status, error["code"], error.get("message", ""), error.get("details") or {})
        except (ValueError, KeyError, TypeError):
            return cls(status, "unexpected_response", content[:200].decode(errors="replace"))


class CardGames:
    """A player's (or a bot account's) session: ``client`` is the generated
    ``AuthenticatedClient``, for every generated function."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        self.client = AuthenticatedClient(
            base_url=base_url.rstrip("/"),
            token=token,
            raise_on_unexpected_status=True,
            timeout=httpx.Timeout(timeout),
        )

    def call(self, operation: Any, *args: Any, **kwargs: Any) -> Any:
        """``operation.sync_detailed(*args, client=…, **kwargs)``'s parsed answer, or
        ``ApiError`` for any 4xx or 5xx."""
        response = operation.sync_detailed(*args, client=self.client, **kwargs)
        if response.status_code >= 400:
            raise ApiError.from_response(response.status_code, response.content)
        return response.parsed

    def game(self, game_id: Any) -> Game:
        return self.call(games_retrieve, game_id)

    def act(
        self,
        game_id: Any,
        action: Any,
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        retries: int = 2,
    ) -> Game:
        """Take ``action`` (a listed action of the game's view, or a generated ``…Action``)
        chosen at ``expected_version``. A ``version_conflict`` (409) means somebody moved
        first: read the game again and choose again."""
        action.expected_version = expected_version
        key = idempotency_key or str(uuid.uuid4())
        for attempt in range(retries + 1):
            try:
                return self.call(games_actions_create, game_id, body=action, idempotency_key=key)
            except httpx.TransportError:
                if attempt == retries:
                    raise
                time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    def latest_event_id(self) -> int:
        """The id of the newest event kept: stream ``after`` it for what happens from now on."""
        page: AccountEventPage = self.call(
            account_events_stream, format_=AccountEventsStreamFormat.JSON
        )
        return page.next_after

    def events(
        self,
        *,
        after: int | None = None,
        reconnect: bool = True,
        on_reconnect: Callable[[Exception | None], None] | None = None,
    ) -> Iterator[AccountEvent]:
        """The account's events in order, each once: those after ``after`` (default: from now
        on), then each as it happens. A dropped connection or the stream's hourly end is
        resumed from the last id (``reconnect``); a revoked token raises ``ApiError`` 401."""
        last = self.latest_event_id() if after is None else after
        while True:
            problem: Exception | None = None
            try:
                for data in self._stream_once(last):
                    last = data["id"]
                    event = parse_event(data)
                    if event is not None:  # None: a kind newer than this client (docs/api.md)
                        yield event
            except (httpx.TransportError, httpx.StreamError) as exc:
                problem = exc
            if not reconnect:
                if problem is not None:
                    raise problem
                return
            if on_reconnect is not None:
                on_reconnect(problem)
            if problem is not None:
                time.sleep(1.0)

    def _stream_once(self, after: int) -> Iterator[dict[str, Any]]:
        """One connection: its events (as JSON objects) until the server ends it."""
        timeout = httpx.Timeout(10.0, read=STREAM_READ_TIMEOUT)
        http = self.client.get_httpx_client()
        params = {"format": "ndjson", "after": str(after)}
        with http.stream("GET", STREAM_PATH, params=params, timeout=timeout) as response:
            if response.status_code != 200:
                raise ApiError.from_response(response.status_code, response.read())
            for line in response.iter_lines():
                if not line.strip():
                    continue  # a keep-alive
                data = json.loads(line)
                if data.get("kind") == "end":
                    if data.get("reason") == "authentication_failed":
                        raise ApiError(401, "authentication_failed", "The token was revoked.")
                    return  # the stream's time is up: the caller reconnects
                yield data


@functools.cache
def known_kinds() -> frozenset[str]:
    """The kinds this client was generated with: those of the members of ``AccountEvent``'s
    union, as the generated page's ``events`` declares them."""
    names = vars(models)
    (union,) = get_args(get_type_hints(AccountEventPage, localns=names)["events"])
    return frozenset(
        kind.value
        for member in get_args(union)
        for kind in get_type_hints(member, localns=names)["kind"]
    )


def parse_event(data: Mapping[str, Any]) -> AccountEvent | None:
    """One event of the stream (its JSON object) as its kind's model, by the generated union's
    own parser (the page's); None for a kind newer than this client, which a client ignores.
    An event of a known kind that does not parse raises (``KeyError``, ``ValueError``, …)."""
    if data.get("kind") not in known_kinds():
        return None
    page = {"events": [data], "next_after": data["id"], "has_more": False}
    return AccountEventPage.from_dict(page).events[0]


def turn_actions(view: Game) -> list[Any]:
    """The listed actions of ``view`` that are a turn of one's own (not UNO or catching)."""
    table = view.table
    legal = getattr(table, "legal_actions", None) or []
    return [a for a in legal if a.type_ not in FREE_ACTIONS]
