"""The ratings API's response shapes (for the schema; the selectors build the dicts)."""

from __future__ import annotations

from rest_framework import serializers


class BoardEntrySerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Equal ratings share a place (1, 2, 2, 4).")
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="The shown rating (docs/ratings.md).")
    provisional = serializers.BooleanField()
    rated_games = serializers.IntegerField()


class MyPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField(
        allow_null=True,
        help_text="The reader's place on the board, also below the top 100; null while not "
        "listed (fewer than 10 rated games, or none in the last 30 days).",
    )
    rating = serializers.IntegerField()
    provisional = serializers.BooleanField()
    rated_games = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="The game's kind, e.g. `uno_splash`.")
    entries = BoardEntrySerializer(many=True, help_text="The top 100, best first.")
    you = MyPlaceSerializer()


class HistoryPointSerializer(serializers.Serializer):
    at = serializers.DateTimeField(help_text="When the rated game ended.")
    rating = serializers.IntegerField(help_text="The shown rating after it.")
    change = serializers.IntegerField(help_text="Its change of the shown rating (+14, -9).")


class RecentGameSerializer(serializers.Serializer):
    game_id = serializers.UUIDField()
    game = serializers.CharField(help_text="The game's kind.")
    finished_at = serializers.DateTimeField()
    place = serializers.IntegerField(help_text="1 first; equal results share a place.")
    rating = serializers.IntegerField(help_text="The shown rating after it.")
    change = serializers.IntegerField()


class SeasonEntrySerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Equal wins and rating share a place.")
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.IntegerField(help_text="Rated games won (first place) in the month.")
    rating = serializers.IntegerField(
        help_text="The shown rating after the player's last rated game of the month."
    )


class SeasonBoardSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="The game's kind, e.g. `uno_splash`.")
    month = serializers.CharField(help_text="The season: a calendar month (UTC), `YYYY-MM`.")
    entries = SeasonEntrySerializer(many=True, help_text="The top 100, most wins first.")


class GameRatingSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="The game's kind.")
    rating = serializers.IntegerField(help_text="The shown rating (docs/ratings.md).")
    provisional = serializers.BooleanField()
    rated_games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    history = HistoryPointSerializer(
        many=True,
        help_text="The rating after each rated game, oldest first (of the player's latest 1,000 "
        "rated games, every game together).",
    )


class PublicProfileSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    ratings = GameRatingSerializer(many=True, help_text="Each game the player has been rated in.")
    rated_games = serializers.IntegerField(help_text="Rated games played, every game together.")
    wins = serializers.IntegerField(help_text="Rated games won (first place).")
    average_place = serializers.FloatField(allow_null=True)
    streak = serializers.IntegerField(
        help_text="Rated games won (first place) in a row up to the latest, every game together."
    )
    recent_games = RecentGameSerializer(many=True, help_text="The latest 10 rated games.")
