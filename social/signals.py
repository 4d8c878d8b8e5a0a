"""What the social app asks the app above it (moderation), which answers without social
importing it.

``listing_blocks`` is sent with ``user_id``; each receiver returns the ids of the players that
user blocks or is blocked by (blocks count both ways here: neither sees, follows or challenges
the other). Receivers only read.

``blocks_query`` is sent with ``user_id`` too; each receiver returns the same ids as an
unevaluated query of one column, for ``user_id__in`` inside another query (quick pairing's
candidates leave the blocked out in the query that finds them: one round trip fewer).
"""

from __future__ import annotations

from django.dispatch import Signal

listing_blocks = Signal()
blocks_query = Signal()
