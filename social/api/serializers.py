"""Shapes of the social API: requests checked here, answers built from the selectors' rows."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from config.serializers import StrictFieldsMixin, StrictSerializer
from games.api.serializers import CreateGameSerializer
from games.engine import registry
from social.models import Challenge, Profile, Seek
from social.selectors import HIDDEN, OFFLINE, ONLINE, Friend


class PersonSerializer(serializers.Serializer):
    """A player as the social API names them (their username) and shows them."""

    username = serializers.CharField(help_text="Names the player in every social request.")
    # A User, or a selectors.Person row: both have these two attributes.
    name = serializers.CharField(source="public_name", help_text="The name shown to others.")


class PlayerRequestSerializer(StrictSerializer):
    username = StrictCharField(max_length=150, help_text="The player's username.")


class PresenceSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[ONLINE, OFFLINE, HIDDEN],
        help_text="`online`: a request in the last 5 minutes; `hidden`: the player hides it.",
    )
    last_seen_on = serializers.DateField(
        allow_null=True, help_text="The day (UTC) last seen, when `offline`; else null."
    )


class FriendSerializer(serializers.Serializer):
    player = PersonSerializer(source="user")
    presence = PresenceSerializer()

    def to_representation(self, instance: Friend) -> dict[str, Any]:
        """What the fields make of a ``selectors.Friend``, built directly: walking the nested
        fields of 500 friends was a third of the friends list's time, and the objects it made
        were what set off the collector in the request (tests/social/test_friends.py checks the
        output equals the fields' own, byte for byte)."""
        seen = instance.presence.last_seen_on
        return {
            "player": {"username": instance.user.username, "name": instance.user.public_name},
            "presence": {
                "status": instance.presence.status,
                "last_seen_on": seen.isoformat() if seen is not None else None,
            },
        }


class FollowedSerializer(serializers.Serializer):
    player = PersonSerializer(source="user")
    friend = serializers.BooleanField(help_text="They follow you back.")
    since = serializers.DateTimeField()


class FollowResultSerializer(serializers.Serializer):
    player = PersonSerializer()
    friend = serializers.BooleanField(help_text="They follow you back: you are friends now.")


class SearchResultSerializer(serializers.Serializer):
    player = PersonSerializer(source="user")
    following = serializers.BooleanField(help_text="You follow them.")


class SocialSettingsSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    hide_presence = StrictBooleanField(
        required=False, help_text="Nobody sees whether you are online or when you last were."
    )
    challenges_from = serializers.ChoiceField(
        choices=[c for c, _ in Profile.CHALLENGES_FROM],
        required=False,
        help_text="Who may challenge you: `everyone`, `friends` (mutual follows) or `nobody`.",
    )

    class Meta:
        model = Profile
        fields = ["hide_presence", "challenges_from"]


class ChallengeRequestSerializer(CreateGameSerializer):
    """A challenge: the player, and the game's settings as `games_create` takes them (two seats,
    private: those two fields are not asked)."""

    max_players = None
    visibility = None
    username = StrictCharField(max_length=150, help_text="The player you challenge.")


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = PersonSerializer()
    challenged = PersonSerializer()
    incoming = serializers.BooleanField(help_text="You are the one challenged.")
    status = serializers.ChoiceField(choices=[s for s, _ in Challenge.STATUSES])
    game_id = serializers.UUIDField(
        allow_null=True, help_text="The challenge's game (a lobby until it is accepted)."
    )
    game = serializers.CharField(allow_null=True, help_text="The game's kind.")
    options = serializers.DictField(allow_null=True, help_text="The game's house rules.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


def challenge_row(challenge: Challenge, user: Any) -> dict[str, Any]:
    game = challenge.game
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger,
        "challenged": challenge.challenged,
        "incoming": challenge.challenged_id == user.pk,
        "status": challenge.status,
        "game_id": game.pk if game is not None else None,
        "game": game.kind if game is not None else None,
        "options": game.options if game is not None else None,
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
    }


class SearchQuerySerializer(serializers.Serializer):
    q = StrictCharField(max_length=80, help_text="The start of a display name.")


def _rating_bound(which: str) -> StrictIntegerField:
    """A seek's optional bound on its opponents' shown rating."""
    return StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=10_000,
        help_text=f"The {which} shown rating of an opponent you accept (none when left out).",
    )


class SeekRequestSerializer(CreateGameSerializer):
    """A seek: the game and its house rules as `games_create` takes them (and checks them), the
    seats, and the opponents' ratings one accepts. The game's default preset, target and turn
    time: every seek of a pool plays the same game."""

    preset = None
    max_players = None
    target_score = None
    turn_seconds = None
    speed_seconds = None
    visibility = None
    seats = StrictIntegerField(
        min_value=2, max_value=10, help_text="Players in the game, you included."
    )
    min_rating = _rating_bound("lowest")
    max_rating = _rating_bound("highest")


class SeekSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = PersonSerializer(source="user")
    status = serializers.ChoiceField(
        choices=[s for s, _ in Seek.STATUSES],
        help_text="`open` (waiting), `matched` (see `game_id`), `withdrawn` or `expired`.",
    )
    game = serializers.CharField(source="kind", help_text="The game's kind.")
    seats = serializers.IntegerField()
    rated = serializers.BooleanField()
    options = serializers.DictField(child=serializers.BooleanField(), help_text="House rules.")
    rating = serializers.IntegerField(help_text="The seeker's shown rating in this game.")
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True, help_text="The game a match started.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class OpenGameSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="game.id", help_text="Join it with `games_join`.")
    game = serializers.CharField(source="game.kind", help_text="The game's kind.")
    seats = serializers.IntegerField(source="game.max_players")
    players = serializers.IntegerField(help_text="Seats taken.")
    rated = serializers.BooleanField(source="game.rated")
    options = serializers.DictField(
        source="game.options", child=serializers.BooleanField(), help_text="House rules."
    )
    host = serializers.CharField(source="host_name", help_text="The host's shown name.")
    host_rating = serializers.IntegerField(help_text="The host's shown rating in this game.")
    created_at = serializers.DateTimeField(source="game.created_at")


class LobbySerializer(serializers.Serializer):
    games = OpenGameSerializer(many=True)
    seeks = SeekSerializer(many=True)


class LobbyQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=registry.kinds(), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = registry.kinds()
