"""Request and response shapes of the accounts API. Responses are rendered through these
serializers so the OpenAPI schema and what the server sends cannot drift apart."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.urls import reverse
from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from config.serializers import StrictFieldsMixin, StrictSerializer
from players import exports
from players.blocklist import validate_name
from players.exports import ExportSerializer  # noqa: F401  (the download's schema)
from players.models import ApiToken, DataExport, User

LANGUAGES = [code for code, _ in User._meta.get_field("language").choices or []]


@cache
def _time_zones() -> frozenset[str]:
    # available_timezones() walks the tz database on every call: once per process is enough.
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> str:
    if value not in _time_zones():
        raise serializers.ValidationError(f"{value!r} is not a known IANA time zone.")
    return value


# ---------------------------------------------------------------------------------------------
# Profile


class ProfileSerializer(serializers.ModelSerializer):
    """The player's own profile. Changing ``email`` needs ``password`` and resets
    ``email_verified``."""

    display_name = StrictCharField(
        max_length=40,
        allow_blank=True,
        required=False,
        validators=[validate_name],
        help_text="Shown to other players.",
    )
    time_zone = StrictCharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="IANA time zone, e.g. Europe/Copenhagen.",
    )
    language = serializers.ChoiceField(choices=LANGUAGES, required=False)
    email = serializers.EmailField(allow_blank=True, required=False)
    bot = serializers.BooleanField(
        source="is_bot",
        read_only=True,
        help_text="A bot account (docs/bots-api.md): it plays only through the API.",
    )

    class Meta:
        model = User
        fields = [*User.OWN_FIELDS, "bot"]
        read_only_fields = ["id", "username", "email_verified", "date_joined", "bot"]


class ProfileUpdateSerializer(StrictFieldsMixin, ProfileSerializer):
    password = StrictCharField(
        write_only=True,
        required=False,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your current password; needed only to change `email`.",
    )

    class Meta(ProfileSerializer.Meta):
        fields = [*ProfileSerializer.Meta.fields, "password"]


class PasswordSerializer(StrictSerializer):
    password = StrictCharField(trim_whitespace=False, style={"input_type": "password"})


# ---------------------------------------------------------------------------------------------
# Sign-up, log-in and tokens


def _password_field(**kwargs: Any) -> serializers.CharField:
    return StrictCharField(
        max_length=128, trim_whitespace=False, style={"input_type": "password"}, **kwargs
    )


class ApiTokenSerializer(serializers.ModelSerializer):
    """A token as listed: never its secret, only the first characters to recognise it by."""

    current = serializers.SerializerMethodField(
        help_text="True for the token that made this request."
    )

    class Meta:
        model = ApiToken
        fields = [*ApiToken.SHOWN_FIELDS, "current"]
        read_only_fields = fields

    def get_current(self, token: ApiToken) -> bool:
        auth = self.context.get("auth")
        return isinstance(auth, ApiToken) and auth.pk == token.pk


class NewApiTokenSerializer(serializers.ModelSerializer):
    token = serializers.SerializerMethodField(
        help_text="The secret: send it as `Authorization: Bearer <token>`. Shown only this once."
    )

    class Meta:
        model = ApiToken
        fields = ["token", "id", "name", "scope", "prefix", "created_at", "expires_at"]
        read_only_fields = fields

    def get_token(self, token: ApiToken) -> str:
        return str(self.context["raw"])


class SignupSerializer(StrictSerializer):
    username = StrictCharField(
        max_length=150,
        # Shown to other players when there is no display name: the blocklist applies too.
        validators=[UnicodeUsernameValidator(), validate_name],
        help_text="Letters, digits and @/./+/-/_ only; unique regardless of case.",
    )
    password = _password_field(help_text="Checked by the password validators.")
    # No default="" here: OpenAPI validators check a default against `format: email`. Omitted,
    # the address is left out of validated_data and the service's own default ("") applies.
    email = serializers.EmailField(
        required=False, allow_blank=True, help_text="Optional; needed for password resets."
    )
    display_name = StrictCharField(
        max_length=40, required=False, allow_blank=True, default="", validators=[validate_name]
    )
    language = serializers.ChoiceField(choices=LANGUAGES, required=False, default="en")
    time_zone = StrictCharField(
        max_length=64, required=False, default="UTC", validators=[validate_time_zone]
    )
    token_name = StrictCharField(
        max_length=60,
        required=False,
        default="signup",
        help_text="Name of the first token, e.g. the device or app.",
    )


class SignupResponseSerializer(serializers.Serializer):
    user = ProfileSerializer()
    token = NewApiTokenSerializer()


class CredentialsSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = _password_field()


class TokenCreateSerializer(CredentialsSerializer):
    name = StrictCharField(max_length=60, help_text="e.g. 'Pixel 8' or 'my-uno-bot'.")
    scope = serializers.ChoiceField(
        choices=ApiToken.SCOPES,
        default=ApiToken.SCOPE_PLAY,
        help_text="`read`: GET only. `play`: everything.",
    )
    expires_in_days = StrictIntegerField(
        min_value=1,
        max_value=3650,
        required=False,
        allow_null=True,
        default=None,
        help_text="Omit for a token that lives until revoked.",
    )


class LoginResponseSerializer(serializers.Serializer):
    user = ProfileSerializer()


class CsrfTokenSerializer(serializers.Serializer):
    csrf_token = StrictCharField(
        help_text="Send it as the `X-CSRFToken` header of the log-in (also set as a cookie)."
    )


# ---------------------------------------------------------------------------------------------
# Passwords and e-mail


class PasswordChangeSerializer(StrictSerializer):
    old_password = _password_field()
    new_password = _password_field()


class PasswordResetSerializer(StrictSerializer):
    email = serializers.EmailField()


class EmailLinkSerializer(StrictSerializer):
    uid = StrictCharField(max_length=64, help_text="From the e-mailed link.")
    token = StrictCharField(max_length=128, help_text="From the e-mailed link.")


class PasswordResetConfirmSerializer(EmailLinkSerializer):
    new_password = _password_field()


class EmailVerifiedSerializer(serializers.Serializer):
    email = serializers.EmailField()
    email_verified = StrictBooleanField()


class AcceptedSerializer(serializers.Serializer):
    detail = StrictCharField()


# ---------------------------------------------------------------------------------------------
# Export


class DataExportSerializer(serializers.ModelSerializer):
    """A data export's progress (``players/exports.py``)."""

    url = serializers.SerializerMethodField(help_text="This status, to poll.")
    download_url = serializers.SerializerMethodField(
        help_text="Where the JSON file is, once `status` is `ready`; null before."
    )
    expires_at = serializers.SerializerMethodField(
        help_text="When the export (and its file) is deleted."
    )

    class Meta:
        model = DataExport
        fields = [
            "id",
            "status",
            "created_at",
            "finished_at",
            "size",
            "expires_at",
            "url",
            "download_url",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "status": {"help_text": "`pending`, `running`, `ready` or `failed`."},
            "size": {"help_text": "The file's size in bytes, once ready."},
        }

    def get_url(self, export: DataExport) -> str:
        return reverse("me-export", kwargs={"export_id": export.pk})

    def get_download_url(self, export: DataExport) -> str | None:
        if export.status != DataExport.READY:
            return None
        return reverse("me-export-download", kwargs={"export_id": export.pk})

    def get_expires_at(self, export: DataExport) -> datetime:
        return export.created_at + exports.KEEP
