"""Inbox, outbox, delivery channels (email, web push, webhooks) and preferences."""
