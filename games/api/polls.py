"""The long-polls: ``games/{id}/events/?wait=`` (a game's next moves) and ``games/live/?wait=``
("My games": any of the player's games changed).

Each route is an ordinary DRF view (authentication, permissions, the one error shape, the schema)
wrapped in an async Django view: the view answers at once when it can, and otherwise says on its
response what it would wait for (``live_wait`` / ``live_wait_any``); the wrapper then gives back
the database connection and the request's thread (``live.driver``, ``live.threads``), waits on
``live.announce``'s notifier, an ``asyncio`` wait that holds no thread, and asks the view again.
Under a WSGI server (``runserver``, the test suite's live server) the same views work, each
waiting request keeping its worker thread as every WSGI request does.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from asgiref.sync import sync_to_async
from django.http import HttpRequest
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config import metrics, query
from config.api_responses import standard_errors
from config.openapi import error_response
from config.wrapped_views import WrappedAPIView
from games import selectors
from games.api import serializers as s
from games.api.streams import progress_or_404
from games.api.views import NO_GAME
from live import announce, presence
from live.driver import as_async_view, run_view_async
from live.threads import release_request_thread

logger = logging.getLogger(__name__)


async def mark_watching(user_id: int | None, game_id: str, ttl: float, tab: str) -> None:
    """Record that this user has the game open (no notice needed) for ``ttl`` s, in the live
    connection ``tab``. Never breaks a live update: ``presence`` fails open."""
    if user_id is None:
        return
    await sync_to_async(presence.mark_watching, thread_sensitive=False)(
        user_id, game_id, int(ttl), tab
    )


async def stop_watching(user_id: int | None, game_id: str, tab: str) -> None:
    """The connection ``tab`` ended (the client closed or hid the game): only its own mark goes,
    so another tab with the same game open keeps the player watching."""
    if user_id is None:
        return
    try:
        await sync_to_async(presence.stop_watching, thread_sensitive=False)(user_id, game_id, tab)
    except BaseException:  # cancelled again while cleaning up: the mark's TTL ends it anyway
        logger.debug("Could not remove a watching mark", exc_info=True)


# ---------------------------------------------------------------------------------------------
# The long-poll: games/{id}/events/?wait=


def long_poll(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``events/`` so that ``?wait=`` waits without holding a thread.

    The view answers; when it had no moves to give and was asked to wait it marks its response
    with ``live_wait`` (a ``live.announce.Wait``). Then wait for a newer version of the game and
    ask the view again, until it has moves or the time is up (then its empty page is the answer).

    A waiting poll marks its player as watching the game (``live.presence``) under a mark of its
    own; a poll the client abandons (it closed or hid the game) removes that mark at once, while
    one that ends normally keeps it a few seconds, to bridge the gap to the next poll."""

    async def events_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        deadline: float | None = None
        marked: announce.Wait | None = None
        tab = uuid.uuid4().hex
        try:
            while True:
                response = await run_view_async(view, request, args, kwargs, "live_wait")
                plan: announce.Wait | None = getattr(response, "live_wait", None)
                if plan is None:
                    return response
                now = time.monotonic()
                if deadline is None:
                    deadline = now + plan.seconds
                    await mark_watching(plan.user_id, plan.game_id, plan.seconds + 5, tab)
                    marked = plan
                remaining = deadline - now
                if remaining <= 0:
                    return response
                release_request_thread()
                with metrics.LIVE_WAITING.track_inprogress():
                    woke = await announce.notifier().wait(
                        plan.game_id, above=plan.version, timeout=remaining
                    )
                if woke is None:
                    return response  # time is up: the empty page
        except asyncio.CancelledError:
            if marked is not None:
                await stop_watching(marked.user_id, marked.game_id, tab)
            raise

    return as_async_view(view, events_view)


# ---------------------------------------------------------------------------------------------
# My games, live: games/live/?since=&wait=

# The games a "My games" long-poll waits on: those waiting for the player first (my_games' order).
LIVE_GAMES = 50


@dataclass(frozen=True)
class WaitAny:
    """Wait up to ``seconds`` for a version above the given one of any of ``games``."""

    games: tuple[tuple[str, int], ...]
    seconds: float


async def wait_any(games: tuple[tuple[str, int], ...], timeout: float) -> bool:
    """Whether any of ``games`` got a newer version within ``timeout`` seconds."""
    if not games:
        await asyncio.sleep(timeout)
        return False
    notifier = announce.notifier()
    tasks = [
        asyncio.ensure_future(notifier.wait(game_id, above=version, timeout=timeout))
        for game_id, version in games
    ]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return any(task.result() is not None for task in done)
    finally:
        for task in tasks:
            task.cancel()  # their waiters are removed as they end (Notifier.wait)


def games_long_poll(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``games/live/``: when nothing changed since the client's stamp, wait
    (holding no thread) for a new version of any of the player's games, then ask again."""

    async def live_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        deadline: float | None = None
        while True:
            response = await run_view_async(view, request, args, kwargs, "live_wait_any")
            plan: WaitAny | None = getattr(response, "live_wait_any", None)
            if plan is None:
                return response
            now = time.monotonic()
            if deadline is None:
                deadline = now + plan.seconds
            remaining = deadline - now
            if remaining <= 0:
                return response
            release_request_thread()
            with metrics.LIVE_WAITING.track_inprogress():
                changed = await wait_any(plan.games, remaining)
            if not changed:
                return response  # time is up: the same stamp again

    return as_async_view(view, live_view)


class MyGamesLiveSerializer(serializers.Serializer):
    stamp = serializers.CharField(
        help_text="Changes whenever any of your unfinished games changes (a move, a join, the "
        "end): pass it back as `since`."
    )
    games_waiting = serializers.IntegerField(
        help_text="Games waiting for your move now (the badge of the web client)."
    )
    invitations = serializers.IntegerField(
        help_text="Lobbies you are invited to and have not joined (`games_invitations_list`); "
        "the web client's badge counts them with `games_waiting`."
    )


class MyGamesLiveView(WrappedAPIView):
    wrapper = games_long_poll

    @extend_schema(
        operation_id="games_live_retrieve",
        summary="Know when any of my games changes (long-poll)",
        description=(
            "For a games list and a badge that stay current: `stamp` changes whenever any of "
            "your games in a lobby or in progress changes, a game with you in it is created, or "
            "an invitation comes, is answered or runs out; `games_waiting` counts the games "
            "waiting for your move and `invitations` the lobbies you are invited to.\n\n"
            "Long-poll with `since` and `wait`: when the stamp is still `since`, the answer waits "
            "up to `wait` seconds for a change and comes as soon as one is made (usually within "
            "a second). Then reload `games/` (and `games/invitations/`) if the stamp changed, and "
            "ask again."
        ),
        parameters=[
            OpenApiParameter("since", str, description="The stamp of your last answer."),
            query.integer_parameter(
                "wait",
                0,
                announce.MAX_WAIT_SECONDS,
                "Long-poll: while nothing changed since `since`, wait up to this many seconds "
                "(default 0: answer at once).",
                default=0,
            ),
        ],
        responses={
            200: MyGamesLiveSerializer,
            **standard_errors(
                {400: error_response("`invalid_request`: `wait` out of range.")}, write=False
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        wait = query.integer(request, "wait", 0, 0, announce.MAX_WAIT_SECONDS)
        since = request.query_params.get("since", "")
        # Taken before the read: an announcement for this player after it may not be in it.
        mark = announce.user_mark(request.user.pk)
        live = selectors.live_games(request.user, limit=LIVE_GAMES)
        response = Response(
            MyGamesLiveSerializer(
                {
                    "stamp": live.stamp,
                    "games_waiting": live.games_waiting,
                    "invitations": live.invitations,
                }
            ).data
        )
        if wait and since == live.stamp:
            # A new game with the player in it moves no version they wait on: their own key does.
            mine = (announce.user_key(request.user.pk), mark)
            response.live_wait_any = WaitAny((*live.versions, mine), wait)
        return response


class EventsView(WrappedAPIView):
    # `?wait=` is a long-poll: the waiting happens in an async wrapper (``long_poll``) that holds
    # no thread busy and no database connection while it waits.
    wrapper = long_poll

    @extend_schema(
        operation_id="games_events_list",
        summary="The move log as you may see it, after a version",
        description=(
            "Catch up after being away: every move after version `after`, with the events "
            "your seat may see (never another player's cards). Page with `next_after` while "
            "`has_more`.\n\n"
            "Long-poll with `wait`: when there is no move after `after` yet, the answer waits up "
            "to `wait` seconds for one and comes as soon as it is made (usually within a second), "
            "or after `wait` seconds with no moves. Ask again with `after=next_after`."
        ),
        parameters=[
            query.integer_parameter(
                "after", 0, 10**9, "Return moves after this version.", default=0
            ),
            query.integer_parameter("limit", 1, 200, "At most this many moves.", default=50),
            query.integer_parameter(
                "wait",
                0,
                announce.MAX_WAIT_SECONDS,
                "Long-poll: when no move is after `after`, wait up to this many seconds for one "
                "(default 0: answer at once).",
                default=0,
            ),
        ],
        responses={
            200: s.EventPageSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request`: `after`, `limit` or `wait` out of range."
                    ),
                    404: NO_GAME,
                },
                write=False,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = progress_or_404(request, game_id)
        after = query.integer(request, "after", 0, 0, 10**9)
        limit = query.integer(request, "limit", 50, 1, 200)
        wait = query.integer(request, "wait", 0, 0, announce.MAX_WAIT_SECONDS)
        moves, more = selectors.events_for(game, request.user, after=after, limit=limit)
        page = {
            "moves": moves,
            "next_after": moves[-1]["version"] if moves else after,
            "has_more": more,
        }
        response = Response(s.EventPageSerializer(page).data)
        if wait and not moves:
            # Nothing to answer yet: the long_poll wrapper waits for a version above this one
            # and asks again (or answers this empty page when `wait` runs out).
            response.live_wait = announce.Wait(str(game.pk), game.version, wait, request.user.pk)
        return response
