"""The social app's answers to the apps below it (connected in ``SocialConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from games import signals as game_signals
from players import selectors as player_selectors
from players.models import User
from social import selectors, watching
from social.models import Follow, Profile
from social.search import search_key

# A save that names its fields and none of these leaves the search name as it was (log-ins
# save last_login: no profile write for them).
_NAME_FIELDS = {"display_name", "username"}


def keep_profile(
    *, instance: User, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """Every account has a profile whose search name follows its public name."""
    if update_fields is not None and not _NAME_FIELDS & set(update_fields):
        return
    if created:
        # A new account's id may be an old one's (SQLite reuses the highest after a deletion).
        selectors.forget_friends([instance.pk])
    else:  # their friends' lists show the name
        selectors.forget_friends(
            Follow.objects.filter(followee=instance).values_list("follower_id", flat=True)
        )
    key = search_key(instance.public_name)
    # A new account has no profile yet; an old one may lack it if it predates the app's rows.
    if created or not Profile.objects.filter(user=instance).update(search_name=key):
        Profile.objects.get_or_create(user=instance, defaults={"search_name": key})


def follow_changed(*, instance: Follow, **kwargs: Any) -> None:
    """A follow made or ended changes both players' friends."""
    selectors.forget_friends([instance.follower_id, instance.followee_id])


def connect() -> None:
    post_save.connect(keep_profile, sender=User, dispatch_uid="social.keep_profile")
    post_save.connect(follow_changed, sender=Follow, dispatch_uid="social.follow_saved")
    post_delete.connect(follow_changed, sender=Follow, dispatch_uid="social.follow_deleted")
    player_selectors.add_to_export("social", selectors.export_social)
    game_signals.watching_game.connect(
        watching.refuse_spectator, dispatch_uid="social.refuse_spectator"
    )
