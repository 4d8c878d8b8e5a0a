"""The OAuth screens' API (players/oauth.py, docs/oauth.md), used by the web client's consent
screen (``/oauth/authorize``) and settings page; an app's own token may use none of it
(``players.oauth.ACCOUNT_ROUTES``).

- ``oauth/authorize/`` takes the app's authorization request as its query string: GET says who
  asks for what, POST ``{"allow": …}`` answers and returns where to send the browser (with the
  code, or ``error=access_denied``). Both check the request with django-oauth-toolkit's server,
  PKCE included.
- ``me/oauth/apps/`` registers apps; ``me/oauth/authorizations/`` lists and revokes grants.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.models import Application
from oauth2_provider.oauth2_backends import get_oauthlib_core
from oauthlib.oauth2.rfc6749.errors import InvalidRequestError
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import error_codes as codes
from config.errors import ErrorSerializer, ServiceError
from config.fields import StrictBooleanField, StrictCharField
from config.serializers import StrictSerializer
from players import oauth

NOT_AUTHENTICATED = OpenApiResponse(ErrorSerializer, description="`not_authenticated`.")
FORBIDDEN = OpenApiResponse(
    ErrorSerializer,
    description="`permission_denied`: a `read` token, an app's own token, or a session request "
    "without CSRF token.",
)
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="`not_found`.")
BAD_AUTHORIZATION = OpenApiResponse(
    ErrorSerializer,
    description="`oauth_invalid_request`: the app's authorization request is not valid (unknown "
    "client, redirect URI not registered, PKCE missing, unknown scope). "
    "`details.error` is the OAuth error; `details.redirect_to`, when present, is where to send "
    "the browser to tell the app (absent when the app or its redirect URI is unknown).",
)


# The app's authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), passed through as it came.
AUTHORIZATION_REQUEST = [
    OpenApiParameter("response_type", str, enum=["code"], required=True),
    OpenApiParameter("client_id", str, required=True),
    OpenApiParameter("redirect_uri", str, description="One the app registered."),
    OpenApiParameter("scope", str, description="Space-separated: `read`, `play` (default `read`)."),
    OpenApiParameter("state", str, description="Returned to the app unchanged."),
    OpenApiParameter(
        "code_challenge", str, required=True, description="PKCE: BASE64URL(SHA256(verifier))."
    ),
    OpenApiParameter("code_challenge_method", str, enum=["S256"], required=True),
]


class ScopeSerializer(serializers.Serializer):
    name = serializers.ChoiceField(choices=oauth.SCOPE_NAMES)
    description = serializers.CharField()


class AuthorizationRequestSerializer(serializers.Serializer):
    application = serializers.CharField(help_text="The app's name, as its owner registered it.")
    client_id = serializers.CharField()
    owner = serializers.CharField(help_text="Public name of the player who registered the app.")
    redirect_uri = serializers.CharField()
    scopes = ScopeSerializer(many=True)


class AuthorizationAnswerSerializer(StrictSerializer):
    allow = StrictBooleanField()


class RedirectSerializer(serializers.Serializer):
    redirect_to = serializers.CharField(
        help_text="Where to send the browser: the app's redirect URI with `code` and `state`, "
        "or with `error=access_denied`."
    )


class ApplicationSerializer(serializers.ModelSerializer):
    redirect_uris = serializers.SerializerMethodField()
    confidential = serializers.SerializerMethodField()

    class Meta:
        model = Application
        fields = ["id", "name", "client_id", "redirect_uris", "confidential", "created"]

    def get_redirect_uris(self, app: Application) -> list[str]:
        return app.redirect_uris.split()

    def get_confidential(self, app: Application) -> bool:
        return bool(app.client_type == Application.CLIENT_CONFIDENTIAL)


class NewApplicationSerializer(StrictSerializer):
    name = StrictCharField(max_length=100)
    redirect_uris = serializers.ListField(
        child=serializers.URLField(max_length=500), min_length=1, max_length=10
    )
    confidential = StrictBooleanField(
        default=False,
        help_text="A server-side app that can keep a secret. Public apps (phones, browsers, "
        "desktop) have none and rely on PKCE alone.",
    )


class RegisteredApplicationSerializer(ApplicationSerializer):
    client_secret = serializers.SerializerMethodField(
        help_text="Shown only now (stored hashed); empty for a public app."
    )

    class Meta(ApplicationSerializer.Meta):
        fields = [*ApplicationSerializer.Meta.fields, "client_secret"]

    def get_client_secret(self, app: Application) -> str:
        return str(self.context.get("secret", ""))


class AuthorizedAppSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The app's id: DELETE it to revoke.")
    name = serializers.CharField()
    client_id = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=oauth.SCOPE_NAMES))
    authorized_at = serializers.DateTimeField()
    last_authorized_at = serializers.DateTimeField()


def _oauth_error(error: OAuthToolkitError) -> ServiceError:
    """The API's error for an authorization request DOT refused."""
    inner = error.oauthlib_error
    details: dict[str, Any] = {"error": inner.error}
    if not isinstance(error, FatalClientError) and inner.redirect_uri:
        separator = "&" if "?" in inner.redirect_uri else "?"
        details["redirect_to"] = inner.redirect_uri + separator + inner.urlencoded
    message = inner.description or "The app's authorization request is not valid."
    return ServiceError(codes.OAUTH_INVALID_REQUEST, message, **details)


def _validate(request: Request) -> tuple[list[str], dict[str, Any]]:
    try:
        scopes, credentials = get_oauthlib_core().validate_authorization_request(request._request)
        # DOT refuses `plain` only when it makes the code; the consent screen must not ask first.
        if credentials.get("code_challenge_method") != "S256":
            raise OAuthToolkitError(
                InvalidRequestError(
                    description='Only the "S256" code_challenge_method is supported.',
                    state=credentials.get("state"),
                ),
                redirect_uri=credentials["redirect_uri"],
            )
    except OAuthToolkitError as error:
        raise _oauth_error(error) from error
    except ValueError as error:  # oauthlib: a query string it cannot decode
        raise ServiceError(
            codes.OAUTH_INVALID_REQUEST, str(error), error="invalid_request"
        ) from error
    return scopes, credentials


class AuthorizeView(APIView):
    @extend_schema(
        operation_id="oauth_authorize_retrieve",
        summary="Describe an app's authorization request (the consent screen)",
        description="The query string is the app's own (`response_type=code`, `client_id`, "
        "`redirect_uri`, `scope`, `state`, `code_challenge`, `code_challenge_method=S256`), "
        "as the browser brought it to `/oauth/authorize`.",
        parameters=AUTHORIZATION_REQUEST,
        responses={
            200: AuthorizationRequestSerializer,
            400: BAD_AUTHORIZATION,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
        },
        tags=["oauth"],
    )
    def get(self, request: Request) -> Response:
        scopes, credentials = _validate(request)
        app = Application.objects.select_related("user").get(client_id=credentials["client_id"])
        body = {
            "application": app.name,
            "client_id": app.client_id,
            "owner": app.user.public_name if app.user else "",
            "redirect_uri": credentials["redirect_uri"],
            "scopes": [{"name": s, "description": oauth.SCOPES.get(s, s)} for s in scopes],
        }
        return Response(AuthorizationRequestSerializer(body).data)

    @extend_schema(
        operation_id="oauth_authorize_create",
        summary="Allow or deny an app's authorization request",
        description="The same query string as GET. Answers where to send the browser.",
        request={"application/json": AuthorizationAnswerSerializer},
        parameters=AUTHORIZATION_REQUEST,
        responses={
            200: RedirectSerializer,
            400: BAD_AUTHORIZATION,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
        },
        tags=["oauth"],
    )
    def post(self, request: Request) -> Response:
        answer = AuthorizationAnswerSerializer(data=request.data)
        answer.is_valid(raise_exception=True)
        scopes, found = _validate(request)
        # What DOT's own consent form carries from its GET to its POST.
        keys = ("client_id", "redirect_uri", "response_type", "state")
        credentials = {key: found.get(key) for key in keys}
        for key in ("code_challenge", "code_challenge_method"):
            if found.get(key):
                credentials[key] = found[key]
        try:
            uri, _headers, _body, _status = get_oauthlib_core().create_authorization_response(
                request._request, scopes, credentials, answer.validated_data["allow"]
            )
        except OAuthToolkitError as error:
            problem = _oauth_error(error)
            if "redirect_to" not in problem.details:
                raise problem from error
            # A refusal (access_denied) goes back to the app: that is the answer, not an error.
            return Response({"redirect_to": problem.details["redirect_to"]})
        return Response({"redirect_to": uri})


class AppsView(APIView):
    @extend_schema(
        operation_id="oauth_apps_list",
        summary="The apps I registered",
        responses={200: ApplicationSerializer(many=True), 401: NOT_AUTHENTICATED, 403: FORBIDDEN},
        tags=["oauth"],
    )
    def get(self, request: Request) -> Response:
        apps = Application.objects.filter(user=request.user).order_by("-created")
        return Response(ApplicationSerializer(apps, many=True).data)

    @extend_schema(
        operation_id="oauth_apps_create",
        summary="Register an app",
        description="Authorization code with PKCE (S256) only. The client secret of a "
        "confidential app is in this answer only.",
        request={"application/json": NewApplicationSerializer},
        responses={
            201: RegisteredApplicationSerializer,
            400: OpenApiResponse(ErrorSerializer, description="`invalid_request`."),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
        },
        tags=["oauth"],
    )
    def post(self, request: Request) -> Response:
        ser = NewApplicationSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            app, secret = oauth.register_app(user=request.user, **ser.validated_data)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from error
        data = RegisteredApplicationSerializer(app, context={"secret": secret}).data
        return Response(data, status=status.HTTP_201_CREATED)


class AppView(APIView):
    @extend_schema(
        operation_id="oauth_apps_destroy",
        summary="Delete an app I registered (every player's grant to it ends)",
        responses={
            204: OpenApiResponse(description="Deleted."),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=["oauth"],
    )
    def delete(self, request: Request, app_id: int) -> Response:
        deleted, _ = Application.objects.filter(pk=app_id, user=request.user).delete()
        if not deleted:
            raise ServiceError(codes.NOT_FOUND, "No such app of yours.")
        return Response(status=status.HTTP_204_NO_CONTENT)


class AuthorizationsView(APIView):
    @extend_schema(
        operation_id="oauth_authorizations_list",
        summary="The apps I allowed",
        responses={
            200: AuthorizedAppSerializer(many=True),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
        },
        tags=["oauth"],
    )
    def get(self, request: Request) -> Response:
        rows = oauth.authorized_apps(user=request.user)
        return Response(AuthorizedAppSerializer(rows, many=True).data)


class AuthorizationView(APIView):
    @extend_schema(
        operation_id="oauth_authorizations_destroy",
        summary="Revoke an app I allowed",
        description="Its tokens and pending codes are deleted at once: its next request is "
        "refused, and its live streams end within the keep-alive interval.",
        responses={
            204: OpenApiResponse(description="Revoked."),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=["oauth"],
    )
    def delete(self, request: Request, app_id: int) -> Response:
        if not oauth.revoke_app(user=request.user, application_id=app_id):
            raise ServiceError(codes.NOT_FOUND, "That app holds no grant of yours.")
        return Response(status=status.HTTP_204_NO_CONTENT)
