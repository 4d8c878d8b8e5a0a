"""What a player wants: which kinds on which channel, and quiet hours in their time zone.

Pure functions over a ``Preference`` row (or None: the defaults), used both when deliveries are
written (inside the move's transaction, so no queries here) and again when the relay sends them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from notifications import channels, kinds
from notifications.models import Preference

UTC = ZoneInfo("UTC")


def preferences_of(user_ids: Iterable[int]) -> dict[int, Preference]:
    """The saved preferences of these players by user id (one query; no row: defaults)."""
    return {p.user_id: p for p in Preference.objects.filter(user_id__in=list(user_ids))}


def channel_defaults(channel_name: str) -> dict[str, bool]:
    channel = channels.get(channel_name)
    on = set(channel.default_kinds) if channel else set()
    return {kind: kind in on for kind in kinds.KINDS}


def switches(pref: Preference | None) -> dict[str, dict[str, bool]]:
    """Every registered channel's switch for every kind: the defaults, overridden by the row."""
    saved = (pref.switches if pref else None) or {}
    result = {}
    for name in channels.names():
        merged = channel_defaults(name)
        for kind, value in (saved.get(name) or {}).items():
            if kind in merged and isinstance(value, bool):
                merged[kind] = value
        result[name] = merged
    return result


def wants(pref: Preference | None, channel_name: str, kind: str) -> bool:
    saved = ((pref.switches if pref else None) or {}).get(channel_name) or {}
    value = saved.get(kind)
    if isinstance(value, bool):
        return value
    return channel_defaults(channel_name).get(kind, False)


def zone(name: str | None) -> ZoneInfo:
    """The player's time zone; an unknown name counts as UTC rather than breaking delivery."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def quiet_until(pref: Preference | None, time_zone: str | None, now: datetime) -> datetime | None:
    """When the quiet hours that contain ``now`` end (an aware datetime), or None when ``now``
    is not in quiet hours. Start and end are local times; start after end spans midnight."""
    if pref is None or pref.quiet_start is None or pref.quiet_end is None:
        return None
    start, end = pref.quiet_start, pref.quiet_end
    if start == end:
        return None
    tz = zone(time_zone)
    local = now.astimezone(tz)
    t = local.time().replace(tzinfo=None)
    if start < end:
        inside = start <= t < end
        end_day = local.date()
    else:
        inside = t >= start or t < end
        end_day = local.date() + timedelta(days=1) if t >= start else local.date()
    if not inside:
        return None
    return _local_to_utc(end_day, end, tz)


def _local_to_utc(day: date, at: time, tz: ZoneInfo) -> datetime:
    # A wall time that does not exist (the spring-forward gap) resolves to the instant just
    # after the gap with fold=0 under zoneinfo's rules: quiet hours end a little late, never
    # early.
    return datetime.combine(day, at, tzinfo=tz).astimezone(UTC)
