"""The accounts API: thin views. Shapes come from serializers, changes from services, reads from
selectors.

Authentication: every view accepts a bearer token or a browser session (DRF's session
authentication, so unsafe methods need the CSRF token), except ``auth/login/``, which has no
session yet but checks the CSRF token all the same (log-in CSRF). Endpoints that take a password
or send mail are throttled with the ``auth`` scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import login, logout, update_session_auth_hash
from django.middleware.csrf import get_token
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import (
    INVALID,
    NOT_AUTHENTICATED,
    READ_ONLY,
    RETRY_AFTER,
    THROTTLED,
    standard_errors,
)
from config.openapi import error_response
from players import lockout, selectors, services
from players.api import serializers as s
from players.models import ApiToken, User
from players.throttles import ScopeThrottled

# Public operations get no `security` requirement at all (not `[{}]`), so that generated
# clients (openapi-python-client) call them with a plain client rather than demanding a token.
PUBLIC: list[str] = []
WEAK_PASSWORD = "`weak_password`: the password validators refused it (details.messages)."
BAD_CREDENTIALS = "`invalid_credentials`: wrong username or password (never says which)."
BOT_MARK_NAME = "`name_marks_a_bot` (a display name ending in `(bot)`, a bot account's mark)"


def signed_in_user(request: Request) -> User:
    """The caller of a view whose permission classes let only signed-in users through."""
    user = request.user
    assert isinstance(user, User)
    return user


def _current_token(request: Request) -> ApiToken | None:
    return request.auth if isinstance(request.auth, ApiToken) else None


@contextmanager
def _login_delay() -> Iterator[None]:
    """An account waiting after failed log-ins answers 429 ``throttled`` with Retry-After, like
    the per-address throttle."""
    try:
        yield
    except lockout.LoginDelayed as exc:
        raise Throttled(wait=exc.retry_after) from None


class AuthThrottled(ScopeThrottled):
    """Mixin: throttle with the ``auth`` scope (only ``throttled_methods`` when set)."""

    throttle_scope = "auth"
    throttled_methods: frozenset[str] | None = None


# ---------------------------------------------------------------------------------------------
# Sign-up and tokens

SIGNUP_EXAMPLE_REQUEST = OpenApiExample(
    "Sign up from a phone",
    request_only=True,
    value={
        "username": "alice",
        "password": "correct-horse-battery-7",
        "email": "alice@example.com",
        "display_name": "Alice",
        "language": "da",
        "time_zone": "Europe/Copenhagen",
        "token_name": "Alice's Pixel",
    },
)
NEW_TOKEN_EXAMPLE = {
    "token": "uaw_q4Lr0M1c9yJf3nV6Yx2ZbK8pWdHs7TeA5gUoRiNlEjC",
    "id": 12,
    "name": "Alice's Pixel",
    "scope": "play",
    "prefix": "uaw_q4Lr0M1c",
    "created_at": "2026-03-01T18:04:05.123456Z",
    "expires_at": None,
}
SIGNUP_EXAMPLE_RESPONSE = OpenApiExample(
    "Account and first token",
    response_only=True,
    status_codes=["201"],
    value={
        "user": {
            "id": 7,
            "username": "alice",
            "email": "alice@example.com",
            "email_verified": False,
            "display_name": "Alice",
            "time_zone": "Europe/Copenhagen",
            "language": "da",
            "date_joined": "2026-03-01T18:04:05.120000Z",
        },
        "token": NEW_TOKEN_EXAMPLE,
    },
)


class SignupView(AuthThrottled, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_signup",
        auth=PUBLIC,
        summary="Create an account and get its first token",
        description=(
            "Creates the account and a first `play` token named `token_name`. This is also how "
            "a generated client gets its first token. With an e-mail address, a verification "
            "mail is sent."
        ),
        request={"application/json": s.SignupSerializer},
        responses={
            201: s.SignupResponseSerializer,
            400: error_response(f"`invalid_request`, {BOT_MARK_NAME} or {WEAK_PASSWORD}"),
            409: error_response("`username_taken`: the name exists, or one that looks the same."),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        examples=[SIGNUP_EXAMPLE_REQUEST, SIGNUP_EXAMPLE_RESPONSE],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.SignupSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user, token, raw = services.sign_up(**ser.validated_data)
        data = {
            "user": s.ProfileSerializer(user).data,
            "token": s.NewApiTokenSerializer(token, context={"raw": raw}).data,
        }
        return Response(data, status=status.HTTP_201_CREATED)


class TokenListView(AuthThrottled, APIView):
    throttled_methods = frozenset({"POST"})

    def get_permissions(self) -> list[BasePermission]:
        # Creating a token is logging in: the credentials are in the body.
        if self.request.method == "POST":
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(
        operation_id="auth_tokens_list",
        summary="My live tokens (never their secrets)",
        description="Neither revoked nor expired; `current` marks the token making the request.",
        responses={200: s.ApiTokenSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["auth"],
    )
    def get(self, request: Request) -> Response:
        tokens = selectors.live_tokens(signed_in_user(request))
        ser = s.ApiTokenSerializer(tokens, many=True, context={"auth": request.auth})
        return Response(ser.data)

    @extend_schema(
        operation_id="auth_tokens_create",
        auth=PUBLIC,
        summary="Log in for an app or device: create a named token",
        description="The `token` string is returned only in this response; only its hash is kept.",
        request={"application/json": s.TokenCreateSerializer},
        responses={
            201: s.NewApiTokenSerializer,
            400: error_response(f"`invalid_request`, or {BAD_CREDENTIALS}"),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        examples=[
            OpenApiExample(
                "A read-only token for a dashboard",
                request_only=True,
                value={
                    "username": "alice",
                    "password": "correct-horse-battery-7",
                    "name": "stats dashboard",
                    "scope": "read",
                    "expires_in_days": 90,
                },
            ),
            OpenApiExample(
                "The new token", response_only=True, status_codes=["201"], value=NEW_TOKEN_EXAMPLE
            ),
        ],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.TokenCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        with _login_delay():
            token, raw = services.issue_token(request=request._request, **ser.validated_data)
        data = s.NewApiTokenSerializer(token, context={"raw": raw}).data
        return Response(data, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    @extend_schema(
        operation_id="auth_tokens_destroy",
        summary="Revoke one of my tokens",
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked."),
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            404: error_response("`not_found`: no such live token of yours."),
        },
        tags=["auth"],
    )
    def delete(self, request: Request, token_id: int) -> Response:
        services.revoke_token(user=signed_in_user(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------------------------
# Browser sessions


class LoginView(AuthThrottled, APIView):
    # No authentication: there is no session yet. The log-in itself is checked for CSRF like
    # every other session write, or a page on another site could sign a moderator's browser in
    # to the attacker's account (log-in CSRF); the token comes from GET on this URL.
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_login_csrf",
        summary="Get the CSRF token a session log-in needs",
        description=(
            "Sets the `csrftoken` cookie and returns the same token. Throttled with log-in "
            "itself (one log-in is two requests)."
        ),
        responses={200: s.CsrfTokenSerializer, 429: THROTTLED},
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def get(self, request: Request) -> Response:
        return Response({"csrf_token": get_token(request._request)})

    @extend_schema(
        operation_id="auth_login",
        summary="Start a browser session (web client, browsable API)",
        description=(
            "Needs the CSRF token (from `GET auth/login/`) as the `X-CSRFToken` header, with "
            "its cookie, and a same-origin `Origin` when the browser sends one. Sets the "
            "`sessionid` and a new `csrftoken` cookie. Apps use `auth/tokens/`."
        ),
        request={"application/json": s.CredentialsSerializer},
        responses={
            200: s.LoginResponseSerializer,
            400: error_response(f"`invalid_request`, or {BAD_CREDENTIALS}"),
            403: error_response(
                "`permission_denied`: no CSRF token, or a request from another origin."
            ),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        # DRF's own CSRF check of session requests (Django's CsrfViewMiddleware underneath).
        SessionAuthentication().enforce_csrf(request)
        ser = s.CredentialsSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        with _login_delay():
            user = services.authenticate_credentials(request=request._request, **ser.validated_data)
        login(request._request, user)
        return Response({"user": s.ProfileSerializer(user).data})


class LogoutView(APIView):
    # Any token may log itself out, a read-only one included.
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_logout",
        summary="End this session, or revoke the bearer token making the request",
        request=None,
        responses={
            204: OpenApiResponse(description="Logged out."),
            401: NOT_AUTHENTICATED,
            403: error_response("`permission_denied`: a session request without CSRF token."),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        token = _current_token(request)
        if token is not None:
            services.revoke_token(user=signed_in_user(request), token_id=token.pk)
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------------------------
# Passwords


class PasswordChangeView(AuthThrottled, APIView):
    @extend_schema(
        operation_id="auth_password_change",
        summary="Change my password (revokes my other tokens)",
        description=(
            "Every token except the one making the request is revoked, and other browser "
            "sessions end; this session stays signed in."
        ),
        request={"application/json": s.PasswordChangeSerializer},
        responses={
            204: OpenApiResponse(description="Changed."),
            **standard_errors(
                {400: error_response(f"`invalid_request`, {WEAK_PASSWORD} or {BAD_CREDENTIALS}")},
                throttled=True,
            ),
        },
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.PasswordChangeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = signed_in_user(request)
        services.change_password(
            user=user, current_token=_current_token(request), **ser.validated_data
        )
        if _current_token(request) is None:
            # Keep this session valid although the password hash it was bound to changed.
            update_session_auth_hash(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


ACCEPTED_RESET = "If an account has this address, a reset link is on its way."


class PasswordResetView(AuthThrottled, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_password_reset",
        auth=PUBLIC,
        summary="Mail a password-reset link",
        description=(
            "Always 202, whether or not an account has this address, so the endpoint cannot be "
            "used to find out who plays here. The mail holds a link to the web client and the "
            "`uid` and `token` for `auth/password/reset/confirm/`."
        ),
        request={"application/json": s.PasswordResetSerializer},
        responses={202: s.AcceptedSerializer, 400: INVALID, 429: THROTTLED},
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.PasswordResetSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.request_password_reset(email=ser.validated_data["email"])
        return Response({"detail": ACCEPTED_RESET}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(AuthThrottled, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        auth=PUBLIC,
        summary="Set a new password with the mailed uid and token",
        description="The link works once. Every token of the account is revoked.",
        request={"application/json": s.PasswordResetConfirmSerializer},
        responses={
            204: OpenApiResponse(description="Password set; log in again."),
            400: error_response(
                f"`invalid_request`, `invalid_token` (wrong, used or expired link) or "
                f"{WEAK_PASSWORD}"
            ),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.PasswordResetConfirmSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.reset_password(**ser.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------------------------
# E-mail verification


class EmailVerifyView(AuthThrottled, APIView):
    @extend_schema(
        operation_id="auth_email_verify",
        summary="Mail me a link that verifies my e-mail address",
        description=(
            "The mail holds a link to the web client and the `uid` and `token` for "
            "`auth/email/verify/confirm/`."
        ),
        request=None,
        responses={
            202: s.AcceptedSerializer,
            **standard_errors(
                {
                    409: error_response(
                        "`no_email` (none on the profile) or `email_already_verified`."
                    )
                },
                throttled=True,
            ),
        },
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        services.request_email_verification(user=signed_in_user(request))
        return Response(
            {"detail": "A verification link is on its way."}, status=status.HTTP_202_ACCEPTED
        )


class EmailVerifyConfirmView(AuthThrottled, APIView):
    # The link may be opened on a device that is not signed in: the token is the proof.
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_email_verify_confirm",
        auth=PUBLIC,
        summary="Confirm an e-mail address with the mailed uid and token",
        description="Needs no sign-in: the link may be opened on another device.",
        request={"application/json": s.EmailLinkSerializer},
        responses={
            200: s.EmailVerifiedSerializer,
            400: error_response(
                "`invalid_request` or `invalid_token` (wrong or expired link, or the address "
                "changed or was verified since)."
            ),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        ser = s.EmailLinkSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = services.confirm_email_verification(**ser.validated_data)
        return Response(s.EmailVerifiedSerializer(user).data)


# ---------------------------------------------------------------------------------------------
# My account


# The body and answers of deleting the account, DELETE me/ and its POST twin alike.
DELETE_ACCOUNT: dict[str, Any] = {
    "request": {"application/json": s.PasswordSerializer},
    "responses": {
        204: OpenApiResponse(description="Deleted."),
        **standard_errors(
            {400: error_response(f"`invalid_request` or {BAD_CREDENTIALS}")}, throttled=True
        ),
    },
    "parameters": [RETRY_AFTER],
    "tags": ["me"],
}


class MeView(AuthThrottled, APIView):
    # Both take the password (PATCH when the e-mail address changes): throttled like log-in.
    throttled_methods = frozenset({"PATCH", "DELETE"})

    @extend_schema(
        operation_id="me_retrieve",
        summary="My profile",
        description="Also allowed with a `read` token.",
        responses={200: s.ProfileSerializer, 401: NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request: Request) -> Response:
        return Response(s.ProfileSerializer(signed_in_user(request)).data)

    @extend_schema(
        operation_id="me_partial_update",
        summary="Change my profile",
        description=(
            "`username` cannot change. A new `email` needs the current `password`, starts "
            "unverified and gets a verification mail."
        ),
        request={"application/json": s.ProfileUpdateSerializer},
        responses={
            200: s.ProfileSerializer,
            **standard_errors(
                {
                    400: error_response(
                        f"`invalid_request` (e.g. unknown time zone), `password_required`, "
                        f"{BOT_MARK_NAME} or {BAD_CREDENTIALS}"
                    )
                },
                throttled=True,
            ),
        },
        parameters=[RETRY_AFTER],
        tags=["me"],
    )
    def patch(self, request: Request) -> Response:
        user = signed_in_user(request)
        ser = s.ProfileUpdateSerializer(user, data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        changes: dict[str, Any] = dict(ser.validated_data)
        password = changes.pop("password", None)
        user = services.update_profile(user=user, password=password, **changes)
        return Response(s.ProfileSerializer(user).data)

    @extend_schema(
        operation_id="me_destroy",
        summary="Delete my account",
        description=(
            'Send the password as a JSON body, `{"password": "…"}` (OpenAPI 3.0 cannot '
            "describe a body on DELETE). Leaves every lobby and running game first; finished "
            "games keep their results without the account."
        ),
        **DELETE_ACCOUNT,
    )
    def delete(self, request: Request) -> Response:
        ser = s.PasswordSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.delete_account(
            user=signed_in_user(request), password=ser.validated_data["password"]
        )
        if _current_token(request) is None:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeDeleteView(AuthThrottled, APIView):
    """POST twin of ``DELETE me/``: OpenAPI 3.0 clients cannot send a body with DELETE."""

    throttled_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="me_delete",
        summary="Delete my account (for clients that cannot send a body with DELETE)",
        description="Same as `DELETE me/`: leaves every lobby and running game first.",
        **DELETE_ACCOUNT,
    )
    def post(self, request: Request) -> Response:
        return MeView.delete(self, request)  # type: ignore[arg-type]
