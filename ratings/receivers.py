"""The ratings app's answers to games.signals (connected in ``RatingsConfig.ready``)."""

from __future__ import annotations


def connect() -> None:
    pass
