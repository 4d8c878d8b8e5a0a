"""Accounts routes, mounted under /api/v1/ by config/urls.py."""

from django.urls import URLPattern, URLResolver, path

from config import converters  # noqa: F401  (registers <id:...>, a database id)
from players.api import bots, exports, oauth, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/signup/", views.SignupView.as_view(), name="auth-signup"),
    path("auth/tokens/", views.TokenListView.as_view(), name="auth-tokens"),
    path("auth/tokens/<id:token_id>/", views.TokenDetailView.as_view(), name="auth-token"),
    path("auth/login/", views.LoginView.as_view(), name="auth-login"),
    path("auth/logout/", views.LogoutView.as_view(), name="auth-logout"),
    path("auth/password/change/", views.PasswordChangeView.as_view(), name="auth-password-change"),
    path("auth/password/reset/", views.PasswordResetView.as_view(), name="auth-password-reset"),
    path(
        "auth/password/reset/confirm/",
        views.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("auth/email/verify/", views.EmailVerifyView.as_view(), name="auth-email-verify"),
    path(
        "auth/email/verify/confirm/",
        views.EmailVerifyConfirmView.as_view(),
        name="auth-email-verify-confirm",
    ),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/delete/", views.MeDeleteView.as_view(), name="me-delete"),
    path("me/export/", exports.MeLatestExportView.as_view(), name="me-export-latest"),
    path("me/exports/", exports.MeExportsView.as_view(), name="me-exports"),
    path("me/exports/<uuid:export_id>/", exports.MeExportView.as_view(), name="me-export"),
    path(
        "me/exports/<uuid:export_id>/download/",
        exports.MeExportDownloadView.as_view(),
        name="me-export-download",
    ),
    # OAuth apps (players/api/oauth.py): consent, registration, grants.
    path("me/bots/", bots.BotsView.as_view(), name="me-bots"),
    path("me/bots/<id:bot_id>/", bots.BotView.as_view(), name="me-bot"),
    path("me/bots/<id:bot_id>/token/", bots.BotTokenView.as_view(), name="me-bot-token"),
    path("oauth/authorize/", oauth.AuthorizeView.as_view(), name="oauth-authorize"),
    path("me/oauth/apps/", oauth.AppsView.as_view(), name="oauth-apps"),
    path("me/oauth/apps/<id:app_id>/", oauth.AppView.as_view(), name="oauth-app"),
    path(
        "me/oauth/authorizations/",
        oauth.AuthorizationsView.as_view(),
        name="oauth-authorizations",
    ),
    path(
        "me/oauth/authorizations/<id:app_id>/",
        oauth.AuthorizationView.as_view(),
        name="oauth-authorization",
    ),
]
