"""Bots: pure decision code (no Django). ``decide(view, history, level=…, rng=…)`` is the only
entry point; the service (games.services) and the arena (games.bots.arena) both call it."""

from .decide import ARENA_LEVELS, DEFAULT_BUDGET_MS, DEFAULT_LEVEL, LEVELS, decide, is_level

__all__ = ["ARENA_LEVELS", "DEFAULT_BUDGET_MS", "DEFAULT_LEVEL", "LEVELS", "decide", "is_level"]
