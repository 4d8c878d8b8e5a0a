"""Accounts, tokens, profiles, bans and reports."""
