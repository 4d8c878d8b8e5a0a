"""Events as a seat sees them, the same in every game: a secret part (the cards drawn, a challenged
hand) goes only to the seat it is addressed to (``to``); chance outcomes go to moderators only.
Game-neutral: every game's ``visible_event`` is this one."""

from __future__ import annotations

from typing import Any

from .interface import Event


def visible_event(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it; ``None`` for a moderator (sees all).

    Returns None when the seat may not see the event at all (chance outcomes).
    """
    if seat is not None and event["type"] == "chance":
        return None
    out = {k: copy_json(v) for k, v in event.items() if k not in ("secret", "to")}
    if "secret" in event and (seat is None or event.get("to") == seat):
        out.update(copy_json(event["secret"]))
    return out


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (faster than copy.deepcopy for these small trees)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
