"""The moderators' screens in Django's admin: players (moderate, sanction), games (replay,
interventions), the report queue, sanctions, the audit log and the collusion signals. Moderation
sits on top of the other apps, so it registers the admins of their models (User, Game) too;
their URL names and templates are Django's usual ``players_user_*`` and ``games_game_*``.

Two roles: moderators (staff in the "moderators" group, created by migration 0002 with view
permissions and the custom ones of this app) and administrators (superusers). Every act goes
through a service that checks the rules and writes the audit entry; these views only check the
permission, parse the form and show the outcome. The admin log-in is rate-limited.
"""

from moderation.admin import chat, games, reports, users

__all__ = ["chat", "games", "reports", "users"]
