"""Chance, made explicit: every outcome is logged as a moderator-only ``chance`` event, so a game
replays from its log without an RNG (``games.engine.replay.ReplayRNG``)."""

from __future__ import annotations

from typing import Any

from ..interface import RNG, Event


def shuffle(rng: RNG, cards: list[str], ev: list[Event]) -> None:
    rng.shuffle(cards)
    ev.append({"type": "chance", "kind": "shuffle", "order": list(cards)})


def choice(rng: RNG, options: list[Any], ev: list[Event]) -> Any:
    value = rng.choice(options)
    ev.append({"type": "chance", "kind": "choice", "options": list(options), "value": value})
    return value
