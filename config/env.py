"""Typed readers for settings that come from environment variables.

Every reader records the name it was asked for in ``REGISTRY``. That record is the single list of
configuration knobs: tests compare it with docker-compose.yml and the README so a variable that is
set somewhere but never read (a typo, a renamed setting) fails the build instead of being ignored.

A bad value raises ``EnvError`` (an ``ImproperlyConfigured``) naming the variable and what was
expected. Failing at import time is deliberate: a service that starts with ``DEBUG="flase"``
silently treated as true is worse than one that refuses to start.

An empty value counts as unset. Compose files and ``.env`` files cannot easily express "unset", so
``REDIS_URL=`` has to mean "no Redis" rather than "a Redis at the empty URL".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import overload
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured


class EnvError(ImproperlyConfigured):
    """An environment variable is missing or does not parse."""


@dataclass(frozen=True)
class EnvVar:
    """What the code expects of one environment variable (kept for docs and tests)."""

    name: str
    kind: str
    default: object
    help: str


REGISTRY: dict[str, EnvVar] = {}

# A sentinel rather than None so that ``default=None`` can mean "optional, no value".
_REQUIRED: object = object()

_TRUE = frozenset({"true", "1", "yes"})
_FALSE = frozenset({"false", "0", "no"})


def registered_names() -> set[str]:
    """Names of every variable read so far in this process."""
    return set(REGISTRY)


def _raw(
    name: str, kind: str, default: object, help: str, environ: Mapping[str, str] | None
) -> str | None:
    REGISTRY[name] = EnvVar(name=name, kind=kind, default=default, help=help)
    source = os.environ if environ is None else environ
    value = source.get(name, "").strip()
    if value:
        return value
    if default is _REQUIRED:
        raise EnvError(f"Environment variable {name} is required ({kind}) but is not set.")
    return None


@overload
def env_str(name: str, *, help: str = ..., environ: Mapping[str, str] | None = ...) -> str: ...
@overload
def env_str(
    name: str, default: str, *, help: str = ..., environ: Mapping[str, str] | None = ...
) -> str: ...
@overload
def env_str(
    name: str, default: None, *, help: str = ..., environ: Mapping[str, str] | None = ...
) -> str | None: ...
def env_str(
    name: str,
    default: str | None | object = _REQUIRED,
    *,
    help: str = "",
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """A string; ``default`` when unset. Without a default the variable is required."""
    value = _raw(name, "string", default, help, environ)
    if value is None:
        return default  # type: ignore[return-value]
    return value


@overload
def env_int(
    name: str,
    *,
    min_value: int | None = ...,
    help: str = ...,
    environ: Mapping[str, str] | None = ...,
) -> int: ...
@overload
def env_int(
    name: str,
    default: int,
    *,
    min_value: int | None = ...,
    help: str = ...,
    environ: Mapping[str, str] | None = ...,
) -> int: ...
@overload
def env_int(
    name: str,
    default: None,
    *,
    min_value: int | None = ...,
    help: str = ...,
    environ: Mapping[str, str] | None = ...,
) -> int | None: ...
def env_int(
    name: str,
    default: int | None | object = _REQUIRED,
    *,
    min_value: int | None = None,
    help: str = "",
    environ: Mapping[str, str] | None = None,
) -> int | None:
    """A base-10 integer, optionally bounded below."""
    value = _raw(name, "integer", default, help, environ)
    if value is None:
        return default  # type: ignore[return-value]
    try:
        number = int(value, 10)
    except ValueError:
        raise EnvError(f"Environment variable {name} must be an integer, got {value!r}.") from None
    if min_value is not None and number < min_value:
        raise EnvError(f"Environment variable {name} must be >= {min_value}, got {number}.")
    return number


def env_bool(
    name: str,
    default: bool | object = _REQUIRED,
    *,
    help: str = "",
    environ: Mapping[str, str] | None = None,
) -> bool:
    """true/false, 1/0 or yes/no (any case). Anything else is an error, not False."""
    value = _raw(name, "boolean", default, help, environ)
    if value is None:
        return bool(default)
    word = value.lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise EnvError(
        f"Environment variable {name} must be one of true/false, 1/0, yes/no; got {value!r}."
    )


def env_list(
    name: str,
    default: list[str] | object = _REQUIRED,
    *,
    help: str = "",
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """A comma-separated list; blanks around items and empty items are dropped."""
    value = _raw(name, "comma-separated list", default, help, environ)
    if value is None:
        return list(default)  # type: ignore[call-overload]
    return [item.strip() for item in value.split(",") if item.strip()]


def env_url(
    name: str,
    default: str | None | object = _REQUIRED,
    *,
    schemes: tuple[str, ...] = (),
    help: str = "",
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """A URL with a scheme, restricted to ``schemes`` when given."""
    value = _raw(name, "URL", default, help, environ)
    if value is None:
        return default  # type: ignore[return-value]
    scheme = urlsplit(value).scheme
    if not scheme:
        # The value itself is left out of the message: URLs often carry passwords.
        raise EnvError(f"Environment variable {name} must be a URL like scheme://..., no scheme.")
    if schemes and scheme not in schemes:
        raise EnvError(
            f"Environment variable {name} must use one of the schemes {', '.join(schemes)}; "
            f"got {scheme}://."
        )
    return value
