"""What the games app announces to the apps above it (notifications), which answer without games
importing them. Sent synchronously inside the service's transaction, with the game row locked,
so whatever a receiver writes (the notification outbox rows) commits or rolls back with the move.
Receivers must not do network I/O: anything slow goes out after commit.
"""

from __future__ import annotations

from django.dispatch import Signal

# A move was applied and saved: ``game``, ``move``, ``state`` (the game's own, after the move),
# ``events`` (the engine's), ``seats`` (all of the game's, in order) and ``turn_passed``.
move_applied = Signal()

# A game started: ``game`` (active, its row locked) and ``seats`` (in their positions). Sent inside
# the start's transaction (the ratings app makes sure a rated game's players have a rating row).
game_started = Signal()

# A match ended: ``game`` (finished, its row locked), ``seats`` (all of them, ``place`` and
# ``final_score`` set but not yet saved) and ``state``. Sent once per match (the game leaves
# ``active`` under the lock), inside the move's transaction: a receiver's rows commit or roll back
# with the move. A receiver may set a seat's ``rating_change``; the seats are saved after it.
match_finished = Signal()

# ``user`` was invited to ``game`` by ``by`` (a rematch invites the other players).
player_invited = Signal()

# ``user`` asks for a seat in the private lobby ``game`` (``seats``: those taken). A receiver may
# refuse by raising ``ServiceError`` (moderation: a seated player blocked ``user``). Sent with the
# game row locked; receivers only read.
joining_private_game = Signal()

# ``user`` (signed in, no seat) asks to watch ``game`` (``seats``: all of its seats, with their
# users). A receiver may refuse by raising ``ServiceError`` (social: a block either way with a
# seated player, or a friends-only game of a host who is no friend). Receivers only read.
watching_game = Signal()
