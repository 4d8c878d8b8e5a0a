"""Whom a card may target: Targeted Draw 2 and Force Swap choose another player still in the game;
with Force Swap protection (a house rule) a player holding exactly one card cannot be chosen for a
Force Swap, and a Force Swap with every other player protected does nothing. A Force Swap played
as the last card fizzles and takes no target.
"""

from __future__ import annotations

from ... import errors as E
from ...errors import EngineError
from ..state import State
from .cards import FORCE_SWAP, TARGETED_DRAW2


def targets(s: State, seat: int, kind: str, going_out: bool) -> list[int | None]:
    """Targets a card of ``kind`` takes when ``seat`` plays it; [None] when it takes none."""
    others: list[int | None]
    if kind == TARGETED_DRAW2:
        others = [i for i, other in enumerate(s.seats) if other.active and i != seat]
        return others
    if kind == FORCE_SWAP and not going_out:
        others = [
            i
            for i, other in enumerate(s.seats)
            if other.active and i != seat and not protected(s, kind, i, seat)
        ]
        return others or [None]
    return [None]


def protected(s: State, kind: str, target: int, seat: int) -> bool:
    """Force Swap protection shields ``target`` (another active seat holding one card)."""
    return (
        kind == FORCE_SWAP
        and s.option("force_swap_protection")
        and target != seat
        and 0 <= target < len(s.seats)
        and s.seats[target].active
        and len(s.seats[target].hand) == 1
    )


def protection_applies(s: State, seat: int) -> bool:
    """Force Swap protection (when on) shields another seat now: it holds one card."""
    return bool(s.option("force_swap_protection")) and any(
        len(other.hand) == 1 for i, other in enumerate(s.seats) if i != seat
    )


def check_target(s: State, seat: int, kind: str, target: int | None, going_out: bool) -> None:
    """Refuse ``target`` for a card of ``kind`` played by ``seat``, with the reason's code."""
    allowed = targets(s, seat, kind, going_out)
    if target in allowed:
        return
    if allowed == [None]:
        if target is not None and not going_out and protected(s, kind, target, seat):
            raise EngineError(
                E.TARGET_PROTECTED, "a player holding one card cannot be swapped with"
            )
        why = "it is your last card and fizzles" if going_out else "it takes no target"
        raise EngineError(E.TARGET_NOT_ALLOWED, f"{kind} takes no target here: {why}")
    if target is None:
        raise EngineError(E.TARGET_REQUIRED, f"{kind} needs a target: another player's seat")
    if target == seat:
        raise EngineError(E.INVALID_TARGET, "you cannot target yourself")
    if protected(s, kind, target, seat):
        raise EngineError(E.TARGET_PROTECTED, "a player holding one card cannot be swapped with")
    raise EngineError(E.INVALID_TARGET, f"seat {target} is not a player you can target")


def pair_targets(s: State, seat: int, kind: str, going_out: bool) -> tuple[int, ...] | None:
    """The seats each card of a Double down pair may target (both chosen when the pair is
    played), or None when the pair takes no targets."""
    found = targets(s, seat, kind, going_out)
    if found == [None]:
        return None
    return tuple(t for t in found if t is not None)
