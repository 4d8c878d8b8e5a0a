"""What the players app announces to the apps above it, which answer without players importing
them (players is the ground layer: games, notifications and moderation depend on it, never the
other way round). Receivers are connected in each app's ``AppConfig.ready``.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``username`` before the credentials are checked at log-in, so that a layer above can
# reopen an account whose restriction has run out (moderation lifts an expired suspension).
signing_in = Signal()

# Sent with ``viewer`` and ``player`` before ``player``'s public profile is shown to ``viewer``. A
# receiver may refuse by raising ``ServiceError`` (moderation: a block either way is not_found).
viewing_player = Signal()

# Sent with ``user`` after the password check and before the account is deleted, inside no
# transaction of its own: the games app frees the player's seats in lobbies and games in progress.
account_deleting = Signal()
