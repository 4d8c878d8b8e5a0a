"""Accounts routes, mounted under /api/v1/ by config/urls.py."""

from config import routes
from players.api import bots, exports, oauth, views

urlpatterns = routes.views(
    ("auth/signup/", views.SignupView, "auth-signup"),
    ("auth/tokens/", views.TokenListView, "auth-tokens"),
    ("auth/tokens/<id:token_id>/", views.TokenDetailView, "auth-token"),
    ("auth/login/", views.LoginView, "auth-login"),
    ("auth/logout/", views.LogoutView, "auth-logout"),
    ("auth/password/change/", views.PasswordChangeView, "auth-password-change"),
    ("auth/password/reset/", views.PasswordResetView, "auth-password-reset"),
    ("auth/password/reset/confirm/", views.PasswordResetConfirmView, "auth-password-reset-confirm"),
    ("auth/email/verify/", views.EmailVerifyView, "auth-email-verify"),
    ("auth/email/verify/confirm/", views.EmailVerifyConfirmView, "auth-email-verify-confirm"),
    ("me/", views.MeView, "me"),
    ("me/delete/", views.MeDeleteView, "me-delete"),
    ("me/export/", exports.MeLatestExportView, "me-export-latest"),
    ("me/exports/", exports.MeExportsView, "me-exports"),
    ("me/exports/<uuid:export_id>/", exports.MeExportView, "me-export"),
    ("me/exports/<uuid:export_id>/download/", exports.MeExportDownloadView, "me-export-download"),
    # OAuth apps (players/api/oauth.py): consent, registration, grants.
    ("me/bots/", bots.BotsView, "me-bots"),
    ("me/bots/<id:bot_id>/", bots.BotView, "me-bot"),
    ("me/bots/<id:bot_id>/token/", bots.BotTokenView, "me-bot-token"),
    ("oauth/authorize/", oauth.AuthorizeView, "oauth-authorize"),
    ("me/oauth/apps/", oauth.AppsView, "oauth-apps"),
    ("me/oauth/apps/<id:app_id>/", oauth.AppView, "oauth-app"),
    ("me/oauth/authorizations/", oauth.AuthorizationsView, "oauth-authorizations"),
    ("me/oauth/authorizations/<id:app_id>/", oauth.AuthorizationView, "oauth-authorization"),
)
