"""What the chat announces to the apps above it (moderation), which answer without the chat
importing them. Sent inside the writing transaction: a receiver's rows commit or roll back with
the message."""

from __future__ import annotations

from django.dispatch import Signal

# The word filter caught ``message`` (a ``ChatMessage``, stored with ``filtered`` set): moderation
# counts it toward its author's automatic report.
message_filtered = Signal()
